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
            p->items[i].source != SOURCE_EVIDENCE)
            fprintf(stderr, " %s=%s", p->items[i].name, p->items[i].value);
    if (p->evidence_dir)
        fprintf(stderr, "; verify %s, evidence in %s", verify_policy_names[p->verify.value],
                p->evidence_dir);
    fputc('\n', stderr);
    for (size_t i = 0; i < p->notes.n; i++)
        fprintf(stderr, "rdmarun: %s\n", p->notes.v[i]);
}

/* --dry-run --report: the placement each local rank would get. */
static void report_placement(const struct plan *p, const struct facts *f)
{
    putchar('\n');
    if (p->placement)
        placement_print_table(p->placement, f->hostname, stdout);
    else if (p->bind.value == BIND_NONE)
        printf("placement: policy none: Open MPI binds the ranks (--report-bindings shows how); "
               "--bind-policy numa|nic-local|gpu-local lets rdmarun place them\n");
    else
        printf("placement: policy %s: give the ranks per node (-N N, or -np N for one node) to "
               "see each rank's placement\n", bind_policy_names[p->bind.value]);
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

int cmd_run(const struct cmdline *cl)
{
    struct strvec dirs = {0};
    profile_search_path(&dirs);
    const char *name = cl->profile ? cl->profile : getenv("RDMARUN_PROFILE");
    if (!name || !*name)
        name = "auto";
    struct profile prof, cands[NCANDIDATES];
    const struct profile *candp[NCANDIDATES];
    size_t ncands = 0;
    struct facts facts = {0};
    struct plan plan;
    int rc = profile_load_for_job(name, &dirs, &cl->sets, &prof);
    const char *fabric = rc ? NULL : profile_value(&prof, "profile", "fabric");
    for (size_t i = 0; !rc && fabric && strcmp(fabric, "auto") == 0 && i < NCANDIDATES; i++) {
        char *path = profile_find(auto_candidates[i], &dirs);
        if (!path)
            continue;
        free(path);
        rc = profile_load_for_job(auto_candidates[i], &dirs, &cl->sets, &cands[ncands]);
        candp[ncands] = &cands[ncands];
        ncands++;
    }
    if (rc)
        goto out_profiles;

    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false};
    rc = facts_gather(&facts, &src);
    if (rc)
        goto out_facts;
    char *mpirun = launch_find_mpirun(cl->mpirun), *srun = launch_find_srun(cl->mpirun);
    char *mpi_library = launch_mpi_library();
    char *evdir = evidence_dir(cl);
    char *self = realpath("/proc/self/exe", NULL);
    struct plan_request rq = {
        .profile = &prof, .candidates = candp, .ncandidates = ncands, .facts = &facts,
        .job = &cl->job, .verify = cl->verify, .launcher = cl->launcher,
        .bind_policy = cl->bind_policy, .report = cl->report, .sysfs = cl->sysfs,
        .mpirun = mpirun, .srun = srun, .mpi_library = mpi_library, .evidence_dir = evdir,
        .self = self,
    };
    plan_build(&rq, &plan);
    bool use_srun = plan.launcher.value == LAUNCHER_SRUN;
    if (!cl->dry_run && !(use_srun ? srun : mpirun)) {
        rr_error("%s not found on PATH (hint: apt-get install %s, or give its path with "
                 "--mpirun or %s)", launcher_names[plan.launcher.value],
                 use_srun ? "slurm-client" : "openmpi-bin",
                 use_srun ? "RDMARUN_SRUN" : "RDMARUN_MPIRUN");
        rc = RR_EX_NOTFOUND;
    } else if (cl->dry_run) {
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
        rc = preflight_run(&plan);
        if (!rc)
            rc = plan_verifies(&plan) ? supervise(&plan, &facts) : launch_exec(&plan.argv);
    }
    plan_free(&plan);
    free(self);
    free(evdir);
    free(mpirun);
    free(srun);
    free(mpi_library);
out_facts:
    facts_free(&facts);
out_profiles:
    for (size_t i = 0; i < ncands; i++)
        profile_free(&cands[i]);
    profile_free(&prof);
    sv_free(&dirs);
    return rc;
}
