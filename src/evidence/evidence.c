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

/* "2025-05-16": each test reads no further than the string goes. */
static bool date_at(const char *s)
{
    return strspn(s, "0123456789") == 4 && s[4] == '-' && strspn(s + 5, "0123456789") == 2 &&
           s[7] == '-';
}

/* A date and time as log exporters and launchers put them in front:
 * "2025-05-16T16:39:55.218-07:00", "2025-05-16 16:39:55,123". */
static const char *after_timestamp(const char *s)
{
    if (!date_at(s))
        return s;
    const char *t = s + strcspn(s, " T");
    if (*t == 'T' || (*t == ' ' && strspn(t + 1, "0123456789") == 2 && t[3] == ':'))
        t += 1 + strcspn(t + 1, " ");
    return t + strspn(t, " ");
}

const char *line_body(const char *line)
{
    const char *s = line, *was;
    do {
        was = s;
        s += strspn(s, " \t");
        if (*s == '|')                       /* an exported log's columns */
            s += 1 + strspn(s + 1, " ");
        s = after_timestamp(s);
        if (*s == '[' && date_at(s + 1)) {
            const char *e = strchr(s, ']');     /* NCCL 2.26+: "[2025-10-16 22:16:08] " */
            if (e && after_timestamp(s + 1) != s + 1)
                s = e + 1 + strspn(e + 1, " ");
        }
        if (*s == '|')
            s += 1 + strspn(s + 1, " ");
        if (*s == '[') {
            const char *t = s + 1 + strspn(s + 1, "0123456789,");
            /* torchrun --tee: "[default0]:", "[trainer1]:", a template's "[3]:" */
            const char *w = s + 1 + strspn(s + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                  "0123456789_-.|");
            if (w > s + 1 && *w == ']' && w[1] == ':')
                s = w[2] == ' ' ? w + 3 : w + 2;
            else if (t > s + 1 && *t == ']' && t[1] == '<') {   /* Open MPI's --tag-output */
                const char *e = strstr(t, ">:");
                if (e)
                    s = e[2] == ' ' ? e + 3 : e + 2;
            } else if (t > s + 1 && *t == ']' && t[1] == ' ' && !memchr(s, ',', (size_t)(t - s))) {
                s = t + 2;                    /* a rank's number: "[155] " */
            }
        } else {
            size_t d = strspn(s, "0123456789");
            if (d > 0 && s[d] == ':' && s[d + 1] == ' ')   /* srun --label */
                s += d + 2;
        }
    } while (s != was);
    return s;
}

