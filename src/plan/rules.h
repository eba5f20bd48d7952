/* Field knowledge: settings a plan needs on certain nodes, each with its
 * condition, reason and upstream reference. One table, in rules.c. */
#ifndef RDMARUN_RULES_H
#define RDMARUN_RULES_H
#include "facts/facts.h"
#include "plan/ports.h"
#include <stdbool.h>

struct rule_context {
    const char *fabric;            /* ib, roce, pvrdma, tcp, shm, none */
    const char *ucx_version;
    const char *pml;               /* pml in effect so far, or NULL */
    const char *ucx_tls;           /* UCX_TLS in effect so far, or NULL */
    const struct facts *facts;
    /* the ports the job will use, nearest to its ranks */
    const struct port_ref *ports;
    size_t nports;
};

struct rule {
    const char *id;
    const char *ucx_fixed_in;      /* applies to UCX versions below this; NULL = any */
    bool (*applies)(const struct rule_context *ctx);
    const char *condition;         /* the condition, in words */
    const char *section, *key, *value;
    const char *reason;
    const char *upstream;
    const char *applies_to;        /* the versions it applies to, as checked */
    /* the value from the node, when `value` is NULL */
    const char *(*value_of)(const struct rule_context *ctx);
};

extern const struct rule rules[];
extern const size_t nrules;

bool rule_applies(const struct rule *r, const struct rule_context *ctx);

#endif
