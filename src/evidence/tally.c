/* The evidence as counts: classes (family, scope, path, lanes), hosts and
 * their processes, and which processes of a host reported which class.
 * Nothing here grows with the lines read, and a million processes of a few
 * classes on ten thousand hosts take a few megabytes: a host's processes are
 * runs of pids (pidset.h). Every kind of evidence is kept at any size: past
 * the caps, classes merge per (scope, path) and hosts into one, so that
 * counts become lower bounds but no TCP lane is ever dropped. */
#include "evidence/internal.h"
#include "util/hashtab.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

#define MAX_CLASSES 4096        /* distinct lane sets; more merge per (scope, path) */
#define MAX_HOSTS 262144        /* more hosts count as one */
#define MAX_PAIRS 1048576       /* (host, class) sets; more leave counts lower bounds */
#define MAX_TABLES 65536        /* protocol tables open at once */
#define MAX_LINE_KEPT 400       /* characters of a line kept as the example */
#define OVERFLOW_LANES "(other lanes)"
#define OVERFLOW_HOST "(other hosts)"

static size_t hash_str(size_t h, const char *s)
{
    return (size_t)(s ? fnv1a(h, s, strlen(s)) : h) * 31 + 7;
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* A class's identity. */
struct class_key {
    const char *family, *transports;
    enum path_scope scope;
    enum path_class cls;
    bool selected;
};

static size_t hash_key(const struct class_key *k)
{
    size_t h = hash_str(hash_str(14695981039346656037u, k->family), k->transports);
    return hash_mix(h, (size_t)k->scope << 8 | (size_t)k->cls << 1 | k->selected);
}

static bool is_key(const struct observation *o, const struct class_key *k)
{
    return o->scope == k->scope && o->cls == k->cls && o->selected == k->selected &&
           strcmp(o->family, k->family) == 0 && strcmp(o->transports, k->transports) == 0;
}

/* The classes' and hosts' indexes: entries are a number + 1 in ev->obs or
 * ev->hosts (0: free), hashed through the evidence they point into. */
static bool number_used(const void *e)
{
    return *(const size_t *)e != 0;
}

static size_t class_hash(const void *e, const void *ev)
{
    const struct observation *o = &((const struct evidence *)ev)->obs[*(const size_t *)e - 1];
    struct class_key k = {o->family, o->transports, o->scope, o->cls, o->selected};
    return hash_key(&k);
}

static bool class_holds(const void *e, const void *key, const void *ev)
{
    return is_key(&((const struct evidence *)ev)->obs[*(const size_t *)e - 1], key);
}

static size_t host_hash(const void *e, const void *ev)
{
    return hash_str(0xcbf29ce484222325u,
                    ((const struct evidence *)ev)->hosts[*(const size_t *)e - 1].name);
}

static bool host_holds(const void *e, const void *name, const void *ev)
{
    return same(((const struct evidence *)ev)->hosts[*(const size_t *)e - 1].name, name);
}

static const struct hashtab_ops class_ops = {sizeof(size_t), number_used, class_hash,
                                             class_holds};
static const struct hashtab_ops host_ops = {sizeof(size_t), number_used, host_hash, host_holds};

/* The (host, class) pairs and the open tables: entries that begin with a
 * struct ev_slot, whose host + 1 is 0 in a free one. */
static bool slot_used(const void *e)
{
    return ((const struct ev_slot *)e)->host != 0;
}

static size_t slot_hash(const void *e, const void *ctx)
{
    (void)ctx;
    const struct ev_slot *k = e;
    return hash_mix(k->host, (size_t)k->key);
}

static bool slot_holds(const void *e, const void *key, const void *ctx)
{
    (void)ctx;
    const struct ev_slot *a = e, *b = key;
    return a->host == b->host && a->key == b->key;
}

static const struct hashtab_ops pair_ops = {sizeof(struct ev_pair), slot_used, slot_hash,
                                            slot_holds};
static const struct hashtab_ops table_ops = {sizeof(struct ev_table), slot_used, slot_hash,
                                             slot_holds};

/* The class of key, made when new; its number. */
static size_t class_of(struct evidence *ev, struct class_key k, const char *host, long pid,
                       const char *line, const char *where)
{
    hashtab_reserve(&ev->class_index, &class_ops, ev);
    size_t *slot = hashtab_find(&ev->class_index, &class_ops, hash_key(&k), &k, ev);
    if (*slot)
        return *slot - 1;
    if (ev->n >= MAX_CLASSES && strcmp(k.transports, OVERFLOW_LANES) != 0) {
        /* Hostile or strange input: its lanes merge, its path and scope stay. */
        ev->classes_full = true;
        k.transports = OVERFLOW_LANES;
        return class_of(ev, k, host, pid, line, where);
    }
    GROW(ev->obs, ev->cap, ev->n + 1);
    struct observation *o = &ev->obs[ev->n];
    memset(o, 0, sizeof(*o));
    o->family = xstrdup(k.family);
    o->transports = xstrdup(k.transports);
    o->scope = k.scope;
    o->cls = k.cls;
    o->kind = path_class_kind(k.cls);
    o->selected = k.selected;
    o->host = host ? xstrdup(host) : NULL;
    o->pid = pid;
    size_t len = strlen(line);
    o->line = trim_dup(line, len < MAX_LINE_KEPT ? len : MAX_LINE_KEPT);
    o->where = xstrdup(where);
    *slot = ++ev->n;
    hashtab_added(&ev->class_index);
    return ev->n - 1;
}

/* The host's number + 1, made when new and `create`; 0 when none. */
static size_t host_lookup(struct evidence *ev, const char *name, bool create)
{
    hashtab_reserve(&ev->host_index, &host_ops, ev);
    size_t *slot = hashtab_find(&ev->host_index, &host_ops, hash_str(0xcbf29ce484222325u, name),
                                name, ev);
    if (*slot || !create)
        return *slot;
    if (ev->nhosts >= MAX_HOSTS && !same(name, OVERFLOW_HOST)) {
        ev->hosts_full = true;
        return host_lookup(ev, OVERFLOW_HOST, true);
    }
    GROW(ev->hosts, ev->hosts_cap, ev->nhosts + 1);
    struct ev_host *h = &ev->hosts[ev->nhosts];
    memset(h, 0, sizeof(*h));
    h->name = name ? xstrdup(name) : NULL;
    *slot = ++ev->nhosts;
    hashtab_added(&ev->host_index);
    return ev->nhosts;
}

/* The (host, class) set, made when new; NULL past MAX_PAIRS. */
static struct ev_pair *pair_of(struct evidence *ev, size_t host, size_t cls, bool *made)
{
    struct ev_slot key = {(uint32_t)host + 1, (long)cls + 1};
    *made = false;
    if (ev->pairs.n < MAX_PAIRS)
        hashtab_reserve(&ev->pairs, &pair_ops, NULL);
    struct ev_pair *p = hashtab_find(&ev->pairs, &pair_ops, slot_hash(&key, NULL), &key, NULL);
    if (p->at.host)
        return p;
    if (ev->pairs.n >= MAX_PAIRS) {
        ev->pairs_full = true;   /* the class's process count is a lower bound */
        return NULL;
    }
    p->at = key;
    hashtab_added(&ev->pairs);
    *made = true;
    return p;
}

static void record(struct evidence *ev, struct class_key k, const char *host, long pid,
                   const char *line, const char *where)
{
    size_t cls = class_of(ev, k, host, pid, line, where);
    size_t hn = host_lookup(ev, host, true) - 1;
    struct ev_host *h = &ev->hosts[hn];
    if (pidset_add(&h->procs, pid))
        ev->nprocs++;
    struct observation *o = &ev->obs[cls];
    o->count++;
    bool made;
    struct ev_pair *p = pair_of(ev, hn, cls, &made);
    if (made)
        o->hosts++;
    if (!p || !pidset_add(&p->procs, pid))
        return;
    /* A process new to this class: the first is kept whole, two more by name. */
    if (o->procs++ == 0 || o->nalso >= sizeof(o->also) / sizeof(*o->also))
        return;
    o->also[o->nalso].host = h->name ? xstrdup(h->name) : NULL;
    o->also[o->nalso].pid = pid;
    o->also[o->nalso].where = xstrdup(where);
    o->nalso++;
}

void evidence_add(struct evidence *ev, const char *family, const char *host, long pid,
                  enum path_scope scope, enum path_class cls, const char *transports,
                  const char *line, const char *where)
{
    record(ev, (struct class_key){family, transports, scope, cls, false}, host, pid, line,
           where);
}

void evidence_selected(struct evidence *ev, const char *family, const char *host, long pid,
                       enum path_class cls, const char *what, const char *line,
                       const char *where)
{
    enum path_scope scope = path_class_kind(cls) == PATH_LOCAL ? SCOPE_INTRA : SCOPE_UNKNOWN;
    record(ev, (struct class_key){family, what, scope, cls, true}, host, pid, line, where);
}

/* The first line of a kind, kept. */
static void keep_first(char **line_out, char **where_out, const char *line, const char *where)
{
    if (*line_out)
        return;
    size_t len = strlen(line);
    *line_out = trim_dup(line, len < MAX_LINE_KEPT ? len : MAX_LINE_KEPT);
    *where_out = xstrdup(where);
}

void evidence_failed(struct evidence *ev, const char *line, const char *where)
{
    keep_first(&ev->failure, &ev->failure_where, line, where);
}

void evidence_fault(struct evidence *ev, const char *line, const char *where)
{
    keep_first(&ev->fault, &ev->fault_where, line, where);
}

void evidence_synd(struct evidence *ev, const char *line, const char *where)
{
    free(ev->synd);
    free(ev->synd_where);
    ev->synd = ev->synd_where = NULL;
    keep_first(&ev->synd, &ev->synd_where, line, where);
}

void evidence_error(struct evidence *ev, const char *line, const char *where)
{
    keep_first(&ev->error, &ev->error_where, line, where);
}

void evidence_abort(struct evidence *ev, const char *line, const char *where)
{
    keep_first(&ev->abort, &ev->abort_where, line, where);
}

void evidence_rank_host(struct evidence *ev, const char *host)
{
    if (!ev->listed_host)
        ev->listed_host = xstrdup(host);
    else if (strcmp(ev->listed_host, host) != 0)
        ev->listed_hosts = true;
}

void evidence_version(struct evidence *ev, const char *family, const char *version, size_t len)
{
    char *v = xasprintf("%s %.*s", family, (int)len, version);
    if (sv_find(&ev->versions, v) < 0 && ev->versions.n < 16)
        sv_push(&ev->versions, v);
    free(v);
}

struct ev_table *evidence_table(struct evidence *ev, const char *host, long pid, bool create)
{
    struct ev_slot key = {(uint32_t)host_lookup(ev, host, create), pid};
    struct ev_table *t = NULL;
    if (key.host)
        t = hashtab_find(&ev->tables, &table_ops, slot_hash(&key, NULL), &key, NULL);
    if (t && t->at.host)
        return t;
    if (!create || ev->tables.n >= MAX_TABLES)
        return NULL;   /* past the cap its rows count as rows pasted without a header */
    hashtab_reserve(&ev->tables, &table_ops, NULL);
    t = hashtab_find(&ev->tables, &table_ops, slot_hash(&key, NULL), &key, NULL);
    *t = (struct ev_table){.at = key};
    hashtab_added(&ev->tables);
    return t;
}

void evidence_table_end(struct evidence *ev, const char *host, long pid)
{
    struct ev_table *t = evidence_table(ev, host, pid, false);
    if (!t)
        return;
    hashtab_remove(&ev->tables, &table_ops, t, NULL);
}

size_t evidence_pids_on(const struct evidence *ev, const char *host, long *pids, size_t max)
{
    size_t count = 0;
    for (size_t i = 0; i < ev->nhosts && count < max; i++) {
        const struct ev_host *h = &ev->hosts[i];
        if (h->name && host && strcmp(h->name, host) != 0)
            continue;
        for (size_t r = 0; r < h->procs.nruns && count < max; r++) {
            const struct pid_run *run = &h->procs.runs[r];
            for (long k = 0; k < run->count && count < max; k++)
                if (run->first + k * run->step > 0)
                    pids[count++] = run->first + k * run->step;
        }
        count += pidset_scattered(&h->procs, pids + count, max - count);
    }
    return count;
}

void evidence_tally_free(struct evidence *ev)
{
    for (size_t i = 0; i < ev->n; i++) {
        struct observation *o = &ev->obs[i];
        free(o->family);
        free(o->host);
        free(o->transports);
        free(o->line);
        free(o->where);
        for (unsigned k = 0; k < o->nalso; k++) {
            free(o->also[k].host);
            free(o->also[k].where);
        }
    }
    free(ev->obs);
    hashtab_free(&ev->class_index);
    for (size_t i = 0; i < ev->nhosts; i++) {
        free(ev->hosts[i].name);
        pidset_free(&ev->hosts[i].procs);
    }
    free(ev->hosts);
    hashtab_free(&ev->host_index);
    for (size_t i = 0; i < ev->pairs.cap; i++)
        pidset_free(&((struct ev_pair *)hashtab_at(&ev->pairs, &pair_ops, i))->procs);
    hashtab_free(&ev->pairs);
    hashtab_free(&ev->tables);
    free(ev->listed_host);
}
