/* rdmarun check: the node health check (health/), or with --qp-test the
 * verbs RC loopback on the node's ports (preflight/). */
#include "cmd/commands.h"
#include "facts/facts.h"
#include "health/health.h"
#include "preflight/preflight.h"

int cmd_check(const struct cmdline *cl)
{
    if (!cl->qp_test) {
        struct health_request rq = {cl->config, cl->sysfs, cl->drain, cl->node, cl->scontrol};
        return health_main(&rq);
    }
    struct facts f;
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false};
    int rc = facts_gather(&f, &src);
    if (!rc)
        rc = check_qp_ports(&f, cl->device, cl->gid_index, false);
    facts_free(&f);
    return rc;
}

