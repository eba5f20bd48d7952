#include "plan/ports.h"
#include "util/strvec.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>

static bool port_fits(const struct rdma_device *d, const struct rdma_port *port, const char *fabric)
{
    if (!port_is_active(port))
        return false;
    if (strcmp(fabric, "ib") == 0)
        return strcmp(port->link_layer, "InfiniBand") == 0;
    if (strcmp(fabric, "pvrdma") == 0)
        return strcmp(d->driver, "vmw_pvrdma") == 0;
    if (strcmp(fabric, "roce") == 0)
        return strcmp(port->link_layer, "Ethernet") == 0;
    return false;
}

size_t ports_select(const struct facts *f, const char *fabric, struct port_ref *out, size_t max)
{
    if (strcmp(fabric, "rdma") == 0) {
        size_t n = ports_select(f, "ib", out, max);
        return n ? n : ports_select(f, "roce", out, max);
    }
    size_t n = 0;
    for (size_t i = 0; i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports; j++)
            if (n < max && port_fits(&f->devs[i], &f->devs[i].ports[j], fabric))
                out[n++] = (struct port_ref){&f->devs[i], &f->devs[i].ports[j]};
    return n;
}

size_t ports_over_cap(const struct facts *f, const char *fabric)
{
    if (strcmp(fabric, "rdma") == 0) {
        struct port_ref one;
        return ports_select(f, "ib", &one, 1) ? ports_over_cap(f, "ib")
                                              : ports_over_cap(f, "roce");
    }
    size_t n = 0;
    for (size_t i = 0; i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports; j++)
            n += port_fits(&f->devs[i], &f->devs[i].ports[j], fabric);
    return n > MAX_PORTS ? n - MAX_PORTS : 0;
}

bool fabric_is_rdma(const char *fabric)
{
    return strcmp(fabric, "ib") == 0 || strcmp(fabric, "roce") == 0 ||
           strcmp(fabric, "pvrdma") == 0 || strcmp(fabric, "rdma") == 0;
}

const char *fabric_label(const char *fabric)
{
    return strcmp(fabric, "ib") == 0 ? "InfiniBand"
         : strcmp(fabric, "roce") == 0 ? "RoCE"
         : strcmp(fabric, "pvrdma") == 0 ? "VMware paravirtual RDMA"
         : strcmp(fabric, "rdma") == 0 ? "RDMA (InfiniBand or RoCE)" : fabric;
}

bool device_local_to(const struct rdma_device *d, int numa_os)
{
    if (!d->local_numa)
        return d->numa_node < 0 || d->numa_node == numa_os;   /* unknown: anywhere */
    struct strvec v = {0};
    sv_split(&v, d->local_numa, ",");
    char buf[16];
    snprintf(buf, sizeof(buf), "%d", numa_os);
    bool yes = sv_find(&v, buf) >= 0;
    sv_free(&v);
    return yes;
}

static bool any_local(const struct port_ref *all, size_t nall, int numa_os)
{
    for (size_t i = 0; i < nall; i++)
        if (device_local_to(all[i].dev, numa_os))
            return true;
    return false;
}

int numa_gap(const struct facts *f, const size_t *doms, size_t n, int numa_os)
{
    int best = INT_MAX / 2;
    for (size_t i = 0; i < n; i++) {
        const struct numa_node *d = &f->numa[doms[i]];
        if (d->os_index == numa_os)
            return 0;
        for (size_t k = 0; d->distance && k < f->nnuma; k++)
            if (f->numa[k].os_index == numa_os && d->distance[k] < best)
                best = d->distance[k];
    }
    return best;
}

size_t ports_nearest(const struct facts *f, const size_t *doms, size_t n,
                     const struct port_ref *all, size_t nall, struct port_ref *out, bool *local)
{
    /* The NUMA nodes whose ports are taken: the rank's own with a port,
     * else the nearest other one with a port; none: every port. */
    bool take[MAX_NUMA] = {false};
    size_t nn = f->nnuma < MAX_NUMA ? f->nnuma : MAX_NUMA;
    *local = false;
    for (size_t i = 0; i < n; i++)
        if (doms[i] < nn && any_local(all, nall, f->numa[doms[i]].os_index))
            *local = take[doms[i]] = true;
    if (!*local) {
        int best = -1, gap = INT_MAX / 2;
        for (size_t k = 0; k < nn; k++) {
            int g = numa_gap(f, doms, n, f->numa[k].os_index);
            if (any_local(all, nall, f->numa[k].os_index) && g < gap)
                best = (int)k, gap = g;
        }
        if (best >= 0)
            take[best] = true;
    }
    bool any = false;
    for (size_t k = 0; k < nn; k++)
        any |= take[k];
    /* First ports of every HCA, then second ports, ... */
    int maxnum = 0;
    for (size_t i = 0; i < nall; i++)
        maxnum = all[i].port->num > maxnum ? all[i].port->num : maxnum;
    size_t m = 0;
    for (int num = 0; num <= maxnum; num++)
        for (size_t i = 0; i < nall; i++) {
            bool near = !any;
            for (size_t k = 0; !near && k < nn; k++)
                near = take[k] && device_local_to(all[i].dev, f->numa[k].os_index);
            if (all[i].port->num == num && near)
                out[m++] = all[i];
        }
    return m;
}
