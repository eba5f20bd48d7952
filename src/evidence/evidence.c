/* Reading logs into evidence, and the verdict drawn from it. */
#include "evidence/internal.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_OBSERVATIONS 100000   /* distinct ones; repeats are only counted */
#define MAX_LINE_KEPT 400         /* characters of a line kept as the example */

void line_origin(const char *line, const char *host, long pid, struct line_origin *o)
{
    o->host = host ? xstrdup(host) : NULL;
    o->pid = pid;
    const char *s = line;
    /* UCX: "[1795949793.45] [vm:3251 :0] ..." */
    if (*s == '[') {
        const char *b = strstr(s, "] [");
        if (b) {
            s = b + 3;
            size_t hl = strcspn(s, ":]");
            if (s[hl] == ':') {
                free(o->host);
                o->host = xstrndup(s, hl);
                o->pid = strtol(s + hl + 1, NULL, 10);
            }
        }
        return;
    }
    /* NCCL: "gpu01:12345:12345 [0] NCCL INFO ..." */
    size_t hl = strcspn(s, ": ");
    if (s[hl] == ':' && isdigit((unsigned char)s[hl + 1]) && strstr(s, " NCCL ")) {
        free(o->host);
        o->host = xstrndup(s, hl);
        o->pid = strtol(s + hl + 1, NULL, 10);
    }
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

void evidence_add(struct evidence *ev, const char *family, const char *host, long pid,
                  enum path_scope scope, enum path_kind kind, const char *transports,
                  const char *line, const char *where)
{
    for (size_t i = 0; i < ev->n; i++) {
        struct observation *o = &ev->obs[i];
        if (o->pid == pid && o->scope == scope && o->kind == kind && same(o->host, host) &&
            strcmp(o->family, family) == 0 && strcmp(o->transports, transports) == 0) {
            o->count++;
            return;
        }
    }
    if (ev->n >= MAX_OBSERVATIONS)
        return;
    GROW(ev->obs, ev->cap, ev->n + 1);
    struct observation *o = &ev->obs[ev->n++];
    o->family = xstrdup(family);
    o->host = host ? xstrdup(host) : NULL;
    o->pid = pid;
    o->scope = scope;
    o->kind = kind;
    o->transports = xstrdup(transports);
    size_t len = strlen(line);
    o->line = trim_dup(line, len < MAX_LINE_KEPT ? len : MAX_LINE_KEPT);
    o->where = xstrdup(where);
    o->count = 1;
}

bool evidence_parse_line(struct evidence *ev, const char *line, const char *where,
                         const char *host, long pid)
{
    ev->lines++;
    for (size_t i = 0; i < nlog_families; i++)
        if (log_families[i].wanted(line) && log_families[i].parse(ev, line, where, host, pid))
            return true;
    return false;
}

static bool wanted(const char *line)
{
    for (size_t i = 0; i < nlog_families; i++)
        if (log_families[i].wanted(line))
            return true;
    return false;
}

/* FAMILY.HOST.PID.log (ucx.vm.3251.log), as rdmarun names them. */
static void origin_from_name(const char *path, char **host, long *pid)
{
    *host = NULL;
    *pid = -1;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t flen = strcspn(base, ".");
    bool ours = false;
    for (size_t i = 0; i < nlog_families && !ours; i++)
        ours = strlen(log_families[i].name) == flen && strncmp(base, log_families[i].name, flen) == 0;
    if (!ours || !base[flen])
        return;
    /* HOST may hold dots (c01.cluster.local): the pid is the last part. */
    const char *h = base + flen + 1;
    size_t len = strlen(h);
    if (len > 4 && strcmp(h + len - 4, ".log") == 0)
        len -= 4;
    size_t dot = len;
    while (dot > 0 && h[dot - 1] != '.')
        dot--;
    if (dot < 2 || dot == len || strspn(h + dot, "0123456789") != len - dot)
        return;
    *host = xstrndup(h, dot - 1);
    *pid = strtol(h + dot, NULL, 10);
}

static int read_file(struct evidence *ev, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        rr_error("cannot read %s: %s", path, strerror(errno));
        return RR_EX_NOINPUT;
    }
    char *host;
    long pid;
    origin_from_name(path, &host, &pid);
    /* A fixed buffer, so that memory stays bounded whatever the file: a line
     * longer than it (binary junk, an endless line) is judged by its start
     * and the rest is skipped. */
    char line[8192];
    unsigned long long n = 0;
    bool rest = false;
    for (;;) {
        /* fgets ends what it read with a NUL, which tells a full buffer (a
         * line cut short) even when the line itself holds NUL bytes. */
        line[sizeof(line) - 1] = 1;
        if (!fgets(line, sizeof(line), f))
            break;
        bool full = line[sizeof(line) - 1] == '\0' && line[sizeof(line) - 2] != '\n';
        bool whole = !full || feof(f), skip = rest;
        rest = !whole;
        if (skip)
            continue;
        n++;
        char *where = NULL;
        if (wanted(line)) {
            where = xasprintf("%s:%llu", path, n);
            evidence_parse_line(ev, line, where, host, pid);
            free(where);
        } else {
            ev->lines++;
        }
    }
    free(host);
    fclose(f);
    ev->files++;
    return 0;
}

