/* The facts' shared helpers (devices, ports, lists, GIDs) and their
 * lifetime; gathering them from their sources is gather.c's. */
#include "facts/internal.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct rdma_device *facts_device(struct facts *f, const char *name)
{
    for (size_t i = 0; i < f->ndevs; i++)
        if (strcmp(f->devs[i].name, name) == 0)
            return &f->devs[i];
    GROW(f->devs, f->devs_cap, f->ndevs + 1);
    struct rdma_device *d = &f->devs[f->ndevs++];
    memset(d, 0, sizeof(*d));
    d->name = xstrdup(name);
    d->numa_node = -1;
    d->pfc_prios = d->ecn_np_prios = d->ecn_rp_prios = d->dmabuf = -1;
    return d;
}

void port_init(struct rdma_port *p, int num)
{
    memset(p, 0, sizeof(*p));
    p->num = num;
    p->lid = p->sm_lid = p->roce_tos = -1;
}

int dirent_by_number(const struct dirent **a, const struct dirent **b)
{
    return atoi((*a)->d_name) - atoi((*b)->d_name);
}

void list_add(char ***list, const char *s)
{
    size_t n = list_len(*list);
    *list = xrealloc(*list, (n + 2) * sizeof(char *));
    (*list)[n] = xstrdup(s);
    (*list)[n + 1] = NULL;
}

size_t list_len(char *const *list)
{
    size_t n = 0;
    while (list && list[n])
        n++;
    return n;
}

void list_free(char **list)
{
    for (size_t i = 0; list && list[i]; i++)
        free(list[i]);
    free(list);
}

const char *driver_from_name(const char *name)
{
    static const struct { const char *prefix, *driver; } known[] = {
        {"mlx5_", "mlx5_core"}, {"mlx4_", "mlx4_core"}, {"rxe", "rdma_rxe"}, {"siw", "siw"},
        {"vmw_pvrdma", "vmw_pvrdma"}, {"hfi1_", "hfi1"}, {"qib", "ib_qib"}, {"efa_", "efa"},
        {"rdmap", "efa"}, {"irdma", "irdma"}, {"bnxt_re", "bnxt_re"}, {"qedr", "qedr"},
        {"hns_", "hns_roce"}, {"erdma", "erdma"}, {"mana", "mana_ib"},
    };
    for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
        if (starts_with(name, known[i].prefix))
            return known[i].driver;
    return "unknown";
}

/* The kinds of NIC whose driver says what they are, whatever their link
 * layer: EFA (drivers/infiniband/hw/efa reports IB_LINK_LAYER_UNSPECIFIED),
 * Slingshot's Cassini NICs (HPE's cxi-driver, /sys/class/cxi: facts/cxi.c),
 * Omni-Path (hfi1 and TrueScale's qib report InfiniBand, but carry PSM2
 * and OPX, not IB verbs traffic) and VMware's paravirtual RDMA. */
const char *port_kind(const struct rdma_device *d, const struct rdma_port *p)
{
    static const struct { const char *driver, *kind; } by_driver[] = {
        {"efa", "efa"}, {"cxi_core", "cxi"}, {"cxi_ss1", "cxi"}, {"hfi1", "opa"},
        {"ib_qib", "opa"}, {"vmw_pvrdma", "pvrdma"},
    };
    for (size_t i = 0; d->driver && i < sizeof(by_driver) / sizeof(*by_driver); i++)
        if (strcmp(d->driver, by_driver[i].driver) == 0)
            return by_driver[i].kind;
    if (p->link_layer && strcmp(p->link_layer, "InfiniBand") == 0)
        return "ib";
    if (p->link_layer && strcmp(p->link_layer, "Ethernet") == 0)
        return "roce";
    return "other";
}

static void free_port(struct rdma_port *p)
{
    for (size_t k = 0; k < p->ngids; k++) {
        free(p->gids[k].gid);
        free(p->gids[k].type);
        free(p->gids[k].ndev);
    }
    free(p->gids);
    free(p->state);
    free(p->phys_state);
    free(p->link_layer);
    free(p->rate);
    free(p->roce_mode);
    list_free(p->pkeys);
    port_counters_free(&p->counters);
}

static void fabric_libs_free(struct facts *f)
{
    for (size_t i = 0; i < f->nnccl_plugins; i++) {
        struct nccl_plugin *p = &f->nccl_plugins[i];
        free(p->kind);
        free(p->path);
        free(p->name);
        free(p->abi);
        free(p->error);
    }
    free(f->nccl_plugins);
    free(f->nccl_version);
    free(f->nccl_library);
    free(f->fi_version);
    cloud_facts_free(&f->cloud);
    list_free(f->fi_providers);
}

