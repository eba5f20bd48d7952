/* The plan as Open MPI's mpirun command (launcher = mpirun): the plan's
 * variables as -x, its MCA parameters as --mca, its options, in every app
 * context; the job's own options unchanged. */
#include "plan/launchers.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

enum { ALL_ITEMS, ONLY_ENV, NOT_ENV };

/* The plan's variables, MCA parameters and options, as mpirun takes them:
 * in every app context, since -x reaches only its own context's ranks.
 * ONLY_ENV: the variables alone (an appfile line: Open MPI 4.1 ignores
 * --mca there, so MCA parameters and options go before --app: NOT_ENV). */
static void items_argv(const struct plan *p, struct strvec *argv, int only)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        if (it->overridden || !it->value || (only == ONLY_ENV && it->kind != ITEM_ENV) ||
            (only == NOT_ENV && it->kind == ITEM_ENV))
            continue;
        bool on = false;
        switch (it->kind) {
        case ITEM_MCA:
            sv_push(argv, "--mca");
            sv_push(argv, it->name);
            sv_push(argv, it->value);
            break;
        case ITEM_ENV:
            sv_push(argv, "-x");
            sv_pushf(argv, "%s=%s", it->name, it->value);
            break;
        case ITEM_OPTION:
            if (strcmp(it->name, "--report-bindings") == 0) {
                if (parse_bool(it->value, &on) && on)
                    sv_push(argv, it->name);
            } else {
                sv_push(argv, it->name);
                sv_push(argv, it->value);
            }
            break;
        }
    }
}

/* One app context: its options, the plan's, the helper, its program. */
static void context_argv(struct plan *p, const struct plan_request *rq,
                         const struct app_context *c, int only, struct strvec *argv)
{
    sv_append(argv, &c->args);
    items_argv(p, argv, only);
    plan_helper_argv(p, rq, argv);
    sv_append(argv, &c->program);
}

/* --app FILE: Open MPI 4.1 ignores -x given before --app, so each of the
 * file's lines gets the plan's settings and the helper, written to
 * p->app_path for mpirun to read (an appfile line is split at white space:
 * a word holding any cannot be written). */
static void appfile_lines(struct plan *p, const struct plan_request *rq)
{
    for (size_t i = 0; i < rq->job->ncontexts; i++) {
        struct strvec words = {0};
        context_argv(p, rq, &rq->job->contexts[i], ONLY_ENV, &words);
        for (size_t k = 0; k < words.n; k++)
            if (strpbrk(words.v[k], " \t\n")) {
                plan_fail(p, RR_EX_USAGE, xasprintf("cannot write '%s' into an appfile line (Open "
                                               "MPI splits them at white space)", words.v[k]));
                break;
            }
        char *line = sv_join(&words, " ");
        sv_push(&p->app_lines, line);
        free(line);
        sv_free(&words);
    }
}

static void mpirun_command(struct plan *p, const char *mpirun, const struct plan_request *rq)
{
    const struct job_args *job = rq->job;
    sv_push(&p->argv, mpirun);
    for (size_t i = 0; i < job->mpirun_args.n; i++) {
        const char *a = job->mpirun_args.v[i];
        if (job->appfile && (strcmp(a, "--app") == 0 || strcmp(a, "-app") == 0) &&
            i + 1 < job->mpirun_args.n) {
            i++;   /* replaced by the completed appfile, last */
            continue;
        }
        sv_push(&p->argv, a);
    }
    if (job->appfile) {
        items_argv(p, &p->argv, NOT_ENV);
        appfile_lines(p, rq);
        p->app_path = xstrdup(rq->app_path ? rq->app_path : "app");
        sv_push(&p->argv, "--app");
        sv_push(&p->argv, p->app_path);
        return;
    }
    /* The first context's options are mpirun's own, pushed above. */
    struct app_context first = {.program = job->program};
    context_argv(p, rq, &first, ALL_ITEMS, &p->argv);
    for (size_t i = 0; i < job->ncontexts; i++) {
        sv_push(&p->argv, ":");
        context_argv(p, rq, &job->contexts[i], ALL_ITEMS, &p->argv);
    }
}

void mpirun_argv(struct plan *p, const struct plan_request *rq)
{
    /* As PATH names it: Open MPI takes an absolute argv[0] for --prefix
     * (/bin/mpirun gives the prefix "/" and fails). */
    const char *found = rq->found[LAUNCHER_MPIRUN];
    mpirun_command(p, found && !rq->mpirun_on_path ? found : "mpirun", rq);
    if (found && rq->mpirun_on_path)
        p->exec_path = xstrdup(found);
}
