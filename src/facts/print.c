/* 'rdmarun probe': the facts as people read them, one block per device and
 * port, like ibstat and lstopo. */
#include "facts/counters.h"
#include "facts/findings.h"
#include "facts/internal.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* A priority bitmask as "3,4", "none" or "unknown". */
static void prio_text(FILE *out, const char *what, int mask)
{
    fprintf(out, "%s ", what);
    if (mask < 0) {
        fprintf(out, "unknown");
        return;
    }
    if (mask == 0)
        fprintf(out, "off");
    for (int p = 0, first = 1; p < 8; p++)
        if (mask & 1 << p) {
            fprintf(out, "%s%d", first ? "on " : ",", p);
            first = 0;
        }
}

/* RoCE's lossless settings, rdma_cm's defaults, interrupts and dma-buf. */
static void device_config_text(const struct rdma_device *d, bool live, FILE *out)
{
    bool eth = false;
    for (size_t j = 0; j < d->nports; j++)
        eth |= strcmp(d->ports[j].link_layer, "Ethernet") == 0;
    bool known = d->pfc_prios >= 0 || d->ecn_np_prios >= 0 || d->ecn_rp_prios >= 0 || d->dscp_prio;
    if (eth && d->netdevs && d->netdevs[0] && !known && live)
        fprintf(out, "  lossless (%s): unknown (dcb cannot read its DCB settings; no ecn/ in "
                "sysfs)\n", d->netdevs[0]);
    else if (eth && d->netdevs && d->netdevs[0] && known) {
        fprintf(out, "  lossless (%s): ", d->netdevs[0]);
        prio_text(out, "PFC", d->pfc_prios);
        fprintf(out, "; ");
        prio_text(out, "ECN notification point", d->ecn_np_prios);
        fprintf(out, ", ");
        prio_text(out, "reaction point", d->ecn_rp_prios);
        fprintf(out, "; DSCP map %s\n", !d->dscp_prio ? "unknown" : *d->dscp_prio ? d->dscp_prio
                : "none (priority from the VLAN PCP)");
    }
    for (size_t j = 0; j < d->nports; j++)
        if (d->ports[j].roce_mode || d->ports[j].roce_tos >= 0)
            fprintf(out, "  rdma_cm port %d: %s, ToS %d\n", d->ports[j].num,
                    d->ports[j].roce_mode ? d->ports[j].roce_mode : "mode ?",
                    d->ports[j].roce_tos);
    if (d->irqs) {
        char *cpus = device_irq_cpus(d);
        fprintf(out, "  interrupts: %zu MSI-X, on PUs %s\n", list_len(d->irqs), cpus ? cpus : "-");
        free(cpus);
    }
    if (d->dmabuf >= 0)
        fprintf(out, "  dma-buf memory registration: %s\n", d->dmabuf ? "yes" : "no");
}

/* Every counter of a port, a line per family (facts/counters.c's table:
 * link, loss, error, ...), wrapped at 78 columns. */
static void counters_text(const struct port_counters *c, FILE *out)
{
    for (int fam = 0; fam < COUNTER_FAMILIES; fam++) {
        size_t col = 0;
        for (size_t k = 0; k < c->names.n; k++) {
            const char *name = c->names.v[k];
            if ((int)counter_family_of(name) != fam)
                continue;
            char *safe = term_safe(name, strlen(name), 64);
            char *item = xasprintf("%s %lld%s", safe, c->values[k],
                                   counter_saturated(name, c->values[k])
                                       ? " (saturated: counts no more until reset, perfquery -R)"
                                       : "");
            if (!col) {
                col = (size_t)fprintf(out, "    %s counters:", counter_family_names[fam]);
            } else if (col + 2 + strlen(item) > 78) {
                fputs(",\n", out);
                col = (size_t)fprintf(out, "     ");
            } else {
                col += (size_t)fprintf(out, ",");
            }
            col += (size_t)fprintf(out, " %s", item);
            free(item);
            free(safe);
        }
        if (col)
            fputc('\n', out);
    }
}

