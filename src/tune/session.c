/* A tune's run: its settings and search space kept in DIR/tune.conf, the
 * base profile's plan (what every sample must be verified as), every run of
 * the benchmark rdmarun itself with the configuration's --set values,
 * recorded in the journal as it ends; the search (tune/search.c) over
 * them; then DIR/tuned.ini and the summary. A resumed tune replays the
 * journal: the search is a function of its samples, so it asks for the same
 * configurations in the same order and runs only what the journal lacks. */
#include "tune/tune.h"
#include "tune/session.h"
#include "compare/measure.h"
#include "compare/plan_file.h"
#include "facts/facts.h"
#include "launch/launch.h"
#include "tune/coll_rules.h"
#include "tune/nccl_rules.h"
#include "launch/program_mpi.h"
#include "profile/profile.h"
#include "tune/journal.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <config.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- samples ---- */

void tune_job_argv(const struct tune *t, const char *self, const char *profile,
                   const unsigned *choice, const char *evdir, struct strvec *argv)
{
    sv_push(argv, self);
    sv_push(argv, "-p");
    sv_push(argv, profile);
    for (size_t k = 0; choice && k < t->space.n; k++) {
        char *set = choice[k] ? tune_space_set(&t->space, k, choice[k]) : NULL;
        if (set) {
            sv_push(argv, "--set");
            sv_push(argv, set);
            free(set);
        }
        if (choice[k] && t->space.keys[k].requires) {
            sv_push(argv, "--set");
            sv_push(argv, t->space.keys[k].requires);
        }
    }
    if (evdir) {
        sv_push(argv, "--evidence-dir");
        sv_push(argv, evdir);
    }
    sv_append(argv, &t->args);
    sv_push(argv, "--");
    sv_append(argv, &t->program);
}

static bool budget_spent(const struct session *x)
{
    const struct tune *t = x->t;
    return (t->budget_runs && (long)x->next >= t->budget_runs) ||
           (t->budget_s && x->spent >= t->budget_s);
}

static void progress(const struct session *x, const char *settings)
{
    if (!isatty(STDERR_FILENO))
        return;
    const struct tune *t = x->t;
    double elapsed = proc_now() - x->t0;
    size_t ran = x->next - x->nold;
    char left[64] = "", of[32] = "";
    if (t->budget_runs)
        snprintf(of, sizeof(of), "/%ld", t->budget_runs);
    if (ran && t->budget_runs)
        snprintf(left, sizeof(left), ", about %.0f s left at most",
                 elapsed / (double)ran * (double)((size_t)t->budget_runs - x->next));
    else if (t->budget_s)
        snprintf(left, sizeof(left), ", at most %.0f s left", t->budget_s - x->spent);
    fprintf(stderr, "\r\033[Ktune: run %zu%s: %.50s; %.0f s%s", x->next + 1, of, settings,
            elapsed, left);
    fflush(stderr);
}

/* The figures of one run, as metric_read finds them. */
struct found {
    struct journal_record *r;
    size_t cap;
};

static void on_figure(void *ctx, const char *bin, double value)
{
    struct found *fd = ctx;
    struct journal_record *r = fd->r;
    for (size_t i = 0; i < r->nbins; i++)
        if (strcmp(r->bins[i].bin, bin) == 0) {
            r->bins[i].value = value;   /* the last figure of a bin counts */
            return;
        }
    if (r->nbins < TUNE_MAX_BINS) {
        GROW(r->bins, fd->cap, r->nbins + 1);
        r->bins[r->nbins++] = (struct journal_bin){xstrdup(bin), value};
    }
}

bool tune_measure(const struct tune *t, const regex_t *re, char *const *argv, const char *evdir,
                  const char *log, const char *expect, double deadline,
                  struct journal_record *r)
{
    struct measured m;
    measure_run(argv, log, evdir, expect, deadline, &m);
    memset(r, 0, sizeof(*r));
    if (measure_interrupted() || m.timed_out)
        return false;
    r->status = m.status;
    snprintf(r->verdict, sizeof(r->verdict), "%s", m.verdict);
    r->wall = m.wall;
    r->log = xstrdup(log);
    struct found fd = {.r = r};
    if (t->metric)
        metric_read(re, log, on_figure, &fd);
    else {   /* no metric: the wall time is the figure */
        r->bins = xmalloc(sizeof(*r->bins));
        r->bins[0] = (struct journal_bin){xstrdup(""), m.wall};
        r->nbins = 1;
    }
    r->included = m.status == 0 && m.met && r->nbins > 0;
    return true;
}

