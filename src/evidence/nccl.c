/* NCCL's choice of network, as NCCL_DEBUG=INFO prints it:
 *   host:pid:tid [0] NCCL INFO Using network IB            (or Socket, IBext_v8, AWS Libfabric)
 *   host:pid:tid [0] NCCL INFO NET/IB : No device found.
 *   host:pid:tid [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA
 *   host:pid:tid [0] NCCL INFO Channel 00 : 0[0] -> 1[0] via NET/IBext_v8/4
 *   host:pid:tid [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0        (old NCCL)
 *   ... via P2P/IPC, via SHM/direct/direct                                    (same node)
 *   host:pid:tid [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa (found 32 nics)
 *   host:pid:tid [0] misc/ibvwrap.cc:202 NCCL WARN Call to ibv_create_qp failed ...
 *   host:pid:tid [0] NCCL INFO comm 0x55d1 rank 0 nRanks 16 nNodes 2 localRanks 8 ...
 * "NET/Socket : Using ..." alone is not evidence: NCCL prints it for its
 * bootstrap even when the data goes over NET/IB. */
#include "evidence/internal.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* NCCL's family state: the path class + 1 of the provider its net plugin
 * selected ("Selected provider is efa"), which NET/<plugin> channels whose
 * name does not tell carry. */
struct nccl_state {
    int provider;
};

void *nccl_state_new(void) { return xcalloc(1, sizeof(struct nccl_state)); }

/* A network by NCCL's name for it (path_class.c's NCCL words); the
 * libfabric plugin's name ("Libfabric", "AWS Libfabric", "OFI") says
 * nothing: its provider line does. */
static enum path_class net_class(const char *net, size_t len)
{
    return path_class_of(VOCAB_NCCL_NET, net, len);
}

enum path_class provider_class(const char *prov, size_t len)
{
    return path_class_of(VOCAB_OFI_PROV, prov, len);
}

/* NCCL's own words when a line ends RDMA or the job:
 * - RDMA chosen and failing before any data (a QP not made or not connected);
 * - a send on a connected QP completing with an error (transport/net_ib.cc:
 *   "NET/IB : Got completion from peer %s with error %d, opcode %d, len %d,
 *   vendor err %d"): the channel carried work requests to a peer first;
 * - the job's end whatever the cause ("unhandled system error"). */
enum nccl_trouble { NOT_TROUBLE, RDMA_NEVER_UP, RDMA_FAULT, JOB_ERROR };

static enum nccl_trouble trouble(const char *line)
{
    static const struct { const char *words; enum nccl_trouble t; } known[] = {
        {"Call to ibv_create_qp failed", RDMA_NEVER_UP},
        {"Call to ibv_modify_qp failed", RDMA_NEVER_UP},
        {"ibv_modify_qp failed", RDMA_NEVER_UP},
        {"Got completion from peer", RDMA_FAULT},
        {"Got completion with error", RDMA_FAULT},
        {"unhandled system error", JOB_ERROR},
        {"remote process exited or there was a network error", JOB_ERROR},
    };
    if (!strstr(line, "NCCL WARN") && !strstr(line, "unhandled system error") &&
        !strstr(line, "network error"))
        return NOT_TROUBLE;
    for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
        if (strstr(line, known[i].words))
            return known[i].t;
    return NOT_TROUBLE;
}

/* NCCLCHECK's trail of a failed call: "NCCL INFO bootstrap.cc:270 -> 6",
 * "group.cc:64 -> 6 [Async thread]" (a source file, its line, the error). */
static bool failure_trail(const char *line)
{
    const char *p = strstr(line, ".cc:");
    if (!p)
        return false;
    p += 4;
    size_t d = strspn(p, "0123456789");
    return d && strncmp(p + d, " -> ", 4) == 0 && p[d + 4] >= '1' && p[d + 4] <= '9';
}

bool nccl_wanted(const char *line)
{
    return strstr(line, "NCCL") != NULL;
}

/* fdToString's "10.0.1.2<43211>->10.0.1.3<50002> tx": both ends one host. */
static bool same_host_flow(const char *f)
{
    size_t a = strcspn(f, "<");
    const char *arrow = strstr(f, ">->");
    if (!arrow)
        arrow = strstr(f, "><-");
    if (!arrow || f[a] != '<')
        return false;
    const char *b = arrow + 3;
    size_t bl = strcspn(b, "<");
    return (a == bl && strncmp(f, b, a) == 0) || loopback_name(f, a) || loopback_name(b, bl);
}

