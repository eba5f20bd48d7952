/* A tune's run: its settings and search space kept in DIR/tune.conf, the
 * base profile's plan (what every sample must be verified as), every run of
 * the benchmark rdmarun itself with the configuration's --set values,
 * recorded in the journal as it ends; the search (tune/search.c) over
 * them; then DIR/tuned.ini and the summary. A resumed tune replays the
 * journal: the search is a function of its samples, so it asks for the same
 * configurations in the same order and runs only what the journal lacks. */
#include "tune/tune.h"
#include "compare/measure.h"
#include "compare/plan_file.h"
#include "facts/facts.h"
#include "launch/launch.h"
#include "tune/coll_rules.h"
#include "tune/nccl_rules.h"
#include "launch/program_mpi.h"
#include "profile/profile.h"
#include "tune/journal.h"
#include "util/csv.h"
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

#define TUNE_MIN_GAIN 0.02
#define TUNE_ACCEPT_ROUNDS 5

struct session {
    struct tune *t;
    char *self, *expect;
    struct journal_record *old;   /* the journal so far: replayed, not run */
    size_t nold, next;            /* next: the sample the search asks for next */
    int fd;                       /* the journal, to append */
    regex_t re;
    struct strvec bins;           /* the bins, as the base's first run printed them */
    double spent, t0;             /* seconds of runs (replayed ones too); when this run began */
    bool budget_cut;              /* the budget's end stopped a run */
    size_t discarded;
    int error;                    /* why the search was stopped, when it was not the budget */
    unsigned current[TUNE_MAX_KEYS];
    char *note[TUNE_MAX_KEYS];    /* per key: the move that set its value */
    int first;                    /* the status a failed first run of the base gives the tune */
    char *rules;                  /* DIR/coll-rules.txt's absolute path, when one was written */
    char *rules_colls;            /* the collectives it has rules for: "allreduce, bcast" */
    bool rules_key[TUNE_MAX_KEYS]; /* the keys the rules stand for (forced, they would win) */
    char *nccl_rules;             /* DIR/nccl-tuner.csv's absolute path, when one was written */
    char *nccl_plugin;            /* NCCL's example tuner plugin found here, or NULL */
    bool nccl_keys[TUNE_MAX_KEYS]; /* [nccl] ALGO and PROTO: the rules stand for them */
    struct strvec rules_notes;    /* a line per rule: its bin and gain */
};

/* ---- the built-in benchmark ---- */

char *tune_builtin_benchmark(bool ucx)
{
    char *perftest = ucx ? launch_on_path("ucx_perftest") : NULL;
    if (ucx && !perftest) {
        rr_error("tune: --benchmark ucx runs UCX's ucx_perftest, which is not on PATH (hint: "
                 "install UCX's tools: Debian's ucx-utils, RHEL's ucx)");
        return NULL;
    }
    free(perftest);
    char *path = helper_path(ucx ? "libexec/ucx-pair" : "examples/mpi_pingpong");
    if (path && access(path, X_OK) != 0) {
        rr_error("tune: the built-in benchmark %s is not there (%s) (hint: %s; or give your "
                 "own: rdmarun tune -p PROFILE --metric REGEX -- PROGRAM)", path, strerror(errno),
                 ucx ? "reinstall rdmarun" : "build it with 'make examples', which needs Open "
                 "MPI's mpicc");
        free(path);
        path = NULL;
    }
    return path;
}

/* ---- settings, kept in DIR/tune.conf for --resume ---- */

/* The settings as tune.conf holds them. Caller frees. */
static char *settings_text(const struct tune *t, size_t *len)
{
    char *text;
    FILE *f = xmemstream_open(&text, len);
    fprintf(f, "# rdmarun tune settings; 'rdmarun tune --resume DIR' reads them\nbase=%s\n",
            t->base);
    fprintf(f, "budget_runs=%ld\nbudget_s=%.3f\n", t->budget_runs, t->budget_s);
    if (t->metric)
        fprintf(f, "metric=%s\n", t->metric);
    fprintf(f, "better=%s\n", t->higher ? "higher" : "lower");
    for (size_t i = 0; i < t->args.n; i++)
        fprintf(f, "arg=%s\n", t->args.v[i]);
    for (size_t i = 0; i < t->program.n; i++)
        fprintf(f, "program=%s\n", t->program.v[i]);
    for (size_t k = 0; k < t->space.n; k++) {
        const struct tune_key *key = &t->space.keys[k];
        fprintf(f, "key=%s.%s\nfrom=%s\n", key->section, key->key, key->from);
        if (key->requires)
            fprintf(f, "requires=%s\n", key->requires);
        for (size_t v = 0; v < key->values.n; v++)
            fprintf(f, "value=%s\n", key->values.v[v]);
    }
    xmemstream_close(f);
    return text;
}

