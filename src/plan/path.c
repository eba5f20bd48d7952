#include "plan/path.h"
#include "profile/settings.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mpirun options that say how many processes go where, or where their
 * output goes: the path test has its own (one per node, output to us). */
static const char *const not_for_path[] = {
    "np", "n", "c", "N", "npernode", "npersocket", "map-by", "bind-to", "rank-by",
    "report-bindings", "ppr", "output-filename", "output", "app", "x", "cpus-per-proc",
    "cpus-per-rank", "cpu-list", "cpu-set", "rankfile", "rf", "preload-files", "xterm",
    "debugger", "stdin", "merge-stderr-to-stdout", NULL};

static bool dropped(const char *opt)
{
    const char *name = opt + (opt[1] == '-' ? 2 : 1);
    for (size_t i = 0; not_for_path[i]; i++)
        if (strcmp(name, not_for_path[i]) == 0)
            return true;
    return false;
}

void path_plan_build(const struct path_request *rq, struct path_plan *p)
{
    memset(p, 0, sizeof(*p));
    if (rq->hosts)   /* each once already (job_hosts) */
        sv_append(&p->hosts, rq->hosts);
    p->nodes = p->hosts.n ? (long)p->hosts.n : rq->alloc_nodes;
    p->timeout_s = rq->timeout_s > 0 ? rq->timeout_s
                 : atof(schema_value(NULL, "check", "path-timeout"));   /* its default */
    p->all_pairs = rq->all_pairs;
    if (p->all_pairs && p->nodes > PATH_ALL_PAIRS_MAX) {
        p->all_pairs = false;
        sv_pushf(&p->notes, "path test: a ring, not all pairs: %ld nodes make %ld pairs (all "
                 "pairs up to %d nodes)", p->nodes, p->nodes * (p->nodes - 1), PATH_ALL_PAIRS_MAX);
    }
    p->srun = rq->srun;
    if (rq->srun) {
        sv_push(&p->argv, rq->launcher ? rq->launcher : "srun");
        sv_push(&p->argv, "--ntasks-per-node=1");
        sv_push(&p->argv, "--mpi=pmix");
        sv_push(&p->argv, "--kill-on-bad-exit=0");
    } else {
        sv_push(&p->argv, rq->launcher ? rq->launcher : "mpirun");
        const struct strvec *a = rq->mpirun_args;
        for (size_t i = 0; a && i < a->n; i++) {
            bool drop = dropped(a->v[i]);
            if (!drop)
                sv_push(&p->argv, a->v[i]);
            /* an option's arguments are the words up to the next option */
            for (; i + 1 < a->n && a->v[i + 1][0] != '-'; i++)
                if (!drop)
                    sv_push(&p->argv, a->v[i + 1]);
        }
        sv_push(&p->argv, "--map-by");
        sv_push(&p->argv, "ppr:1:node");
        sv_push(&p->argv, "--bind-to");
        sv_push(&p->argv, "none");
    }
    sv_push(&p->argv, rq->self ? rq->self : "rdmarun");
    sv_push(&p->argv, "path-peer");
    if (rq->device) {
        sv_push(&p->argv, "--device");
        sv_push(&p->argv, rq->device);
    }
    if (rq->gid_index >= 0)
        sv_pushf(&p->argv, "--gid-index=%d", rq->gid_index);
    if (rq->provider)
        sv_pushf(&p->argv, "--provider=%s", rq->provider);
    if (p->all_pairs)
        sv_push(&p->argv, "--all-pairs");
    sv_pushf(&p->argv, "--step-timeout=%g", rq->step_s > 0 ? rq->step_s : PATH_STEP_S);
}

/* mpirun's options that name the nodes, each with its value. */
static bool host_option(const char *w)
{
    static const char *const names[] = {"-H", "--host", "-host", "--hostfile", "-hostfile",
                                        "--machinefile", "-machinefile", "--default-hostfile",
                                        "--add-host", "--add-hostfile", NULL};
    for (size_t i = 0; names[i]; i++)
        if (strcmp(w, names[i]) == 0)
            return true;
    return false;
}

void path_plan_pair(const struct path_plan *pp, const char *a, const char *b,
                    struct path_plan *out)
{
    memset(out, 0, sizeof(*out));
    out->srun = pp->srun;
    out->nodes = 2;
    out->timeout_s = pp->timeout_s;
    sv_push(&out->hosts, a);
    sv_push(&out->hosts, b);
    for (size_t i = 0; i < pp->argv.n; i++) {
        const char *w = pp->argv.v[i];
        if (host_option(w) || (out->srun && (strncmp(w, "--nodelist", 10) == 0 ||
                                             strncmp(w, "--nodes", 7) == 0 ||
                                             strcmp(w, "-w") == 0 || strcmp(w, "-N") == 0))) {
            if (!strchr(w, '='))
                i++;   /* its value */
            continue;
        }
        if (strcmp(w, "--all-pairs") == 0)
            continue;   /* two nodes: the ring is both directions */
        sv_push(&out->argv, w);
        if (i == 0 && out->srun) {
            sv_push(&out->argv, "--nodes=2");
            sv_pushf(&out->argv, "--nodelist=%s,%s", a, b);
        } else if (i == 0) {
            sv_push(&out->argv, "-H");
            sv_pushf(&out->argv, "%s,%s", a, b);
        }
    }
}

void path_plan_free(struct path_plan *p)
{
    sv_free(&p->argv);
    sv_free(&p->hosts);
    sv_free(&p->notes);
    memset(p, 0, sizeof(*p));
}
