/* The per-rank helper's own process (cmd/rank.c runs it): the launcher's
 * view of this rank, and applying a placement to it before exec. */
#ifndef RDMARUN_LAUNCH_RANK_H
#define RDMARUN_LAUNCH_RANK_H
#include "profile/settings.h"
#include <stdbool.h>

/* This rank's local rank, ranks on its node and global rank, from whichever
 * launcher started it (Open MPI, Slurm, MPICH/Intel MPI, MVAPICH, or
 * RDMARUN_LOCAL_*); returns the variable it read, or NULL. */
const char *rank_from_launcher(long *local, long *size, long *rank);
/* Bind this process to PUs ("8-15", OS indexes), or its memory to NUMA
 * nodes ("0" or "0-3"): prefer one node, interleave over several; bind to
 * them. 0, or -1 with errno. */
int rank_bind_cpus(const char *pus);
int rank_bind_memory(const char *nodes, enum memory_policy how);

#endif
