/* What verify = strict sets so that a library errors where it would
 * silently take a lower path (issues 46, 49): a table of the libraries' own
 * fail-closed switches, each with the fact that makes it safe, on the node
 * or in the plan. A switch the profile or the command line already gives
 * is theirs. */
#include "plan/launchers.h"
#include "plan/plan.h"
#include "plan/ports.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static bool nvlink_all_pairs(const struct plan *p, const struct facts *f)
{
    (void)p;
    return facts_nvlink_all_pairs(f);
}

static const struct fabric_row *ofi_fabric(const struct plan *p)
{
    const struct fabric_row *row = fabric_row(p->fabric);
    return row && row->layer == LAYER_OFI ? row : NULL;
}

static bool on_ofi_fabric(const struct plan *p, const struct facts *f)
{
    (void)f;
    return ofi_fabric(p) != NULL;
}

/* NCCL_NET names a network NCCL must load or fail ("network X not found",
 * src/plugin/net.cc); on one node it would force the network transport
 * (HPE's ccl_env.sh; Google's TCPX scripts unset it there), so only a job
 * known to span nodes gets it. */
static bool between_nodes(const struct plan *p)
{
    return p->job_nodes > 1;
}

static bool nccl_plugin_fabric(const struct plan *p, const struct facts *f)
{
    (void)f;
    const struct fabric_row *row = fabric_row(p->fabric);
    return row && (row->layer == LAYER_OFI || row->layer == LAYER_TCPX) && between_nodes(p);
}

/* Every EFA device of the node can do RDMA read: not the first generation
 * (1d0f:efa0, p3dn, g4dn, c5n), where FI_EFA_USE_DEVICE_RDMA=1 aborts the
 * job (fi_efa(7)); unknown generations are not assumed. */
static bool efa_rdma_read(const struct plan *p, const struct facts *f)
{
    if (strcmp(p->fabric, "efa") != 0)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < f->ndevs; i++) {
        const struct rdma_device *d = &f->devs[i];
        if (!d->driver || strcmp(d->driver, "efa") != 0)
            continue;
        if (!d->pci_id || strcmp(d->pci_id, "1d0f:efa0") == 0)
            return false;
        n++;
    }
    return n > 0;
}

static const char *provider_of(const struct plan *p)
{
    return ofi_fabric(p)->provider;
}

static const char *nccl_net_of(const struct plan *p)
{
    /* aws-ofi-nccl answers to "AWS Libfabric" in every release (its name up
     * to 1.12; from 1.13 its constructor renames itself to match:
     * nccl_ofi_interface_nvidia.cpp); Google's TCPX plugin is
     * "GPUDirectTCPX_v7" */
    return fabric_row(p->fabric)->layer == LAYER_TCPX ? "GPUDirectTCPX_v7" : "AWS Libfabric";
}

static const struct strict_switch {
    enum item_kind kind;
    const char *name, *value;
    const char *(*value_of)(const struct plan *p);   /* when value is NULL */
    bool (*applies)(const struct plan *p, const struct facts *f);
    const char *why;
} strict_switches[] = {
    /* NCCL's transports within a node (graph/paths.cc ncclTopoCheckP2p,
     * ncclTopoCheckNet; transport/shm.cc): with NVLink between every pair
     * of GPUs, P2P always has a path, and SHM or NET between them is only
     * a silent drop from NVLink (NVIDIA/nccl#602) */
    {ITEM_ENV, "NCCL_SHM_DISABLE", "1", NULL, nvlink_all_pairs,
     "NVLink joins every pair of this node's GPUs: a broken NVLink path then errors instead of "
     "moving NCCL's traffic to shared memory"},
    {ITEM_ENV, "NCCL_NET_DISABLE_INTRA", "1", NULL, nvlink_all_pairs,
     "NVLink joins every pair of this node's GPUs: a broken NVLink path then errors instead of "
     "moving NCCL's traffic within the node through the NIC"},
    /* libfabric (src/fabric.c, ofi_getinfo_): FI_PROVIDER keeps every user of
     * libfabric (Open MPI's mtl ofi, MPICH's ch4:ofi, Intel MPI, aws-ofi-nccl)
     * to the one provider, which fails with -FI_ENODATA where it is absent
     * instead of taking tcp */
    {ITEM_ENV, "FI_PROVIDER", NULL, provider_of, on_ofi_fabric,
     "only the fabric's libfabric provider: a node without it fails (fi_getinfo -61) instead "
     "of running over tcp or sockets"},
    {ITEM_ENV, "NCCL_NET", NULL, nccl_net_of, nccl_plugin_fabric,
     "NCCL must load the fabric's net plugin or fail ('network ... not found'), never fall "
     "back to its IB or Socket transports; set between nodes only"},
    {ITEM_ENV, "FI_EFA_USE_DEVICE_RDMA", "1", NULL, efa_rdma_read,
     "every EFA device here does RDMA read: libfabric then fails where device RDMA is not "
     "used, instead of emulating it in software (fi_efa(7))"},
};

void plan_strict_switches(struct plan *p, const struct facts *f)
{
    if (p->verify.value != VERIFY_STRICT)
        return;
    for (size_t i = 0; i < sizeof(strict_switches) / sizeof(*strict_switches); i++) {
        const struct strict_switch *s = &strict_switches[i];
        if (!s->applies(p, f))
            continue;
        const char *value = s->value ? s->value : s->value_of(p);
        const struct plan_item *have = plan_find(p, s->kind, s->name);
        if (have)
            sv_pushf(&p->notes, "%s=%s from %s is kept (verify = strict would set %s: %s)",
                     s->name, have->value ? have->value : "", have->origin, value, s->why);
        else
            plan_add_item(p, s->kind, SOURCE_PLAN, s->name, value, xstrdup("verify strict"),
                          xstrdup(s->why));
    }
}
