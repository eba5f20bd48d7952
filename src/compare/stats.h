/* Statistics of repeated runs, and the scaling arithmetic of a comparison.
 * Pure functions on arrays, unit-tested on known inputs. */
#ifndef RDMARUN_COMPARE_STATS_H
#define RDMARUN_COMPARE_STATS_H
#include <stdbool.h>
#include <stddef.h>

struct sample_stats {
    size_t n;
    double median, min, max, mean;
    double cv;       /* coefficient of variation: sample standard deviation / mean; 0 for n < 2 */
};

/* Sorts `v` in place. n == 0 gives all zeros. */
void stats_of(double *v, size_t n, struct sample_stats *out);
/* Strong scaling from the smallest rank count n0 with value v0: for a
 * time (lower is better) S(n) = v0 / v, for a rate such as a bandwidth
 * (higher is better) S(n) = v / v0; E(n) = S(n) * n0 / n. The same gain is
 * a profile's ratio to the baseline (above 1: better). */
double speedup(double v0, double v, bool higher);
double efficiency(double v0, long n0, double v, long n, bool higher);

/* The two-sided 95% quantile of Student's t with df degrees of freedom
 * (df >= 1; exact to 3 decimals up to 30, then within 0.005). */
double t95(size_t df);

/* Paired gains: d[i] = log(reference_i / candidate_i) for a time (log of
 * candidate over reference for a rate), one pair per interleaved round. */
struct paired_gain {
    size_t n;
    double mean, lo, hi;   /* the mean log gain and its 95% t interval (lo = hi = mean for n < 2) */
};
void paired_gain_of(const double *d, size_t n, struct paired_gain *out);

#endif
