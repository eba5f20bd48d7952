/* The racing coordinate search of rdmarun tune (the method: search.h). */
#include "tune/search.h"
#include "util/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct arm {
    unsigned choice[TUNE_MAX_KEYS];
    double *vals;      /* rounds x nbins */
    bool *have;        /* per round: sampled */
    unsigned fails;
    bool alive;
    double score;
};

struct race {
    struct tune_search *s;
    struct arm *arms;  /* arms[0]: the reference (the current configuration) */
    size_t narms, rounds, cap;
    struct paired_gain won;   /* the winner's gain over all bins, on fresh rounds */
};

static void race_grow(struct race *r, size_t rounds)
{
    if (rounds <= r->cap)
        return;
    size_t cap = r->cap ? r->cap : 8;
    while (cap < rounds)
        cap *= 2;
    for (size_t i = 0; i < r->narms; i++) {
        struct arm *a = &r->arms[i];
        a->vals = xrealloc(a->vals, cap * r->s->nbins * sizeof(*a->vals));
        a->have = xrealloc(a->have, cap * sizeof(*a->have));
        memset(a->have + r->cap, 0, (cap - r->cap) * sizeof(*a->have));
    }
    r->cap = cap;
}

/* Round k: every arm in the race once, starting one arm later each round so
 * that no configuration always runs first. false: the budget ended it. */
static bool sample_round(struct race *r, size_t k)
{
    struct tune_search *s = r->s;
    race_grow(r, k + 1);
    for (size_t i = 0; i < r->narms; i++) {
        struct arm *a = &r->arms[(i + k) % r->narms];
        if (!a->alive || a->have[k])
            continue;
        double *v = a->vals + k * s->nbins;
        for (size_t b = 0; b < s->nbins; b++)
            v[b] = NAN;
        enum tune_sample_status st = s->sample(s, a->choice, v);
        if (st == TUNE_STOP) {
            s->stopped = true;
            return false;
        }
        if (st == TUNE_DISCARDED) {
            s->discarded++;
            /* A configuration whose runs fail twice leaves the race; the
             * reference never does (it was measured before). */
            if (++a->fails >= 2 && a != &r->arms[0])
                a->alive = false;
        } else {
            s->samples++;
            a->have[k] = true;
        }
    }
    if (r->rounds < k + 1)
        r->rounds = k + 1;
    return true;
}

/* a's log gain over the reference in round k, bin b: false when either has
 * no usable figure there. */
static bool log_gain(const struct race *r, const struct arm *a, size_t k, size_t b, double *out)
{
    const struct tune_search *s = r->s;
    const struct arm *ref = &r->arms[0];
    if (!a->have[k] || !ref->have[k])
        return false;
    double x = a->vals[k * s->nbins + b], y = ref->vals[k * s->nbins + b];
    if (!(x > 0) || !(y > 0) || !isfinite(x) || !isfinite(y))
        return false;
    *out = s->higher ? log(x / y) : log(y / x);
    return true;
}

/* The paired log gains of arm a over the reference in bin b; returns how many. */
static size_t pairs_of(const struct race *r, const struct arm *a, size_t from, size_t b,
                       double *d)
{
    size_t n = 0;
    for (size_t k = from; k < r->rounds; k++)
        n += log_gain(r, a, k, b, &d[n]);
    return n;
}

/* Per bin, a's paired gain over the reference from round `from` on. */
static void gains_of(const struct race *r, const struct arm *a, size_t from,
                     struct paired_gain *g)
{
    double *d = xmalloc((r->rounds + 1) * sizeof(*d));
    for (size_t b = 0; b < r->s->nbins; b++)
        paired_gain_of(d, pairs_of(r, a, from, b, d), &g[b]);
    free(d);
}

/* Per paired round, the mean log gain over the bins both printed: the
 * series the race ranks and drops by. Returns how many rounds. */
static size_t series_of(const struct race *r, const struct arm *a, size_t from, double *d)
{
    size_t n = 0;
    for (size_t k = from; k < r->rounds; k++) {
        double sum = 0, g;
        size_t m = 0;
        for (size_t b = 0; b < r->s->nbins; b++)
            if (log_gain(r, a, k, b, &g)) {
                sum += g;
                m++;
            }
        if (m)
            d[n++] = sum / (double)m;
    }
    return n;
}

static int by_score(const void *x, const void *y)
{
    const struct arm *a = *(struct arm *const *)x, *b = *(struct arm *const *)y;
    return (a->score < b->score) - (a->score > b->score);
}

enum judgement { REJECT, ACCEPT, UNDECIDED };

