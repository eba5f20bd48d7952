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
#include "util/csv.h"
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
    printf("%-28s %14s %14s  %s\n", "bin", "base", "tuned", "speedup (95% CI)");
    fprintf(csv, "bin,base_median,tuned_median,gain,gain_lo,gain_hi,pairs\n");
    fprintf(dat, "# bin base_median tuned_median label\n");
    double *d = xmalloc((n + 1) * sizeof(*d)), *v[2];
    v[0] = xmalloc((n + 1) * sizeof(*v[0]));
    v[1] = xmalloc((n + 1) * sizeof(*v[1]));
    size_t slower = 0;
    for (size_t b = 0; b < bins.n; b++) {
        size_t np = 0, nv[2] = {0, 0};
        for (size_t k = 0; k < n; k++) {
            double x = figure_of(&runs[k].r[0], bins.v[b]), y = figure_of(&runs[k].r[1], bins.v[b]);
            if (x > 0 && isfinite(x))
                v[0][nv[0]++] = x;
            if (y > 0 && isfinite(y))
                v[1][nv[1]++] = y;
            if (x > 0 && y > 0 && isfinite(x) && isfinite(y))
                d[np++] = t->higher ? log(y / x) : log(x / y);
        }
        struct paired_gain g;
        paired_gain_of(d, np, &g);
        struct sample_stats s0, s1;
        stats_of(v[0], nv[0], &s0);
        stats_of(v[1], nv[1], &s1);
        const char *name = *bins.v[b] ? bins.v[b] : t->metric ? "the metric" : "wall time";
        char *text = np ? tune_gain_text(&g) : xstrdup("-");
        printf("%-28s %14.6g %14.6g  %s\n", name, s0.median, s1.median, text);
        free(text);
        slower += np >= 2 && g.hi < 0;
        csv_field(csv, name, false);
        fprintf(csv, "%.9g,%.9g,%.6f,%.6f,%.6f,%zu\n", s0.median, s1.median,
                exp(g.mean) - 1, exp(g.lo) - 1, exp(g.hi) - 1, g.n);
        /* The label as gnuplot reads a data column: no quote or control character
         * (the bin comes from the job's output). */
        fprintf(dat, "%zu %.9g %.9g \"", b, s0.median, s1.median);
        for (const char *c = name; *c; c++)
            fputc(*c == '"' || (unsigned char)*c < 0x20 ? ' ' : *c, dat);
        fputs("\"\n", dat);
    }
    free(d);
    free(v[0]);
    free(v[1]);
    xmemstream_close(csv);
    xmemstream_close(dat);
    if (slower)
        rr_warn("tune --validate: %zu bin%s slower with the tuned profile beyond the noise",
                slower, slower == 1 ? " is" : "s are");
    FILE *gp = xmemstream_open(&gp_text, &gp_len);
    fprintf(gp, "# Made by rdmarun tune --validate; run 'gnuplot validate.gp' here to "
                "redraw.\nset key left top\nset grid\nset logscale y\nset xtics rotate by -30\n"
                "set ylabel '%s (median, %s is better)'\n",
            t->metric ? "figure" : "wall time (s)", t->higher ? "higher" : "lower");
    for (int k = 0; k < 2; k++)
        fprintf(gp, "set terminal %s size 1000,480\nset output 'validate.%s'\n"
                    "plot 'validate.dat' using 1:2:xtic(4) with linespoints title 'base', "
                    "'validate.dat' using 1:3 with linespoints title 'tuned'\nset output\n",
                k ? "svg" : "pngcairo", k ? "svg" : "png");
    xmemstream_close(gp);
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

int tune_validate(struct tune *t, long pairs)
{
    char *tuned = xasprintf("%s/tuned.ini", t->out.path);
    if (access(tuned, R_OK) != 0) {
        rr_error("tune --validate: %s: %s (hint: the folder of a finished 'rdmarun tune')", tuned,
                 strerror(errno));
        free(tuned);
        return RR_EX_NOINPUT;
    }
    regex_t re;
    if (!metric_compile(&re, t->metric ? t->metric : "$^", "tune: --metric")) {
        free(tuned);
        return RR_EX_USAGE;
    }
    char *self = realpath("/proc/self/exe", NULL);
    int rc = 0;
    char *expect = tune_expectation(t, self, &rc);
    char *dir = results_dir_file(&t->out, "validate");
    char *journal = results_dir_file(&t->out, "validate.tsv");
    int fd = -1;
    uint64_t identity = tune_identity(t);
    if (!rc && (results_dir_subdir(&t->out, "validate") != 0 ||
                (fd = journal_open(journal, identity)) < 0)) {
        rr_error("tune --validate: cannot write %s: %s", journal, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    struct pair_run *runs = xcalloc((size_t)pairs, sizeof(*runs));
    size_t n = 0, base = 0;   /* base: this validation's first line in validate.tsv */
    struct journal_record *old = NULL;
    size_t nold = 0;
    if (!rc)
        rc = journal_read(journal, identity, &old, &nold);
    if (!rc) {
        journal_free(old, nold);
        base = nold;
        measure_catch_signals();
    }
    for (long k = 0; !rc && k < pairs && !measure_interrupted(); k++) {
        for (int i = 0; i < 2 && !rc; i++) {
            int which = (int)(k % 2) ^ i;   /* even rounds: base first */
            size_t sample = base + (size_t)k * 2 + (size_t)i;
            char *evdir = xasprintf("%s/%04zu", dir, sample);
            char *log = xasprintf("%s/%04zu.out", dir, sample);
            struct strvec argv = {0};
            tune_job_argv(t, self, which ? tuned : t->base, NULL, evdir, &argv);
            struct journal_record *r = &runs[k].r[which];
            if (tune_measure(t, &re, argv.v, evdir, log, expect, -1, r)) {
                r->sample = sample;
                r->config = xstrdup(which ? "tuned" : "base");
                if (journal_append(fd, r) != 0) {
                    rr_error("tune --validate: cannot record in %s: %s", journal,
                             strerror(errno));
                    rc = RR_EX_CANTCREAT;
                }
                if (!r->included)
                    rr_warn("tune --validate: run %zu (%s) is left out: status %d, verdict %s "
                            "(%s expected; see %s)", sample, r->config, r->status, r->verdict,
                            expect, log);
            }
            sv_free(&argv);
            free(evdir);
            free(log);
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
    if (fd >= 0)
        close(fd);
    regfree(&re);
    free(expect);
    free(self);
    free(dir);
    free(journal);
    free(tuned);
    return rc;
}
