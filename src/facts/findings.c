#include "facts/findings.h"
#include "util/strvec.h"
#include "util/text.h"
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

bool port_link_up(const struct rdma_port *p)
{
    /* verbs' LinkUp; Cassini's link word "up" (cass_link_state_str) */
    return port_is_active(p) && (!p->phys_state || strcmp(p->phys_state, "LinkUp") == 0 ||
                                 strcmp(p->phys_state, "up") == 0);
}

bool pcie_below_capability(const struct rdma_device *d)
{
    return (d->pcie_max_speed_gts > 0 && d->pcie_speed_gts > 0 &&
            d->pcie_speed_gts < d->pcie_max_speed_gts) ||
           (d->pcie_max_width > 0 && d->pcie_width > 0 && d->pcie_width < d->pcie_max_width);
}

double pcie_gbps(const struct rdma_device *d)
{
    double gts = d->pcie_speed_gts;
    if (gts <= 0 || d->pcie_width <= 0)
        return 0;
    double efficiency = gts <= 5 ? 8.0 / 10 : gts <= 32 ? 128.0 / 130 : 242.0 / 256;
    return gts * d->pcie_width * efficiency;
}

bool pcie_narrower_than_port(const struct rdma_device *d, const struct rdma_port *p)
{
    double link = pcie_gbps(d);
    return link > 0 && p->rate_gbps > 0 && port_is_active(p) && link < p->rate_gbps;
}

const struct rdma_port *pcie_narrowest_port(const struct rdma_device *d)
{
    const struct rdma_port *worst = NULL;
    for (size_t j = 0; j < d->nports; j++)
        if (pcie_narrower_than_port(d, &d->ports[j]) &&
            (!worst || d->ports[j].rate_gbps > worst->rate_gbps))
            worst = &d->ports[j];
    return worst;
}

int pcie_path_rank(const char *cls)
{
    static const char *const classes[] = {"PIX", "PXB", "PHB", "NODE", "SYS"};
    for (int i = 0; cls && i < 5; i++)
        if (strcmp(cls, classes[i]) == 0)
            return i;
    return -1;
}

const char *gpu_path_to(const struct gpu *g, const char *dev)
{
    size_t n = strlen(dev);
    for (char **e = g->nic_paths; e && *e; e++)
        if (strncmp(*e, dev, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

const char *gpu_nearest_nic(const struct gpu *g, const char **cls)
{
    const char *best = NULL;
    *cls = NULL;
    for (char **e = g->nic_paths; e && *e; e++) {
        const char *c = strchr(*e, '=') + 1;
        if (!best || pcie_path_rank(c) < pcie_path_rank(*cls)) {
            best = *e;
            *cls = c;
        }
    }
    return best;
}

bool port_rate_below(const struct rdma_port *p, double min_gbps)
{
    return p->rate_gbps > 0 && p->rate_gbps < min_gbps;
}

bool port_mtu_differs(const struct rdma_port *p, int mtu)
{
    return p->active_mtu && p->active_mtu != mtu;
}

enum limit_finding memlock_against(const struct host_limits *l, long long need)
{
    long long have = l->memlock_soft;
    if (have == -2)
        return LIMIT_UNKNOWN;
    if (have == -1)
        return LIMIT_OK;
    return need == -1 || have < need ? LIMIT_BELOW : LIMIT_OK;
}

bool gpu_is_nvidia(const struct gpu *g)
{
    return (g->vendor && strcmp(g->vendor, "NVIDIA") == 0) || starts_with(g->name, "cuda") ||
           starts_with(g->name, "nvml");
}

int gpudirect_available(const struct facts *f)
{
    if (f->limits.modules_known && f->limits.mod_nvidia_peermem)
        return 1;
    bool unknown = !f->limits.modules_known;
    for (size_t i = 0; i < f->ndevs; i++) {
        if (f->devs[i].dmabuf == 1)
            return 1;
        unknown |= f->devs[i].dmabuf < 0;
    }
    return unknown ? -1 : 0;
}

/* One number of a CPU list at *p, below MAX_PUS, in decimal without a
 * leading zero; -1 for anything else. */
static long cpu_number(const char **p)
{
    if (**p < '0' || **p > '9' || ((*p)[0] == '0' && (*p)[1] >= '0' && (*p)[1] <= '9'))
        return -1;
    char *end;
    unsigned long v = strtoul(*p, &end, 10);
    *p = end;
    return v < MAX_PUS ? (long)v : -1;
}

bool cpu_list_valid(const char *s)
{
    if (!s || !*s)
        return false;
    /* Linux's cpulist format: "N" or "N-M" (N <= M), separated by commas */
    for (const char *p = s;; p++) {
        long first = cpu_number(&p), last = first;
        if (first >= 0 && *p == '-') {
            p++;
            last = cpu_number(&p);
        }
        if (first < 0 || last < first || (*p && *p != ','))
            return false;
        if (!*p)
            return true;
    }
}

char *cpus_common(const char *a, const char *b)
{
    hwloc_bitmap_t x = hwloc_bitmap_alloc(), y = hwloc_bitmap_alloc();
    char *out = NULL;
    if (x && y && cpu_list_valid(a) && hwloc_bitmap_list_sscanf(x, a) == 0 &&
        (!b || (cpu_list_valid(b) && hwloc_bitmap_list_sscanf(y, b) == 0))) {
        if (b)
            hwloc_bitmap_and(x, x, y);
        if (!hwloc_bitmap_iszero(x))
            hwloc_bitmap_list_asprintf(&out, x);
    }
    hwloc_bitmap_free(x);
    hwloc_bitmap_free(y);
    return out;
}

char *device_irq_cpus(const struct rdma_device *d)
{
    struct strvec lists = {0};
    for (char **e = d->irqs; e && *e; e++)
        sv_push(&lists, strchr(*e, ':') + 1);   /* "57:0-3" */
    char *joined = lists.n ? sv_join(&lists, ",") : NULL;
    char *out = joined ? cpus_common(joined, NULL) : NULL;
    free(joined);
    sv_free(&lists);
    return out;
}
