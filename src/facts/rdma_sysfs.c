/* RDMA devices and ports from sysfs (/sys/class/infiniband), the same source
 * ibv_devinfo and rdma-core's tools read, or a recorded copy of it. */
#include "facts/internal.h"
#include "util/fs.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "4: ACTIVE" -> "ACTIVE" */
static char *state_word(char *s)
{
    if (!s)
        return NULL;
    char *colon = strchr(s, ':');
    char *out = colon ? trim_dup(colon + 1, strlen(colon + 1)) : xstrdup(s);
    free(s);
    return out;
}

static int not_dot(const struct dirent *d) { return d->d_name[0] != '.'; }

static bool gid_is_zero(const char *gid) { return strspn(gid, "0:") == strlen(gid); }

/* A whole number the attribute holds and nothing else (a LID is "0x1a"),
 * or -1: absent, junk or out of range is unknown, never a saturated value. */
long long sysfs_number(const char *path)
{
    char *s = read_first_line("%s", path);
    long long v = -1;
    if (s) {
        char *end;
        errno = 0;
        v = strtoll(s, &end, 0);
        if (end == s || *end || errno || v < 0)
            v = -1;
    }
    free(s);
    return v;
}

/* A rate the kernel cannot print (facts.h) is not one to judge a port by:
 * unknown. */
static double rate_gbps(const char *rate)
{
    char *end;
    double g = rate ? strtod(rate, &end) : 0;
    if (!rate || end == rate || strncmp(end, " Gb/sec", 7) != 0 || !(g > 0) ||
        g > MAX_PORT_RATE_GBPS)
        return 0;
    return g;
}

