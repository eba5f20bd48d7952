#include "facts/check_keys.h"
#include "facts/findings.h"
#include "facts/internal.h"
#include "util/size.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void judge_port_state(const struct port_ref *r, struct strvec *out)
{
    const struct rdma_port *p = r->port;
    if (!port_is_active(p))
        sv_pushf(out, "%s port %d is %s%s%s (hint: check the cable and the switch port; "
                 "'ibstat %s' shows the link)", r->dev->name, p->num, p->state,
                 p->phys_state ? ", physical state " : "", p->phys_state ? p->phys_state : "",
                 r->dev->name);
}

void judge_rate(const char *min_gbps, const struct port_ref *p, size_t n, struct strvec *out,
                struct strvec *unknown)
{
    double min = atof(min_gbps);
    for (size_t i = 0; i < n; i++)
        if (!(p[i].port->rate_gbps > 0) && port_is_active(p[i].port) && unknown)
            sv_pushf(unknown, "%s port %d's rate", p[i].dev->name, p[i].port->num);
        else if (port_rate_below(p[i].port, min))
            sv_pushf(out, "%s port %d runs at %s, below the %g Gb/s required (hint: a cable or "
                     "switch port that trained down)", p[i].dev->name, p[i].port->num,
                     p[i].port->rate, min);
}

void judge_mtu(const char *mtu, const struct port_ref *p, size_t n, struct strvec *out)
{
    int want = atoi(mtu);
    for (size_t i = 0; i < n; i++)
        if (port_mtu_differs(p[i].port, want))
            sv_pushf(out, "%s port %d has active MTU %d, the site requires %d", p[i].dev->name,
                     p[i].port->num, p[i].port->active_mtu, want);
}

void judge_pcie(const struct port_ref *p, size_t n, struct strvec *out)
{
    for (size_t i = 0; i < n; i++) {
        const struct rdma_device *d = p[i].dev;
        bool seen = false;   /* a device once, however its ports are listed */
        for (size_t k = 0; k < i && !seen; k++)
            seen = p[k].dev == d;
        if (seen)
            continue;
        const struct rdma_port *narrow = pcie_narrowest_port(d);
        char *cost = narrow ? xasprintf("carries %.0f Gb/s, less than port %d's %g Gb/s",
                                        pcie_gbps(d), narrow->num, narrow->rate_gbps) : NULL;
        if (pcie_below_capability(d))
            sv_pushf(out, "%s PCIe link runs at %g GT/s x%d, below its capability %g GT/s x%d%s%s "
                     "(hint: reseat the card or check the slot)", d->name, d->pcie_speed_gts,
                     d->pcie_width, d->pcie_max_speed_gts, d->pcie_max_width,
                     cost ? ": it " : "", cost ? cost : "");
        else if (cost)
            sv_pushf(out, "%s PCIe link (%g GT/s x%d) %s (hint: a wider or faster slot)",
                     d->name, d->pcie_speed_gts, d->pcie_width, cost);
        free(cost);
    }
}

void judge_memlock(const char *want, const struct host_limits *l, struct strvec *out)
{
    uint64_t need = 0;
    bool unlimited = str_ieq(want, "unlimited");
    if (!unlimited && (!parse_size(want, &need) || need > (uint64_t)LLONG_MAX))
        return;   /* the schema checked it: cannot happen */
    enum limit_finding found = memlock_against(l, unlimited ? -1 : (long long)need);
    if (found == LIMIT_UNKNOWN)
        sv_push(out, "the memlock limit cannot be read");
    else if (found == LIMIT_BELOW && unlimited)
        sv_pushf(out, "the memlock limit is %lld KiB, the site requires unlimited (hint: "
                 "ulimit -l unlimited, /etc/security/limits.d, slurmd's LimitMEMLOCK)",
                 l->memlock_soft / 1024);
    else if (found == LIMIT_BELOW)
        sv_pushf(out, "the memlock limit is %lld KiB, below the %s required (hint: ulimit -l, "
                 "/etc/security/limits.d)", l->memlock_soft / 1024, want);
}

void judge_hugepages(const char *want, const struct host_limits *l, struct strvec *out)
{
    long long n = atoll(want);
    if (l->hugepages_free < 0)
        sv_push(out, "the number of free huge pages cannot be read (/proc/meminfo)");
    else if (l->hugepages_free < n)
        sv_pushf(out, "%lld huge pages free, the site requires %lld (hint: vm.nr_hugepages)",
                 l->hugepages_free, n);
}

/* Each device once, however many of its ports are listed. */
static bool seen_before(const struct port_ref *p, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (p[k].dev == p[i].dev)
            return true;
    return false;
}

void judge_lossless(const struct port_ref *p, size_t n, const struct roce_class *c,
                    struct strvec *out, struct strvec *unknown)
{
    for (size_t i = 0; i < n; i++)
        if (!seen_before(p, i) && strcmp(p[i].port->link_layer, "Ethernet") == 0)
            lossless_judge(p[i].dev, c, out, unknown);
}

