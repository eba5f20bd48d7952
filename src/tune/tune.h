/* rdmarun tune: the tune's settings (cmd/tune.c fills them from the command
 * line, tune_load from an earlier tune's folder) and its run
 * (tune/session.c: the folder, the journal, the runs, the search, the tuned
 * profile and the summary). */
#ifndef RDMARUN_TUNE_H
#define RDMARUN_TUNE_H
#include "compare/results_dir.h"
#include "tune/space.h"
#include "util/strvec.h"
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

struct tune {
    struct results_dir out;  /* the results folder */
    char *base;              /* -p BASE as given */
    char *space_file;        /* --space FILE (NULL: the default space) */
    long budget_runs;        /* --budget N: at most N runs (0: no limit) */
    double budget_s;         /* --budget TIME: at most this long (0: no limit) */
    char *metric;            /* --metric REGEX (NULL: the built-in benchmark's, else wall time) */
    bool higher;             /* --higher-is-better */
    struct strvec args;      /* rdmarun's job options and the launcher's, as given */
    struct strvec program;   /* the benchmark and its arguments (the built-in one's when
                              * not given) */
    struct tune_space space; /* what is searched (saved with the settings: a resume searches
                              * the same values whatever is installed then) */
    bool tuned;              /* tune_run's result: tuned.ini sets values that beat the base */
    int nodes;               /* the nodes the job names (cmd/job_hosts.c); 0 or 1: one */
};

/* The built-in benchmark: the installed mpi_pingpong sweep, or with ucx
 * libexec/ucx-pair (ucx_perftest's server and client); its path, or NULL
 * after saying why it is not there. Caller frees. */
char *tune_builtin_benchmark(bool ucx);
/* The metric of the built-in benchmark: each size's one-way latency,
 * allreduce or broadcast time, in microseconds, per bin; and the
 * collectives it measures (whose Open MPI algorithms the default space
 * holds). */
#define TUNE_BUILTIN_METRIC \
    "^((pingpong|allreduce|bcast) size=[0-9]+) .*(latency_us|time_us)=([0-9.eE+-]+)"
#define TUNE_BUILTIN_COLLECTIVES "allreduce bcast"
/* ucx-pair's: each test's time per message (latency, or a bandwidth test's
 * overhead) at each size, in microseconds. */
#define TUNE_UCX_METRIC "^((tag_lat|tag_bw) size=[0-9]+) .*time_us=([0-9.eE+-]+)"

/* An earlier tune's folder (results_dir_resume, locked) and its settings,
 * from DIR/tune.conf, for `who` ("tune --resume", "tune --validate"). */
int tune_load(struct tune *t, const char *dir, const char *who);
/* What makes a tune's samples its own: its settings (tune.conf) and its
 * base profile merged with its parents. Its journals record it. */
uint64_t tune_identity(const struct tune *t);
/* Run the tune t holds: a new one in `output` (NULL: rdmarun-tune/TIMESTAMP)
 * or the one tune_load read, resumed. Returns rdmarun's exit status. */
int tune_run(struct tune *t, const char *output);
void tune_free(struct tune *t);
/* rdmarun tune --validate DIR: the base and DIR/tuned.ini, `pairs` rounds
 * of each, interleaved; per bin the speedup and its interval, a table,
 * DIR/validate.csv and a plot. Returns rdmarun's exit status. */
int tune_validate(struct tune *t, long pairs);

/* Within tune/: */
struct journal_record;
/* rdmarun itself on `profile` with configuration choice (NULL: none), the
 * tune's options and benchmark; evidence in evdir (NULL: none asked for). */
void tune_job_argv(const struct tune *t, const char *self, const char *profile,
                   const unsigned *choice, const char *evdir, struct strvec *argv);
/* What every run is judged against: the base's plan's expectation ("any"
 * under --verify off); NULL after saying why, with the status in *rc. */
char *tune_expectation(const struct tune *t, const char *self, int *rc);
/* One run of argv, its figures read with re into r (sample and config left
 * to the caller); false when interrupted, or stopped at `deadline`
 * (proc_now() time; < 0: none). */
bool tune_measure(const struct tune *t, const regex_t *re, char *const *argv, const char *evdir,
                  const char *log, const char *expect, double deadline,
                  struct journal_record *r);
/* "+8.1% (95% CI +4.0% to +12.3%, 5 pairs)" */
char *tune_gain_text(const struct paired_gain *g);
/* The columns of tune's tables of bins (summary, --validate; util/table.h):
 * the bin, both medians, the gain in words (text; its header gain_head)
 * and as numbers (CSV, JSON), the pairs, the tuned median's share of the
 * speed of light (light.c). */
#define TUNE_BIN_COLS 9
struct table;
struct table_col;
void tune_bin_cols(const char *gain_head, struct table_col *cols);
/* A bin's row on each of the n tables; light NAN: none. */
void tune_bin_row(const struct table *ts, size_t n, const char *bin, double base, double tuned,
                  double light, const struct paired_gain *g);

#endif
