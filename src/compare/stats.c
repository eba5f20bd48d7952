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
