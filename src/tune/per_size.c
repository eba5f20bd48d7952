/* A tune's per-size rules (session.c's tune_run): Open MPI's tuned
 * collectives' rules file and NCCL's tuner CSV from the samples of each
 * message size, each kept only when its own check passes. */
#include "tune/tune.h"
#include "tune/session.h"
#include "tune/coll_rules.h"
#include "tune/nccl_rules.h"
#include "launch/program_mpi.h"
#include "util/fs.h"
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

/* What the per-size race of Open MPI's algorithms gathers: ompi_info's
 * enumerators (asked once), each collective's highest algorithm number,
 * the rules per collective, the notes for tuned.ini. */
struct coll_rules_acc {
    char *info;
    long max_alg[COLL_COUNT];
    struct coll_block blocks[TUNE_MAX_KEYS];
    struct coll_rule rules[TUNE_MAX_KEYS][TUNE_MAX_BINS];
    size_t nblocks;
    struct strvec notes, names_done;
};

/* Key `key`'s algorithms raced per bin of its collective; its rules kept
 * in acc where another algorithm wins a size. False when the installed
 * ompi_info does not number the key's values. */
static bool key_rules(struct session *x, struct tune_search *s, size_t key,
                      struct coll_rules_acc *acc)
{
    const struct tune_key *k = &x->t->space.keys[key];
    char *name = algorithm_coll(k);
    if (!name)
        return true;
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
        return true;
    }
    /* Names to numbers, as the installed Open MPI has them. */
    if (!acc->info) {
        char *argv[] = {"ompi_info", "--param", "coll", "tuned", "--level", "9",
                        "--parsable", NULL};
        acc->info = proc_stdout(argv, 10, 1 << 20);
    }
    struct strvec algs = {0}, codes = {0};
    if (acc->info)
        ompi_info_enumerators(acc->info, k->key, &algs, &codes);
    int id = coll_id(name);
    for (size_t i = 0; i < codes.n; i++)
        if (atol(codes.v[i]) > acc->max_alg[id])
            acc->max_alg[id] = atol(codes.v[i]);
    struct coll_rule *r = acc->rules[acc->nblocks];
    long n = rules_from_bins(k, key, order, no, size, per_bin, &algs, &codes, r);
    if (n < 0)
        rr_warn("tune: the installed ompi_info does not number %s's values: no rules "
                "file", k->key);
    sv_free(&algs);
    sv_free(&codes);
    if (n > 1) {
        acc->blocks[acc->nblocks++] = (struct coll_block){NULL, r, (size_t)n};
        x->rules_key[key] = true;
        sv_push(&acc->names_done, name);
        for (size_t i = 0; i < no; i++)
            if (s->per_bin_gain[order[i]].n) {
                char *g = tune_gain_text(&s->per_bin_gain[order[i]]);
                sv_pushf(&acc->notes, "%s: %s, %s", x->bins.v[order[i]],
                         k->values.v[per_bin[order[i]][key]], g);
                free(g);
            }
    }
    free(name);
    return n >= 0;
}

/* Open MPI's collective algorithms per message size: for each
 * coll_tuned_NAME_algorithm of the space whose collective the benchmark
 * prints bins of by size ("allreduce size=N"), the best configuration with
 * each algorithm is raced per bin; where another algorithm wins a size
 * (tune_search_per_bin), DIR/coll-rules.txt says which for each size of
 * each collective, as ompi_info numbers them, read back and checked before
 * it is kept. */
void tune_per_size_rules(struct session *x, struct tune_search *s)
{
    const struct tune *t = x->t;
    bool base = true;
    for (size_t k = 0; k < t->space.n; k++)
        base = base && !s->best[k];
    if (s->stopped || (!base && !s->beats_base))
        return;   /* the per-size race is against the result, which must stand */
    struct coll_rules_acc *acc = xcalloc(1, sizeof(*acc));
    bool ok = true;
    for (size_t key = 0; ok && key < t->space.n && !s->stopped; key++)
        ok = key_rules(x, s, key, acc);
    free(acc->info);
    if (ok)
        keep_rules(x, acc->blocks, acc->nblocks, &acc->names_done, &acc->notes, acc->max_alg);
    else
        memset(x->rules_key, 0, sizeof(x->rules_key));
    sv_free(&acc->notes);
    sv_free(&acc->names_done);
    free(acc);
}

/* NCCL's algorithm and protocol per collective and message size: when the
 * space has [nccl] ALGO and PROTO and the benchmark prints bins of NCCL's
 * collectives by size ("allreduce size=N", as nccl-tests counts bytes),
 * the best configuration with each pair is raced per bin; where another
 * pair wins a size, DIR/nccl-tuner.csv has a rule for each size range of
 * each collective, in the CSV of NCCL's example tuner plugin, read back and
 * checked before it is kept; tuned.ini then points NCCL at it instead of
 * forcing one algorithm and protocol everywhere. */
/* NCCL's collectives as the benchmark's bins have them by size. */
static const char *const nccl_colls[] = {"allreduce", "broadcast", "reduce", "allgather",
                                         "reducescatter"};
#define NCCL_COLLS (sizeof(nccl_colls) / sizeof(*nccl_colls))

