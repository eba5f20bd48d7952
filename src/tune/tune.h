/* rdmarun tune: the tune's settings (cmd/tune.c fills them from the command
 * line, tune_load from an earlier tune's folder) and its run
 * (tune/session.c: the folder, the journal, the runs, the search, the tuned
 * profile and the summary). */
#ifndef RDMARUN_TUNE_H
#define RDMARUN_TUNE_H
#include "tune/space.h"
#include "util/strvec.h"
#include <stdbool.h>

struct tune {
    char *dir;               /* the results folder */
    char *base;              /* -p BASE as given */
    char *space_file;        /* --space FILE (NULL: the default space) */
    long budget_runs;        /* --budget N: at most N runs (0: no limit) */
    double budget_s;         /* --budget TIME: at most this long (0: no limit) */
    char *metric;            /* --metric REGEX (NULL: the built-in benchmark's, else wall time) */
    bool higher;             /* --higher-is-better */
    struct strvec args;      /* rdmarun's job options and the launcher's, as given */
    struct strvec program;   /* the benchmark and its arguments (the built-in one's when not given) */
    struct tune_space space; /* what is searched (saved with the settings: a resume searches
                              * the same values whatever is installed then) */
};

/* The built-in benchmark (the installed mpi_pingpong sweep): its path,
 * or NULL after saying why it is not there. Caller frees. */
char *tune_builtin_benchmark(void);
/* The metric of the built-in benchmark: each size's one-way latency or
 * allreduce time, in microseconds, per bin. */
#define TUNE_BUILTIN_METRIC \
    "^((pingpong|allreduce) size=[0-9]+) .*(latency_us|time_us)=([0-9.eE+-]+)"

/* An earlier tune's settings, from DIR/tune.conf, to resume it. */
int tune_load(struct tune *t, const char *dir);
/* Run the tune t holds: a new one in `output` (NULL: rdmarun-tune/TIMESTAMP)
 * or the one tune_load read, resumed. Returns rdmarun's exit status. */
int tune_run(struct tune *t, const char *output);
void tune_free(struct tune *t);

#endif
