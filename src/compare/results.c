/* compare's results: statistics per (profile, np), the table, the CSV and
 * JSON summaries, and the gnuplot plot. */
#include "compare/compare.h"
#include "model/model.h"
#include "util/table.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *better(const struct compare *c)
{
    return c->higher ? "higher" : "lower";
}

/* The value a run measured. */
static double value_of(const struct compare *c, const struct run *x)
{
    return c->metric ? x->metric : x->wall;
}

/* The efficiency's 95% interval: each round that measured r and its
 * profile's base point (the same round, both counted) gives one log speedup,
 * and their t interval (stats.c, paired_gain_of) scaled by n0 / n. Paired
 * by round, a machine's drift from round to round leaves it. */
static void efficiency_interval(const struct compare *c, const struct run *runs, size_t nruns,
                                const struct result *base, struct result *r)
{
    double *d = xcalloc(nruns + 1, sizeof(double));
    size_t n = 0;
    for (size_t i = 0; i < nruns; i++) {
        const struct run *x = &runs[i];
        if (x->warmup || !x->included || x->np != r->np || strcmp(x->profile, r->profile) != 0)
            continue;
        for (size_t k = 0; k < nruns; k++) {
            const struct run *y = &runs[k];
            if (y->round == x->round && !y->warmup && y->included && y->np == base->np &&
                strcmp(y->profile, r->profile) == 0 && value_of(c, y) > 0 && value_of(c, x) > 0) {
                d[n++] = log(speedup(value_of(c, y), value_of(c, x), c->higher));
                break;
            }
        }
    }
    struct paired_gain g;
    paired_gain_of(d, n, &g);
    free(d);
    r->eff_lo = r->eff_hi = NAN;
    if (n >= 2) {
        r->eff_lo = exp(g.lo) * (double)base->np / (double)r->np;
        r->eff_hi = exp(g.hi) * (double)base->np / (double)r->np;
    }
}

/* r's median held to the speed-of-light model, where its runs' bin (one
 * for them all) is a message size of a benchmark the model knows and the
 * metric a time in microseconds (lower is better): its ranks on
 * min(nodes, np) nodes, as mpirun fills each named node's slots. */
static void result_light(const struct compare *c, const struct run *runs, size_t nruns,
                         struct result *r)
{
    r->light = NAN;
    snprintf(r->light_limit, sizeof(r->light_limit), "%s", c->metric
             ? "the metric has no bin that is a message size of a benchmark the model knows"
             : "a wall time is no message size of a benchmark the model knows");
    const char *bin = NULL;
    for (size_t i = 0; i < nruns; i++) {
        const struct run *x = &runs[i];
        if (x->warmup || !x->included || x->np != r->np || strcmp(x->profile, r->profile) != 0)
            continue;
        if (bin && strcmp(bin, x->bin) != 0)
            return;   /* the runs' last figures are of different bins */
        bin = x->bin;
    }
    if (!c->metric || c->higher || !bin || !bin[0] || !r->s.n)
        return;
    int nodes = c->nodes < r->np ? c->nodes : (int)r->np;
    r->light = model_bin_light(c->facts, nodes, bin, r->s.median, r->light_limit,
                               sizeof(r->light_limit));
}