/* Gains g are a move when no bin is slower beyond the noise (its interval
 * lies below 0) and one bin is faster beyond it (its interval lies above 0)
 * by at least min_gain; undecided while a bin gains min_gain but its
 * interval still reaches 0. */
static enum judgement judge(const struct tune_search *s, const struct paired_gain *g,
                            double min_gain)
{
    enum judgement j = REJECT;
    bool could = false;   /* a bin whose interval still reaches a gain of s->min_gain */
    for (size_t b = 0; b < s->nbins; b++) {
        if (g[b].n < 2)
            continue;
        if (g[b].hi < 0)
            return REJECT;
        could = could || g[b].hi >= log1p(s->min_gain);
        if (g[b].mean >= log1p(min_gain))
            j = g[b].lo > 0 ? ACCEPT : j == ACCEPT ? ACCEPT : UNDECIDED;
    }
    /* More rounds only while they could show a gain worth having. */
    return j == UNDECIDED && !could ? REJECT : j;
}

static size_t pair_count(const struct race *r, const struct arm *a, size_t from)
{
    size_t n = 0;
    for (size_t k = from; k < r->rounds; k++)
        n += a->have[k] && r->arms[0].have[k];
    return n;
}

/* The rounds after rung k: one more each rung. */
static size_t rung_rounds(size_t k)
{
    return k + 1;
}

/* Whether a, measured on the rounds from `fresh` on, is a move: by bin (no
 * bin slower beyond the noise, one faster by half of min_gain beyond it)
 * and over all bins together (a gain in one of many bins is not taken on
 * that bin's interval alone). */
static enum judgement judge_move(const struct race *r, const struct arm *a, size_t fresh,
                                 struct paired_gain *all)
{
    const struct tune_search *s = r->s;
    if (!a->alive || pair_count(r, a, fresh) < s->accept_rounds)
        return UNDECIDED;
    struct paired_gain g[TUNE_MAX_BINS];
    gains_of(r, a, fresh, g);
    enum judgement j = judge(s, g, s->min_gain / 2);
    double *d = xmalloc((r->rounds + 1) * sizeof(*d));
    paired_gain_of(d, series_of(r, a, fresh, d), all);
    free(d);
    if (j == ACCEPT && !(all->lo > 0))
        j = all->mean > 0 ? UNDECIDED : REJECT;
    return j;
}

/* Race the arms; the index of an accepted challenger, or -1. */
/* The race's rungs: each samples more rounds, drops the configurations
 * worse than the current one beyond the noise, and keeps a third (then
 * half) of the rest, until two or fewer are left: order[0..*c), best
 * first. False when none is left or a round could not be sampled. */
static bool race_rungs(struct race *r, struct arm **order, size_t *c)
{
    for (size_t rung = 0;; rung++) {
        for (size_t k = r->rounds; k < rung_rounds(rung); k++)
            if (!sample_round(r, k))
                return false;
        double *d = xmalloc((r->rounds + 1) * sizeof(*d));
        *c = 0;
        for (size_t i = 1; i < r->narms; i++) {
            struct arm *a = &r->arms[i];
            if (!a->alive)
                continue;
            struct paired_gain g;
            paired_gain_of(d, series_of(r, a, 0, d), &g);
            a->score = g.n ? g.mean : -INFINITY;
            if (g.n >= 3 && g.hi < 0)   /* worse than the current one beyond the noise */
                a->alive = false;
            else
                order[(*c)++] = a;
        }
        free(d);
        if (*c == 0)
            return false;
        qsort(order, *c, sizeof(*order), by_score);
        if (*c <= 2)
            return true;
        /* One round ranks configurations 5% apart under 3% noise well
         * enough to keep a third; later rungs keep half. */
        size_t keep = rung ? (*c + 1) / 2 : (*c + 2) / 3;
        for (size_t i = keep < 2 ? 2 : keep; i < *c; i++)
            order[i]->alive = false;
    }
}

/* The last two are judged on fresh rounds only: the rounds they won on
 * favour them (with twenty challengers, one is 2% ahead on noise alone).
 * The leader first, the runner-up only where the leader is no move (it
 * pays its own rounds then, but a leader that wins, as most do, pays for
 * no runner-up): accept_rounds pairs each, then more while a judgement is
 * undecided, up to three times as many; rounds lost to failures are made
 * up within the same limit. The winner's index, or -1. */
