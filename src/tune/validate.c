/* rdmarun tune --validate DIR: the base against DIR/tuned.ini on fresh runs,
 * interleaved (base first in even rounds, tuned first in odd ones), paired
 * by round; per bin the speedup with its 95% interval, in a table,
 * DIR/validate.csv and a plot of the figure against the bin. The runs are
 * recorded in DIR/validate.tsv as the journal's lines are. */
#include "compare/compare.h"
#include "compare/measure.h"
#include "compare/stats.h"
#include "tune/journal.h"
#include "tune/tune.h"
#include "util/table.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pair_run {
    struct journal_record r[2];   /* 0: the base, 1: tuned */
};

static double figure_of(const struct journal_record *r, const char *bin)
{
    for (size_t i = 0; r->included && i < r->nbins; i++)
        if (strcmp(r->bins[i].bin, bin) == 0)
            return r->bins[i].value;
    return NAN;
}

/* One bin's row: its medians and the paired gain, on stdout and in the
 * CSV (ts: both tables), and in the plot's data; whether the tuned profile
 * is slower beyond the noise. v0, v1, d: room for n figures each. */
static bool bin_row(const struct tune *t, const struct pair_run *runs, size_t n, size_t b,
                    const char *bin, const struct table *ts, FILE *dat, double *v0, double *v1,
                    double *d)
{
    size_t np = 0, n0 = 0, n1 = 0;
    for (size_t k = 0; k < n; k++) {
        double x = figure_of(&runs[k].r[0], bin), y = figure_of(&runs[k].r[1], bin);
        if (x > 0 && isfinite(x))
            v0[n0++] = x;
        if (y > 0 && isfinite(y))
            v1[n1++] = y;
        if (x > 0 && y > 0 && isfinite(x) && isfinite(y))
            d[np++] = t->higher ? log(y / x) : log(x / y);
    }
    struct paired_gain g;
    paired_gain_of(d, np, &g);
    struct sample_stats s0, s1;
    stats_of(v0, n0, &s0);
    stats_of(v1, n1, &s1);
    const char *name = *bin ? bin : t->metric ? "the metric" : "wall time";
    tune_bin_row(ts, 2, name, s0.median, s1.median, NAN, &g);
    /* The label as gnuplot reads a data column: no quote or control character
     * (the bin comes from the job's output). */
    fprintf(dat, "%zu %.9g %.9g \"", b, s0.median, s1.median);
    for (const char *c = name; *c; c++)
        fputc(*c == '"' || (unsigned char)*c < 0x20 ? ' ' : *c, dat);
    fputs("\"\n", dat);
    return np >= 2 && g.hi < 0;
}

/* validate.gp: the medians of both profiles per bin, as PNG and SVG. */
static char *plot_text(const struct tune *t, size_t *len)
{
    char *text;
    FILE *gp = xmemstream_open(&text, len);
    fprintf(gp, "# Made by rdmarun tune --validate; run 'gnuplot validate.gp' here to "
                "redraw.\nset key below\nset grid\nset logscale y\n"
                /* each bin's label ends at its tick, down to the left: the
                 * last one is not cut at the picture's right edge */
                "set xtics rotate by 30 right\nset offsets 0.5, 0.5, 0, 0\nset lmargin 14\n"
                "set ylabel '%s (median, %s is better)'\n",
            t->metric ? "figure" : "wall time (s)", t->higher ? "higher" : "lower");
    for (int k = 0; k < 2; k++)
        fprintf(gp, "set terminal %s noenhanced size 1000,480\nset output 'validate.%s'\n"
                    "plot 'validate.dat' using 1:2:xtic(4) with linespoints title 'base', "
                    "'validate.dat' using 1:3 with linespoints title 'tuned'\nset output\n",
                k ? "svg" : "pngcairo", k ? "svg" : "png");
    xmemstream_close(gp);
    return text;
}

/* The table, validate.csv, validate.dat and the plot. */
static int report(const struct tune *t, const struct pair_run *runs, size_t n)
{
    struct strvec bins = {0};
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; runs[k].r[0].included && i < runs[k].r[0].nbins; i++)
            if (sv_find(&bins, runs[k].r[0].bins[i].bin) < 0)
                sv_push(&bins, runs[k].r[0].bins[i].bin);
    char *csv_text, *dat_text, *gp_text;
    size_t csv_len, dat_len, gp_len;
    FILE *csv = xmemstream_open(&csv_text, &csv_len), *dat = xmemstream_open(&dat_text, &dat_len);
    printf("rdmarun tune --validate: %s against %s/tuned.ini, %zu interleaved pairs of runs\n",
           t->base, t->out.path, n);
    struct table_col cols[TUNE_BIN_COLS];
    tune_bin_cols("speedup (95% CI)", cols);
    /* without the last column, the speed of light: the summary has it */
    const struct table ts[2] = {
        {.format = TABLE_TEXT, .out = stdout, .cols = cols, .ncols = TUNE_BIN_COLS - 1},
        {.format = TABLE_CSV, .out = csv, .cols = cols, .ncols = TUNE_BIN_COLS - 1},
    };
    table_begin(&ts[0]);
    table_begin(&ts[1]);
    fprintf(dat, "# bin base_median tuned_median label\n");
    double *d = xmalloc((n + 1) * sizeof(*d)), *v0 = xmalloc((n + 1) * sizeof(*v0));
    double *v1 = xmalloc((n + 1) * sizeof(*v1));
    size_t slower = 0;
    for (size_t b = 0; b < bins.n; b++)
        slower += bin_row(t, runs, n, b, bins.v[b], ts, dat, v0, v1, d);
    free(d);
    free(v0);
    free(v1);
    xmemstream_close(csv);
    xmemstream_close(dat);
    if (slower)
        rr_warn("tune --validate: %zu bin%s slower with the tuned profile beyond the noise",
                slower, slower == 1 ? " is" : "s are");
    gp_text = plot_text(t, &gp_len);
    int rc = 0;
    if (replace_file_at(t->out.fd, "validate.csv", csv_text, csv_len) != 0 ||
        replace_file_at(t->out.fd, "validate.dat", dat_text, dat_len) != 0 ||
        replace_file_at(t->out.fd, "validate.gp", gp_text, gp_len) != 0) {
        rr_error("tune --validate: cannot write in %s: %s", t->out.path, strerror(errno));
        rc = RR_EX_CANTCREAT;
    } else {
        plot_draw(t->out.path, "validate", "tune --validate");
    }
    free(csv_text);
    free(dat_text);
    free(gp_text);
    sv_free(&bins);
    return rc;
}

