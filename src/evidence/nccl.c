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

/* A network by NCCL's name for it. IB and its plugins (IBext_v8, UCX, SHARP)
 * are RDMA; Socket, and the TCP-based GPU plugins (GPUDirectTCPX, FasTrak,
 * FastSocket), are TCP; the libfabric plugin's name ("Libfabric", "AWS
 * Libfabric", "OFI") says nothing: its provider line does. */
static enum path_kind net_kind(const char *net, size_t len)
{
    static const struct { const char *name; enum path_kind kind; } nets[] = {
        {"Socket", PATH_TCP},     {"GPUDirectTCPX", PATH_TCP}, {"FasTrak", PATH_TCP},
        {"FastSocket", PATH_TCP}, {"IB", PATH_RDMA},           {"UCX", PATH_RDMA},
        {"SHARP", PATH_RDMA},
        /* Google's gIB: RDMA over RoCE on A3 Ultra and A4 (cloud.google.com,
         * "Collect and understand NCCL logs") */
        {"gIB", PATH_RDMA},
    };
    for (size_t i = 0; i < sizeof(nets) / sizeof(*nets); i++) {
        size_t n = strlen(nets[i].name);
        if (len >= n && strncmp(net, nets[i].name, n) == 0)
            return nets[i].kind;
    }
    return PATH_UNKNOWN;
}

/* A libfabric provider as aws-ofi-nccl, Open MPI's mtl ofi and Intel MPI name
 * it: tcp, "tcp;ofi_rxm", sockets, udp carry TCP/UDP; efa, verbs, cxi, psm2,
 * opx, mlx and ucx are RDMA (or OS bypass); shm stays on the node; psm3 may
 * be either (PSM3_HAL). */
enum path_kind provider_kind(const char *prov, size_t len)
{
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), prov);
    name[strcspn(name, ";, ")] = '\0';   /* "tcp;ofi_rxm": the core provider */
    static const char *const tcp[] = {"tcp", "sockets", "udp", "net", "rstream"};
    static const char *const rdma[] = {"efa", "verbs", "cxi", "psm2", "opx", "mlx", "ucx",
                                       "usnic", "gni"};
    for (size_t i = 0; i < sizeof(tcp) / sizeof(*tcp); i++)
        if (strcmp(name, tcp[i]) == 0)
            return PATH_TCP;
    for (size_t i = 0; i < sizeof(rdma) / sizeof(*rdma); i++)
        if (strcmp(name, rdma[i]) == 0)
            return PATH_RDMA;
    return strcmp(name, "shm") == 0 ? PATH_LOCAL : PATH_UNKNOWN;
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