static long race_final(struct race *r, struct arm **order, size_t c)
{
    if (c > 1)
        order[1]->alive = false;   /* waits while the leader is judged */
    for (size_t i = 0; i < c && i < 2; i++) {
        order[i]->alive = true;
        size_t fresh = r->rounds, limit = fresh + 3 * r->s->accept_rounds;
        enum judgement j = UNDECIDED;
        struct paired_gain all;
        for (size_t k = fresh; k < limit && j == UNDECIDED; k++) {
            if (!sample_round(r, k))
                return -1;
            j = judge_move(r, order[i], fresh, &all);
        }
        order[i]->alive = false;   /* no more rounds for it */
        if (j == ACCEPT) {
            r->won = all;
            return order[i] - r->arms;
        }
    }
    return -1;
}

static long race_run(struct race *r)
{
    struct arm **order = xmalloc(r->narms * sizeof(*order));
    size_t c = 0;
    long winner = race_rungs(r, order, &c) ? race_final(r, order, c) : -1;
    free(order);
    return winner;
}

static void race_free(struct race *r)
{
    for (size_t i = 0; i < r->narms; i++) {
        free(r->arms[i].vals);
        free(r->arms[i].have);
    }
    free(r->arms);
    memset(r, 0, sizeof(*r));
}

static void add_arm(struct race *r, size_t *cap, const unsigned *choice, size_t nkeys)
{
    GROW(r->arms, *cap, r->narms + 1);
    struct arm *a = &r->arms[r->narms++];
    memset(a, 0, sizeof(*a));
    memcpy(a->choice, choice, nkeys * sizeof(*choice));
    a->alive = true;
}

/* The race of `cur` against every configuration that changes one of its keys
 * (width 1), or two keys each to a value next to its own in the key's list
 * (width 2: along a valley of two interacting keys, which one-key moves
 * cannot follow). */
static void neighbours(const struct tune_search *s, const unsigned *cur, int width,
                       const bool *dead, struct race *r)
{
    size_t cap = 0;
    unsigned c[TUNE_MAX_KEYS];
    add_arm(r, &cap, cur, s->nkeys);
    for (size_t i = 0; i < s->nkeys; i++)
        for (unsigned vi = 0; vi < s->nvalues[i] && vi < TUNE_MAX_VALUES; vi++) {
            if (vi == cur[i] || dead[i * TUNE_MAX_VALUES + vi])
                continue;
            memcpy(c, cur, s->nkeys * sizeof(*c));
            c[i] = vi;
            if (width == 1) {
                add_arm(r, &cap, c, s->nkeys);
                continue;
            }
            if (vi + 1 != cur[i] && vi != cur[i] + 1)
                continue;
            for (size_t j = i + 1; j < s->nkeys; j++)
                for (unsigned vj = 0; vj < s->nvalues[j] && vj < TUNE_MAX_VALUES; vj++)
                    if ((vj + 1 == cur[j] || vj == cur[j] + 1) && !dead[j * TUNE_MAX_VALUES + vj]) {
                        c[j] = vj;
                        add_arm(r, &cap, c, s->nkeys);
                        c[j] = cur[j];
                    }
        }
}

/* A space no larger than two one-key sweeps is raced whole, once: every
 * configuration against the base. */
static bool race_grid(struct tune_search *s, unsigned *cur)
{
    size_t grid = 1, sweep = 1;
    for (size_t i = 0; i < s->nkeys; i++) {
        grid *= s->nvalues[i];
        sweep += s->nvalues[i] - 1;
        if (grid > 2 * TUNE_MAX_KEYS * 64)
            return false;
    }
    if (grid > 2 * sweep)
        return false;
    struct race r = {.s = s};
    size_t cap = 0;
    unsigned c[TUNE_MAX_KEYS] = {0};
    for (size_t g = 0; g < grid; g++) {
        size_t rest = g;
        for (size_t i = 0; i < s->nkeys; i++) {
            c[i] = (unsigned)(rest % s->nvalues[i]);
            rest /= s->nvalues[i];
        }
        add_arm(&r, &cap, c, s->nkeys);   /* g = 0 is the base: the reference */
    }
    long w = race_run(&r);
    if (w >= 0) {
        memcpy(cur, r.arms[w].choice, s->nkeys * sizeof(*cur));
        s->accepted++;
        if (s->moved)
            s->moved(s, cur, &r.won);
    }
    race_free(&r);
    return true;
}

/* The result against the base, on fresh rounds: the race's own samples
 * favour the winner (it won on them). The budget does not end this part
 * (validating); an interruption does. */