/* Run the benchmark once on `choice`; false when interrupted (nothing recorded). */
static bool run_one(struct session *x, const unsigned *choice, struct journal_record *r)
{
    const struct tune *t = x->t;
    char *evdir = xasprintf("%s/runs/%04zu", t->out.path, x->next);
    char *log = xasprintf("%s/runs/%04zu.out", t->out.path, x->next);
    struct strvec argv = {0};
    tune_job_argv(t, x->self, t->base, choice, evdir, &argv);
    /* --budget TIME is a hard deadline: a run still going at its end is
     * stopped (its whole tree) and not recorded */
    double deadline = t->budget_s ? proc_now() + (t->budget_s - x->spent) : -1;
    bool done = tune_measure(t, &x->re, argv.v, evdir, log, x->expect, deadline, r);
    if (!done && !measure_interrupted()) {
        rr_warn("tune: the budget (%.0f s) ended during run %zu: it was stopped, and is not "
                "recorded (see %s)", t->budget_s, x->next, log);
        x->budget_cut = true;
    }
    sv_free(&argv);
    free(evdir);
    free(log);
    if (done) {
        r->sample = x->next;
        r->config = tune_config_of(t, choice);
    }
    return done;
}

static void say_discarded(const struct session *x, const struct journal_record *r,
                          const char *settings)
{
    if (r->status)
        rr_warn("tune: run %zu (%s) failed with status %d; left out (see %s)", r->sample,
                settings, r->status, r->log);
    else if (!r->nbins)
        rr_warn("tune: run %zu (%s) printed no figure the metric matches; left out (see %s)",
                r->sample, settings, r->log);
    else
        rr_warn("tune: run %zu (%s) is not verified as the base expects: the verdict is %s, "
                "%s expected; left out (see %s)", r->sample, settings, r->verdict, x->expect,
                r->log);
}

/* A new run of `choice`, measured and recorded in r (what was left out,
 * said); false when the search stops (interrupted, the budget, a journal
 * that cannot be written). */
static bool fresh_sample(struct session *x, const struct tune_search *s, const unsigned *choice,
                         const char *settings, struct journal_record *r)
{
    if (measure_interrupted() || (!s->validating && budget_spent(x)))
        return false;
    progress(x, settings);
    if (!run_one(x, choice, r))
        return false;
    if (journal_append(x->fd, r) != 0) {
        rr_error("tune: cannot record run %zu in %s/samples.tsv: %s", x->next, x->t->out.path,
                 strerror(errno));
        x->error = RR_EX_CANTCREAT;
        journal_record_clear(r);
        return false;
    }
    if (!r->included) {
        if (isatty(STDERR_FILENO))
            fputs("\r\033[K", stderr);
        say_discarded(x, r, settings);
    }
    return true;
}

/* The base's first run ended well and printed nothing the metric matches:
 * a search on no figure would spend the budget for nothing (true, said). */
static bool no_figure_at_all(const struct session *x, const struct journal_record *r)
{
    const struct tune *t = x->t;
    if (x->next || !t->metric || r->status != 0 || r->nbins)
        return false;
    char *re = term_safe(t->metric, strlen(t->metric), 200);
    rr_error("tune: the metric '%s' matched nothing the base's first run printed (%s): "
             "stopped (hint: try the regex on that output with grep -E; options after "
             "'--' go to the program)", re, r->log);
    free(re);
    return true;
}

