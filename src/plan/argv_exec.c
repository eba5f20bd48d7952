/* The plan as a command of its own (launcher = exec): COMMAND starts the
 * processes itself (torchrun, deepspeed, a UCX program, srun python ...),
 * and NCCL and UCX read their settings from the environment, so the plan is
 * `env VAR=VALUE... COMMAND ARGS`, still an argv array. Nothing of mpirun's
 * applies: MCA parameters reach only Open MPI's own processes, mpirun
 * options only mpirun. */
#include "plan/launchers.h"
#include "util/text.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* The job's mpirun-style options: what exec can take, into env. */
static void job_options(struct plan *p, const struct job_args *job, struct strvec *env)
{
    const struct strvec *a = &job->mpirun_args;
    for (size_t i = 0; i < a->n; i++) {
        const char *arg = a->v[i], *name = arg + strspn(arg, "-");
        const char *next = i + 1 < a->n ? a->v[i + 1] : NULL;
        bool counts = !strcmp(name, "np") || !strcmp(name, "n") || !strcmp(name, "c") ||
                      !strcmp(name, "N") || !strcmp(name, "npernode");
        if (counts && next) {
            i++;   /* the local workers, for the placement --report shows */
        } else if (!strcmp(name, "x") && next) {
            if (strchr(next, '='))
                sv_push(env, next);   /* -x VAR alone: COMMAND has VAR anyway */
            i++;
        } else if (!strcmp(name, "allow-run-as-root") || !strcmp(name, "oversubscribe")) {
            continue;   /* mpirun's own permissions: nothing to do */
        } else {
            plan_fail(p, RR_EX_USAGE,
                      xasprintf("--launcher exec: %s is an mpirun option, and COMMAND starts the "
                                "processes itself (hint: give it to COMMAND, after --; or "
                                "--launcher mpirun)", arg));
            return;
        }
    }
}

/* The items COMMAND cannot take (MCA parameters, mpirun options) leave the
 * plan, so that it shows what the job gets. (No note: every profile with an
 * [mpi] section would say it on every job.) */
static void drop_mpirun_items(struct plan *p)
{
    size_t kept = 0;
    for (size_t i = 0; i < p->n; i++) {
        struct plan_item *it = &p->items[i];
        if (it->kind == ITEM_ENV) {
            p->items[kept++] = *it;
            continue;
        }
        plan_item_free(it);
    }
    p->n = kept;
}

/* Every process below COMMAND writes to the same pipes (mpirun and srun
 * read each rank's own). A stdout that is a pipe is fully buffered: NCCL's
 * lines (one fwrite each, no fflush) and UCX's (stdout, plan_evidence) wait
 * there for 4 KiB or the process's end, too late for strict, and are split
 * at 4 KiB among other processes' output. Under coreutils' stdbuf -oL
 * (inherited through the environment) every process that writes with C
 * stdio writes its stdout a line at a time, each line one write(), which a
 * pipe keeps whole: what a terminal gives, and mpirun's ranks have (their
 * stdout is a pty). stderr is left as it is: the reports are not there. */
static void line_buffered(struct plan *p, bool stdbuf)
{
    if (!plan_verifies(p))
        return;   /* no evidence to read: COMMAND's output is left as it is */
    if (!stdbuf) {
        sv_pushf(&p->notes, "%s (coreutils) is missing: COMMAND's processes write their stdout "
                 "as a pipe makes them, in 4 KiB blocks, so their reports come late and may "
                 "interleave, and one may be lost from the verdict", PLAN_STDBUF_PATH);
        return;
    }
    sv_push(&p->argv, PLAN_STDBUF_PATH);
    sv_push(&p->argv, "-oL");
}

/* Whether COMMAND starts its workers through the helper (`... rdmarun rank`). */
static bool starts_helper(const struct strvec *program)
{
    for (size_t i = 0; i + 1 < program->n; i++) {
        const char *base = strrchr(program->v[i], '/');
        base = base ? base + 1 : program->v[i];
        if (strcmp(base, "rdmarun") == 0 && strcmp(program->v[i + 1], "rank") == 0)
            return true;
    }
    return false;
}

/* launcher = exec with a bind policy: COMMAND starts the workers, so the
 * plan cannot put the helper in front of each; a worker started as
 * `rdmarun rank -- PROGRAM` (torchrun --no_python rdmarun rank -- python
 * train.py) finds the plan's options in RDMARUN_RANK_OPTIONS and its local
 * rank in its launcher's variables (LOCAL_RANK, SLURM_LOCALID, ...). */
static void exec_helper_env(struct plan *p, const struct plan_request *rq)
{
    if (p->bind.value == BIND_NONE)
        return;
    struct strvec opts = {0};
    plan_helper_options(p, rq, &opts);
    for (size_t i = 0; i < opts.n; i++)
        if (opts.v[i][strcspn(opts.v[i], " \t\n")]) {
            plan_fail(p, RR_EX_USAGE, xasprintf("--launcher exec: the helper's option '%s' has "
                      "white space, which RDMARUN_RANK_OPTIONS cannot carry", opts.v[i]));
            sv_free(&opts);
            return;
        }
    char *words = sv_join(&opts, " ");
    plan_add_item(p, ITEM_ENV, SOURCE_PLAN, "RDMARUN_RANK_OPTIONS", words,
                  xstrdup(p->bind.origin),
                  xasprintf("bind policy %s: a worker started as 'rdmarun rank -- PROGRAM' is "
                            "placed with these, by its local rank (LOCAL_RANK, SLURM_LOCALID, "
                            "OMPI_COMM_WORLD_LOCAL_RANK)",
                            bind_policy_names[p->bind.value]));
    if (!starts_helper(&rq->job->program))
        sv_pushf(&p->notes, "bind policy %s: COMMAND's workers are placed only when each starts "
                 "through the helper, e.g. torchrun --no_python rdmarun rank -- python train.py",
                 bind_policy_names[p->bind.value]);
    free(words);
    sv_free(&opts);
}

void exec_argv(struct plan *p, const struct plan_request *rq)
{
    const struct job_args *job = rq->job;
    bool stdbuf = rq->stdbuf;
    exec_helper_env(p, rq);
    struct strvec env = {0};
    if (job->appfile)
        plan_fail(p, RR_EX_USAGE, xstrdup("--launcher exec: --app is an mpirun appfile "
                                          "(hint: --launcher mpirun)"));
    job_options(p, job, &env);
    drop_mpirun_items(p);
    sv_push(&p->argv, PLAN_ENV_PATH);
    for (size_t i = 0; i < p->n; i++)
        if (!p->items[i].overridden && p->items[i].value)
            sv_pushf(&p->argv, "%s=%s", p->items[i].name, p->items[i].value);
    sv_append(&p->argv, &env);
    line_buffered(p, stdbuf);
    /* COMMAND as given: a ':' in it is its own argument, not an app context. */
    sv_append(&p->argv, &job->program);
    for (size_t c = 0; c < job->ncontexts; c++) {
        sv_push(&p->argv, ":");
        sv_append(&p->argv, &job->contexts[c].args);
        sv_append(&p->argv, &job->contexts[c].program);
    }
    sv_free(&env);
}
