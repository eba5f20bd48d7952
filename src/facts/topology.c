/* Placement from hwloc: the host's packages, cores, NUMA nodes, and where
 * each RDMA device, GPU and network interface sits. With an XML file (what
 * 'lstopo -i' reads) this describes another machine, including its RDMA
 * devices as hwloc recorded them. */
#include "config.h"
#include "facts/findings.h"
#include "facts/internal.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *bitmap_list(hwloc_const_bitmap_t b)
{
    char *s = NULL;
    if (hwloc_bitmap_list_asprintf(&s, b) < 0)
        return xstrdup("");
    char *out = xstrdup(s);
    free(s);
    return out;
}

/* "0,1" from a nodeset, as hwloc-calc prints NUMA OS indexes. */
static char *nodes_list(hwloc_const_nodeset_t ns)
{
    struct strvec v = {0};
    unsigned i;
    hwloc_bitmap_foreach_begin(i, ns) {
        sv_pushf(&v, "%u", i);
    }
    hwloc_bitmap_foreach_end();
    char *out = sv_join(&v, ",");
    sv_free(&v);
    return out;
}

static const char *port_state_name(long v)
{
    static const char *const names[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
    return v >= 0 && v <= 5 ? names[v] : "UNKNOWN";
}

/* Ports of an OpenFabrics OS device as hwloc recorded them (Port1State,
 * Port1LID, Port1GID0, ...). hwloc does not record the link layer: a LID
 * means InfiniBand; EFA has neither. */
static void ports_from_infos(struct rdma_device *d, hwloc_obj_t osdev)
{
    for (int num = 1; num < 64; num++) {
        char key[64];
        snprintf(key, sizeof(key), "Port%dState", num);
        const char *state = hwloc_obj_get_info_by_name(osdev, key);
        if (!state)
            break;
        d->ports = xrealloc(d->ports, (d->nports + 1) * sizeof(*d->ports));
        struct rdma_port *p = &d->ports[d->nports++];
        port_init(p, num);
        p->state = xstrdup(port_state_name(strtol(state, NULL, 0)));
        snprintf(key, sizeof(key), "Port%dLID", num);
        const char *lid = hwloc_obj_get_info_by_name(osdev, key);
        p->lid = lid ? (int)strtol(lid, NULL, 0) : -1;
        p->link_layer = xstrdup(strcmp(d->driver, "efa") == 0 ? "Unspecified"
                                : p->lid > 0 ? "InfiniBand" : "Ethernet");
        size_t cap = 0;
        for (int g = 0; g < 256; g++) {
            snprintf(key, sizeof(key), "Port%dGID%d", num, g);
            const char *gid = hwloc_obj_get_info_by_name(osdev, key);
            if (!gid)
                continue;
            GROW(p->gids, cap, p->ngids + 1);
            struct gid_entry *e = &p->gids[p->ngids++];
            memset(e, 0, sizeof(*e));
            e->index = g;
            e->gid = xstrdup(gid);
        }
    }
}

static hwloc_obj_t pci_parent(hwloc_obj_t osdev)
{
    hwloc_obj_t o = osdev->parent;
    while (o && o->type != HWLOC_OBJ_PCI_DEVICE && o->type == HWLOC_OBJ_OS_DEVICE)
        o = o->parent;
    return o && o->type == HWLOC_OBJ_PCI_DEVICE ? o : NULL;
}

static char *busid(hwloc_obj_t pci)
{
    return xasprintf("%04x:%02x:%02x.%01x", pci->attr->pcidev.domain, pci->attr->pcidev.bus,
                     pci->attr->pcidev.dev, pci->attr->pcidev.func);
}

static void place_device(hwloc_topology_t t, struct rdma_device *d, hwloc_obj_t osdev)
{
    hwloc_obj_t pci = pci_parent(osdev);
    if (pci && !d->pci_busid)
        d->pci_busid = busid(pci);
    if (pci && !d->pci_id)
        d->pci_id = xasprintf("%04x:%04x", pci->attr->pcidev.vendor_id,
                              pci->attr->pcidev.device_id);
    if (pci && pci->attr->pcidev.linkspeed > 0)
        d->pcie_gbytes = pci->attr->pcidev.linkspeed;
    hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t, osdev);
    if (!anc)
        return;
    free(d->local_numa);
    d->local_numa = nodes_list(anc->nodeset);
    if (hwloc_bitmap_weight(anc->nodeset) == 1)
        d->numa_node = hwloc_bitmap_first(anc->nodeset);
    free(d->local_cpus);
    d->local_cpus = bitmap_list(anc->cpuset);
}

