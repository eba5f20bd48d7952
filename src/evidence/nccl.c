/* NCCL's choice of network, as NCCL_DEBUG=INFO prints it:
 *   host:pid:tid [0] NCCL INFO Using network IB            (or Socket, IBext_v8, AWS Libfabric)
 *   host:pid:tid [0] NCCL INFO NET/IB : No device found.
 *   host:pid:tid [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA
 *   host:pid:tid [0] NCCL INFO Channel 00 : 0[0] -> 1[0] via NET/IBext_v8/4
 *   host:pid:tid [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0        (old NCCL)
 *   ... via P2P/IPC, via SHM/direct/direct                                    (same node)
 * "NET/Socket : Using ..." alone is not evidence: NCCL prints it for its
 * bootstrap even when the data goes over NET/IB. */
#include "evidence/internal.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static enum path_kind net_kind(const char *net, size_t len)
{
    if (len >= 6 && strncmp(net, "Socket", 6) == 0)
        return PATH_TCP;
    if ((len >= 2 && strncmp(net, "IB", 2) == 0) || (len >= 3 && strncmp(net, "AWS", 3) == 0) ||
        (len >= 3 && strncmp(net, "OFI", 3) == 0))
        return PATH_RDMA;
    return PATH_UNKNOWN;
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
        return true;
    }
    if ((p = strstr(line, "Using network "))) {
        p += strlen("Using network ");
        size_t len = strcspn(p, "\r\n");
        kind = net_kind(p, len);
        what = xasprintf("network %.*s", (int)len, p);
    } else if ((p = strstr(line, " via "))) {
        p += 5;
        size_t len = strcspn(p, " \r\n");
        if (strncmp(p, "NET/", 4) == 0) {
            scope = SCOPE_INTER;
            kind = net_kind(p + 4, len - 4);
        } else if (strncmp(p, "P2P", 3) == 0 || strncmp(p, "SHM", 3) == 0 ||
                   strncmp(p, "CollNet", 7) == 0 || strncmp(p, "NVLS", 4) == 0) {
            scope = SCOPE_INTRA;
            kind = PATH_LOCAL;
        }
        what = xasprintf("%.*s", (int)len, p);
    }
    if (kind == PATH_UNKNOWN) {
        free(what);
        return false;
    }
    line_origin(line, host, pid, &o);
    evidence_add(ev, "nccl", o.host, o.pid, scope, kind, what, line, where);
    free(o.host);
    free(what);
    return true;
}