static void read_gids(struct rdma_port *port, const char *portdir)
{
    char *dir = xasprintf("%s/gids", portdir);
    struct dirent **names;
    int n = scandir(dir, &names, not_dot, dirent_by_number);
    free(dir);
    size_t cap = 0;
    for (int i = 0; i < n; i++) {
        const char *idx = names[i]->d_name;
        char *gid = read_first_line("%s/gids/%s", portdir, idx);
        if (gid && !gid_is_zero(gid)) {
            GROW(port->gids, cap, port->ngids + 1);
            struct gid_entry *g = &port->gids[port->ngids++];
            g->index = atoi(idx);
            g->gid = gid;
            g->type = read_first_line("%s/gid_attrs/types/%s", portdir, idx);
            g->ndev = read_first_line("%s/gid_attrs/ndevs/%s", portdir, idx);
            gid = NULL;
        }
        free(gid);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

#define PKEYS_READ 128   /* a P_Key table's entries read at most (mlx5's size) */

/* The P_Key table's set entries, in table order; NULL when it has none. */
static void read_pkeys(struct rdma_port *port, const char *portdir)
{
    char *dir = xasprintf("%s/pkeys", portdir);
    struct dirent **names;
    int n = scandir(dir, &names, not_dot, dirent_by_number);
    free(dir);
    if (n < 0)
        return;
    port->pkeys = xcalloc(1, sizeof(*port->pkeys));
    for (int i = 0; i < n; i++) {
        char *v = i < PKEYS_READ ? read_first_line("%s/pkeys/%s", portdir, names[i]->d_name)
                                 : NULL;
        if (v && strtol(v, NULL, 0) != 0 && strlen(v) <= 6)
            list_add(&port->pkeys, v);
        free(v);
        free(names[i]);
    }
    free(names);
}

static void read_port(struct rdma_port *p, const char *portdir)
{
    p->state = state_word(read_first_line("%s/state", portdir));
    if (!p->state)
        p->state = xstrdup("UNKNOWN");
    p->phys_state = state_word(read_first_line("%s/phys_state", portdir));
    p->link_layer = read_first_line("%s/link_layer", portdir);
    if (!p->link_layer)   /* kernels before link_layer existed; verbs' word for junk */
        p->link_layer = xstrdup(errno == ENOENT ? "InfiniBand" : "Unspecified");
    p->rate = read_first_line("%s/rate", portdir);
    p->rate_gbps = rate_gbps(p->rate);
    if (!p->rate_gbps) {
        free(p->rate);
        p->rate = NULL;
    }
    char *lid = xasprintf("%s/lid", portdir), *sm = xasprintf("%s/sm_lid", portdir);
    p->lid = (int)sysfs_number(lid);
    p->sm_lid = (int)sysfs_number(sm);
    free(lid);
    free(sm);
    read_gids(p, portdir);
    read_pkeys(p, portdir);
}

/* The kernel driver: DRIVER= in device/uevent (a plain file, so recorded
 * trees keep it), else the device/driver link, else the name. */
char *sysfs_driver_of(const char *devdir, const char *name)
{
    char *path = xasprintf("%s/device/uevent", devdir);
    FILE *f = open_input(path);
    free(path);
    char line[256];
    while (f && fgets(line, sizeof(line), f)) {
        if (starts_with(line, "DRIVER=")) {
            fclose(f);
            return trim_dup(line + 7, strlen(line + 7));
        }
    }
    if (f)
        fclose(f);
    char *link = xasprintf("%s/device/driver", devdir);
    char target[PATH_MAX];
    ssize_t len = readlink(link, target, sizeof(target) - 1);
    free(link);
    if (len > 0) {
        target[len] = '\0';
        const char *base = strrchr(target, '/');
        return xstrdup(base ? base + 1 : target);
    }
    return xstrdup(driver_from_name(name));
}

/* "8.0 GT/s PCIe" -> 8.0 */
static double link_speed(const char *devdir, const char *attr)
{
    char *s = read_first_line("%s/device/%s", devdir, attr);
    double v = s ? strtod(s, NULL) : 0;
    free(s);
    return v;
}

void sysfs_read_pci(struct rdma_device *d, const char *devdir)
{
    char *uevent = xasprintf("%s/device/uevent", devdir);
    FILE *f = open_input(uevent);
    free(uevent);
    char line[256];
    while (f && fgets(line, sizeof(line), f))
        if (starts_with(line, "PCI_SLOT_NAME="))
            d->pci_busid = trim_dup(line + 14, strlen(line + 14));
    if (f)
        fclose(f);
    char *numa = xasprintf("%s/device/numa_node", devdir);
    long long n = sysfs_number(numa);
    free(numa);
    if (n >= 0)
        d->numa_node = (int)n;
    d->local_cpus = read_first_line("%s/device/local_cpulist", devdir);
    /* "0x1d0f" and "0xefa1" (drivers/pci/pci-sysfs.c, vendor_show, device_show) */
    char *vendor = read_first_line("%s/device/vendor", devdir);
    char *device = read_first_line("%s/device/device", devdir);
    if (vendor && device && strlen(vendor) == 6 && strlen(device) == 6 &&
        strncmp(vendor, "0x", 2) == 0 && strncmp(device, "0x", 2) == 0 &&
        strspn(vendor + 2, "0123456789abcdef") == 4 && strspn(device + 2, "0123456789abcdef") == 4)
        d->pci_id = xasprintf("%s:%s", vendor + 2, device + 2);
    free(vendor);
    free(device);
    d->pcie_speed_gts = link_speed(devdir, "current_link_speed");
    d->pcie_max_speed_gts = link_speed(devdir, "max_link_speed");
    char *w = xasprintf("%s/device/current_link_width", devdir);
    char *mw = xasprintf("%s/device/max_link_width", devdir);
    long long width = sysfs_number(w), max_width = sysfs_number(mw);
    d->pcie_width = width > 0 ? (int)width : 0;
    d->pcie_max_width = max_width > 0 ? (int)max_width : 0;
    free(w);
    free(mw);
    char *netdir = xasprintf("%s/device/net", devdir);
    struct dirent **names;
    int nn = scandir(netdir, &names, not_dot, alphasort);
    for (int i = 0; i < nn; i++) {
        list_add(&d->netdevs, names[i]->d_name);
        free(names[i]);
    }
    if (nn >= 0)
        free(names);
    free(netdir);
}

static void read_device(struct facts *f, const char *classdir, const char *name)
{
    char *devdir = xasprintf("%s/%s", classdir, name);
    struct rdma_device *d = facts_device(f, name);
    d->driver = sysfs_driver_of(devdir, name);
    d->fw_ver = read_first_line("%s/fw_ver", devdir);
    d->node_guid = read_first_line("%s/node_guid", devdir);
    d->board_id = read_first_line("%s/board_id", devdir);
    sysfs_read_pci(d, devdir);
    if (!d->netdevs) {
        /* Software RDMA (rxe, siw) names its netdev in "parent". */
        char *parent = read_first_line("%s/parent", devdir);
        if (parent)
            list_add(&d->netdevs, parent);
        free(parent);
    }
    char *portsdir = xasprintf("%s/ports", devdir);
    struct dirent **names;
    int n = scandir(portsdir, &names, not_dot, dirent_by_number);
    d->ports = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*d->ports));
    for (int i = 0; i < n; i++) {
        struct rdma_port *p = &d->ports[d->nports++];
        char *portdir = xasprintf("%s/%s", portsdir, names[i]->d_name);
        port_init(p, atoi(names[i]->d_name));
        read_port(p, portdir);
        free(portdir);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    free(portsdir);
    free(devdir);
}

void facts_read_sysfs(struct facts *f, const char *root)
{
    char *classdir = xasprintf("%s/class/infiniband", root);
    struct dirent **names;
    int n = scandir(classdir, &names, not_dot, alphasort);
    for (int i = 0; i < n; i++) {
        read_device(f, classdir, names[i]->d_name);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    free(classdir);
}
