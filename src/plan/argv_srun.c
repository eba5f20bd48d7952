/* The plan as an srun command (launcher = srun): the profile's variables and
 * MCA parameters go into srun's environment (srun passes it to every task,
 * --export=ALL; values may hold commas, which --export=VAR=VALUE cannot
 * carry), so the command is `env VAR=VALUE... srun ...`, still an argv array.
 * Open MPI's options are translated: -np to -n, -N to --ntasks-per-node,
 * --bind-to to --cpu-bind, --map-by to --distribution; Open MPI under srun
 * needs PMIx (--mpi=pmix), MPICH's PMI client Slurm's pmi2 plugin (which
 * also speaks PMI-1: --mpi=pmi2). Other options are srun's own and pass
 * unchanged. */
#include "plan/job_words.h"
#include "plan/launchers.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <string.h>

struct srun_opts {
    struct strvec env, args;
    const char *cpu_bind;   /* srun's name, or NULL */
    bool verbose, mpi_given;
};

static void bind_to(struct plan *p, struct srun_opts *o, const char *value)
{
    static const struct { const char *ompi, *srun; } map[] = {
        {"none", "none"}, {"hwthread", "threads"}, {"core", "cores"}, {"socket", "sockets"},
        {"package", "sockets"}, {"numa", "ldoms"}, {"board", "boards"},
    };
    size_t len = strcspn(value, ":");
    for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++)
        if (strlen(map[i].ompi) == len && strncmp(map[i].ompi, value, len) == 0) {
            o->cpu_bind = map[i].srun;
            return;
        }
    sv_pushf(&p->notes, "srun: --bind-to %s has no --cpu-bind equivalent; srun binds by its "
             "default", value);
}

static void map_by(struct plan *p, struct srun_opts *o, const char *value)
{
    static const struct { const char *ompi, *dist; } map[] = {
        {"core", "block:block"}, {"slot", "block:block"}, {"hwthread", "block:block"},
        {"socket", "block:cyclic"}, {"package", "block:cyclic"}, {"numa", "block:cyclic"},
        {"l3cache", "block:cyclic"}, {"node", "cyclic"},
    };
    size_t len = strcspn(value, ":");
    for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++)
        if (strlen(map[i].ompi) == len && strncmp(map[i].ompi, value, len) == 0) {
            sv_pushf(&o->args, "--distribution=%s", map[i].dist);
            return;
        }
    sv_pushf(&p->notes, "srun: --map-by %s has no --distribution equivalent; srun maps by its "
             "default", value);
}

static void option(struct plan *p, struct srun_opts *o, const char *name, const char *value)
{
    bool on = false;
    if (strcmp(name, "bind-to") == 0)
        bind_to(p, o, value);
    else if (strcmp(name, "map-by") == 0)
        map_by(p, o, value);
    else if (strcmp(name, "report-bindings") == 0)
        o->verbose = !value || (parse_bool(value, &on) && on);
    else if (strcmp(name, "rank-by") == 0)
        sv_pushf(&p->notes, "srun: --rank-by %s has no srun equivalent; ignored", value);
}

/* The user's mpirun-style options, translated (plan/job_words.c). */
static void user_args(struct plan *p, struct srun_opts *o, const struct strvec *a)
{
    for (size_t i = 0; i < a->n; i++) {
        struct job_word_at w = job_word_next(a, &i);
        switch (w.kind) {
        case JW_NP:
            sv_push(&o->args, "-n");
            sv_push(&o->args, w.value);
            break;
        case JW_PPN:
            sv_pushf(&o->args, "--ntasks-per-node=%s", w.value);
            break;
        case JW_ENV:
            if (strchr(w.value, '='))
                sv_push(&o->env, w.value);   /* -x VAR alone: srun passes VAR anyway */
            break;
        case JW_MCA:
            sv_pushf(&o->env, "OMPI_MCA_%s=%s", w.value, w.value2);
            break;
        case JW_QUIET:
            break;   /* mpirun's own; nothing to do for srun */
        case JW_BIND_TO: case JW_MAP_BY: case JW_RANK_BY: case JW_REPORT_BINDINGS:
            option(p, o, w.word + strspn(w.word, "-"), w.value);
            break;
        case JW_HOSTS: case JW_HOSTFILE: case JW_WDIR:
            /* srun's own spellings, when the parse took them as srun's */
            sv_push(&o->args, w.word);
            sv_push(&o->args, w.value);
            break;
        case JW_OTHER:
            o->mpi_given |= starts_with(w.word, "--mpi=");
            sv_push(&o->args, w.word);   /* srun's own option, or a word */
            break;
        }
    }
}

static void srun_command(struct plan *p, const char *srun, const struct strvec *given)
{
    struct srun_opts o;
    memset(&o, 0, sizeof(o));
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        if (it->overridden || !it->value)
            continue;
        if (it->kind == ITEM_ENV)
            sv_pushf(&o.env, "%s=%s", it->name, it->value);
        else if (it->kind == ITEM_MCA)
            sv_pushf(&o.env, "OMPI_MCA_%s=%s", it->name, it->value);
        else
            option(p, &o, it->name + 2, it->value);
    }
    user_args(p, &o, given);
    sv_push(&p->argv, PLAN_ENV_PATH);
    sv_append(&p->argv, &o.env);
    sv_push(&p->argv, srun);
    sv_push(&p->argv, "--export=ALL");
    if (!o.mpi_given)
        sv_push(&p->argv, MPI_MPICH_ABI(p->mpi.value) ? "--mpi=pmi2" : "--mpi=pmix");
    if (o.cpu_bind || o.verbose)
        sv_pushf(&p->argv, "--cpu-bind=%s%s%s", o.verbose ? "verbose" : "",
                 o.verbose && o.cpu_bind ? "," : "", o.cpu_bind ? o.cpu_bind : "");
    sv_append(&p->argv, &o.args);
    sv_free(&o.env);
    sv_free(&o.args);
}

void srun_argv(struct plan *p, const struct plan_request *rq)
{
    if (rq->job->ncontexts || rq->job->appfile)
        plan_fail(p, RR_EX_USAGE, xstrdup("an MPMD job (':' or --app) cannot be planned for "
                                          "srun (hint: --launcher mpirun, or srun --multi-prog)"));
    srun_command(p, rq->found[LAUNCHER_SRUN] ? rq->found[LAUNCHER_SRUN] : "srun", &rq->job->mpirun_args);
    plan_helper_argv(p, rq, &p->argv);
    sv_append(&p->argv, &rq->job->program);
}
