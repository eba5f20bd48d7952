/* The plan's auto values (plan.c's resolve_autos): a profile's `auto`
 * resolved from the node's facts and the job's ports, with the reason the
 * plan shows; NCCL_NET_GDR_LEVEL from each GPU's path to the job's NICs. */
#include "plan/plan.h"
#include "plan/plan_parts.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- auto values ---- */

static char *join_ports(const struct port_ref *s, size_t n, const char *prefix)
{
    struct strvec v = {0};
    for (size_t i = 0; i < n; i++)
        sv_pushf(&v, "%s%s:%d", i == 0 ? prefix : "", s[i].dev->name, s[i].port->num);
    char *out = sv_join(&v, ",");
    sv_free(&v);
    return out;
}

void plan_resolve_auto(struct plan *p, struct plan_item *it, const char *section,
                       const char *key, const struct port_ref *ports, size_t nports,
                       const char *where)
{
    free(it->value);
    it->value = NULL;
    free(it->origin);
    it->origin = xstrdup("auto");
    it->source = SOURCE_AUTO;
    bool ib = nports && strcmp(ports[0].port->link_layer, "InfiniBand") == 0;
    if (nports == 0) {
        it->reason = xasprintf("unresolved: no ACTIVE %s port", fabric_label(p->fabric));
        return;
    }
    if (strcmp(key, "NET_DEVICES") == 0 || strcmp(key, "IB_HCA") == 0) {
        bool nccl = strcmp(section, "nccl") == 0;
        it->value = join_ports(ports, nports, nccl ? "=" : "");
        it->reason = xasprintf("the ACTIVE %s port%s %s", ib ? "InfiniBand" : "RoCE",
                               nports > 1 ? "s" : "", where);
        return;
    }
    if (ib) {
        it->reason = xstrdup(strcmp(key, "SOCKET_IFNAME") == 0
                             ? "unset: NCCL picks its own interface on InfiniBand nodes"
                             : "unset: InfiniBand ports need no GID index");
        return;
    }
    const struct gid_entry *g = port_best_gid(ports[0].port);
    if (!g) {
        it->reason = xasprintf("unresolved: %s port %d has no RoCE v2 GID bound to a routable "
                               "address", ports[0].dev->name, ports[0].port->num);
        plan_fail(p, RR_EX_UNAVAILABLE,
             xasprintf("%s:%d has no RoCE v2 GID with a routable IPv4 or IPv6 address, so "
                       "[%s] %s = auto cannot be resolved (hint: give the port an IP address, "
                       "or set the index with --set %s.%s=N)", ports[0].dev->name,
                       ports[0].port->num, section, key, section, key));
        return;
    }
    if (strcmp(key, "SOCKET_IFNAME") == 0) {
        if (g->ndev) {
            it->value = xasprintf("=%s", g->ndev);
            it->reason = xasprintf("netdev of %s:%d's RoCE v2 GID %d", ports[0].dev->name,
                                   ports[0].port->num, g->index);
        } else {
            it->reason = xstrdup("unresolved: the GID names no netdev; NCCL picks one");
        }
        return;
    }
    it->value = xasprintf("%d", g->index);
    it->reason = xasprintf("RoCE v2 GID of %s:%d bound to %s address", ports[0].dev->name,
                           ports[0].port->num, gid_is_ipv4(g) ? "an IPv4" : "a global IPv6");
    for (size_t i = 1; i < nports; i++) {
        const struct gid_entry *o = port_best_gid(ports[i].port);
        if (o && o->index != g->index)
            sv_pushf(&p->notes, "%s:%d would need GID index %d, not %d; %s applies to every "
                     "port (hint: set UCX_NET_DEVICES to ports that agree)", ports[i].dev->name,
                     ports[i].port->num, o->index, g->index, key);
    }
}

/* NCCL_NET_GDR_LEVEL = auto: GPUDirect RDMA up to the farthest path a GPU
 * has to its nearest job NIC, at most PHB (NCCL has no NODE, and beyond a
 * host bridge staging through host memory is faster); LOC when the node
 * cannot do it or ACS redirects it. NCCL's own default is PXB. */
void plan_resolve_gdr_level(struct plan_item *it, const struct facts *f,
                            const struct port_ref *ports, size_t nports)
{
    free(it->value);
    it->value = NULL;
    free(it->origin);
    it->origin = xstrdup("auto");
    it->source = SOURCE_AUTO;
    if (f->ngpus == 0) {
        it->reason = xstrdup("unset: the node has no GPUs");
        return;
    }
    if (gpudirect_available(f) == 0) {
        it->value = xstrdup("LOC");
        it->reason = xstrdup("no GPUDirect RDMA on this node (nvidia_peermem not loaded, no "
                             "dma-buf): GPU buffers are staged through host memory");
        return;
    }
    int worst = -1;
    const char *worst_gpu = NULL, *worst_nic = NULL;
    for (size_t g = 0; g < f->ngpus; g++) {
        int best = -1;
        const char *nic = NULL;
        for (size_t i = 0; i < nports; i++) {
            const char *cls = gpu_path_to(&f->gpus[g], ports[i].dev->name);
            int r = cls ? pcie_path_rank(cls) : -1;
            if (r >= 0 && (best < 0 || r < best)) {
                best = r;
                nic = ports[i].dev->name;
            }
        }
        for (char **a = f->gpus[g].acs_redirect; nic && a && *a; a++)
            if (strncmp(*a, nic, strlen(nic)) == 0 && (*a)[strlen(nic)] == '=' &&
                (*a)[strlen(nic) + 1]) {
                it->value = xstrdup("LOC");
                it->reason = xasprintf("ACS redirects peer-to-peer traffic between %s and %s "
                                       "(bridges %s): GPUDirect RDMA would go through the root "
                                       "complex", f->gpus[g].name, nic, *a + strlen(nic) + 1);
                return;
            }
        if (best > worst) {
            worst = best;
            worst_gpu = f->gpus[g].name;
            worst_nic = nic;
        }
    }
    static const char *const classes[] = {"PIX", "PXB", "PHB", "NODE", "SYS"};
    if (worst < 0) {
        it->reason = xstrdup("unset: hwloc places no GPU and job NIC on one PCIe tree; "
                             "NCCL's default (PXB) applies");
        return;
    }
    it->value = xstrdup(classes[worst > 2 ? 2 : worst]);
    it->reason = worst > 2
        ? xasprintf("%s's nearest job NIC %s is %s away: GPUDirect RDMA up to a host bridge "
                    "(PHB), staged through host memory beyond", worst_gpu, worst_nic,
                    classes[worst])
        : xasprintf("every GPU reaches a job NIC within %s (farthest: %s to %s)", classes[worst],
                    worst_gpu, worst_nic);
}
