#include "preflight/path_report.h"
#include "facts/counters.h"
#include "plan/path.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 65536

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The line names `name` as a word of its own: not inside another name
 * ("vm" is not in "prterun-vm-6569"); a domain may follow ("c.cluster"). */
static bool name_char(char c, const char *also)
{
    return c && (isalnum((unsigned char)c) || strchr(also, c));
}

static bool mentions(const char *line, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = line; len && (p = strstr(p, name)); p++)
        if (!name_char(p > line ? p[-1] : ' ', "-_.") && !name_char(p[len], "-_"))
            return true;
    return false;
}

/* A launcher's line that reports a problem (ssh's, mpirun's, PRRTE's,
 * srun's), not one that only names a node ("HNP daemon : ... on node a"). */
static bool says_trouble(const char *line)
{
    static const char *const words[] = {"ssh", "ould not", "annot", "nable", "lost",
                                        "efused", "timed out", "imed out", "o route",
                                        "not known", "denied", "Remote daemon", "error",
                                        "rror", "failed", "down", NULL};
    for (size_t i = 0; words[i]; i++)
        if (strstr(line, words[i]))
            return true;
    return false;
}

const struct path_same path_same_keys[] = {
    {"ll", "link layer"}, {"mtu", "MTU"}, {"netmtu", "netdev MTU"}, {"rate", "rate (Gb/s)"},
    {"gtype", "GID type"}, {"gidx", "GID index"}, {"vlan", "VLAN"}, {"driver", "driver"},
    {"fw", "firmware"}, {"board", "board"}, {"kernel", "kernel"}, {"rdmacore", "rdma-core"},
    {"ucx", "UCX"}, {"mpi", "MPI"}, {"memlock", "memlock (KiB)"}, {NULL, NULL}};

size_t path_edges(int n, bool all_pairs, struct path_edge **out)
{
    *out = NULL;
    if (n <= 0)
        return 0;
    if (n == 1 || !all_pairs || n > PATH_ALL_PAIRS_MAX) {
        *out = xcalloc((size_t)n, sizeof(**out));
        for (int i = 0; i < n; i++)
            (*out)[i] = (struct path_edge){i, (i + 1) % n};
        return (size_t)n;
    }
    size_t k = 0;
    *out = xcalloc((size_t)n * (size_t)(n - 1), sizeof(**out));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j)
                (*out)[k++] = (struct path_edge){i, j};
    return k;
}

/* The value of KEY in "KEY=VALUE KEY=VALUE ... err=rest", malloc'd, or NULL. */
static char *word_value(const char *s, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = s; *p;) {
        while (*p == ' ')
            p++;
        if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
            const char *v = p + kl + 1;
            return strcmp(key, "err") == 0 ? xstrdup(v) : xstrndup(v, strcspn(v, " "));
        }
        if (strncmp(p, "err=", 4) == 0)
            break;
        p += strcspn(p, " ");
    }
    return NULL;
}

/* A step is written with '_' for its spaces ("first_completion"). */
static char *step_value(const char *s)
{
    char *v = word_value(s, "step");
    for (char *c = v; c && *c; c++)
        if (*c == '_')
            *c = ' ';
    return v;
}

static bool int_value(const char *s, const char *key, long lo, long hi, long *out)
{
    char *v = word_value(s, key);
    bool ok = v && parse_long(v, lo, hi, out);
    free(v);
    return ok;
}

static bool ensure_nodes(struct path_report *r, const char *s)
{
    long n;
    if (!int_value(s, "n", 1, MAX_NODES, &n))
        return r->n > 0;
    if (r->n == 0) {
        r->n = (int)n;
        r->nodes = xcalloc((size_t)n, sizeof(*r->nodes));
        struct path_edge *e;
        r->npairs = path_edges(r->n, r->all_pairs, &e);
        r->pairs = xcalloc(r->npairs, sizeof(*r->pairs));
        for (size_t i = 0; i < r->npairs; i++) {
            r->pairs[i].from = e[i].from;
            r->pairs[i].to = e[i].to;
        }
        free(e);
    }
    return n == r->n;
}

