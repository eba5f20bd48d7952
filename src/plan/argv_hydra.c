/* The plan as MPICH's Hydra mpiexec command (launcher = hydra): output
 * labelled by rank (-prepend-pattern, label_output), the plan's
 * variables as -genv NAME VALUE (Hydra passes the rest of the environment
 * by default, -genvall), the helper and the program. A job script's Open
 * MPI options are translated to Hydra's: -np/-n/-c to -n, -N/--npernode to
 * -ppn, -H/--host to -hosts, --hostfile/--machinefile to -f, --bind-to and
 * --map-by to -bind-to and -map-by, -x VAR=VALUE to -genv; options that
 * only Open MPI's mpirun has are noted and left out; any other option is
 * Hydra's own and passes unchanged (Hydra's utils.c, MPICH 4.0-4.2). */
#include "plan/launchers.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* Open MPI's option (without dashes) and Hydra's, taking the same word. */
static const struct { const char *ompi, *hydra; } renamed[] = {
    {"np", "-n"}, {"n", "-n"}, {"c", "-n"}, {"N", "-ppn"}, {"npernode", "-ppn"},
    {"H", "-hosts"}, {"host", "-hosts"}, {"hostfile", "-f"}, {"machinefile", "-f"},
    {"bind-to", "-bind-to"}, {"map-by", "-map-by"}, {"wdir", "-wdir"}, {"wd", "-wdir"},
};

/* Open MPI's permissions and output options that Hydra has no need or no
 * word for: left out, quietly for the first two (Hydra runs as root and
 * places more ranks than cores as asked). */
static const char *const quiet[] = {"allow-run-as-root", "oversubscribe"};

/* Open MPI's --bind-to and --map-by kinds in Hydra's words (Hydra's
 * `mpiexec -bind-to -h`: none, machine, numa, socket, core, hwthread, the
 * l1-l4 caches); NULL for one Hydra has not (slot, node, ppr:N:node). */
static char *hydra_kind(const char *ompi)
{
    static const char *const same[] = {"none", "machine", "numa", "socket", "core", "hwthread"};
    size_t len = strcspn(ompi, ":");   /* ":overload-allowed" and other qualifiers */
    char *kind = xstrndup(ompi, len);
    if (strcmp(kind, "package") == 0) {
        free(kind);
        return xstrdup("socket");
    }
    for (size_t i = 0; i < sizeof(same) / sizeof(*same); i++)
        if (strcmp(kind, same[i]) == 0)
            return kind;
    if (kind[0] == 'l' && kind[1] >= '1' && kind[1] <= '4' && strcmp(kind + 2, "cache") == 0)
        return kind;
    free(kind);
    return NULL;
}

/* -x NAME=VALUE as Hydra's -genv (every rank) or, in an MPMD job, -env
 * (that part's ranks, as -x reaches only its own app context's). */
static void env_pair(struct strvec *argv, const char *assignment, bool local)
{
    const char *eq = strchr(assignment, '=');
    sv_push(argv, local ? "-env" : "-genv");
    char *name = xstrndup(assignment, (size_t)(eq - assignment));
    sv_push(argv, name);
    sv_push(argv, eq + 1);
    free(name);
}

/* Hydra's options that send the ranks' output elsewhere or label it
 * themselves: with one of them rdmarun adds no label of its own. */
static const char *const own_output[] = {"prepend-pattern", "outfile-pattern",
                                         "errfile-pattern"};

static bool is_prepend_rank(const char *name)
{
    return !strcmp(name, "l") || !strcmp(name, "prepend-rank");
}

/* MPICH's ranks write their stdout unbuffered (PMI_Init), which glibc 2.37+
 * does in 128-byte pieces, and mpiexec forwards each piece as it comes, so
 * the ranks' lines interleave mid-line: with -prepend-pattern every piece is
 * labelled with its rank, and the supervisor joins them (evidence/demux.c).
 * The job's -l is then the supervisor's to give back. */
static void label_output(struct plan *p, const struct plan_request *rq, struct strvec *argv)
{
    const struct strvec *given = &rq->job->mpirun_args;
    if (!plan_verifies(p))
        return;   /* no evidence to read: the output is left as it is */
    for (size_t i = 0; i < given->n; i++) {
        const char *name = given->v[i] + strspn(given->v[i], "-");
        for (size_t k = 0; given->v[i][0] == '-' && k < sizeof(own_output) / sizeof(*own_output);
             k++)
            if (!strcmp(name, own_output[k])) {
                sv_pushf(&p->notes, "hydra: with %s the ranks' output is not labelled by "
                         "rdmarun: a rank's report that MPICH writes in pieces may be cut by "
                         "another's and lost from the verdict", given->v[i]);
                return;
            }
        if (given->v[i][0] == '-' && is_prepend_rank(name))
            p->output_rank_prefix = true;
    }
    p->output_label = xasprintf("[rdmarun:%s ", rq->output_word ? rq->output_word : "0");
    sv_push(argv, "-prepend-pattern");
    sv_pushf(argv, "%s%%r]", p->output_label);
}

/* The job's options (Open MPI's or Hydra's), onto argv; LOCAL: those of a
 * part of an MPMD job. */