static int not_dot(const struct dirent *d) { return d->d_name[0] != '.'; }

int evidence_read(struct evidence *ev, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        rr_error("cannot read %s: %s", path, strerror(errno));
        return RR_EX_NOINPUT;
    }
    if (!S_ISDIR(st.st_mode))
        return read_file(ev, path);
    struct dirent **names;
    int n = scandir(path, &names, not_dot, alphasort);
    if (n < 0) {
        rr_error("cannot list %s: %s", path, strerror(errno));
        return RR_EX_NOINPUT;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char *child = xasprintf("%s/%s", path, names[i]->d_name);
        int r = evidence_read(ev, child);
        rc = rc ? rc : r;
        free(child);
        free(names[i]);
    }
    free(names);
    return rc;
}

void evidence_free(struct evidence *ev)
{
    for (size_t i = 0; i < ev->n; i++) {
        free(ev->obs[i].family);
        free(ev->obs[i].host);
        free(ev->obs[i].transports);
        free(ev->obs[i].line);
        free(ev->obs[i].where);
    }
    free(ev->obs);
    memset(ev, 0, sizeof(*ev));
}

const char *const verdict_names[] = {"rdma", "fallback", "local", "unknown", NULL};

const char *verdict_name(enum verdict v)
{
    return verdict_names[v];
}

const char *path_kind_name(enum path_kind k)
{
    static const char *const names[] = {"self", "shared-memory", "rdma", "tcp", "unknown"};
    return names[k];
}

const char *path_scope_name(enum path_scope s)
{
    static const char *const names[] = {"unknown", "self", "intra-node", "inter-node"};
    return names[s];
}

/* TCP on a path that may leave the node is a fallback; RDMA is the goal
 * wherever it carries the traffic; shared memory, self, and TCP within the
 * node only mean the job never left the node. */
enum verdict evidence_verdict(const struct evidence *ev)
{
    bool rdma = false, tcp = false, local = false;
    for (size_t i = 0; i < ev->n; i++) {
        const struct observation *o = &ev->obs[i];
        bool may_leave = o->scope == SCOPE_INTER || o->scope == SCOPE_UNKNOWN;
        if (o->kind == PATH_TCP && may_leave)
            tcp = true;
        else if (o->kind == PATH_RDMA)
            rdma = true;   /* through the NIC even between ranks of one node (UCX
                              1.14+ says intra-node there): RDMA carried it */
        else if (o->kind == PATH_LOCAL || o->kind == PATH_SELF || o->scope == SCOPE_INTRA)
            local = true;
    }
    if (tcp || (ev->nccl_no_device && !rdma))
        return VERDICT_FALLBACK;
    if (rdma)
        return VERDICT_RDMA;
    return local ? VERDICT_LOCAL : VERDICT_UNKNOWN;
}

bool verdict_meets(enum verdict v, enum expectation e)
{
    switch (e) {
    case EXPECT_RDMA:
        return v == VERDICT_RDMA || v == VERDICT_LOCAL;
    case EXPECT_TCP:
        return v == VERDICT_FALLBACK || v == VERDICT_LOCAL;
    case EXPECT_LOCAL:
        return v == VERDICT_LOCAL;
    case EXPECT_ANY:
        break;
    }
    return true;
}

int verdict_status(enum verdict v)
{
    static const int status[] = {0, RR_EX_FALLBACK, RR_EX_LOCAL, RR_EX_NO_EVIDENCE};
    return status[v];
}

static size_t count_processes(const struct evidence *ev)
{
    size_t n = 0;
    for (size_t i = 0; i < ev->n; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = ev->obs[j].pid == ev->obs[i].pid && same(ev->obs[j].host, ev->obs[i].host);
        n += !seen;
    }
    return n;
}

/* The distinct transports of the paths of one kind ("rc_verbs/rxe0:1 ..."),
 * only those within one node when intra is set. */
