/* A plan's items and its end (plan.h): added, found, failed, freed. The
 * files that build a plan (plan.c, plan_*.c, the launchers' argv_*.c,
 * strict.c) all use these, and none of them uses another through here. */
#include "plan/plan.h"
#include "plan/ports.h"
#include "plan/launchers.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

void plan_add_item(struct plan *p, enum item_kind kind, enum item_source source,
                   const char *name, const char *value, char *origin, char *reason)
{
    GROW(p->items, p->cap, p->n + 1);
    struct plan_item *it = &p->items[p->n++];
    it->kind = kind;
    it->source = source;
    it->name = xstrdup(name);
    it->value = value ? xstrdup(value) : NULL;
    it->origin = origin;   /* owned */
    it->reason = reason;   /* owned */
    it->overridden = false;
}

const struct plan_item *plan_find(const struct plan *p, enum item_kind kind, const char *name)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->items[i].kind == kind && strcmp(p->items[i].name, name) == 0)
            return &p->items[i];
    return NULL;
}

void plan_fail(struct plan *p, int status, char *msg)
{
    sv_push(&p->errors, msg);
    free(msg);
    if (!p->status)
        p->status = status;
}

/* Whether the per-rank helper sets this variable for each rank: an `auto`
 * value the command line does not override. */
bool plan_per_rank(const struct plan *p, const char *name)
{
    const struct plan_item *it = plan_find(p, ITEM_ENV, name);
    return it && !it->overridden && it->source == SOURCE_AUTO;
}

bool plan_fabric_nics(const struct plan *p)
{
    const struct fabric_row *row = fabric_row(p->fabric);
    return row && row->rank_var && !plan_find(p, ITEM_ENV, row->rank_var) &&
           p->bind.value != BIND_NONE;
}

bool plan_cray_nic_mapping(const struct plan *p)
{
    /* MPICH's (Cray MPICH's) jobs on Slingshot; a mapping or a policy of the
     * user's own (other than the slingshot profile's NUMA) is theirs */
    const struct plan_item *policy = plan_find(p, ITEM_ENV, "MPICH_OFI_NIC_POLICY");
    return p->fabric && strcmp(p->fabric, "cxi") == 0 && p->mpi.value == MPI_MPICH &&
           !plan_find(p, ITEM_ENV, "MPICH_OFI_NIC_MAPPING") &&
           (!policy || (policy->value && strcmp(policy->value, "NUMA") == 0));
}

const char *plan_fi_provider(const struct plan *p)
{
    /* The fabric's, not a FI_PROVIDER the job sets: an MPI that brings its
     * own libfabric (Intel MPI's mlx, a wheel's) has providers the node's
     * libfabric.so.1 may lack, and the test would fail a sound job. */
    const struct fabric_row *row = fabric_row(p->fabric);
    return row && row->layer == LAYER_OFI ? row->provider : NULL;
}

bool plan_verifies(const struct plan *p)
{
    return p->verify.value != VERIFY_OFF;
}

void job_contexts_free(struct job_args *job)
{
    for (size_t i = 0; i < job->ncontexts; i++) {
        sv_free(&job->contexts[i].args);
        sv_free(&job->contexts[i].program);
    }
    free(job->contexts);
    job->contexts = NULL;
    job->ncontexts = job->ncontexts_cap = 0;
}

void plan_item_free(struct plan_item *it)
{
    free(it->name);
    free(it->value);
    free(it->origin);
    free(it->reason);
}

void plan_free(struct plan *p)
{
    path_plan_free(&p->path);
    for (size_t i = 0; i < p->n; i++)
        plan_item_free(&p->items[i]);
    free(p->items);
    free(p->profile);
    free(p->chosen);
    free(p->fabric);
    free(p->mpi_library);
    free(p->ucx_version);
    setting_free(&p->verify);
    setting_free(&p->expect);
    setting_free(&p->launcher);
    setting_free(&p->mpi);
    setting_free(&p->bind);
    setting_free(&p->memory);
    setting_free(&p->nics);
    free(p->threads);
    free(p->threads_origin);
    free(p->evidence_dir);
    free(p->output_label);
    sv_free(&p->files);
    sv_free(&p->notes);
    sv_free(&p->details);
    sv_free(&p->errors);
    sv_free(&p->argv);
    free(p->exec_path);
    free(p->app_path);
    sv_free(&p->app_lines);
    if (p->placement)
        placement_free(p->placement);
    free(p->placement);
    memset(p, 0, sizeof(*p));
}
