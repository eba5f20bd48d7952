/* rdmarun compare: run a program under several profiles and rank counts,
 * repeatedly and interleaved, and report parallel efficiency with honest
 * statistics (compare/session.c runs the comparison). This file only turns
 * the command line into the comparison's settings. */
#include "cmd/commands.h"
#include "cmd/job_hosts.h"
#include "compare/compare.h"
#include "facts/facts.h"
#include "util/msg.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <string.h>

static int settings_from(struct compare *c, const struct cmdline *cl)
{
    long v;
    if (!cl->profile || !cl->np_list) {
        rr_error("compare needs -p PROFILE[,PROFILE...] and --np N[,N...] (hint: rdmarun "
                 "compare -p shm,tcp --np 1,2 -- ./app)");
        return RR_EX_USAGE;
    }
    if (cl->job.np > 0 || cl->job.ppn > 0) {
        rr_error("compare: give rank counts with --np N[,N...], not as mpirun options");
        return RR_EX_USAGE;
    }
    sv_split(&c->profiles, cl->profile, ",");
    struct strvec nps = {0};
    sv_split(&nps, cl->np_list, ",");
    bool good = nps.n > 0 && nps.n <= MAX_NP;
    for (size_t i = 0; good && i < nps.n; i++) {
        good = compare_count("--np", nps.v[i], 1, 1 << 20, &v);
        c->np[c->nnp++] = v;
    }
    sv_free(&nps);
    if (!good)
        return RR_EX_USAGE;
    if (!compare_count("--repeat", cl->repeat ? cl->repeat : "5", 1, 10000, &v))
        return RR_EX_USAGE;
    c->repeat = (int)v;
    if (!compare_count("--warmup", cl->warmup ? cl->warmup : "1", 0, 10000, &v))
        return RR_EX_USAGE;
    c->warmup = (int)v;
    c->metric = cl->metric ? xstrdup(cl->metric) : NULL;
    c->higher = cl->higher;
    if (c->higher && !c->metric) {
        rr_error("compare: --higher-is-better is for a --metric such as a bandwidth (wall time "
                 "is lower-is-better)");
        return RR_EX_USAGE;
    }
    c->baseline = xstrdup(cl->baseline ? cl->baseline : c->profiles.v[0]);
    sv_append(&c->args, &cl->job.mpirun_args);
    sv_append(&c->program, &cl->job.program);
    return 0;   /* (any argument: compare.conf keeps a newline as %0A) */
}

int cmd_compare(const struct cmdline *cl)
{
    struct compare c;
    memset(&c, 0, sizeof(c));
    int rc = cl->resume ? compare_load(&c, cl->resume) : settings_from(&c, cl);
    /* this node's facts and the job's nodes: the figures' speed of light */
    struct facts f;
    memset(&f, 0, sizeof(f));
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false, false};
    if (!rc)
        rc = facts_gather(&f, &src);
    if (!rc) {
        c.facts = &f;
        c.nodes = job_node_count(&c.args);
        rc = compare_run(&c, cl->output);
    }
    facts_free(&f);
    compare_free(&c);
    return rc;
}
