/* A set of process ids, exact, in little memory when the ids run on: the
 * ranks of a node are started one after another, so their pids form a few
 * runs (1000, 1001, ...; or every third when each rank starts two threads,
 * or when a class holds every third rank), and a node's set is a handful of
 * (first, count, step) whatever the number of ranks. Ids that scatter past
 * the runs go to a hash. */
#ifndef RDMARUN_EVIDENCE_PIDSET_H
#define RDMARUN_EVIDENCE_PIDSET_H
#include <stdbool.h>
#include <stddef.h>

#define PIDSET_RUNS 16   /* runs kept before scattered ids go to the hash */

struct pidset {
    struct pid_run { long first, count, step; } *runs;   /* first + k * step, k < count */
    size_t nruns, runs_cap;
    long *hash;          /* open addressing; PIDSET_EMPTY marks a free slot */
    size_t hash_n, hash_cap;
    unsigned long long count;
};

/* Add pid; whether it was new. */
bool pidset_add(struct pidset *s, long pid);
bool pidset_has(const struct pidset *s, long pid);
void pidset_free(struct pidset *s);

#endif
