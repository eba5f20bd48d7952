/* rdmarun report's output (report.h): the table, CSV or JSON, the pairs,
 * the odd node out and the plot, from the fleet records.c read. */
#include "fleet/fleet.h"
#include "fleet/report.h"
#include "util/csv.h"
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

/* A format: its head, a row a node, and its end (the pairs, the odd ones). */
struct report_writer {
    void (*begin)(struct report_ctx *x);
    void (*node)(struct report_ctx *x, const struct node_row *r);
    void (*end)(struct report_ctx *x);
};

static void table_begin(struct report_ctx *x)
{
    fprintf(x->out, "rdmarun report: %ld records (%ld checks, %ld runs) on %zu node%s",
            fl.records, x->checks, x->runs, fl.n, fl.n == 1 ? "" : "s");
    if (fl.skipped)
        fprintf(x->out, "; %ld other .json files skipped", fl.skipped);
    if (fl.undated)
        fprintf(x->out, "; %ld undated (a time before 2000 or after tomorrow)", fl.undated);
    fprintf(x->out, "\n\n%-16s %7s %7s  %-16s  %5s %9s  %-16s  %5s  %s\n", "NODE", "CHECKS",
            "FAILED", "LAST FAILED", "RUNS", "FELL BACK", "LAST FELL BACK", "PAIRS",
            "FAULT CODES");
}

static void table_node(struct report_ctx *x, const struct node_row *r)
{
    const struct node_stat *s = r->s;
    fprintf(x->out, "%-16s %7ld %7ld  %-16s  %5ld %9ld  %-16s  %5ld  %s\n", s->name, s->checks,
            s->failed, r->lf, s->runs, s->fell_back, r->lb, s->pair_failed,
            *r->codes ? r->codes : "-");
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

static void table_end(struct report_ctx *x)
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
    fputs("node,checks,failed,last_failed,codes,runs,fell_back,last_fell_back,pairs_failed,odd\n",
          x->out);
}

static void csv_node(struct report_ctx *x, const struct node_row *r)
{
    const struct node_stat *s = r->s;
    csv_field(x->out, s->name, false);
    fprintf(x->out, "%ld,%ld,", s->checks, s->failed);
    csv_field(x->out, s->last_failed ? r->lf : "", false);
    csv_field(x->out, r->codes, false);
    fprintf(x->out, "%ld,%ld,", s->runs, s->fell_back);
    csv_field(x->out, s->last_fell_back ? r->lb : "", false);
    fprintf(x->out, "%ld,%s\n", s->pair_failed, r->odd ? "yes" : "no");
}

static void csv_end(struct report_ctx *x)
{
    (void)x;
}

static void json_begin(struct report_ctx *x)
{
    json_init(&x->j, x->out);
    json_begin_object(&x->j, NULL);
    json_int(&x->j, "records", fl.records);
    json_int(&x->j, "skipped", fl.skipped);
    json_int(&x->j, "undated", fl.undated);
    json_begin_array(&x->j, "nodes");
}

static void json_node(struct report_ctx *x, const struct node_row *r)
{
    const struct node_stat *s = r->s;
    struct json *j = &x->j;
    json_begin_object(j, NULL);
    json_string(j, "node", s->name);
    json_int(j, "checks", s->checks);
    json_int(j, "failed", s->failed);
    if (s->last_failed)
        json_int(j, "last_failed", s->last_failed);
    json_begin_object(j, "codes");
    for (size_t k = 0; k < s->codes.n; k++)
        json_int(j, s->codes.v[k], s->code_n[k]);
    json_end_object(j);
    json_int(j, "runs", s->runs);
    json_int(j, "fell_back", s->fell_back);
    if (s->last_fell_back)
        json_int(j, "last_fell_back", s->last_fell_back);
    json_int(j, "pairs_failed", s->pair_failed);
    json_int(j, "path_silent", s->silent);
    json_bool(j, "odd", r->odd);
    if (r->why)
        json_string(j, "odd_why", r->why);
    json_end_object(j);
}

static void json_end(struct report_ctx *x)
{
    struct json *j = &x->j;
    json_end_array(j);
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
    [REPORT_TABLE] = {table_begin, table_node, table_end},
    [REPORT_CSV] = {csv_begin, csv_node, csv_end},
    [REPORT_JSON] = {json_begin, json_node, json_end},
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
        w->node(x, &r);
        free(r.codes);
        free(r.lf);
        free(r.lb);
        free(r.why);
    }
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
        struct report_ctx x = {.out = out, .order = order, .plot = do_plot};
        write_report(&x, &writers[fmt]);
        sv_free(&x.odd);
        free(order);
    }
    fleet_free(&fl);
    return rc;
}
