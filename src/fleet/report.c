/* rdmarun report's output (report.h): the table, CSV or JSON, the pairs,
 * the odd node out and the plot, from the fleet records.c read. */
#include "fleet/fleet.h"
#include "fleet/report.h"
#include "util/table.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct fleet fl;

static char *when(long long t)
{
    if (!t)
        return xstrdup("-");
    time_t tt = (time_t)t;
    struct tm tm;
    char buf[32];
    if (!gmtime_r(&tt, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M", &tm))
        return xstrdup("?");
    return xstrdup(buf);
}

/* "RDMARUN-PORT-DOWN x4, RDMARUN-RATE x1", most frequent first. */
/* codes_text's order: more often first, then as first seen (a stable sort). */
static const struct node_stat *sorting;
static int by_count(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    long na = sorting->code_n[a], nb = sorting->code_n[b];
    return na != nb ? (na < nb ? 1 : -1) : (a > b) - (a < b);
}

static char *codes_text(const struct node_stat *s)
{
    size_t *order = xcalloc(s->codes.n + 1, sizeof(*order));
    for (size_t k = 0; k < s->codes.n; k++)
        order[k] = k;
    sorting = s;
    qsort(order, s->codes.n, sizeof(*order), by_count);
    struct strvec parts = {0};
    for (size_t k = 0; k < s->codes.n; k++)
        sv_pushf(&parts, "%s x%ld", s->codes.v[order[k]], s->code_n[order[k]]);
    free(order);
    char *t = sv_join(&parts, ", ");
    sv_free(&parts);
    return t;
}

static long trouble(const struct node_stat *s)
{
    return s->failed + s->fell_back + s->pair_failed;
}

static int by_trouble(const void *x, const void *y)
{
    const struct node_stat *a = &fl.nodes[*(const size_t *)x], *b = &fl.nodes[*(const size_t *)y];
    long ta = trouble(a), tb = trouble(b);
    if (ta != tb)
        return ta < tb ? 1 : -1;
    return strcmp(a->name, b->name);
}

/* The odd node out: failed checks (or runs that fell back) at least twice,
 * at a rate at least 3 times the rest of the fleet's and 20% or more. */
static bool odd_one(const struct node_stat *s, long all_checks, long all_failed, long all_runs,
                    long all_fell, char **why)
{
    long bad = s->failed + s->fell_back, total = s->checks + s->runs;
    long rest_bad = all_failed + all_fell - bad, rest_total = all_checks + all_runs - total;
    if (bad < 2 || total == 0)
        return false;
    double mine = (double)bad / (double)total;
    double rest = rest_total > 0 ? (double)rest_bad / (double)rest_total : 0;
    if (mine < 0.2 || mine < 3 * rest)
        return false;
    *why = xasprintf("%ld of %ld checks and runs went wrong (%.0f%%), the other nodes' %ld of %ld "
                     "(%.0f%%)", bad, total, 100 * mine, rest_bad, rest_total, 100 * rest);
    return true;
}

/* Each node's days, oldest first, one character a day (at most 60 days,
 * the last ones): '.' all checks and runs good, 'X' a check failed, 'F' a
 * run fell back to TCP, 'B' both, ' ' nothing recorded. */
static void plot(const size_t *order, FILE *out)
{
    long long lo = 0, hi = 0;
    for (size_t i = 0; i < fl.nev; i++) {
        if (!lo || fl.ev[i].time < lo)
            lo = fl.ev[i].time;
        if (fl.ev[i].time > hi)
            hi = fl.ev[i].time;
    }
    long days = (long)(hi / 86400 - lo / 86400) + 1;
    long first = days > 60 ? hi / 86400 - 59 : lo / 86400;
    if (days > 60)
        days = 60;
    char *from = when(first * 86400), *to = when(hi);
    fprintf(out, "\nEach node's days, %.10s to %.10s (UTC), one column a day: '.' good, 'X' a "
            "check failed, 'F' a run fell back to TCP, 'B' both\n", from, to);
    free(from);
    free(to);
    for (size_t i = 0; i < fl.n; i++) {
        const struct node_stat *s = &fl.nodes[order[i]];
        char *row = xmalloc((size_t)days + 1);
        memset(row, ' ', (size_t)days);
        row[days] = '\0';
        for (size_t k = 0; k < fl.nev; k++) {
            if (fl.ev[k].node != order[i])
                continue;
            long d = (long)(fl.ev[k].time / 86400) - first;
            if (d < 0 || d >= days)
                continue;
            char c = row[d];
            bool x = c == 'X' || c == 'B', f = c == 'F' || c == 'B';
            x |= fl.ev[k].kind == EV_CHECK_FAILED;
            f |= fl.ev[k].kind == EV_RUN_FELL_BACK;
            row[d] = x && f ? 'B' : x ? 'X' : f ? 'F' : '.';
        }
        fprintf(out, "  %-16s |%s|\n", s->name, row);
        free(row);
    }
}

/* What a report is written with: its output, its JSON state, the nodes in
 * order of trouble, the odd ones out, the totals they are judged by. */
struct report_ctx {
    FILE *out;
    struct json j;
    struct table t;   /* the nodes' rows, in the report's format */
    const size_t *order;
    struct strvec odd;
    bool plot;
    long checks, failed, runs, fell;
};

/* One node's row, its texts made once for every format. */
struct node_row {
    const struct node_stat *s;
    char *codes, *lf, *lb, *why;
    bool odd;
};

/* The nodes' columns (util/table.h): the text table, --csv and --json's
 * "nodes" (where the times are Unix times, the codes an object). */
static const struct table_col node_cols[] = {
    {.name = "node", .head = "NODE", .width = -16, .type = TT_STR},
    {.name = "checks", .head = "CHECKS", .width = 7, .type = TT_INT},
    {.name = "failed", .head = "FAILED", .width = 7, .type = TT_INT},
    {.name = "last_failed", .head = "LAST FAILED", .width = -16, .type = TT_STR,
     .show = TS_TEXT | TS_CSV, .gap = "  "},
    {.name = "last_failed", .type = TT_INT, .show = TS_JSON, .omit_none = true},
    {.name = "codes", .type = TT_STR, .show = TS_CSV},
    {.name = "codes", .type = TT_JSON, .show = TS_JSON},
    {.name = "runs", .head = "RUNS", .width = 5, .type = TT_INT, .gap = "  "},
    {.name = "fell_back", .head = "FELL BACK", .width = 9, .type = TT_INT},
    {.name = "last_fell_back", .head = "LAST FELL BACK", .width = -16, .type = TT_STR,
     .show = TS_TEXT | TS_CSV, .gap = "  "},
    {.name = "last_fell_back", .type = TT_INT, .show = TS_JSON, .omit_none = true},
    {.name = "pairs_failed", .head = "PAIRS", .width = 5, .type = TT_INT, .gap = "  "},
    {.name = "path_silent", .type = TT_INT, .show = TS_JSON},
    {.name = "odd", .type = TT_BOOL, .show = TS_CSV | TS_JSON},
    {.name = "odd_why", .type = TT_STR, .show = TS_JSON, .omit_none = true},
    {.name = "codes", .head = "FAULT CODES", .type = TT_STR, .show = TS_TEXT, .gap = "  "},
};
#define NODE_COLS (sizeof(node_cols) / sizeof(*node_cols))

/* A node's fault codes as a JSON object: each code's count. */
static void codes_json(struct json *j, const char *key, const void *arg)
{
    const struct node_stat *s = arg;
    json_begin_object(j, key);
    for (size_t k = 0; k < s->codes.n; k++)
        json_int(j, s->codes.v[k], s->code_n[k]);
    json_end_object(j);
}

static void node_row_out(struct report_ctx *x, const struct node_row *r)
{
    const struct node_stat *s = r->s;
    struct table_cell row[NODE_COLS] = {
        {.s = s->name}, {.i = s->checks}, {.i = s->failed},
        {.s = s->last_failed ? r->lf : x->t.format == TABLE_TEXT ? "-" : ""},
        {.i = s->last_failed, .none = !s->last_failed},
        {.s = r->codes}, {.put = codes_json, .arg = s},
        {.i = s->runs}, {.i = s->fell_back},
        {.s = s->last_fell_back ? r->lb : x->t.format == TABLE_TEXT ? "-" : ""},
        {.i = s->last_fell_back, .none = !s->last_fell_back},
        {.i = s->pair_failed}, {.i = s->silent}, {.i = r->odd}, {.s = r->why},
        {.s = *r->codes ? r->codes : "-"},
    };
    table_row(&x->t, row);
}

/* A format: its head (the nodes' table begun) and its end (the table
 * ended; the pairs, the odd ones out; NULL: none). */
struct report_writer {
    void (*begin)(struct report_ctx *x);
    void (*end)(struct report_ctx *x);
};

static void text_begin(struct report_ctx *x)
{
    fprintf(x->out, "rdmarun report: %ld records (%ld checks, %ld runs) on %zu node%s",
            fl.records, x->checks, x->runs, fl.n, fl.n == 1 ? "" : "s");
    if (fl.skipped)
        fprintf(x->out, "; %ld other .json files skipped", fl.skipped);
    if (fl.undated)
        fprintf(x->out, "; %ld undated (a time before 2000 or after tomorrow)", fl.undated);
    fputs("\n\n", x->out);
    table_begin(&x->t);
}

static void table_failed_pairs(FILE *out)
{
    bool head = false;
    for (size_t i = 0; i < fl.npairs; i++) {
        const struct pair_stat *p = &fl.pairs[i];
        if (!p->failed)
            continue;
        if (!head)
            fputs("\nPairs whose path test failed:\n", out);
        head = true;
        char *lf = when(p->last_failed);
        fprintf(out, "  %s - %s: %ld of %ld tests failed, last %s%s%s\n", p->a, p->b,
                p->failed, p->tested, lf, p->step ? " at step " : "", p->step ? p->step : "");
        free(lf);
    }
}

static void table_silent_nodes(FILE *out)
{
    bool head = false;
    for (size_t i = 0; i < fl.n; i++) {
        const struct node_stat *s = &fl.nodes[i];
        if (!s->silent)
            continue;
        if (!head)
            fputs("\nNodes that did not answer a path test:\n", out);
        head = true;
        char *ls = when(s->last_silent);
        fprintf(out, "  %s: %ld time%s, last %s\n", s->name, s->silent,
                s->silent == 1 ? "" : "s", ls);
        free(ls);
    }
}

static void text_end(struct report_ctx *x)
{
    table_failed_pairs(x->out);
    table_silent_nodes(x->out);
    for (size_t i = 0; i < x->odd.n; i++)
        fprintf(x->out, "%sOdd one out: %s\n", i ? "" : "\n", x->odd.v[i]);
    if (x->plot)
        plot(x->order, x->out);
}

static void csv_begin(struct report_ctx *x)
{
    table_begin(&x->t);
}

static void json_begin(struct report_ctx *x)
{
    json_init(&x->j, x->out);
    json_begin_object(&x->j, NULL);
    json_int(&x->j, "records", fl.records);
    json_int(&x->j, "skipped", fl.skipped);
    json_int(&x->j, "undated", fl.undated);
    table_begin(&x->t);   /* "nodes" */
}

static void json_end(struct report_ctx *x)
{
    struct json *j = &x->j;
    table_end(&x->t);
    json_begin_array(j, "pairs");
    for (size_t i = 0; i < fl.npairs; i++) {
        json_begin_object(j, NULL);
        json_string(j, "a", fl.pairs[i].a);
        json_string(j, "b", fl.pairs[i].b);
        json_int(j, "tested", fl.pairs[i].tested);
        json_int(j, "failed", fl.pairs[i].failed);
        if (fl.pairs[i].failed)
            json_int(j, "last_failed", fl.pairs[i].last_failed);
        json_end_object(j);
    }
    json_end_array(j);
    json_end_object(j);
    json_finish(j);
}

static const struct report_writer writers[] = {
    [REPORT_TABLE] = {text_begin, text_end},
    [REPORT_CSV] = {csv_begin, NULL},   /* (CSV has rows only) */
    [REPORT_JSON] = {json_begin, json_end},
};

/* Every node's row through the format's writer, most trouble first. */
static void write_report(struct report_ctx *x, const struct report_writer *w)
{
    for (size_t i = 0; i < fl.n; i++) {
        x->checks += fl.nodes[i].checks;
        x->failed += fl.nodes[i].failed;
        x->runs += fl.nodes[i].runs;
        x->fell += fl.nodes[i].fell_back;
    }
    w->begin(x);
    for (size_t i = 0; i < fl.n; i++) {
        const struct node_stat *s = &fl.nodes[x->order[i]];
        struct node_row r = {s, codes_text(s), when(s->last_failed), when(s->last_fell_back),
                             NULL, false};
        r.odd = odd_one(s, x->checks, x->failed, x->runs, x->fell, &r.why);
        if (r.odd)
            sv_pushf(&x->odd, "%s: %s", s->name, r.why);
        node_row_out(x, &r);
        free(r.codes);
        free(r.lf);
        free(r.lb);
        free(r.why);
    }
    if (w->end)
        w->end(x);
}

int fleet_report(const struct strvec *dirs, enum report_format fmt, bool do_plot, FILE *out)
{
    int rc = fleet_read(dirs, &fl);
    if (fl.full)
        rr_warn("more than %d .json files: the report reads the first %d", FLEET_MAX_FILES,
                FLEET_MAX_FILES);
    if (!rc && fl.records == 0) {
        rr_error("no record of a run or a check under %s (hint: evidence folders with "
                 "verdict.json, 'rdmarun check --json > DIR/NODE.TIME.json')", dirs->v[0]);
        rc = RR_EX_NOINPUT;
    }
    if (!rc) {
        /* Most trouble first; events keep naming nodes by their index. */
        size_t *order = xcalloc(fl.n + 1, sizeof(*order));
        for (size_t i = 0; i < fl.n; i++)
            order[i] = i;
        qsort(order, fl.n, sizeof(*order), by_trouble);
        static const enum table_format formats[] = {
            [REPORT_TABLE] = TABLE_TEXT, [REPORT_CSV] = TABLE_CSV, [REPORT_JSON] = TABLE_JSON};
        struct report_ctx x = {.out = out, .order = order, .plot = do_plot};
        x.t = (struct table){.format = formats[fmt], .out = out, .json = &x.j,
                             .json_key = "nodes", .cols = node_cols, .ncols = NODE_COLS};
        write_report(&x, &writers[fmt]);
        sv_free(&x.odd);
        free(order);
    }
    fleet_free(&fl);
    return rc;
}
