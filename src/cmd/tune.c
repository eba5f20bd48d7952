/* rdmarun tune: search settings on top of a profile by measuring a
 * benchmark, every run verified (tune/session.c runs the tune, tune/search.c
 * is the method). This file only turns the command line into the tune's
 * settings and search space. */
#include "cmd/commands.h"
#include "cmd/job_hosts.h"
#include "facts/facts.h"
#include "profile/profile.h"
#include "tune/tune.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_BUDGET_RUNS 200
#define MAX_BUDGET_S (7 * 24 * 3600.0)

/* --budget: a number of runs, or a time: 90s, 30m, 2h. */
static bool budget_of(const char *s, struct tune *t)
{
    long runs;
    if (!s) {
        t->budget_runs = DEFAULT_BUDGET_RUNS;
        return true;
    }
    if (parse_long(s, 1, 1000000, &runs)) {
        t->budget_runs = runs;
        return true;
    }
    size_t n = strlen(s);
    char last = n ? s[n - 1] : '\0';
    double unit = last == 's' ? 1 : last == 'm' ? 60 : last == 'h' ? 3600 : 0;
    char *num = n ? xstrndup(s, n - 1) : NULL;
    double v;
    bool ok = unit && parse_seconds(num, MAX_BUDGET_S / unit, &v);
    free(num);
    if (ok)
        t->budget_s = v * unit;
    else
        rr_error("tune: --budget '%s': expected a number of runs (200) or a time (90s, 30m, 2h)",
                 s);
    return ok;
}

/* The built-in MPI sweep (examples/mpi_pingpong): 50 iterations of each
 * size, from a small message to a rendezvous one, on 2 ranks unless told. */
static int builtin_mpi(struct tune *t, const struct cmdline *cl)
{
    char *bench = tune_builtin_benchmark(false);
    if (!bench)
        return RR_EX_UNAVAILABLE;
    const char *argv[] = {bench, "50", "8", "1024", "65536", "1048576"};
    for (size_t i = 0; i < sizeof(argv) / sizeof(*argv); i++)
        sv_push(&t->program, argv[i]);
    free(bench);
    t->metric = xstrdup(TUNE_BUILTIN_METRIC);
    if (cl->job.np <= 0 && cl->job.ppn <= 0) {   /* a ping-pong needs two ranks */
        sv_push(&t->args, "-np");
        sv_push(&t->args, "2");
    }
    return 0;
}

/* The UCX level (libexec/ucx-pair): ucx_perftest's server and client on
 * this node, under --launcher exec (they are no MPI job). */
static int builtin_ucx(struct tune *t, const struct cmdline *cl)
{
    if ((cl->launcher && strcmp(cl->launcher, "exec") != 0) || cl->job.np > 0 ||
        cl->job.ppn > 0) {
        rr_error("tune: --benchmark ucx runs ucx_perftest's server and client on this node "
                 "itself (--launcher exec): a launcher%s is not for it",
                 cl->launcher ? " option" : "'s process count");
        return RR_EX_USAGE;
    }
    char *bench = tune_builtin_benchmark(true);
    if (!bench)
        return RR_EX_UNAVAILABLE;
    const char *argv[] = {bench, "-n", "1000", "8", "1024", "65536", "1048576"};
    for (size_t i = 0; i < sizeof(argv) / sizeof(*argv); i++)
        sv_push(&t->program, argv[i]);
    free(bench);
    t->metric = xstrdup(TUNE_UCX_METRIC);
    if (!cl->launcher) {
        sv_push(&t->args, "--launcher");
        sv_push(&t->args, "exec");
    }
    return 0;
}

/* The space to search: from the base as this command line makes it (its
 * --set values), and the node; Open MPI's collectives where its mpirun
 * starts the ranks. */
