/* A tune's result (session.c's tune_run): each key's moves as the search
 * made them, the tuned profile DIR/tuned.ini and the summary. */
#include "tune/tune.h"
#include "model/model.h"
#include "tune/session.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/table.h"
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

void tune_bin_cols(const char *gain_head, struct table_col *cols)
{
    const struct table_col c[TUNE_BIN_COLS] = {
        {.name = "bin", .width = -28, .type = TT_STR},
        {.name = "base_median", .head = "base", .width = 14, .type = TT_NUM},
        {.name = "tuned_median", .head = "tuned", .width = 14, .type = TT_NUM},
        {.name = "gain_text", .head = gain_head, .type = TT_STR, .show = TS_TEXT, .gap = "  "},
        {.name = "gain", .type = TT_NUM, .show = TS_DATA, .data_fmt = "%.6f"},
        {.name = "gain_lo", .type = TT_NUM, .show = TS_DATA, .data_fmt = "%.6f"},
        {.name = "gain_hi", .type = TT_NUM, .show = TS_DATA, .data_fmt = "%.6f"},
        {.name = "pairs", .type = TT_INT, .show = TS_DATA},
        {.name = "light", .head = "of light", .width = 9, .type = TT_NUM, .text_fmt = "%.0f%%",
         .text_scale = 100},
    };
    memcpy(cols, c, sizeof(c));
}

void tune_bin_row(const struct table *ts, size_t n, const char *bin, double base, double tuned,
                  double light, const struct paired_gain *g)
{
    char *text = g->n ? tune_gain_text(g) : xstrdup("-");
    struct table_cell row[TUNE_BIN_COLS] = {
        {.s = bin}, {.d = base}, {.d = tuned}, {.s = text}, {.d = exp(g->mean) - 1},
        {.d = exp(g->lo) - 1}, {.d = exp(g->hi) - 1}, {.i = (long long)g->n},
        {.d = light, .none = isnan(light)},
    };
    for (size_t i = 0; i < n; i++)
        table_row(&ts[i], row);
    free(text);
}

