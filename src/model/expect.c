/* The speed-of-light model's formulas: a figure per message size, and the
 * link that limits it (tables in links.c).
 *
 *   NIC      rate x the lanes' encoding (links.c) x the packet's payload
 *            share at the fabric's MTU (headers below);
 *   PCIe     GT/s x lanes x encoding / 8 x the TLP's payload share;
 *   NVLink   links x GB/s a link x NCCL's protocol efficiency;
 *   size s   t(s) = floor + s / peak (Hockney's model): a size below four
 *            times floor x peak, where the model's own figure is under 80%
 *            of the peak, is latency-bound and not judged on bandwidth;
 *            with W messages in flight (a windowed bandwidth test) each
 *            one's floor counts 1/W;
 *   memory   within a node over shared memory (host buffers), a NUMA node's
 *            memory bandwidth (the firmware's HMAT through hwloc) / 2: a
 *            copy reads each byte and writes it; the floor UCX's shared
 *            memory transports declare (src/uct/sm/mm/base/mm_iface.c,
 *            uct_mm_iface_query: 80 ns). A ceiling, not a target: one copy
 *            stream is bound by the misses its core keeps in flight, which
 *            the facts do not give, so it is shown and never labeled. */
#include "model/model.h"
#include <stdio.h>
#include <string.h>

/* Bytes each packet adds to its payload. InfiniBand: LRH 8, BTH 12, ICRC 4,
 * VCRC 2 (IBTA Vol. 1, chapter 5, packet formats; RETH only on the first
 * packet of a message). RoCE v2 and the Ethernet fabrics: preamble and SFD
 * 8, inter-frame gap 12, MAC header 14, FCS 4, IPv4 20, UDP 8, BTH 12, ICRC
 * 4 (IBTA's RoCE v2 annex A17). TCP: the same Ethernet frame around IPv4 20
 * and TCP 32 (with timestamps). Omni-Path: 1056-bit link transfer packets
 * that carry 1024 bits (Intel Omni-Path Fabric Architecture). */
static double payload_share(enum link_kind k, int mtu)
{
    switch (k) {
    case KIND_IB: return mtu / (mtu + 26.0);
    case KIND_ROCE:
    case KIND_EFA:
    case KIND_CXI: return mtu / (mtu + 82.0);
    case KIND_OPA: return 1024.0 / 1056;
    case KIND_ETH: return (mtu - 52.0) / (mtu + 38.0);
    default: return 1;
    }
}

/* A PCIe link's GB/s for writes of 256-byte payloads (a common Max Payload
 * Size): each TLP adds a 16-byte header (64-bit addresses), a 2-byte
 * sequence number, a 4-byte LCRC and 4 bytes of framing (PCI Express Base
 * Specification 3.0, 2.2 and 4.2.2): 256 of 282 bytes. */
double model_pcie_gbs(double gts, int width)
{
    return gts * width * pcie_encoding(gts) / 8 * (256.0 / 282);
}

/* The NVIDIA maintainers' rule for NCCL over NVLink: "450GB/s is the line
 * rate. With the protocol overhead (~20%) NCCL can get an effective NVLink
 * bandwidth of 370GB/s" (nccl-tests issue 212). */
#define NVLINK_NCCL_EFFICIENCY 0.8

/* NCCL's NVLink SHARP efficiency by compute capability (NCCL's
 * src/graph/tuning.cc, nvlsEfficiency: Hopper 0.85, Blackwell 0.74). */
static double nvls_efficiency(int compcap)
{
    return compcap == 9 ? 0.85 : compcap >= 10 ? 0.74 : 0;
}

/* One NIC's GB/s: the lesser of its wire and its slot, and which. */
static double nic_gbs(const struct node_model *m, char *limit, size_t n)
{
    double wire = m->nic_data_gbps / 8 * payload_share(m->kind, m->mtu);
    double slot = model_pcie_gbs(m->pcie_gts, m->pcie_width);
    if (slot > 0 && slot < wire) {
        snprintf(limit, n, "PCIe %d.0 x%d (%.1f GB/s)", pcie_gen_of(m->pcie_gts), m->pcie_width,
                 slot);
        return slot;
    }
    snprintf(limit, n, "%g Gb/s %s, MTU %d (%.1f GB/s)", m->nic_gbps, link_kind_names[m->kind],
             m->mtu, wire);
    return wire;
}

