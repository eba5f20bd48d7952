/* The path classes and each library's words for them. Every row names the
 * source that prints the word; the parsers look words up here and never
 * decide a class themselves. */
#include "evidence/path_class.h"
#include <stdio.h>
#include <string.h>

const struct path_class_row path_classes[PC_COUNT] = {
    [PC_SELF] = {"self", "self", PATH_SELF, false, 0},
    [PC_NVLINK] = {"nvlink", "NVLink", PATH_LOCAL, false, 4},
    [PC_PCIE_P2P] = {"pcie-p2p", "PCIe P2P", PATH_LOCAL, false, 3},
    [PC_SHM] = {"shm", "shared memory", PATH_LOCAL, false, 2},
    [PC_NET_INTRA] = {"net-intra", "the NIC within the node", PATH_LOCAL, false, 1},
    [PC_RDMA] = {"rdma", "RDMA", PATH_RDMA, true, 0},
    [PC_EFA] = {"efa", "EFA (SRD)", PATH_RDMA, true, 0},
    [PC_CXI] = {"cxi", "Slingshot (cxi)", PATH_RDMA, true, 0},
    [PC_OPX] = {"opx", "Omni-Path (opx/psm2)", PATH_RDMA, true, 0},
    [PC_GPUDIRECT_TCP] = {"gpudirect-tcp", "GPUDirect-TCPX", PATH_RDMA, true, 0},
    [PC_TCP] = {"tcp", "TCP", PATH_TCP, true, 0},
    [PC_UNKNOWN] = {"unknown", "an unknown network", PATH_UNKNOWN, true, 0},
};

const char *path_class_name(enum path_class c)
{
    return path_classes[c < PC_COUNT ? c : PC_UNKNOWN].name;
}

enum path_kind path_class_kind(enum path_class c)
{
    return path_classes[c < PC_COUNT ? c : PC_UNKNOWN].kind;
}

enum path_class path_class_by_name(const char *name)
{
    for (int c = 0; c < PC_COUNT; c++)
        if (strcmp(path_classes[c].name, name) == 0)
            return (enum path_class)c;
    return PC_COUNT;
}

struct path_word {
    enum path_vocab vocab;
    const char *word;
    enum path_class cls;
    const char *source;   /* who prints it */
};

/* A word matches whole, except NCCL networks, which match as a prefix
 * ("IBext_v8", "GPUDirectTCPX_v7", "NCCL RDMA Plugin v6"). */