struct nccl_bins {
    size_t order[NCCL_COLLS][TUNE_MAX_BINS], no[NCCL_COLLS];   /* each collective's bins by size */
    unsigned long long size[NCCL_COLLS][TUNE_MAX_BINS];
    unsigned per_bin[TUNE_MAX_BINS][TUNE_MAX_KEYS];            /* each bin's best values */
};

/* A rule per run of sizes with the same pair, from its first size up to
 * the next run's (why[]: each rule's reason, caller frees); a run the
 * pair leaves to NCCL is a rule without algo. False when a pair that won
 * cannot be named in the plugin's CSV. */
static bool nccl_rules_of(const struct session *x, const struct tune_search *s,
                          const size_t keys[2], const struct nccl_bins *nb,
                          struct nccl_rule *rules, char **why, size_t *n)
{
    const struct tune *t = x->t;
    for (size_t c = 0; c < NCCL_COLLS; c++)
        for (size_t i = 0; i < nb->no[c]; i++) {
            size_t b = nb->order[c][i];
            const char *av = t->space.keys[keys[0]].values.v[nb->per_bin[b][keys[0]]];
            const char *pv = t->space.keys[keys[1]].values.v[nb->per_bin[b][keys[1]]];
            const char *algo = nccl_csv_algo(av), *proto = nccl_csv_proto(pv);
            unsigned long long from = i ? nb->size[c][b] : 0;
            unsigned long long to = i + 1 < nb->no[c] ? nb->size[c][nb->order[c][i + 1]] - 1
                                                      : ULLONG_MAX;
            if ((*av && !algo) || (*pv && !proto)) {
                rr_warn("tune: NCCL_ALGO=%s NCCL_PROTO=%s won %s, which the example tuner "
                        "plugin cannot name: no NCCL rules file", av, pv, x->bins.v[b]);
                return false;
            }
            struct nccl_rule *last = *n ? &rules[*n - 1] : NULL;
            if (last && strcmp(last->coll, nccl_colls[c]) == 0 && last->max == from - 1 &&
                ((!algo && !last->algo) ||
                 (algo && proto && last->algo && strcmp(last->algo, algo) == 0 &&
                  strcmp(last->proto, proto) == 0))) {
                last->max = to;
                continue;
            }
            char *g = s->per_bin_gain[b].n ? tune_gain_text(&s->per_bin_gain[b]) : NULL;
            why[*n] = g ? xasprintf("%s: NCCL_ALGO=%s NCCL_PROTO=%s, %s", x->bins.v[b], av, pv, g)
                        : xasprintf("%s: %s", x->bins.v[b], algo && proto
                                    ? "the best configuration's" : "left to NCCL");
            free(g);
            rules[*n] = (struct nccl_rule){nccl_colls[c], from, to, algo && proto ? algo : NULL,
                                           algo && proto ? proto : NULL, why[*n]};
            (*n)++;
        }
    return true;
}

/* The rules (those NCCL is not left to) written, checked, kept, and
 * tuned.ini pointed at them. */
static void keep_nccl_rules(struct session *x, const size_t keys[2], struct nccl_rule *rules,
                            size_t n)
{
    const struct tune *t = x->t;
    /* The runs left to NCCL are no rules: the plugin has no "NCCL's own". */
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (rules[i].algo)
            rules[m++] = rules[i];
    char *err = NULL, *header = xasprintf("rdmarun tune: %s in %s, for NCCL's example tuner "
                                          "plugin (NCCL_TUNER_CONFIG_FILE)", t->base, t->out.path);
    char *text = m ? nccl_rules_text(header, rules, m) : NULL;
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
    free(err);
    free(text);
}

/* NCCL's algorithm and protocol per collective and message size: when the
 * space has [nccl] ALGO and PROTO and the benchmark prints bins of NCCL's
 * collectives by size ("allreduce size=N", as nccl-tests counts bytes),
 * the best configuration with each pair is raced per bin; where another
 * pair wins a size, DIR/nccl-tuner.csv has a rule for each size range of
 * each collective, in the CSV of NCCL's example tuner plugin, read back and
 * checked before it is kept; tuned.ini then points NCCL at it instead of
 * forcing one algorithm and protocol everywhere. */
void tune_per_size_nccl(struct session *x, struct tune_search *s)
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
    struct nccl_bins *nb = xcalloc(1, sizeof(*nb));
    size_t nsized = 0;
    for (size_t c = 0; c < NCCL_COLLS; c++)
        nsized += nb->no[c] = sized_bins(x, nccl_colls[c], nb->order[c], nb->size[c]);
    bool differs = false;
    if (nsized >= 2) {
        tune_search_per_bin(s, keys, 2, nb->per_bin);
        for (size_t c = 0; c < NCCL_COLLS; c++)
            for (size_t i = 0; i < nb->no[c]; i++)
                for (size_t k = 0; k < 2; k++)
                    differs = differs || nb->per_bin[nb->order[c][i]][keys[k]] != s->best[keys[k]];
    }
    if (differs && !s->stopped) {
        struct nccl_rule rules[TUNE_MAX_BINS];
        char *why[TUNE_MAX_BINS];
        size_t n = 0;
        if (nccl_rules_of(x, s, keys, nb, rules, why, &n))
            keep_nccl_rules(x, keys, rules, n);
        for (size_t i = 0; i < n; i++)
            free(why[i]);
    }
    free(nb);
}