size_t compare_summarize(const struct compare *c, const struct run *runs, size_t nruns,
                         struct result *res)
{
    size_t n = 0;
    for (size_t p = 0; p < c->profiles.n; p++) {
        for (size_t j = 0; j < c->nnp; j++) {
            struct result *r = &res[n++];
            memset(r, 0, sizeof(*r));
            r->profile = c->labels.v[p];
            r->np = c->np[j];
            double *v = xcalloc(nruns + 1, sizeof(double));
            size_t nv = 0;
            for (size_t i = 0; i < nruns; i++) {
                const struct run *x = &runs[i];
                if (x->warmup || x->np != r->np || strcmp(x->profile, r->profile) != 0)
                    continue;
                r->runs++;
                if (!x->included)
                    r->excluded++;
                else
                    v[nv++] = value_of(c, x);
            }
            stats_of(v, nv, &r->s);
            free(v);
            result_light(c, runs, nruns, r);
        }
    }
    /* Speedup from each profile's smallest rank count with data; ratio to
     * the baseline at the same rank count (above 1: better). */
    for (size_t i = 0; i < n; i++) {
        struct result *r = &res[i];
        const struct result *base = NULL, *ref = NULL;
        for (size_t k = 0; k < n; k++) {
            if (strcmp(res[k].profile, r->profile) == 0 && res[k].s.n &&
                (!base || res[k].np < base->np))
                base = &res[k];
            if (strcmp(res[k].profile, c->baseline) == 0 && res[k].np == r->np && res[k].s.n)
                ref = &res[k];
        }
        r->speedup = r->efficiency = r->ratio = NAN;
        if (r->s.n && base) {
            r->speedup = speedup(base->s.median, r->s.median, c->higher);
            r->efficiency = efficiency(base->s.median, base->np, r->s.median, r->np, c->higher);
        }
        r->eff_lo = r->eff_hi = NAN;
        if (r->s.n && base && base != r)
            efficiency_interval(c, runs, nruns, base, r);
        if (r->s.n && ref)
            r->ratio = speedup(ref->s.median, r->s.median, c->higher);
    }
    return n;
}

/* DIR/NAME replaced by `text` (which is freed), never written through a
 * link; 0, or -1 after saying why. */
static int save_text(const struct compare *c, const char *name, char *text, size_t len)
{
    int rc = replace_file_at(c->out.fd, name, text, len);
    if (rc != 0)
        rr_error("compare: cannot write %s/%s: %s", c->out.path, name, strerror(errno));
    free(text);
    return rc;
}

/* The results' columns (util/table.h): the text on stdout, summary.csv
 * (with the value and its direction), summary.json's results. */
static const struct table_col result_cols[] = {
    {.name = "profile", .width = -16, .type = TT_STR},
    {.name = "np", .width = 6, .type = TT_INT},
    {.name = "runs", .width = 5, .type = TT_INT},
    {.name = "excluded", .head = "excl", .width = 5, .type = TT_INT},
    {.name = "value", .type = TT_STR, .show = TS_CSV},
    {.name = "better", .type = TT_STR, .show = TS_CSV},
    {.name = "median", .width = 12, .type = TT_NUM},
    {.name = "min", .width = 12, .type = TT_NUM},
    {.name = "max", .width = 12, .type = TT_NUM},
    {.name = "cv", .head = "cv%", .width = 7, .type = TT_NUM, .text_fmt = "%.1f",
     .text_scale = 100},
    {.name = "speedup", .width = 8, .type = TT_NUM, .text_fmt = "%.3f"},
    {.name = "efficiency", .width = 10, .type = TT_NUM, .text_fmt = "%.1f%%", .text_scale = 100},
    {.name = "ratio_to_baseline", .head = "vs base", .width = 9, .type = TT_NUM,
     .text_fmt = "%.3f"},
    {.name = "efficiency_lo", .head = "eff lo", .width = 8, .type = TT_NUM, .text_fmt = "%.1f%%",
     .text_scale = 100},
    {.name = "efficiency_hi", .head = "eff hi", .width = 7, .type = TT_NUM, .text_fmt = "%.1f%%",
     .text_scale = 100},
    /* last: the text leaves it out where no result has a figure */
    {.name = "light", .head = "of light", .width = 9, .type = TT_NUM, .text_fmt = "%.0f%%",
     .text_scale = 100},
};
#define RESULT_COLS (sizeof(result_cols) / sizeof(*result_cols))

/* Every result's row on each of the n tables; figures of a result without
 * a measured run are none. */
