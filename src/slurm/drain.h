/* Slurm: drain this node with "rdmarun: REASON" (never over a drain set by
 * someone else), or resume it when an rdmarun drain is the reason it is out.
 * scontrol: its path, or NULL to find it. Each returns 0 or an RR_EX_* status
 * after printing why. */
#ifndef RDMARUN_SLURM_DRAIN_H
#define RDMARUN_SLURM_DRAIN_H

#include <stdbool.h>

/* Whether NAME is one node's name as Slurm takes a NodeName: letters,
 * digits, '-', '_', '.', at most 64 characters, not starting with '-'. Slurm
 * reads NodeName= as a hostlist, so "n[1-99]", "n1,n2" or "ALL" would drain
 * many nodes from one node's check. */
bool slurm_node_name_ok(const char *name);
int slurm_drain(const char *scontrol, const char *node, const char *reason);
int slurm_resume_ours(const char *scontrol, const char *node);

#endif
