/* rdmarun check: the node health check for Slurm prologs and
 * HealthCheckProgram. The checks (health_checks.c) run in a worker process
 * that reports one line per event; the supervisor (health.c) holds every
 * check and the whole run to a time limit, prints one line per failed check
 * and a summary, and drains or resumes the node (slurm_drain.c). */
#ifndef RDMARUN_HEALTH_H
#define RDMARUN_HEALTH_H
#include "profile.h"
#include <stdio.h>

/* Site configuration: [check] of this file, writable by root only. */
#ifndef RDMARUN_SYSCONFDIR
#define RDMARUN_SYSCONFDIR "/etc"
#endif
#define HEALTH_CONFIG RDMARUN_SYSCONFDIR "/rdmarun/check.ini"

/* The worker: runs every check the configuration asks for, writing to `out`
 *   begin NAME            a check starts
 *   fail NAME<TAB>TEXT    it found a problem (once per problem)
 *   end NAME              it finished
 * and returns. sysfs_root: a recorded tree instead of /sys (tests). */
void health_checks(const struct profile *cfg, const char *sysfs_root, FILE *out);

/* Slurm: drain this node with "rdmarun: REASON" (never over a drain set by
 * someone else), or resume it when an rdmarun drain is the reason it is out.
 * Returns 0 or an RR_EX_* status after printing why. */
int slurm_drain(const char *scontrol, const char *node, const char *reason);
int slurm_resume_ours(const char *scontrol, const char *node);

#endif
