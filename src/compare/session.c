/* A comparison's run: its settings kept in DIR/compare.conf, a plan per
 * (profile, np), the runs interleaved round by round, each one rdmarun
 * itself (so it is planned, verified and recorded like any job), recorded in
 * DIR/runs.csv as it ends, so an interrupted comparison resumes where it
 * stopped; then the results. cmd/compare.c fills the settings from the
 * command line. */
#include "compare/compare.h"
#include "compare/measure.h"
#include "evidence/evidence.h"
#include "util/conf_file.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Run i: its round and combination. Each round starts one combination
 * later than the one before, so no profile always runs first or last. */
static void run_slot(const struct compare *c, int i, int *round, size_t *combo)
{
    size_t n = ncombos(c);
    *round = i / (int)n;
    *combo = ((size_t)i + (size_t)*round) % n;
}

static const char *combo_profile(const struct compare *c, size_t k)
{
    return c->profiles.v[k / c->nnp];
}

static const char *combo_label(const struct compare *c, size_t k)
{
    return c->labels.v[k / c->nnp];
}

/* Labels for the profiles, and the baseline as a label. */
static int make_labels(struct compare *c)
{
    for (size_t i = 0; i < c->profiles.n; i++) {
        const char *p = c->profiles.v[i], *base = strrchr(p, '/');
        base = base ? base + 1 : p;
        size_t len = strlen(base);
        if (len > 4 && strcmp(base + len - 4, ".ini") == 0)
            len -= 4;
        char *label = xstrndup(base, len);
        if (!*label || sv_find(&c->labels, label) >= 0) {
            rr_error("compare: profile '%s' %s (hint: give each profile a different name)", p,
                     *label ? "has the same name as another one compared" : "has no name");
            free(label);
            return RR_EX_USAGE;
        }
        sv_push(&c->labels, label);
        free(label);
    }
    int k = sv_find(&c->profiles, c->baseline);
    if (k >= 0) {
        free(c->baseline);
        c->baseline = xstrdup(c->labels.v[k]);
    } else if (sv_find(&c->labels, c->baseline) < 0) {
        rr_error("compare: --baseline %s is not one of the profiles compared", c->baseline);
        return RR_EX_USAGE;
    }
    return 0;
}

static long combo_np(const struct compare *c, size_t k)
{
    return c->np[k % c->nnp];
}

/* ---- the comparison's settings, kept in DIR/compare.conf for --resume ---- */

bool compare_count(const char *what, const char *s, long lo, long hi, long *out)
{
    if (parse_long(s, lo, hi, out))
        return true;
    rr_error("compare: %s '%s': expected a whole number from %ld to %ld", what, s ? s : "", lo,
             hi);
    return false;
}