/* The GPUs' NVLink bus bandwidth within one node for a collective: the
 * ring's (each rank's NVLink, at NCCL's efficiency), or NVLink SHARP's
 * for all_reduce on Hopper and later, where each GPU sends and receives
 * s(1 + 1/n) for the n ranks' s: busbw = links x 2(n-1)/(n+1). */
static double nvlink_busbw(const struct node_model *m, const struct bench *b, char *limit,
                           size_t n)
{
    double links = m->nvlink_links * nvlink_link_gbs(m->nvlink_gen);
    int ranks = m->gpus > 1 ? m->gpus : 2;
    double nvls = m->gpu ? nvls_efficiency(m->gpu->compcap) : 0;
    if (nvls > 0 && m->nodes <= 1 && b->coll && strcmp(b->coll, "all_reduce") == 0 &&
        m->gpus >= 4) {
        double v = links * NVLINK_NCCL_EFFICIENCY * nvls * 2 * (ranks - 1) / (ranks + 1);
        snprintf(limit, n, "NVLink SHARP, %d x NVLink %d (%.0f GB/s)", m->nvlink_links,
                 m->nvlink_gen, v);
        return v;
    }
    double v = links * NVLINK_NCCL_EFFICIENCY;
    snprintf(limit, n, "%d x NVLink %d (%.0f GB/s)", m->nvlink_links, m->nvlink_gen, v);
    return v;
}

/* A collective's bus bandwidth (nccl-tests' busbw, PERFORMANCE.md): what
 * each rank's slowest link carries. Within a node, NVLink (or the GPUs'
 * PCIe); between nodes, also the node's NICs together: each of NCCL's
 * rings crosses every node's network once, so busbw is at most the NICs'
 * sum. */
static double busbw_peak(const struct node_model *m, const struct bench *b, char *limit,
                         size_t n)
{
    char nvl[160] = "", net[160] = "";
    double intra = 0;
    if (m->nvlink_links > 0 && m->nvlink_gen > 0)
        intra = nvlink_busbw(m, b, nvl, sizeof(nvl));
    else if (m->pcie_gts > 0) {
        intra = model_pcie_gbs(m->pcie_gts, m->pcie_width);
        snprintf(nvl, sizeof(nvl), "the GPUs' PCIe %d.0 x%d (%.1f GB/s)",
                 pcie_gen_of(m->pcie_gts), m->pcie_width, intra);
    }
    double inter = 0;
    if (m->nodes > 1) {
        char one[128];
        inter = nic_gbs(m, one, sizeof(one)) * m->nics;
        snprintf(net, sizeof(net), "%d NIC%s x %s", m->nics, m->nics == 1 ? "" : "s", one);
    }
    if (inter > 0 && (intra <= 0 || inter < intra)) {
        snprintf(limit, n, "%s", net);
        return inter;
    }
    snprintf(limit, n, "%s", nvl);
    return intra;
}

/* Why there is no figure, or NULL. */
static const char *no_line_rate(const struct node_model *m, const struct bench *b)
{
    if (b->scope == SCOPE_NODE && !b->gpu_memory)   /* no NIC on this path */
        return m->mem_gbs > 0 ? NULL
               : "within a node over shared memory: the facts hold no memory bandwidth (the "
                 "firmware gives no HMAT; --node mem=GB/s)";
    if (m->kind == KIND_SOFT || m->soft_device)
        return "software RDMA: no line-rate expectation";
    if (b->op == OP_BUSBW && m->nodes <= 1 && m->nvlink_links <= 0 && m->pcie_gts <= 0)
        return "no NVLink or PCIe figure for the GPUs";
    if ((b->scope != SCOPE_NODE && b->op != OP_BUSBW) && m->nic_data_gbps <= 0)
        return "no NIC rate known";
    if (b->op == OP_BUSBW && m->nodes > 1 && m->nic_data_gbps <= 0)
        return "no NIC rate known";
    if (m->kind == KIND_UNKNOWN && b->scope != SCOPE_NODE)
        return "the fabric's kind is unknown";
    return NULL;
}