/* The PCI-to-PCI bridges (those with a bus address: switch ports, root
 * ports) from o up to its ancestor anc, and anc itself when one. */
static void path_bridges(hwloc_obj_t o, hwloc_obj_t anc, struct strvec *out)
{
    for (o = o->parent; o; o = o->parent) {
        if (o->type == HWLOC_OBJ_BRIDGE && o->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI) {
            const struct hwloc_pcidev_attr_s *b = &o->attr->bridge.upstream.pci;
            char *id = xasprintf("%04x:%02x:%02x.%01x", b->domain, b->bus, b->dev, b->func);
            bool seen = false;
            for (size_t i = 0; i < out->n && !seen; i++)
                seen = strcmp(out->v[i], id) == 0;
            if (!seen)
                sv_push(out, id);
            free(id);
        }
        if (o == anc)
            break;
    }
}

static hwloc_obj_t common_ancestor(hwloc_obj_t a, hwloc_obj_t b)
{
    /* hwloc_get_common_ancestor_obj compares depths, which I/O objects do
     * not have: walk up from b until an ancestor of a. */
    for (hwloc_obj_t y = b; y; y = y->parent)
        for (hwloc_obj_t x = a; x; x = x->parent)
            if (x == y)
                return x;
    return NULL;
}

/* PCI bridges strictly between o and its ancestor anc. */
static int bridges_between(hwloc_obj_t o, hwloc_obj_t anc)
{
    int n = 0;
    for (o = o->parent; o && o != anc; o = o->parent)
        n += o->type == HWLOC_OBJ_BRIDGE;
    return n;
}

/* The PCIe path between two PCI functions, as 'nvidia-smi topo -m' and
 * NCCL class it: PIX (through at most one PCIe switch), PXB (several
 * bridges, no host bridge), PHB (through a host bridge), NODE (between host
 * bridges of one NUMA node), SYS (across NUMA nodes). */
static const char *pcie_path_class(hwloc_obj_t a, hwloc_obj_t b)
{
    hwloc_obj_t anc = common_ancestor(a, b);
    if (!anc)
        return "SYS";
    if (anc->type == HWLOC_OBJ_PCI_DEVICE)
        return "PIX";   /* two functions of one card */
    if (anc->type == HWLOC_OBJ_BRIDGE)
        return anc->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST ? "PHB"
             : bridges_between(a, anc) <= 1 && bridges_between(b, anc) <= 1 ? "PIX" : "PXB";
    return anc->nodeset && hwloc_bitmap_weight(anc->nodeset) == 1 ? "NODE" : "SYS";
}

/* Each GPU's path to each RDMA device that has a PCI address. */
static void gpu_nic_paths(struct facts *f, hwloc_topology_t t)
{
    for (size_t i = 0; i < f->ngpus; i++) {
        struct gpu *g = &f->gpus[i];
        hwloc_obj_t gp = g->pci_busid ? hwloc_get_pcidev_by_busidstring(t, g->pci_busid) : NULL;
        for (size_t k = 0; gp && k < f->ndevs; k++) {
            const struct rdma_device *d = &f->devs[k];
            hwloc_obj_t np = d->pci_busid ? hwloc_get_pcidev_by_busidstring(t, d->pci_busid)
                                          : NULL;
            if (!np)
                continue;
            char *e = xasprintf("%s=%s", d->name, pcie_path_class(gp, np));
            list_add(&g->nic_paths, e);
            free(e);
            struct strvec bridges = {0};
            hwloc_obj_t anc = common_ancestor(gp, np);
            path_bridges(gp, anc, &bridges);
            path_bridges(np, anc, &bridges);
            char *list = sv_join(&bridges, ",");
            e = xasprintf("%s=%s", d->name, list);
            list_add(&g->path_bridges, e);
            free(e);
            free(list);
            sv_free(&bridges);
        }
    }
}