static void port_text(const struct rdma_port *p, FILE *out)
{
    fprintf(out, "  port %d: %s", p->num, p->state);
    if (p->phys_state)
        fprintf(out, " (%s)", p->phys_state);
    fprintf(out, ", %s", p->link_layer);
    if (p->rate)
        fprintf(out, ", %s", p->rate);
    if (p->active_mtu)
        fprintf(out, ", MTU %d (max %d)", p->active_mtu, p->max_mtu);
    if (p->lid > 0)
        fprintf(out, ", LID 0x%x", p->lid);
    if (p->sm_lid > 0)
        fprintf(out, ", SM LID 0x%x", p->sm_lid);
    for (size_t k = 0; p->pkeys && p->pkeys[k]; k++)
        fprintf(out, "%s%s", k ? "," : ", P_Keys ", p->pkeys[k]);
    fputc('\n', out);
    for (size_t k = 0; k < p->ngids; k++) {
        const struct gid_entry *g = &p->gids[k];
        fprintf(out, "    GID %-3d %s", g->index, g->gid);
        if (g->type)
            fprintf(out, "  %s", g->type);
        if (g->ndev)
            fprintf(out, "  %s", g->ndev);
        fputc('\n', out);
    }
    counters_text(&p->counters, out);
}

static void device_text(const struct rdma_device *d, bool live, FILE *out)
{
    fprintf(out, "\n%s: driver %s", d->name, d->driver);
    if (d->fw_ver)
        fprintf(out, ", firmware %s", d->fw_ver);
    if (d->node_guid)
        fprintf(out, ", node GUID %s", d->node_guid);
    if (d->board_id)
        fprintf(out, ", board %s", d->board_id);
    fputc('\n', out);
    fprintf(out, "  PCI %s", d->pci_busid ? d->pci_busid : "none (software device)");
    if (d->local_numa)
        fprintf(out, ", NUMA %s (PUs %s)", d->local_numa, d->local_cpus ? d->local_cpus : "?");
    else if (d->numa_node >= 0)
        fprintf(out, ", NUMA %d (PUs %s)", d->numa_node, d->local_cpus ? d->local_cpus : "?");
    if (d->pcie_speed_gts > 0)
        fprintf(out, ", PCIe %.1f GT/s x%d (capable %.1f GT/s x%d)", d->pcie_speed_gts,
                d->pcie_width, d->pcie_max_speed_gts, d->pcie_max_width);
    else if (d->pcie_gbytes > 0)
        fprintf(out, ", PCIe link %.2f GB/s", d->pcie_gbytes);
    fputc('\n', out);
    if (d->netdevs) {
        fprintf(out, "  netdevs:");
        for (size_t i = 0; d->netdevs[i]; i++)
            fprintf(out, " %s", d->netdevs[i]);
        fputc('\n', out);
    }
    if (d->transports) {
        fprintf(out, "  UCX transports:");
        for (size_t i = 0; d->transports[i]; i++)
            fprintf(out, " %s", d->transports[i]);
        fputc('\n', out);
    } else if (live) {
        fprintf(out, "  UCX transports: none (UCX on this node does not use this device)\n");
    }
    device_config_text(d, live, out);
    for (size_t j = 0; j < d->nports; j++)
        port_text(&d->ports[j], out);
}

/* "performance:0-63" -> "performance on 0-63"; the idle states' latency too. */
static void cpu_text(const struct cpu_state *c, FILE *out)
{
    if (c->governors) {
        fprintf(out, "cpu governors:");
        for (char **g = c->governors; *g; g++) {
            const char *colon = strrchr(*g, ':');
            fprintf(out, "%s %.*s on PUs %s", g == c->governors ? "" : ";",
                    (int)(colon - *g), *g, colon + 1);
        }
        fputc('\n', out);
    }
    if (c->idle_states) {
        fprintf(out, "idle states deeper than C1:%s", *c->idle_states ? "" : " none enabled");
        for (char **s = c->idle_states; *s; s++) {
            char name[64];
            long us;
            int at = 0;
            if (sscanf(*s, "%63[^:]:%ld:%n", name, &us, &at) == 2 && at)
                fprintf(out, "%s %s (exit %ld us) on PUs %s", s == c->idle_states ? "" : ";",
                        name, us, *s + at);
        }
        fputc('\n', out);
    }
}

/* The kernel and the RDMA stack's modules with their versions. */
static void modules_text(const struct facts *f, FILE *out)
{
    if (f->kernel || (f->module_versions && f->module_versions[0])) {
        fprintf(out, "kernel %s", f->kernel ? f->kernel : "unknown");
        for (size_t i = 0; f->module_versions && f->module_versions[i]; i++)
            fprintf(out, "%s%s", i ? ", " : "; RDMA modules: ", f->module_versions[i]);
        fputc('\n', out);
    }
}

