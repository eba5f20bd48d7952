/* Facts: what the node is. Gathered once (the files under facts/) and then
 * only read: the plan is computed from them without any I/O of its own.
 * Facts can be saved (probe --json) and loaded (--facts), so plans for a node
 * can be computed anywhere. */
#ifndef RDMARUN_FACTS_H
#define RDMARUN_FACTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "util/strvec.h"

#define FACTS_FORMAT_VERSION 1

struct gid_entry {
    int index;
    char *gid;     /* as sysfs prints it: fe80:0000:...:3401 */
    char *type;    /* "IB/RoCE v1", "RoCE v2", or NULL when unknown */
    char *ndev;    /* netdev the GID belongs to, or NULL */
};

struct rdma_port {
    int num;
    char *state;        /* ACTIVE, DOWN, INIT, ARMED */
    char *phys_state;   /* LinkUp, Disabled, Polling, ... (NULL: unknown) */
    char *link_layer;   /* InfiniBand, Ethernet, Unspecified */
    char *rate;         /* "100 Gb/sec (4X EDR)" (NULL: unknown) */
    double rate_gbps;   /* 0: unknown */
    int active_mtu, max_mtu;  /* bytes; 0: unknown (verbs only) */
    int lid, sm_lid;    /* -1: unknown */
    /* error counters from ports/N/counters; -1: not available */
    long long symbol_error, link_downed, port_rcv_errors, port_xmit_discards;
    struct gid_entry *gids;
    size_t ngids;
};

struct rdma_device {
    char *name;         /* mlx5_0, rxe0, vmw_pvrdma0 */
    char *driver;       /* mlx5_core, rdma_rxe, vmw_pvrdma, efa, hfi1 */
    char *fw_ver, *node_guid, *board_id;   /* NULL: unknown */
    char *pci_busid;    /* 0000:3b:00.0, NULL for software devices */
    int numa_node;      /* OS index of its one local NUMA node; -1: several or unknown */
    char *local_numa;   /* OS indexes of its local NUMA nodes, "0" or "0,1" */
    char *local_cpus;   /* PU OS indexes local to the device, "0-23,48-71" */
    /* PCIe link: current and capability (sysfs); 0 when unknown */
    double pcie_speed_gts, pcie_max_speed_gts;
    double pcie_gbytes; /* hwloc's link bandwidth in GB/s; 0 when unknown */
    int pcie_width, pcie_max_width;
    char **netdevs;     /* NULL-terminated */
    char **transports;  /* UCX transports on this device, NULL-terminated */
    struct rdma_port *ports;
    size_t nports;
};

struct numa_node {
    int os_index;
    char *cpus;         /* PU OS indexes, "0-23,48-71" */
    int ncores, npus;
    char **core_pus;    /* the PUs of each core, "0,48"; NULL-terminated (a PU each
                           when hwloc knows no cores) */
    int *distance;      /* hwloc's relative latency to each NUMA node (same order), or NULL */
};

struct gpu {
    char *name;         /* cuda0, nvml0, rsmi0, ze0, opencl0d0: the best name hwloc gave it */
    char *pci_busid;
    int numa_node;      /* OS index; -1 unknown */
    char *vendor;       /* NVIDIA, AMD, Intel; NULL: unknown */
    /* The PCIe path to each RDMA device, "mlx5_0=PIX", in the classes of
     * 'nvidia-smi topo -m' (NCCL's path types): PIX, PXB, PHB, NODE, SYS.
     * NULL-terminated; NULL when hwloc knows neither's place. */
    char **nic_paths;
};

struct netif {
    char *name;
    bool ipoib;
};

struct host_limits {
    long long memlock_soft, memlock_hard;  /* bytes; -1: unlimited; -2: unknown */
    long long hugepages_total, hugepages_free, hugepage_kb;  /* -1: unknown */
    bool mod_ib_uverbs, mod_nvidia_peermem, mod_rdma_rxe, mod_vmw_pvrdma;
    bool modules_known;
    int uverbs_devices;        /* /dev/infiniband/uverbs* found; -1 unknown */
    bool uverbs_accessible;    /* all of them readable and writable */
};

/* One port of one device of the facts. */
struct port_ref {
    const struct rdma_device *dev;
    const struct rdma_port *port;
};

struct facts {
    int format_version;
    char *hostname;
    char *source;        /* "this node", or the files they came from */
    char *ucx_version;   /* "1.13.1" */
    int npackages, ncores, npus;
    struct numa_node *numa;
    size_t nnuma;
    struct gpu *gpus;
    size_t ngpus;
    struct netif *netifs;
    size_t nnetifs;
    struct host_limits limits;
    struct rdma_device *devs;
    size_t ndevs, devs_cap;
};

/* Where facts come from. NULL fields mean "this node". */
struct facts_sources {
    const char *sysfs_root;   /* recorded sysfs tree instead of /sys */
    const char *topology;     /* hwloc XML file instead of this node's topology */
    const char *facts_file;   /* saved probe --json: everything from it */
    bool placement_only;      /* devices, ports and topology only (the per-rank helper:
                                 no verbs, UCX or host limits, so it starts fast) */
};

/* Gather facts. Returns 0 or an RR_EX_* status after printing why (an
 * unreadable topology or facts file). A node without RDMA devices is not an
 * error. */
int facts_gather(struct facts *f, const struct facts_sources *src);
void facts_free(struct facts *f);

bool port_is_active(const struct rdma_port *p);
/* The RoCE v2 GID bound to a routable address: IPv4-mapped first, else a
 * non-link-local IPv6 one; NULL when none fits. */
const struct gid_entry *port_best_gid(const struct rdma_port *p);
bool gid_is_ipv4(const struct gid_entry *g);
/* Bytes of a verbs MTU (enum ibv_mtu: 1 = 256 ... 5 = 4096); 0 when it is none of them. */
int mtu_bytes(int ibv_mtu);

/* Sources (the files under facts/), each filling in what it knows. */
void facts_read_sysfs(struct facts *f, const char *root);
int facts_read_topology(struct facts *f, const char *xml);
void facts_read_verbs(struct facts *f);
void facts_read_ucx(struct facts *f);
void facts_read_host(struct facts *f, const char *root);
int facts_load_json(struct facts *f, const char *path);
void facts_print_json(const struct facts *f, FILE *out);
void facts_print_text(const struct facts *f, FILE *out);

/* "Open MPI 4.1.4" from the libmpi the ranks load (libmpi.so.40), or NULL. */
char *facts_mpi_library(void);
/* rdma-core's release ("44") from libibverbs' file name, or NULL. */
char *facts_rdma_core(void);

/* Warnings a node's facts deserve, one line each (pure). */
void facts_warnings(const struct facts *f, struct strvec *out);

#endif
