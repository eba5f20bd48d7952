/* A set of process ids, exact, in little memory when the ids run on: the
 * ranks of a node are started one after another, so their pids form a few
 * runs (1000, 1001, ...; or every third when each rank starts two threads,
 * or when a class holds every third rank), and a node's set is a handful of
 * (first, count, step) whatever the number of ranks. Ids that scatter past
 * the runs go to a hash. */
#ifndef RDMARUN_EVIDENCE_PIDSET_H
#define RDMARUN_EVIDENCE_PIDSET_H
#include "util/hashtab.h"
#include <stdbool.h>
#include <stddef.h>

#define PIDSET_RUNS 16   /* runs kept before scattered ids go to the hash */

struct pidset {
    struct pid_run { long first, count, step; } *runs;   /* first + k * step, k < count */
    size_t nruns, runs_cap;
    struct hashtab hash; /* the ids past the runs (util/hashtab.h) */
    unsigned long long count;
};

/* Add pid; whether it was new. */
bool pidset_add(struct pidset *s, long pid);
bool pidset_has(const struct pidset *s, long pid);
/* Up to max of the ids past the runs (those above 0), into out; how many. */
size_t pidset_scattered(const struct pidset *s, long *out, size_t max);
void pidset_free(struct pidset *s);

#endif