static void result_rows(const struct compare *c, const struct result *res, size_t nres,
                        const char *value, const struct table *ts, size_t n)
{
    for (size_t t = 0; t < n; t++)
        table_begin(&ts[t]);
    for (size_t i = 0; i < nres; i++) {
        const struct result *r = &res[i];
        bool none = !r->s.n;
        struct table_cell row[RESULT_COLS] = {
            {.s = r->profile}, {.i = r->np}, {.i = (long long)r->runs},
            {.i = (long long)r->excluded}, {.s = value}, {.s = better(c)},
            {.d = r->s.median, .none = none}, {.d = r->s.min, .none = none},
            {.d = r->s.max, .none = none}, {.d = r->s.cv, .none = none},
            {.d = r->speedup, .none = none}, {.d = r->efficiency, .none = none},
            {.d = r->ratio, .none = none},
            {.d = r->eff_lo, .none = none || isnan(r->eff_lo)},
            {.d = r->eff_hi, .none = none || isnan(r->eff_hi)},
            {.d = r->light, .none = none || isnan(r->light)},
        };
        for (size_t t = 0; t < n; t++)
            table_row(&ts[t], row);
    }
    for (size_t t = 0; t < n; t++)
        table_end(&ts[t]);
}

/* The table on stdout. */
static void print_table(const struct compare *c, const struct result *res, size_t n,
                        const char *value)
{
    printf("compare: %s per run (median of measured runs; %s; %s is better)\n", value,
           c->metric ? c->metric : "seconds, as the job script sees it", better(c));
    const struct result *lit = NULL;   /* the first result with a figure of light */
    for (size_t i = 0; i < n && !lit; i++)
        if (!isnan(res[i].light))
            lit = &res[i];
    struct table t = {.format = TABLE_TEXT, .out = stdout, .cols = result_cols,
                      .ncols = RESULT_COLS - !lit};
    result_rows(c, res, n, value, &t, 1);
    printf("baseline: %s; speedup and efficiency against each profile's smallest np (eff lo, eff hi: "
           "its 95%% interval over the rounds that measured both); results in %s\n",
           c->baseline, c->out.path);
    if (lit)
        printf("of light: the model's time over the median (rdmarun(1), JUDGE): %s, %ld ranks: "
               "%s\n", lit->profile, lit->np, lit->light_limit);
}

/* summary.csv's text (util/table.h's CSV backend). */
static char *csv_text(const struct compare *c, const struct result *res, size_t n,
                      const char *value, size_t *len)
{
    char *text;
    FILE *f = xmemstream_open(&text, len);
    struct table t = {.format = TABLE_CSV, .out = f, .cols = result_cols, .ncols = RESULT_COLS};
    result_rows(c, res, n, value, &t, 1);
    xmemstream_close(f);
    return text;
}