void line_origin(const char *line, const char *host, long pid, struct line_origin *o)
{
    o->host = host ? xstrdup(host) : NULL;
    o->pid = pid;
    const char *s = line;
    if (*s == '[') {
        const char *b = strstr(s, "] [");
        const char *close = strchr(s, ']');
        size_t hl;
        if (b && isdigit((unsigned char)s[1])) {
            /* UCX: "[1795949793.45] [vm:3251 :0] ..." */
            s = b + 3;
            hl = strcspn(s, ":]");
            if (s[hl] == ':') {
                free(o->host);
                o->host = xstrndup(s, hl);
                o->pid = strtol(s + hl + 1, NULL, 10);
            }
        } else if (close && (hl = strcspn(s + 1, ":]#")) && s[1 + hl] == ':' &&
                   isdigit((unsigned char)s[2 + hl])) {
            /* Open MPI: "[node01:04321] select: ..." */
            free(o->host);
            o->host = xstrndup(s + 1, hl);
            o->pid = strtol(s + 2 + hl, NULL, 10);
        } else if (close && s[1 + hl] == '#' && strchr(s, '@') && strchr(s, '@') < close) {
            /* Intel MPI with I_MPI_DEBUG=+N: "[0#3520@clusternode1] MPI startup(): ..." */
            const char *at = strchr(s, '@');
            free(o->host);
            o->host = xstrndup(at + 1, (size_t)(close - at - 1));
            o->pid = strtol(s + 2 + hl, NULL, 10);
        }
        return;
    }
    /* NCCL: "gpu01:12345:12345 [0] NCCL INFO ..." */
    size_t hl = strcspn(s, ": ");
    if (s[hl] == ':' && isdigit((unsigned char)s[hl + 1]) && strstr(s, " NCCL ")) {
        free(o->host);
        o->host = hl ? xstrndup(s, hl) : NULL;   /* ":22901:22901 [0] NCCL": no name */
        o->pid = strtol(s + hl + 1, NULL, 10);
    }
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static size_t hash_str(size_t h, const char *s)
{
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h * 31 + 7;
}

static size_t hash_proc(const char *host, long pid)
{
    return hash_str(14695981039346656037u, host) ^ ((size_t)pid * 2654435761u);
}

static size_t hash_obs(const struct observation *o)
{
    size_t h = hash_proc(o->host, o->pid);
    h = hash_str(h, o->family);
    h = hash_str(h, o->transports);
    return h ^ ((size_t)o->scope << 8) ^ ((size_t)o->kind << 16);
}

static bool same_obs(const struct observation *a, const struct observation *b)
{
    return a->pid == b->pid && a->scope == b->scope && a->kind == b->kind &&
           same(a->host, b->host) && strcmp(a->family, b->family) == 0 &&
           strcmp(a->transports, b->transports) == 0;
}

static bool same_proc(const struct observation *a, const struct observation *b)
{
    return a->pid == b->pid && same(a->host, b->host);
}

/* Slot of `o` in an index of observation numbers + 1 (0: empty). */
static size_t *slot_of(size_t *index, size_t cap, const struct evidence *ev,
                       const struct observation *o, bool proc)
{
    size_t i = (proc ? hash_proc(o->host, o->pid) : hash_obs(o)) & (cap - 1);
    while (index[i] && !(proc ? same_proc : same_obs)(&ev->obs[index[i] - 1], o))
        i = (i + 1) & (cap - 1);
    return &index[i];
}

/* Keep the index at most half full; `count` entries are in it. */
static void index_room(size_t **index, size_t *cap, size_t count, const struct evidence *ev,
                       bool proc)
{
    if (*cap && (count + 1) * 2 <= *cap)
        return;
    size_t ncap = *cap ? *cap * 2 : 64, *old = *index, ocap = *cap;
    *index = xcalloc(ncap, sizeof(**index));
    *cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i])
            *slot_of(*index, ncap, ev, &ev->obs[old[i] - 1], proc) = old[i];
    free(old);
}

void evidence_failed(struct evidence *ev, const char *line, const char *where)
{
    if (ev->failure)
        return;
    size_t len = strlen(line);
    ev->failure = trim_dup(line, len < MAX_LINE_KEPT ? len : MAX_LINE_KEPT);
    ev->failure_where = xstrdup(where);
}

void evidence_version(struct evidence *ev, const char *family, const char *version, size_t len)
{
    char *v = xasprintf("%s %.*s", family, (int)len, version);
    if (sv_find(&ev->versions, v) < 0 && ev->versions.n < 16)
        sv_push(&ev->versions, v);
    free(v);
}