/* The pair from -> to, by its place in path_edges' order. */
static struct path_pair *pair_of(struct path_report *r, long from, long to)
{
    size_t i;
    if (r->n == 1 || !r->all_pairs || r->n > PATH_ALL_PAIRS_MAX)
        i = to == (from + 1) % r->n ? (size_t)from : r->npairs;
    else
        i = from == to ? r->npairs : (size_t)(from * (r->n - 1) + (to < from ? to : to - 1));
    return i < r->npairs ? &r->pairs[i] : NULL;
}

/* The words of a record as KEY=VALUE entries (for the node record). */
static void split_words(const char *s, struct strvec *out)
{
    for (const char *p = s; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (len && memchr(p, '=', len)) {
            char *w = xstrndup(p, len);
            sv_push(out, w);
            free(w);
        }
        p += len;
    }
}

bool path_report_line(struct path_report *r, const char *line)
{
    const char *s = strstr(line, PATH_TAG);
    if (!s) {
        if (r->said.n < 200 && *line)
            sv_push(&r->said, line);
        return false;
    }
    s += strlen(PATH_TAG);
    size_t kl = strcspn(s, " ");
    char *kind = xstrndup(s, kl);
    s += kl;
    long rank = -1, to = -1;
    if (!ensure_nodes(r, s) || !int_value(s, "r", 0, r->n - 1, &rank)) {
        free(kind);
        return true;   /* a record we cannot place: taken, not believed */
    }
    struct path_node *nd = &r->nodes[rank];
    if (strcmp(kind, "node") == 0) {
        nd->seen = true;
        sv_free(&nd->kv);
        split_words(s, &nd->kv);
    } else if (strcmp(kind, "fail") == 0) {
        nd->seen = true;
        free(nd->fail_step);
        free(nd->fail_err);
        nd->fail_step = step_value(s);
        nd->fail_err = word_value(s, "err");
    } else if (strcmp(kind, "counters") == 0) {
        sv_free(&nd->counters);
        split_words(s, &nd->counters);
    } else if (strcmp(kind, "done") == 0) {
        nd->done = true;
        char *t = word_value(s, "took");
        nd->took = t ? atof(t) : 0;
        free(t);
    } else if (strcmp(kind, "pair") == 0) {
        struct path_pair *p = NULL;
        if (int_value(s, "to", 0, r->n - 1, &to))
            p = pair_of(r, rank, to);
        else if (int_value(s, "from", 0, r->n - 1, &to))
            p = pair_of(r, to, rank);   /* a receiver's report on its sender's pair */
        char *ok = word_value(s, "ok");
        if (p && ok) {
            bool good = strcmp(ok, "1") == 0;
            if (!good || !p->seen) {
                p->ok = good;
                free(p->step);
                free(p->err);
                p->step = step_value(s);
                p->err = word_value(s, "err");
            }
            char *v;
            if ((v = word_value(s, "lat")))
                p->lat_us = atof(v);
            free(v);
            if ((v = word_value(s, "bw")))
                p->bw_mbps = atof(v);
            free(v);
            p->seen = true;
        }
        free(ok);
    }
    free(kind);
    return true;
}

void path_report_free(struct path_report *r)
{
    for (int i = 0; i < r->n; i++) {
        sv_free(&r->nodes[i].kv);
        sv_free(&r->nodes[i].counters);
        free(r->nodes[i].fail_step);
        free(r->nodes[i].fail_err);
    }
    for (size_t i = 0; i < r->npairs; i++) {
        free(r->pairs[i].step);
        free(r->pairs[i].err);
    }
    free(r->nodes);
    free(r->pairs);
    sv_free(&r->said);
    memset(r, 0, sizeof(*r));
}