bool nccl_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid)
{
    struct line_origin o;
    enum path_kind kind = PATH_UNKNOWN;
    enum path_scope scope = SCOPE_UNKNOWN;
    char *what = NULL;
    const char *p;
    if (strstr(line, "NET/IB : No device found")) {
        ev->nccl_no_device = true;
        /* The line's own host:pid (read live there is no file to name it). */
        line_origin(line, host, pid, &o);
        if (!ev->nccl_no_device_proc && o.pid > 0)
            ev->nccl_no_device_proc = evidence_process_words(o.host, o.pid);
        free(o.host);
        return true;
    }
    if ((p = strstr(line, "GPU Direct RDMA "))) {
        /* NCCL 2.18-2.25: "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'" and
         * "GPU Direct RDMA Disabled for GPU 1b000 / HCA 0 (distance 7 > 4)" */
        if (strncmp(p + 16, "Enabled for HCA", 15) == 0)
            ev->nccl_gdr_capable = true;
        else if (strncmp(p + 16, "Disabled for GPU", 16) == 0 && !ev->nccl_gdr_off)
            ev->nccl_gdr_off = trim_dup(line_body(line), strlen(line_body(line)));
        return true;
    }
    switch (trouble(line)) {
    case RDMA_NEVER_UP:
        evidence_failed(ev, line, where);
        return true;
    case RDMA_FAULT:
        evidence_fault(ev, line, where);
        return true;
    case JOB_ERROR:
        evidence_error(ev, line, where);
        return true;
    case NOT_TROUBLE:
        break;
    }
    if ((p = strstr(line, "NCCL version "))) {
        p += strlen("NCCL version ");
        evidence_version(ev, "NCCL", p, strcspn(p, " \r\n"));
        return false;
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
        return false;
    }
    if (failure_trail(line)) {
        evidence_error(ev, line, where);
        return true;
    }
    if ((p = strstr(line, "Selected Provider is ")) || (p = strstr(line, "Selected provider is "))) {
        p += strlen("Selected provider is ");
        size_t len = strcspn(p, ", \r\n");   /* "efa (found 16 nics)", "tcp, fabric is ..." */
        kind = provider_kind(p, len);
        what = xasprintf("provider %.*s", (int)len, p);
        if (!ev->nccl_provider)
            ev->nccl_provider = (int)kind + 1;   /* what its NET/<plugin> channels carry */
    } else if ((p = strstr(line, "NET/IB : Using ")) && (strstr(p, "/IB") || strstr(p, "/RoCE"))) {
        kind = PATH_RDMA;   /* "NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:..." */
        what = xstrdup("network IB");
    } else if ((p = strstr(line, "Using network "))) {
        p += strlen("Using network ");
        size_t len = strcspn(p, "\r\n");
        kind = net_kind(p, len);
        what = xasprintf("network %.*s", (int)len, p);
    } else if ((p = strstr(line, " via "))) {
        p += 5;
        size_t len = strcspn(p, " \r\n");
        if (strncmp(p, "NET/", 4) == 0) {
            /* "NET/AWS Libfabric/0/GDRDMA": a network's name may hold a space;
             * it ends at its device's "/N" ("/0(1)" through a proxy), then
             * the flags up to a blank (RCCL adds " comm 0x... nRanks 16"). */
            const char *d = p + 4;
            while ((d = strchr(d, '/')) && !(d[1] >= '0' && d[1] <= '9'))
                d++;
            if (d)
                len = (size_t)(d - p) + strcspn(d, " \r\n");
            else
                len = strcspn(p, "\r\n");
            while (len && p[len - 1] == ' ')
                len--;
        }
        if (strncmp(p, "NET/", 4) == 0) {
            /* Between nodes, whatever the plugin is called and whatever the
             * hostnames say (pods print one name on every node); a plugin
             * whose name does not tell (aws-ofi-nccl's "AWS Libfabric",
             * "Libfabric") carries what its provider does. */
            scope = SCOPE_INTER;
            kind = net_kind(p + 4, len - 4);
            if (kind == PATH_UNKNOWN && ev->nccl_provider)
                kind = (enum path_kind)(ev->nccl_provider - 1);
            char *gdr = strstr(p, "/GDRDMA");
            if (gdr && gdr < p + len)
                ev->nccl_gdr_channels++;
            else
                ev->nccl_staged_channels++;
        } else if (strncmp(p, "P2P", 3) == 0 || strncmp(p, "SHM", 3) == 0 ||
                   strncmp(p, "CollNet", 7) == 0 || strncmp(p, "NVLS", 4) == 0) {
            scope = SCOPE_INTRA;
            kind = PATH_LOCAL;
        }
        what = xasprintf("%.*s", (int)len, p);
    }
    if (kind == PATH_UNKNOWN && scope != SCOPE_INTER) {
        free(what);
        return false;
    }
    line_origin(line, host, pid, &o);
    /* A channel is a path between two ranks; the network and the provider
     * are NCCL's choice for paths between nodes, whether or not there are any. */
    if (scope == SCOPE_UNKNOWN)
        evidence_selected(ev, "nccl", o.host, o.pid, kind, what, line, where);
    else
        evidence_add(ev, "nccl", o.host, o.pid, scope, kind, what, line, where);
    free(o.host);
    free(what);
    return true;
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
