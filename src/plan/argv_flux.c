/* The plan as a Flux command (launcher = flux): `flux run` with the plan's
 * variables as --env=VAR=VALUE (Flux copies the rest of the environment,
 * its default rule `*`; a value's '$' is doubled, as --env substitutes
 * $name), the job's Open MPI options in Flux's words (flux-core's
 * flux-run(1), flux-shell-options(7), job-constraints):
 *   -np N            -n N
 *   -N P             --tasks-per-node=P, with -N NODES (NODES = N/P): Flux
 *                    takes no -n beside a per-node count
 *   -H a,b           --requires=host:a,b (and -N 2)
 *   -x VAR=VALUE     --env=VAR=VALUE;  --mca NAME VALUE: --env=OMPI_MCA_NAME=VALUE
 *   --bind-to none   -o cpu-affinity=off; core, hwthread: -o cpu-affinity=per-task
 *   --map-by node    --taskmap=cyclic; core, slot: Flux's default (block)
 *   --wdir DIR       --setattr=system.cwd=DIR
 * Open MPI's ranks need Flux's PMIx plugin (flux-pmix: -o pmi=pmix); MPICH's
 * speak Flux's default PMI-1. The helper learns its local rank from
 * FLUX_TASK_LOCAL_ID; Flux sets no local size, so the plan passes it. */
#include "plan/job_words.h"
#include "plan/launchers.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

struct flux_opts {
    struct strvec args;       /* Flux's options, in order */
    const char *hosts;        /* -H's list */
    const char *affinity;     /* -o cpu-affinity value, or NULL: Flux's default */
};

/* --env=NAME=VALUE with VALUE's '$' doubled (Python's string.Template). */
static void env_rule(struct strvec *args, const char *name, size_t name_len, const char *value)
{
    size_t n = strlen(value), dollars = 0;
    for (size_t i = 0; i < n; i++)
        dollars += value[i] == '$';
    char *escaped = xmalloc(n + dollars + 1), *e = escaped;
    for (size_t i = 0; i < n; i++) {
        if (value[i] == '$')
            *e++ = '$';
        *e++ = value[i];
    }
    *e = '\0';
    sv_pushf(args, "--env=%.*s=%s", (int)name_len, name, escaped);
    free(escaped);
}

static void bind_to(struct plan *p, struct flux_opts *o, const char *value)
{
    size_t len = strcspn(value, ":");
    if (!strncmp(value, "none", len) && len == 4)
        o->affinity = "off";
    else if ((len == 4 && !strncmp(value, "core", 4)) ||
             (len == 8 && !strncmp(value, "hwthread", 8)))
        o->affinity = "per-task";
    else
        sv_pushf(&p->notes, "flux: --bind-to %s has no cpu-affinity equivalent: Flux binds each "
                 "task to the job's cores (its default)", value);
}

static void map_by(struct plan *p, struct flux_opts *o, const char *value)
{
    size_t len = strcspn(value, ":");
    if (len == 4 && !strncmp(value, "node", 4))
        sv_push(&o->args, "--taskmap=cyclic");
    else if (!(len == 4 && (!strncmp(value, "core", 4) || !strncmp(value, "slot", 4))))
        sv_pushf(&p->notes, "flux: --map-by %s has no Flux equivalent: Flux maps tasks in "
                 "blocks (its default)", value);
}

static void job_options(struct plan *p, struct flux_opts *o, const struct strvec *a)
{
    for (size_t i = 0; i < a->n; i++) {
        struct job_word_at w = job_word_next(a, &i);
        switch (w.kind) {
        case JW_NP: case JW_PPN:
            break;   /* counted by the parse: job->np, job->ppn */
        case JW_HOSTS:
            o->hosts = w.value;
            break;
        case JW_ENV:
            if (strchr(w.value, '='))   /* -x VAR alone: Flux copies VAR anyway */
                env_rule(&o->args, w.value, strcspn(w.value, "="),
                         w.value + strcspn(w.value, "=") + 1);
            break;
        case JW_MCA: {
            char *name = xasprintf("OMPI_MCA_%s", w.value);
            env_rule(&o->args, name, strlen(name), w.value2);
            free(name);
            break;
        }
        case JW_BIND_TO:
            bind_to(p, o, w.value);
            break;
        case JW_MAP_BY:
            map_by(p, o, w.value);
            break;
        case JW_WDIR:
            sv_pushf(&o->args, "--setattr=system.cwd=%s", w.value);
            break;
        case JW_QUIET:
            break;
        case JW_HOSTFILE: case JW_RANK_BY: case JW_REPORT_BINDINGS:
            sv_pushf(&p->notes, "flux: %s%s%s has no flux run equivalent: left out (Flux "
                     "chooses the nodes from its allocation; hint: -H to name them)", w.word,
                     w.value ? " " : "", w.value ? w.value : "");
            break;
        case JW_OTHER:
            job_word_other(p, "flux", "Flux", "-np, -N, -H, -x, --mca, --bind-to, --map-by; or "
                           "--launcher exec -- flux run ...", w.word, &o->args);
            break;
        }
    }
}

