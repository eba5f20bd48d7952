/* The plan's evidence variables (plan.c's plan_build): what makes the
 * ranks report their transports where the supervisor reads them. */
#include "plan/plan.h"
#include "plan/plan_parts.h"
#include "plan/launchers.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Evidence: each rank reports its transports on its stdout or stderr, which
 * the launcher brings to the launch node from every node, where the
 * supervisor takes them out of the job's output, live. A user's own log
 * settings are kept, with a note when they hide the evidence.
 * A report must leave a rank in one write(): since glibc 2.37 an fprintf to
 * an unbuffered stderr leaves in 128-byte pieces, which Open MPI 4.1 passes
 * on as they come and 5.0's PMIx (below 5.0.11) glues to another rank's, so
 * a long UCX line breaks. UCX reports on stdout, its own default: mpirun
 * gives each rank's stdout a pty, line-buffered, and exec runs COMMAND under
 * stdbuf -oL (argv_exec.c). srun's stepd assembles each task's lines itself
 * and its tasks' stdout is a pipe, which holds lines until 4 KiB: stderr;
 * so do Flux's job shell and PALS. */
/* Whether mpirun sends the ranks' output to files (4.1's --output-filename,
 * 5's --output dir=|file=), where no report reaches the launcher's output. */
static bool output_to_files(const struct job_args *job)
{
    const struct strvec *a = &job->mpirun_args;
    for (size_t i = 0; i < a->n; i++) {
        const char *o = a->v[i] + strspn(a->v[i], "-");
        if (a->v[i][0] == '-' && (strcmp(o, "output-filename") == 0 ||
                                  (strcmp(o, "output") == 0 && i + 1 < a->n &&
                                   (strstr(a->v[i + 1], "dir=") || strstr(a->v[i + 1], "file=")))))
            return true;
    }
    return false;
}

/* NAME's value as the job's own options give it to the ranks (-x
 * NAME=VALUE, Hydra's -genv NAME VALUE or -genv NAME=VALUE), or NULL. */
static char *job_env_value(const struct job_args *job, const char *name)
{
    const struct strvec *a = &job->mpirun_args;
    size_t len = strlen(name);
    char *found = NULL;
    for (size_t i = 0; i + 1 < a->n; i++) {
        const char *o = a->v[i] + strspn(a->v[i], "-"), *w = a->v[i + 1];
        if (a->v[i][0] != '-' || (strcmp(o, "x") != 0 && strcmp(o, "genv") != 0))
            continue;
        if (strncmp(w, name, len) == 0 && w[len] == '=') {
            free(found);
            found = xstrdup(w + len + 1);
        } else if (strcmp(o, "genv") == 0 && strcmp(w, name) == 0 && i + 2 < a->n) {
            free(found);
            found = xstrdup(a->v[i + 2]);
        }
    }
    return found;
}

/* Intel MPI reports its libfabric provider at I_MPI_DEBUG >= 1, the
 * pinning table (each rank's host) at 4 and up (Developer Reference,
 * I_MPI_DEBUG), and that a one-node job uses its shm fabric alone at 6
 * (2021.18: "single node launch is detected ... Defaulting to shm
 * fabric."): 6, unless the job sets its own (profile, -x/-genv, the
 * environment Hydra passes on), which is kept, its lines the job's. */
static void impi_debug(struct plan *p, const struct job_args *job, const char *rq_impi_debug)
{
    const struct plan_item *dbg = plan_find(p, ITEM_ENV, "I_MPI_DEBUG");
    char *given = job_env_value(job, "I_MPI_DEBUG");
    const char *value = given ? given : dbg ? dbg->value : rq_impi_debug;
    const char *origin = given ? "the command line" : dbg ? dbg->origin : "the environment";
    if (!value)
        plan_add_item(p, ITEM_ENV, SOURCE_EVIDENCE, "I_MPI_DEBUG", "6", xstrdup("evidence"),
                      xstrdup("rdmarun reads Intel MPI's fabric and pinning reports from the "
                              "launcher's output"));
    else if (strlen(value) == 1 && strchr("0123", value[0]))
        sv_pushf(&p->notes, "I_MPI_DEBUG=%s from %s is kept: Intel MPI then prints no pinning "
                 "table, so rdmarun cannot tell which host each rank ran on (it would set 6)",
                 value, origin);
    free(given);
}

/* The variables that make UCX and NCCL report, with the value each gets
 * (weak: values that hide the reports; file: a user's value other than
 * stdout or stderr sends them to files the launch node may not see). */