/* How hwloc names a compute GPU, best first: the name a GPU keeps when
 * several APIs show it (cuda0, nvml0 and opencl0d0 are one GPU). -1: not
 * a compute GPU (card0 and renderD128 are any display's DRM nodes). */
static int gpu_name_rank(const char *name)
{
    static const char *const prefixes[] = {"cuda", "nvml", "rsmi", "ze", "opencl", NULL};
    for (int i = 0; prefixes[i]; i++)
        if (starts_with(name, prefixes[i]))
            return i;
    return -1;
}

/* The GPU's vendor: its PCI vendor ID, else what the API that shows it implies. */
static char *gpu_vendor(hwloc_obj_t pci, hwloc_obj_t osdev)
{
    unsigned id = pci ? pci->attr->pcidev.vendor_id : 0;
    const char *by_info = hwloc_obj_get_info_by_name(osdev, "GPUVendor");
    if (id == 0x10de || starts_with(osdev->name, "cuda") || starts_with(osdev->name, "nvml") ||
        (by_info && strstr(by_info, "NVIDIA")))
        return xstrdup("NVIDIA");
    if (id == 0x1002 || starts_with(osdev->name, "rsmi") ||
        (by_info && strstr(by_info, "Advanced Micro Devices")))
        return xstrdup("AMD");
    if (id == 0x8086 || starts_with(osdev->name, "ze") || (by_info && strstr(by_info, "Intel")))
        return xstrdup("Intel");
    return NULL;
}

static void add_gpu(struct facts *f, hwloc_topology_t t, hwloc_obj_t osdev)
{
    const char *type = hwloc_obj_get_info_by_name(osdev, "OpenCLDeviceType");
    if (gpu_name_rank(osdev->name) < 0 || (type && strcmp(type, "GPU") != 0))
        return;   /* an OpenCL CPU or accelerator device is no GPU */
    hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t, osdev);
    /* Beside none of the PUs this process may use (a Slurm allocation's
     * cpuset): not this job's GPU, as hwloc drops disallowed PUs and mpibind
     * such GPUs. A job given one all the same has Slurm's
     * CUDA_VISIBLE_DEVICES, which the helper keeps. */
    if (anc && anc->cpuset && hwloc_bitmap_iszero(anc->cpuset) && anc->complete_cpuset &&
        !hwloc_bitmap_iszero(anc->complete_cpuset))
        return;
    hwloc_obj_t pci = pci_parent(osdev);
    char *bus = pci ? busid(pci) : NULL;
    for (size_t i = 0; bus && i < f->ngpus; i++) {
        struct gpu *seen = &f->gpus[i];
        if (!seen->pci_busid || strcmp(seen->pci_busid, bus) != 0)
            continue;
        /* the same GPU through another API: one GPU, its best name */
        if (gpu_name_rank(osdev->name) < gpu_name_rank(seen->name)) {
            free(seen->name);
            seen->name = xstrdup(osdev->name);
        }
        free(bus);
        return;
    }
    f->gpus = xrealloc(f->gpus, (f->ngpus + 1) * sizeof(*f->gpus));
    struct gpu *g = &f->gpus[f->ngpus++];
    memset(g, 0, sizeof(*g));
    g->bar1_mib = -1;
    g->nvlink_peers = -1;
    g->name = xstrdup(osdev->name);
    g->pci_busid = bus;
    if (pci)
        g->pci_id = xasprintf("%04x:%04x", pci->attr->pcidev.vendor_id,
                              pci->attr->pcidev.device_id);
    g->vendor = gpu_vendor(pci, osdev);
    g->numa_node = anc && hwloc_bitmap_weight(anc->nodeset) == 1
                 ? hwloc_bitmap_first(anc->nodeset) : -1;
}

