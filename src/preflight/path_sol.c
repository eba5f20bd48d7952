/* The path test's bandwidth against the speed-of-light model: its 32 writes
 * of 32 KiB (verbs: all in flight; libfabric: RX_DEPTH 4), on the port a
 * node's record names (driver, link layer, rate, MTU). */
#include "preflight/path_report.h"
#include "facts/facts.h"
#include "model/model.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

char *path_sol_text(const char *driver, const char *ll, const char *rate, const char *mtu,
                    bool libfabric, double bw_mbps)
{
    if (!rate || bw_mbps <= 0)
        return xstrdup("");
    /* the port as its record says it: the model's own reading of a port
     * (facts' port_kind by driver, then link layer) */
    struct rdma_device d = {.name = (char *)"", .driver = (char *)(driver ? driver : "")};
    struct rdma_port p = {.link_layer = (char *)ll, .rate_gbps = atof(rate),
                          .active_mtu = mtu ? atoi(mtu) : 0};
    struct node_model m;
    node_model_init(&m);
    node_model_port(&m, &d, &p);
    m.nics = 1;
    m.nodes = 2;
    struct bench b = {.op = OP_BW, .scope = SCOPE_NET, .window = libfabric ? 4 : 32};
    node_model_assume(&m, &b);
    struct sol_figure e;
    model_expect(&m, &b, 32 * 1024, &e);
    node_model_free(&m);
    if (e.none)
        return xasprintf(" (%s)", e.limit);
    return xasprintf(" (%.0f%% of the speed of light's %.0f MB/s for 32 KiB writes: %s)",
                     bw_mbps / (e.gbs * 1e3) * 100, e.gbs * 1e3, e.limit);
}
