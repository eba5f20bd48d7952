/* The per-rank helper's own process (cmd/rank.c runs it): the launcher's
 * view of this rank, and applying a placement to it before exec. */
#ifndef RDMARUN_LAUNCH_RANK_H
#define RDMARUN_LAUNCH_RANK_H
#include "profile/settings.h"
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

/* This rank's local rank, ranks on its node and global rank, from whichever
 * launcher started it (each row's variables of the launcher table, MVAPICH's,
 * Cray PMI's, torchrun's or RDMARUN_LOCAL_*); returns the variable it read,
 * or NULL. */
const char *rank_from_launcher(long *local, long *size, long *rank);
/* Bind this process to PUs ("8-15", OS indexes), or its memory to NUMA
 * nodes ("0" or "0-3"): prefer one node, interleave over several; bind to
 * them. 0, or -1 with errno. */
int rank_bind_cpus(const char *pus);
/* The affinity mask of a PU list, sized for its highest PU (CPU_ALLOC):
 * *size bytes, freed with CPU_FREE; NULL for a list that is not one. */
cpu_set_t *rank_cpu_set(const char *pus, size_t *size);
int rank_bind_memory(const char *nodes, enum memory_policy how);
/* Whether a visible-devices list the rank already has (Slurm's --gpus or
 * --gpu-bind, a site's or the user's) gives it fewer than all `n` of that
 * vendor's GPUs: the job was given those, so the helper keeps the list
 * rather than hand the rank a GPU that may not be the job's. The indexes
 * 0..n-1 in any order (a whole node's) restrict nothing; anything else
 * (fewer, UUIDs, MIG instances) does. */
bool rank_devices_restricted(const char *before, size_t n);

#endif
