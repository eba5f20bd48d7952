#ifndef RDMARUN_COMPARE_RUNS_H
#define RDMARUN_COMPARE_RUNS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RUNS_CSV_HEADER \
    "run,round,phase,profile,np,wall_s,status,verdict,expect,metric,included,bin\n"

#define RUNS_MAX_LINE 1024       /* bytes: a row is at most 512 */
#define RUNS_MAX_NP 10000000L

/* One recorded run (a row of runs.csv). */
struct run {
    int index, round;
    bool warmup;
    char profile[128];
    long np;
    double wall, metric;     /* metric: NAN when none */
    int status;
    char verdict[16], expect[16];
    bool included;
    char bin[64];            /* the metric's bin (its regex's first of two groups), or "" */
};

/* runs.csv opened to append: created with its header (once: when new or
 * empty); a last line cut short (killed mid-write) is cut off. An fd, or -1
 * with errno. */
int runs_open(const char *path);
/* One line of runs.csv in one write, fsync'd; the bin's commas, quotes and
 * control bytes written as '_'. 0, or -1 with errno. */
int runs_append(int fd, const struct run *r);
/* Every row of a runs.csv, each checked whole: fields that parse entirely
 * and lie in range (RUNS_MAX_*), runs numbered 0, 1, 2, ... in order. A
 * last line cut short (an interruption as it was written) is left out; a
 * row without the last field (bin) is one written before it was kept; any
 * other line that is not such a row stops the reading with PATH:LINE and
 * why (RR_EX_DATAERR). 0 otherwise, a missing file too (no rows); *out is
 * malloc'd, *n rows. */
int runs_read(const char *path, struct run **out, size_t *n);

#endif
