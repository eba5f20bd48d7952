/* Facts: what the node is. Gathered once (the files under facts/) and then
 * only read: the plan is computed from them without any I/O of its own.
 * Facts can be saved (probe --json) and loaded (--facts), so plans for a node
 * can be computed anywhere. */
#ifndef RDMARUN_FACTS_H
#define RDMARUN_FACTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "facts/counters.h"
#include "util/strvec.h"

#define FACTS_FORMAT_VERSION 1

struct gid_entry {
    int index;
    char *gid;     /* as sysfs prints it: fe80:0000:...:3401 */
    char *type;    /* "IB/RoCE v1", "RoCE v2", or NULL when unknown */
    char *ndev;    /* netdev the GID belongs to, or NULL */
};

/* The kernel prints a port's rate as "N[.5] Gb/sec (WIDTHX SPEED)": lanes
 * (1, 2, 4, 8 or 12) times a lane's speed, at most XDR's 200 Gb/s
 * (drivers/infiniband/core/sysfs.c, rate_show): no port is faster. */
#define MAX_PORT_RATE_GBPS (12 * 200)
/* More counters than any driver gives a port (mlx5: about 110), for saved
 * facts read back. */
#define MAX_PORT_COUNTERS 4096

struct rdma_port {
    int num;
    char *state;        /* ACTIVE, DOWN, INIT, ARMED */
    char *phys_state;   /* LinkUp, Disabled, Polling, ... (NULL: unknown) */
    char *link_layer;   /* InfiniBand, Ethernet, Unspecified */
    char *rate;         /* "100 Gb/sec (4X EDR)" (NULL: unknown) */
    double rate_gbps;   /* 0: unknown; at most MAX_PORT_RATE_GBPS */
    int active_mtu, max_mtu;  /* bytes; 0: unknown (verbs only) */
    int lid, sm_lid;    /* -1: unknown */
    /* every counter of ports/N/counters and hw_counters (facts/counters.c),
     * in sysfs's order; none when not read (the per-rank helper, hwloc XML
     * alone) or when the HCA did not answer in time */
    struct port_counters counters;
    struct gid_entry *gids;
    size_t ngids;
    /* rdma_cm's defaults for the port (configfs rdma_cm/DEV/ports/N), which
     * connections through librdmacm take: "RoCE v2", ToS 0-255; NULL/-1
     * unknown (the directory exists only once an admin creates it). */
    char *roce_mode;
    int roce_tos;
    /* The P_Key table's entries that are set ("0xffff", "0x8001"), in
     * table order (ports/N/pkeys); NULL-terminated; NULL: unknown. */
    char **pkeys;
};

struct rdma_device {
    char *name;         /* mlx5_0, rxe0, vmw_pvrdma0 */
    char *driver;       /* mlx5_core, rdma_rxe, vmw_pvrdma, efa, hfi1 */
    char *fw_ver, *node_guid, *board_id;   /* NULL: unknown */
    char *pci_busid;    /* 0000:3b:00.0, NULL for software devices */
    char *pci_id;       /* vendor:device, "1d0f:efa1" (EFA's generation); NULL: unknown */
    int numa_node;      /* OS index of its one local NUMA node; -1: several or unknown */
    char *local_numa;   /* OS indexes of its local NUMA nodes, "0" or "0,1" */
    char *local_cpus;   /* PU OS indexes local to the device, "0-23,48-71" */
    /* PCIe link: current and capability (sysfs); 0 when unknown */
    double pcie_speed_gts, pcie_max_speed_gts;
    double pcie_gbytes; /* hwloc's link bandwidth in GB/s; 0 when unknown */
    int pcie_width, pcie_max_width;
    char **netdevs;     /* NULL-terminated */
    char **transports;  /* UCX transports on this device, NULL-terminated */
    /* Lossless RoCE on its first netdev (facts/lossless.c): bit P of each
     * mask is priority P; -1 unknown. PFC from DCB netlink (dcb pfc), ECN
     * per priority from the driver's sysfs (ecn/roce_np|roce_rp/enable/P). */
    int pfc_prios, ecn_np_prios, ecn_rp_prios;
    char *dscp_prio;    /* the DSCP-to-priority map (dcb app), "24:3,26:3"; "" none
                           (priority from the VLAN PCP); NULL unknown */
    char **irqs;        /* its MSI-X interrupts and their CPUs, "57:0-3"; NULL unknown */
    int dmabuf;         /* registers dma-buf memory (ibv_reg_dmabuf_mr): 1, 0, -1 unknown */
    struct rdma_port *ports;
    size_t nports;
};

/* A NUMA node's memory bandwidth past any memory's (MiB/s: 1 PB/s) is no
 * figure the firmware could mean. */
