/* What every health check shares (checks.c, check_history.c): the run's
 * context and how a check reports. */
#ifndef RDMARUN_HEALTH_CHECK_CTX_H
#define RDMARUN_HEALTH_CHECK_CTX_H
#include "facts/facts.h"
#include "health/health.h"
#include "profile/profile.h"
#include <stdio.h>

#ifndef RDMARUN_LOCALSTATEDIR
#define RDMARUN_LOCALSTATEDIR "/var"
#endif

/* Bounds of what one check run looks at, each said when reached. */
#define HEALTH_MAX_PORTS 64
#define HEALTH_MAX_HISTORY 256

struct hctx {
    const struct profile *cfg;
    const char *sysfs;        /* "/sys" or a recorded tree */
    struct health_scope scope;
    struct facts f;
    const char *check;        /* the running check */
    FILE *out;
    /* The ports the checks look at: those named by `devices`, else every port. */
    const struct rdma_device *dev[HEALTH_MAX_PORTS];
    const struct rdma_port *port[HEALTH_MAX_PORTS];
    size_t n;
    size_t left_out;          /* ports past HEALTH_MAX_PORTS: said, not looked at */
};

/* A problem the running check found, with its fault code (NULL: the
 * check's own, health/fault_codes.c). */
void hc_problem_as(struct hctx *h, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define problem(h, ...) hc_problem_as(h, NULL, __VA_ARGS__)
/* What the running check could not look at: said, not failed. */
void hc_note(struct hctx *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A [check] key's value, or NULL. */
const char *hc_cfg(const struct hctx *h, const char *key);
/* A [check] number of seconds or a count, else its default in the key
 * table (profile/schema.c), else 0: off. */
long long hc_cfg_count(const struct hctx *h, const char *key);
/* The checks of check_history.c. */
void check_counters(struct hctx *h);
void check_flaps(struct hctx *h);
void check_kmsg(struct hctx *h);

#endif