static const struct path_word words[] = {
    /* UCX transports: the tl part of "tl/device" in ucp_worker.c's endpoint
     * lines (ucp_worker_print_used_tls), wireup.c's lanes and proto_debug.c's
     * table rows; each name is a uct component's tl_name. */
    {VOCAB_UCX_TL, "self", PC_SELF, "uct/sm/self/self.c"},
    {VOCAB_UCX_TL, "rc_verbs", PC_RDMA, "uct/ib/rc/verbs/rc_verbs_iface.c"},
    {VOCAB_UCX_TL, "rc_mlx5", PC_RDMA, "uct/ib/mlx5/rc/rc_mlx5_iface.c"},
    {VOCAB_UCX_TL, "dc_mlx5", PC_RDMA, "uct/ib/mlx5/dc/dc_mlx5.c"},
    {VOCAB_UCX_TL, "ud_verbs", PC_RDMA, "uct/ib/ud/verbs/ud_verbs.c"},
    {VOCAB_UCX_TL, "ud_mlx5", PC_RDMA, "uct/ib/mlx5/ud/ud_mlx5.c"},
    {VOCAB_UCX_TL, "rc", PC_RDMA, "ucx_info -d aliases"},
    {VOCAB_UCX_TL, "dc", PC_RDMA, "ucx_info -d aliases"},
    {VOCAB_UCX_TL, "ud", PC_RDMA, "ucx_info -d aliases"},
    {VOCAB_UCX_TL, "ugni_rdma", PC_RDMA, "uct/ugni/rdma (UCX <= 1.12)"},
    {VOCAB_UCX_TL, "ugni_udt", PC_RDMA, "uct/ugni/udt (UCX <= 1.12)"},
    {VOCAB_UCX_TL, "ugni_smsg", PC_RDMA, "uct/ugni/smsg (UCX <= 1.12)"},
    {VOCAB_UCX_TL, "srd", PC_EFA, "uct/ib/efa/srd (UCX 1.19+)"},
    {VOCAB_UCX_TL, "efa", PC_EFA, "uct/ib/efa"},
    {VOCAB_UCX_TL, "tcp", PC_TCP, "uct/tcp/tcp_iface.c"},
    {VOCAB_UCX_TL, "sockcm", PC_TCP, "uct/tcp/sockcm"},
    {VOCAB_UCX_TL, "posix", PC_SHM, "uct/sm/mm/posix/mm_posix.c"},
    {VOCAB_UCX_TL, "sysv", PC_SHM, "uct/sm/mm/sysv/mm_sysv.c"},
    {VOCAB_UCX_TL, "mm", PC_SHM, "uct/sm/mm (UCX <= 1.6)"},
    {VOCAB_UCX_TL, "xpmem", PC_SHM, "uct/sm/mm/xpmem/mm_xpmem.c"},
    {VOCAB_UCX_TL, "knem", PC_SHM, "uct/sm/scopy/knem/knem_iface.c"},
    {VOCAB_UCX_TL, "cma", PC_SHM, "uct/sm/scopy/cma/cma_iface.c"},
    {VOCAB_UCX_TL, "cuda_copy", PC_SHM, "uct/cuda/cuda_copy (host and device in a process)"},
    {VOCAB_UCX_TL, "rocm_copy", PC_SHM, "uct/rocm/copy"},
    {VOCAB_UCX_TL, "gdr_copy", PC_SHM, "uct/cuda/gdr_copy"},
    /* CUDA/ROCm IPC between GPUs of a node: NVLink or PCIe, UCX does not
     * say which; counted as the lower */
    {VOCAB_UCX_TL, "cuda_ipc", PC_PCIE_P2P, "uct/cuda/cuda_ipc/cuda_ipc_iface.c"},
    {VOCAB_UCX_TL, "rocm_ipc", PC_PCIE_P2P, "uct/rocm/ipc/rocm_ipc_iface.c"},

    /* NCCL networks and net plugins: the name NCCL prints in "Using network
     * %s" (init.cc) and "via NET/%s/%d" (transport/net.cc), which is the
     * plugin's ncclNet_t.name */
    {VOCAB_NCCL_NET, "Socket", PC_TCP, "nccl transport/net_socket.cc ncclNetSocket"},
    {VOCAB_NCCL_NET, "IB", PC_RDMA, "nccl transport/net_ib.cc ncclNetIb (and IBext_vN)"},
    {VOCAB_NCCL_NET, "UCX", PC_RDMA, "nccl-rdma-sharp-plugins src/ucx_plugin.c"},
    {VOCAB_NCCL_NET, "SHARP", PC_RDMA, "nccl-rdma-sharp-plugins src/sharp_plugin.c"},
    {VOCAB_NCCL_NET, "NCCL RDMA Plugin", PC_RDMA, "HPC-X nccl-rdma-sharp-plugins ib_plugin.c"},
    {VOCAB_NCCL_NET, "gIB", PC_RDMA, "Google gIB (RoCE), cloud.google.com NCCL logs"},
    {VOCAB_NCCL_NET, "GPUDirectTCPX", PC_GPUDIRECT_TCP,
     "google/nccl-plugin-gpudirecttcpx src/net_tcpx.cc"},
    {VOCAB_NCCL_NET, "FasTrak", PC_GPUDIRECT_TCP, "Google TCPXO plugin (A3 Mega)"},
    {VOCAB_NCCL_NET, "FastSocket", PC_TCP, "google/nccl-fastsocket net_fastsocket.cc"},
    /* aws-ofi-nccl's "AWS Libfabric", "Libfabric", "OFI": the provider
     * line decides (nccl_ofi_net.c "Selected Provider is %s") */

    /* libfabric core providers (fi_getinfo's prov_name before ";ofi_rxm") */
    {VOCAB_OFI_PROV, "tcp", PC_TCP, "libfabric prov/tcp"},
    {VOCAB_OFI_PROV, "sockets", PC_TCP, "libfabric prov/sockets"},
    {VOCAB_OFI_PROV, "udp", PC_TCP, "libfabric prov/udp"},
    {VOCAB_OFI_PROV, "net", PC_TCP, "libfabric prov/net (1.18)"},
    {VOCAB_OFI_PROV, "rstream", PC_TCP, "libfabric prov/rstream"},
    {VOCAB_OFI_PROV, "efa", PC_EFA, "libfabric prov/efa"},
    {VOCAB_OFI_PROV, "cxi", PC_CXI, "libfabric prov/cxi"},
    {VOCAB_OFI_PROV, "opx", PC_OPX, "libfabric prov/opx"},
    {VOCAB_OFI_PROV, "psm2", PC_OPX, "libfabric prov/psm2"},
    {VOCAB_OFI_PROV, "verbs", PC_RDMA, "libfabric prov/verbs"},
    {VOCAB_OFI_PROV, "mlx", PC_RDMA, "Intel MPI's libfabric mlx (UCX)"},
    {VOCAB_OFI_PROV, "ucx", PC_RDMA, "libfabric prov/ucx"},
    {VOCAB_OFI_PROV, "usnic", PC_RDMA, "libfabric prov/usnic"},
    {VOCAB_OFI_PROV, "gni", PC_RDMA, "libfabric prov/gni"},
    {VOCAB_OFI_PROV, "shm", PC_SHM, "libfabric prov/shm"},
    {VOCAB_OFI_PROV, "sm2", PC_SHM, "libfabric prov/sm2"},
    /* psm3: verbs or sockets (PSM3_HAL), said by its own lines */

    /* Open MPI BTLs (opal/mca/btl/NAME) */
    {VOCAB_OMPI_BTL, "tcp", PC_TCP, "opal/mca/btl/tcp"},
    {VOCAB_OMPI_BTL, "vader", PC_SHM, "opal/mca/btl/vader (<= 4.1)"},
    {VOCAB_OMPI_BTL, "sm", PC_SHM, "opal/mca/btl/sm (5.0)"},
    {VOCAB_OMPI_BTL, "smcuda", PC_SHM, "opal/mca/btl/smcuda"},
    {VOCAB_OMPI_BTL, "self", PC_SELF, "opal/mca/btl/self"},
    {VOCAB_OMPI_BTL, "openib", PC_RDMA, "opal/mca/btl/openib (<= 4.1)"},
    {VOCAB_OMPI_BTL, "uct", PC_RDMA, "opal/mca/btl/uct"},
    {VOCAB_OMPI_BTL, "usnic", PC_RDMA, "opal/mca/btl/usnic"},
    {VOCAB_OMPI_BTL, "ugni", PC_RDMA, "opal/mca/btl/ugni (Cray XC, <= 4.1)"},

    /* NCCL's transports within a node ("via P2P/...", "via SHM/...",
     * transport/p2p.cc, shm.cc, nvls.cc); P2P is NVLink where NCCL's graph
     * says NVL (nccl.c), else PCIe */
    {VOCAB_NCCL_P2P, "P2P", PC_PCIE_P2P, "nccl transport/p2p.cc p2pSendSetup"},
    {VOCAB_NCCL_P2P, "SHM", PC_SHM, "nccl transport/shm.cc shmSendConnect"},
    {VOCAB_NCCL_P2P, "NVLS", PC_NVLINK, "nccl transport/nvls.cc"},
    /* CollNet: the collective network (SHARP) between nodes */
    {VOCAB_NCCL_P2P, "CollNet", PC_RDMA, "nccl transport/coll_net.cc"},

    /* libfabric fabric names (fi_info's fabric_attr->name), printed by
     * src/fabric.c fi_fabric_() as "Opened fabric: %s". IP providers (tcp,
     * sockets, udp, net and their rxm/rxd layerings) name their subnet
     * instead, "10.0.0.0/24" (prov/util/src/util_main.c util_set_netif_names):
     * TCP, or one host when it is 127/8 or ::1 (libfabric.c). */
    {VOCAB_OFI_FABRIC, "IB-0x", PC_RDMA, "prov/verbs/src/verbs_info.c VERBS_IB_PREFIX (IB, RoCE)"},
    {VOCAB_OFI_FABRIC, "Ethernet-iWARP", PC_RDMA, "prov/verbs/src/verbs_info.c VERBS_IWARP_FABRIC"},
    {VOCAB_OFI_FABRIC, "IB/OPA-0x", PC_RDMA, "prov/psm3 psm3_subnet128_fmt_name (verbs HAL)"},
    {VOCAB_OFI_FABRIC, "RoCE-", PC_RDMA, "prov/psm3 psm3_subnet128_fmt_name (verbs HAL)"},
    {VOCAB_OFI_FABRIC, "TCP-", PC_TCP, "prov/psm3 psm3_subnet128_fmt_name (sockets HAL); tcp's old TCP-IP"},
    {VOCAB_OFI_FABRIC, "UDP-", PC_TCP, "prov/psm3 psm3_subnet128_fmt_name (sockets HAL over UDP)"},
    {VOCAB_OFI_FABRIC, "efa", PC_EFA, "prov/efa EFA_FABRIC_NAME, EFA_DIRECT_FABRIC_NAME"},
    {VOCAB_OFI_FABRIC, "EFA-", PC_EFA, "prov/efa EFA_FABRIC_PREFIX (1.x)"},
    {VOCAB_OFI_FABRIC, "cxi", PC_CXI, "prov/cxi cxip_info"},
    {VOCAB_OFI_FABRIC, "OPX-", PC_OPX, "prov/opx FI_OPX_FABRIC_NAME \"OPX-100\""},
    {VOCAB_OFI_FABRIC, "psm2", PC_OPX, "prov/psm2 psmx2_fabric"},
    {VOCAB_OFI_FABRIC, "shm", PC_SHM, "prov/shm smr_fabric"},
    {VOCAB_OFI_FABRIC, "sm2", PC_SHM, "prov/sm2"},

    /* psm3's HALs (psm2_hal.h psm3_hal_index_to_str), in PSM3_IDENTIFY's
     * "HAL: %s (%s)" (psm_utils.c psm3_print_identify, hal_verbs/verbs_hal.c,
     * hal_sockets/sockets_hal.c); "loopback" keeps a process to itself */
    {VOCAB_PSM3_HAL, "verbs", PC_RDMA, "prov/psm3/psm3/hal_verbs/verbs_hal.c"},
    {VOCAB_PSM3_HAL, "sockets", PC_TCP, "prov/psm3/psm3/hal_sockets/sockets_hal.c"},
    {VOCAB_PSM3_HAL, "loopback", PC_SELF, "prov/psm3/psm3/hal_loopback"},
};

