/* One measured job, as compare and tune run them: rdmarun itself (so the job
 * is planned, verified and recorded like any other), its output in a log,
 * its evidence judged against what the profile expects, and the figures
 * the job printed read from its log. Also the plan a job would have
 * (rdmarun --dry-run --json), and Ctrl-C passed to the job. */
#ifndef RDMARUN_COMPARE_MEASURE_H
#define RDMARUN_COMPARE_MEASURE_H
#include "util/strvec.h"
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

struct measured {
    int status;          /* rdmarun's exit status; -1: it could not start */
    double wall;         /* seconds */
    char verdict[16];    /* verdict_name of its evidence */
    bool met;            /* the verdict meets the expectation */
    bool timed_out;      /* its deadline came first: it was stopped */
};

/* SIGINT and SIGTERM from now on: passed to the running job, and
 * measure_interrupted() says so. */
void measure_catch_signals(void);
bool measure_interrupted(void);

/* Run argv (rdmarun ... --evidence-dir EVDIR ...), stdout and stderr into
 * log, and judge the evidence in evdir against `expect` (an expectation
 * name). At `deadline` (proc_now() time; < 0: none) the run is stopped,
 * its whole tree, and m->timed_out says so. */
void measure_run(char *const *argv, const char *log, const char *evdir, const char *expect,
                 double deadline, struct measured *m);

/* Save the plan of the job argv names (its rdmarun words, without
 * --dry-run --json, which this adds) in path, and return what it expects
 * ("rdma", "local", ...). NULL after saying why, with the status a job of
 * it would have had in *status. `what` names the job in messages. */
char *measure_plan(const struct strvec *argv, const char *path, const char *what, int *status);

/* Compile an extended regular expression given as `option`; false after
 * saying why: one that is not, or one with a backreference (\1 to \9:
 * matching time exponential in the line's length). */
bool metric_compile(regex_t *re, const char *regex, const char *option);
/* Why a run that failed failed, as its output says: the first line of the
 * log that names it (rdmarun's own error, the launcher's "not enough
 * slots", mpirun's "exited with non-zero status"), terminal-safe and at
 * most 200 bytes; NULL when none does. The caller frees. */
char *measure_failure(const char *log);
/* A figure's bound (the journals refuse more) and the longest line read:
 * past it, a line's rest is left unread, with a warning. */
#define METRIC_MAX 1e18
#define MEASURE_MAX_WALL 1e9   /* seconds a recorded run may have taken */
#define METRIC_LINE_MAX (1024 * 1024)
/* Each match of re in the log, in order: the value is the last group that
 * matched (else the whole match); the bin, with two groups or more, the
 * first group (else ""). Calls found(ctx, bin, value) for each value that
 * is a number. */
void metric_read(const regex_t *re, const char *log,
                 void (*found)(void *ctx, const char *bin, double value), void *ctx);

#endif