/* The one-way latency floor of a small message and the per-message
 * latency Hockney's model takes for bandwidth. */
static double floor_us(const struct node_model *m, const struct bench *b)
{
    if (b->op == OP_BUSBW)   /* NCCL's tuning.cc, baseLat for Ring/Simple: 8.4 us */
        return 8.4 + (m->nodes > 1 ? kind_latency_floor(m->kind, NULL) : 0);
    if (b->scope == SCOPE_NODE && !b->gpu_memory)   /* UCX's mm transports: 80 ns */
        return 0.08;
    if (b->scope == SCOPE_NODE)   /* a GPU's copy over NVLink or PCIe: a few us */
        return 2.0;
    double us = kind_latency_floor(m->kind, NULL);
    /* a remote NUMA node: each DMA crosses the sockets' link; hwloc's
     * distance 21 to 10 is 2.1 times a local access (~90 ns) */
    if (m->numa_remote == 1)
        us += (m->numa_ratio > 1 ? m->numa_ratio - 1 : 1.1) * 0.09;
    return us;
}

void model_expect(const struct node_model *m, const struct bench *b, double bytes,
                  struct sol_figure *e)
{
    memset(e, 0, sizeof(*e));
    const char *none = no_line_rate(m, b);
    if (none) {
        e->none = true;
        snprintf(e->limit, sizeof(e->limit), "%s", none);
        return;
    }
    double peak;
    if (b->scope == SCOPE_NODE && !b->gpu_memory && b->op != OP_BUSBW) {
        peak = m->mem_gbs / 2;
        e->ceiling = true;
        snprintf(e->limit, sizeof(e->limit), "the memory's copy ceiling: %.1f GB/s / 2 (a copy "
                 "reads and writes each byte)", m->mem_gbs);
    } else if (b->op == OP_BUSBW)
        peak = busbw_peak(m, b, e->limit, sizeof(e->limit));
    else if (b->scope == SCOPE_NODE)
        peak = busbw_peak(m, b, e->limit, sizeof(e->limit));
    else
        peak = nic_gbs(m, e->limit, sizeof(e->limit));
    if (peak <= 0) {   /* GPU memory within a node without NVLink or PCIe facts */
        e->none = true;
        snprintf(e->limit, sizeof(e->limit), "no link figure for this path in the facts");
        return;
    }
    if (b->op == OP_BIBW && !e->ceiling)
        peak *= 2;   /* full duplex: each direction its own (memory is one for both) */   /* full duplex: each direction its own */
    double lat = floor_us(m, b);
    e->peak_gbs = peak;
    e->lat_us = lat + bytes / (peak * 1e3);
    e->gbs = bytes / (e->lat_us * 1e3);
    /* W messages in flight hide all but 1/W of each one's latency */
    double hidden = b->window > 1 && b->op != OP_LAT ? lat / b->window : lat;
    e->latency_bound = bytes < 4 * hidden * peak * 1e3;
    if (hidden < lat) {
        e->lat_us = hidden + bytes / (peak * 1e3);
        e->gbs = bytes / (e->lat_us * 1e3);
        e->lat_us += lat - hidden;
    }
    if (b->op == OP_LAT && !e->latency_bound)
        snprintf(e->limit + strlen(e->limit), sizeof(e->limit) - strlen(e->limit),
                 ", floor %.2f us", lat);
    else if (b->op == OP_LAT)
        snprintf(e->limit, sizeof(e->limit), "the %s latency floor (%.2f us)",
                 e->ceiling ? "shared memory" : b->scope == SCOPE_NODE ? "copy"
                 : link_kind_names[m->kind], lat);
}
