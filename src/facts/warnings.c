/* What deserves a warning in a node's facts (pure: facts in, lines out). The
 * 'check' command turns the same findings into failures. */
#include "facts/check_keys.h"
#include "facts/findings.h"
#include "facts/internal.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* Device d's ports down, and those whose MTU differs from the first
 * active one (*mtu, on *mtu_port: 0 until one is seen). */
static void port_warnings(const struct rdma_device *d, struct strvec *out, int *mtu,
                          const char **mtu_port)
{
    for (size_t j = 0; j < d->nports; j++) {
        const struct rdma_port *p = &d->ports[j];
        if (!port_link_up(p))
            sv_pushf(out, "%s port %d is %s%s%s (hint: check the cable, the switch port "
                     "and the subnet manager; 'ibstat %s %d')", d->name, p->num, p->state,
                     p->phys_state ? ", physical state " : "",
                     p->phys_state ? p->phys_state : "", d->name, p->num);
        if (!port_is_active(p) || !p->active_mtu)
            continue;
        if (!*mtu) {
            *mtu = p->active_mtu;
            *mtu_port = d->name;
        } else if (port_mtu_differs(p, *mtu)) {
            sv_pushf(out, "%s port %d has MTU %d but %s has %d: every node and port of "
                     "a job should use the same MTU", d->name, p->num, p->active_mtu,
                     *mtu_port, *mtu);
        }
    }
}

/* One line per device: a link below its capability that is also too
 * narrow for a port says both. */
static void pcie_warning(const struct rdma_device *d, struct strvec *out)
{
    const struct rdma_port *narrow = pcie_narrowest_port(d);
    char *cost = narrow ? xasprintf("carries %.0f Gb/s, less than port %d's %g Gb/s",
                                    pcie_gbps(d), narrow->num, narrow->rate_gbps) : NULL;
    if (pcie_below_capability(d))
        sv_pushf(out, "%s PCIe link trained at %.1f GT/s x%d, below its capability %.1f GT/s "
                 "x%d%s%s (hint: reseat the card or check the slot and BIOS settings)",
                 d->name, d->pcie_speed_gts, d->pcie_width, d->pcie_max_speed_gts,
                 d->pcie_max_width, cost ? ": it " : "", cost ? cost : "");
    else if (cost)
        sv_pushf(out, "%s PCIe link (%.1f GT/s x%d) %s: the port cannot run at its rate "
                 "(hint: a wider or faster slot)", d->name, d->pcie_speed_gts, d->pcie_width,
                 cost);
    free(cost);
}

/* What keeps user space from the devices: memlock, uverbs, its module. */
static void access_warnings(const struct facts *f, struct strvec *out)
{
    const struct host_limits *l = &f->limits;
    if (f->ndevs > 0 && memlock_against(l, -1) == LIMIT_BELOW)
        sv_pushf(out, "memlock limit is %lld KiB, not unlimited: registering RDMA memory will "
                 "fail for large buffers (hint: 'ulimit -l unlimited', or memlock in "
                 "/etc/security/limits.conf)", l->memlock_soft / 1024);
    if (f->ndevs > 0 && l->uverbs_devices == 0)
        sv_push(out, "RDMA devices exist but /dev/infiniband has no uverbs device: in a "
                "container, pass /dev/infiniband through (hint: --device=/dev/infiniband)");
    else if (f->ndevs > 0 && l->uverbs_devices > 0 && !l->uverbs_accessible)
        sv_push(out, "/dev/infiniband/uverbs* is not readable and writable by this user (hint: "
                "check the rdma group or the udev rules)");
    if (f->ndevs > 0 && l->modules_known && !l->mod_ib_uverbs)
        sv_push(out, "kernel module ib_uverbs is not loaded: user space cannot use the RDMA "
                "devices (hint: modprobe ib_uverbs)");
}

void facts_warnings(const struct facts *f, struct strvec *out)
{
    if (f->counters_timed_out)
        sv_pushf(out, "the ports' counters were not read: the HCAs did not answer in %.0f s "
                 "(a firmware command stuck; hint: 'dmesg | grep -i \"cmd exec timeout\"', "
                 "then reset the HCA or reboot the node)", COUNTERS_TIMEOUT_S);
    int mtu = 0;
    const char *mtu_port = NULL;
    for (size_t i = 0; i < f->ndevs; i++) {
        port_warnings(&f->devs[i], out, &mtu, &mtu_port);
        pcie_warning(&f->devs[i], out);
    }
    access_warnings(f, out);
    cloud_warnings(f, out);
    /* GPUDirect RDMA, and interrupts away from their device's NUMA node:
     * the health check's judges, on every port. */
    struct strvec unknown = {0};
    judge_gpudirect(f, out, &unknown);
    struct port_ref all[64];
    size_t n = 0;
    for (size_t i = 0; i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports && n < 64; j++)
            all[n++] = (struct port_ref){&f->devs[i], &f->devs[i].ports[j]};
    judge_irqs(all, n, NULL, out, &unknown);
    sv_free(&unknown);   /* probe prints the facts: "unknown" shows there */
}
