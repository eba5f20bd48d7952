/* The speed-of-light model's tables: what each kind of link carries, and
 * where each figure comes from. The formulas that use them are in expect.c. */
#include "model/model.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const link_kind_names[] = {"unknown", "ib", "roce", "efa", "cxi", "opa", "eth",
                                       "soft", NULL};

enum link_kind link_kind_named(const char *name)
{
    for (int k = 1; link_kind_names[k]; k++)
        if (strcasecmp(name, link_kind_names[k]) == 0)
            return (enum link_kind)k;
    return KIND_UNKNOWN;
}

/* InfiniBand lane speeds: the kernel prints a port's rate as lanes times a
 * lane's nominal speed (drivers/infiniband/core/sysfs.c, rate_show, from
 * ib_speed_enum), "56 Gb/sec (4X FDR)". The data a lane carries is that
 * speed after its encoding (IBTA's InfiniBand Architecture Specification
 * Vol. 2, the physical layer): 8b/10b for SDR, DDR and QDR; 64b/66b at
 * 10.3125 Gbaud for FDR10 and 14.0625 Gbaud for FDR; EDR's 25.78125 Gbaud
 * with 64b/66b is 25 Gb/s of data, as HDR's, NDR's and XDR's PAM4 lanes
 * carry 50, 100 and 200: their nominal speed is their data rate. */
static const struct {
    const char *name;
    double nominal, data;   /* Gb/s a lane */
} ib_speeds[] = {
    {"SDR", 2.5, 2.0},   {"DDR", 5.0, 4.0},     {"QDR", 10.0, 8.0},   {"FDR10", 10.0, 10.0},
    {"FDR", 14.0, 13.64}, {"EDR", 25.0, 25.0}, {"HDR", 50.0, 50.0}, {"NDR", 100.0, 100.0},
    {"XDR", 200.0, 200.0},
};