static void limits_text(const struct host_limits *l, FILE *out)
{
    fprintf(out, "\nlimits: memlock ");
    if (l->memlock_soft == -1)
        fprintf(out, "unlimited");
    else if (l->memlock_soft >= 0)
        fprintf(out, "%lld KiB", l->memlock_soft / 1024);
    else
        fprintf(out, "unknown");
    if (l->hugepages_total >= 0)
        fprintf(out, "; hugepages %lld free of %lld (%lld kB)", l->hugepages_free,
                l->hugepages_total, l->hugepage_kb);
    if (l->uverbs_devices >= 0)
        fprintf(out, "; /dev/infiniband: %d uverbs device%s%s", l->uverbs_devices,
                l->uverbs_devices == 1 ? "" : "s",
                l->uverbs_devices && !l->uverbs_accessible ? " (not accessible)" : "");
    fputc('\n', out);
    if (l->modules_known)
        fprintf(out, "modules: ib_uverbs %s, rdma_rxe %s, vmw_pvrdma %s, nvidia_peermem %s\n",
                l->mod_ib_uverbs ? "loaded" : "no", l->mod_rdma_rxe ? "loaded" : "no",
                l->mod_vmw_pvrdma ? "loaded" : "no", l->mod_nvidia_peermem ? "loaded" : "no");
}

/* One GPU: its NUMA node, PCI address, nearest NIC, BAR1, NVLink, ACS. */
static void gpu_text(const struct facts *f, const struct gpu *g, FILE *out)
{
    fprintf(out, " %s (", g->name);
    if (g->numa_node >= 0)
        fprintf(out, "NUMA %d", g->numa_node);
    else
        fprintf(out, "NUMA ?");
    fprintf(out, "%s%s", g->pci_busid ? ", " : "", g->pci_busid ? g->pci_busid : "");
    const char *cls, *nic = gpu_nearest_nic(g, &cls);
    if (nic)   /* "mlx5_0=PIX" */
        fprintf(out, ", %.*s %s", (int)(cls - 1 - nic), nic, cls);
    if (g->bar1_mib >= 0)
        fprintf(out, ", BAR1 %lld MiB", g->bar1_mib);
    if (g->nvlink_peers >= 0)
        fprintf(out, ", NVLink to %d of %zu GPUs", g->nvlink_peers, f->ngpus - 1);
    /* said where the bridges were to be read: this node or a recorded tree */
    if (g->nic_paths && !g->acs_redirect &&
        (strcmp(f->source, "this node") == 0 || strstr(f->source, "sysfs ")))
        fprintf(out, ", ACS unknown (root reads the bridges)");
    for (char **a = g->acs_redirect; a && *a; a++)
        if (strchr(*a, '=')[1])
            fprintf(out, ", ACS redirects on the path to %.*s (%s)",
                    (int)(strchr(*a, '=') - *a), *a, strchr(*a, '=') + 1);
    fputc(')', out);
}

/* The host line and its NUMA nodes. */
static void host_text(const struct facts *f, FILE *out)
{
    fprintf(out, "host %s: %d package%s, %d cores, %d PUs, %zu NUMA node%s; UCX %s (%s)\n",
            f->hostname ? f->hostname : "(name unknown)", f->npackages, f->npackages == 1 ? "" : "s",
            f->ncores, f->npus, f->nnuma, f->nnuma == 1 ? "" : "s",
            f->ucx_version ? f->ucx_version : "?", f->source);
    for (size_t i = 0; i < f->nnuma; i++) {
        const struct numa_node *n = &f->numa[i];
        if (n->cpus && n->ncores > 0 && !(n->core_pus && n->core_pus[0]))   /* HBM, CXL */
            fprintf(out, "  NUMA %d: memory near PUs %s, no cores of its own (HBM, MCDRAM "
                    "or CXL)", n->os_index, n->cpus);
        else
            fprintf(out, "  NUMA %d: PUs %s (%d cores)", n->os_index, n->cpus ? n->cpus : "?",
                    n->ncores);
        if (n->bandwidth_mibs > 0)
            fprintf(out, ", memory %.1f GB/s (the firmware's HMAT)",
                    n->bandwidth_mibs * MIB_GB);
        fputc('\n', out);
    }
}

