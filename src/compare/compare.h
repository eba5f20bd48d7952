/* rdmarun compare, shared between its files: the comparison's settings
 * (cmd/compare.c runs it) and the results (compare/results.c: statistics,
 * table, CSV, JSON, plot). */
#ifndef RDMARUN_COMPARE_H
#define RDMARUN_COMPARE_H
#include "compare/runs.h"
#include "compare/stats.h"
#include "util/strvec.h"
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#define MAX_NP 32

struct compare {
    char *dir;
    struct strvec profiles;  /* as given: names or paths */
    struct strvec labels;    /* what results call them: the name, without folder or .ini */
    long np[MAX_NP];
    size_t nnp;
    int repeat, warmup;
    char *metric;            /* regex, or NULL: the value is the wall time */
    bool higher;             /* --higher-is-better: the metric is a rate (bandwidth) */
    regex_t re;
    char *baseline;
    struct strvec args;      /* mpirun options */
    struct strvec program;
    char **expect;           /* per combination, from its plan */
};

/* One (profile, np): its statistics over the measured runs that count. */
struct result {
    const char *profile;
    long np;
    size_t runs, excluded;
    struct sample_stats s;
    double speedup, efficiency, ratio;   /* NAN when not defined */
};

static inline size_t ncombos(const struct compare *c)
{
    return c->profiles.n * c->nnp;
}

/* Fill res (ncombos of them) from the recorded runs; returns how many. */
size_t compare_summarize(const struct compare *c, const struct run *runs, size_t nruns,
                         struct result *res);
/* The table on stdout, DIR/summary.csv and DIR/summary.json. */
int compare_write(const struct compare *c, const struct result *res, size_t n,
                  const struct run *runs, size_t nruns);
/* DIR/scaling.png and .svg with gnuplot, when it is installed. */
void compare_plot(const struct compare *c, const struct result *res, size_t n);

#endif
