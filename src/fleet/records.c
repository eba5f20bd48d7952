/* rdmarun report's reading (fleet.h): every record under the folders
 * given. A record is judged by what it holds, not its name: a
 * run's verdict ("verdict" and "observations"), a node's check ("node",
 * "healthy", "checks"), a path test ("pairs_tested", "nodes", "pairs").
 * Their text comes from anywhere: names and codes are kept term-safe. */
#include "fleet/fleet.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <errno.h>
#include <ftw.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define MAX_RECORD (16u << 20)

/* nftw's callback takes no argument: the fleet being read. */
static struct fleet *fl_;
#define fl (*fl_)

static size_t node_of(const char *raw)
{
    const char *shown = raw && *raw ? raw : "(unnamed)";
    char *name = term_safe(shown, strlen(shown), 64);
    size_t at;
    if (strmap_get(&fl.node_index, name, &at)) {
        free(name);
        return at;
    }
    GROW(fl.nodes, fl.cap, fl.n + 1);
    memset(&fl.nodes[fl.n], 0, sizeof(*fl.nodes));
    fl.nodes[fl.n].name = name;
    strmap_put(&fl.node_index, name, fl.n);
    return fl.n++;
}

/* A record's time when it is one: from 2000 to a day from now; else 0,
 * undated (counted, never plotted: one record dated 2100 or 2^63-1 would
 * move the plot's window there). */
static long long dated(long long t)
{
    static const long long y2000 = 946684800;
    if (t >= y2000 && t <= (long long)time(NULL) + 86400)
        return t;
    fl.undated++;
    return 0;
}

static void event(size_t node, long long t, int kind)
{
    GROW(fl.ev, fl.evcap, fl.nev + 1);
    fl.ev[fl.nev++] = (struct fleet_event){node, t, kind};
}

static const char *str(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
         ? json_object_get_string(v) : NULL;
}

static json_object *arr(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_array)
         ? v : NULL;
}

static void add_code(struct node_stat *s, const char *raw)
{
    char *code = term_safe(raw, strlen(raw), 64);
    size_t at;
    if (!strmap_get(&s->code_index, code, &at)) {
        GROW(s->code_n, s->code_cap, s->codes.n + 1);
        s->code_n[s->codes.n] = 0;
        sv_push(&s->codes, code);
        at = s->codes.n - 1;
        strmap_put(&s->code_index, code, at);
    }
    s->code_n[at]++;
    free(code);
}

/* `rdmarun check --json`: the node, healthy or not, each problem's code. */
static void take_check(json_object *o, long long t)
{
    json_object *h;
    json_object_object_get_ex(o, "healthy", &h);
    json_object *tv;
    if (json_object_object_get_ex(o, "time", &tv) && json_object_is_type(tv, json_type_int) &&
        json_object_get_int64(tv) > 0)
        t = json_object_get_int64(tv);
    t = dated(t);
    size_t n = node_of(str(o, "node"));
    struct node_stat *s = &fl.nodes[n];
    s->checks++;
    bool healthy = json_object_get_boolean(h);
    event(n, t, healthy ? EV_CHECK_OK : EV_CHECK_FAILED);
    if (healthy)
        return;
    s->failed++;
    if (t > s->last_failed)
        s->last_failed = t;
    json_object *codes = arr(o, "codes");
    for (size_t i = 0; codes && i < json_object_array_length(codes); i++) {
        json_object *c = json_object_array_get_idx(codes, i);
        if (json_object_is_type(c, json_type_string))
            add_code(s, json_object_get_string(c));
    }
}

/* Hosts, each once, in the order first named. */
struct host_set {
    struct strvec v;
    struct strmap index;
};

static void host_add(struct host_set *hs, const char *h)
{
    size_t at;
    if (h && !strmap_get(&hs->index, h, &at)) {
        strmap_put(&hs->index, h, hs->v.n);
        sv_push(&hs->v, h);
    }
}

