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
 * - libfabric's own log at FI_LOG_LEVEL=info (src/log.c ofi_log: from 1.15
 *   "libfabric:PID:TIME:PREFIX:PROV:SUBSYS:FUNC():LINE<level> MSG", before
 *   that without TIME, before 1.14 without TIME and PREFIX): the fabric a
 *   process opened (src/fabric.c fi_fabric_(), "Opened fabric: %s"), and
 *   the connections rxm and tcp (xnet) make to peers over it
 *   (prov/rxm/src/rxm_conn.c rxm_process_connreq(), prov/tcp/src/
 *   xnet_rdm_cm.c: "connreq for %p"; "loopback conn %p" is a process to
 *   itself). A fabric opened is chosen, not proven; a connection is a
 *   path to a peer over it.
 * Intel MPI's own "MPI startup(): libfabric provider:" line is impi.c's. */
#include "evidence/internal.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* libfabric's family state: FI_LOG's class + 1 of the fabric a process
 * opened last ("Opened fabric: %s") and whether that fabric is a loopback
 * subnet (127.0.0.1/32: its endpoints reach only their own host); a pasted
 * fabtests command's -p, whether its server is the host itself, and whether
 * its results table is being read. */
struct libfabric_state {
    int fabric;
    bool fabric_loop;
    char *fabtests_provider;
    bool fabtests_loopback, fabtests_rows;
};

void *libfabric_state_new(void) { return xcalloc(1, sizeof(struct libfabric_state)); }
void libfabric_state_free(void *state)
{
    free(((struct libfabric_state *)state)->fabtests_provider);
}

static struct libfabric_state *state_of(struct evidence *ev)
{
    return evidence_family_state(ev, FAMILY_LIBFABRIC);
}

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
           strstr(line, "fi_") || strstr(line, "libfabric:") || strstr(line, "MB/sec") ||
           fabtests_row(line);
}

/* FI_LOG's message and the pid its prefix names: NULL when the line is not
 * libfabric's own log. */
static const char *fi_log_message(const char *line, long *pid)
{
    const char *p = strstr(line, "libfabric:");
    if (!p)
        return NULL;
    char *end;
    long n = strtol(p + strlen("libfabric:"), &end, 10);
    const char *fn = strstr(end, "():");
    const char *lvl = fn ? strchr(fn, '<') : NULL;
    const char *close = lvl ? strchr(lvl, '>') : NULL;
    if (end == p + strlen("libfabric:") || *end != ':' || n <= 0 || !close)
        return NULL;
    *pid = n;
    return close + 1 + (close[1] == ' ');
}

/* An IP provider's fabric: its subnet ("192.0.2.0/24", "fd00::/64"). */
static bool ip_subnet(const char *name, size_t len)
{
    size_t addr = strcspn(name, "/");
    if (addr == 0 || addr >= len || !isdigit((unsigned char)name[addr + 1]))
        return false;
    return strspn(name, "0123456789.") == addr || strspn(name, "0123456789abcdefABCDEF:") == addr;
}

/* "Opened fabric: NAME": the class of what the process will send over. */
static void opened_fabric(struct evidence *ev, const char *name, const char *line,
                          const char *where, const char *host, long pid)
{
    struct libfabric_state *st = state_of(ev);
    size_t len = strcspn(name, " \r\n");
    bool subnet = ip_subnet(name, len);
    enum path_class cls = subnet ? PC_TCP : path_class_of(VOCAB_OFI_FABRIC, name, len);
    st->fabric = cls == PC_UNKNOWN ? 0 : (int)cls + 1;
    st->fabric_loop = subnet && loopback_name(name, strcspn(name, "/"));
    /* a loopback subnet carries nothing between nodes: not a choice for them */
    if (!st->fabric || st->fabric_loop)
        return;
    char *what = xasprintf("fabric %.*s", (int)len, name);
    evidence_selected(ev, "libfabric", host, pid, cls, what, line, where);
    free(what);
}

/* FI_LOG's lines; whether one was evidence. */
static bool fi_log_line(struct evidence *ev, const char *msg, const char *line,
                        const char *where, const char *host, long pid)
{
    struct libfabric_state *st = state_of(ev);
    if (strncmp(msg, "Opened fabric: ", 15) == 0) {
        opened_fabric(ev, msg + 15, line, where, host, pid);
        return st->fabric && !st->fabric_loop;
    }
    bool self = strncmp(msg, "loopback conn ", 14) == 0;
    if (!self && (strncmp(msg, "connreq for ", 12) != 0 || !st->fabric))
        return false;
    enum path_class cls = self ? PC_SELF : (enum path_class)(st->fabric - 1);
    enum path_scope scope = self ? SCOPE_SELF
                            : st->fabric_loop || path_class_kind(cls) == PATH_LOCAL
                                ? SCOPE_INTRA : SCOPE_UNKNOWN;
    char *what = xasprintf("a libfabric %s connection", path_class_name(cls));
    evidence_add(ev, "libfabric", host, pid, scope, cls, what, line, where);
    free(what);
    return true;
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
    struct libfabric_state *st = state_of(ev);
    free(st->fabtests_provider);
    st->fabtests_provider = xstrndup(p, len);
    st->fabtests_rows = false;
    /* the server named as the host itself (127.0.0.1, localhost, ::1): the
     * client and the server share a node, whatever the provider */
    st->fabtests_loopback = loopback_word_in(f);
    return true;
}

bool libfabric_parse_line(struct evidence *ev, const char *line, const char *where,
                          const char *host, long pid)
{
    const char *p;
    long log_pid;
    if ((p = fi_log_message(line, &log_pid)))
        return fi_log_line(ev, p, line, where, host, log_pid);
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
    struct libfabric_state *st = state_of(ev);
    if (strstr(line, "bytes") && strstr(line, "MB/sec")) {   /* the results' header */
        st->fabtests_rows = st->fabtests_provider != NULL || st->fabric;
        return false;
    }
    const char *prov = st->fabtests_provider;
    /* the command's -p, else the fabric FI_LOG says the test opened (a
     * fabric opened later may be one no row names: then nothing) */
    if (!st->fabtests_rows || !fabtests_row(line) || (!prov && !st->fabric))
        return false;
    enum path_class cls = prov ? provider_class(prov, strlen(prov))
                               : (enum path_class)(st->fabric - 1);
    if (cls == PC_UNKNOWN)
        return false;
    char *what = prov ? xasprintf("fabtests provider %s", prov)
                      : xasprintf("fabtests fabric %s", path_class_name(cls));
    /* the client names its server, the server nobody: not known to stay on a node */
    bool loop = prov ? st->fabtests_loopback : st->fabric_loop;
    if (loop)
        cls = path_class_looped(cls);
    enum path_scope scope = path_class_kind(cls) == PATH_LOCAL || loop ? SCOPE_INTRA
                                                                       : SCOPE_UNKNOWN;
    evidence_add(ev, "fabtests", host, pid, scope, cls, what, line, where);
    free(what);
    return true;
}