static void user_args(struct plan *p, const struct strvec *given, struct strvec *argv,
                      bool local)
{
    for (size_t i = 0; i < given->n; i++) {
        const char *arg = given->v[i], *name = arg + strspn(arg, "-");
        const char *next = i + 1 < given->n ? given->v[i + 1] : NULL;
        bool done = false;
        if (p->output_label && arg[0] == '-' && is_prepend_rank(name))
            continue;   /* the supervisor gives each line its "[RANK] " */
        for (size_t k = 0; !done && next && k < sizeof(renamed) / sizeof(*renamed); k++) {
            if (strcmp(name, renamed[k].ompi) != 0)
                continue;
            done = true;
            i++;
            bool placing = !strcmp(renamed[k].hydra, "-bind-to") ||
                           !strcmp(renamed[k].hydra, "-map-by");
            if (placing && p->mpi.value == MPI_IMPI) {
                sv_pushf(&p->notes, "hydra: %s %s: Intel MPI's mpiexec.hydra takes no -bind-to "
                         "or -map-by (it pins by I_MPI_PIN_*): left out (hint: --bind-policy, "
                         "or [impi] PIN_DOMAIN)", arg, next);
                continue;
            }
            char *kind = placing ? hydra_kind(next) : xstrdup(next);
            if (kind) {
                sv_push(argv, renamed[k].hydra);
                sv_push(argv, kind);
            } else {
                sv_pushf(&p->notes, "hydra: %s %s has no Hydra equivalent: left out (Hydra "
                         "places ranks by its default)", arg, next);
            }
            free(kind);
        }
        if (done)
            continue;
        if (!strcmp(name, "x") && next) {
            i++;
            if (strchr(next, '='))
                env_pair(argv, next, local);   /* -x VAR alone: Hydra passes VAR anyway */
        } else if ((!strcmp(name, "mca") || !strcmp(name, "gmca")) && i + 2 < given->n) {
            sv_pushf(&p->notes, "hydra: %s %s %s is an Open MPI MCA parameter: MPICH has none, "
                     "left out", arg, given->v[i + 1], given->v[i + 2]);
            i += 2;
        } else if (!strcmp(name, quiet[0]) || !strcmp(name, quiet[1])) {
            continue;
        } else if (!strcmp(name, "report-bindings") || !strcmp(name, "tag-output")) {
            sv_pushf(&p->notes, "hydra: %s is Open MPI's: left out (Hydra's -prepend-rank "
                     "prefixes each line with its rank)", arg);
        } else {
            sv_push(argv, arg);   /* Hydra's own option, or a value of one */
        }
    }
}

/* The plan's own options (placement: --bind-to none while the helper binds). */
static void plan_option(struct plan *p, const struct plan_item *it, struct strvec *argv)
{
    /* Intel's mpiexec.hydra refuses them with a warning in the job's
     * output; its ranks pin themselves (I_MPI_PIN) inside the CPUs the
     * helper bound them to, and say so in I_MPI_DEBUG's pinning table. */
    if ((strcmp(it->name, "--bind-to") == 0 || strcmp(it->name, "--map-by") == 0) &&
        p->mpi.value == MPI_IMPI)
        return;
    if (strcmp(it->name, "--bind-to") == 0 || strcmp(it->name, "--map-by") == 0) {
        char *kind = hydra_kind(it->value);
        if (kind) {
            sv_push(argv, it->name + 1);   /* -bind-to */
            sv_push(argv, kind);
            free(kind);
            return;
        }
    }
    bool on = false;
    if (strcmp(it->name, "--report-bindings") == 0 && (!parse_bool(it->value, &on) || !on))
        return;
    sv_pushf(&p->notes, "hydra: %s %s (%s) is an option of Open MPI's mpirun: left out",
             it->name, it->value, it->origin);
}

void hydra_argv(struct plan *p, const struct plan_request *rq)
{
    const struct job_args *job = rq->job;
    if (job->appfile)
        plan_fail(p, RR_EX_USAGE, xstrdup("hydra: --app is Open MPI's appfile (hint: give the "
                                          "parts on the command line, separated by ':')"));
    sv_push(&p->argv, rq->found[LAUNCHER_HYDRA] ? rq->found[LAUNCHER_HYDRA] : "mpiexec");
    label_output(p, rq, &p->argv);
    user_args(p, &job->mpirun_args, &p->argv, job->ncontexts > 0);
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        if (it->overridden || !it->value)
            continue;
        if (it->kind == ITEM_ENV) {
            sv_push(&p->argv, "-genv");
            sv_push(&p->argv, it->name);
            sv_push(&p->argv, it->value);
        } else if (it->kind == ITEM_OPTION) {
            plan_option(p, it, &p->argv);
        }
    }
    plan_helper_argv(p, rq, &p->argv);
    sv_append(&p->argv, &job->program);
    /* MPMD: "-n 1 a : -n 2 b"; the plan's -genv before the first part
     * reach every part's ranks. */
    for (size_t c = 0; c < job->ncontexts; c++) {
        sv_push(&p->argv, ":");
        user_args(p, &job->contexts[c].args, &p->argv, true);
        plan_helper_argv(p, rq, &p->argv);
        sv_append(&p->argv, &job->contexts[c].program);
    }
}
