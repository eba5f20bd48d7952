/* Messages and exit statuses. Every status here is documented in rdmarun(1). */
#ifndef RDMARUN_MSG_H
#define RDMARUN_MSG_H

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
    RR_EX_NOEXEC = 126,     /* rdmarun rank: the program could not be executed */
    RR_EX_NOTFOUND = 127,   /* the launcher (mpirun) was not found */
};

void rr_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rr_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Drop every message while on: a look-ahead (the profile read to know its
 * launcher before the command line is parsed) whose problems the real step
 * says later. */
void rr_mute(int on);

#endif
