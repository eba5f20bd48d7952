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

/* A "pair" record of node `rank` (s: its words): the sender's (to=) or
 * the receiver's (from=) report on their pair; a failure is kept over a
 * success, the figures as said. */
static void pair_record(struct path_report *r, long rank, const char *s)
{
    long to = -1;
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
    long rank = -1;
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
        pair_record(r, rank, s);
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

const char *path_node_val(const struct path_report *r, int i, const char *key)
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
        return xstrdup(path_node_val(r, i, "host"));
    if (path_node_value(r, i, "prov") && strcmp(path_node_val(r, i, "dev"), "?") == 0)
        return xasprintf("%s (%s)", path_node_val(r, i, "host"), path_node_val(r, i, "prov"));
    if (path_node_value(r, i, "prov"))   /* libfabric's provider on its domain */
        return xasprintf("%s (%s on %s)", path_node_val(r, i, "host"), path_node_val(r, i, "prov"),
                         path_node_val(r, i, "dev"));
    if (gidx && strcmp(gidx, "-1") != 0)
        return xasprintf("%s (%s:%s, GID %s %s)", path_node_val(r, i, "host"), path_node_val(r, i, "dev"),
                         path_node_val(r, i, "port"), gidx, path_node_val(r, i, "gtype"));
    return xasprintf("%s (%s:%s)", path_node_val(r, i, "host"), path_node_val(r, i, "dev"), path_node_val(r, i, "port"));
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
        qsort(out->v, out->n, sizeof(*out->v), str_ptr_cmp);
}

static bool host_answered(const struct strvec *names, const char *host)
{
    char *shortname = xstrndup(host, strcspn(host, "."));
    bool found = names->n && (bsearch(&host, names->v, names->n, sizeof(*names->v), str_ptr_cmp) ||
                              bsearch(&shortname, names->v, names->n, sizeof(*names->v), str_ptr_cmp));
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
    char *sol = good && r->n > 0
                    ? path_sol_text(path_node_value(r, 0, "driver"), path_node_value(r, 0, "ll"),
                                    path_node_value(r, 0, "rate"), path_node_value(r, 0, "mtu"),
                                    path_node_value(r, 0, "prov") != NULL, bw_hi)
                    : NULL;
    char *figures = good ? xasprintf(": latency %.1f-%.1f us, bandwidth %.1f-%.1f MB/s%s", lat_lo,
                                     lat_hi, bw_lo, bw_hi, sol)
                         : xstrdup("");
    free(sol);
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