static void against_base(struct tune_search *s, const unsigned *cur)
{
    bool stopped = s->stopped;
    s->validating = true;
    s->stopped = false;
    struct race r = {.s = s};
    size_t cap = 0;
    unsigned zero[TUNE_MAX_KEYS] = {0};
    add_arm(&r, &cap, zero, s->nkeys);
    add_arm(&r, &cap, cur, s->nkeys);
    for (size_t k = 0; pair_count(&r, &r.arms[1], 0) < s->accept_rounds &&
                       k < 4 * s->accept_rounds; k++)
        if (!sample_round(&r, k))
            break;
    if (r.rounds)
        gains_of(&r, &r.arms[1], 0, s->gain);
    s->beats_base = judge(s, s->gain, s->min_gain) == ACCEPT;
    race_free(&r);
    s->stopped = s->stopped || stopped;
}

void tune_search_run(struct tune_search *s)
{
    unsigned cur[TUNE_MAX_KEYS] = {0};
    s->samples = s->discarded = s->accepted = 0;
    s->stopped = s->validating = false;
    int width = 1;
    bool dead[TUNE_MAX_KEYS * TUNE_MAX_VALUES] = {false};
    bool whole = s->nkeys > 0 && race_grid(s, cur);
    while (!whole && !s->stopped && s->nkeys > 0) {
        struct race r = {.s = s};
        neighbours(s, cur, width, dead, &r);
        long w = r.narms > 1 ? race_run(&r) : -1;
        /* A value whose one-key move failed twice fails with any other key
         * too (a transport the job cannot use): never tried again. */
        for (size_t i = 1; width == 1 && i < r.narms; i++)
            if (r.arms[i].fails >= 2)
                for (size_t k = 0; k < s->nkeys; k++)
                    if (r.arms[i].choice[k] != cur[k])
                        dead[k * TUNE_MAX_VALUES + r.arms[i].choice[k]] = true;
        bool more = true;
        if (w >= 0) {
            memcpy(cur, r.arms[w].choice, sizeof(cur));
            s->accepted++;
            if (s->moved)
                s->moved(s, cur, &r.won);
            width = 1;
        } else if (width == 1 && s->nkeys > 1) {
            width = 2;
        } else {
            more = false;
        }
        race_free(&r);
        if (!more)
            break;
    }
    memcpy(s->best, cur, sizeof(cur));
    memset(s->gain, 0, sizeof(s->gain));
    s->beats_base = false;
    bool base = true;
    for (size_t i = 0; i < s->nkeys; i++)
        base = base && cur[i] == 0;
    if (!base)
        against_base(s, cur);
}

void tune_search_per_bin(struct tune_search *s, const size_t *keys, size_t nk,
                         unsigned (*per_bin)[TUNE_MAX_KEYS])
{
    memset(s->per_bin_gain, 0, sizeof(s->per_bin_gain));
    for (size_t b = 0; b < s->nbins; b++)
        memcpy(per_bin[b], s->best, sizeof(per_bin[b]));
    struct race r = {.s = s};
    size_t cap = 0;
    add_arm(&r, &cap, s->best, s->nkeys);
    /* Every combination of the keys' values, the others at the best's: an
     * odometer over the keys, the best's own combination left out. */
    unsigned c[TUNE_MAX_KEYS], digit[TUNE_MAX_KEYS] = {0};
    for (size_t arms = 0; nk && arms < TUNE_PER_BIN_ARMS;) {
        memcpy(c, s->best, sizeof(c));
        bool same = true;
        for (size_t i = 0; i < nk; i++) {
            c[keys[i]] = digit[i];
            same = same && digit[i] == s->best[keys[i]];
        }
        if (!same) {
            add_arm(&r, &cap, c, s->nkeys);
            arms++;
        }
        size_t i = 0;
        while (i < nk && ++digit[i] >= s->nvalues[keys[i]])
            digit[i++] = 0;
        if (i == nk)
            break;
    }
    s->stopped = false;
    for (size_t k = 0; k < s->accept_rounds && r.narms > 1; k++)
        if (!sample_round(&r, k))
            break;
    double best_gain[TUNE_MAX_BINS] = {0};
    for (size_t i = 1; !s->stopped && i < r.narms; i++) {
        if (!r.arms[i].alive)
            continue;
        struct paired_gain g[TUNE_MAX_BINS];
        gains_of(&r, &r.arms[i], 0, g);
        for (size_t b = 0; b < s->nbins; b++)
            if (g[b].n >= 2 && g[b].lo > 0 && g[b].mean >= log1p(s->min_gain) &&
                g[b].mean > best_gain[b]) {
                best_gain[b] = g[b].mean;
                memcpy(per_bin[b], r.arms[i].choice, sizeof(per_bin[b]));
                s->per_bin_gain[b] = g[b];
            }
    }
    race_free(&r);
}
