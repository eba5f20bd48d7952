/* The path test's command, pure: one `rdmarun path-peer` per node, started
 * by the job's own launcher with the job's host options (mpirun --map-by
 * ppr:1:node, or srun --ntasks-per-node=1 --mpi=pmix), and the nodes the
 * job names. Built by the plan before a multi-node RDMA job, and by
 * `rdmarun check --path-test`; run by preflight/path_test.c. */
#ifndef RDMARUN_PLAN_PATH_H
#define RDMARUN_PLAN_PATH_H
#include "util/strvec.h"
#include <stdbool.h>

#define PATH_STEP_S 2.0          /* each step of each node */
#define PATH_ALL_PAIRS_MAX 32    /* all pairs is n*(n-1) pairs: a ring beyond this */

struct path_request {
    bool srun;                        /* the launcher: srun, else mpirun */
    const char *launcher;             /* its path, or NULL: the bare name */
    const struct strvec *mpirun_args; /* the job's mpirun options, or NULL */
    const struct strvec *hosts;       /* the nodes the job names (-H, --hostfile), or NULL */
    long alloc_nodes;                 /* Slurm's allocation: SLURM_JOB_NUM_NODES, or -1 */
    const char *self;                 /* rdmarun's path */
    const char *device;               /* a device the profile names, or NULL: each node's own */
    int gid_index;                    /* the profile's GID index, or -1: each node's own */
    const char *provider;             /* a libfabric provider to test with, or NULL: verbs */
    bool all_pairs;
    double timeout_s, step_s;
};

struct path_plan {
    bool srun;                 /* started by srun, else by mpirun */
    struct strvec argv;        /* the launcher with the peers */
    struct strvec hosts;       /* distinct nodes named, for naming the silent ones */
    long nodes;                /* how many nodes the job spans; -1: unknown */
    bool all_pairs;
    double timeout_s;
    struct strvec notes;
};

void path_plan_build(const struct path_request *rq, struct path_plan *out);
void path_plan_free(struct path_plan *p);
/* The same test between nodes A and B alone (re-pairing a suspect with a
 * good node): the launcher's host options replaced by the two (mpirun -H
 * A,B; srun --nodes=2 --nodelist=A,B), a ring of 2. */
void path_plan_pair(const struct path_plan *pp, const char *a, const char *b,
                    struct path_plan *out);

#endif
