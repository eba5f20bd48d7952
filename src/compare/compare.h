/* rdmarun compare: the comparison's settings (cmd/compare.c fills them from
 * the command line), its run (compare/session.c: compare.conf, plans, runs,
 * resume) and the results (compare/results.c: statistics, table, CSV, JSON,
 * plot). */
#ifndef RDMARUN_COMPARE_H
#define RDMARUN_COMPARE_H
#include "compare/results_dir.h"
#include "compare/runs.h"
#include "compare/stats.h"
#include "util/strvec.h"
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#define MAX_NP 32

struct facts;

struct compare {
    struct results_dir out;  /* the results folder */
    struct strvec profiles;  /* as given: names or paths */
    struct strvec labels;    /* what results call them: the name, without folder or .ini */
    long np[MAX_NP];
    size_t nnp;
    int repeat, warmup;
    char *metric;            /* regex, or NULL: the value is the wall time */
    bool higher;             /* --higher-is-better: the metric is a rate (bandwidth) */
    regex_t re;
    bool compiled;           /* re holds the compiled metric */
    char *baseline;
    struct strvec args;      /* mpirun options */
    struct strvec program;
    char **expect;           /* per combination, from its plan */
    const struct facts *facts;   /* this node's, for the speed of light; NULL: none */
    int nodes;               /* the nodes the job's options name (1: this one) */
};

/* One (profile, np): its statistics over the measured runs that count. */
struct result {
    const char *profile;
    long np;
    size_t runs, excluded;
    struct sample_stats s;
    double speedup, efficiency, ratio;   /* NAN when not defined */
    double eff_lo, eff_hi;   /* efficiency's 95% interval from paired rounds; NAN: under 2 */
    double light;            /* the model's time over the median (model_bin_light); NAN: none */
    char light_limit[160];   /* what limits that figure, or why there is none */
};

static inline size_t ncombos(const struct compare *c)
{
    return c->profiles.n * c->nnp;
}

/* A whole number of a setting from lo to hi, or an error that names it. */
bool compare_count(const char *what, const char *s, long lo, long hi, long *out);
/* An earlier comparison's settings, from DIR/compare.conf, to resume it. */
int compare_load(struct compare *c, const char *dir);
/* Run the comparison whose settings c holds: a new one in `output` (NULL:
 * rdmarun-compare/TIMESTAMP), or the one compare_load read, resumed; then
 * its results. Returns rdmarun's exit status. */
int compare_run(struct compare *c, const char *output);
void compare_free(struct compare *c);
/* Fill res (ncombos of them) from the recorded runs; returns how many. */
size_t compare_summarize(const struct compare *c, const struct run *runs, size_t nruns,
                         struct result *res);
/* The table on stdout, DIR/summary.csv and DIR/summary.json. */
int compare_write(const struct compare *c, const struct result *res, size_t n,
                  const struct run *runs, size_t nruns);
/* Run gnuplot on DIR/NAME.gp in DIR (its messages in NAME.log); a warning
 * from `who` when it is not installed or fails. */
void plot_draw(const char *dir, const char *name, const char *who);
/* DIR/scaling.png and .svg with gnuplot, when it is installed. */
void compare_plot(const struct compare *c, const struct result *res, size_t n);

#endif
