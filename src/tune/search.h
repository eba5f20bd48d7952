/* The search of rdmarun tune, pure: it knows configurations only as a
 * choice of value per key, and measures them through a callback, so that
 * the same code runs real jobs (tune/session.c) and a known landscape
 * (tests/unit/test_tune.c, benchmarks/tune.sh).
 *
 * Method: a space of at most twice the configurations of a one-key sweep
 * is raced whole, once, as below. A larger one: racing coordinate search.
 * The current configuration starts as the
 * base's values. Each sweep races the current one against its neighbours -
 * every configuration that changes one key, or, after a sweep that moved
 * nothing, two keys each to a value next to its own - in interleaved
 * rounds: a round samples every configuration still in the race once, in an
 * order that rotates from round to round, and each challenger's gain is the
 * log ratio to the current one's sample of the same round (paired, so drift
 * of the machine cancels). After round 1 the best third stays, after each
 * further round the better half, and a challenger worse than the current
 * one beyond the noise (its 95% t interval below 0) leaves. The last two are
 * judged on fresh rounds only (accept_rounds pairs, more while undecided): a
 * move when no bin is slower beyond the noise, one bin gains at least half
 * of min_gain with an interval above 0, and so do all bins together. The
 * search ends when a sweep of two-key moves finds none, or the callback
 * says stop. The result is then measured against the base on fresh pairs:
 * it beats the base when no bin is slower beyond the noise and one bin is
 * faster by at least min_gain with an interval above 0; otherwise the base
 * stays. */
#ifndef RDMARUN_TUNE_SEARCH_H
#define RDMARUN_TUNE_SEARCH_H
#include "compare/stats.h"
#include <stdbool.h>
#include <stddef.h>

#define TUNE_MAX_BINS 64
#define TUNE_MAX_KEYS 32
#define TUNE_MAX_VALUES 64   /* per key */

enum tune_sample_status {
    TUNE_SAMPLED,    /* values[] holds the bins (NAN: this bin not printed) */
    TUNE_DISCARDED,  /* the run failed or was not verified: the callback said why */
    TUNE_STOP,       /* the budget is spent, or the user interrupted */
};

struct tune_search;
/* Measure configuration `choice` (a value index per key, 0 = the base's)
 * once; values has nbins slots. s->ctx is the caller's; s->validating says
 * whether the budget may stop this sample. */
typedef enum tune_sample_status (*tune_sample_fn)(const struct tune_search *s,
                                                  const unsigned *choice, double *values);

struct tune_search {
    /* in */
    size_t nkeys;
    const size_t *nvalues;     /* per key; value 0 is the base's */
    size_t nbins;
    bool higher;               /* the figures are rates: more is better */
    double min_gain;           /* 0.02 */
    unsigned accept_rounds;    /* paired rounds before a challenger is judged (5) */
    tune_sample_fn sample;
    /* Optional: the current configuration became `choice`, by gain over
     * all bins (on the fresh rounds that decided it). */
    void (*moved)(const struct tune_search *s, const unsigned *choice,
                  const struct paired_gain *gain);
    void *ctx;
    /* out */
    unsigned best[TUNE_MAX_KEYS];          /* the result: a value index per key */
    struct paired_gain gain[TUNE_MAX_BINS];  /* best against the base, per bin */
    struct paired_gain per_bin_gain[TUNE_MAX_BINS];   /* tune_search_per_bin's winners' */
    size_t samples, discarded, accepted;   /* callback calls that measured, that did not; moves */
    bool beats_base;                       /* gain shows best faster than the base by
                                            * min_gain in a bin and slower in none */
    bool stopped;                          /* the budget or an interruption ended it */
    bool validating;                       /* the final rounds of best against the base,
                                            * which the budget does not stop */
};

/* Run the search; fills the out fields. */
void tune_search_run(struct tune_search *s);
/* After the search, for keys whose values can differ by bin (Open MPI's
 * algorithm of a collective, NCCL's algorithm and protocol, per message
 * size): the best configuration with the nk keys at each combination of
 * their values (at most TUNE_PER_BIN_ARMS), raced on accept_rounds fresh
 * rounds; per bin, the configuration whose paired gain over the best's in
 * that bin is at least min_gain with its interval above 0 (the largest),
 * else the best's own. per_bin has nbins slots; per_bin_gain says each
 * winner's gain. The budget stops it (s->stopped): per_bin then holds the
 * best. */
#define TUNE_PER_BIN_ARMS 64
void tune_search_per_bin(struct tune_search *s, const size_t *keys, size_t nk,
                         unsigned (*per_bin)[TUNE_MAX_KEYS]);

#endif