enum path_class path_class_of(enum path_vocab vocab, const char *word, size_t len)
{
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), word);
    if (vocab == VOCAB_OFI_PROV)
        name[strcspn(name, ";, ")] = '\0';   /* "tcp;ofi_rxm": the core provider */
    for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
        const struct path_word *w = &words[i];
        if (w->vocab != vocab)
            continue;
        size_t n = strlen(w->word);
        bool prefix = vocab == VOCAB_NCCL_NET || vocab == VOCAB_NCCL_P2P ||
                      vocab == VOCAB_OFI_FABRIC;
        if (prefix ? strncmp(name, w->word, n) == 0 : strcmp(name, w->word) == 0)
            return w->cls;
    }
    return PC_UNKNOWN;
}

bool loopback_word_in(const char *line)
{
    for (const char *w = line; *w && *w != '\r' && *w != '\n';) {
        w += strspn(w, " \t");
        size_t n = strcspn(w, " \t\r\n");
        if (loopback_name(w, n))
            return true;
        w += n;
    }
    return false;
}

enum path_class path_class_looped(enum path_class c)
{
    return path_class_kind(c) == PATH_RDMA ? PC_NET_INTRA : c;
}

bool loopback_name(const char *s, size_t len)
{
    if (!s)
        return false;
    return (len == 2 && strncmp(s, "lo", 2) == 0) || (len >= 4 && strncmp(s, "127.", 4) == 0) ||
           (len == 3 && strncmp(s, "::1", 3) == 0) || (len == 9 && strncmp(s, "localhost", 9) == 0) ||
           (len > 3 && strncmp(s, "lo:", 3) == 0);
}
