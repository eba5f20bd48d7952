/* The per-rank helper's command line in a launcher's command (launchers.h):
 * `rdmarun rank OPTIONS --` in front of each rank, with what the plan
 * decided for it (rank_args.c's table). */
#include "plan/plan.h"
#include "plan/launchers.h"
#include "plan/rank_args.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The helper's options: what the plan decided for each rank. */
void plan_helper_options(const struct plan *p, const struct plan_request *rq,
                         struct strvec *argv)
{
    struct rank_args a = {
        .bind_policy = (char *)bind_policy_names[p->bind.value],
        .memory = (char *)memory_policy_names[p->memory.value],
        .nics = (char *)nic_choice_names[p->nics.value],
        .fabric = fabric_has_ports(p->fabric) ? p->fabric : NULL,
        .net_devices = plan_per_rank(p, "UCX_NET_DEVICES"), .nccl_hca = plan_per_rank(p, "NCCL_IB_HCA"),
        .fabric_nics = plan_fabric_nics(p), .nic_mapping = plan_cray_nic_mapping(p),
        .keep_cpus = sv_find(&rq->job->user_opts, "bind-to") >= 0, .report = rq->report,
        .sysfs = (char *)rq->sysfs, .record = p->evidence_dir != NULL,
        .threads = p->threads, .smt = p->smt,
    };
    rank_args_write(&a, argv);
}

/* `rdmarun rank OPTIONS --` before the program: the helper in front of
 * each rank, told what the plan decided. */
void plan_helper_argv(struct plan *p, const struct plan_request *rq, struct strvec *argv)
{
    if (p->bind.value == BIND_NONE)
        return;
    sv_push(argv, rq->self ? rq->self : "rdmarun");
    sv_push(argv, "rank");
    plan_helper_options(p, rq, argv);
    sv_push(argv, "--");
}