size_t path_suspects(const struct path_report *r, int **suspects, int *good)
{
    *suspects = xcalloc((size_t)(r->n > 0 ? r->n : 1), sizeof(**suspects));
    *good = -1;
    bool *bad = xcalloc((size_t)(r->n > 0 ? r->n : 1), sizeof(*bad));
    for (int i = 0; i < r->n; i++)   /* answered, whole, and named: a partner to trust */
        bad[i] = !r->nodes[i].seen || !r->nodes[i].done || r->nodes[i].fail_step ||
                 !path_node_value(r, i, "host");
    for (size_t k = 0; k < r->npairs; k++)
        if (!r->pairs[k].seen || !r->pairs[k].ok) {
            bad[r->pairs[k].from] = true;
            bad[r->pairs[k].to] = true;
        }
    for (int i = 0; i < r->n && *good < 0; i++)
        if (!bad[i])
            *good = i;
    size_t n = 0;
    for (size_t k = 0; k < r->npairs; k++) {
        const struct path_pair *p = &r->pairs[k];
        if (p->seen && p->ok)
            continue;
        int ends[2] = {p->from, p->to};
        /* A node whose own step failed is named by that already. */
        if (r->nodes[p->from].fail_step || r->nodes[p->to].fail_step || p->from == p->to)
            continue;
        for (int e = 0; e < 2; e++) {
            /* once each, and only a node with a name to start its peer on */
            bool skip = !path_node_value(r, ends[e], "host");
            for (size_t m = 0; m < n && !skip; m++)
                skip = (*suspects)[m] == ends[e];
            if (!skip)
                (*suspects)[n++] = ends[e];
        }
    }
    free(bad);
    return n;
}

const char *path_node_value(const struct path_report *r, int i, const char *key)
{
    if (i < 0 || i >= r->n)
        return NULL;
    size_t kl = strlen(key);
    const struct strvec *kv = &r->nodes[i].kv;
    for (size_t k = 0; k < kv->n; k++)
        if (strncmp(kv->v[k], key, kl) == 0 && kv->v[k][kl] == '=')
            return kv->v[k] + kl + 1;
    return NULL;
}

static const char *val(const struct path_report *r, int i, const char *key)
{
    const char *v = path_node_value(r, i, key);
    return v ? v : "?";
}

char *path_node_name(const struct path_report *r, int i)
{
    const char *gidx = path_node_value(r, i, "gidx");
    if (!path_node_value(r, i, "host"))
        return xasprintf("node %d", i);
    if (!path_node_value(r, i, "dev"))
        return xstrdup(val(r, i, "host"));
    if (gidx && strcmp(gidx, "-1") != 0)
        return xasprintf("%s (%s:%s, GID %s %s)", val(r, i, "host"), val(r, i, "dev"),
                         val(r, i, "port"), gidx, val(r, i, "gtype"));
    return xasprintf("%s (%s:%s)", val(r, i, "host"), val(r, i, "dev"), val(r, i, "port"));
}

static bool differs(const struct path_report *r, int a, int b, const char *key)
{
    const char *x = path_node_value(r, a, key), *y = path_node_value(r, b, key);
    return x && y && strcmp(x, y) != 0;
}

/* Counters that grow when packets are lost or retried on the way: the
 * loss family of the counter table, and, for a driver's counter the table
 * does not know, a name that says so. */
static bool loss_counter(const char *name)
{
    static const char *const words[] = {"seq", "retry", "retrans", "timeout", "duplicate",
                                        "out_of", "nak", "discard", "rcv_err", NULL};
    enum counter_family fam = counter_family_of(name);
    for (size_t i = 0; fam == COUNTER_OTHER && words[i]; i++)
        if (strstr(name, words[i]))
            return true;
    return fam == COUNTER_LOSS;
}

/* "rxe0:1 on b counted completer_retry_err +12, rcvd_seq_err +3" or NULL. */
static char *loss_words(const struct path_report *r, int i)
{
    const struct strvec *c = &r->nodes[i].counters;
    char *s = NULL;
    for (size_t k = 0; k < c->n; k++) {
        if (!loss_counter(c->v[k]))
            continue;
        char *name = xstrndup(c->v[k], strcspn(c->v[k], "="));
        char *grown = s ? xasprintf("%s, %s +%s", s, name, strchr(c->v[k], '=') + 1)
                        : xasprintf("%s:%s on %s counted %s +%s", val(r, i, "dev"),
                                    val(r, i, "port"), val(r, i, "host"), name,
                                    strchr(c->v[k], '=') + 1);
        free(name);
        free(s);
        s = grown;
    }
    return s;
}