/* summary.json's text. */
static char *json_text(const struct compare *c, const struct result *res, size_t n,
                       const char *value, const struct run *runs, size_t nruns, size_t *len)
{
    char *text;
    FILE *f = xmemstream_open(&text, len);
    struct json j;
    json_init(&j, f);
    json_begin_object(&j, NULL);
    json_string(&j, "value", value);
    json_string(&j, "metric", c->metric);
    json_string(&j, "better", better(c));
    json_string(&j, "baseline", c->baseline);
    json_int(&j, "repeat", c->repeat);
    json_int(&j, "warmup", c->warmup);
    struct table t = {.format = TABLE_JSON, .json = &j, .json_key = "results",
                      .cols = result_cols, .ncols = RESULT_COLS};
    result_rows(c, res, n, value, &t, 1);
    json_begin_array(&j, "flagged_runs");
    for (size_t i = 0; i < nruns; i++) {
        if (runs[i].included)
            continue;
        json_begin_object(&j, NULL);
        json_int(&j, "run", runs[i].index);
        json_string(&j, "profile", runs[i].profile);
        json_int(&j, "np", runs[i].np);
        json_int(&j, "status", runs[i].status);
        json_string(&j, "verdict", runs[i].verdict);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
    xmemstream_close(f);
    return text;
}

int compare_write(const struct compare *c, const struct result *res, size_t n,
                  const struct run *runs, size_t nruns)
{
    const char *value = c->metric ? "metric" : "wall_s";
    print_table(c, res, n, value);
    size_t len;
    char *text = csv_text(c, res, n, value, &len);
    if (save_text(c, "summary.csv", text, len) != 0)
        return RR_EX_CANTCREAT;
    text = json_text(c, res, n, value, runs, nruns, &len);
    return save_text(c, "summary.json", text, len) != 0 ? RR_EX_CANTCREAT : 0;
}

/* Speedup and efficiency against np, one line per profile, with gnuplot
 * when it is installed: DIR/scaling.png and DIR/scaling.svg. */
void compare_plot(const struct compare *c, const struct result *res, size_t n)
{
    char *dat_text, *gp_text;
    size_t dat_len, gp_len;
    FILE *d = xmemstream_open(&dat_text, &dat_len), *g = xmemstream_open(&gp_text, &gp_len);
    fprintf(d, "# np speedup efficiency, one block per profile\n");
    for (size_t p = 0; p < c->profiles.n; p++) {
        fprintf(d, "# %s\n", c->labels.v[p]);
        for (size_t i = 0; i < n; i++)
            if (strcmp(res[i].profile, c->labels.v[p]) == 0 && !isnan(res[i].speedup))
                fprintf(d, "%ld %.6f %.6f\n", res[i].np, res[i].speedup, res[i].efficiency);
        fprintf(d, "\n\n");
    }
    xmemstream_close(d);
    fprintf(g, "# Made by rdmarun compare; run 'gnuplot scaling.gp' here to redraw.\n"
               "set key below\nset grid\nset xlabel 'ranks (np)'\nset logscale x 2\n");
    for (int t = 0; t < 2; t++) {
        /* noenhanced: a metric's "time_per_iter" is text, not subscripts */
        fprintf(g, "set terminal %s noenhanced size 1000,420\nset output 'scaling.%s'\n",
                t ? "svg" : "pngcairo", t ? "svg" : "png");
        /* The metric's name: the regex up to its first non-word character. */
        int len = c->metric ? (int)strspn(c->metric, "abcdefghijklmnopqrstuvwxyz"
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") : 0;
        fprintf(g, "set multiplot layout 1,2 title 'strong scaling of %.*s'\n",
                len ? len : 9, len ? c->metric : "wall time");
        for (int panel = 0; panel < 2; panel++) {
            fprintf(g, "set ylabel '%s'\nset yrange [0:*]\nplot ",
                    panel ? "parallel efficiency" : "speedup");
            for (size_t p = 0; p < c->profiles.n; p++) {
                /* A profile's name in a quoted gnuplot string: no quote, backslash or
                 * control character can end it (gnuplot runs commands: system()). */
                fprintf(g, "%s'scaling.dat' index %zu using 1:%d with linespoints title '",
                        p ? ", " : "", p, panel ? 3 : 2);
                for (const char *ch = c->labels.v[p]; *ch; ch++)
                    fputc(*ch == '\'' || *ch == '\\' || (unsigned char)*ch < 0x20 ? '_' : *ch, g);
                fputc('\'', g);
            }
            fprintf(g, "\n");
        }
        fprintf(g, "unset multiplot\nset output\n");
    }
    xmemstream_close(g);
    if (save_text(c, "scaling.dat", dat_text, dat_len) == 0 &&
        save_text(c, "scaling.gp", gp_text, gp_len) == 0)
        plot_draw(c->out.path, "scaling", "compare");
    else
        rr_warn("compare: no plot");
}

void plot_draw(const char *dir, const char *name, const char *who)
{
    /* gnuplot's chatter (an x range of one point) goes to NAME.log. */
    char *script = xasprintf("%s.gp", name), *log = xasprintf("%s.log", name);
    char *const argv[] = {"gnuplot", script, NULL};
    struct proc_spec spec = {.argv = argv, .dir = dir, .out = PROC_NULL, .err = PROC_FILE,
                             .err_file = log};
    struct proc p;
    int st = 0;
    bool started = proc_start(&spec, &p) == 0;
    if (started)
        proc_wait(&p, -1, &st);
    if (!started)
        rr_warn("%s: gnuplot not found: no plot, the data is in %s/%s.dat (hint: apt-get install "
                "gnuplot-nox)", who, dir, name);
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        rr_warn("%s: gnuplot failed on %s/%s (its messages are in %s)", who, dir, script, log);
    free(script);
    free(log);
}
