/* Statistics of repeated runs, and the scaling arithmetic of a comparison.
 * Pure functions on arrays, unit-tested on known inputs. */
#ifndef RDMARUN_COMPARE_STATS_H
#define RDMARUN_COMPARE_STATS_H
#include <stddef.h>

struct sample_stats {
    size_t n;
    double median, min, max, mean;
    double cv;       /* coefficient of variation: sample standard deviation / mean; 0 for n < 2 */
};

/* Sorts `v` in place. n == 0 gives all zeros. */
void stats_of(double *v, size_t n, struct sample_stats *out);
/* Strong scaling from the smallest rank count n0 with time t0:
 * S(n) = t0 / t, E(n) = S(n) * n0 / n. */
double speedup(double t0, double t);
double efficiency(double t0, long n0, double t, long n);

#endif