static void host_set_free(struct host_set *hs)
{
    sv_free(&hs->v);
    strmap_free(&hs->index);
}

/* A host an observation names, and the others ("also") it stands for. */
static void hosts_of(json_object *obs, struct host_set *out)
{
    host_add(out, str(obs, "host"));
    json_object *also = arr(obs, "also");
    for (size_t i = 0; also && i < json_object_array_length(also); i++)
        host_add(out, str(json_object_array_get_idx(also, i), "host"));
}

/* Whether the run's verdict met what it expected: its verdict.json's
 * "expected", which rdmarun writes beside the plan's expect. */
static bool run_expected(json_object *o)
{
    json_object *met;
    return json_object_object_get_ex(o, "expected", &met) &&
           json_object_is_type(met, json_type_boolean) && json_object_get_boolean(met);
}

/* A run's verdict.json: each host that carried a TCP path fell back, unless
 * the run expected TCP; the others ran as the verdict says. */
static void take_verdict(json_object *o, long long t)
{
    const char *v = str(o, "verdict");
    json_object *obs = arr(o, "observations");
    struct host_set all = {0}, tcp = {0};
    for (size_t i = 0; obs && i < json_object_array_length(obs); i++) {
        json_object *ob = json_object_array_get_idx(obs, i);
        hosts_of(ob, &all);
        const char *path = str(ob, "path");
        if (path && strcmp(path, "tcp") == 0)
            hosts_of(ob, &tcp);
    }
    bool fell = v && strcmp(v, "fallback") == 0 && !run_expected(o);
    for (size_t i = 0; i < all.v.n; i++) {
        size_t n = node_of(all.v.v[i]), at;
        struct node_stat *s = &fl.nodes[n];
        s->runs++;
        bool this_fell = fell && (strmap_get(&tcp.index, all.v.v[i], &at) || tcp.v.n == 0);
        event(n, t, this_fell ? EV_RUN_FELL_BACK : EV_RUN_OK);
        if (this_fell) {
            s->fell_back++;
            if (t > s->last_fell_back)
                s->last_fell_back = t;
        }
    }
    host_set_free(&all);
    host_set_free(&tcp);
}

static struct pair_stat *pair_of(const char *x, const char *y)
{
    char *a = term_safe(x, strlen(x), 64), *b = term_safe(y, strlen(y), 64);
    if (strcmp(a, b) > 0) {
        char *c = a;
        a = b;
        b = c;
    }
    char *key = xasprintf("%s\n%s", a, b);   /* (term-safe names hold no newline) */
    size_t at;
    bool known = strmap_get(&fl.pair_index, key, &at);
    if (!known)
        strmap_put(&fl.pair_index, key, fl.npairs);
    free(key);
    if (known) {
        free(a);
        free(b);
        return &fl.pairs[at];
    }
    GROW(fl.pairs, fl.pcap, fl.npairs + 1);
    memset(&fl.pairs[fl.npairs], 0, sizeof(*fl.pairs));
    fl.pairs[fl.npairs].a = a;
    fl.pairs[fl.npairs].b = b;
    return &fl.pairs[fl.npairs++];
}

/* `check --path-test --json`: pairs of ranks, each rank's host; the hosts
 * that did not answer, which no rank names. */
