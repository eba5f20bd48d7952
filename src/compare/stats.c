#include "compare/stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_of(double *v, size_t n, struct sample_stats *out)
{
    memset(out, 0, sizeof(*out));
    out->n = n;
    if (n == 0)
        return;
    qsort(v, n, sizeof(*v), cmp_double);
    out->min = v[0];
    out->max = v[n - 1];
    out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    out->mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        sq += (v[i] - out->mean) * (v[i] - out->mean);
    if (n > 1 && out->mean != 0)
        out->cv = sqrt(sq / (double)(n - 1)) / fabs(out->mean);
}

double speedup(double v0, double v, bool higher)
{
    if (higher)
        return v0 > 0 ? v / v0 : 0;
    return v > 0 ? v0 / v : 0;
}

double efficiency(double v0, long n0, double v, long n, bool higher)
{
    return n > 0 ? speedup(v0, v, higher) * (double)n0 / (double)n : 0;
}

double t95(size_t df)
{
    static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                   2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                   2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                   2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df == 0)
        return INFINITY;
    if (df <= sizeof(table) / sizeof(*table))
        return table[df - 1];
    return 1.960 + 2.4 / (double)df;   /* 40: 2.020 (2.021), 120: 1.980 (1.980) */
}

void paired_gain_of(const double *d, size_t n, struct paired_gain *out)
{
    memset(out, 0, sizeof(*out));
    out->n = n;
    if (n == 0)
        return;
    double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++)
        sum += d[i];
    out->mean = sum / (double)n;
    out->lo = out->hi = out->mean;
    if (n < 2)
        return;
    for (size_t i = 0; i < n; i++)
        sq += (d[i] - out->mean) * (d[i] - out->mean);
    double half = t95(n - 1) * sqrt(sq / (double)(n - 1) / (double)n);
    out->lo = out->mean - half;
    out->hi = out->mean + half;
}