#define FACTS_MAX_MEM_MIBS 1e9
#define MIB_GB 1.048576e-3   /* GB/s in 1 MiB/s */

struct numa_node {
    int os_index;
    char *cpus;         /* PU OS indexes, "0-23,48-71" */
    int ncores, npus;
    char **core_pus;    /* the PUs of each core, "0,48"; NULL-terminated (a PU each
                           when hwloc knows no cores) */
    int *distance;      /* hwloc's relative latency to each NUMA node (same order), or NULL */
    double bandwidth_mibs;  /* its memory's bandwidth from its own CPUs, MiB/s (hwloc's
                               memattr Bandwidth: the firmware's ACPI HMAT); 0: not given */
};

struct gpu {
    char *name;         /* cuda0, nvml0, rsmi0, ze0, opencl0d0: the best name hwloc gave it */
    char *pci_busid;
    char *pci_id;       /* vendor:device, "10de:2330" (H100 SXM5); NULL: unknown */
    int numa_node;      /* OS index; -1 unknown */
    char *vendor;       /* NVIDIA, AMD, Intel; NULL: unknown */
    /* The PCIe path to each RDMA device, "mlx5_0=PIX", in the classes of
     * 'nvidia-smi topo -m' (NCCL's path types): PIX, PXB, PHB, NODE, SYS.
     * NULL-terminated; NULL when hwloc knows neither's place. */
    char **nic_paths;
    /* The PCIe bridges on the path to each RDMA device that redirect
     * peer-to-peer traffic to the root complex (ACS Request/Completion
     * Redirect), "mlx5_0=0000:05:08.0,0000:06:00.0", "mlx5_0=" for none;
     * NULL when the bridges' config space could not be read (root only). */
    char **acs_redirect;
    char **path_bridges; /* the PCI bridges on each path, same form: where ACS is read */
    long long bar1_mib;  /* the BAR1 aperture GPUDirect maps through; -1 unknown */
    /* The node's other GPUs this one reaches over NVLink, directly or
     * through one NVSwitch (hwloc's "NVLinkBandwidth" distances, nvlink.c);
     * -1: not known (hwloc without NVML, a tree recorded without it). */
    int nvlink_peers;
};

struct netif {
    char *name;
    bool ipoib;
};

/* CPU power state (facts/cpu_state.c), per CPU list: "performance:0-63"
 * (cpufreq governors) and "C6:133:0-63" (an idle state deeper than C1, its
 * exit latency in us and where it is enabled). NULL unknown. */