void facts_free(struct facts *f)
{
    for (size_t i = 0; i < f->ndevs; i++) {
        struct rdma_device *d = &f->devs[i];
        for (size_t j = 0; j < d->nports; j++)
            free_port(&d->ports[j]);
        free(d->ports);
        free(d->name);
        free(d->driver);
        free(d->fw_ver);
        free(d->node_guid);
        free(d->board_id);
        free(d->pci_id);
        free(d->pci_busid);
        free(d->local_cpus);
        free(d->local_numa);
        list_free(d->netdevs);
        list_free(d->transports);
        free(d->dscp_prio);
        list_free(d->irqs);
    }
    free(f->devs);
    fabric_libs_free(f);
    for (size_t i = 0; i < f->nnuma; i++) {
        free(f->numa[i].cpus);
        list_free(f->numa[i].core_pus);
        free(f->numa[i].distance);
    }
    free(f->numa);
    for (size_t i = 0; i < f->ngpus; i++) {
        free(f->gpus[i].name);
        free(f->gpus[i].pci_busid);
        free(f->gpus[i].pci_id);
        free(f->gpus[i].vendor);
        list_free(f->gpus[i].nic_paths);
        list_free(f->gpus[i].acs_redirect);
        list_free(f->gpus[i].path_bridges);
    }
    list_free(f->cpu.governors);
    list_free(f->cpu.idle_states);
    free(f->gpus);
    for (size_t i = 0; i < f->nnetifs; i++)
        free(f->netifs[i].name);
    free(f->netifs);
    free(f->hostname);
    free(f->source);
    free(f->sysfs_root);
    free(f->ucx_version);
    free(f->kernel);
    list_free(f->module_versions);
    memset(f, 0, sizeof(*f));
}

bool port_is_active(const struct rdma_port *p)
{
    return p->state && strcmp(p->state, "ACTIVE") == 0;
}

enum gid_kind { GID_NONE, GID_V6_GLOBAL, GID_V4 };

static enum gid_kind gid_kind(const struct gid_entry *g)
{
    if (!g->type || strcmp(g->type, "RoCE v2") != 0)
        return GID_NONE;
    if (starts_with(g->gid, "0000:0000:0000:0000:0000:ffff:"))
        return starts_with(g->gid + 30, "a9fe") ? GID_NONE : GID_V4; /* 169.254/16 */
    if (starts_with(g->gid, "fe80:"))
        return GID_NONE;
    return GID_V6_GLOBAL;
}

bool gid_is_ipv4(const struct gid_entry *g) { return gid_kind(g) == GID_V4; }

const struct gid_entry *port_best_gid(const struct rdma_port *p)
{
    const struct gid_entry *best = NULL;
    for (size_t i = 0; i < p->ngids; i++) {
        const struct gid_entry *g = &p->gids[i];
        if (gid_kind(g) != GID_NONE && (!best || gid_kind(g) > gid_kind(best)))
            best = g;
    }
    return best;
}

char *facts_kind(const struct facts *f)
{
    char *buf;
    size_t len;
    FILE *m = xmemstream_open(&buf, &len);
    fprintf(m, "%d package%s, %d cores, %zu NUMA node%s", f->npackages,
            f->npackages == 1 ? "" : "s", f->ncores, f->nnuma, f->nnuma == 1 ? "" : "s");
    for (size_t d = 0; d < f->ndevs; d++)
        for (size_t p = 0; p < f->devs[d].nports; p++) {
            const struct rdma_port *port = &f->devs[d].ports[p];
            if (port_is_active(port))
                fprintf(m, ", %s %s %.0f Gb/s%s%s", f->devs[d].driver ? f->devs[d].driver : "?",
                        port->link_layer ? port->link_layer : "?", port->rate_gbps,
                        f->devs[d].fw_ver ? " fw " : "", f->devs[d].fw_ver ? f->devs[d].fw_ver : "");
        }
    if (!f->ndevs)
        fputs(", no RDMA device", m);
    for (size_t g = 0; g < f->ngpus; g++)
        fprintf(m, ", GPU %s", f->gpus[g].vendor ? f->gpus[g].vendor : "?");
    fprintf(m, ", UCX %s", f->ucx_version ? f->ucx_version : "unknown");
    xmemstream_close(m);
    return buf;
}

char *facts_fingerprint(const struct facts *f)
{
    char *kind = facts_kind(f);
    char *fp = xasprintf("%016" PRIx64, fnv1a(FNV1A_INIT, kind, strlen(kind)));
    free(kind);
    return fp;
}
