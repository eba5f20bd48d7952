/* A few lines of TAP for C unit tests (automake's tap-driver reads them). */
#ifndef RDMARUN_TAP_H
#define RDMARUN_TAP_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...)                                                     \
    do {                                                                  \
        int ok_ = (cond);                                                 \
        printf("%sok %d - ", ok_ ? "" : "not ", ++tap_n);                 \
        printf(__VA_ARGS__);                                              \
        printf("\n");                                                     \
        if (!ok_) {                                                       \
            tap_failed++;                                                 \
            printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                 \
    } while (0)

#define is_str(got, want, ...)                                            \
    do {                                                                  \
        const char *g_ = (got), *w_ = (want);                             \
        ok(g_ && w_ ? strcmp(g_, w_) == 0 : g_ == w_, __VA_ARGS__);       \
        if (!(g_ && w_ ? strcmp(g_, w_) == 0 : g_ == w_))                 \
            printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
    } while (0)

/* SECONDS times RDMARUN_TEST_SLOWDOWN (tests/wait.sh): every bound a test
 * puts on how long something takes. */
static inline double scaled(double seconds)
{
    const char *f = getenv("RDMARUN_TEST_SLOWDOWN");
    double k = f ? atof(f) : 1;
    return seconds * (k > 0 ? k : 1);
}

/* The source tree (RDMARUN_SRCDIR, set by make check), else ".". */
static inline const char *tap_srcdir(void)
{
    const char *s = getenv("RDMARUN_SRCDIR");
    return s && *s ? s : ".";
}

static inline int done_testing(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