/* NCCL's graph joining GPUs over NVLink (NCCL_DEBUG_SUBSYS=GRAPH):
 * graph/search.cc ncclTopoPrintGraph "Pattern %d, crossNic %d, nChannels %d,
 * bw %f/%f, type %s/%s, sameChannels %d" with the intra-node type NVL, or
 * graph/topo.cc ncclTopoPrintRec's link "+ NVL[%2.1f] - GPU/..." (NVS: an
 * NVSwitch). */
static bool nvlink_line(struct evidence *ev, const char *line)
{
    if (!strstr(line, " type NVL/") && !strstr(line, "+ NVL["))
        return false;
    if (!ev->nccl_nvlink) {
        const char *b = line_body(line);
        ev->nccl_nvlink_line = trim_dup(b, strlen(b) < 400 ? strlen(b) : 400);
    }
    ev->nccl_nvlink = true;
    return true;
}

/* A channel's transport after " via ": "NET/AWS Libfabric/0/GDRDMA" (a
 * network's name may hold a space; it ends at its device's "/N", "/0(1)"
 * through a proxy, then the flags up to a blank: RCCL adds " comm 0x...
 * nRanks 16"), "P2P/CUMEM/read", "SHM/direct/direct". */
static size_t channel_len(const char *p)
{
    size_t len = strcspn(p, " \r\n");
    if (strncmp(p, "NET/", 4) != 0)
        return len;
    const char *d = p + 4;
    while ((d = strchr(d, '/')) && !(d[1] >= '0' && d[1] <= '9'))
        d++;
    len = d ? (size_t)(d - p) + strcspn(d, " \r\n") : strcspn(p, "\r\n");
    while (len && p[len - 1] == ' ')
        len--;
    return len;
}

/* A channel's class and scope (transport/net.cc, p2p.cc, shm.cc, nvls.cc,
 * coll_net.cc):
 * - NET/<name>: between nodes, whatever the plugin is called and whatever
 *   the hostnames say (pods print one name on every node), unless NCCL
 *   counted one node (nNodes 1: the NIC within the node); a plugin whose
 *   name does not tell (aws-ofi-nccl's "AWS Libfabric", "Libfabric")
 *   carries what its provider does;
 * - P2P: NVLink where NCCL's graph says NVL (its P2P/MNNVL crosses nodes
 *   over NVLink), else PCIe; SHM; NVLS (NVLink SHARP); CollNet, COLLNET:
 *   the collective network between nodes. */
static void channel_class(struct evidence *ev, const char *p, size_t len, enum path_class *cls,
                          enum path_scope *scope)
{
    if (strncmp(p, "NET/", 4) == 0) {
        *scope = ev->nodes == 1 ? SCOPE_INTRA : SCOPE_INTER;
        *cls = net_class(p + 4, len - 4);
        const struct nccl_state *st = evidence_family_state(ev, FAMILY_NCCL);
        if (*cls == PC_UNKNOWN && st->provider)
            *cls = (enum path_class)(st->provider - 1);
        if (ev->nodes == 1)
            *cls = PC_NET_INTRA;
        if (*cls == PC_GPUDIRECT_TCP)
            return;   /* GPU-direct by design: no /GDRDMA to count */
        const char *gdr = strstr(p, "/GDRDMA");
        if (gdr && gdr < p + len)
            ev->nccl_gdr_channels++;
        else
            ev->nccl_staged_channels++;
        return;
    }
    *cls = path_class_of(VOCAB_NCCL_P2P, p, len);
    if (*cls == PC_UNKNOWN)
        return;
    *scope = path_class_kind(*cls) == PATH_LOCAL ? SCOPE_INTRA : SCOPE_INTER;
    if (*cls == PC_PCIE_P2P && (ev->nccl_nvlink || strncmp(p, "P2P/MNNVL", 9) == 0))
        *cls = PC_NVLINK;
    if (strncmp(p, "P2P/MNNVL", 9) == 0)
        *scope = SCOPE_INTER;   /* multi-node NVLink: between hosts, over NVLink */
}

/* The lines of TCP-based plugins that show data moving, and their helpers
 * failing (path_class.c names the plugins):
 * - google/nccl-fastsocket net_fastsocket.cc: "NET/FastSocket : Connected
 *   data socket %d", "... Accepted data socket %d" (no peer address);
 * - google/nccl-plugin-gpudirecttcpx connect.cc tcpxAsyncConnectV5 and
 *   tcpxAsyncAccept: "NET/GPUDirectTCPX: connected  (%d) [%lu:%s] through
 *   %s ..." with socket_utils.cc fdToString's "<ip><port>->|<-<ip><port> tx";
 * - the TCPXO plugin (fastrak_offload): "All DXS flows connected to %s ...
 *   (Local IP: %s)";
 * - without the receive-datapath manager: connect.cc "failed against
 *   receive-datapath-manager", rx_pool.cu "unix client %s, gpumem fd client
 *   connect failed", init.cc "Timeout: RxDM not ready": the fabric chosen
 *   and failing before data moved. */
