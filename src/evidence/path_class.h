/* Path classes: what carried traffic between two processes, as one table
 * (path_class.c). Each library's word for a transport (a UCX transport, a
 * NCCL network or plugin, a libfabric provider, an Open MPI BTL) is a row
 * that names its class and the source that prints it: a new library or
 * plugin is rows, not code. The verdict (verdict.c) is one truth table over
 * the classes. */
#ifndef RDMARUN_PATH_CLASS_H
#define RDMARUN_PATH_CLASS_H
#include <stdbool.h>
#include <stddef.h>

/* The verdict's coarse kind of a path: a process to itself, within a node,
 * over a fabric (RDMA, OS bypass or GPU-direct), over TCP, or unknown. */
enum path_kind { PATH_SELF, PATH_LOCAL, PATH_RDMA, PATH_TCP, PATH_UNKNOWN };

enum path_class {
    PC_SELF,            /* a process to itself (UCX self, Open MPI btl self) */
    PC_NVLINK,          /* GPU to GPU over NVLink: NCCL P2P on NVL, NVLS */
    PC_PCIE_P2P,        /* GPU to GPU over PCIe P2P */
    PC_SHM,             /* shared memory (UCX sysv/posix/cma/knem, vader, NCCL SHM) */
    PC_NET_INTRA,       /* within a node through the NIC (NCCL NET between local GPUs) */
    PC_RDMA,            /* verbs RC/UD/DC, uGNI, usNIC, UCX's own */
    PC_EFA,             /* AWS EFA: SRD (libfabric efa, UCX srd) */
    PC_CXI,             /* HPE Slingshot: libfabric cxi */
    PC_OPX,             /* Omni-Path / CN5000: opx, psm2 */
    PC_GPUDIRECT_TCP,   /* Google GPUDirect-TCPX/TCPXO (FasTrak): TCP by design */
    PC_TCP,             /* TCP or UDP sockets */
    PC_UNKNOWN,
    PC_COUNT
};

struct path_class_row {
    const char *name;    /* as verdict.json and --expect write it */
    const char *label;   /* in the verdict's words: "RDMA", "EFA", "GPUDirect-TCPX" */
    enum path_kind kind;
    bool crosses;        /* can carry traffic between nodes */
    int tier;            /* within a node, higher is faster: nvlink 4 .. net-intra 1 */
};
extern const struct path_class_row path_classes[PC_COUNT];

const char *path_class_name(enum path_class c);
enum path_kind path_class_kind(enum path_class c);
/* The class of a name ("efa"), or PC_COUNT. */
enum path_class path_class_by_name(const char *name);

/* The vocabularies of the word table. */
enum path_vocab {
    VOCAB_UCX_TL,     /* a UCX transport: "rc_mlx5", "tcp", "sysv" */
    VOCAB_NCCL_NET,   /* a NCCL network or net plugin, as "Using network X" and
                       * "via NET/X/..." name it (prefix match) */
    VOCAB_OFI_PROV,   /* a libfabric core provider: "efa", "tcp" ("tcp;ofi_rxm") */
    VOCAB_OMPI_BTL,   /* an Open MPI BTL */
    VOCAB_NCCL_P2P,   /* NCCL's intra-node transports: "P2P", "SHM", "NVLS", "CollNet" */
    VOCAB_OFI_FABRIC, /* a libfabric fabric name, as FI_LOG's "Opened fabric: %s"
                       * prints it (prefix match); an IP subnet is not a row */
    VOCAB_PSM3_HAL,   /* psm3's HAL, as PSM3_IDENTIFY's "HAL: %s" prints it */
};
/* The class of a library's word (len bytes), or PC_UNKNOWN. */
enum path_class path_class_of(enum path_vocab vocab, const char *word, size_t len);

/* Whether an address or device names the host itself: "lo", 127/8, ::1,
 * "localhost". */
bool loopback_name(const char *s, size_t len);
/* Whether a word of a command line (up to its end) is such a name: a
 * benchmark's client pointed at its own host. */
bool loopback_word_in(const char *line);
/* The class of a path whose two ends are one host: a fabric's traffic then
 * loops through the NIC (net-intra); any other class is what it is. */
enum path_class path_class_looped(enum path_class c);

#endif
