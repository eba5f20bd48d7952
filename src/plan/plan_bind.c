/* The [bind] keys in the plan (plan.c's plan_build): OpenMP threads, the
 * placement the per-rank helper gives each rank, and its command line. */
#include "plan/plan.h"
#include "plan/plan_parts.h"
#include "plan/launchers.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* [bind] policy other than none: `rdmarun rank` starts each rank and binds
 * it, so Open MPI must not bind it elsewhere first (--bind-to none), unless
 * the command line says --bind-to: then Open MPI binds and the helper only
 * chooses NICs and GPUs. The placement the helper would choose is computed
 * here too, for the ranks per node the command line gives. */
/* "auto" is -1, a count is itself, 0 (or unset) sets no OpenMP variable;
 * -2: neither. */
int threads_value(const char *v)
{
    long n;
    if (!v)
        return 0;
    if (strcmp(v, "auto") == 0)
        return -1;
    return parse_long(v, 0, MAX_LOCAL_RANKS * 64L, &n) ? (int)n : -2;
}

/* [bind] threads and smt, --threads winning over the profile. */
void plan_threads(struct plan *p, const struct profile *prof, const struct plan_request *rq)
{
    const struct entry *e = profile_get(prof, "bind", "threads");
    const char *v = rq->threads ? rq->threads : e ? e->value : NULL;
    int n = threads_value(v);
    if (n == -2) {
        plan_fail(p, RR_EX_USAGE,
                  xasprintf("--threads %s: expected a number of threads or auto", v));
        return;
    }
    const char *smt = profile_value(prof, "bind", "smt");
    bool on = false;
    p->smt = smt && parse_bool(smt, &on) && on;
    if (n == 0)
        return;
    p->threads = xstrdup(v);
    p->threads_origin = rq->threads ? xstrdup("--threads") : entry_origin(e);
    if (p->bind.value == BIND_NONE)
        sv_pushf(&p->notes, "threads = %s (%s) needs a bind policy (numa, nic-local, gpu-local): "
                 "with none, Open MPI binds and no OpenMP variable is set", v, p->threads_origin);
}

void plan_placement(struct plan *p, const struct plan_request *rq)
{
    const char *policy = bind_policy_names[p->bind.value];
    if (p->bind.value == BIND_NONE) {
        if (rq->report && sv_find(&rq->job->user_opts, "report-bindings") < 0 &&
            !plan_find(p, ITEM_OPTION, "--report-bindings"))
            plan_add_item(p, ITEM_OPTION, SOURCE_PLAN, "--report-bindings", "true",
                          xstrdup("--report"),
                          xstrdup("bind policy none: Open MPI binds the ranks and reports it"));
        return;
    }
    struct plan_item *bind_to = (struct plan_item *)plan_find(p, ITEM_OPTION, "--bind-to");
    if (sv_find(&rq->job->user_opts, "bind-to") >= 0) {
        sv_pushf(&p->notes, "--bind-to on the command line: Open MPI binds the ranks; "
                 "bind policy %s only chooses their NICs and GPUs", policy);
    } else if (bind_to) {
        sv_pushf(&p->notes, "bind policy %s (%s) places the ranks: --bind-to %s from %s is "
                 "replaced by none", policy, p->bind.origin, bind_to->value, bind_to->origin);
        free(bind_to->value);
        free(bind_to->origin);
        free(bind_to->reason);
        bind_to->value = xstrdup("none");
        bind_to->origin = xstrdup(p->bind.origin);
        bind_to->reason = xasprintf("rdmarun rank binds each rank (policy %s)", policy);
        bind_to->source = SOURCE_PLAN;
    } else {
        plan_add_item(p, ITEM_OPTION, SOURCE_PLAN, "--bind-to", "none", xstrdup(p->bind.origin),
                      xasprintf("rdmarun rank binds each rank (policy %s)", policy));
    }
    long ranks = rq->job->ppn > 0 ? rq->job->ppn : rq->job->np;
    if (ranks <= 0)
        return;
    struct placement_request prq = {
        .policy = (enum bind_policy)p->bind.value, .fabric = p->fabric,
        .memory = (enum memory_policy)p->memory.value, .nics = (enum nic_choice)p->nics.value,
        .set_ucx = plan_per_rank(p, "UCX_NET_DEVICES"), .set_nccl = plan_per_rank(p, "NCCL_IB_HCA"),
        .set_fabric = plan_fabric_nics(p), .nic_mapping = plan_cray_nic_mapping(p),
        .local_size = ranks > 1 << 20 ? 1 << 20 : (int)ranks,
        .threads = threads_value(p->threads), .smt = p->smt,
        /* exec's workers are torchrun's, DeepSpeed's or Accelerate's */
        .gpus_by_local_rank = launcher_of(p->launcher.value)->command_is_launcher,
    };
    p->placement = xcalloc(1, sizeof(*p->placement));
    placement_build(rq->facts, &prq, p->placement);
}
