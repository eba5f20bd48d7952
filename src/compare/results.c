/* compare's results: statistics per (profile, np), the table, the CSV and
 * JSON summaries, and the gnuplot plot. */
#include "compare/compare.h"
#include "util/csv.h"
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
                    v[nv++] = c->metric ? x->metric : x->wall;
            }
            stats_of(v, nv, &r->s);
            free(v);
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
        if (r->s.n && ref)
            r->ratio = speedup(ref->s.median, r->s.median, c->higher);
    }
    return n;
}

static void print_num(FILE *f, const char *fmt, double v, bool csv)
{
    if (isnan(v))
        fputs(csv ? "" : "-", f);
    else
        fprintf(f, fmt, v);
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

/* The table on stdout. */
static void print_table(const struct compare *c, const struct result *res, size_t n,
                        const char *value)
{
    printf("compare: %s per run (median of measured runs; %s; %s is better)\n", value,
           c->metric ? c->metric : "seconds, as the job script sees it", better(c));
    printf("%-16s %6s %5s %5s %12s %12s %12s %7s %8s %10s %9s\n", "profile", "np", "runs",
           "excl", "median", "min", "max", "cv%", "speedup", "efficiency", "vs base");
    for (size_t i = 0; i < n; i++) {
        const struct result *r = &res[i];
        printf("%-16s %6ld %5zu %5zu ", r->profile, r->np, r->runs, r->excluded);
        if (!r->s.n) {
            printf("%12s %12s %12s %7s %8s %10s %9s\n", "-", "-", "-", "-", "-", "-", "-");
            continue;
        }
        printf("%12.6g %12.6g %12.6g %7.1f ", r->s.median, r->s.min, r->s.max, r->s.cv * 100);
        print_num(stdout, "%8.3f ", r->speedup, false);
        print_num(stdout, "%9.1f%% ", r->efficiency * 100, false);
        print_num(stdout, "%9.3f", r->ratio, false);
        putchar('\n');
    }
    printf("baseline: %s; speedup and efficiency against each profile's smallest np; results "
           "in %s\n", c->baseline, c->out.path);
}

/* summary.csv's text (util/csv.h's fields). */
static char *csv_text(const struct compare *c, const struct result *res, size_t n,
                      const char *value, size_t *len)
{
    char *text;
    FILE *f = xmemstream_open(&text, len);
    fprintf(f, "profile,np,runs,excluded,value,better,median,min,max,cv,speedup,efficiency,"
            "ratio_to_baseline\n");
    for (size_t i = 0; i < n; i++) {
        const struct result *r = &res[i];
        csv_field(f, r->profile, false);
        fprintf(f, "%ld,%zu,%zu,", r->np, r->runs, r->excluded);
        csv_field(f, value, false);
        fprintf(f, "%s,", better(c));
        if (r->s.n)
            fprintf(f, "%.9g,%.9g,%.9g,%.9g,", r->s.median, r->s.min, r->s.max, r->s.cv);
        else
            fputs(",,,,", f);
        print_num(f, "%.9g", r->speedup, true);
        fputc(',', f);
        print_num(f, "%.9g", r->efficiency, true);
        fputc(',', f);
        print_num(f, "%.9g", r->ratio, true);
        fputc('\n', f);
    }
    xmemstream_close(f);
    return text;
}

static void json_result(struct json *j, const struct result *r)
{
    json_begin_object(j, NULL);
    json_string(j, "profile", r->profile);
    json_int(j, "np", r->np);
    json_int(j, "runs", (int64_t)r->runs);
    json_int(j, "excluded", (int64_t)r->excluded);
    const char *keys[] = {"median", "min", "max", "cv", "speedup", "efficiency",
                          "ratio_to_baseline"};
    double vals[] = {r->s.median, r->s.min, r->s.max, r->s.cv, r->speedup, r->efficiency,
                     r->ratio};
    for (size_t k = 0; k < 7; k++) {
        if (!r->s.n || isnan(vals[k]))
            json_null(j, keys[k]);
        else
            json_double(j, keys[k], vals[k]);
    }
    json_end_object(j);
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
    json_begin_array(&j, "results");
    for (size_t i = 0; i < n; i++)
        json_result(&j, &res[i]);
    json_end_array(&j);
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
               "set key left top\nset grid\nset xlabel 'ranks (np)'\nset logscale x 2\n");
    for (int t = 0; t < 2; t++) {
        fprintf(g, "set terminal %s size 1000,420\nset output 'scaling.%s'\n",
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