static bool plugin_line(struct evidence *ev, const char *line, const char *where,
                        const char *host, long pid)
{
    if (strstr(line, "failed against receive-datapath-manager") ||
        strstr(line, "gpumem fd client connect failed") || strstr(line, "RxDM not ready on ")) {
        evidence_failed(ev, line, where);
        return true;
    }
    enum path_class cls = PC_UNKNOWN;
    enum path_scope scope = SCOPE_UNKNOWN;
    const char *what = NULL, *p;
    if (strstr(line, "NET/FastSocket : Connected data socket") ||
        strstr(line, "NET/FastSocket : Accepted data socket")) {
        cls = PC_TCP;
        what = "NET/FastSocket data socket";
    } else if ((p = strstr(line, "NET/GPUDirectTCPX: connected ")) ||
               (p = strstr(line, "NET/GPUDirectTCPX: accepted "))) {
        const char *flow = strchr(p, ':');
        flow = flow ? strchr(flow + 1, ':') : NULL;   /* "[%lu:<ip><port>->..." */
        cls = PC_GPUDIRECT_TCP;
        what = "NET/GPUDirectTCPX flow";
        scope = flow && same_host_flow(flow + 1) ? SCOPE_INTRA : SCOPE_INTER;
    } else if ((p = strstr(line, "All DXS flows connected to "))) {
        p += strlen("All DXS flows connected to ");
        const char *local = strstr(p, "(Local IP: ");
        size_t rl = strcspn(p, " ");
        bool same = local && strncmp(local + 11, p, rl) == 0 && local[11 + rl] == ')';
        cls = PC_GPUDIRECT_TCP;
        what = "NET/FasTrak DXS flows";
        scope = same || loopback_name(p, rl) ? SCOPE_INTRA : SCOPE_INTER;
    }
    if (cls == PC_UNKNOWN)
        return false;
    struct line_origin o;
    line_origin(line, host, pid, &o);
    evidence_add(ev, "nccl", o.host, o.pid, scope, cls, what, line, where);
    free(o.host);
    return true;
}

/* The lines that say what NCCL found or how it ended, no path: no RDMA
 * device, GPUDirect's state, RDMA or the job failing, its version, the
 * communicator's size. 1 or 0 (evidence or not) when it is one, else -1. */
/* "NET/IB : No device found" (with the process that said it), and
 * GPUDirect RDMA enabled for a NIC or turned off for a GPU (NCCL
 * 2.18-2.25: "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'", "GPU
 * Direct RDMA Disabled for GPU 1b000 / HCA 0 (distance 7 > 4)"). */
static bool no_device_or_gdr(struct evidence *ev, const char *line, const char *host, long pid)
{
    const char *p;
    if (strstr(line, "NET/IB : No device found")) {
        ev->nccl_no_device = true;
        /* The line's own host:pid (read live there is no file to name it). */
        struct line_origin o;
        line_origin(line, host, pid, &o);
        if (!ev->nccl_no_device_proc && o.pid > 0)
            ev->nccl_no_device_proc = evidence_process_words(o.host, o.pid);
        free(o.host);
        return true;
    }
    if (!(p = strstr(line, "GPU Direct RDMA ")))
        return false;
    if (strncmp(p + 16, "Enabled for HCA", 15) == 0)
        ev->nccl_gdr_capable = true;
    else if (strncmp(p + 16, "Disabled for GPU", 16) == 0 && !ev->nccl_gdr_off)
        ev->nccl_gdr_off = trim_dup(line_body(line), strlen(line_body(line)));
    return true;
}