void evidence_add(struct evidence *ev, const char *family, const char *host, long pid,
                  enum path_scope scope, enum path_kind kind, const char *transports,
                  const char *line, const char *where)
{
    struct observation key = {.family = (char *)family, .host = (char *)host, .pid = pid,
                              .scope = scope, .kind = kind, .transports = (char *)transports};
    index_room(&ev->index, &ev->index_cap, ev->n, ev, false);
    size_t *slot = slot_of(ev->index, ev->index_cap, ev, &key, false);
    if (*slot) {
        ev->obs[*slot - 1].count++;
        return;
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
    *slot = ev->n;
    index_room(&ev->procs, &ev->procs_cap, ev->nprocs, ev, true);
    size_t *ps = slot_of(ev->procs, ev->procs_cap, ev, o, true);
    if (!*ps) {
        *ps = ev->n;
        ev->nprocs++;
    }
    /* TCP on a path that may leave the node is a fallback; RDMA is the goal
     * wherever it carries the traffic (UCX 1.14+ says intra-node for RDMA
     * between ranks of one node: RDMA carried it); shared memory, self, and
     * TCP within the node only mean the job never left the node. */
    bool may_leave = scope == SCOPE_INTER || scope == SCOPE_UNKNOWN;
    if (kind == PATH_TCP && may_leave)
        ev->tcp_leaving = true;
    else if (kind == PATH_RDMA)
        ev->rdma = true;
    else if (kind == PATH_LOCAL || kind == PATH_SELF || scope == SCOPE_INTRA)
        ev->local = true;
}

bool evidence_parse_line(struct evidence *ev, const char *line, const char *where,
                         const char *host, long pid)
{
    ev->lines++;
    const char *body = line_body(line);
    for (size_t i = 0; i < nlog_families; i++)
        if (log_families[i].wanted(body) && log_families[i].parse(ev, body, where, host, pid))
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

bool evidence_own_file(const char *name)
{
    return strcmp(name, "verdict.json") == 0 || strcmp(name, "placement.txt") == 0;
}

/* A directory's entries to read: not hidden, not rdmarun's own files. */
static int log_entry(const struct dirent *d)
{
    return d->d_name[0] != '.' && !evidence_own_file(d->d_name);
}

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
    int n = scandir(path, &names, log_entry, alphasort);
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
    free(ev->index);
    free(ev->procs);
    free(ev->failure);
    free(ev->failure_where);
    free(ev->nccl_gdr_off);
    free(ev->nccl_no_device_proc);
    sv_free(&ev->versions);
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

/* TCP that may leave the node is a fallback; RDMA that was chosen and then
 * failed carried nothing; paths within one node are local, unless the job
 * spans several nodes and the log shows nothing between them. */
enum verdict evidence_verdict(const struct evidence *ev)
{
    if (ev->tcp_leaving || (ev->nccl_no_device && !ev->rdma))
        return VERDICT_FALLBACK;
    if (ev->failure)
        return VERDICT_UNKNOWN;
    if (ev->rdma)
        return VERDICT_RDMA;
    return ev->local && ev->nodes <= 1 ? VERDICT_LOCAL : VERDICT_UNKNOWN;
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

char *evidence_reason(const struct evidence *ev)
{
    if (ev->failure)
        return xasprintf("no verdict: RDMA was chosen and then failed, so no data moved over it: "
                         "%s (%s)", ev->failure, ev->failure_where);
    if (ev->local && ev->nodes > 1)
        return xasprintf("no verdict: the job spans %ld nodes but the log shows only paths "
                         "within a node (hint: NCCL_DEBUG_SUBSYS=INIT,NET prints the network "
                         "channels)", ev->nodes);
    if (ev->n)
        return xasprintf("no verdict: %zu report%s of %zu process%s name no transport it could "
                         "judge", ev->n, ev->n == 1 ? "" : "s", ev->nprocs,
                         ev->nprocs == 1 ? "" : "es");
    return xasprintf("no transport evidence in %llu lines of %u file%s (hint: UCX logs at "
                     "UCX_LOG_LEVEL=info, NCCL at NCCL_DEBUG=INFO)", ev->lines, ev->files,
                     ev->files == 1 ? "" : "s");
}

char *verdict_summary(const struct evidence *ev, enum verdict v)
{
    size_t procs = ev->nprocs;
    char *tcp = transports_of(ev, PATH_TCP), *rdma = transports_of(ev, PATH_RDMA);
    char *local = transports_of(ev, PATH_LOCAL), *out = NULL;
    switch (v) {
    case VERDICT_RDMA: {
        char *gdr = nccl_gdr_words(ev);
        out = xasprintf("RDMA verified: %zu process%s, lanes %s, no TCP lanes%s%s", procs,
                        procs == 1 ? "" : "es", rdma, gdr ? "; " : "", gdr ? gdr : "");
        free(gdr);
        break;
    }
    case VERDICT_FALLBACK: {
        const struct observation *o = NULL;
        for (size_t i = 0; i < ev->n && !o; i++)
            if (ev->obs[i].kind == PATH_TCP)
                o = &ev->obs[i];
        if (o && ev->rdma) {
            char share[80] = "";
            if (ev->tcp_share > 0)
                snprintf(share, sizeof(share), " (%d%% of one protocol's, as UCX's table says)",
                         ev->tcp_share);
            out = xasprintf("FALLBACK: process %ld on %s used %s (%s) beside RDMA lanes %s: part "
                            "of the traffic goes over TCP%s", o->pid,
                            o->host ? o->host : "?", tcp, o->where, rdma, share);
        } else if (o)
            out = xasprintf("FALLBACK: process %ld on %s used %s (%s)", o->pid,
                            o->host ? o->host : "?", tcp, o->where);
        else
            out = xasprintf("FALLBACK: %s%sNCCL found no RDMA device (NET/IB : No device found) "
                            "and uses sockets", ev->nccl_no_device_proc ? ev->nccl_no_device_proc
                            : "", ev->nccl_no_device_proc ? ": " : "");
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
        out = evidence_reason(ev);
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
    /* What explains the verdict: the log families and versions seen, the
     * reason when there is none. */
    struct strvec fams = {0};
    for (size_t i = 0; i < ev->n; i++)
        if (sv_find(&fams, ev->obs[i].family) < 0)
            sv_push(&fams, ev->obs[i].family);
    json_begin_array(&j, "families");
    for (size_t i = 0; i < fams.n; i++)
        json_string(&j, NULL, fams.v[i]);
    json_end_array(&j);
    sv_free(&fams);
    json_begin_array(&j, "versions");
    for (size_t i = 0; i < ev->versions.n; i++)
        json_string(&j, NULL, ev->versions.v[i]);
    json_end_array(&j);
    if (v == VERDICT_UNKNOWN) {
        char *why = evidence_reason(ev);
        json_string(&j, "reason", why);
        free(why);
    }
    if (ev->failure) {
        json_string(&j, "failure", ev->failure);
        json_string(&j, "failure_where", ev->failure_where);
    }
    if (ev->nodes > 1)
        json_int(&j, "nodes", ev->nodes);
    if (ev->tcp_share > 0)
        json_int(&j, "tcp_share_percent", ev->tcp_share);
    if (ev->nccl_gdr_channels + ev->nccl_staged_channels) {
        json_begin_object(&j, "nccl_channels");
        json_int(&j, "gdrdma", (int64_t)ev->nccl_gdr_channels);
        json_int(&j, "host_staged", (int64_t)ev->nccl_staged_channels);
        json_bool(&j, "gdr_capable", ev->nccl_gdr_capable);
        json_string(&j, "gdr_disabled", ev->nccl_gdr_off);
        json_end_object(&j);
    }
    if (ev->ncounters) {
        /* Every delta, known or not, and the words for what is not traffic. */
        json_begin_array(&j, "counters");
        for (size_t i = 0; i < ev->ncounters; i++) {
            const struct counter_growth *g = &ev->counters[i];
            json_begin_object(&j, NULL);
            json_string(&j, "port", g->port);
            json_begin_object(&j, "grew");
            for (size_t k = 0; k < g->names.n; k++)
                json_int(&j, g->names.v[k], g->deltas[k]);
            json_end_object(&j);
            json_begin_object(&j, "families");
            for (int fam = 0; fam < COUNTER_FAMILIES; fam++)
                json_int(&j, counter_family_names[fam], counter_growth_sum(g, fam));
            json_end_object(&j);
            char *words = counter_growth_words(g);
            json_string(&j, "words", words);
            free(words);
            json_end_object(&j);
        }
        json_end_array(&j);
    }
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

size_t evidence_pids_on(const struct evidence *ev, const char *host, long *pids, size_t max)
{
    size_t count = 0;
    for (size_t i = 0; i < ev->procs_cap && count < max; i++) {
        const struct observation *o = ev->procs[i] ? &ev->obs[ev->procs[i] - 1] : NULL;
        if (o && o->pid > 0 && (!o->host || !host || strcmp(o->host, host) == 0))
            pids[count++] = o->pid;
    }
    return count;
}