static int save_settings(const struct compare *c)
{
    char *text;
    size_t len;
    FILE *f = xmemstream_open(&text, &len);
    conf_begin(f, "rdmarun compare settings; 'rdmarun compare --resume DIR' reads them");
    for (size_t i = 0; i < c->profiles.n; i++)
        conf_put(f, "profile", c->profiles.v[i]);
    for (size_t i = 0; i < c->nnp; i++)
        conf_putf(f, "np", "%ld", c->np[i]);
    conf_putf(f, "repeat", "%d", c->repeat);
    conf_putf(f, "warmup", "%d", c->warmup);
    conf_put(f, "baseline", c->baseline);
    if (c->metric) {
        conf_put(f, "metric", c->metric);
        conf_put(f, "better", c->higher ? "higher" : "lower");
    }
    for (size_t i = 0; i < c->args.n; i++)
        conf_put(f, "arg", c->args.v[i]);
    for (size_t i = 0; i < c->program.n; i++)
        conf_put(f, "program", c->program.v[i]);
    xmemstream_close(f);
    int rc = 0;
    if (replace_file_at(c->out.fd, "compare.conf", text, len) != 0) {
        rr_error("compare: cannot write %s/compare.conf: %s", c->out.path, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    free(text);
    return rc;
}

/* One setting of compare.conf into c (conf_setting). */
static int compare_setting(void *user, const char *name, const char *val, const char *where)
{
    struct compare *c = user;
    long v;
    if (strcmp(name, "profile") == 0)
        sv_push(&c->profiles, val);
    else if (strcmp(name, "np") == 0 && c->nnp < MAX_NP && compare_count("np", val, 1, 1 << 20, &v))
        c->np[c->nnp++] = v;
    else if (strcmp(name, "repeat") == 0 && compare_count("repeat", val, 1, 10000, &v))
        c->repeat = (int)v;
    else if (strcmp(name, "warmup") == 0 && compare_count("warmup", val, 0, 10000, &v))
        c->warmup = (int)v;
    else if (strcmp(name, "baseline") == 0 && !c->baseline)
        c->baseline = xstrdup(val);
    else if (strcmp(name, "metric") == 0 && !c->metric)
        c->metric = xstrdup(val);
    else if (strcmp(name, "better") == 0 && (!strcmp(val, "higher") || !strcmp(val, "lower")))
        c->higher = strcmp(val, "higher") == 0;
    else if (strcmp(name, "arg") == 0)
        sv_push(&c->args, val);
    else if (strcmp(name, "program") == 0)
        sv_push(&c->program, val);
    else {
        rr_error("%s: unknown or bad setting '%s' (hint: the file is written by rdmarun "
                 "compare; do not edit it)", where, name);
        return RR_EX_DATAERR;
    }
    return 0;
}

static int load_settings(struct compare *c)
{
    char *path = xasprintf("%s/compare.conf", c->out.path);
    int rc = conf_file_read(path, "the directory of an earlier 'rdmarun compare -o DIR'",
                            compare_setting, c);
    if (!rc && (!c->profiles.n || !c->nnp || !c->program.n || !c->repeat || !c->baseline)) {
        rr_error("%s is incomplete (hint: start the comparison again)", path);
        rc = RR_EX_DATAERR;
    }
    free(path);
    return rc;
}

/* ---- runs ---- */

static void base_argv(struct strvec *argv, const char *self, const char *profile)
{
    sv_push(argv, self);
    sv_push(argv, "-p");
    sv_push(argv, profile);
}

static void job_argv(const struct compare *c, struct strvec *argv, long np)
{
    sv_append(argv, &c->args);
    sv_push(argv, "-np");
    sv_pushf(argv, "%ld", np);
    sv_push(argv, "--");
    sv_append(argv, &c->program);
}

/* The plan of each combination, saved (the environment the runs get), and
 * the verdict it expects. */
static int save_plans(struct compare *c, const char *self)
{
    char *dir = results_dir_file(&c->out, "plans");
    c->expect = xcalloc(ncombos(c), sizeof(*c->expect));
    int rc = 0;
    if (results_dir_subdir(&c->out, "plans") != 0) {
        rr_error("compare: cannot make %s: %s", dir, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    for (size_t k = 0; k < ncombos(c) && !rc; k++) {
        struct strvec argv = {0};
        base_argv(&argv, self, combo_profile(c, k));
        job_argv(c, &argv, combo_np(c, k));
        char *path = xasprintf("%s/%s.np%ld.json", dir, combo_label(c, k), combo_np(c, k));
        char *what = xasprintf("compare: profile %s, %ld ranks", combo_profile(c, k),
                               combo_np(c, k));
        c->expect[k] = measure_plan(&argv, path, what, &rc);
        free(what);
        free(path);
        sv_free(&argv);
    }
    free(dir);
    return rc;
}

/* The run's figure: the metric's last value, and its bin. */
static void last_value(void *ctx, const char *bin, double value)
{
    struct run *r = ctx;
    r->metric = value;
    snprintf(r->bin, sizeof(r->bin), "%s", bin);
}

static void progress(int done, int total, const struct run *r, double elapsed)
{
    if (!isatty(STDERR_FILENO))
        return;
    double left = done ? elapsed / done * (total - done) : 0;
    fprintf(stderr, "\rcompare: run %d/%d: %s, %ld rank%s%s; %.0f s elapsed, about %.0f s "
            "left   ", done + 1, total, r->profile, r->np, r->np == 1 ? "" : "s",
            r->warmup ? " (warm-up)" : "", elapsed, left);
    fflush(stderr);
}

/* The recorded runs are this comparison's: no more than it has, each in
 * its slot (round, phase, profile, ranks). 0, or 65 after naming the line. */
static int rows_fit(const struct compare *c, const char *path, const struct run *rows,
                    size_t n)
{
    size_t total = (size_t)(c->warmup + c->repeat) * ncombos(c);
    for (size_t i = 0; i < n; i++) {
        int round;
        size_t k;
        run_slot(c, (int)i, &round, &k);
        const struct run *r = &rows[i];
        const char *why = i >= total ? "a run past the last of this comparison"
            : r->round != round || r->warmup != (round < c->warmup) ||
              strcmp(r->profile, combo_label(c, k)) != 0 || r->np != combo_np(c, k)
            ? "not the run compare.conf puts there (its round, phase, profile or ranks)" : NULL;
        if (why) {
            rr_error("%s:%zu: %s (hint: the file is written by rdmarun compare; do not edit it, "
                     "or start again with another -o DIR)", path, i + 2, why);
            return RR_EX_DATAERR;
        }
    }
    return 0;
}

/* Run i of the comparison (its combination and round): measured, judged
 * and recorded in runs.csv. 0, or RR_EX_CANTCREAT when it cannot be
 * recorded; an interrupted run records nothing. */
static int one_run(struct compare *c, const char *self, int i, int csv, const char *csv_path,
                   int done, int todo, double t0)
{
    struct run r;
    memset(&r, 0, sizeof(r));
    size_t k;
    run_slot(c, i, &r.round, &k);
    r.index = i;
    r.warmup = r.round < c->warmup;
    snprintf(r.profile, sizeof(r.profile), "%s", combo_label(c, k));
    r.np = combo_np(c, k);
    progress(done, todo, &r, proc_now() - t0);
    char *evdir = xasprintf("%s/runs/%04d", c->out.path, i);
    char *log = xasprintf("%s/runs/%04d.out", c->out.path, i);
    struct strvec argv = {0};
    base_argv(&argv, self, combo_profile(c, k));
    sv_push(&argv, "--evidence-dir");
    sv_push(&argv, evdir);
    job_argv(c, &argv, r.np);
    struct measured m;
    measure_run(argv.v, log, evdir, c->expect[k], -1, &m);
    sv_free(&argv);
    int rc = 0;
    if (!measure_interrupted()) {
        r.status = m.status;
        r.wall = m.wall;
        snprintf(r.verdict, sizeof(r.verdict), "%s", m.verdict);
        snprintf(r.expect, sizeof(r.expect), "%s", c->expect[k]);
        r.metric = NAN;
        if (c->metric)
            metric_read(&c->re, log, last_value, &r);
        /* one rank has no path between processes to verify: a serial run
         * (OpenFOAM without -parallel) has no transport evidence */
        bool serial = r.np == 1 && strcmp(m.verdict, "unknown") == 0;
        r.included = r.status == 0 && (m.met || serial) && (!c->metric || !isnan(r.metric));
        if (runs_append(csv, &r) != 0) {
            rr_error("compare: cannot record run %d in %s: %s", i, csv_path, strerror(errno));
            rc = RR_EX_CANTCREAT;
        } else if (!r.included) {
            if (isatty(STDERR_FILENO))
                fputs("\r\033[K", stderr);   /* off the progress line */
            char *why = r.status ? measure_failure(log) : NULL;
            rr_warn("compare: run %d (%s, %ld ranks) %s%s%s; left out of the statistics (%s)",
                    i, r.profile, r.np, r.status ? "failed" : m.met ? "printed no metric"
                    : strcmp(r.verdict, "fallback") == 0 ? "fell back to TCP"
                    : "has no verdict its profile expects", why ? ": " : "", why ? why : "", log);
            free(why);
        }
    }
    free(evdir);
    free(log);
    return rc;
}

static int do_runs(struct compare *c, const char *self)
{
    /* What is recorded stays as it is; new runs are appended a line each.
     * The next run is the one after the last recorded. */
    char *csv_path = xasprintf("%s/runs.csv", c->out.path);
    struct run *rows;
    size_t nrows;
    int read_rc = runs_read(csv_path, &rows, &nrows);
    if (!read_rc)
        read_rc = rows_fit(c, csv_path, rows, nrows);
    free(rows);
    if (read_rc) {
        free(csv_path);
        return read_rc;
    }
    int next = (int)nrows;
    int csv = runs_open(csv_path);
    if (csv < 0) {
        rr_error("compare: cannot write %s: %s", csv_path, strerror(errno));
        free(csv_path);
        return RR_EX_CANTCREAT;
    }
    int total = (c->warmup + c->repeat) * (int)ncombos(c);
    double t0 = proc_now();
    int rc = 0;
    if (next)
        fprintf(stderr, "rdmarun: compare: %d of %d runs already recorded in %s; continuing\n",
                next, total, c->out.path);
    for (int i = next; !rc && i < total && !measure_interrupted(); i++)
        rc = one_run(c, self, i, csv, csv_path, i - next, total - next, t0);
    if (isatty(STDERR_FILENO))
        fputc('\n', stderr);
    if (measure_interrupted()) {
        rr_error("compare: interrupted; the runs finished so far are in %s (continue with: "
                 "rdmarun compare --resume %s)", csv_path, c->out.path);
        rc = 130;
    }
    close(csv);
    free(csv_path);
    return rc;
}

void compare_free(struct compare *c)
{
    if (c->compiled)
        regfree(&c->re);
    for (size_t k = 0; c->expect && k < ncombos(c); k++)
        free(c->expect[k]);
    free(c->expect);
    sv_free(&c->profiles);
    sv_free(&c->labels);
    sv_free(&c->args);
    sv_free(&c->program);
    free(c->metric);
    free(c->baseline);
    results_dir_close(&c->out);
}

/* A new comparison's folder: made now, with its settings. */
static int start_dir(struct compare *c, const char *output)
{
    int rc = results_dir_create(&c->out, output, "rdmarun-compare", "compare");
    return rc ? rc : save_settings(c);
}

static int compile_metric(struct compare *c)
{
    if (!c->metric)
        return 0;
    if (!metric_compile(&c->re, c->metric, "compare: --metric")) {
        free(c->metric);
        c->metric = NULL;
        return RR_EX_USAGE;
    }
    c->compiled = true;
    return 0;
}

/* A comparison in which every run was left out measured nothing: it fails,
 * with the status of its first left-out run's reason. */
static int nothing_measured(const struct result *res, size_t n, const struct run *runs,
                            size_t nruns)
{
    for (size_t i = 0; i < n; i++)
        if (res[i].s.n)
            return 0;
    rr_error("compare: no run was measured: every one was left out (the warnings above say "
             "why)");
    for (size_t i = 0; i < nruns; i++) {
        const struct run *r = &runs[i];
        if (r->warmup || r->included)
            continue;
        if (r->status > 0)
            return r->status;
        if (strcmp(r->verdict, "fallback") == 0)
            return RR_EX_FALLBACK;
        if (strcmp(r->verdict, "unknown") == 0)
            return RR_EX_NO_EVIDENCE;
        return RR_EX_DATAERR;   /* it printed no metric */
    }
    return RR_EX_DATAERR;
}

int compare_load(struct compare *c, const char *dir)
{
    int rc = results_dir_resume(&c->out, dir, "compare", "compare --resume");
    return rc ? rc : load_settings(c);
}

int compare_run(struct compare *c, const char *output)
{
    bool resumed = c->out.path != NULL;
    int rc = make_labels(c);
    if (!rc)
        rc = compile_metric(c);
    if (!rc && !resumed)
        rc = start_dir(c, output);
    char *self = realpath("/proc/self/exe", NULL);
    if (!rc) {
        if (results_dir_subdir(&c->out, "runs") != 0) {
            rr_error("compare: cannot make %s/runs: %s", c->out.path, strerror(errno));
            rc = RR_EX_CANTCREAT;
        } else
            rc = save_plans(c, self);
    }
    if (!rc) {
        measure_catch_signals();
        int runs_rc = do_runs(c, self);
        struct run *runs = NULL;
        size_t nruns = 0;
        if (runs_rc != RR_EX_DATAERR) {   /* (do_runs named the line) */
            char *csv = xasprintf("%s/runs.csv", c->out.path);
            int read_rc = runs_read(csv, &runs, &nruns);
            free(csv);
            if (read_rc && !runs_rc)
                runs_rc = read_rc;
        }
        struct result *res = xcalloc(ncombos(c), sizeof(*res));
        size_t n = compare_summarize(c, runs, nruns, res);
        rc = runs_rc ? runs_rc : compare_write(c, res, n, runs, nruns);
        bool measured = !rc;
        if (!rc)
            measured = !(rc = nothing_measured(res, n, runs, nruns));
        if (!runs_rc && measured)   /* (no run measured: nothing to draw) */
            compare_plot(c, res, n);
        free(res);
        free(runs);
    }
    free(self);
    return rc;
}
