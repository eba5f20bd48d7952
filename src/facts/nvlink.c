/* Which of a node's GPUs NVLink joins, from hwloc's NVML backend
 * (hwloc topology-nvml.c hwloc__nvml_add_nvlink_bandwidth): a distances
 * matrix named "NVLinkBandwidth" between the GPUs' nvml OS devices and,
 * where NVSwitches or a POWER CPU's NVLink ports carry the links, those as
 * further objects (HWLOC_DISTANCES_KIND_HETEROGENEOUS_TYPES). Two GPUs are
 * joined when the matrix holds a bandwidth between them, or from each of
 * them to one same switch. The matrix is in hwloc's XML (distances2), so a
 * recorded tree says it too. */
#include "config.h"
#include "facts/internal.h"
#include "util/xalloc.h"
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The GPU of the node an object of the matrix is (by its PCI address), or -1. */
static long gpu_index(const struct facts *f, hwloc_obj_t obj)
{
    while (obj && obj->type != HWLOC_OBJ_PCI_DEVICE)
        obj = obj->parent;
    if (!obj)
        return -1;
    char bus[32];
    snprintf(bus, sizeof(bus), "%04x:%02x:%02x.%01x", obj->attr->pcidev.domain,
             obj->attr->pcidev.bus, obj->attr->pcidev.dev, obj->attr->pcidev.func);
    for (size_t g = 0; g < f->ngpus; g++)
        if (f->gpus[g].pci_busid && strcmp(f->gpus[g].pci_busid, bus) == 0)
            return (long)g;
    return -1;
}

static bool joined(const struct hwloc_distances_s *m, const long *gpu_of, unsigned a, unsigned b)
{
    unsigned n = m->nbobjs;
    if (m->values[a * n + b] || m->values[b * n + a])
        return true;
    for (unsigned s = 0; s < n; s++)   /* through one switch or port */
        if (gpu_of[s] < 0 && (m->values[a * n + s] || m->values[s * n + a]) &&
            (m->values[b * n + s] || m->values[s * n + b]))
            return true;
    return false;
}

void gpu_nvlink_peers(struct facts *f, hwloc_topology_t t)
{
    struct hwloc_distances_s *dist[1];
    unsigned ndist = 1;
    if (!f->ngpus || hwloc_distances_get_by_name(t, "NVLinkBandwidth", &ndist, dist, 0) != 0 ||
        ndist == 0)
        return;
    const struct hwloc_distances_s *m = dist[0];
    long *gpu_of = xcalloc(m->nbobjs, sizeof(*gpu_of));
    for (unsigned i = 0; i < m->nbobjs; i++)
        gpu_of[i] = gpu_index(f, m->objs[i]);
    for (unsigned a = 0; a < m->nbobjs; a++) {
        if (gpu_of[a] < 0)
            continue;
        int peers = 0;
        for (unsigned b = 0; b < m->nbobjs; b++)
            peers += b != a && gpu_of[b] >= 0 && gpu_of[b] != gpu_of[a] && joined(m, gpu_of, a, b);
        f->gpus[gpu_of[a]].nvlink_peers = peers;
    }
    free(gpu_of);
    hwloc_distances_release(t, dist[0]);
}

bool facts_nvlink_all_pairs(const struct facts *f)
{
    if (f->ngpus < 2)
        return false;
    for (size_t g = 0; g < f->ngpus; g++)
        if (f->gpus[g].nvlink_peers < (int)f->ngpus - 1)
            return false;
    return true;
}
