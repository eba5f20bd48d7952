#include "health/manifest.h"
#include "util/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void differ(struct strvec *codes, struct strvec *problems, const char *code,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void differ(struct strvec *codes, struct strvec *problems, const char *code,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    sv_push(codes, code);
    sv_push(problems, text);
    free(text);
}

static const struct rdma_device *device_named(const struct facts *f, const char *name)
{
    for (size_t i = 0; i < f->ndevs; i++)
        if (strcmp(f->devs[i].name, name) == 0)
            return &f->devs[i];
    return NULL;
}

/* A NULL-terminated list as "a,b" ("none" when empty). Caller frees. */
static char *joined(char *const *list)
{
    struct strvec v = {0};
    for (size_t i = 0; list && list[i]; i++)
        sv_push(&v, list[i]);
    char *s = v.n ? sv_join(&v, ",") : xstrdup("none");
    sv_free(&v);
    return s;
}

/* The GID table's shape: each entry's type, in order ("RoCE v1,RoCE v2,..."):
 * the addresses differ from node to node, the shape must not. */
static char *gid_shape(const struct rdma_port *p)
{
    struct strvec v = {0};
    for (size_t k = 0; k < p->ngids; k++)
        sv_push(&v, p->gids[k].type ? p->gids[k].type : "?");
    char *s = v.n ? sv_join(&v, ",") : xstrdup("none");
    sv_free(&v);
    return s;
}