static void add_netif(struct facts *f, hwloc_obj_t osdev)
{
    const char *addr = hwloc_obj_get_info_by_name(osdev, "Address");
    f->netifs = xrealloc(f->netifs, (f->nnetifs + 1) * sizeof(*f->netifs));
    struct netif *n = &f->netifs[f->nnetifs++];
    n->name = xstrdup(osdev->name);
    /* IPoIB hardware addresses are 20 bytes: 59 characters as text. */
    n->ipoib = addr && strlen(addr) == 59;
}

#define TOPOLOGY_MAX_BYTES (256 << 20)   /* hwloc's XML of a 2,048-PU node is ~2 MB */

/* hwloc's topology of this node, or of the XML file (read here, bounded,
 * so that a FIFO or /dev/zero named as the topology is refused rather than
 * handed to hwloc's reader). 0, or the status after saying why. */
static int topology_open(const char *xml, hwloc_topology_t *out)
{
    hwloc_topology_t t = NULL;
    *out = NULL;
    if (!xml) {
        if (topology_load_this_node(&t) < 0) {
            rr_error("hwloc could not load this node's topology: %s", strerror(errno));
            if (t)
                hwloc_topology_destroy(t);
            return RR_EX_SOFTWARE;
        }
        *out = t;
        return 0;
    }
    if (hwloc_topology_init(&t) < 0) {
        rr_error("hwloc could not start: %s", strerror(errno));
        return RR_EX_SOFTWARE;
    }
    size_t len = 0;
    char *text = read_input(xml, TOPOLOGY_MAX_BYTES, &len);
    if (!text) {
        int err = errno;
        if (err == EFBIG)
            rr_error("topology %s is more than the %d MiB an hwloc XML of any machine takes",
                     xml, TOPOLOGY_MAX_BYTES >> 20);
        else
            rr_error("cannot read topology %s: %s", xml, input_strerror(err));
        hwloc_topology_destroy(t);
        return err == EFBIG ? RR_EX_DATAERR : RR_EX_NOINPUT;
    }
    if (strlen(text) != len || hwloc_topology_set_xmlbuffer(t, text, (int)len + 1) < 0) {
        rr_error("%s is not an hwloc XML topology (hint: make one with 'lstopo --of xml FILE')",
                 xml);
        free(text);
        hwloc_topology_destroy(t);
        return RR_EX_DATAERR;
    }
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    int loaded = hwloc_topology_load(t);
    free(text);
    if (loaded < 0) {
        rr_error("hwloc could not load the topology %s: %s", xml, strerror(errno));
        hwloc_topology_destroy(t);
        return RR_EX_DATAERR;
    }
    *out = t;
    return 0;
}

/* The NUMA nodes, each with its cores' PUs (so that ranks can be given
 * whole cores): 0, or the status after saying why. */
static int topology_numa(struct facts *f, hwloc_topology_t t, const char *xml)
{
    int nnuma = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
    f->numa = xcalloc(nnuma > 0 ? (size_t)nnuma : 1, sizeof(*f->numa));
    for (int i = 0; i < nnuma; i++) {
        hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (node->os_index >= MAX_NUMA_NODES) {   /* placement sets it as a bit */
            rr_error("the topology%s%s has NUMA node P#%u, not a NUMA node number (0-%d)",
                     xml ? " " : "", xml ? xml : "", node->os_index, MAX_NUMA_NODES - 1);
            return xml ? RR_EX_DATAERR : RR_EX_SOFTWARE;
        }
        struct numa_node *n = &f->numa[f->nnuma++];
        n->os_index = (int)node->os_index;
        n->cpus = bitmap_list(node->cpuset);
        n->ncores = hwloc_get_nbobjs_inside_cpuset_by_type(t, node->cpuset, HWLOC_OBJ_CORE);
        n->npus = hwloc_get_nbobjs_inside_cpuset_by_type(t, node->cpuset, HWLOC_OBJ_PU);
        hwloc_obj_type_t unit = n->ncores > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
        for (hwloc_obj_t c = NULL;
             (c = hwloc_get_next_obj_inside_cpuset_by_type(t, node->cpuset, unit, c));) {
            char *pus = bitmap_list(c->cpuset);
            list_add(&n->core_pus, pus);
            free(pus);
        }
    }
    char *why = numa_cores_claim(f->numa, f->nnuma);
    if (why) {
        rr_error("the topology%s%s is not one machine's: %s", xml ? " " : "", xml ? xml : "", why);
        free(why);
        return xml ? RR_EX_DATAERR : RR_EX_SOFTWARE;
    }
    return 0;
}

