/* The synthetic benchmark of benchmarks/tune.sh: its figures are a known
 * function of four UCX variables plus 3% Gaussian noise, so the best
 * configuration is known. Each variable's value is an index 0-5 into its
 * list below (index 0: the base profile's). Two bins (times, lower is
 * better): a bowl in keys 0 and 1, a valley along k2 - k3 = 1 (keys that
 * interact), a narrow 10% dip at k0 = 4, k2 = 4; k1 = 5 makes bin 0 12%
 * faster and bin 1 12% slower (a move no bin may pay for). The same
 * function as tests/unit/test_tune.c's.
 *   tune-landscape            one run: "bin0 t=...", "bin1 t=..."
 *   tune-landscape --true     the noiseless figures of the environment's values
 *   tune-landscape --optimum  the best noiseless objective no bin of which is
 *                             slower than the base's, and the base's */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const names[4] = {"UCX_RNDV_THRESH", "UCX_ZCOPY_THRESH", "UCX_RNDV_SCHEME",
                                     "UCX_SEG_SIZE"};
static const char *const values[4][6] = {
    {"1K", "4K", "16K", "64K", "256K", "1M"},
    {"1K", "4K", "16K", "64K", "256K", "1M"},
    {"auto", "get_zcopy", "put_zcopy", "get_ppln", "put_ppln", "am"},
    {"2K", "4K", "8K", "16K", "32K", "64K"},
};

static void truth(const int *x, double *t)
{
    double a = (x[0] - 4) / 5.0, b = (x[1] - 1) / 5.0;
    double c = (x[2] - x[3] - 1) / 5.0, d = (x[2] + x[3] - 7) / 10.0;
    double f = 100 * (1 + 0.30 * a * a + 0.20 * b * b + 0.25 * c * c + 0.15 * d * d);
    f *= 1 - 0.10 * exp(-((x[0] - 4) * (x[0] - 4) + (x[2] - 4) * (x[2] - 4)));
    t[0] = t[1] = f;
    if (x[1] == 5) {
        t[0] *= 0.88;
        t[1] *= 1.12;
    }
}

int main(int argc, char **argv)
{
    int x[4];
    if (argc > 1 && strcmp(argv[1], "--optimum") == 0) {
        int z[4] = {0, 0, 0, 0};
        double base[2], best = INFINITY, t[2];
        truth(z, base);
        for (int i = 0; i < 6 * 6 * 6 * 6; i++) {
            for (int j = 0, k = i; j < 4; j++, k /= 6)
                x[j] = k % 6;
            truth(x, t);
            if (t[0] <= base[0] && t[1] <= base[1] && sqrt(t[0] * t[1]) < best)
                best = sqrt(t[0] * t[1]);
        }
        printf("%.6f %.6f\n", best, sqrt(base[0] * base[1]));
        return 0;
    }
    for (int k = 0; k < 4; k++) {
        const char *v = getenv(names[k]);
        x[k] = 0;
        for (int i = 0; v && i < 6; i++)
            if (strcmp(v, values[k][i]) == 0)
                x[k] = i;
    }
    double t[2];
    truth(x, t);
    if (argc > 1 && strcmp(argv[1], "--true") == 0) {
        printf("%.6f %.6f\n", t[0], t[1]);
        return 0;
    }
    srand48((long)time(NULL) ^ (long)getpid() << 16);
    for (int b = 0; b < 2; b++) {
        double u1 = drand48(), u2 = drand48();
        double g = sqrt(-2 * log(u1 > 0 ? u1 : 1e-12)) * cos(2 * M_PI * u2);
        printf("bin%d t=%.4f\n", b, t[b] * (1 + 0.03 * g));
    }
    return 0;
}