/* -n, or -N NODES --tasks-per-node=P, and the hosts. */
static void counts(struct plan *p, struct flux_opts *o, const struct plan_request *rq,
                   struct strvec *argv)
{
    long np = rq->job->np, ppn = rq->job->ppn, nodes = -1;
    if (o->hosts) {
        size_t n;
        char *list = job_hosts_bare(o->hosts, &n);
        sv_pushf(&o->args, "--requires=host:%s", list);
        nodes = (long)n;
        free(list);
    }
    if (ppn > 0) {
        if (np > 0 && np % ppn) {
            plan_fail(p, RR_EX_USAGE, xasprintf("--launcher flux: -np %ld is not a multiple of "
                      "-N %ld, and flux run places the same count of tasks on every node "
                      "(--tasks-per-node) (hint: -np %ld)", np, ppn, (np / ppn + 1) * ppn));
            return;
        }
        if (np > 0)
            nodes = np / ppn;
        if (nodes < 0) {
            plan_fail(p, RR_EX_USAGE, xstrdup("--launcher flux: -N (ranks per node) needs the "
                      "node count too: flux run's --tasks-per-node takes -N NODES (hint: "
                      "-np TOTAL, or -H HOSTS)"));
            return;
        }
        sv_pushf(argv, "--nodes=%ld", nodes);
        sv_pushf(argv, "--tasks-per-node=%ld", ppn);
    } else {
        if (np > 0)
            sv_pushf(argv, "--ntasks=%ld", np);
        if (nodes > 0)
            sv_pushf(argv, "--nodes=%ld", nodes);
    }
}

void flux_argv(struct plan *p, const struct plan_request *rq)
{
    const struct job_args *job = rq->job;
    if (job->ncontexts || job->appfile) {
        plan_fail(p, RR_EX_USAGE, xstrdup("--launcher flux: an MPMD job (':' or --app) cannot "
                                          "be planned for flux run (hint: --launcher mpirun)"));
        return;
    }
    struct flux_opts o;
    memset(&o, 0, sizeof(o));
    job_options(p, &o, &job->mpirun_args);
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        if (it->overridden || !it->value)
            continue;
        if (it->kind == ITEM_ENV) {
            env_rule(&o.args, it->name, strlen(it->name), it->value);
        } else if (it->kind == ITEM_MCA) {
            char *name = xasprintf("OMPI_MCA_%s", it->name);
            env_rule(&o.args, name, strlen(name), it->value);
            free(name);
        } else if (strcmp(it->name, "--bind-to") == 0) {
            bind_to(p, &o, it->value);
        } else if (strcmp(it->name, "--map-by") == 0) {
            map_by(p, &o, it->value);
        }
    }
    sv_push(&p->argv, rq->found[LAUNCHER_FLUX] ? rq->found[LAUNCHER_FLUX] : "flux");
    sv_push(&p->argv, "run");
    counts(p, &o, rq, &p->argv);
    if (p->mpi.value == MPI_OPENMPI) {
        sv_push(&p->argv, "-o");
        sv_push(&p->argv, "pmi=pmix");
    }
    if (o.affinity) {
        sv_push(&p->argv, "-o");
        sv_pushf(&p->argv, "cpu-affinity=%s", o.affinity);
    }
    long local = job->ppn > 0 ? job->ppn : job->np;
    if (p->bind.value != BIND_NONE) {
        if (job->ppn <= 0 && (o.hosts || rq->alloc_nodes > 1))
            plan_fail(p, RR_EX_USAGE, xasprintf("--launcher flux with bind policy %s: each "
                      "rank's placement needs the ranks per node, which Flux does not tell a "
                      "task (hint: -N RANKS_PER_NODE)", bind_policy_names[p->bind.value]));
        else if (local > 0)
            sv_pushf(&o.args, "--env=RDMARUN_LOCAL_SIZE=%ld", local);
    }
    sv_append(&p->argv, &o.args);
    plan_helper_argv(p, rq, &p->argv);
    sv_append(&p->argv, &job->program);
    sv_free(&o.args);
}