void judge_irqs(const struct port_ref *p, size_t n, const char *rank_cpus, struct strvec *out,
                struct strvec *unknown)
{
    for (size_t i = 0; i < n; i++) {
        const struct rdma_device *d = p[i].dev;
        if (seen_before(p, i) || !d->pci_busid)
            continue;   /* software devices (rxe, siw) have no interrupts of their own */
        if (!d->irqs) {
            sv_pushf(unknown, "%s's interrupts (no device/msi_irqs, or /proc/irq unreadable)",
                     d->name);
            continue;
        }
        struct strvec on_ranks = {0};
        for (char **e = d->irqs; rank_cpus && *e; e++) {
            char *shared = cpus_common(strchr(*e, ':') + 1, rank_cpus);
            if (shared)
                sv_pushf(&on_ranks, "%.*s", (int)(strchr(*e, ':') - *e), *e);
            free(shared);
        }
        char *all = device_irq_cpus(d);
        char *local = all && d->local_cpus ? cpus_common(all, d->local_cpus) : NULL;
        if (all && d->local_cpus && !local)
            sv_pushf(out, "all %zu interrupts of %s go to PUs %s, none on its own NUMA node "
                     "(PUs %s): every completion crosses the socket link (hint: irqbalance, or "
                     "the NIC's IRQs' smp_affinity_list set to local cores)", list_len(d->irqs),
                     d->name, all, d->local_cpus);
        if (on_ranks.n) {
            char *list = sv_join(&on_ranks, ",");
            char *shared = cpus_common(all, rank_cpus);
            sv_pushf(out, "%s's interrupts (IRQ %s) go to PUs %s, where ranks run: completion "
                     "interrupts preempt them (hint: move the IRQs off the ranks' cores, or "
                     "leave cores free for them)", d->name, list, shared ? shared : "?");
            free(shared);
            free(list);
        }
        free(local);
        free(all);
        sv_free(&on_ranks);
    }
}

void judge_governor(const char *want, const struct cpu_state *c, const char *cpus,
                    struct strvec *out, struct strvec *unknown)
{
    if (!c->governors) {
        sv_push(unknown, "the cpufreq governor (no cpufreq in sysfs)");
        return;
    }
    for (char **g = c->governors; *g; g++) {
        const char *colon = strrchr(*g, ':');
        if ((size_t)(colon - *g) == strlen(want) && strncmp(*g, want, strlen(want)) == 0)
            continue;
        char *on = cpus_common(colon + 1, cpus);
        if (on)
            sv_pushf(out, "PUs %s run the %.*s cpufreq governor, not %s (hint: cpupower "
                     "frequency-set -g %s)", on, (int)(colon - *g), *g, want, want);
        free(on);
    }
}

void judge_idle(const char *max_us, const struct cpu_state *c, const char *cpus,
                struct strvec *out, struct strvec *unknown)
{
    long max = atol(max_us);
    if (!c->idle_states) {
        sv_push(unknown, "the CPU idle states (no cpuidle in sysfs)");
        return;
    }
    for (char **s = c->idle_states; *s; s++) {
        char name[64];
        long us;
        int at = 0;
        if (sscanf(*s, "%63[^:]:%ld:%n", name, &us, &at) != 2 || !at || us <= max)
            continue;
        char *on = cpus_common(*s + at, cpus);
        if (on)
            sv_pushf(out, "idle state %s (exit latency %ld us, more than the %ld us allowed) is "
                     "enabled on PUs %s: a rank waiting for the network wakes late (hint: "
                     "cpupower idle-set -D %ld, or the BIOS's C-state limit)", name, us, max,
                     on, max);
        free(on);
    }
}

void judge_gpudirect(const struct facts *f, struct strvec *out, struct strvec *unknown)
{
    bool nvidia = false;
    for (size_t i = 0; i < f->ngpus; i++)
        nvidia |= gpu_is_nvidia(&f->gpus[i]);
    if (!nvidia || f->ndevs == 0)
        return;
    int gdr = gpudirect_available(f);
    if (gdr == 0)
        sv_push(out, "no GPUDirect RDMA: nvidia_peermem is not loaded and no RDMA device "
                "registers dma-buf memory, so GPU buffers are staged through host memory "
                "(hint: modprobe nvidia_peermem)");
    else if (gdr < 0 && f->limits.modules_known)
        sv_push(out, "nvidia_peermem is not loaded and dma-buf registration was not tested: "
                "without one of them there is no GPUDirect RDMA and GPU buffers are staged "
                "through host memory (hint: modprobe nvidia_peermem)");
    else if (gdr < 0)
        sv_push(unknown, "GPUDirect RDMA support (kernel modules and dma-buf unread)");
    for (size_t i = 0; i < f->ngpus; i++) {
        const struct gpu *g = &f->gpus[i];
        if (!gpu_is_nvidia(g))
            continue;
        if (!g->acs_redirect && g->nic_paths) {
            sv_pushf(unknown, "ACS on %s's paths to the NICs (the bridges' config space: root "
                     "only)", g->name);
            continue;
        }
        for (char **a = g->acs_redirect; a && *a; a++) {
            const char *eq = strchr(*a, '=');
            if (eq[1])
                sv_pushf(out, "ACS redirects peer-to-peer traffic on the PCIe path from %s to "
                         "%.*s (bridges %s): GPUDirect RDMA goes up through the root complex, "
                         "slowly or not at all (hint: disable ACS in the BIOS (VT-d/IOMMU), or "
                         "'setpci -s BRIDGE ECAP_ACS+0x6.w=0000')", g->name, (int)(eq - *a), *a,
                         eq + 1);
        }
    }
}
