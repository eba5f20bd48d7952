/* The plan as a PBS Pro / HPE Cray PALS command (launcher = pals): PALS's
 * own `mpiexec` (/opt/cray/pals/VERSION/bin/mpiexec), not Hydra's, with the
 * plan's variables as --env VAR=VALUE (PALS passes the rest of the
 * environment, --envall by default) and the job's Open MPI options in
 * PALS's words (HPE's mpiexec(1); ALCF's Polaris and Aurora guides), as
 * PALS refuses Hydra's and Open MPI's (--bind-to, --map-by, --npernode):
 *   -np N             -n N          -N P           --ppn P
 *   -H a,b            --hosts a,b   --hostfile F   --hostfile F
 *   -x VAR=VALUE      --env VAR=VALUE
 *   --bind-to KIND    --cpu-bind none|core|thread|socket|numa
 *   --wdir DIR        --wdir DIR
 * The helper learns its local rank from PALS_LOCAL_RANKID and the node's
 * rank count from PMI_LOCAL_SIZE. */
#include "plan/job_words.h"
#include "plan/launchers.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* Open MPI's --bind-to kind as --cpu-bind's, or NULL. */
static const char *cpu_bind(const char *ompi)
{
    static const struct { const char *ompi, *pals; } map[] = {
        {"none", "none"}, {"core", "core"}, {"hwthread", "thread"}, {"socket", "socket"},
        {"package", "socket"}, {"numa", "numa"},
    };
    size_t len = strcspn(ompi, ":");
    for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++)
        if (strlen(map[i].ompi) == len && strncmp(map[i].ompi, ompi, len) == 0)
            return map[i].pals;
    return NULL;
}

static void bind_option(struct plan *p, struct strvec *argv, const char *value)
{
    const char *kind = cpu_bind(value);
    if (kind) {
        sv_push(argv, "--cpu-bind");
        sv_push(argv, kind);
    } else {
        sv_pushf(&p->notes, "pals: --bind-to %s has no --cpu-bind equivalent: left out (PALS "
                 "binds by its default)", value);
    }
}

static void job_options(struct plan *p, const struct strvec *a, struct strvec *argv)
{
    for (size_t i = 0; i < a->n; i++) {
        struct job_word_at w = job_word_next(a, &i);
        switch (w.kind) {
        case JW_NP:
            sv_push(argv, "-n");
            sv_push(argv, w.value);
            break;
        case JW_PPN:
            sv_push(argv, "--ppn");
            sv_push(argv, w.value);
            break;
        case JW_HOSTS: {
            size_t n;
            char *hosts = job_hosts_bare(w.value, &n);
            sv_push(argv, "--hosts");
            sv_push(argv, hosts);
            free(hosts);
            break;
        }
        case JW_HOSTFILE:
            sv_push(argv, "--hostfile");
            sv_push(argv, w.value);
            break;
        case JW_ENV:
            if (strchr(w.value, '=')) {   /* -x VAR alone: PALS passes VAR anyway */
                sv_push(argv, "--env");
                sv_push(argv, w.value);
            }
            break;
        case JW_MCA:
            sv_push(argv, "--env");
            sv_pushf(argv, "OMPI_MCA_%s=%s", w.value, w.value2);
            break;
        case JW_BIND_TO:
            bind_option(p, argv, w.value);
            break;
        case JW_WDIR:
            sv_push(argv, "--wdir");
            sv_push(argv, w.value);
            break;
        case JW_QUIET:
            break;
        case JW_MAP_BY: case JW_RANK_BY: case JW_REPORT_BINDINGS:
            sv_pushf(&p->notes, "pals: %s%s%s has no PALS equivalent: left out (PALS places "
                     "ranks in blocks of --ppn; --cpu-bind verbose reports the bindings)",
                     w.word, w.value ? " " : "", w.value ? w.value : "");
            break;
        case JW_OTHER:
            job_word_other(p, "pals", "PALS", "-np, -N, -H, --hostfile, -x, --bind-to, --wdir; "
                           "or --launcher exec -- mpiexec ...", w.word, argv);
            break;
        }
    }
}

void pals_argv(struct plan *p, const struct plan_request *rq)
{
    const struct job_args *job = rq->job;
    if (job->ncontexts || job->appfile) {
        plan_fail(p, RR_EX_USAGE, xstrdup("--launcher pals: an MPMD job (':' or --app) is not "
                                          "planned for PALS (hint: --launcher exec -- mpiexec "
                                          "... : ...)"));
        return;
    }
    sv_push(&p->argv, rq->found[LAUNCHER_PALS] ? rq->found[LAUNCHER_PALS] : "mpiexec");
    job_options(p, &job->mpirun_args, &p->argv);
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        if (it->overridden || !it->value)
            continue;
        if (it->kind == ITEM_ENV) {
            sv_push(&p->argv, "--env");
            sv_pushf(&p->argv, "%s=%s", it->name, it->value);
        } else if (it->kind == ITEM_MCA) {
            sv_push(&p->argv, "--env");
            sv_pushf(&p->argv, "OMPI_MCA_%s=%s", it->name, it->value);
        } else if (strcmp(it->name, "--bind-to") == 0) {
            bind_option(p, &p->argv, it->value);
        }
    }
    plan_helper_argv(p, rq, &p->argv);
    sv_append(&p->argv, &job->program);
}