static enum tune_sample_status sample(const struct tune_search *s, const unsigned *choice,
                                      double *values)
{
    struct session *x = s->ctx;
    const struct tune *t = x->t;
    char *config = tune_config_of(t, choice), *settings = tune_settings_of(t, choice);
    struct journal_record fresh, *r = &fresh;
    enum tune_sample_status st = TUNE_STOP;
    if (x->next < x->nold) {   /* replayed */
        r = &x->old[x->next];
        if (strcmp(r->config, config) != 0) {
            rr_error("tune --resume: the journal's sample %zu is configuration %s where the "
                     "search asks for %s: it is not this tune's journal (hint: start a new tune "
                     "with another -o DIR)", x->next, r->config, config);
            x->error = RR_EX_DATAERR;
            goto out;
        }
    } else if (!fresh_sample(x, s, choice, settings, r)) {
        goto out;
    }
    if (!x->next)   /* the base's first run: its failure is the tune's, as compare's */
        x->first = r->status > 0 ? r->status : !r->nbins ? RR_EX_DATAERR
                 : strcmp(r->verdict, "fallback") == 0 ? RR_EX_FALLBACK : RR_EX_NO_EVIDENCE;
    if (no_figure_at_all(x, r)) {
        x->error = RR_EX_DATAERR;
        if (r == &fresh)
            journal_record_clear(r);
        goto out;
    }
    x->next++;
    x->spent += r->wall;
    if (!x->bins.n && r->included)   /* the base's first run: the bins */
        for (size_t i = 0; i < r->nbins; i++)
            sv_push(&x->bins, r->bins[i].bin);
    for (size_t i = 0; values && i < r->nbins; i++) {
        int b = sv_find(&x->bins, r->bins[i].bin);
        if (b >= 0)
            values[b] = r->bins[i].value;
    }
    st = r->included ? TUNE_SAMPLED : TUNE_DISCARDED;
    if (!r->included)
        x->discarded++;
    if (r == &fresh)
        journal_record_clear(r);
out:
    free(config);
    free(settings);
    return st;
}

char *tune_expectation(const struct tune *t, const char *self, int *rc)
{
    struct strvec argv = {0};
    tune_job_argv(t, self, t->base, NULL, NULL, &argv);
    char *path = xasprintf("%s/plan.json", t->out.path);
    char *what = xasprintf("tune: profile %s", t->base);
    char *expect = measure_plan(&argv, path, what, rc);
    /* --verify off: the user's word that no run is to be judged. */
    char *verify = expect ? plan_file_string(path, "verify") : NULL;
    if (verify && strcmp(verify, "off") == 0) {
        free(expect);
        expect = xstrdup("any");
    }
    free(verify);
    free(what);
    free(path);
    sv_free(&argv);
    return expect;
}

/* ---- the tune ---- */

/* A new tune's folder: made now, with its settings. */
static int start_dir(struct tune *t, const char *output)
{
    int rc = results_dir_create(&t->out, output, "rdmarun-tune", "tune");
    return rc ? rc : tune_save_settings(t);
}

static void session_free(struct session *x)
{
    free(x->self);
    free(x->expect);
    journal_free(x->old, x->nold);
    if (x->fd >= 0)
        close(x->fd);
    regfree(&x->re);
    sv_free(&x->bins);
    for (size_t k = 0; k < TUNE_MAX_KEYS; k++)
        free(x->note[k]);
    free(x->rules);
    free(x->rules_colls);
    free(x->nccl_rules);
    free(x->nccl_plugin);
    sv_free(&x->rules_notes);
}

/* The session's folder, the run's expectation, the node's facts and the
 * journal (what an earlier run of this tune recorded, replayed). */