static int space_of(struct tune *t, const struct cmdline *cl, bool builtin, bool ucx)
{
    struct strvec dirs = {0};
    profile_search_path(&dirs);
    struct profile p;
    int rc = profile_load_for_job(t->base, &dirs, &cl->sets, &p);
    sv_free(&dirs);
    struct facts f;
    memset(&f, 0, sizeof(f));
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false, false};
    if (!rc)
        rc = facts_gather(&f, &src);
    const char *launcher = cl->launcher ? cl->launcher : rc ? NULL : profile_value(&p, "profile",
                                                                                    "launcher");
    const char *colls = ucx || (launcher && strcmp(launcher, "mpirun") != 0) ? NULL
                      : builtin ? TUNE_BUILTIN_COLLECTIVES : "allreduce";
    if (!rc && cl->space)
        rc = tune_space_read(&t->space, cl->space, &p, &f, colls);
    else if (!rc)
        tune_space_default(&t->space, &p, &f, colls);
    if (!rc && !t->space.n) {
        rr_error("tune: nothing to search: every key has one value here%s", cl->space
                 ? " (hint: list two values or more: KEY = V1 | V2)" : "");
        rc = RR_EX_USAGE;
    }
    facts_free(&f);
    profile_free(&p);
    return rc;
}

static int settings_from(struct tune *t, const struct cmdline *cl)
{
    if (!cl->profile) {
        rr_error("tune needs -p BASE: the profile to start from (hint: rdmarun tune -p shm; "
                 "'rdmarun profiles' lists them)");
        return RR_EX_USAGE;
    }
    if (!budget_of(cl->budget, t))
        return RR_EX_USAGE;
    t->base = xstrdup(cl->profile);
    t->higher = cl->higher;
    cli_job_options(cl, &t->args);
    sv_append(&t->args, &cl->job.mpirun_args);
    bool builtin = !cl->job.program.n, ucx = cl->benchmark && strcmp(cl->benchmark, "ucx") == 0;
    if (!builtin && cl->benchmark) {
        rr_error("tune: --benchmark picks a built-in benchmark, and a PROGRAM was given too "
                 "(hint: one or the other)");
        return RR_EX_USAGE;
    }
    if (!builtin) {
        if (!cl->metric && cl->higher) {
            rr_error("tune: --higher-is-better is for a --metric such as a bandwidth (wall time "
                     "is lower-is-better)");
            return RR_EX_USAGE;
        }
        t->metric = cl->metric ? xstrdup(cl->metric) : NULL;
        sv_append(&t->program, &cl->job.program);
    } else {
        if (cl->metric || cl->higher) {
            rr_error("tune: --metric and --higher-is-better are for your own benchmark (hint: "
                     "rdmarun tune -p BASE --metric REGEX -- PROGRAM)");
            return RR_EX_USAGE;
        }
        int rc = ucx ? builtin_ucx(t, cl) : builtin_mpi(t, cl);
        if (rc)
            return rc;
    }
    /* (any argument: tune.conf keeps a newline as %0A) */
    return space_of(t, cl, builtin, ucx);
}

int cmd_tune(const struct cmdline *cl)
{
    struct tune t;
    memset(&t, 0, sizeof(t));
    long pairs = 10;
    if (cl->repeat && !parse_long(cl->repeat, 2, 10000, &pairs)) {
        rr_error("tune: --repeat '%s': expected a number of pairs from 2 to 10000", cl->repeat);
        return RR_EX_USAGE;
    }
    if (cl->validate) {   /* a finished tune, measured again */
        int rc = tune_load(&t, cl->validate, "tune --validate");
        if (!rc)
            rc = tune_validate(&t, pairs);
        tune_free(&t);
        return rc;
    }
    int rc = cl->resume ? tune_load(&t, cl->resume, "tune --resume") : settings_from(&t, cl);
    if (!rc)
        t.nodes = job_node_count(&t.args);
    if (!rc)
        rc = tune_run(&t, cl->output);
    /* A tuned profile is measured again, with a plot, unless told not to. */
    if (!rc && !cl->no_validate && t.tuned)
        rc = tune_validate(&t, cl->repeat ? pairs : 5);
    tune_free(&t);
    return rc;
}
