#include "plan/ports.h"
#include "plan/placement.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fabrics a profile may name (fabric = NAME): the kinds of port each
 * runs on (facts.c's port_kind), the layer that carries it, and the
 * libfabric provider of those that go through libfabric. "rdma" is ib,
 * else roce. RoCE takes VMware's paravirtual RDMA too: its ports are
 * Ethernet RDMA ports to UCX. */
static const struct fabric_row fabric_rows[] = {
    {"ib", "InfiniBand", "ib", LAYER_UCX, NULL, "rdma", "ib", NULL},
    {"roce", "RoCE", "roce,pvrdma", LAYER_UCX, NULL, "rdma", "roce", NULL},
    {"pvrdma", "VMware paravirtual RDMA", "pvrdma", LAYER_UCX, NULL, "rdma", "pvrdma", NULL},
    {"rdma", "RDMA (InfiniBand or RoCE)", NULL, LAYER_UCX, NULL, "rdma", NULL, NULL},
    {"efa", "AWS EFA", "efa", LAYER_OFI, "efa", "efa", "efa", "FI_EFA_IFACE"},
    {"cxi", "HPE Slingshot (CXI)", "cxi", LAYER_OFI, "cxi", "cxi", "slingshot", "FI_CXI_DEVICE_NAME"},
    {"opa", "Omni-Path", "opa", LAYER_OFI, "opx", "opx", "opx", "FI_OPX_HFI_SELECT"},
    {"tcpx", "GPUDirect-TCPX", NULL, LAYER_TCPX, NULL, "gpudirect-tcp", NULL, NULL},
    {"tcp", "TCP", NULL, LAYER_NONE, NULL, "tcp", NULL, NULL},
    {"shm", "shared memory", NULL, LAYER_NONE, NULL, "local", NULL, NULL},
};

const struct fabric_row *fabric_row(const char *fabric)
{
    for (size_t i = 0; fabric && i < sizeof(fabric_rows) / sizeof(*fabric_rows); i++)
        if (strcmp(fabric_rows[i].name, fabric) == 0)
            return &fabric_rows[i];
    return NULL;
}

size_t fabric_auto_profiles(const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof(fabric_rows) / sizeof(*fabric_rows) && n < max; i++)
        if (fabric_rows[i].auto_profile)
            out[n++] = fabric_rows[i].auto_profile;
    return n;
}

const struct fabric_row *fabric_of_kind(const char *kind)
{
    for (size_t i = 0; i < sizeof(fabric_rows) / sizeof(*fabric_rows); i++)
        if (fabric_rows[i].kinds && strcmp(fabric_rows[i].kinds, kind) == 0)
            return &fabric_rows[i];
    return NULL;
}

static bool port_fits(const struct rdma_device *d, const struct rdma_port *port,
                      const struct fabric_row *row)
{
    if (!port_is_active(port) || !row->kinds)
        return false;
    struct strvec kinds = {0};
    sv_split(&kinds, row->kinds, ",");
    bool yes = sv_find(&kinds, port_kind(d, port)) >= 0;
    sv_free(&kinds);
    return yes;
}

size_t ports_select(const struct facts *f, const char *fabric, struct port_ref *out, size_t max)
{
    if (strcmp(fabric, "rdma") == 0) {
        size_t n = ports_select(f, "ib", out, max);
        return n ? n : ports_select(f, "roce", out, max);
    }
    const struct fabric_row *row = fabric_row(fabric);
    size_t n = 0;
    for (size_t i = 0; row && i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports; j++)
            if (n < max && port_fits(&f->devs[i], &f->devs[i].ports[j], row))
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
    const struct fabric_row *row = fabric_row(fabric);
    size_t n = 0;
    for (size_t i = 0; row && i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports; j++)
            n += port_fits(&f->devs[i], &f->devs[i].ports[j], row);
    return n > MAX_PORTS ? n - MAX_PORTS : 0;
}

char *fabric_rank_env(const struct fabric_row *row, const char *nics)
{
    struct strvec ports = {0}, names = {0};
    sv_split(&ports, nics, ",");
    for (size_t i = 0; i < ports.n; i++) {
        char *dev = xstrndup(ports.v[i], strcspn(ports.v[i], ":"));
        /* opx selects a unit by number: hfi1_N is unit N (fi_opx(7)) */
        const char *unit = strrchr(dev, '_');
        bool opx = strcmp(row->rank_var, "FI_OPX_HFI_SELECT") == 0;
        if (opx && names.n == 0)   /* one unit: the first */
            sv_push(&names, unit ? unit + 1 : dev);
        else if (!opx && sv_find(&names, dev) < 0)
            sv_push(&names, dev);
        free(dev);
    }
    /* FI_OPX_HFI_SELECT takes one unit (above); the others a comma list
     * (fi_efa(7) FI_EFA_IFACE, fi_cxi(7) FI_CXI_DEVICE_NAME) */
    char *list = sv_join(&names, ",");
    char *env = xasprintf("%s=%s", row->rank_var, list);
    free(list);
    sv_free(&ports);
    sv_free(&names);
    return env;
}

/* The index in "cxi2:1" (2), or -1. */
static long nic_index(const char *port)
{
    size_t len = strcspn(port, ":"), digits = 0;
    while (digits < len && port[len - digits - 1] >= '0' && port[len - digits - 1] <= '9')
        digits++;
    return digits && digits < 6 ? strtol(port + len - digits, NULL, 10) : -1;
}

char *fabric_nic_mapping(char *const *nics, int n)
{
    struct strvec parts = {0};
    long max = -1;
    for (int r = 0; r < n; r++) {
        long k = nics[r] ? nic_index(nics[r]) : -1;
        if (k < 0) {
            sv_free(&parts);
            return NULL;
        }
        max = k > max ? k : max;
    }
    for (long k = 0; k <= max; k++) {
        struct strvec ranks = {0};
        for (int r = 0; r < n; r++) {
            int end = r;
            if (nic_index(nics[r]) != k)
                continue;
            while (end + 1 < n && nic_index(nics[end + 1]) == k)
                end++;
            if (end > r)
                sv_pushf(&ranks, "%d-%d", r, end);
            else
                sv_pushf(&ranks, "%d", r);
            r = end;
        }
        char *list = ranks.n ? sv_join(&ranks, ",") : NULL;
        if (list)
            sv_pushf(&parts, "%ld:%s", k, list);
        free(list);
        sv_free(&ranks);
    }
    char *out = sv_join(&parts, "; ");
    sv_free(&parts);
    return out;
}

void fabric_mapping_env(struct rank_place *ranks, int n)
{
    char **nics = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*nics));
    for (int r = 0; r < n; r++)
        nics[r] = ranks[r].nics;
    char *map = fabric_nic_mapping(nics, n);
    for (int r = 0; map && r < n; r++) {
        sv_push(&ranks[r].env, "MPICH_OFI_NIC_POLICY=USER");
        sv_pushf(&ranks[r].env, "MPICH_OFI_NIC_MAPPING=%s", map);
    }
    free(map);
    free(nics);
}

bool fabric_is_rdma(const char *fabric)
{
    const struct fabric_row *row = fabric_row(fabric);
    return row && row->layer == LAYER_UCX;
}

bool fabric_has_ports(const char *fabric)
{
    const struct fabric_row *row = fabric_row(fabric);
    return row && (row->kinds || strcmp(row->name, "rdma") == 0);
}

const char *fabric_label(const char *fabric)
{
    const struct fabric_row *row = fabric_row(fabric);
    return row ? row->label : fabric;
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
