#ifndef RDMARUN_COMPARE_RUNS_H
#define RDMARUN_COMPARE_RUNS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RUNS_CSV_HEADER "run,round,phase,profile,np,wall_s,status,verdict,expect,metric,included\n"

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
};

/* runs.csv opened to append: created with its header (once: when new or
 * empty); a last line cut short (killed mid-write) is cut off. An fd, or -1
 * with errno. */
int runs_open(const char *path);
/* One line of runs.csv in one write, fsync'd. 0, or -1 with errno. */
int runs_append(int fd, const struct run *r);
/* Every complete row of a runs.csv (a last line cut short by an
 * interruption, a header or a malformed line is skipped); *out is malloc'd. */
size_t runs_read(const char *path, struct run **out);

#endif