/* One plugin: its name and the ABI NCCL would take, or why it does not load. */
static void plugin_text(const struct facts *f, const struct nccl_plugin *p, FILE *out)
{
    fprintf(out, "  %s plugin %s: ", p->kind, p->path);
    if (p->error) {
        fprintf(out, "does not load (%s): NCCL goes on without it\n", p->error);
        return;
    }
    int lo, hi, used = nccl_plugin_abi_used(f->nccl_version, p->kind, p->abi, &lo, &hi);
    fprintf(out, "\"%s\", exports %s", p->name ? p->name : "?", p->abi ? p->abi : "nothing");
    if (used > 0)
        fprintf(out, "; NCCL %s takes v%d\n", f->nccl_version, used);
    else if (used == 0 && hi > 0)
        fprintf(out, "; NCCL %s asks for v%d-v%d: it ignores this plugin\n", f->nccl_version,
                lo, hi);
    else
        fputc('\n', out);
}

/* NCCL, its plugins and libfabric's providers: this node's, when asked. */
static void fabric_libs_text(const struct facts *f, FILE *out)
{
    if (!f->fi_providers)
        return;
    fputc('\n', out);
    if (f->nccl_version)
        fprintf(out, "NCCL %s (%s)\n", f->nccl_version, f->nccl_library);
    else
        fprintf(out, "NCCL: not found (libnccl.so.2)\n");
    size_t nets = 0;
    for (size_t i = 0; i < f->nnccl_plugins; i++) {
        plugin_text(f, &f->nccl_plugins[i], out);
        nets += strcmp(f->nccl_plugins[i].kind, "net") == 0 && !f->nccl_plugins[i].error;
    }
    if (f->nccl_version && !nets)
        fprintf(out, "  no net plugin on the library path: NCCL has its IB and Socket "
                "transports only\n");
    char *provs = facts_fi_provider_names(f);
    fprintf(out, "libfabric %s: %s%s%s\n", f->fi_version ? f->fi_version : "?",
            provs ? "providers " : "no provider answers fi_getinfo", provs ? provs : "",
            f->fabric_libs_timed_out ? " (timed out: a provider hung)" : "");
    free(provs);
}

/* The cloud VM family and NCCL's topology file, when either is known. */
static void cloud_text(const struct cloud_facts *c, FILE *out)
{
    if (!c->vm_family && !c->nccl_conf_topo)
        return;
    fputc('\n', out);
    if (c->vm_family)
        fprintf(out, "%s VM (%s %s): its NCCL topology file %s\n", c->vm_family,
                c->vendor ? c->vendor : "?", c->product ? c->product : "?",
                c->topo_file ? c->topo_file : "is not on this node");
    if (c->nccl_conf_topo)
        fprintf(out, "NCCL_TOPO_FILE=%s in %s\n", c->nccl_conf_topo, c->nccl_conf_file);
}

void facts_print_text(const struct facts *f, FILE *out)
{
    host_text(f, out);
    if (f->ndevs == 0)
        fprintf(out, "\nno RDMA devices (nothing in /sys/class/infiniband)\n");
    for (size_t i = 0; i < f->ndevs; i++)
        device_text(&f->devs[i], strcmp(f->source, "this node") == 0, out);
    if (f->ngpus) {
        fprintf(out, "\nGPUs:");
        for (size_t i = 0; i < f->ngpus; i++)
            gpu_text(f, &f->gpus[i], out);
        fputc('\n', out);
    }
    bool any_ipoib = false;
    for (size_t i = 0; i < f->nnetifs; i++)
        any_ipoib |= f->netifs[i].ipoib;
    if (any_ipoib) {
        fprintf(out, "IPoIB interfaces:");
        for (size_t i = 0; i < f->nnetifs; i++)
            if (f->netifs[i].ipoib)
                fprintf(out, " %s", f->netifs[i].name);
        fputc('\n', out);
    }
    limits_text(&f->limits, out);
    fabric_libs_text(f, out);
    cloud_text(&f->cloud, out);
    modules_text(f, out);
    cpu_text(&f->cpu, out);
    struct strvec w = {0};
    facts_warnings(f, &w);
    if (w.n)
        fprintf(out, "\nwarnings:\n");
    for (size_t i = 0; i < w.n; i++)
        fprintf(out, "  %s\n", w.v[i]);
    sv_free(&w);
}