static int session_open(struct session *x, const char *output, struct facts *f)
{
    struct tune *t = x->t;
    int rc = t->out.path ? 0 : start_dir(t, output);
    x->self = realpath("/proc/self/exe", NULL);
    if (!rc && results_dir_subdir(&t->out, "runs") != 0) {
        rr_error("tune: cannot make %s/runs: %s", t->out.path, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    if (!rc)
        x->expect = tune_expectation(t, x->self, &rc);
    if (!rc)
        rc = facts_gather(f, &(struct facts_sources){.placement_only = false});
    if (rc)
        return rc;
    char *journal = xasprintf("%s/samples.tsv", t->out.path);
    uint64_t identity = tune_identity(t);
    rc = journal_read(journal, identity, &x->old, &x->nold);
    /* A line past what could be read (a torn one) is cut when opened. */
    x->fd = rc ? -1 : journal_open(journal, identity);
    if (!rc && x->fd < 0) {
        rr_error("tune: cannot write %s: %s", journal, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    free(journal);
    return rc;
}

/* What is searched, and how its runs are judged, before the search. */
static void session_announce(const struct session *x)
{
    const struct tune *t = x->t;
    if (strcmp(x->expect, "any") == 0)
        fprintf(stderr, "rdmarun: tune: %s in %s, runs not verified (--verify off); "
                "searching:\n", t->base, t->out.path);
    else
        fprintf(stderr, "rdmarun: tune: %s in %s, every run verified as '%s'; searching:\n",
                t->base, t->out.path, x->expect);
    tune_space_print(&t->space, stderr);
    if (x->nold)
        fprintf(stderr, "rdmarun: tune: %zu runs already recorded in %s/samples.tsv; "
                "continuing\n", x->nold, t->out.path);
}

/* The base's first run: what it prints are the bins. 0, or why there is
 * nothing to tune. */
static int first_run(struct session *x, struct tune_search *s)
{
    unsigned zero[TUNE_MAX_KEYS] = {0};
    s->validating = true;
    enum tune_sample_status first = sample(s, zero, NULL);
    s->validating = false;
    if (first == TUNE_SAMPLED)
        return 0;
    if (x->budget_cut)
        rr_error("tune: the budget ended before the base profile's first run did: "
                 "nothing to tune (hint: a larger --budget)");
    else if (!x->error && !measure_interrupted())
        rr_error("tune: the base profile's run is not one to measure against (the "
                 "warning above says why): nothing to tune");
    return x->error ? x->error : measure_interrupted() ? 130
           : x->budget_cut ? RR_EX_DATAERR : x->first;
}

/* After the search: the journal read again whole (the replayed records and
 * the new ones, for the medians), tuned.ini and the summary written. */
static int session_finish(struct session *x, struct tune_search *s, const struct facts *f)
{
    struct tune *t = x->t;
    if (isatty(STDERR_FILENO))
        fputs("\r\033[K", stderr);
    journal_free(x->old, x->nold);
    char *jpath = xasprintf("%s/samples.tsv", t->out.path);
    if (journal_read(jpath, tune_identity(t), &x->old, &x->nold) != 0 && !x->error)
        x->error = RR_EX_DATAERR;
    free(jpath);
    bool interrupted = measure_interrupted();
    int rc = x->error;
    if (!rc)
        rc = tune_write_profile(x, s, f, interrupted);
    if (!rc && !interrupted)
        rc = tune_write_summary(x, s, f);
    t->tuned = !rc && !interrupted && (s->beats_base || x->rules || x->nccl_rules);
    if (!rc && s->stopped && !interrupted)
        fprintf(stderr, "rdmarun: tune: the budget ended the search after %zu runs "
                "(a larger --budget searches further)\n", x->next);
    if (!rc && interrupted) {
        rr_error("tune: interrupted; the runs so far are in %s/samples.tsv and what the "
                 "search accepted in %s/tuned.ini (continue with: rdmarun tune "
                 "--resume %s)", t->out.path, t->out.path, t->out.path);
        rc = 130;
    }
    return rc;
}

int tune_run(struct tune *t, const char *output)
{
    struct session x = {.t = t, .fd = -1};
    const char *regex = t->metric ? t->metric : "$^";   /* none: the wall time */
    if (!metric_compile(&x.re, regex, "tune: --metric"))
        return RR_EX_USAGE;
    struct facts f;
    memset(&f, 0, sizeof(f));
    int rc = session_open(&x, output, &f);
    if (!rc) {
        session_announce(&x);
        measure_catch_signals();
        x.t0 = proc_now();
        size_t nvalues[TUNE_MAX_KEYS];
        for (size_t k = 0; k < t->space.n; k++)
            nvalues[k] = t->space.keys[k].values.n;
        struct tune_search s = {.nkeys = t->space.n, .nvalues = nvalues, .nbins = 0,
                                .higher = t->higher, .min_gain = TUNE_MIN_GAIN,
                                .accept_rounds = TUNE_ACCEPT_ROUNDS, .sample = sample,
                                .moved = tune_moved, .ctx = &x};
        rc = first_run(&x, &s);
        if (!rc) {
            s.nbins = x.bins.n;
            tune_search_run(&s);
            tune_per_size_rules(&x, &s);
            tune_per_size_nccl(&x, &s);
            rc = session_finish(&x, &s, &f);
        }
    }
    facts_free(&f);
    session_free(&x);
    return rc;
}