static int save_settings(const struct tune *t)
{
    size_t len;
    char *text = settings_text(t, &len);
    int rc = 0;
    if (replace_file_at(t->out.fd, "tune.conf", text, len) != 0) {
        rr_error("tune: cannot write %s/tune.conf: %s", t->out.path, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    free(text);
    return rc;
}

uint64_t tune_identity(const struct tune *t)
{
    size_t len;
    char *text = settings_text(t, &len);
    uint64_t h = fnv1a(FNV1A_INIT, text, len);
    free(text);
    /* the base as its runs get it: merged with its parents (a budget is
     * not the base's; only what a run is given is part of it) */
    struct strvec dirs = {0};
    struct profile p;
    profile_search_path(&dirs);
    if (profile_load(t->base, &dirs, &p) == 0) {
        FILE *f = xmemstream_open(&text, &len);
        profile_write(&p, f);
        xmemstream_close(f);
        h = fnv1a(h, text, len);
        free(text);
        profile_free(&p);
    }
    sv_free(&dirs);
    return h;
}

int tune_load(struct tune *t, const char *dir, const char *who)
{
    int opened = results_dir_resume(&t->out, dir, "tune", who);
    if (opened)
        return opened;
    char *path = xasprintf("%s/tune.conf", dir);
    FILE *f = open_input(path);
    if (!f) {
        rr_error("tune --resume: cannot read %s: %s (hint: the folder of an earlier 'rdmarun "
                 "tune -o DIR')", path, input_strerror(errno));
        free(path);
        return RR_EX_NOINPUT;
    }
    char *line = NULL;
    size_t size = 0;
    int rc = 0, lineno = 0;
    struct tune_key *key = NULL;
    while (!rc && getline(&line, &size, f) > 0) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        char *eq = strchr(line, '=');
        if (line[0] == '#' || !line[0])
            continue;
        if (eq)
            *eq = '\0';
        const char *v = eq ? eq + 1 : "";
        char *end = NULL;
        if (eq && strcmp(line, "base") == 0)
            t->base = xstrdup(v);
        else if (eq && strcmp(line, "budget_runs") == 0)
            t->budget_runs = strtol(v, &end, 10);
        else if (eq && strcmp(line, "budget_s") == 0)
            t->budget_s = strtod(v, &end);
        else if (eq && strcmp(line, "metric") == 0)
            t->metric = xstrdup(v);
        else if (eq && strcmp(line, "better") == 0)
            t->higher = strcmp(v, "higher") == 0;
        else if (eq && strcmp(line, "arg") == 0)
            sv_push(&t->args, v);
        else if (eq && strcmp(line, "program") == 0)
            sv_push(&t->program, v);
        else if (eq && strcmp(line, "key") == 0 && strchr(v, '.') &&
                 t->space.n < TUNE_MAX_KEYS) {
            key = &t->space.keys[t->space.n++];
            memset(key, 0, sizeof(*key));
            key->section = xstrndup(v, strcspn(v, "."));
            key->key = xstrdup(strchr(v, '.') + 1);
        } else if (eq && strcmp(line, "from") == 0 && key && !key->from)
            key->from = xstrdup(v);
        else if (eq && strcmp(line, "requires") == 0 && key && !key->requires && strchr(v, '.') &&
                 strchr(v, '='))
            key->requires = xstrdup(v);
        else if (eq && strcmp(line, "value") == 0 && key)
            sv_push(&key->values, v);
        else
            end = line;   /* not a setting */
        if (end && *end) {
            rr_error("%s:%d: not a setting of rdmarun tune (hint: the file is written by rdmarun "
                     "tune; do not edit it)", path, lineno);
            rc = RR_EX_DATAERR;
        }
    }
    free(line);
    fclose(f);
    for (size_t k = 0; !rc && k < t->space.n; k++)
        if (t->space.keys[k].values.n < 2 || !t->space.keys[k].from)
            rc = RR_EX_DATAERR;
    if (!rc && (!t->base || !t->program.n || !t->space.n))
        rc = RR_EX_DATAERR;
    if (rc == RR_EX_DATAERR && lineno)
        rr_error("%s is incomplete (hint: start the tune again)", path);
    free(path);
    return rc;
}

void tune_free(struct tune *t)
{
    results_dir_close(&t->out);
    free(t->base);
    free(t->space_file);
    free(t->metric);
    sv_free(&t->args);
    sv_free(&t->program);
    tune_space_free(&t->space);
}

/* ---- samples ---- */

static char *config_of(const struct tune *t, const unsigned *choice)
{
    struct strvec parts = {0};
    for (size_t k = 0; k < t->space.n; k++)
        sv_pushf(&parts, "%u", choice[k]);
    char *s = sv_join(&parts, ",");
    sv_free(&parts);
    return s;
}

/* "ucx.RNDV_THRESH=64K ucx.TLS=tcp,self", or "the base's values". */
static char *settings_of(const struct tune *t, const unsigned *choice)
{
    struct strvec parts = {0};
    for (size_t k = 0; k < t->space.n; k++)
        if (choice[k]) {
            const struct tune_key *key = &t->space.keys[k];
            const char *v = key->values.v[choice[k]];
            sv_pushf(&parts, "%s.%s=%s", key->section, key->key, *v ? v : "(unset)");
        }
    char *s = parts.n ? sv_join(&parts, " ") : xstrdup("the base's values");
    sv_free(&parts);
    return s;
}

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
        r->config = config_of(t, choice);
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

static enum tune_sample_status sample(const struct tune_search *s, const unsigned *choice,
                                      double *values)
{
    struct session *x = s->ctx;
    const struct tune *t = x->t;
    char *config = config_of(t, choice), *settings = settings_of(t, choice);
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
    } else {
        if (measure_interrupted() || (!s->validating && budget_spent(x)))
            goto out;
        progress(x, settings);
        if (!run_one(x, choice, r))
            goto out;
        if (journal_append(x->fd, r) != 0) {
            rr_error("tune: cannot record run %zu in %s/samples.tsv: %s", x->next, t->out.path,
                     strerror(errno));
            x->error = RR_EX_CANTCREAT;
            journal_record_clear(r);
            goto out;
        }
        if (!r->included) {
            if (isatty(STDERR_FILENO))
                fputs("\r\033[K", stderr);
            say_discarded(x, r, settings);
        }
    }
    if (!x->next)   /* the base's first run: its failure is the tune's, as compare's */
        x->first = r->status > 0 ? r->status : !r->nbins ? RR_EX_DATAERR
                 : strcmp(r->verdict, "fallback") == 0 ? RR_EX_FALLBACK : RR_EX_NO_EVIDENCE;
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

/* ---- moves, the result ---- */

/* A bin as the user reads it: its label, or what the one figure is. */
static const char *bin_name(const struct session *x, size_t b)
{
    return *x->bins.v[b] ? x->bins.v[b] : x->t->metric ? "the metric" : "wall time";
}

static char *percent(double log_gain)
{
    return xasprintf("%+.1f%%", (exp(log_gain) - 1) * 100);
}

char *tune_gain_text(const struct paired_gain *g)
{
    char *m = percent(g->mean), *lo = percent(g->lo), *hi = percent(g->hi);
    char *s = xasprintf("%s (95%% CI %s to %s, %zu pair%s)", m, lo, hi, g->n,
                        g->n == 1 ? "" : "s");
    free(m);
    free(lo);
    free(hi);
    return s;
}

static void moved(const struct tune_search *s, const unsigned *choice,
                  const struct paired_gain *gain)
{
    struct session *x = s->ctx;
    const struct tune *t = x->t;
    char *g = tune_gain_text(gain);
    char date[16];
    time_t now = time(NULL);
    strftime(date, sizeof(date), "%Y-%m-%d", localtime(&now));
    struct strvec changes = {0};
    for (size_t k = 0; k < t->space.n; k++)
        if (choice[k] != x->current[k]) {
            const struct tune_key *key = &t->space.keys[k];
            const char *from = key->values.v[x->current[k]], *to = key->values.v[choice[k]];
            sv_pushf(&changes, "%s.%s %s -> %s", key->section, key->key,
                     *from ? from : "(unset)", *to ? to : "(unset)");
        }
    char *what = sv_join(&changes, ", ");
    if (isatty(STDERR_FILENO))
        fputs("\r\033[K", stderr);
    fprintf(stderr, "rdmarun: tune: %s: %s faster over all bins\n", what, g);
    for (size_t k = 0; k < t->space.n; k++)
        if (choice[k] != x->current[k]) {
            free(x->note[k]);
            x->note[k] = xasprintf("%s: %s over all bins, by run %zu, %s", what, g, x->next,
                                   date);
            x->current[k] = choice[k];
        }
    free(what);
    sv_free(&changes);
    free(g);
}

/* The median figure of each bin over the included runs of one configuration. */
static double median_of(const struct session *x, const char *config, const char *bin)
{
    double *v = xmalloc((x->nold + 1) * sizeof(*v));
    size_t n = 0;
    for (size_t i = 0; i < x->nold; i++) {
        const struct journal_record *r = &x->old[i];
        if (!r->included || strcmp(r->config, config) != 0)
            continue;
        for (size_t b = 0; b < r->nbins; b++)
            if (strcmp(r->bins[b].bin, bin) == 0)
                v[n++] = r->bins[b].value;
    }
    struct sample_stats st;
    stats_of(v, n, &st);
    free(v);
    return n ? st.median : NAN;
}

/* DIR/tuned.ini: BASE with the values that beat it, each with the move
 * that set it, and where and when it was measured. */
static int write_profile(const struct session *x, const struct tune_search *s,
                         const struct facts *f, bool interrupted)
{
    const struct tune *t = x->t;
    char *text;
    size_t len;
    FILE *m = xmemstream_open(&text, &len);
    char date[32], host[256] = "";
    time_t now = time(NULL);
    strftime(date, sizeof(date), "%Y-%m-%d %H:%M", localtime(&now));
    gethostname(host, sizeof(host) - 1);
    char *kind = facts_kind(f), *fp = facts_fingerprint(f);
    bool rules = x->rules && !interrupted, nccl = x->nccl_rules && !interrupted;
    bool tuned = (s->beats_base && !interrupted) || rules || nccl;
    fprintf(m, "# Tuned by 'rdmarun tune' on %s, %s: profile %s, %zu runs (%zu left out).\n",
            host, date, t->base, x->next, x->discarded);
    if (interrupted)
        fprintf(m, "# Interrupted: the values below were accepted by the search but not yet\n"
                   "# measured against %s (continue with: rdmarun tune --resume %s).\n",
                t->base, t->out.path);
    else if (!s->beats_base && !rules && !nccl)
        fprintf(m, "# Nothing beat %s by %.0f%% in a bin without another bin slower beyond\n"
                   "# the noise: the values stay %s's.\n", t->base, TUNE_MIN_GAIN * 100, t->base);
    else if (!s->beats_base)
        fprintf(m, "# Only %s per message size beat %s's (below).\n",
                rules && nccl ? "Open MPI's and NCCL's algorithms"
                : rules ? "Open MPI's algorithms" : "NCCL's algorithm and protocol", t->base);
    else {
        fprintf(m, "# Against %s, on fresh pairs of runs (95%% intervals):\n", t->base);
        for (size_t b = 0; b < x->bins.n; b++)
            if (s->gain[b].n) {
                char *g = tune_gain_text(&s->gain[b]);
                fprintf(m, "#   %s: %s\n", bin_name(x, b), g);
                free(g);
            }
    }
    fprintf(m, "# This kind of node: %s.\n\n[profile]\ndescription = %s tuned by rdmarun "
               "tune on %s, %s\n", kind, t->base, host, date);
    char *base = strchr(t->base, '/') ? realpath(t->base, NULL) : NULL;
    fprintf(m, "inherit = %s\ntuned-for = %s\n", base ? base : t->base, fp);
    free(base);
    /* The rules file first: a forced algorithm would win over it, so the
     * key it stands for is not written below. */
    if (rules) {
        fprintf(m, "\n[mpi]\n# Open MPI's %s algorithm per message size, in %s:\n",
                x->rules_colls, x->rules);
        for (size_t i = 0; i < x->rules_notes.n; i++)
            fprintf(m, "#   %s\n", x->rules_notes.v[i]);
        fprintf(m, "coll_tuned_use_dynamic_rules = 1\ncoll_tuned_dynamic_rules_filename = %s\n",
                x->rules);
    }
    if (nccl) {
        fprintf(m, "\n[nccl]\n# NCCL's algorithm and protocol per message size, in %s, for its "
                   "example\n# tuner plugin (its rules there, with their gains).\n",
                x->nccl_rules);
        if (x->nccl_plugin)
            fprintf(m, "TUNER_PLUGIN = %s\n", x->nccl_plugin);
        else
            fprintf(m, "# NCCL loads libnccl-tuner-example.so from the library path; there was "
                       "none on\n# this node's (build it from NCCL's source, "
                       "plugins/tuner/example).\nTUNER_PLUGIN = example\n");
        fprintf(m, "TUNER_CONFIG_FILE = %s\n", x->nccl_rules);
    }
    /* Section by section, each key of it that moved. */
    struct strvec done = {0};
    for (size_t k = 0; (tuned || interrupted) && k < t->space.n; k++) {
        const char *sec = t->space.keys[k].section;
        if (sv_find(&done, sec) >= 0)
            continue;
        sv_push(&done, sec);
        bool header = (rules && strcmp(sec, "mpi") == 0) || (nccl && strcmp(sec, "nccl") == 0);
        for (size_t j = k; j < t->space.n; j++) {
            const struct tune_key *key = &t->space.keys[j];
            if (strcmp(key->section, sec) != 0 || !s->best[j] || (rules && x->rules_key[j]) ||
                (nccl && x->nccl_keys[j]))
                continue;
            if (!header)
                fprintf(m, "\n[%s]\n", sec);
            header = true;
            const char *v = key->values.v[s->best[j]];
            if (x->note[j])
                fprintf(m, "# %s\n", x->note[j]);
            fprintf(m, "%s = %s\n", key->key, *v ? v : "");
            /* What the value needs, in its own section: [mpi] for Open MPI's. */
            const char *req = key->requires, *dot = req ? strchr(req, '.') : NULL;
            if (dot && strncmp(req, sec, (size_t)(dot - req)) == 0 && !sec[dot - req])
                fprintf(m, "# needed by %s\n%.*s = %s\n", key->key,
                        (int)(strcspn(dot + 1, "=")), dot + 1, strchr(dot, '=') + 1);
        }
    }
    sv_free(&done);
    xmemstream_close(m);
    int rc = replace_file_at(t->out.fd, "tuned.ini", text, len);
    if (rc)
        rr_error("tune: cannot write %s/tuned.ini: %s", t->out.path, strerror(errno));
    free(text);
    free(kind);
    free(fp);
    return rc ? RR_EX_CANTCREAT : 0;
}

/* The table on stdout, DIR/summary.csv and DIR/summary.json. */
static int write_summary(const struct session *x, const struct tune_search *s)
{
    const struct tune *t = x->t;
    unsigned zero[TUNE_MAX_KEYS] = {0};
    char *cbase = config_of(t, zero), *cbest = config_of(t, s->best);
    char *settings = settings_of(t, s->best);
    printf("rdmarun tune: %zu runs (%zu left out) over %zu keys; ", x->next, x->discarded,
           t->space.n);
    if (s->beats_base || (!x->rules && !x->nccl_rules))
        printf("%s\n", s->beats_base ? "tuned" : "the base stays");
    else if (x->rules)
        printf("tuned: Open MPI's %s algorithm by message size%s\n", x->rules_colls,
               x->nccl_rules ? ", NCCL's algorithm and protocol too" : "");
    else
        printf("tuned: NCCL's algorithm and protocol by message size\n");
    printf("best: %s\n", settings);
    printf("%-28s %14s %14s  %s\n", "bin", "base", "tuned", "gain (95% CI, fresh pairs)");
    char *csv_text, *js_text;
    size_t csv_len, js_len;
    FILE *csv = xmemstream_open(&csv_text, &csv_len), *js = xmemstream_open(&js_text, &js_len);
    fprintf(csv, "bin,base_median,tuned_median,gain,gain_lo,gain_hi,pairs\n");
    struct json j;
    json_init(&j, js);
    json_begin_object(&j, NULL);
    json_string(&j, "base", t->base);
    json_int(&j, "runs", (int64_t)x->next);
    json_int(&j, "left_out", (int64_t)x->discarded);
    json_bool(&j, "tuned", s->beats_base || x->rules || x->nccl_rules);
    json_string(&j, "coll_rules", x->rules);
    json_string(&j, "nccl_rules", x->nccl_rules);
    json_string(&j, "expect", x->expect);
    json_begin_object(&j, "values");
    for (size_t k = 0; k < t->space.n; k++)
        if (s->best[k]) {
            char *name = xasprintf("%s.%s", t->space.keys[k].section, t->space.keys[k].key);
            json_string(&j, name, t->space.keys[k].values.v[s->best[k]]);
            free(name);
        }
    json_end_object(&j);
    json_begin_array(&j, "bins");
    for (size_t b = 0; b < x->bins.n; b++) {
        const char *bin = bin_name(x, b);
        double mb = median_of(x, cbase, x->bins.v[b]), mt = median_of(x, cbest, x->bins.v[b]);
        const struct paired_gain *g = &s->gain[b];
        char *text = g->n ? tune_gain_text(g) : xstrdup("-");
        printf("%-28s %14.6g %14.6g  %s\n", bin, mb, mt, text);
        free(text);
        csv_field(csv, bin, false);
        fprintf(csv, "%.9g,%.9g,%.6f,%.6f,%.6f,%zu\n", mb, mt, exp(g->mean) - 1,
                exp(g->lo) - 1, exp(g->hi) - 1, g->n);
        json_begin_object(&j, NULL);
        json_string(&j, "bin", bin);
        json_double(&j, "base_median", mb);
        json_double(&j, "tuned_median", mt);
        json_double(&j, "gain", exp(g->mean) - 1);
        json_double(&j, "gain_lo", exp(g->lo) - 1);
        json_double(&j, "gain_hi", exp(g->hi) - 1);
        json_int(&j, "pairs", (int64_t)g->n);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
    xmemstream_close(csv);
    xmemstream_close(js);
    int rc = 0;
    if (replace_file_at(t->out.fd, "summary.csv", csv_text, csv_len) != 0 ||
        replace_file_at(t->out.fd, "summary.json", js_text, js_len) != 0) {
        rr_error("tune: cannot write the summary in %s: %s", t->out.path, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    free(csv_text);
    free(js_text);
    printf("profile: %s/tuned.ini (rdmarun -p %s/tuned.ini ...)\n", t->out.path, t->out.path);
    free(cbase);
    free(cbest);
    free(settings);
    return rc;
}

/* DIR/NAME, a native file that passed its own check: written (replaced,
 * never through a planted link), its absolute path for the profile to
 * name; NULL after a warning. */
static char *keep_file(const struct tune *t, const char *name, const char *text)
{
    if (replace_file_at(t->out.fd, name, text, strlen(text)) != 0) {
        rr_warn("tune: cannot write %s/%s: %s", t->out.path, name, strerror(errno));
        return NULL;
    }
    char *dir = realpath(t->out.path, NULL);
    char *path = xasprintf("%s/%s", dir ? dir : t->out.path, name);
    free(dir);
    return path;
}

/* The sized bins of collective `name` ("bcast size=N"), in size order: their
 * indices in order[], their sizes in size[] (by bin); how many. */
static size_t sized_bins(const struct session *x, const char *name, size_t *order,
                         unsigned long long *size)
{
    size_t n = 0, len = strlen(name);
    for (size_t b = 0; b < x->bins.n; b++) {
        const char *bin = x->bins.v[b];
        char *end;
        if (strncmp(bin, name, len) != 0 || !starts_with(bin + len, " size=") ||
            !isdigit((unsigned char)bin[len + 6]))
            continue;
        errno = 0;
        size[b] = strtoull(bin + len + 6, &end, 10);
        if (*end || errno)
            continue;
        /* Insertion sort: a few bins. */
        size_t at = n++;
        for (; at > 0 && size[order[at - 1]] > size[b]; at--)
            order[at] = order[at - 1];
        order[at] = b;
    }
    return n;
}

/* The collective of an Open MPI algorithm key ("bcast" of
 * [mpi] coll_tuned_bcast_algorithm), or NULL. */
static char *algorithm_coll(const struct tune_key *k)
{
    size_t klen = strlen(k->key);
    if (strcmp(k->section, "mpi") != 0 || !starts_with(k->key, "coll_tuned_") ||
        klen <= strlen("coll_tuned__algorithm") ||
        strcmp(k->key + klen - strlen("_algorithm"), "_algorithm") != 0)
        return NULL;
    return xstrndup(k->key + strlen("coll_tuned_"),
                    klen - strlen("coll_tuned_") - strlen("_algorithm"));
}

/* The rules of one collective from its per-size winners: one where the
 * algorithm changes, the first from 0 bytes, each value numbered as
 * ompi_info numbers it (algs, codes). How many, or -1 when a value has no
 * number. */
static long rules_from_bins(const struct tune_key *k, size_t key, const size_t *order,
                            size_t no, const unsigned long long *size,
                            unsigned (*per_bin)[TUNE_MAX_KEYS], const struct strvec *algs,
                            const struct strvec *codes, struct coll_rule *r)
{
    size_t n = 0;
    for (size_t i = 0; i < no; i++) {
        const char *v = k->values.v[per_bin[order[i]][key]];
        int at = *v ? sv_find(algs, v) : 0;
        if (at < 0 || !algs->n)
            return -1;
        long alg = *v ? atol(codes->v[at]) : 0;
        if (!(n && r[n - 1].alg == alg)) {
            r[n] = (struct coll_rule){n ? size[order[i]] : 0, alg,
                                      *v ? v : "Open MPI's fixed decision"};
            n++;
        }
    }
    return algs->n ? (long)n : -1;
}

/* coll-rules.txt from the blocks made, checked against ompi_info's
 * numbers and kept, or said why not. */
static void keep_rules(struct session *x, struct coll_block *blocks, size_t nblocks,
                       const struct strvec *names, struct strvec *notes, const long *max_alg)
{
    const struct tune *t = x->t;
    for (size_t b = 0; b < nblocks; b++)
        blocks[b].name = names->v[b];
    char *why = NULL, *header = xasprintf("rdmarun tune: %s in %s", t->base, t->out.path);
    char *text = nblocks ? coll_rules_text(header, blocks, nblocks) : NULL;
    char *list = sv_join(names, ", ");
    free(header);
    if (text && !coll_rules_check(text, max_alg, &why))
        rr_warn("tune: the %s rules made for %s fail their own check (%s): not kept", list,
                t->out.path, why);
    else if (text && (x->rules = keep_file(t, "coll-rules.txt", text))) {
        x->rules_colls = xstrdup(list);
        x->rules_notes = *notes;
        *notes = (struct strvec){0};
        fprintf(stderr, "rdmarun: tune: Open MPI's %s algorithm by message size in %s\n",
                list, x->rules);
    }
    if (!x->rules)
        memset(x->rules_key, 0, sizeof(x->rules_key));
    free(list);
    free(why);
    free(text);
}

/* Open MPI's collective algorithms per message size: for each
 * coll_tuned_NAME_algorithm of the space whose collective the benchmark
 * prints bins of by size ("allreduce size=N"), the best configuration with
 * each algorithm is raced per bin; where another algorithm wins a size
 * (tune_search_per_bin), DIR/coll-rules.txt says which for each size of
 * each collective, as ompi_info numbers them, read back and checked before
 * it is kept. */
static void per_size_rules(struct session *x, struct tune_search *s)
{
    const struct tune *t = x->t;
    bool base = true;
    for (size_t k = 0; k < t->space.n; k++)
        base = base && !s->best[k];
    if (s->stopped || (!base && !s->beats_base))
        return;   /* the per-size race is against the result, which must stand */
    char *info = NULL;
    long max_alg[COLL_COUNT] = {0};
    struct coll_block blocks[TUNE_MAX_KEYS];
    struct coll_rule rules[TUNE_MAX_KEYS][TUNE_MAX_BINS];
    struct strvec notes = {0}, names_done = {0};
    size_t nblocks = 0;
    bool ok = true;
    for (size_t key = 0; ok && key < t->space.n && !s->stopped; key++) {
        const struct tune_key *k = &t->space.keys[key];
        char *name = algorithm_coll(k);
        if (!name)
            continue;
        size_t order[TUNE_MAX_BINS];
        unsigned long long size[TUNE_MAX_BINS];
        size_t no = coll_id(name) >= 0 ? sized_bins(x, name, order, size) : 0;
        unsigned per_bin[TUNE_MAX_BINS][TUNE_MAX_KEYS];
        bool differs = false;
        if (no >= 2) {
            tune_search_per_bin(s, &key, 1, per_bin);
            for (size_t i = 0; i < no; i++)
                differs = differs || per_bin[order[i]][key] != s->best[key];
        }
        if (s->stopped || !differs) {
            free(name);
            continue;
        }
        /* Names to numbers, as the installed Open MPI has them. */
        if (!info) {
            char *argv[] = {"ompi_info", "--param", "coll", "tuned", "--level", "9",
                            "--parsable", NULL};
            info = proc_stdout(argv, 10, 1 << 20);
        }
        struct strvec algs = {0}, codes = {0};
        if (info)
            ompi_info_enumerators(info, k->key, &algs, &codes);
        int id = coll_id(name);
        for (size_t i = 0; i < codes.n; i++)
            if (atol(codes.v[i]) > max_alg[id])
                max_alg[id] = atol(codes.v[i]);
        struct coll_rule *r = rules[nblocks];
        long n = rules_from_bins(k, key, order, no, size, per_bin, &algs, &codes, r);
        ok = n >= 0;
        if (!ok)
            rr_warn("tune: the installed ompi_info does not number %s's values: no rules "
                    "file", k->key);
        sv_free(&algs);
        sv_free(&codes);
        if (ok && n > 1) {
            blocks[nblocks++] = (struct coll_block){NULL, r, (size_t)n};
            x->rules_key[key] = true;
            sv_push(&names_done, name);
            for (size_t i = 0; i < no; i++)
                if (s->per_bin_gain[order[i]].n) {
                    char *g = tune_gain_text(&s->per_bin_gain[order[i]]);
                    sv_pushf(&notes, "%s: %s, %s", x->bins.v[order[i]],
                             k->values.v[per_bin[order[i]][key]], g);
                    free(g);
                }
        }
        free(name);
    }
    free(info);
    if (ok)
        keep_rules(x, blocks, nblocks, &names_done, &notes, max_alg);
    else
        memset(x->rules_key, 0, sizeof(x->rules_key));
    sv_free(&notes);
    sv_free(&names_done);
}

/* NCCL's algorithm and protocol per collective and message size: when the
 * space has [nccl] ALGO and PROTO and the benchmark prints bins of NCCL's
 * collectives by size ("allreduce size=N", as nccl-tests counts bytes),
 * the best configuration with each pair is raced per bin; where another
 * pair wins a size, DIR/nccl-tuner.csv has a rule for each size range of
 * each collective, in the CSV of NCCL's example tuner plugin, read back and
 * checked before it is kept; tuned.ini then points NCCL at it instead of
 * forcing one algorithm and protocol everywhere. */
static void per_size_nccl(struct session *x, struct tune_search *s)
{
    const struct tune *t = x->t;
    size_t keys[2] = {tune_space_find(&t->space, "nccl", "ALGO"),
                      tune_space_find(&t->space, "nccl", "PROTO")};
    bool base = true;
    for (size_t k = 0; k < t->space.n; k++)
        base = base && !s->best[k];
    if (keys[0] == t->space.n || keys[1] == t->space.n || s->stopped ||
        (!base && !s->beats_base))
        return;
    static const char *const colls[] = {"allreduce", "broadcast", "reduce", "allgather",
                                        "reducescatter"};
    size_t order[5][TUNE_MAX_BINS], no[5], nsized = 0;
    unsigned long long size[5][TUNE_MAX_BINS];
    for (size_t c = 0; c < 5; c++)
        nsized += no[c] = sized_bins(x, colls[c], order[c], size[c]);
    if (nsized < 2)
        return;
    unsigned per_bin[TUNE_MAX_BINS][TUNE_MAX_KEYS];
    tune_search_per_bin(s, keys, 2, per_bin);
    bool differs = false;
    for (size_t c = 0; c < 5; c++)
        for (size_t i = 0; i < no[c]; i++)
            for (size_t k = 0; k < 2; k++)
                differs = differs || per_bin[order[c][i]][keys[k]] != s->best[keys[k]];
    if (s->stopped || !differs)
        return;
    /* A rule per run of sizes with the same pair, from its first size up
     * to the next run's; none where the pair leaves either to NCCL (the
     * plugin needs both). */
    struct nccl_rule rules[TUNE_MAX_BINS];
    char *why[TUNE_MAX_BINS];
    size_t n = 0;
    bool ok = true;
    for (size_t c = 0; c < 5 && ok; c++)
        for (size_t i = 0; i < no[c] && ok; i++) {
            size_t b = order[c][i];
            const char *av = t->space.keys[keys[0]].values.v[per_bin[b][keys[0]]];
            const char *pv = t->space.keys[keys[1]].values.v[per_bin[b][keys[1]]];
            const char *algo = nccl_csv_algo(av), *proto = nccl_csv_proto(pv);
            unsigned long long from = i ? size[c][b] : 0;
            if ((*av && !algo) || (*pv && !proto)) {
                rr_warn("tune: NCCL_ALGO=%s NCCL_PROTO=%s won %s, which the example tuner "
                        "plugin cannot name: no NCCL rules file", av, pv, x->bins.v[b]);
                ok = false;
                break;
            }
            if (n && strcmp(rules[n - 1].coll, colls[c]) == 0 && rules[n - 1].max == from - 1 &&
                ((!algo && !rules[n - 1].algo) ||
                 (algo && proto && rules[n - 1].algo && strcmp(rules[n - 1].algo, algo) == 0 &&
                  strcmp(rules[n - 1].proto, proto) == 0))) {
                rules[n - 1].max = i + 1 < no[c] ? size[c][order[c][i + 1]] - 1 : ULLONG_MAX;
                continue;
            }
            char *g = s->per_bin_gain[b].n ? tune_gain_text(&s->per_bin_gain[b]) : NULL;
            why[n] = g ? xasprintf("%s: NCCL_ALGO=%s NCCL_PROTO=%s, %s", x->bins.v[b], av, pv, g)
                       : xasprintf("%s: %s", x->bins.v[b], algo && proto
                                   ? "the best configuration's" : "left to NCCL");
            free(g);
            rules[n] = (struct nccl_rule){colls[c], from,
                                          i + 1 < no[c] ? size[c][order[c][i + 1]] - 1
                                                        : ULLONG_MAX,
                                          algo && proto ? algo : NULL,
                                          algo && proto ? proto : NULL, why[n]};
            n++;
        }
    /* The runs left to NCCL are no rules: the plugin has no "NCCL's own". */
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (rules[i].algo)
            rules[m++] = rules[i];
    char *err = NULL, *header = xasprintf("rdmarun tune: %s in %s, for NCCL's example tuner "
                                          "plugin (NCCL_TUNER_CONFIG_FILE)", t->base, t->out.path);
    char *text = ok && m ? nccl_rules_text(header, rules, m) : NULL;
    free(header);
    if (text && !nccl_rules_check(text, &err))
        rr_warn("tune: the NCCL rules made for %s fail their own check (%s): not kept", t->out.path,
                err);
    else if (text && (x->nccl_rules = keep_file(t, "nccl-tuner.csv", text))) {
        x->nccl_keys[keys[0]] = x->nccl_keys[keys[1]] = true;
        x->nccl_plugin = library_path("libnccl-tuner-example.so");
        fprintf(stderr, "rdmarun: tune: NCCL's algorithm and protocol by message size in %s\n",
                x->nccl_rules);
        if (!x->nccl_plugin)
            rr_warn("tune: NCCL reads %s through its example tuner plugin, "
                    "libnccl-tuner-example.so, which is not on the library path here (hint: "
                    "build it from NCCL's source, plugins/tuner/example, and put it on "
                    "LD_LIBRARY_PATH)", x->nccl_rules);
    }
    for (size_t i = 0; i < n; i++)
        free(why[i]);
    free(err);
    free(text);
}

/* ---- the tune ---- */

/* A new tune's folder: made now, with its settings. */
static int start_dir(struct tune *t, const char *output)
{
    int rc = results_dir_create(&t->out, output, "rdmarun-tune", "tune");
    return rc ? rc : save_settings(t);
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

int tune_run(struct tune *t, const char *output)
{
    struct session x = {.t = t, .fd = -1};
    const char *regex = t->metric ? t->metric : "$^";   /* none: the wall time */
    if (!metric_compile(&x.re, regex, "tune: --metric"))
        return RR_EX_USAGE;
    int rc = t->out.path ? 0 : start_dir(t, output);
    x.self = realpath("/proc/self/exe", NULL);
    if (!rc && results_dir_subdir(&t->out, "runs") != 0) {
        rr_error("tune: cannot make %s/runs: %s", t->out.path, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    if (!rc)
        x.expect = tune_expectation(t, x.self, &rc);
    struct facts f;
    memset(&f, 0, sizeof(f));
    if (!rc)
        rc = facts_gather(&f, &(struct facts_sources){.placement_only = false});
    char *journal = xasprintf("%s/samples.tsv", t->out.path);
    if (!rc) {
        uint64_t identity = tune_identity(t);
        rc = journal_read(journal, identity, &x.old, &x.nold);
        /* A line past what could be read (a torn one) is cut when opened. */
        x.fd = rc ? -1 : journal_open(journal, identity);
        if (!rc && x.fd < 0) {
            rr_error("tune: cannot write %s: %s", journal, strerror(errno));
            rc = RR_EX_CANTCREAT;
        }
    }
    free(journal);
    if (!rc) {
        if (strcmp(x.expect, "any") == 0)
            fprintf(stderr, "rdmarun: tune: %s in %s, runs not verified (--verify off); "
                    "searching:\n", t->base, t->out.path);
        else
            fprintf(stderr, "rdmarun: tune: %s in %s, every run verified as '%s'; searching:\n",
                    t->base, t->out.path, x.expect);
        tune_space_print(&t->space, stderr);
        if (x.nold)
            fprintf(stderr, "rdmarun: tune: %zu runs already recorded in %s/samples.tsv; "
                    "continuing\n", x.nold, t->out.path);
        measure_catch_signals();
        x.t0 = proc_now();
        size_t nvalues[TUNE_MAX_KEYS];
        for (size_t k = 0; k < t->space.n; k++)
            nvalues[k] = t->space.keys[k].values.n;
        struct tune_search s = {.nkeys = t->space.n, .nvalues = nvalues, .nbins = 0,
                                .higher = t->higher, .min_gain = TUNE_MIN_GAIN,
                                .accept_rounds = TUNE_ACCEPT_ROUNDS, .sample = sample,
                                .moved = moved, .ctx = &x};
        /* The base's first run: what it prints are the bins. */
        unsigned zero[TUNE_MAX_KEYS] = {0};
        s.validating = true;
        enum tune_sample_status first = sample(&s, zero, NULL);
        s.validating = false;
        if (first != TUNE_SAMPLED) {
            if (x.budget_cut)
                rr_error("tune: the budget ended before the base profile's first run did: "
                         "nothing to tune (hint: a larger --budget)");
            else if (!x.error && !measure_interrupted())
                rr_error("tune: the base profile's run is not one to measure against (the "
                         "warning above says why): nothing to tune");
            rc = x.error ? x.error : measure_interrupted() ? 130
                 : x.budget_cut ? RR_EX_DATAERR : x.first;
        }
        if (!rc) {
            s.nbins = x.bins.n;
            tune_search_run(&s);
            per_size_rules(&x, &s);
            per_size_nccl(&x, &s);
            if (isatty(STDERR_FILENO))
                fputs("\r\033[K", stderr);
            /* The replayed records and the new ones, for the medians. */
            journal_free(x.old, x.nold);
            char *jpath = xasprintf("%s/samples.tsv", t->out.path);
            if (journal_read(jpath, tune_identity(t), &x.old, &x.nold) != 0 && !x.error)
                x.error = RR_EX_DATAERR;
            free(jpath);
            bool interrupted = measure_interrupted();
            rc = x.error;
            if (!rc)
                rc = write_profile(&x, &s, &f, interrupted);
            if (!rc && !interrupted)
                rc = write_summary(&x, &s);
            t->tuned = !rc && !interrupted && (s.beats_base || x.rules || x.nccl_rules);
            if (!rc && s.stopped && !interrupted)
                fprintf(stderr, "rdmarun: tune: the budget ended the search after %zu runs "
                        "(a larger --budget searches further)\n", x.next);
            if (!rc && interrupted) {
                rr_error("tune: interrupted; the runs so far are in %s/samples.tsv and what the "
                         "search accepted in %s/tuned.ini (continue with: rdmarun tune "
                         "--resume %s)", t->out.path, t->out.path, t->out.path);
                rc = 130;
            }
        }
    }
    facts_free(&f);
    session_free(&x);
    return rc;
}
