#include "facts/check_keys.h"
#include "facts/findings.h"
#include "util/size.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

void judge_port_state(const struct port_ref *r, struct strvec *out)
{
    const struct rdma_port *p = r->port;
    if (!port_is_active(p))
        sv_pushf(out, "%s port %d is %s%s%s (hint: check the cable and the switch port; "
                 "'ibstat %s' shows the link)", r->dev->name, p->num, p->state,
                 p->phys_state ? ", physical state " : "", p->phys_state ? p->phys_state : "",
                 r->dev->name);
}

void judge_rate(const char *min_gbps, const struct port_ref *p, size_t n, struct strvec *out)
{
    double min = atof(min_gbps);
    for (size_t i = 0; i < n; i++)
        if (port_rate_below(p[i].port, min))
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