/* NUMA distances (a latency matrix), where the machine reports them. */
static void topology_distances(struct facts *f, hwloc_topology_t t)
{
    struct hwloc_distances_s *dist[1];
    unsigned ndist = 1;
    if (hwloc_distances_get_by_type(t, HWLOC_OBJ_NUMANODE, &ndist, dist,
                                    HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) != 0 || ndist != 1)
        return;
    for (size_t i = 0; i < f->nnuma; i++) {
        f->numa[i].distance = xcalloc(f->nnuma, sizeof(int));
        for (size_t k = 0; k < f->nnuma; k++) {
            hwloc_obj_t a = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)i);
            hwloc_obj_t b = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)k);
            hwloc_uint64_t ab = 0, ba = 0;
            hwloc_distances_obj_pair_values(dist[0], a, b, &ab, &ba);
            f->numa[i].distance[k] = (int)ab;
        }
    }
    hwloc_distances_release(t, dist[0]);
}

/* hwloc's figure of `attr` for node from its own CPUs, or 0. */
#if HAVE_DECL_HWLOC_MEMATTR_GET_VALUE
static double node_memattr(hwloc_topology_t t, hwloc_obj_t node, hwloc_memattr_id_t attr)
{
    struct hwloc_location from = {.type = HWLOC_LOCATION_TYPE_CPUSET,
                                  .location.cpuset = node->cpuset};
    hwloc_uint64_t v = 0;
    return hwloc_memattr_get_value(t, attr, node, &from, 0, &v) == 0 ? (double)v : 0;
}
#endif

/* Each NUMA node's memory bandwidth as its own CPUs see it, where the
 * firmware gives it: hwloc's memattr Bandwidth (MiB/s; hwloc 2.8+: the mean
 * of ReadBandwidth and WriteBandwidth, else ReadBandwidth; 2.3 to 2.7: the
 * read figure), which hwloc's Linux backend (topology-linux.c,
 * read_node_local_memattrs) reads from the kernel's
 * /sys/devices/system/node/nodeN/access1 (else access0)/initiators/
 * {read,write}_bandwidth, which drivers/base/node.c (node_set_perf_attrs)
 * publishes from the ACPI HMAT (Documentation/admin-guide/mm/numaperf.rst);
 * an XML carries it as <memattr name="Bandwidth">. */
static void topology_bandwidth(struct facts *f, hwloc_topology_t t)
{
#if HAVE_DECL_HWLOC_MEMATTR_GET_VALUE
    for (size_t i = 0; i < f->nnuma; i++) {
        hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (!node || !node->cpuset || hwloc_bitmap_iszero(node->cpuset))
            continue;   /* no CPUs of its own (HBM, CXL): no local figure */
        double mibs = node_memattr(t, node, HWLOC_MEMATTR_ID_BANDWIDTH);
#if HAVE_DECL_HWLOC_MEMATTR_ID_READ_BANDWIDTH
        if (!(mibs > 0))
            mibs = node_memattr(t, node, HWLOC_MEMATTR_ID_READ_BANDWIDTH);
#endif
        if (mibs > 0 && mibs < FACTS_MAX_MEM_MIBS)
            f->numa[i].bandwidth_mibs = mibs;
    }
#else
    (void)f, (void)t;
#endif
}