/* A validation's state: the runs' expectation and program, where their
 * evidence and journal go. */
struct validation {
    struct tune *t;
    regex_t re;
    char *self, *expect, *dir, *journal, *tuned;
    int fd;
    size_t base;   /* this validation's first line in validate.tsv */
};

/* Run `which` (0: base, 1: tuned) of pair k, recorded in the journal. 0,
 * or RR_EX_CANTCREAT. */
static int validate_run(struct validation *v, long k, int which, struct journal_record *r)
{
    size_t sample = v->base + (size_t)k * 2 + (size_t)((int)(k % 2) ^ which);
    char *evdir = xasprintf("%s/%04zu", v->dir, sample);
    char *log = xasprintf("%s/%04zu.out", v->dir, sample);
    struct strvec argv = {0};
    tune_job_argv(v->t, v->self, which ? v->tuned : v->t->base, NULL, evdir, &argv);
    int rc = 0;
    if (tune_measure(v->t, &v->re, argv.v, evdir, log, v->expect, -1, r)) {
        r->sample = sample;
        r->config = xstrdup(which ? "tuned" : "base");
        if (journal_append(v->fd, r) != 0) {
            rr_error("tune --validate: cannot record in %s: %s", v->journal, strerror(errno));
            rc = RR_EX_CANTCREAT;
        }
        if (!r->included)
            rr_warn("tune --validate: run %zu (%s) is left out: status %d, verdict %s "
                    "(%s expected; see %s)", sample, r->config, r->status, r->verdict,
                    v->expect, log);
    }
    sv_free(&argv);
    free(evdir);
    free(log);
    return rc;
}

/* The validation's folder and journal (its earlier lines counted). */
static int validation_open(struct validation *v)
{
    int rc = 0;
    v->expect = tune_expectation(v->t, v->self, &rc);
    v->dir = results_dir_file(&v->t->out, "validate");
    v->journal = results_dir_file(&v->t->out, "validate.tsv");
    uint64_t identity = tune_identity(v->t);
    if (!rc && (results_dir_subdir(&v->t->out, "validate") != 0 ||
                (v->fd = journal_open(v->journal, identity)) < 0)) {
        rr_error("tune --validate: cannot write %s: %s", v->journal, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    struct journal_record *old = NULL;
    size_t nold = 0;
    if (!rc)
        rc = journal_read(v->journal, identity, &old, &nold);
    if (!rc) {
        journal_free(old, nold);
        v->base = nold;
    }
    return rc;
}

int tune_validate(struct tune *t, long pairs)
{
    struct validation v = {.t = t, .fd = -1};
    v.tuned = xasprintf("%s/tuned.ini", t->out.path);
    if (access(v.tuned, R_OK) != 0) {
        rr_error("tune --validate: %s: %s (hint: the folder of a finished 'rdmarun tune')",
                 v.tuned, strerror(errno));
        free(v.tuned);
        return RR_EX_NOINPUT;
    }
    if (!metric_compile(&v.re, t->metric ? t->metric : "$^", "tune: --metric")) {
        free(v.tuned);
        return RR_EX_USAGE;
    }
    v.self = realpath("/proc/self/exe", NULL);
    int rc = validation_open(&v);
    struct pair_run *runs = xcalloc((size_t)pairs, sizeof(*runs));
    size_t n = 0;
    if (!rc)
        measure_catch_signals();
    for (long k = 0; !rc && k < pairs && !measure_interrupted(); k++) {
        for (int i = 0; i < 2 && !rc; i++) {
            int which = (int)(k % 2) ^ i;   /* even rounds: base first */
            rc = validate_run(&v, k, which, &runs[k].r[which]);
        }
        if (!rc && !measure_interrupted())
            n = (size_t)k + 1;
    }
    if (!rc && measure_interrupted()) {
        rr_error("tune --validate: interrupted after %zu pairs", n);
        rc = 130;
    }
    if (!rc)
        rc = report(t, runs, n);
    for (long k = 0; k < pairs; k++)
        for (int i = 0; i < 2; i++)
            journal_record_clear(&runs[k].r[i]);
    free(runs);
    if (v.fd >= 0)
        close(v.fd);
    regfree(&v.re);
    free(v.expect);
    free(v.self);
    free(v.dir);
    free(v.journal);
    free(v.tuned);
    return rc;
}
