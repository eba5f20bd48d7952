/* The speed-of-light model: what a node's links allow a benchmark to
 * measure, per message size, and which link limits it. Pure: a node
 * description in (from facts, or from a short description of a node that
 * is not here), figures out. Every formula and constant says where it comes
 * from (links.c's tables, expect.c's formulas); rdmarun(1)'s JUDGE section
 * repeats them.
 *
 * Units: bandwidths in GB/s (10^9 bytes a second), link rates in Gb/s,
 * latencies in microseconds, sizes in bytes. */
#ifndef RDMARUN_MODEL_H
#define RDMARUN_MODEL_H
#include "util/strvec.h"
#include <stdbool.h>

struct facts;

enum link_kind {
    KIND_UNKNOWN, KIND_IB, KIND_ROCE, KIND_EFA, KIND_CXI, KIND_OPA, KIND_ETH, KIND_SOFT,
    KIND_COUNT
};
extern const char *const link_kind_names[];   /* --node kind=: "ib", "roce", ... */

/* A GPU model's NVLink: generation and links (links.c's gpu_models). */
struct gpu_model {
    const char *name;      /* "H100": what the node description and nccl-tests say */
    const char *pci_ids;   /* NVIDIA's device ids of its SXM/OAM parts, "2330,2335" */
    int nvlink_gen, nvlink_links;
    int compcap;           /* compute capability's major: 7 Volta ... 10 Blackwell */
};

/* What the model knows of a node; 0 (counts), -1 (flags) or NULL: unknown,
 * and `assumed` says what it took instead. */
struct node_model {
    int nics;                /* ports that carry the job */
    int nics_up;             /* of those, ACTIVE (facts; 0: as nics) */
    double nic_gbps;         /* a port's rate as the kernel prints it: lanes x lane speed */
    double nic_data_gbps;    /* after the lanes' encoding (links.c, ib_speeds) */
    enum link_kind kind;
    const char *soft_device; /* a software device's name ("rxe0"): no line rate */
    int mtu;                 /* the fabric's MTU in bytes */
    double pcie_gts;         /* the NIC slot's capability: GT/s a lane ... */
    int pcie_width;          /* ... and lanes */
    double pcie_now_gts;     /* as trained (facts only); 0: as capable */
    int pcie_now_width;
    int gpus;
    const struct gpu_model *gpu;
    int nvlink_gen, nvlink_links;   /* 0: none; -1: unknown */
    int nodes, ppn;
    int gdr;                 /* GPUDirect RDMA: 1 on, 0 off (host staging), -1 unknown */
    int numa_remote;         /* ranks on the NIC's NUMA node: 0, or 1 remote; -1 unknown */
    double numa_ratio;       /* hwloc's remote/local distance (2.1 for SLIT's 21/10); 0 unknown */
    double mem_gbs;          /* a NUMA node's memory bandwidth, GB/s (the facts' HMAT figure,
                                the highest of its nodes; mem=); 0 unknown */
    struct strvec assumed;   /* "nics=1 (none said)": what the model took */
    struct strvec facts_say; /* what the facts show that lowers a figure: causes */
};

/* What a result measures. */
enum bench_op { OP_BW, OP_BIBW, OP_LAT, OP_BUSBW };
enum bench_scope { SCOPE_NET, SCOPE_NODE, SCOPE_LOOPBACK };
struct bench {
    enum bench_op op;
    enum bench_scope scope;  /* between nodes, within one, one NIC to itself */
    bool gpu_memory;         /* buffers in GPU memory (nccl-tests, --use_cuda, -d cuda) */
    const char *coll;        /* OP_BUSBW: "all_reduce", ...; NULL: unknown */
    int ranks;               /* OP_BUSBW: ranks in the job; 0 unknown */
    int window;              /* messages in flight (perftest's TX depth, osu_bw's
                                window); 0 or 1: a ping-pong */
};

/* The model's figure for one message size. */
struct sol_figure {
    bool none;               /* no line-rate expectation (why says which) */
    bool latency_bound;      /* the size is below what a link's latency hides */
    bool ceiling;            /* a bound the result cannot pass, not a figure it should
                                reach (shared memory: one copy stream is bound by its
                                core): shown as a fraction, never labeled */
    double gbs;              /* bandwidth (OP_BW, OP_BIBW, OP_BUSBW) */
    double peak_gbs;         /* the bandwidth at sizes no latency limits */
    double lat_us;           /* OP_LAT: the latency floor at this size */
    char limit[160];         /* the link that limits it: "PCIe 4.0 x16 (27.8 GB/s)" */
};

/* Nothing known: counts 0, flags and NVLink -1. */
void node_model_init(struct node_model *m);
void node_model_free(struct node_model *m);
/* A node's model from its facts: the ports that are up (else all), their
 * slot, the GPUs and their NVLink, GDR from the modules. */
void node_model_from_facts(struct node_model *m, const struct facts *f);
/* One port's NIC (its rate, kind, MTU and slot) into m: what the health
 * check's loopback and the path test hold a port to. */
struct rdma_device;
struct rdma_port;
void node_model_port(struct node_model *m, const struct rdma_device *d,
                     const struct rdma_port *p);
/* The keys of a short description ("nics=8x400G kind=roce pcie=5x16
 * gpus=8xH100 nvlink=4 nodes=2 ppn=8 gdr=yes numa=local") over what m holds;
 * false after putting why in err. */
bool node_model_parse(struct node_model *m, const char *desc, char *err, size_t errlen);
/* Fill what no one said with the model's assumptions, each added to m->assumed. */
void node_model_assume(struct node_model *m, const struct bench *b);
/* One line: "8 x 400 Gb/s roce, PCIe 5.0 x16, 8 x H100 (NVLink 4 x 18)". Caller frees. */
char *node_model_describe(const struct node_model *m);

/* The figure at `bytes` for benchmark b on node m. */
void model_expect(const struct node_model *m, const struct bench *b, double bytes,
                  struct sol_figure *e);

/* light.c: a bin's time held to the speed-of-light model of the node f on
 * `nodes` nodes: the model's time over the median in microseconds (1: the
 * speed of light), or NAN where the model has no figure; limit says what
 * limits it, or why there is none. */
double model_bin_light(const struct facts *f, int nodes, const char *bin, double median_us,
                       char *limit, size_t n);

/* A PCIe link's GB/s for 256-byte writes (expect.c). */
double model_pcie_gbs(double gts, int width);

/* Tables (links.c). */
const struct gpu_model *gpu_model_named(const char *name);
const struct gpu_model *gpu_model_of_pci(const char *pci_id);
/* A lane's data rate over its signalling rate (PCIe's 8b/10b or
 * 128b/130b) for a link of `gts` GT/s a lane; 0 for a speed no
 * generation has. */
double pcie_encoding(double gts);
int pcie_gen_of(double gts);
double pcie_gts_of_gen(int gen);
/* An InfiniBand port rate's data rate in Gb/s: "56 Gb/sec (4X FDR)" is
 * 54.5 (FDR's 64b/66b at 14.0625 Gb/s a lane). */
double ib_data_gbps(double rate_gbps, const char *rate_text);
/* NVLink's GB/s a link, each way, by generation (0 unknown). */
double nvlink_link_gbs(int gen);
/* The latency floor of one message, microseconds, between nodes of a kind
 * (links.c's latency_floors), and where the figure comes from. */
double kind_latency_floor(enum link_kind k, const char **source);
enum link_kind link_kind_named(const char *name);

#endif
