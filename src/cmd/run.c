/* The main command: profile -> facts -> plan -> preflight -> launch (and,
 * supervised, evidence -> verdict). */
#include "cmd/commands.h"
#include "preflight/preflight.h"
#include "evidence/evidence.h"
#include "facts/facts.h"
#include "launch/launch.h"
#include "plan/plan.h"
#include "profile/profile.h"
#include "profile/schema.h"
#include "launch/supervise.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Profiles an `auto` profile may choose, by fabric. */
static const char *const auto_candidates[] = {"ib", "roce", "pvrdma"};
#define NCANDIDATES (sizeof(auto_candidates) / sizeof(*auto_candidates))

/* One line on stderr before launch: what rdmarun set, so job logs record it. */
static void print_summary(const struct plan *p)
{
    fprintf(stderr, "rdmarun: profile %s", p->chosen);
    if (strcmp(p->profile, p->chosen) != 0)
        fprintf(stderr, " (chosen by %s)", p->profile);
    fprintf(stderr, ", fabric %s:", p->fabric);
    for (size_t i = 0; i < p->n; i++)
        if (!p->items[i].overridden && p->items[i].value &&
            strcmp(p->items[i].origin, "evidence") != 0)
            fprintf(stderr, " %s=%s", p->items[i].name, p->items[i].value);
    if (p->evidence_dir)
        fprintf(stderr, "; verify %s, evidence in %s", p->policy, p->evidence_dir);
    fputc('\n', stderr);
    for (size_t i = 0; i < p->notes.n; i++)
        fprintf(stderr, "rdmarun: %s\n", p->notes.v[i]);
}

/* Before an RDMA job, with verify on: the QP test on the ports the plan
 * chose. strict refuses to launch on a failure, warn says so and goes on. */
static int preflight(const struct plan *p, const struct facts *f)
{
    const struct plan_item *dev = plan_find(p, ITEM_ENV, "UCX_NET_DEVICES");
    const struct plan_item *gid = plan_find(p, ITEM_ENV, "UCX_IB_GID_INDEX");
    if (strcmp(p->policy, "off") == 0 || strcmp(p->expect, "rdma") != 0 || !dev || !dev->value)
        return 0;
    struct strvec ports = {0};
    sv_split(&ports, dev->value, ",");
    int rc = 0;
    for (size_t i = 0; i < ports.n && !rc; i++)
        rc = check_qp_ports(f, ports.v[i], gid ? gid->value : NULL, true);
    sv_free(&ports);
    if (rc && strcmp(p->policy, "strict") == 0) {
        rr_error("preflight QP test failed: not starting the job (verify = strict)");
        return rc;
    }
    if (rc)
        rr_warn("preflight QP test failed; starting the job anyway (verify = warn)");
    return 0;
}

/* --dry-run --report: the placement each local rank would get. */
static void report_placement(const struct plan *p, const struct facts *f)
{
    putchar('\n');
    if (p->placement)
        placement_print_table(p->placement, f->hostname, stdout);
    else if (strcmp(p->bind_policy, "none") == 0)
        printf("placement: policy none: Open MPI binds the ranks (--report-bindings shows how); "
               "--bind-policy numa|nic-local|gpu-local lets rdmarun place them\n");
    else
        printf("placement: policy %s: give the ranks per node (-N N, or -np N for one node) to "
               "see each rank's placement\n", p->bind_policy);
}

/* Each job its own evidence directory, under the working directory by
 * default (on clusters a shared file system, so every node's ranks write
 * where the launch node reads). */
static char *evidence_dir(const struct cmdline *cl)
{
    const char *base = cl->evidence_dir ? cl->evidence_dir : getenv("RDMARUN_EVIDENCE_DIR");
    if (base && *base && cl->evidence_dir)
        return xstrdup(base);   /* --evidence-dir names the job's own directory */
    char host[64] = "host", cwd[4096];
    gethostname(host, sizeof(host) - 1);
    host[sizeof(host) - 1] = '\0';
    if (!base || !*base)
        base = getcwd(cwd, sizeof(cwd)) ? cwd : ".";
    return xasprintf("%s%srdmarun-evidence/%s.%ld.%ld", base, base[strlen(base) - 1] == '/' ? "" : "/",
                     host, (long)getpid(), (long)time(NULL));
}

int cmd_run(const struct cmdline *cl, const struct strvec *dirs)
{
    const char *name = cl->profile ? cl->profile : getenv("RDMARUN_PROFILE");
    if (!name || !*name)
        name = "auto";
    struct profile prof, cands[NCANDIDATES];
    const struct profile *candp[NCANDIDATES];
    size_t ncands = 0;
    struct facts facts = {0};
    struct plan plan;
    int rc = profile_load_for_job(name, dirs, &cl->sets, &prof);
    const char *fabric = rc ? NULL : profile_value(&prof, "profile", "fabric");
    for (size_t i = 0; !rc && fabric && strcmp(fabric, "auto") == 0 && i < NCANDIDATES; i++) {
        char *path = profile_find(auto_candidates[i], dirs);
        if (!path)
            continue;
        free(path);
        rc = profile_load_for_job(auto_candidates[i], dirs, &cl->sets, &cands[ncands]);
        candp[ncands] = &cands[ncands];
        ncands++;
    }
    if (rc)
        goto out_profiles;

    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false};
    rc = facts_gather(&facts, &src);
    if (rc)
        goto out_facts;
    const char *launcher = cl->launcher ? cl->launcher : profile_value(&prof, "profile", "launcher");
    launcher = launcher ? launcher : "mpirun";
    bool srun = strcmp(launcher, "srun") == 0;
    char *mpirun = srun ? launch_find_srun(cl->mpirun) : launch_find_mpirun(cl->mpirun);
    if (!mpirun && !cl->dry_run) {
        rr_error("%s not found on PATH (hint: apt-get install %s, or give its path with "
                 "--mpirun or %s)", launcher, srun ? "slurm-client" : "openmpi-bin",
                 srun ? "RDMARUN_SRUN" : "RDMARUN_MPIRUN");
        rc = RR_EX_NOTFOUND;
        goto out_facts;
    }
    char *evdir = evidence_dir(cl);
    char *self = realpath("/proc/self/exe", NULL);
    struct plan_input in = {
        .profile = &prof, .candidates = candp, .ncandidates = ncands, .facts = &facts,
        .cmd = cl, .launcher = launcher, .mpirun = mpirun ? mpirun : launcher,
        .evidence_dir = evdir, .self = self,
    };
    plan_build(&in, &plan);
    if (cl->dry_run) {
        if (cl->json)
            plan_print_json(&plan, stdout);
        else
            plan_print_text(&plan, stdout);
        if (cl->report && !cl->json)
            report_placement(&plan, &facts);
        rc = plan.status;
    } else if (plan.status) {
        for (size_t i = 0; i < plan.errors.n; i++)
            rr_error("%s", plan.errors.v[i]);
        rc = plan.status;
    } else {
        print_summary(&plan);
        rc = preflight(&plan, &facts);
        if (!rc)
            rc = plan.evidence_dir ? supervise(&plan, &facts) : launch_exec(&plan.argv);
    }
    plan_free(&plan);
    free(self);
    free(evdir);
    free(mpirun);
out_facts:
    facts_free(&facts);
out_profiles:
    for (size_t i = 0; i < ncands; i++)
        profile_free(&cands[i]);
    profile_free(&prof);
    return rc;
}

