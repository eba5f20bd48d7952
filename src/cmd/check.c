/* rdmarun check: the node health check (health/), or with --qp-test the
 * verbs RC loopback on the node's ports (preflight/). */
#include "cmd/commands.h"
#include "facts/facts.h"
#include "health/health.h"
#include "preflight/preflight.h"
#include "util/msg.h"
#include "util/text.h"

int cmd_check(const struct cmdline *cl)
{
    if (!cl->qp_test) {
        struct health_request rq = {cl->config, cl->sysfs, cl->drain, cl->node, cl->scontrol};
        return health_main(&rq);
    }
    long gid = -1;
    if (cl->gid_index && !parse_long(cl->gid_index, 0, 255, &gid)) {
        rr_error("--gid-index %s: expected a GID table index from 0 to 255", cl->gid_index);
        return RR_EX_USAGE;
    }
    struct facts f;
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false};
    int rc = facts_gather(&f, &src);
    if (!rc) {
        struct plan_port ports[MAX_PORTS];
        size_t n = preflight_ports(&f, cl->device, (int)gid, ports, MAX_PORTS);
        rc = preflight_qp_test(ports, n, cl->device ? "such device or port" : "ACTIVE RDMA port",
                               false);
    }
    facts_free(&f);
    return rc;
}