/* Growth of node i's counters that count loss, or packets. */
static long long grown(const struct path_report *r, int i, bool loss)
{
    const struct strvec *c = &r->nodes[i].counters;
    long long sum = 0;
    for (size_t k = 0; k < c->n; k++) {
        char *name = xstrndup(c->v[k], strcspn(c->v[k], "="));
        if (loss ? loss_counter(name) : strstr(name, "pkts") || strstr(name, "packets"))
            sum += atoll(strchr(c->v[k], '=') + 1);
        free(name);
    }
    return sum;
}

/* In a test that passed, a retry now and then is not worth a warning (an
 * ACK late under load); more than 1% of the packets is, or 10 retries where
 * no packet counter says how many went. */
static bool noticeable_loss(const struct path_report *r, int i)
{
    long long lost = grown(r, i, true), packets = grown(r, i, false);
    return packets ? lost * 100 > packets : lost >= 10;
}

static bool link_local(const char *gid)
{
    return gid && strncmp(gid, "fe80:", 5) == 0;
}

/* The likely cause of a failed pair from what both ends said, with a hint. */
static char *pair_cause(const struct path_report *r, int a, int b)
{
    int ends[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        const char *st = path_node_value(r, ends[k], "state");
        if (st && strcmp(st, "ACTIVE") != 0)
            return xasprintf("port DOWN: %s:%s on %s is %s (hint: 'ibv_devinfo -d %s' there; check "
                             "the cable, the switch port, 'ip link' of its netdev)",
                             val(r, ends[k], "dev"), val(r, ends[k], "port"),
                             val(r, ends[k], "host"), st, val(r, ends[k], "dev"));
    }
    if (differs(r, a, b, "ll"))
        return xasprintf("link layers differ: %s on %s, %s on %s (InfiniBand and Ethernet ports "
                         "do not reach each other)", val(r, a, "ll"), val(r, a, "host"),
                         val(r, b, "ll"), val(r, b, "host"));
    if (differs(r, a, b, "mtu"))
        return xasprintf("MTU differs: %s on %s (netdev %s), %s on %s (netdev %s); packets the "
                         "larger end sends are dropped (hint: the same MTU on every node's netdev "
                         "and switch port, or UCX_IB_PATH_MTU / NCCL_IB_MTU at the smaller)",
                         val(r, a, "mtu"), val(r, a, "host"), val(r, a, "netmtu"),
                         val(r, b, "mtu"), val(r, b, "host"), val(r, b, "netmtu"));
    if (differs(r, a, b, "gtype"))
        return xasprintf("GID types differ: %s on %s, %s on %s (hint: the same RoCE v2 GID index "
                         "on every node: UCX_IB_GID_INDEX, NCCL_IB_GID_INDEX)", val(r, a, "gtype"),
                         val(r, a, "host"), val(r, b, "gtype"), val(r, b, "host"));
    for (int k = 0; k < 2; k++)
        if (link_local(path_node_value(r, ends[k], "gid")))
            return xasprintf("GID index %s on %s is link-local (%s): it does not route beyond "
                             "one Ethernet segment (hint: the IPv4 RoCE v2 GID; 'show_gids')",
                             val(r, ends[k], "gidx"), val(r, ends[k], "host"),
                             val(r, ends[k], "gid"));
    for (int k = 0; k < 2; k++)
        if (strcmp(val(r, ends[k], "gtype"), "RoCE_v1") == 0)
            return xasprintf("%s uses a RoCE v1 GID (index %s): v1 does not cross an IP router "
                             "(hint: a RoCE v2 GID index)", val(r, ends[k], "host"),
                             val(r, ends[k], "gidx"));
    if (differs(r, a, b, "subnet"))
        return xasprintf("different subnets: %s on %s, %s on %s (RoCE v2 needs a route between "
                         "them; hint: the GID of an address in the job's subnet)",
                         val(r, a, "subnet"), val(r, a, "host"), val(r, b, "subnet"),
                         val(r, b, "host"));
    if (differs(r, a, b, "vlan"))
        return xasprintf("VLANs differ: %s on %s, %s on %s (hint: the GID of the same VLAN's "
                         "netdev on both)", val(r, a, "vlan"), val(r, a, "host"),
                         val(r, b, "vlan"), val(r, b, "host"));
    for (int k = 0; k < 2; k++) {
        char *loss = loss_words(r, ends[k]);
        if (loss) {
            char *s = xasprintf("packet loss: %s during the test (hint: PFC/ECN on the NIC and "
                                "the switch, cabling, 'ethtool -S')", loss);
            free(loss);
            return s;
        }
    }
    return xstrdup("no answer from the other end (hint: its route, firewalls (RoCE v2 is UDP "
                   "port 4791), the subnet manager and the partition key on InfiniBand)");
}