static bool same(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static void ports(const struct rdma_device *w, const struct rdma_device *h, struct strvec *codes,
                  struct strvec *problems)
{
    for (size_t j = 0; j < w->nports; j++) {
        const struct rdma_port *wp = &w->ports[j], *hp = NULL;
        for (size_t k = 0; k < h->nports && !hp; k++)
            if (h->ports[k].num == wp->num)
                hp = &h->ports[k];
        if (!hp) {
            differ(codes, problems, "RDMARUN-MANIFEST-PORT", "%s port %d is in the manifest, not "
                   "on this node", w->name, wp->num);
            continue;
        }
        if (wp->link_layer && hp->link_layer && !same(wp->link_layer, hp->link_layer))
            differ(codes, problems, "RDMARUN-MANIFEST-LINK-LAYER", "%s port %d is %s, the "
                   "manifest says %s", w->name, wp->num, hp->link_layer, wp->link_layer);
        if (wp->rate_gbps > 0 && hp->rate_gbps > 0 && wp->rate_gbps != hp->rate_gbps)
            differ(codes, problems, "RDMARUN-MANIFEST-RATE", "%s port %d runs at %s, the "
                   "manifest says %s (hint: a cable or switch port that trained down)", w->name,
                   wp->num, hp->rate ? hp->rate : "?", wp->rate ? wp->rate : "?");
        if (wp->active_mtu > 0 && hp->active_mtu > 0 && wp->active_mtu != hp->active_mtu)
            differ(codes, problems, "RDMARUN-MANIFEST-MTU", "%s port %d has MTU %d, the manifest "
                   "%d", w->name, wp->num, hp->active_mtu, wp->active_mtu);
        if (wp->ngids) {
            char *a = gid_shape(wp), *b = gid_shape(hp);
            if (strcmp(a, b) != 0)
                differ(codes, problems, "RDMARUN-MANIFEST-GID", "%s port %d's GID table is %s, "
                       "the manifest's %s (hint: an address missing from the netdev, or RoCE "
                       "v1/v2 set otherwise)", w->name, wp->num, b, a);
            free(a);
            free(b);
        }
        if (wp->pkeys && hp->pkeys) {   /* both known: the partitions the port is in */
            char *a = joined(wp->pkeys), *b = joined(hp->pkeys);
            if (strcmp(a, b) != 0)
                differ(codes, problems, "RDMARUN-MANIFEST-PKEY", "%s port %d's P_Keys are %s, "
                       "the manifest's %s (hint: the subnet manager's partitions, "
                       "partitions.conf)", w->name, wp->num, b, a);
            free(a);
            free(b);
        }
    }
}

/* The kernel and the RDMA stack's modules (facts/modules.c): each module
 * the manifest lists must be loaded here at its version. */
static void modules(const struct facts *want, const struct facts *have, struct strvec *codes,
                    struct strvec *problems)
{
    if (want->kernel && have->kernel && !same(want->kernel, have->kernel))
        differ(codes, problems, "RDMARUN-MANIFEST-KERNEL", "this node runs kernel %s, the "
               "manifest %s (its in-tree RDMA modules are that kernel's)", have->kernel,
               want->kernel);
    for (size_t i = 0; want->module_versions && have->module_versions &&
                       want->module_versions[i]; i++) {
        const char *w = want->module_versions[i];
        size_t len = strcspn(w, " ");
        const char *h = NULL;
        for (size_t k = 0; have->module_versions[k] && !h; k++)
            if (strncmp(have->module_versions[k], w, len) == 0 &&
                (have->module_versions[k][len] == ' ' || !have->module_versions[k][len]))
                h = have->module_versions[k];
        if (!h)
            differ(codes, problems, "RDMARUN-MANIFEST-MODULE", "kernel module %.*s is not "
                   "loaded, the manifest has %s (hint: modprobe %.*s)", (int)len, w, w,
                   (int)len, w);
        else if (!same(h, w))
            differ(codes, problems, "RDMARUN-MANIFEST-MODULE", "kernel module %s, the manifest's "
                   "%s (hint: the same driver stack, MLNX_OFED or in-tree, on every node)", h, w);
    }
}

static void device(const struct rdma_device *w, const struct rdma_device *h, struct strvec *codes,
                   struct strvec *problems)
{
    if (w->pci_busid && h->pci_busid && !same(w->pci_busid, h->pci_busid))
        differ(codes, problems, "RDMARUN-MANIFEST-PCI", "%s is at PCI %s, the manifest says %s "
               "(the devices are named in another order: their jobs would take another NIC)",
               w->name, h->pci_busid, w->pci_busid);
    if (w->board_id && h->board_id && !same(w->board_id, h->board_id))
        differ(codes, problems, "RDMARUN-MANIFEST-BOARD", "%s is board %s, the manifest says %s",
               w->name, h->board_id, w->board_id);
    if (w->fw_ver && h->fw_ver && !same(w->fw_ver, h->fw_ver))
        differ(codes, problems, "RDMARUN-MANIFEST-FIRMWARE", "%s runs firmware %s, the "
               "manifest %s (hint: flash it as its peers, mlxfwmanager)", w->name, h->fw_ver,
               w->fw_ver);
    if (w->numa_node >= 0 && h->numa_node >= 0 && w->numa_node != h->numa_node)
        differ(codes, problems, "RDMARUN-MANIFEST-NUMA", "%s is on NUMA node %d, the manifest "
               "says %d (a card in another slot: ranks placed by the manifest's layout would be "
               "far from it)", w->name, h->numa_node, w->numa_node);
    if (w->netdevs && w->netdevs[0]) {
        char *a = joined(w->netdevs), *b = joined(h->netdevs);
        if (strcmp(a, b) != 0)
            differ(codes, problems, "RDMARUN-MANIFEST-NETDEV", "%s's network interfaces are %s, "
                   "the manifest's %s", w->name, b, a);
        free(a);
        free(b);
    }
    bool speed = w->pcie_speed_gts > 0 && h->pcie_speed_gts > 0 &&
                 w->pcie_speed_gts != h->pcie_speed_gts;
    bool width = w->pcie_width > 0 && h->pcie_width > 0 && w->pcie_width != h->pcie_width;
    if (speed || width)
        differ(codes, problems, "RDMARUN-MANIFEST-PCIE", "%s's PCIe link is %g GT/s x%d, the "
               "manifest's %g GT/s x%d", w->name, h->pcie_speed_gts, h->pcie_width,
               w->pcie_speed_gts, w->pcie_width);
    ports(w, h, codes, problems);
}

void manifest_compare(const struct facts *want, const struct facts *have, struct strvec *codes,
                      struct strvec *problems)
{
    for (size_t i = 0; i < want->ndevs; i++) {
        const struct rdma_device *h = device_named(have, want->devs[i].name);
        if (!h)
            differ(codes, problems, "RDMARUN-MANIFEST-DEVICE", "%s is in the manifest, not on "
                   "this node", want->devs[i].name);
        else
            device(&want->devs[i], h, codes, problems);
    }
    /* A device the manifest does not list: the odd node out. (A subset
     * with no devices compares none.) */
    for (size_t i = 0; want->ndevs && i < have->ndevs; i++)
        if (!device_named(want, have->devs[i].name))
            differ(codes, problems, "RDMARUN-MANIFEST-DEVICE", "%s is on this node, not in the "
                   "manifest", have->devs[i].name);
    modules(want, have, codes, problems);
    for (size_t i = 0; i < want->ngpus; i++) {
        const struct gpu *w = &want->gpus[i], *h = NULL;
        for (size_t k = 0; k < have->ngpus && !h; k++)
            if (same(w->pci_busid, have->gpus[k].pci_busid))
                h = &have->gpus[k];
        if (!w->pci_busid)
            continue;
        if (!h)
            differ(codes, problems, "RDMARUN-MANIFEST-GPU", "GPU %s at %s is in the manifest, "
                   "not on this node (hint: nvidia-smi; a GPU fallen off the bus)",
                   w->name ? w->name : "?", w->pci_busid);
        else if (w->numa_node >= 0 && h->numa_node >= 0 && w->numa_node != h->numa_node)
            differ(codes, problems, "RDMARUN-MANIFEST-NUMA", "GPU %s is on NUMA node %d, the "
                   "manifest says %d", w->pci_busid, h->numa_node, w->numa_node);
    }
}