double ib_data_gbps(double rate_gbps, const char *rate_text)
{
    const char *open = rate_text ? strchr(rate_text, '(') : NULL;
    const char *x = open ? strchr(open, 'X') : NULL;
    if (!x || rate_gbps <= 0)
        return rate_gbps;
    char speed[8] = "";
    size_t n = strspn(x + 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    if (x[1] != ' ' || n == 0 || n >= sizeof(speed))
        return rate_gbps;
    memcpy(speed, x + 2, n);
    for (size_t i = 0; i < sizeof(ib_speeds) / sizeof(*ib_speeds); i++)
        if (strcmp(speed, ib_speeds[i].name) == 0)
            return rate_gbps * ib_speeds[i].data / ib_speeds[i].nominal;
    return rate_gbps;
}

/* PCI Express generations: GT/s a lane and the encoding (PCI Express Base
 * Specification: 8b/10b for 1.x and 2.x, 128b/130b for 3.0 to 5.0; 6.0's
 * FLIT mode carries 236 bytes of TLPs in each 256-byte FLIT). hwloc's
 * pcidisc.c, hwloc_pcidisc_find_linkspeed, computes its link bandwidth
 * with the same encodings. */
static const struct {
    int gen;
    double gts, encoding;
} pcie_gens[] = {
    {1, 2.5, 0.8}, {2, 5.0, 0.8}, {3, 8.0, 128.0 / 130}, {4, 16.0, 128.0 / 130},
    {5, 32.0, 128.0 / 130}, {6, 64.0, 236.0 / 256},
};
#define NGENS (sizeof(pcie_gens) / sizeof(*pcie_gens))

double pcie_encoding(double gts)
{
    for (size_t i = 0; i < NGENS; i++)
        if (gts > pcie_gens[i].gts * 0.95 && gts < pcie_gens[i].gts * 1.05)
            return pcie_gens[i].encoding;
    return 0;
}

int pcie_gen_of(double gts)
{
    for (size_t i = 0; i < NGENS; i++)
        if (gts > pcie_gens[i].gts * 0.95 && gts < pcie_gens[i].gts * 1.05)
            return pcie_gens[i].gen;
    return 0;
}

double pcie_gts_of_gen(int gen)
{
    for (size_t i = 0; i < NGENS; i++)
        if (pcie_gens[i].gen == gen)
            return pcie_gens[i].gts;
    return 0;
}

/* NVLink: GB/s a link carries each way, by generation (NVIDIA's
 * architecture whitepapers: P100's 4 links 160 GB/s both ways, V100's 6
 * links 300 GB/s, A100's 12 links 600 GB/s, H100's 18 links 900 GB/s,
 * B200's 18 links 1.8 TB/s). */
double nvlink_link_gbs(int gen)
{
    static const double gbs[] = {0, 20, 25, 25, 25, 50};
    return gen > 0 && gen < (int)(sizeof(gbs) / sizeof(*gbs)) ? gbs[gen] : 0;
}

/* GPU models with NVLink (their SXM/OAM parts' PCI device ids, as
 * pci.ids lists them) and PCIe-only ones the model knows by name. */
static const struct gpu_model gpu_models[] = {
    {"P100", "15f9,15f8", 1, 4, 6},
    {"V100", "1db1,1db5,1db8", 2, 6, 7},
    {"A100", "20b0,20b2,20b3,20b4,20b5", 3, 12, 8},
    {"A800", "20f3", 3, 8, 8},
    {"H100", "2330,2336", 4, 18, 9},
    {"H800", "2324", 4, 8, 9},
    {"H200", "2335", 4, 18, 9},
    {"GH200", "2342", 4, 18, 9},
    {"B200", "2901", 5, 18, 10},
    {"GB200", "2941", 5, 18, 10},
    {"L40S", "26b9", 0, 0, 8},
    {"L4", "27b8", 0, 0, 8},
    {"A10G", "2237", 0, 0, 8},
    {"T4", "1eb8", 0, 0, 7},
};
#define NGPUS (sizeof(gpu_models) / sizeof(*gpu_models))

const struct gpu_model *gpu_model_named(const char *name)
{
    /* nccl-tests names a device "NVIDIA A100-SXM4-80GB": the model's word */
    if (strncasecmp(name, "NVIDIA ", 7) == 0)
        name += 7;
    const struct gpu_model *best = NULL;
    for (size_t i = 0; i < NGPUS; i++) {
        size_t n = strlen(gpu_models[i].name);
        if (strncasecmp(name, gpu_models[i].name, n) == 0 && strchr(" -_", name[n]) &&
            (!best || strlen(best->name) < n))
            best = &gpu_models[i];
    }
    return best;
}

const struct gpu_model *gpu_model_of_pci(const char *pci_id)
{
    const char *dev = pci_id ? strchr(pci_id, ':') : NULL;
    if (!dev || strncasecmp(pci_id, "10de:", 5) != 0 || strlen(dev + 1) != 4)
        return NULL;
    for (size_t i = 0; i < NGPUS; i++) {
        const char *p = gpu_models[i].pci_ids;
        while ((p = strstr(p, dev + 1)) != NULL) {
            if ((p == gpu_models[i].pci_ids || p[-1] == ',') && (p[4] == ',' || p[4] == '\0'))
                return &gpu_models[i];
            p++;
        }
    }
    return NULL;
}

/* One small message's one-way latency between two nodes, on an idle
 * fabric through one switch: the figure healthy nodes publish. */
static const struct {
    enum link_kind kind;
    double us;
    const char *source;
} latency_floors[] = {
    {KIND_IB, 1.0, "perftest ib_send_lat on ConnectX-5/6/7 (EDR to NDR): 0.9-1.1 us"},
    {KIND_ROCE, 1.6, "perftest ib_send_lat over RoCE v2 on ConnectX-5/6: 1.3-1.8 us"},
    {KIND_EFA, 15.0, "AWS EFA (SRD) osu_latency over libfabric's efa provider: 15-18 us"},
    {KIND_CXI, 2.0, "HPE Slingshot-11 osu_latency over libfabric's cxi provider: 1.8-2.4 us"},
    {KIND_OPA, 1.0, "Omni-Path osu_latency over PSM2 or OPX: 0.9-1.1 us"},
    {KIND_ETH, 10.0, "a TCP socket's one-way small-message latency on a 25-100 GbE LAN: 10-30 us"},
};

double kind_latency_floor(enum link_kind k, const char **source)
{
    for (size_t i = 0; i < sizeof(latency_floors) / sizeof(*latency_floors); i++)
        if (latency_floors[i].kind == k) {
            if (source)
                *source = latency_floors[i].source;
            return latency_floors[i].us;
        }
    if (source)
        *source = NULL;
    return 0;
}