static void take_path(json_object *o, long long t)
{
    json_object *nodes = arr(o, "nodes"), *pairs = arr(o, "pairs"), *silent = arr(o, "silent_hosts");
    for (size_t i = 0; silent && i < json_object_array_length(silent); i++) {
        json_object *h = json_object_array_get_idx(silent, i);
        if (!json_object_is_type(h, json_type_string))
            continue;
        size_t at = node_of(json_object_get_string(h));   /* (it may move fl.nodes) */
        struct node_stat *s = &fl.nodes[at];
        s->silent++;
        s->pair_failed++;
        if (t > s->last_silent)
            s->last_silent = t;
    }
    size_t nn = nodes ? json_object_array_length(nodes) : 0;
    for (size_t i = 0; pairs && i < json_object_array_length(pairs); i++) {
        json_object *p = json_object_array_get_idx(pairs, i), *f, *to, *okv;
        if (!json_object_object_get_ex(p, "from", &f) || !json_object_object_get_ex(p, "to", &to))
            continue;
        int64_t a = json_object_get_int64(f), b = json_object_get_int64(to);
        if (a < 0 || b < 0 || (size_t)a >= nn || (size_t)b >= nn)
            continue;
        const char *ha = str(json_object_array_get_idx(nodes, (size_t)a), "host");
        const char *hb = str(json_object_array_get_idx(nodes, (size_t)b), "host");
        if (!ha || !hb)
            continue;
        struct pair_stat *ps = pair_of(ha, hb);
        ps->tested++;
        bool good = json_object_object_get_ex(p, "ok", &okv) && json_object_get_boolean(okv);
        if (good)
            continue;
        ps->failed++;
        if (t >= ps->last_failed) {
            ps->last_failed = t;
            const char *step = str(p, "step");
            free(ps->step);
            ps->step = step ? term_safe(step, strlen(step), 64) : NULL;
        }
        size_t na = node_of(ha), nb = node_of(hb);   /* (node_of may move fl.nodes) */
        fl.nodes[na].pair_failed++;
        fl.nodes[nb].pair_failed++;
    }
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    if (type == FTW_D && ftw->level >= FLEET_MAX_DEPTH)
        return FTW_SKIP_SUBTREE;
    if (type != FTW_F || !S_ISREG(st->st_mode))
        return FTW_CONTINUE;
    size_t len = strlen(path);
    if (len < 5 || strcmp(path + len - 5, ".json") != 0)
        return FTW_CONTINUE;
    if (++fl.files > FLEET_MAX_FILES) {
        fl.full = true;
        return FTW_STOP;
    }
    char *text = read_input(path, MAX_RECORD, &len);
    json_object *o = text ? json_tokener_parse(text) : NULL;
    free(text);
    long long t = (long long)st->st_mtime;   /* a record without its own time: the file's */
    if (!o || !json_object_is_type(o, json_type_object)) {
        fl.skipped++;
    } else if (str(o, "verdict") && arr(o, "observations")) {
        take_verdict(o, dated(t));
        fl.records++;
    } else if (str(o, "node") && arr(o, "checks")) {
        take_check(o, t);
        fl.records++;
    } else if (str(o, "pairs_tested") && arr(o, "pairs")) {
        take_path(o, dated(t));
        fl.records++;
    } else {
        fl.skipped++;
    }
    json_object_put(o);
    return FTW_CONTINUE;
}

int fleet_read(const struct strvec *dirs, struct fleet *f)
{
    memset(f, 0, sizeof(*f));
    fl_ = f;
    int rc = 0;
    /* FTW_PHYS: links are not followed (a link given is itself skipped). */
    for (size_t i = 0; i < dirs->n && !f->full; i++) {
        struct stat st;
        if (lstat(dirs->v[i], &st) != 0 ||
            nftw(dirs->v[i], visit, 16, FTW_PHYS | FTW_ACTIONRETVAL) == -1) {
            rr_error("cannot read %s: %s", dirs->v[i], strerror(errno));
            rc = RR_EX_NOINPUT;
        }
    }
    fl_ = NULL;
    return rc;
}

void fleet_free(struct fleet *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->nodes[i].name);
        sv_free(&f->nodes[i].codes);
        free(f->nodes[i].code_n);
        strmap_free(&f->nodes[i].code_index);
    }
    strmap_free(&f->node_index);
    strmap_free(&f->pair_index);
    for (size_t i = 0; i < f->npairs; i++) {
        free(f->pairs[i].a);
        free(f->pairs[i].b);
        free(f->pairs[i].step);
    }
    free(f->nodes);
    free(f->pairs);
    free(f->ev);
    memset(f, 0, sizeof(*f));
}
