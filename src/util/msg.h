/* Messages and exit statuses. Every status here is documented in rdmarun(1). */
#ifndef RDMARUN_MSG_H
#define RDMARUN_MSG_H
#include <stdbool.h>
#include <stdio.h>

enum rr_exit {
    RR_EX_OK = 0,
    RR_EX_USAGE = 64,       /* bad command line */
    RR_EX_DATAERR = 65,     /* bad input data (facts file, logs) */
    RR_EX_NOINPUT = 66,     /* profile or file not found / not readable */
    RR_EX_UNAVAILABLE = 69, /* required device, port or value not available on this node */
    RR_EX_SOFTWARE = 70,    /* internal error */
    RR_EX_OSERR = 71,       /* fork, exec or another system call failed */
    RR_EX_CANTCREAT = 73,   /* the evidence directory cannot be written */
    RR_EX_CONFIG = 78,      /* invalid profile or configuration */
    RR_EX_FALLBACK = 80,    /* evidence shows traffic on TCP where RDMA was expected */
    RR_EX_LOCAL = 81,       /* verify: only shared memory and self paths seen */
    RR_EX_NO_EVIDENCE = 82, /* no usable transport evidence (where RDMA was expected) */
    RR_EX_PATH = 83,        /* the path test between nodes failed */
    RR_EX_DEGRADED = 84,    /* NCCL within a node below the tier its graph shows;
                               judge: a result below the speed of light's normal share */
    RR_EX_BROKEN = 85,      /* judge: a result far below the speed of light (broken) */
    RR_EX_NOEXEC = 126,     /* rdmarun rank: the program could not be executed */
    RR_EX_NOTFOUND = 127,   /* the launcher (mpirun) was not found */
};

/* Colour (--color): mode "auto" (NULL), "always" or "never". */
void msg_color(const char *mode);
/* Whether what goes to f is coloured: always, never, or on a terminal when
 * NO_COLOR is unset or empty. */
bool msg_color_on(FILE *f);
/* A verdict line for f, its leading FALLBACK coloured when f is (a copy). */
char *msg_paint_verdict(FILE *f, const char *line);
/* "warning: " for f, coloured when f is. */
const char *msg_warning_word(FILE *f);
/* "error: " for f, coloured when f is. */
const char *msg_error_word(FILE *f);

/* Until msg_capture(NULL): messages are not printed, and the first error's
 * text (without "error: ") goes to *first (NULL if none; the caller frees). */
void msg_capture(char **first);

void rr_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rr_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