/* An OpenFabrics device hwloc shows: placed when sysfs gave it, or made
 * from the XML when sysfs gave none (devices_from_xml). */
static void topology_rdma_device(struct facts *f, hwloc_topology_t t, hwloc_obj_t o,
                                 bool devices_from_xml)
{
    struct rdma_device *d = NULL;
    for (size_t i = 0; i < f->ndevs && !d; i++)
        if (strcmp(f->devs[i].name, o->name) == 0)
            d = &f->devs[i];
    if (!d && devices_from_xml) {
        d = facts_device(f, o->name);
        hwloc_obj_t pci = pci_parent(o);
        unsigned vendor = pci ? pci->attr->pcidev.vendor_id : 0;
        d->driver = xstrdup(vendor == 0x1d0f ? "efa"
                            : vendor == 0x17db || vendor == 0x1590 ? "cxi_ss1"
                            : driver_from_name(o->name));
        const char *guid = hwloc_obj_get_info_by_name(o, "NodeGUID");
        d->node_guid = guid ? xstrdup(guid) : NULL;
        ports_from_infos(d, o);
    }
    if (d)
        place_device(t, d, o);
}

/* A Cassini NIC: hwloc records it as a network OS device of subtype
 * Slingshot named after its /sys/class/cxi entry (topology-linux.c,
 * hwloc_linuxfs_cxi_class_fillinfos), its hsn netdev as another. */
static bool is_cxi_nic(hwloc_obj_t o)
{
    return o->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK && o->subtype &&
           strcmp(o->subtype, "Slingshot") == 0 && strncmp(o->name, "cxi", 3) == 0;
}

static bool is_nic(hwloc_obj_t o)
{
    return o->type == HWLOC_OBJ_OS_DEVICE &&
           (o->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS || is_cxi_nic(o));
}

/* The I/O devices: RDMA devices, GPUs, network interfaces, and the IPoIB
 * netdevs hwloc saw under an RDMA device's PCI function. */
static void topology_devices(struct facts *f, hwloc_topology_t t, bool devices_from_xml)
{
    for (hwloc_obj_t o = NULL; (o = hwloc_get_next_osdev(t, o));) {
        switch (o->attr->osdev.type) {
        case HWLOC_OBJ_OSDEV_OPENFABRICS:
            topology_rdma_device(f, t, o, devices_from_xml);
            break;
        case HWLOC_OBJ_OSDEV_GPU:
        case HWLOC_OBJ_OSDEV_COPROC:
            add_gpu(f, t, o);
            break;
        case HWLOC_OBJ_OSDEV_NETWORK:
            if (is_cxi_nic(o))
                topology_rdma_device(f, t, o, devices_from_xml);
            else
                add_netif(f, o);
            break;
        default:
            break;
        }
    }
    gpu_nic_paths(f, t);
    gpu_nvlink_peers(f, t);
    for (hwloc_obj_t o = NULL; devices_from_xml && (o = hwloc_get_next_osdev(t, o));) {
        if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_NETWORK || !o->parent || is_cxi_nic(o))
            continue;
        for (hwloc_obj_t c = o->parent->io_first_child; c; c = c->next_sibling)
            if (is_nic(c))
                list_add(&facts_device(f, c->name)->netdevs, o->name);
    }
}

int facts_read_topology(struct facts *f, const char *xml)
{
    hwloc_topology_t t;
    int rc = topology_open(xml, &t);
    if (rc)
        return rc;
    f->npackages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
    f->ncores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
    f->npus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    const char *host = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), "HostName");
    if (xml && host && !f->hostname)
        f->hostname = xstrdup(host);
    rc = topology_numa(f, t, xml);
    if (!rc) {
        topology_distances(f, t);
        topology_bandwidth(f, t);
        /* Devices come from the XML only when sysfs gave none. */
        topology_devices(f, t, xml && f->ndevs == 0);
    }
    hwloc_topology_destroy(t);
    return rc;
}