void tune_moved(const struct tune_search *s, const unsigned *choice,
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
/* tuned.ini's opening comments: where and when, what beat the base, the
 * kind of node. */
static void profile_header(FILE *m, const struct session *x, const struct tune_search *s,
                           const char *host, const char *date, bool interrupted)
{
    const struct tune *t = x->t;
    bool rules = x->rules && !interrupted, nccl = x->nccl_rules && !interrupted;
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
}

/* The rules files' sections, first: a forced algorithm would win over
 * them, so the keys they stand for are not written after. */
static void profile_rules(FILE *m, const struct session *x, bool rules, bool nccl)
{
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
}

/* The keys of section SEC (from key k on) that moved, with what each
 * needs; *header: the section's header is written. */
static void profile_section_keys(FILE *m, const struct session *x, const struct tune_search *s,
                                 size_t k, bool rules, bool nccl, bool *header)
{
    const struct tune *t = x->t;
    const char *sec = t->space.keys[k].section;
    for (size_t j = k; j < t->space.n; j++) {
        const struct tune_key *key = &t->space.keys[j];
        if (strcmp(key->section, sec) != 0 || !s->best[j] || (rules && x->rules_key[j]) ||
            (nccl && x->nccl_keys[j]))
            continue;
        if (!*header)
            fprintf(m, "\n[%s]\n", sec);
        *header = true;
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

int tune_write_profile(const struct session *x, const struct tune_search *s,
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
    profile_header(m, x, s, host, date, interrupted);
    fprintf(m, "# This kind of node: %s.\n\n[profile]\ndescription = %s tuned by rdmarun "
               "tune on %s, %s\n", kind, t->base, host, date);
    char *base = strchr(t->base, '/') ? realpath(t->base, NULL) : NULL;
    fprintf(m, "inherit = %s\ntuned-for = %s\n", base ? base : t->base, fp);
    free(base);
    profile_rules(m, x, rules, nccl);
    /* Section by section, each key of it that moved. */
    struct strvec done = {0};
    for (size_t k = 0; (tuned || interrupted) && k < t->space.n; k++) {
        const char *sec = t->space.keys[k].section;
        if (sv_find(&done, sec) >= 0)
            continue;
        sv_push(&done, sec);
        bool header = (rules && strcmp(sec, "mpi") == 0) || (nccl && strcmp(sec, "nccl") == 0);
        profile_section_keys(m, x, s, k, rules, nccl, &header);
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
/* summary.json's head: the base, the runs, what was tuned, the values. */
static void summary_json_head(const struct session *x, const struct tune_search *s,
                              struct json *j)
{
    const struct tune *t = x->t;
    json_string(j, "base", t->base);
    json_int(j, "runs", (int64_t)x->next);
    json_int(j, "left_out", (int64_t)x->discarded);
    json_bool(j, "tuned", s->beats_base || x->rules || x->nccl_rules);
    json_string(j, "coll_rules", x->rules);
    json_string(j, "nccl_rules", x->nccl_rules);
    json_string(j, "expect", x->expect);
    json_begin_object(j, "values");
    for (size_t k = 0; k < t->space.n; k++)
        if (s->best[k]) {
            char *name = xasprintf("%s.%s", t->space.keys[k].section, t->space.keys[k].key);
            json_string(j, name, t->space.keys[k].values.v[s->best[k]]);
            free(name);
        }
    json_end_object(j);
}

/* The summary's bins on its three tables, each with the tuned median's
 * share of the speed of light, and a line saying what limits it. */
static void summary_bins(const struct session *x, const struct tune_search *s,
                         const struct facts *f, const struct table *ts, const char *cbase,
                         const char *cbest)
{
    const struct tune *t = x->t;
    for (int i = 0; i < 3; i++)
        table_begin(&ts[i]);
    char limit[160] = "", note[160] = "";
    bool noted_figure = false;   /* the note is a bin's limit, else why none has one */
    for (size_t b = 0; b < x->bins.n; b++) {
        double tuned = median_of(x, cbest, x->bins.v[b]);
        double light = t->higher ? NAN : model_bin_light(f, t->nodes, x->bins.v[b], tuned,
                                                         limit, sizeof(limit));
        if (!note[0] || (!isnan(light) && !noted_figure)) {
            snprintf(note, sizeof(note), "%s", limit);
            noted_figure = !isnan(light);
        }
        tune_bin_row(ts, 3, bin_name(x, b), median_of(x, cbase, x->bins.v[b]), tuned, light,
                     &s->gain[b]);
    }
    for (int i = 0; i < 3; i++)
        table_end(&ts[i]);
    if (note[0])
        printf("of light: the model's time over the tuned median (rdmarun(1), JUDGE): %s\n",
               note);
}

int tune_write_summary(const struct session *x, const struct tune_search *s,
                       const struct facts *f)
{
    const struct tune *t = x->t;
    unsigned zero[TUNE_MAX_KEYS] = {0};
    char *cbase = tune_config_of(t, zero), *cbest = tune_config_of(t, s->best);
    char *settings = tune_settings_of(t, s->best);
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
    char *csv_text, *js_text;
    size_t csv_len, js_len;
    FILE *csv = xmemstream_open(&csv_text, &csv_len), *js = xmemstream_open(&js_text, &js_len);
    struct json j;
    json_init(&j, js);
    json_begin_object(&j, NULL);
    summary_json_head(x, s, &j);
    struct table_col cols[TUNE_BIN_COLS];
    tune_bin_cols("gain (95% CI, fresh pairs)", cols);
    struct table ts[3] = {
        {.format = TABLE_TEXT, .out = stdout, .cols = cols, .ncols = TUNE_BIN_COLS},
        {.format = TABLE_CSV, .out = csv, .cols = cols, .ncols = TUNE_BIN_COLS},
        {.format = TABLE_JSON, .json = &j, .json_key = "bins", .cols = cols, .ncols = TUNE_BIN_COLS},
    };
    summary_bins(x, s, f, ts, cbase, cbest);
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