struct cpu_state {
    char **governors;
    char **idle_states;
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

/* An NCCL plugin on the library path (facts/fabric_libs.c). */
struct nccl_plugin {
    char *kind;      /* net, collnet, tuner, profiler */
    char *path;      /* as found: LD_LIBRARY_PATH's or an install folder's */
    char *name;      /* the name it gives NCCL ("Libfabric"); NULL: unknown */
    char *abi;       /* the versions it exports, newest first, "v10,v9,v8"; NULL: none */
    char *error;     /* why it did not load (dlopen's words); NULL: it loaded */
};

/* The cloud VM this node is and its NCCL topology file (facts/cloud.c). */
struct cloud_facts {
    char *vendor, *product;   /* DMI's sys_vendor and product_name; NULL: unknown */
    char *nccl_conf_topo;     /* NCCL_TOPO_FILE as NCCL's configuration files set it */
    char *nccl_conf_file;     /* the file that sets it */
    char *vm_family;          /* the VM family its vendor and GPUs say ("ND H100 v5") */
    char *topo_file;          /* that family's NCCL topology file, found here; NULL: none */
};

struct facts {
    int format_version;
    char *hostname;
    char *source;        /* "this node", or the files they came from */
    char *sysfs_root;    /* the recorded tree the devices came from (--sysfs), whose
                          * counters are theirs; NULL: this node's /sys. Not saved. */
    char *ucx_version;   /* "1.13.1" */
    char *kernel;          /* this node's kernel release (uname -r); NULL: unknown */
    /* The RDMA stack's kernel modules loaded, "NAME VERSION" (modules.c):
     * the module's version, else "srcversion HASH", else "in-tree" (the
     * kernel's own); NULL-terminated; NULL: not read. */
    char **module_versions;
    bool counters_timed_out;  /* the ports' counters were not read in time (a wedged HCA) */
    int npackages, ncores, npus;
    struct numa_node *numa;
    size_t nnuma;
    struct gpu *gpus;
    size_t ngpus;
    struct netif *netifs;
    size_t nnetifs;
    struct host_limits limits;
    struct cpu_state cpu;
    struct rdma_device *devs;
    size_t ndevs, devs_cap;
    /* The fabric libraries (facts/fabric_libs.c): NCCL's version and file
     * (NULL: no NCCL found), its plugins, libfabric's version and providers
     * ("PROVIDER DOMAIN", fi_getinfo's; NULL: not asked); timed out: the
     * child asking them was killed. */
    char *nccl_version, *nccl_library;
    struct nccl_plugin *nccl_plugins;
    size_t nnccl_plugins, nccl_plugins_cap;
    char *fi_version;
    char **fi_providers;
    bool fabric_libs_timed_out;
    struct cloud_facts cloud;
};

/* Where facts come from. NULL fields mean "this node". */
struct facts_sources {
    const char *sysfs_root;   /* recorded sysfs tree instead of /sys (what is not sysfs,
                                 procfs and dcb's output, under its recorded/) */
    const char *topology;     /* hwloc XML file instead of this node's topology */
    const char *facts_file;   /* saved probe --json: everything from it */
    bool placement_only;      /* devices, ports and topology only (the per-rank helper:
                                 no verbs, UCX or host limits, so it starts fast) */
    bool fabric_libs;         /* this node's NCCL, its plugins and libfabric's providers
                                 too (a child process, ~0.1 s: probe, and jobs on the
                                 fabrics that need them) */
};

/* Gather facts. Returns 0 or an RR_EX_* status after printing why (an
 * unreadable topology or facts file). A node without RDMA devices is not an
 * error. */
int facts_gather(struct facts *f, const struct facts_sources *src);
/* A cloud VM family without its NCCL topology file (none here, none in
 * nccl.conf), as a warning added to OUT (facts/cloud.c). */
void cloud_warnings(const struct facts *f, struct strvec *out);
/* NCCL_TOPO_FILE=VALUE in one of NCCL's configuration files (NCCL's
 * setEnvFile: "NAME=VALUE" lines, '#' starts a comment), read bounded (64
 * KiB): the value (printable, under 4096 bytes), or NULL. Caller frees. */
char *facts_nccl_conf_topo(const char *path);
void facts_free(struct facts *f);

bool port_is_active(const struct rdma_port *p);
/* What kind of NIC a port is: "ib", "roce", "efa", "cxi", "opa", "pvrdma",
 * or "other" (facts.c's table: by driver, else by link layer). */
const char *port_kind(const struct rdma_device *d, const struct rdma_port *p);
/* What kind of node this is, as far as tuning goes: packages, cores, NUMA
 * nodes, each active port's driver, link layer, rate and firmware, the
 * GPUs' vendors, UCX's version. Device names and addresses are left out:
 * they differ between nodes of one kind. Caller frees. */
char *facts_kind(const struct facts *f);
/* facts_kind as 16 hex digits (FNV-1a), for a profile's tuned-for. */
char *facts_fingerprint(const struct facts *f);
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
void facts_read_fabric_libs(struct facts *f);
/* libfabric's providers here by name, once each ("tcp;ofi_rxm, shm"),
 * or NULL: none. Caller frees. */
char *facts_fi_provider_names(const struct facts *f);
/* The ABI version NCCL `nccl_version` takes of a plugin of `kind` that
 * exports `abi` ("v10,v9"), newest first as NCCL tries them: N, 0 when it
 * takes none (the plugin is ignored), -1 when the release is unknown; *lo
 * and *hi the versions that release asks for. */
int nccl_plugin_abi_used(const char *nccl_version, const char *kind, const char *abi, int *lo,
                         int *hi);
void facts_read_host(struct facts *f, const char *root);
/* sysfs_root: /sys or a recorded tree; proc_root: /proc or the tree's
 * recorded/proc; dcb_dir: NULL runs dcb, else the recorded outputs. */
void facts_read_lossless(struct facts *f, const char *sysfs_root, const char *dcb_dir);
void facts_read_irqs(struct facts *f, const char *sysfs_root, const char *proc_root);
void facts_read_cpu_state(struct facts *f, const char *sysfs_root);
void facts_read_gpu_pci(struct facts *f, const char *sysfs_root);
/* Whether NVLink joins every pair of the node's GPUs (two or more), so
 * that NCCL's peer-to-peer transport always has a path within the node. */
bool facts_nvlink_all_pairs(const struct facts *f);
int facts_load_json(struct facts *f, const char *path);
void facts_print_json(const struct facts *f, FILE *out);
void facts_print_text(const struct facts *f, FILE *out);

/* "Open MPI 4.1.4", "MPICH 4.0.2": what the MPI library the ranks load
 * (libmpi.so.40, libmpich.so.12) calls itself, or NULL; asked in a child
 * process, so that its constructors never run in rdmarun. */
char *facts_mpi_library(const char *soname);
/* rdma-core's release ("44") from libibverbs' file name, or NULL. */
char *facts_rdma_core(void);

/* Warnings a node's facts deserve, one line each (pure). */
void facts_warnings(const struct facts *f, struct strvec *out);

#endif