static char *transports_in(const struct evidence *ev, enum path_kind kind, bool intra)
{
    struct strvec v = {0};
    for (size_t i = 0; i < ev->n; i++) {
        if (ev->obs[i].kind != kind || (intra && ev->obs[i].scope != SCOPE_INTRA))
            continue;
        struct strvec items = {0};
        sv_split(&items, ev->obs[i].transports, " ");
        for (size_t k = 0; k < items.n; k++)
            if (sv_find(&v, items.v[k]) < 0)
                sv_push(&v, items.v[k]);
        sv_free(&items);
    }
    char *s = v.n ? sv_join(&v, " ") : xstrdup("none");
    sv_free(&v);
    return s;
}

static char *transports_of(const struct evidence *ev, enum path_kind kind)
{
    return transports_in(ev, kind, false);
}

char *verdict_summary(const struct evidence *ev, enum verdict v)
{
    size_t procs = count_processes(ev);
    char *tcp = transports_of(ev, PATH_TCP), *rdma = transports_of(ev, PATH_RDMA);
    char *local = transports_of(ev, PATH_LOCAL), *out = NULL;
    switch (v) {
    case VERDICT_RDMA:
        out = xasprintf("RDMA verified: %zu process%s, lanes %s, no TCP lanes", procs,
                        procs == 1 ? "" : "es", rdma);
        break;
    case VERDICT_FALLBACK: {
        const struct observation *o = NULL;
        for (size_t i = 0; i < ev->n && !o; i++)
            if (ev->obs[i].kind == PATH_TCP)
                o = &ev->obs[i];
        if (o)
            out = xasprintf("FALLBACK: process %ld on %s used %s (%s)", o->pid,
                            o->host ? o->host : "?", tcp, o->where);
        else
            out = xstrdup("FALLBACK: NCCL found no RDMA device (NET/IB : No device found) and "
                          "uses sockets");
        break;
    }
    case VERDICT_LOCAL: {
        /* UCX 1.14+ says when TCP (or RDMA) connects ranks of one node:
         * never call that shared memory. */
        char *tcp_in = transports_in(ev, PATH_TCP, true);
        if (strcmp(tcp_in, "none") != 0)
            out = xasprintf("local only: %zu process%s within one node, over TCP (%s), not shared "
                            "memory; no path left the node", procs, procs == 1 ? "" : "es",
                            tcp_in);
        else
            out = xasprintf("local only: %zu process%s on shared memory (%s), no path left the "
                            "node", procs, procs == 1 ? "" : "es", local);
        free(tcp_in);
        break;
    }
    case VERDICT_UNKNOWN:
        out = xasprintf("no transport evidence in %llu lines of %u file%s (hint: UCX logs at "
                        "UCX_LOG_LEVEL=info, NCCL at NCCL_DEBUG=INFO)", ev->lines, ev->files,
                        ev->files == 1 ? "" : "s");
        break;
    }
    free(tcp);
    free(rdma);
    free(local);
    return out;
}

void evidence_print_json(const struct evidence *ev, enum verdict v, FILE *out)
{
    struct json j;
    json_init(&j, out);
    json_begin_object(&j, NULL);
    json_string(&j, "verdict", verdict_name(v));
    char *summary = verdict_summary(ev, v);
    json_string(&j, "summary", summary);
    free(summary);
    json_int(&j, "files", ev->files);
    json_int(&j, "lines", (int64_t)ev->lines);
    json_bool(&j, "nccl_no_device", ev->nccl_no_device);
    json_begin_array(&j, "observations");
    for (size_t i = 0; i < ev->n; i++) {
        const struct observation *o = &ev->obs[i];
        json_begin_object(&j, NULL);
        json_string(&j, "family", o->family);
        json_string(&j, "host", o->host);
        if (o->pid >= 0)
            json_int(&j, "pid", o->pid);
        else
            json_null(&j, "pid");
        json_string(&j, "scope", path_scope_name(o->scope));
        json_string(&j, "path", path_kind_name(o->kind));
        json_string(&j, "transports", o->transports);
        json_int(&j, "count", o->count);
        json_string(&j, "where", o->where);
        json_string(&j, "line", o->line);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
}

size_t evidence_dir_pids(const char *dir, long *pids, size_t max)
{
    struct dirent **names;
    int n = scandir(dir, &names, not_dot, alphasort);
    size_t count = 0;
    for (int i = 0; i < n; i++) {
        char *host;
        long pid;
        origin_from_name(names[i]->d_name, &host, &pid);
        if (host && pid > 0 && count < max)
            pids[count++] = pid;
        free(host);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    return count;
}