static void add(struct path_finding **out, size_t *n, size_t *cap, enum path_level level,
                char *text)
{
    GROW(*out, *cap, *n + 1);
    (*out)[(*n)++] = (struct path_finding){level, text};
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const struct path_report *r, bool latency)
{
    double *v = xcalloc(r->npairs + 1, sizeof(*v));
    size_t n = 0;
    for (size_t i = 0; i < r->npairs; i++)
        if (r->pairs[i].ok)
            v[n++] = latency ? r->pairs[i].lat_us : r->pairs[i].bw_mbps;
    qsort(v, n, sizeof(*v), cmp_double);
    double m = n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
    free(v);
    return m;
}

/* Pairs at more than twice the median latency or under half its bandwidth:
 * with three or more good pairs there is a median to stand out from. */
static void outliers(const struct path_report *r, struct path_finding **out, size_t *n,
                     size_t *cap)
{
    size_t good = 0;
    for (size_t i = 0; i < r->npairs; i++)
        good += r->pairs[i].ok;
    if (good < 3)
        return;
    double lat = median(r, true), bw = median(r, false);
    for (size_t i = 0; i < r->npairs; i++) {
        const struct path_pair *p = &r->pairs[i];
        if (!p->ok || !(p->lat_us > 2 * lat || p->bw_mbps < bw / 2))
            continue;
        char *a = path_node_name(r, p->from), *b = path_node_name(r, p->to);
        add(out, n, cap, PATH_WARN,
            xasprintf("slow path %s -> %s: latency %.1f us (median %.1f), bandwidth %.1f MB/s "
                      "(median %.1f)", a, b, p->lat_us, lat, p->bw_mbps, bw));
        free(a);
        free(b);
    }
}

/* Facts that should match on every node: with a majority, each node that
 * differs is named; without one, the key's values are listed. */
static void odd_ones(const struct path_report *r, struct path_finding **out, size_t *n,
                     size_t *cap)
{
    for (size_t k = 0; path_same_keys[k].key; k++) {
        const char *key = path_same_keys[k].key, *label = path_same_keys[k].label, *common = NULL;
        const char **vals = xcalloc((size_t)r->n + 1, sizeof(*vals));
        int best_count = 0, known = 0;
        for (int i = 0; i < r->n; i++)
            if ((vals[known] = path_node_value(r, i, key)))
                known++;
        qsort(vals, (size_t)known, sizeof(*vals), cmp_str);
        for (int i = 0, run = 1; i < known; i++, run++) {
            if (i + 1 < known && strcmp(vals[i], vals[i + 1]) == 0)
                continue;
            if (run > best_count)
                best_count = run, common = vals[i];
            run = 0;
        }
        bool same = known == 0 || strcmp(vals[0], vals[known - 1]) == 0;
        free(vals);
        if (same || known < 2)
            continue;
        bool majority = 2 * best_count > known;
        char *list = NULL;
        for (int i = 0; i < r->n; i++) {
            const char *v = path_node_value(r, i, key);
            if (!v || (majority && strcmp(v, common) == 0))
                continue;
            if (majority) {
                add(out, n, cap, PATH_WARN,
                    xasprintf("odd node out: %s has %s %s where the %d other%s %s",
                              val(r, i, "host"), label, v, best_count,
                              best_count > 1 ? "s have" : " has", common));
                continue;
            }
            char *s = xasprintf("%s%s%s %s", list ? list : "", list ? ", " : "",
                                val(r, i, "host"), v);
            free(list);
            list = s;
        }
        if (list)
            add(out, n, cap, PATH_WARN, xasprintf("%s differs between nodes: %s", label, list));
        free(list);
    }
}

