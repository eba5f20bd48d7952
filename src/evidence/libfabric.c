/* libfabric's users that print no line per peer:
 * - MPICH's ch4:ofi at MPIR_CVAR_DEBUG_SUMMARY=1 (rank 0, ofi_init.c
 *   dump_global_settings): "libfabric provider: tcp;ofi_rxm - 10.10.1.0/24",
 *   the provider chosen for the paths between nodes (the "provider: %s,
 *   score = %d" lines before it are only candidates);
 * - fabtests (fi_pingpong, fi_rdm_pingpong, fi_msg_bw, ...), as users paste
 *   them: the command with its "-p PROVIDER" (the tests never print it), then
 *   the results table (util/pingpong.c, common/shared.c show_perf): "bytes
 *   #sent ..." or "bytes iters total time MB/sec ...", a row a size. A row is
 *   data moved between the server and the client over that provider.
 * Intel MPI's own "MPI startup(): libfabric provider:" line is impi.c's. */
#include "evidence/internal.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* "64      10k     1.2m        0.32s      4.05 ...": a size, then numbers. */
static bool fabtests_row(const char *line)
{
    size_t d = strspn(line, "0123456789");
    if (!d || !strchr("kmg \t", line[d]))
        return false;
    return strstr(line, "s ") && strchr(line, '.');
}

bool libfabric_wanted(const char *line)
{
    return (strstr(line, "libfabric provider: ") && !strstr(line, "MPI startup()")) ||
           strstr(line, "fi_") || strstr(line, "MB/sec") || fabtests_row(line);
}

/* A fabtests command: "fi_rdm_pingpong -p tcp 10.10.1.101" after a prompt. */
static bool fabtests_command(struct evidence *ev, const char *line)
{
    const char *f = strstr(line, "fi_");
    if (!f || (f > line && !isspace((unsigned char)f[-1]) && f[-1] != '$' && f[-1] != '/'))
        return false;
    const char *p = strstr(f, " -p ");
    if (!p)
        return false;
    p += 4;
    if (*p == '"' || *p == '\'')
        p++;
    size_t len = strcspn(p, " \"'\r\n");
    free(ev->fabtests_provider);
    ev->fabtests_provider = xstrndup(p, len);
    ev->fabtests_rows = false;
    /* the server named as the host itself (127.0.0.1, localhost, ::1): the
     * client and the server share a node, whatever the provider */
    ev->fabtests_loopback = loopback_word_in(f);
    return true;
}

bool libfabric_parse_line(struct evidence *ev, const char *line, const char *where,
                          const char *host, long pid)
{
    const char *p;
    if ((p = strstr(line, "libfabric provider: ")) && !strstr(line, "MPI startup()")) {
        p += strlen("libfabric provider: ");
        size_t len = strcspn(p, " \r\n");
        enum path_class cls = provider_class(p, len);
        if (cls == PC_UNKNOWN)
            return false;
        char *what = xasprintf("libfabric provider %.*s", (int)len, p);
        evidence_selected(ev, "mpich", host, pid, cls, what, line, where);
        free(what);
        return true;
    }
    if (fabtests_command(ev, line))
        return false;
    if (strstr(line, "bytes") && strstr(line, "MB/sec")) {   /* the results' header */
        ev->fabtests_rows = ev->fabtests_provider != NULL;
        return false;
    }
    if (!ev->fabtests_rows || !fabtests_row(line))
        return false;
    enum path_class cls = provider_class(ev->fabtests_provider, strlen(ev->fabtests_provider));
    if (cls == PC_UNKNOWN)
        return false;
    char *what = xasprintf("fabtests provider %s", ev->fabtests_provider);
    /* the client names its server, the server nobody: not known to stay on a node */
    if (ev->fabtests_loopback)
        cls = path_class_looped(cls);
    enum path_scope scope = path_class_kind(cls) == PATH_LOCAL || ev->fabtests_loopback
                                ? SCOPE_INTRA : SCOPE_UNKNOWN;
    evidence_add(ev, "fabtests", host, pid, scope, cls, what, line, where);
    free(what);
    return true;
}