static int state_line(struct evidence *ev, const char *line, const char *where, const char *host,
                      long pid)
{
    const char *p;
    if (no_device_or_gdr(ev, line, host, pid))
        return 1;
    switch (trouble(line)) {
    case RDMA_NEVER_UP:
        evidence_failed(ev, line, where);
        return 1;
    case RDMA_FAULT:
        evidence_fault(ev, line, where);
        return 1;
    case JOB_ERROR:
        evidence_error(ev, line, where);
        return 1;
    case NOT_TROUBLE:
        break;
    }
    if ((p = strstr(line, "NCCL version "))) {
        p += strlen("NCCL version ");
        evidence_version(ev, "NCCL", p, strcspn(p, " \r\n"));
        return 0;
    }
    if (((p = strstr(line, " nRanks ")) || (p = strstr(line, " nranks "))) &&
        strstr(line, " rank ")) {
        /* init.cc: "comm %p rank %d nRanks %d nNodes %d localRanks %d ..." (2.20+),
         * "comm %p rank %d nranks %d cudaDev %d ... - Init COMPLETE" (all);
         * NCCL counts nodes by hostname and boot id, so nNodes holds where
         * hostnames do not (pods that share one name). */
        long ranks = strtol(p + 8, NULL, 10);
        if (ranks > ev->ranks)   /* 1 in every communicator: no peer */
            ev->ranks = ranks;
        const char *nn = strstr(line, " nNodes ");
        long n = nn ? strtol(nn + 8, NULL, 10) : 0;
        if (n > ev->nodes)
            ev->nodes = n;
        return 0;
    }
    if (failure_trail(line)) {
        evidence_error(ev, line, where);
        return 1;
    }
    return -1;
}

/* NCCL's choice (its provider, its network) or a channel between two ranks:
 * the network and the provider are NCCL's choice for paths between nodes,
 * whether or not there are any; a channel is a path. */
static bool path_line(struct evidence *ev, const char *line, const char *where, const char *host,
                      long pid)
{
    enum path_class cls = PC_UNKNOWN;
    enum path_scope scope = SCOPE_UNKNOWN;
    char *what = NULL;
    const char *p;
    if ((p = strstr(line, "Selected Provider is ")) || (p = strstr(line, "Selected provider is "))) {
        p += strlen("Selected provider is ");
        size_t len = strcspn(p, ", \r\n");   /* "efa (found 16 nics)", "tcp, fabric is ..." */
        cls = provider_class(p, len);
        what = xasprintf("provider %.*s", (int)len, p);
        struct nccl_state *st = evidence_family_state(ev, FAMILY_NCCL);
        if (!st->provider)
            st->provider = (int)cls + 1;   /* what its NET/<plugin> channels carry */
    } else if ((p = strstr(line, "NET/IB : Using ")) && (strstr(p, "/IB") || strstr(p, "/RoCE"))) {
        cls = PC_RDMA;   /* "NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:..." */
        what = xstrdup("network IB");
    } else if ((p = strstr(line, "Using network "))) {
        p += strlen("Using network ");
        size_t len = strcspn(p, "\r\n");
        cls = net_class(p, len);
        what = xasprintf("network %.*s", (int)len, p);
    } else if ((p = strstr(line, " via "))) {
        p += 5;
        size_t len = channel_len(p);
        channel_class(ev, p, len, &cls, &scope);
        what = xasprintf("%.*s", (int)len, p);
    }
    if (cls == PC_UNKNOWN && scope != SCOPE_INTER) {
        free(what);
        return false;
    }
    struct line_origin o;
    line_origin(line, host, pid, &o);
    if (scope == SCOPE_UNKNOWN)
        evidence_selected(ev, "nccl", o.host, o.pid, cls, what, line, where);
    else
        evidence_add(ev, "nccl", o.host, o.pid, scope, cls, what, line, where);
    free(o.host);
    free(what);
    return true;
}

bool nccl_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid)
{
    int said = state_line(ev, line, where, host, pid);
    if (said >= 0)
        return said;
    if (plugin_line(ev, line, where, host, pid))
        return true;
    if (nvlink_line(ev, line))
        return false;
    return path_line(ev, line, where, host, pid);
}

char *nccl_gdr_words(const struct evidence *ev)
{
    unsigned long all = ev->nccl_gdr_channels + ev->nccl_staged_channels;
    if (!all)
        return NULL;
    if (!ev->nccl_staged_channels)
        return xasprintf("NCCL: %lu of %lu network channel%s use GPUDirect RDMA", all, all,
                         all == 1 ? "" : "s");
    if (ev->nccl_gdr_capable)
        return xasprintf("NCCL: %lu of %lu network channels are staged through host memory "
                         "although a NIC is GPUDirect-capable (GPU Direct RDMA Enabled for HCA)"
                         "%s%s (hint: NCCL_NET_GDR_LEVEL, or the GPU-NIC path in 'rdmarun "
                         "probe')", ev->nccl_staged_channels, all,
                         ev->nccl_gdr_off ? ": " : "", ev->nccl_gdr_off ? ev->nccl_gdr_off : "");
    return xasprintf("NCCL: %lu of %lu network channels staged through host memory, %lu use "
                     "GPUDirect RDMA", ev->nccl_staged_channels, all, ev->nccl_gdr_channels);
}
