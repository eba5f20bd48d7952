/* rdmarun check: the node health check for Slurm prologs and
 * HealthCheckProgram. The checks (checks.c) run in a worker process that
 * reports one line per event; health.c holds every check and the whole run
 * to a time limit, prints one line per failed check and a summary, and
 * drains or resumes the node (slurm/drain.c). */
#ifndef RDMARUN_HEALTH_H
#define RDMARUN_HEALTH_H
#include "profile/profile.h"
#include <stdbool.h>
#include <stdio.h>

/* Site configuration: [check] of this file, writable by root only. */
#ifndef RDMARUN_SYSCONFDIR
#define RDMARUN_SYSCONFDIR "/etc"
#endif
#define HEALTH_CONFIG RDMARUN_SYSCONFDIR "/rdmarun/check.ini"

/* What `rdmarun check` was asked (without --qp-test). */
struct health_request {
    const char *config;     /* --config FILE, or NULL: HEALTH_CONFIG */
    const char *sysfs;      /* --sysfs DIR: a recorded tree instead of /sys */
    bool drain;             /* --drain: drain on failure, resume our own drain on success */
    bool json;              /* --json: the result as JSON on stdout, each problem's code */
    const char *node;       /* --node NAME, or NULL: $SLURMD_NODENAME, else the host name */
    const char *scontrol;   /* --scontrol PATH, or NULL: found on PATH */
    const char *prometheus; /* --prometheus FILE: node_exporter's textfile, or NULL */
    const char *manifest;   /* --manifest FILE (over [check] manifest), or NULL */
    bool epilog;            /* --epilog: the job's counters against its prolog's */
};

/* Where the checks run: a recorded tree instead of /sys (NULL: /sys), and
 * the Slurm job whose prolog (or, with epilog, epilog) this is (NULL:
 * neither: a HealthCheckProgram run). */
struct health_scope {
    const char *sysfs;
    const char *job;
    bool epilog;
};

/* [check] counter-limits (FAMILY:N, ...; families link, loss, error,
 * receiver, congestion, other): each family's limit into limit (by
 * default link, loss and error 0, the others -1: unlimited); false with
 * the first item that is not one in *bad (to free). */
bool health_counter_limits(const char *value, long long *limit, char **bad);
/* Run the check; 0 healthy, RR_EX_UNAVAILABLE unhealthy, or another RR_EX_*. */
int health_main(const struct health_request *rq);

/* The worker: runs every check the configuration asks for, writing to `out`
 *   begin NAME            a check starts
 *   fail NAME<TAB>TEXT    it found a problem (once per problem)
 *   end NAME              it finished
 * and returns. */
void health_checks(const struct profile *cfg, const struct health_scope *scope, FILE *out);

#endif
