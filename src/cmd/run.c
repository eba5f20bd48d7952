/* The main command: profile -> facts -> plan -> preflight -> launch (and,
 * supervised, evidence -> verdict). */
#include "cmd/appfile.h"
#include "cmd/commands.h"
#include "cmd/job_hosts.h"
#include "preflight/preflight.h"
#include "evidence/evidence.h"
#include "facts/facts.h"
#include "launch/launch.h"
#include "launch/mpi_vars.h"
#include "launch/program_mpi.h"
#include "plan/launchers.h"
#include "plan/plan.h"
#include "plan/ports.h"
#include "profile/profile.h"
#include "profile/schema.h"
#include "launch/evidence_dir.h"
#include "launch/supervise.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Profiles an `auto` profile may choose, by fabric. */

/* path as the user sees it: relative to the working directory when under
 * it ("rdmarun-evidence/JOB"), else whole. */
static const char *path_shown(const char *path)
{
    static char cwd[4096];
    if (!getcwd(cwd, sizeof(cwd)) || path[0] != '/')
        return path;
    size_t n = strlen(cwd);
    return strncmp(path, cwd, n) == 0 && path[n] == '/' && path[n + 1] ? path + n + 1 : path;
}

/* One line on stderr before launch: what rdmarun set, so job logs record
 * it; its notes, and with --verbose its details. */
static void print_summary(const struct plan *p, bool verbose)
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
                path_shown(p->evidence_dir));
    fputc('\n', stderr);
    for (size_t i = 0; i < p->notes.n; i++)
        fprintf(stderr, "rdmarun: %s\n", p->notes.v[i]);
    for (size_t i = 0; verbose && i < p->details.n; i++)
        fprintf(stderr, "rdmarun: %s\n", p->details.v[i]);
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

/* Each job its own evidence directory, on the launch node (the ranks'
 * reports reach it through the launcher's output): by default a fresh
 * ./rdmarun-evidence/HOST.PID.TIME.XXXXXX, under $RDMARUN_EVIDENCE_DIR when
 * set; --evidence-dir names it exactly (*exact). Always absolute, whatever
 * --wdir says. */
static char *evidence_dir(const struct cmdline *cl, bool *exact)
{
    const char *env = getenv("RDMARUN_EVIDENCE_DIR");
    char cwd[4096];
    const char *here = getcwd(cwd, sizeof(cwd)) ? cwd : ".";
    char *dir;
    *exact = cl->evidence_dir && *cl->evidence_dir;
    if (*exact)
        dir = xstrdup(cl->evidence_dir);
    else {
        char *root = env && *env ? xstrdup(env) : xstrdup("./rdmarun-evidence");
        dir = evidence_dir_template(root);
        free(root);
    }
    if (strcmp(dir, ".") == 0 || strcmp(dir, "./") == 0) {
        free(dir);
        dir = xstrdup(here);
    } else if (dir[0] != '/') {
        char *abs = xasprintf("%s/%s", here, strncmp(dir, "./", 2) == 0 ? dir + 2 : dir);
        free(dir);
        dir = abs;
    }
    return dir;
}

/* The completed appfile (--app): beside the job's other temporary files,
 * made only by this job. 0, or an RR_EX_* status after saying why. */
static int write_appfile(const struct plan *p)
{
    FILE *f = NULL;
    int fd = open(p->app_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0)
        f = fdopen(fd, "w");
    for (size_t i = 0; f && i < p->app_lines.n; i++)
        fprintf(f, "%s\n", p->app_lines.v[i]);
    if (!f || ferror(f) | (fclose(f) != 0)) {
        rr_error("cannot write the appfile %s: %s (hint: TMPDIR=DIR)", p->app_path,
                 strerror(errno));
        if (fd >= 0 && !f)
            close(fd);
        return RR_EX_CANTCREAT;
    }
    return 0;
}

/* The dry run's look at the appfile's folder: the real run's error when it
 * could not write there. */