/* Every name a node answered by: its host name, that name without its
 * domain, its addresses; sorted, for bsearch. */
static void answered_names(const struct path_report *r, struct strvec *out)
{
    for (int i = 0; i < r->n; i++) {
        const char *h = path_node_value(r, i, "host"), *ips = path_node_value(r, i, "ips");
        if (h) {
            sv_push(out, h);
            char *shortname = xstrndup(h, strcspn(h, "."));
            sv_push(out, shortname);
            free(shortname);
        }
        if (ips)
            sv_split(out, ips, ",");
    }
    if (out->n)
        qsort(out->v, out->n, sizeof(*out->v), cmp_str);
}

static bool host_answered(const struct strvec *names, const char *host)
{
    char *shortname = xstrndup(host, strcspn(host, "."));
    bool found = names->n && (bsearch(&host, names->v, names->n, sizeof(*names->v), cmp_str) ||
                              bsearch(&shortname, names->v, names->n, sizeof(*names->v), cmp_str));
    free(shortname);
    return found;
}

void path_silent_hosts(const struct path_report *r, const struct strvec *hosts,
                       struct strvec *out)
{
    struct strvec names = {0};
    answered_names(r, &names);
    for (size_t i = 0; hosts && i < hosts->n; i++)
        if (!host_answered(&names, hosts->v[i]) && sv_find(out, hosts->v[i]) < 0)
            sv_push(out, hosts->v[i]);
    sv_free(&names);
}

