/* HPE Slingshot's Cassini NICs from sysfs, the layout of HPE's cxi driver
 * (shs-cxi-driver, drivers/net/ethernet/hpe/ss1): /sys/class/cxi/cxiN
 * (cass_core.c, cass_probe) whose device/ is the PCI function, holding
 *   properties/link     "1" when the PHY runs, else "0" (cass_sysfs.c)
 *   properties/speed    Mb/s, "200000"; -1 unknown (cass_sbl_link_mode_to_speed)
 *   properties/nid      the NIC's fabric address, "0x1a2b3"
 *   port/link, port/speed         Cassini 1: "up", "BS_200G" (cass_sbl.c
 *                                 port_attrs, no newline)
 *   port/0/link/state, /speed     Cassini 2 (read by libcxi's cxi_stat.c,
 *                                 get_port_status)
 *   uc/qspi_blob_version, fru/part_number   firmware and board
 * and the hsn netdev (cxi_eth.c) under the same PCI function's net/. Each
 * NIC is a device of the facts with one port, so the plan, placement and
 * health check treat it as they treat an RDMA port. */
#include "facts/internal.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int not_dot(const struct dirent *d) { return d->d_name[0] != '.'; }

/* The port's ATTR: Cassini 1's port/ATTR, else Cassini 2's port/0/link/ATTR. */
static char *link_word(const char *devdir, const char *attr)
{
    char *w = read_first_line("%s/device/port/%s", devdir, attr);
    if (!w)
        w = read_first_line("%s/device/port/0/link/%s", devdir, attr);
    return w;
}

static void read_port(struct rdma_port *p, const char *devdir)
{
    char *link = xasprintf("%s/device/properties/link", devdir);
    char *speed = xasprintf("%s/device/properties/speed", devdir);
    long long up = sysfs_number(link), mbps = sysfs_number(speed);
    free(link);
    free(speed);
    p->state = xstrdup(up == 1 ? "ACTIVE" : up == 0 ? "DOWN" : "UNKNOWN");
    /* Cassini 1 names the link's state port/link; Cassini 2 port/0/link/state */
    p->phys_state = read_first_line("%s/device/port/link", devdir);
    if (!p->phys_state)
        p->phys_state = read_first_line("%s/device/port/0/link/state", devdir);
    p->link_layer = xstrdup("Slingshot");
    char *mode = link_word(devdir, "speed");
    if (mbps > 0 && mbps / 1000 <= MAX_PORT_RATE_GBPS) {
        p->rate_gbps = (double)mbps / 1000;
        p->rate = xasprintf("%g Gb/sec (%s)", p->rate_gbps, mode ? mode : "Slingshot");
    }
    free(mode);
}

static void read_nic(struct facts *f, const char *classdir, const char *name)
{
    char *devdir = xasprintf("%s/%s", classdir, name);
    struct rdma_device *d = facts_device(f, name);
    d->driver = sysfs_driver_of(devdir, name);
    d->fw_ver = read_first_line("%s/device/uc/qspi_blob_version", devdir);
    d->node_guid = read_first_line("%s/device/properties/nid", devdir);
    d->board_id = read_first_line("%s/device/fru/part_number", devdir);
    sysfs_read_pci(d, devdir);
    d->ports = xcalloc(1, sizeof(*d->ports));
    d->nports = 1;
    port_init(&d->ports[0], 1);
    read_port(&d->ports[0], devdir);
    free(devdir);
}

void facts_read_cxi(struct facts *f, const char *root)
{
    char *classdir = xasprintf("%s/class/cxi", root);
    struct dirent **names;
    int n = scandir(classdir, &names, not_dot, alphasort);
    for (int i = 0; i < n; i++) {
        if (starts_with(names[i]->d_name, "cxi"))
            read_nic(f, classdir, names[i]->d_name);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    free(classdir);
}