static const struct evidence_var {
    const char *name, *value, *weak;
    bool file;
} evidence_vars[] = {
    {"UCX_LOG_LEVEL", "info", "warn error fatal", false},
    {"UCX_LOG_FILE", "stdout", NULL, true},
    {"NCCL_DEBUG", "INFO", "VERSION WARN", false},
    {"NCCL_DEBUG_SUBSYS", "INIT,NET", NULL, false},
    {"NCCL_DEBUG_FILE", NULL, NULL, true},   /* unset: NCCL reports on stdout */
};

/* A user's value of variable i that is kept: a note when it hides the
 * reports, or leaves UCX's on a stderr that comes in pieces. */
static void kept_value(struct plan *p, size_t i, const struct plan_item *have, const char *value,
                       bool pipes)
{
    const struct evidence_var *ev = &evidence_vars[i];
    const char *v = have && have->value ? have->value : NULL;
    bool hides = v && ((ev->weak && strstr(ev->weak, v)) ||
                       (ev->file && *v && strcmp(v, "stdout") != 0 && strcmp(v, "stderr") != 0));
    if (hides)
        sv_pushf(&p->notes, "%s=%s from %s is kept: rdmarun may find no transport evidence "
                 "(it would %s%s)", ev->name, v, have->origin,
                 value ? "set " : "leave it unset", value ? value : "");
    else if (!pipes && i == 1 && v && strcmp(v, "stderr") == 0)
        sv_pushf(&p->notes, "UCX_LOG_FILE=stderr from %s is kept: with glibc 2.37+ a long UCX "
                 "line leaves stderr in pieces, which %s, and a process's report may be lost "
                 "(rdmarun would set stdout)", have->origin,
                 launcher_of(p->launcher.value)->command_is_launcher
                     ? "interleave on the stderr COMMAND's processes share"
                     : "Open MPI 4.1 and 5.0 (PMIx below 5.0.11) can interleave with another "
                       "rank's");
}

/* Open MPI's OFI MTL names the provider it chose at mtl_ofi_verbose 1
 * (mtl_ofi_component.c, select_ofi_provider: "mtl:ofi:prov: tcp;ofi_rxm",
 * once a rank), which ompi.c reads; the job's own value is kept. */
static void ofi_mtl_verbose(struct plan *p)
{
    const struct plan_item *mtl = plan_find(p, ITEM_MCA, "mtl");
    if (p->mpi.value != MPI_OPENMPI || !mtl || !mtl->value || strcmp(mtl->value, "ofi") != 0 ||
        plan_find(p, ITEM_MCA, "mtl_ofi_verbose"))
        return;
    plan_add_item(p, ITEM_MCA, SOURCE_EVIDENCE, "mtl_ofi_verbose", "1", xstrdup("evidence"),
                  xstrdup("Open MPI's OFI MTL then names the libfabric provider it chose, "
                          "which rdmarun reads from the launcher's output"));
}

void plan_evidence(struct plan *p, const char *dir, const struct job_args *job,
                   const char *rq_impi_debug)
{
    p->evidence_files = output_to_files(job);
    /* the ranks' stdout a pipe (srun, Flux, PALS): UCX reports on stderr */
    bool pipes = launcher_of(p->launcher.value)->pipes;
    char *ucx_file = xasprintf("%s/ucx.%%h.%%p.log", dir);
    char *nccl_file = xasprintf("%s/nccl.%%h.%%p.log", dir);
    if (p->evidence_files)
        sv_pushf(&p->notes, "the ranks' output goes to files (--output-filename): their transport "
                 "reports go to %s, which every node must be able to write (a shared file "
                 "system), and are read when the job ends", dir);
    for (size_t i = 0; i < sizeof(evidence_vars) / sizeof(*evidence_vars); i++) {
        const struct plan_item *have = plan_find(p, ITEM_ENV, evidence_vars[i].name);
        const char *value = evidence_vars[i].value;
        if (p->evidence_files && evidence_vars[i].file)
            value = i == 1 ? ucx_file : nccl_file;
        else if (pipes && i == 1)
            value = "stderr";
        if (have || !value) {
            kept_value(p, i, have, value, pipes);
            continue;
        }
        plan_add_item(p, ITEM_ENV, SOURCE_EVIDENCE, evidence_vars[i].name, value,
                      xstrdup("evidence"),
                      p->evidence_files
                          ? xasprintf("rdmarun reads the ranks' transport reports from %s", dir)
                          : xasprintf("rdmarun reads the ranks' transport reports from the "
                                      "launcher's output as they come, and keeps them in %s",
                                      dir));
    }
    free(ucx_file);
    free(nccl_file);
    if (p->mpi.value == MPI_IMPI)
        impi_debug(p, job, rq_impi_debug);
    ofi_mtl_verbose(p);
}
