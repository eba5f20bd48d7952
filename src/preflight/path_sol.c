/* The path test's bandwidth against the speed-of-light model: its 32 writes
 * of 32 KiB (verbs: all in flight; libfabric: RX_DEPTH 4), on the port a
 * node's record names (driver, link layer, rate, MTU). */
#include "preflight/path_report.h"
#include "model/model.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static enum link_kind kind_of(const char *driver, const char *ll)
{
    static const struct {
        const char *driver;
        enum link_kind kind;
    } drivers[] = {{"rdma_rxe", KIND_SOFT}, {"siw", KIND_SOFT}, {"vmw_pvrdma", KIND_SOFT},
                   {"efa", KIND_EFA},        {"cxi", KIND_CXI}, {"hfi1", KIND_OPA}};
    for (size_t i = 0; driver && i < sizeof(drivers) / sizeof(*drivers); i++)
        if (strcmp(driver, drivers[i].driver) == 0)
            return drivers[i].kind;
    return !ll ? KIND_UNKNOWN : strcmp(ll, "InfiniBand") == 0 ? KIND_IB
           : strcmp(ll, "Ethernet") == 0 ? KIND_ROCE : KIND_UNKNOWN;
}

char *path_sol_text(const char *driver, const char *ll, const char *rate, const char *mtu,
                    bool libfabric, double bw_mbps)
{
    if (!rate || bw_mbps <= 0)
        return xstrdup("");
    struct node_model m;
    node_model_init(&m);
    m.kind = kind_of(driver, ll);
    m.nic_gbps = m.nic_data_gbps = atof(rate);
    m.mtu = mtu ? atoi(mtu) : 0;
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
