/* The plan as a command of its own (launcher = exec): COMMAND starts the
 * processes itself (torchrun, deepspeed, a UCX program, srun python ...),
 * and NCCL and UCX read their settings from the environment, so the plan is
 * `env VAR=VALUE... COMMAND ARGS`, still an argv array. Nothing of mpirun's
 * applies: MCA parameters reach only Open MPI's own processes, mpirun
 * options only mpirun. */
#include "plan/argv_exec.h"
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

void exec_argv(struct plan *p, const struct job_args *job, bool stdbuf)
{
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