static int appfile_writable(const struct plan *p)
{
    char *dir = xstrdup(p->app_path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    int ok = access(slash ? dir : ".", W_OK | X_OK) == 0;
    int err = errno;
    free(dir);
    if (ok)
        return 0;
    rr_error("cannot write the appfile %s: %s (hint: TMPDIR=DIR)", p->app_path, strerror(err));
    return RR_EX_CANTCREAT;
}

static char *app_path(void)
{
    const char *tmp = getenv("TMPDIR");
    char host[64] = "host";
    gethostname(host, sizeof(host) - 1);
    host[sizeof(host) - 1] = '\0';
    return xasprintf("%s/rdmarun-app.%s.%ld.%ld", tmp && *tmp ? tmp : "/tmp", host,
                     (long)getpid(), (long)time(NULL));
}

/* mpirun's -x NAME=VALUE, in every app context: checked as the environment
 * is, left as mpirun's. */
static int check_x(struct profile *prof, const struct job_args *job)
{
    struct strvec xs = {0};
    for (size_t c = 0; c <= job->ncontexts; c++) {
        const struct strvec *a = c ? &job->contexts[c - 1].args : &job->mpirun_args;
        for (size_t i = 0; i + 1 < a->n; i++)
            if (strcmp(a->v[i], "-x") == 0 || strcmp(a->v[i], "--x") == 0)
                sv_push(&xs, a->v[++i]);
    }
    int rc = profile_check_x(prof, &xs);
    sv_free(&xs);
    return rc;
}

/* The MPI the job's program is linked with (-1: none, or no program). */
/* The library of the MPI --mpi or the drop-in wrapper names, for a program
 * whose own libraries name none (the profile's mpi is not read yet). */
static const char *default_mpi_library(const struct cmdline *cl)
{
    int mpi = launch_wrapped_mpi();
    if (cl->mpi)
        mpi = strcmp(cl->mpi, "mpich") == 0 ? MPI_MPICH : strcmp(cl->mpi, "impi") == 0 ? MPI_IMPI
                                                                                : MPI_OPENMPI;
    return mpi == MPI_MPICH ? "libmpich.so.12" : mpi == MPI_IMPI ? "libmpi.so.12" : "libmpi.so.40";
}

static int program_mpi_of(const struct job_args *job, char **lib, char **path)
{
    *lib = *path = NULL;
    return job->program.n ? program_mpi(job->program.v[0], lib, path) : -1;
}

/* The job's profile and, for fabric = auto, the candidates it chooses
 * among; mpirun's -x checked as the environment is. 0, or the status. */
static int load_profiles(const struct cmdline *cl, const struct job_args *job,
                         const struct strvec *dirs, struct profile *prof,
                         struct profile *cands, const struct profile **candp, size_t *ncands)
{
    const char *name = cl->profile ? cl->profile : getenv("RDMARUN_PROFILE");
    if (!name || !*name)
        name = "auto";
    int rc = profile_load_for_job(name, dirs, &cl->sets, prof);
    if (!rc)
        rc = check_x(prof, job);
    const char *fabric = rc ? NULL : profile_value(prof, "profile", "fabric");
    const char *auto_candidates[MAX_AUTO_PROFILES];
    size_t nauto = fabric_auto_profiles(auto_candidates, MAX_AUTO_PROFILES);
    for (size_t i = 0; !rc && fabric && strcmp(fabric, "auto") == 0 && i < nauto; i++) {
        char *path = profile_find(auto_candidates[i], dirs);
        if (!path)
            continue;
        free(path);
        rc = profile_load_for_job(auto_candidates[i], dirs, &cl->sets, &cands[*ncands]);
        candp[*ncands] = &cands[*ncands];
        (*ncands)++;
    }
    return rc;
}

/* The launchers found on this node, by enum launcher, each NULL when it is not. */
struct found_launchers {
    char *path[MAX_LAUNCHERS];
    bool mpirun_on_path;
};

static void find_launchers(const struct cmdline *cl, const char *mpi_path,
                           struct found_launchers *l)
{
    *l = (struct found_launchers){0};
    for (int k = 0; k < launcher_count(); k++) {
        bool on_path;
        l->path[k] = launch_find(launcher_of(k), cl->mpirun, mpi_path, &on_path);
        if (k == LAUNCHER_MPIRUN)
            l->mpirun_on_path = on_path;
    }
}

static void free_launchers(struct found_launchers *l)
{
    for (int k = 0; k < launcher_count(); k++)
        free(l->path[k]);
}

/* The plan's launcher refused before launch, by the real run and the dry
 * run alike (with the status the real run has): one not found (what was
 * looked for, how to install it, the variable that names its path), or one
 * given as a path that cannot be run (--mpirun, RDMARUN_MPIRUN,
 * RDMARUN_SRUN): said here, since srun's exec is env's, whose own message
 * would name no launcher. 0 when it may run. */
static int launcher_refusal(const struct plan *plan, const struct found_launchers *l)
{
    const struct launcher_desc *row = launcher_of(plan->launcher.value);
    if (row->command_is_launcher)
        return 0;
    const char *file = l->path[plan->launcher.value];
    if (!file)
        return launch_not_found(row);
    if (plan->argv.n && strchr(file, '/') && access(file, X_OK) != 0)
        return launch_failed(row, file, errno);
    return 0;
}

/* The dry run: the run's warning predicted, the plan printed, and the
 * status the real run would have. */
static int dry_run(const struct cmdline *cl, const struct plan *plan, const struct facts *facts,
                   bool exact, int refused)
{
    if (!refused && plan->evidence_dir && evidence_dir_check(plan->evidence_dir, exact) != 0)
        evidence_dir_warn(plan->evidence_dir, errno);
    if (cl->json)
        plan_print_json(plan, stdout);
    else
        plan_print_text(plan, stdout, cl->report);
    if (cl->report && !cl->json)
        report_placement(plan, facts);
    int rc = refused ? refused : plan->status;
    if (!rc)
        rc = preflight_predict(plan);
    if (!rc && plan->app_path)
        rc = appfile_writable(plan);
    return rc;
}

/* The real run: a run that verifies gets its directory now, and the plan
 * is made again with the name it got (mkdtemp's suffix); then preflight,
 * the appfile, and the job, supervised or exec'd. */
static int real_run(struct plan_request *rq, struct plan *plan, const struct facts *facts,
                    char **evdir, bool exact)
{
    if (plan->evidence_dir) {
        char *made = evidence_dir_make(*evdir, exact);
        if (made) {
            free(*evdir);
            *evdir = made;
            rq->evidence_dir = made;
            rq->evidence_made = true;
            rq->evidence_prune = !exact;
            plan_free(plan);
            plan_build(rq, plan);
        } else {
            evidence_dir_warn(*evdir, errno);
        }
    }
    print_summary(plan, rq->verbose);
    int rc = preflight_run(plan);
    if (!rc && plan->app_path)
        rc = write_appfile(plan);
    if (!rc)
        rc = plan_verifies(plan) ? supervise(plan, facts)
                                 : launch_exec(launcher_of(plan->launcher.value),
                                               plan->exec_path, &plan->argv);
    if (plan->app_path && plan_verifies(plan))
        unlink(plan->app_path);   /* exec'd (verify off), the file stays for mpirun */
    return rc;
}

/* A plan with errors: each said, and its status. */
static int plan_refused(const struct plan *plan)
{
    for (size_t i = 0; i < plan->errors.n; i++)
        rr_error("%s", plan->errors.v[i]);
    return plan->status;
}

/* The job's arguments with an appfile's contexts added to a copy of the
 * command line's. 0, or the appfile's status. */
static int job_of(const struct cmdline *cl, struct job_args *job)
{
    *job = cl->job;
    job->contexts = NULL;
    job->ncontexts = job->ncontexts_cap = 0;
    for (size_t i = 0; i < cl->job.ncontexts; i++) {
        GROW(job->contexts, job->ncontexts_cap, job->ncontexts + 1);
        job->contexts[job->ncontexts++] = cl->job.contexts[i];
    }
    return job->appfile ? appfile_read(job) : 0;
}

static void job_free(const struct cmdline *cl, struct job_args *job)
{
    for (size_t i = cl->job.ncontexts; i < job->ncontexts; i++) {
        sv_free(&job->contexts[i].args);
        sv_free(&job->contexts[i].program);
    }
    free(job->contexts);   /* the command line's contexts are cl's */
}

/* Whether the profile's fabric is judged by the node's fabric libraries
 * (plan/fabric_libs.c: libfabric's providers, NCCL's plugins), which only
 * those jobs ask (a child process, ~0.1 s). */
static bool needs_fabric_libs(const struct profile *prof)
{
    const struct fabric_row *row = fabric_row(profile_value(prof, "profile", "fabric"));
    return row && (row->layer == LAYER_OFI || row->layer == LAYER_TCPX);
}

/* Facts, the launchers, the program's MPI, the evidence folder and the
 * hosts: the plan made from them, and the dry or the real run. */
static int plan_and_run(const struct cmdline *cl, struct job_args *job, struct profile *prof,
                        const struct profile **candp, size_t ncands, char *apppath)
{
    struct facts facts = {0};
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false, needs_fabric_libs(prof)};
    int rc = facts_gather(&facts, &src);
    if (rc) {
        facts_free(&facts);
        return rc;
    }
    char *mpi_lib = NULL, *mpi_path = NULL;
    int program_mpi = program_mpi_of(job, &mpi_lib, &mpi_path);
    struct found_launchers l;
    find_launchers(cl, mpi_path, &l);
    /* The MPI library names itself only for the dry run's stack line: loading
     * libmpi to ask is a few ms a job that nothing else reads. */
    char *mpi_library = cl->dry_run ? facts_mpi_library(mpi_path ? mpi_path : mpi_lib ? mpi_lib
                                                        : default_mpi_library(cl))
                                    : NULL;
    bool exact;
    char *evdir = evidence_dir(cl, &exact);
    char *self = realpath("/proc/self/exe", NULL);
    struct strvec hosts = {0};
    rc = job_hosts(&job->mpirun_args, &hosts);
    char word[17];
    random_word(word);
    struct plan_request rq = {
        .output_word = word, .impi_debug = getenv("I_MPI_DEBUG"), .hosts = &hosts,
        .alloc_nodes = slurm_alloc_nodes(), .profile = prof, .candidates = candp,
        .ncandidates = ncands, .facts = &facts, .job = job, .verify = cl->verify,
        .launcher = cl->launcher, .mpi = cl->mpi, .program_mpi = program_mpi,
        .program_mpi_lib = mpi_lib, .wrapped_mpi = launch_wrapped_mpi(),
        .bind_policy = cl->bind_policy, .report = cl->report, .sysfs = cl->sysfs,
        .threads = cl->threads, .mpirun_on_path = l.mpirun_on_path,
        .stdbuf = access(PLAN_STDBUF_PATH, X_OK) == 0, .mpi_library = mpi_library,
        .evidence_dir = evdir, .self = self, .app_path = apppath, .verbose = cl->verbose,
    };
    for (int k = 0; k < launcher_count(); k++)
        rq.found[k] = l.path[k];
    struct plan plan;
    plan_build(&rq, &plan);
    mpi_vars_check(&plan, mpi_path ? mpi_path : mpi_lib);
    if (rc && !plan.status)
        plan.status = rc;   /* a hostfile that cannot be read */
    int refused = launcher_refusal(&plan, &l);
    rc = cl->dry_run ? dry_run(cl, &plan, &facts, exact, refused)
       : refused ? refused
       : plan.status ? plan_refused(&plan) : real_run(&rq, &plan, &facts, &evdir, exact);
    plan_free(&plan);
    sv_free(&hosts);
    free(self);
    free(evdir);
    free_launchers(&l);
    free(mpi_lib);
    free(mpi_path);
    free(mpi_library);
    facts_free(&facts);
    return rc;
}

int cmd_run(const struct cmdline *cl)
{
    if (cl->json && !cl->dry_run) {
        rr_error("--json prints the plan of a --dry-run; a job's output is its own (hint: "
                 "rdmarun --dry-run --json ..., or the verdict in the evidence directory's "
                 "verdict.json)");
        return RR_EX_USAGE;
    }
    struct job_args job;
    int rc = job_of(cl, &job);
    if (rc) {
        job_free(cl, &job);
        return rc;
    }
    char *apppath = job.appfile ? app_path() : NULL;
    struct strvec dirs = {0};
    profile_search_path(&dirs);
    struct profile prof, cands[MAX_AUTO_PROFILES];
    const struct profile *candp[MAX_AUTO_PROFILES];
    size_t ncands = 0;
    rc = load_profiles(cl, &job, &dirs, &prof, cands, candp, &ncands);
    if (!rc)
        rc = plan_and_run(cl, &job, &prof, candp, ncands, apppath);
    for (size_t i = 0; i < ncands; i++)
        profile_free(&cands[i]);
    profile_free(&prof);
    sv_free(&dirs);
    free(apppath);
    job_free(cl, &job);
    return rc;
}