size_t path_judge(const struct path_report *r, const struct strvec *hosts,
                  struct path_finding **out)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    /* A node the launcher's messages name is named with them; mpirun starts
     * no process until every node's daemon is up, so the others wait. */
    struct strvec silent = {0}, unheard = {0};
    path_silent_hosts(r, hosts, &unheard);
    for (size_t i = 0; i < unheard.n; i++) {
        const char *line = NULL, *h = unheard.v[i];
        /* a name is looked for without its domain too (ssh says "nosuch:"
         * of nosuch.example.org); an address as it is */
        char *name = strspn(h, "0123456789.") == strlen(h) ? xstrdup(h)
                                                           : xstrndup(h, strcspn(h, "."));
        for (size_t k = 0; k < r->said.n && !line; k++)
            if (mentions(r->said.v[k], name) && says_trouble(r->said.v[k]))
                line = r->said.v[k];
        free(name);
        if (line)
            add(out, &n, &cap, PATH_FAIL,
                xasprintf("%s did not answer: the launcher says \"%s\"", h, line));
        else
            sv_push(&silent, h);
    }
    if (silent.n) {
        char *list = sv_join(&silent, ", ");
        add(out, &n, &cap, PATH_FAIL,
            n ? xasprintf("no peer started on %s either: the launcher starts none until it "
                          "reaches every node", list)
              : xasprintf("%s did not answer: no peer process started or reported there (hint: "
                          "the launcher's messages above; is the node up, and rdmarun installed "
                          "there?)", list));
        free(list);
    }
    sv_free(&silent);
    sv_free(&unheard);
    if (r->n == 0 && n == 0)
        add(out, &n, &cap, PATH_FAIL,
            xstrdup("no node answered: the launcher started no peer process (its messages are "
                    "above)"));
    for (int i = 0; i < r->n; i++) {
        const struct path_node *nd = &r->nodes[i];
        char *name = path_node_name(r, i);
        if (!nd->seen && !(hosts && hosts->n))
            add(out, &n, &cap, PATH_FAIL, xasprintf("node %d of %d did not answer", i, r->n));
        else if (nd->fail_step)
            add(out, &n, &cap, PATH_FAIL, xasprintf("%s: %s: %s", name, nd->fail_step,
                                                     nd->fail_err ? nd->fail_err : "failed"));
        else if (nd->seen && !nd->done)
            add(out, &n, &cap, PATH_FAIL,
                xasprintf("%s did not finish the test within its deadline", name));
        free(name);
    }
    for (size_t i = 0; i < r->npairs; i++) {
        const struct path_pair *p = &r->pairs[i];
        if (p->ok || !r->nodes[p->from].seen || !r->nodes[p->to].seen ||
            (!p->seen && (r->nodes[p->from].fail_step || r->nodes[p->to].fail_step)))
            continue;   /* a node that failed on its own is said once, above */
        char *a = path_node_name(r, p->from), *b = path_node_name(r, p->to);
        char *cause = pair_cause(r, p->from, p->to);
        if (p->seen)
            add(out, &n, &cap, PATH_FAIL, xasprintf("path %s -> %s failed at %s: %s; likely "
                                                     "cause: %s", a, b, p->step ? p->step : "?",
                                                     p->err ? p->err : "?", cause));
        else
            add(out, &n, &cap, PATH_FAIL, xasprintf("path %s -> %s: no result; likely cause: %s",
                                                     a, b, cause));
        free(a);
        free(b);
        free(cause);
    }
    bool failed = n > 0;
    for (int i = 0; !failed && i < r->n; i++) {
        char *loss = noticeable_loss(r, i) ? loss_words(r, i) : NULL;
        if (loss)
            add(out, &n, &cap, PATH_WARN,
                xasprintf("packet loss: %s during the path test, which passed (hint: PFC/ECN on "
                          "the NIC and the switch)", loss));
        free(loss);
    }
    for (int i = 0; i < r->n; i++)
        if (link_local(path_node_value(r, i, "gid")) && strcmp(val(r, i, "ll"), "Ethernet") == 0)
            add(out, &n, &cap, PATH_WARN,
                xasprintf("%s uses GID index %s, a link-local address (%s): RoCE v2 with it does "
                          "not cross an IP router (hint: the IPv4 RoCE v2 GID)", val(r, i, "host"),
                          val(r, i, "gidx"), val(r, i, "gid")));
    outliers(r, out, &n, &cap);
    odd_ones(r, out, &n, &cap);
    return n;
}

void path_findings_free(struct path_finding *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(f[i].text);
    free(f);
}

char *path_summary(const struct path_report *r)
{
    double lat_lo = 0, lat_hi = 0, bw_lo = 0, bw_hi = 0;
    size_t good = 0;
    for (size_t i = 0; i < r->npairs; i++) {
        const struct path_pair *p = &r->pairs[i];
        if (!p->ok)
            continue;
        if (!good++) {
            lat_lo = lat_hi = p->lat_us;
            bw_lo = bw_hi = p->bw_mbps;
        }
        lat_lo = p->lat_us < lat_lo ? p->lat_us : lat_lo;
        lat_hi = p->lat_us > lat_hi ? p->lat_us : lat_hi;
        bw_lo = p->bw_mbps < bw_lo ? p->bw_mbps : bw_lo;
        bw_hi = p->bw_mbps > bw_hi ? p->bw_mbps : bw_hi;
    }
    double took = 0;
    for (int i = 0; i < r->n; i++)
        took = r->nodes[i].took > took ? r->nodes[i].took : took;
    char *figures = good ? xasprintf(": latency %.1f-%.1f us, bandwidth %.1f-%.1f MB/s", lat_lo,
                                     lat_hi, bw_lo, bw_hi)
                         : xstrdup("");
    if (took > 0) {
        char *f = xasprintf("%s; the peers took %.2f s", figures, took);
        free(figures);
        figures = f;
    }
    char *s = xasprintf("%d node%s, %zu of %zu path%s good (%s)%s", r->n, r->n == 1 ? "" : "s",
                        good, r->npairs, r->npairs == 1 ? "" : "s",
                        r->n == 1 ? "the node to itself" : r->all_pairs ? "all pairs" : "ring",
                        figures);
    free(figures);
    return s;
}
