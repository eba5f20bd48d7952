#include "plan/rules.h"
#include "util/text.h"
#include <stdlib.h>
#include <string.h>

static bool rdma_fabric(const struct rule_context *c)
{
    return fabric_is_rdma(c->fabric);
}

/* Open MPI 4.1 enables pml ucx only when a device matches pml_ucx_devices
 * (default mlx*). */
static bool pml_ucx_without_mlx(const struct rule_context *c)
{
    if (!c->pml || strcmp(c->pml, "ucx") != 0)
        return false;
    for (size_t i = 0; i < c->nports; i++)
        if (starts_with(c->ports[i].dev->name, "mlx"))
            return false;
    return true;
}

static bool uses_ud(const char *tls)
{
    if (!tls || strstr(tls, "all"))
        return true;
    if (tls[0] == '^')
        return !strstr(tls, "ud");
    return strstr(tls, "ud") || strstr(tls, "rc") || strstr(tls, "ib") || strstr(tls, "dc");
}

/* A RoCE port on a device other than mlx5, where UCX < 1.19 drops UD packets
 * with IPv4 RoCE v2 headers. */
static bool ud_on_non_mlx5_roce(const struct rule_context *c)
{
    if (!uses_ud(c->ucx_tls))
        return false;
    for (size_t i = 0; i < c->facts->ndevs; i++) {
        const struct rdma_device *d = &c->facts->devs[i];
        if (starts_with(d->driver, "mlx5"))
            continue;
        for (size_t j = 0; j < d->nports; j++)
            if (port_is_active(&d->ports[j]) && strcmp(d->ports[j].link_layer, "Ethernet") == 0)
                return true;
    }
    return false;
}

/* A cloud VM family's NCCL topology file is on the node, and neither NCCL's
 * configuration files nor the environment name one (facts/cloud.c). */
static bool vm_topology_file(const struct rule_context *c)
{
    const struct cloud_facts *cl = &c->facts->cloud;
    return cl->topo_file && !cl->nccl_conf_topo && !getenv("NCCL_TOPO_FILE");
}

static const char *vm_topology_value(const struct rule_context *c)
{
    return c->facts->cloud.topo_file;
}

const struct rule rules[] = {
    {"rdma-pml-ucx", NULL, rdma_fabric, "the profile is for an RDMA fabric",
     "mpi", "pml", "ucx",
     "RDMA traffic goes through UCX; forcing pml ucx means Open MPI fails loudly instead of "
     "silently taking ob1 over TCP",
     "Open MPI 4.1 README, section UCX", "Open MPI 4.1 and 5.0, any UCX", NULL},
    {"rdma-no-openib", NULL, rdma_fabric, "the profile is for an RDMA fabric",
     "mpi", "btl", "^openib",
     "Open MPI 4.x's openib btl warns on InfiniBand ports even when UCX carries the traffic, "
     "and is a second, unverified RDMA path",
     "Open MPI 4.0 release notes: openib deprecated in favour of UCX",
     "Open MPI 4.x (5.0 has no openib: excluding it is harmless there)", NULL},
    {"ompi-pml-ucx-any-device", NULL, pml_ucx_without_mlx,
     "pml ucx without an mlx* device among the selected ports",
     "mpi", "pml_ucx_devices", "any",
     "Open MPI 4.1 enables pml ucx only on devices matching pml_ucx_devices (default mlx*); "
     "elsewhere it aborts with 'PML ucx cannot be selected'",
     "ompi/mca/pml/ucx (pml_ucx_devices, pml_ucx_tls); newer releases add hns*",
     "Open MPI 4.1 and 5.0 (default mlx* in 4.1.4 and 5.0.7, ompi_info)", NULL},
    {"ompi-pml-ucx-any-tls", NULL, pml_ucx_without_mlx,
     "pml ucx without an mlx* device among the selected ports",
     "mpi", "pml_ucx_tls", "any",
     "Open MPI 4.1 enables pml ucx only when UCX offers one of the transports in pml_ucx_tls "
     "(rc_verbs, rc_mlx5, dc_mlx5, ...); tcp, rxe and pvrdma setups need 'any'",
     "ompi/mca/pml/ucx (pml_ucx_tls)",
     "Open MPI 4.1 and 5.0 (the same default list in 4.1.4 and 5.0.7, ompi_info)", NULL},
    {"ucx-ud-eth-dgid-check", "1.19", ud_on_non_mlx5_roce,
     "UCX below 1.19 using UD on an ACTIVE RoCE port of a non-mlx5 device (rxe, pvrdma, ...)",
     "ucx", "UD_VERBS_ETH_DGID_CHECK", "n",
     "UCX below 1.19 reads the RoCE packet type of UD receives from wc.sl, which only mlx5 "
     "fills: every UD packet with an IPv4 RoCE v2 GID is dropped, and since UD wires up RC, "
     "jobs hang about 30 s and abort",
     "fixed in UCX 1.19.0 (openucx/ucx commit 7de57ad9f9)",
     "UCX below 1.19 (the control run fails on rxe with 1.13.1 and 1.18.1)", NULL},
    {"nccl-vm-topology-file", NULL, vm_topology_file,
     "a cloud VM family (DMI vendor, its GPUs' PCI ids) whose NCCL topology file is on the "
     "node, named by no nccl.conf and no NCCL_TOPO_FILE",
     "nccl", "TOPO_FILE", NULL,
     "the hypervisor shows the GPUs and NICs on a flat PCI tree: without its VM family's "
     "topology NCCL pairs GPUs with far NICs and runs slower without a word; Azure's images "
     "name it in /etc/nccl.conf, which containers and images of one's own lack",
     "Azure/azhpc-images customizations/ndv5.sh, ndv4.sh, ncv4.sh, ndv2.sh",
     "Azure ND H100 v5, ND A100 v4, NC A100 v4 and ND40rs v2", vm_topology_value},
};
const size_t nrules = sizeof(rules) / sizeof(*rules);

bool rule_applies(const struct rule *r, const struct rule_context *ctx)
{
    /* An unknown UCX version (facts saved without UCX) keeps the workaround. */
    if (r->ucx_fixed_in && ctx->ucx_version && version_cmp(ctx->ucx_version, r->ucx_fixed_in) >= 0)
        return false;
    return r->applies(ctx);
}
