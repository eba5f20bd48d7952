/* A set of process ids, exact, in little memory when the ids run on: the
 * ranks of a node are started one after another, so their pids form a few
 * runs, and a node's set is a handful of (first, last) pairs whatever the
 * number of ranks. Ids that scatter past the runs go to a hash. */
#ifndef RDMARUN_EVIDENCE_PIDSET_H
#define RDMARUN_EVIDENCE_PIDSET_H
#include <stdbool.h>
#include <stddef.h>

#define PIDSET_RUNS 16   /* runs kept before scattered ids go to the hash */

struct pidset {
    long (*runs)[2];     /* sorted, disjoint, not adjacent: [first, last] */
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
