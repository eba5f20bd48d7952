/* Settings known to be obsolete or harmful on a fabric, as rows: the
 * variable, the value that harms (NULL: any) or a test of it, why, and the
 * source that says so. The job's value is the plan's (profile, -x, the
 * environment rdmarun took in) or else the environment the job inherits.
 * Under verify = strict a harmful setting stops the job (status 78); else
 * it is a warning and the job runs. */
#include "plan/plan.h"
#include "plan/ports.h"
#include "util/msg.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* The job's value of NAME, or NULL. */
static const char *job_value(const struct plan *p, const char *name)
{
    const struct plan_item *it = plan_find(p, ITEM_ENV, name);
    return it ? it->value : getenv(name);
}

static bool any_efa0(const struct facts *f)
{
    for (size_t i = 0; i < f->ndevs; i++)
        if (f->devs[i].pci_id && strcmp(f->devs[i].pci_id, "1d0f:efa0") == 0)
            return true;
    return false;
}

static bool device_rdma_on_efa0(const struct plan *p, const struct facts *f, const char *v)
{
    (void)p;
    return strcmp(v, "1") == 0 && any_efa0(f);
}

static bool with_nccl_net(const struct plan *p, const struct facts *f, const char *v)
{
    (void)f;
    (void)v;
    return job_value(p, "NCCL_NET") != NULL;
}

static bool tx_size_over(const struct plan *p, const struct facts *f, const char *v)
{
    (void)p;
    (void)f;
    return strspn(v, "0123456789") == strlen(v) && (strlen(v) > 5 || atol(v) > 16384);
}

static const struct harmful {
    const char *fabric;     /* whose jobs it harms; NULL: any fabric's */
    const char *name;
    const char *value;      /* the harmful value (case ignored); NULL: any, or `test` */
    bool (*test)(const struct plan *p, const struct facts *f, const char *value);
    const char *why;
} harmful[] = {
    {"efa", "RDMAV_FORK_SAFE", NULL, NULL,
     "rdma-core's fork switch: libfabric then turns fork support on and huge pages off "
     "(prov/efa/src/efa_fork_support.c); aws-ofi-nccl's doc/efa-env-var.md: do not use it, "
     "FI_EFA_FORK_SAFE is set where needed"},
    {"efa", "IBV_FORK_SAFE", NULL, NULL,
     "rdma-core's fork switch, as RDMAV_FORK_SAFE (aws-ofi-nccl's doc/efa-env-var.md)"},
    {"efa", "FI_EFA_USE_DEVICE_RDMA", NULL, device_rdma_on_efa0,
     "this node's first-generation EFA (1d0f:efa0) has no RDMA read: libfabric aborts the "
     "job (fi_efa(7))"},
    {"efa", "NCCL_PROTO", "simple", NULL,
     "a recipe of aws-ofi-nccl 1.5 and older: it stops LL and LL128 and turns the AWS tuner "
     "off (doc/efa-env-var.md; src/tuner/nccl_ofi_tuner.cpp)"},
    {NULL, "NCCL_NET_PLUGIN", NULL, with_nccl_net,
     "with NCCL_NET: NCCL opens NCCL_NET_PLUGIN's library first, and a wrong name falls back "
     "to IB or Socket, then aborts 'network ... not found' (src/plugin/net.cc); set NCCL_NET "
     "alone"},
    {"cxi", "FI_CXI_DEFAULT_TX_SIZE", NULL, tx_size_over,
     "above 16384 the cxi provider silently resets it to 1024 (prov/cxi/src/cxip_info.c)"},
    {"cxi", "FI_MR_CACHE_MONITOR", "memhooks", NULL,
     "memhooks can hang NCCL on Slingshot (olcf-user-docs#947; HPE's NCCL note: userfaultfd)"},
    {"opa", "HFI_UNIT", NULL, NULL,
     "read by libpsm2 only: the opx provider ignores it (FI_OPX_HFI_SELECT selects the HFI, "
     "fi_opx(7))"},
    {"opa", "PSM2_MULTIRAIL", NULL, NULL,
     "read by libpsm2 only: the opx provider ignores it (FI_OPX_MULTI_HFI_STRIPING, fi_opx(7))"},
    {"opa", "FI_OPX_EXPECTED_RECEIVE_ENABLE", NULL, NULL,
     "deprecated: FI_OPX_TID_DISABLE replaces it (fi_opx(7))"},
    {"opa", "FI_OPX_DELIVERY_COMPLETION_THRESHOLD", NULL, NULL,
     "deprecated: FI_OPX_SDMA_BOUNCE_BUF_THRESHOLD replaces it (fi_opx(7))"},
};

static bool harms(const struct harmful *h, const struct plan *p, const struct facts *f,
                  const char **value)
{
    if (h->fabric && (!p->fabric || strcmp(h->fabric, p->fabric) != 0))
        return false;
    *value = job_value(p, h->name);
    if (!*value)
        return false;
    if (h->value)
        return str_ieq(*value, h->value);
    return !h->test || h->test(p, f, *value);
}

void plan_harmful_settings(struct plan *p, const struct facts *f)
{
    for (size_t i = 0; i < sizeof(harmful) / sizeof(*harmful); i++) {
        const char *value = NULL;
        if (!harms(&harmful[i], p, f, &value))
            continue;
        const char *on = harmful[i].fabric ? fabric_label(harmful[i].fabric) : "any fabric";
        /* the environment's value is not checked as a profile's is */
        if (!is_printable(value) || strlen(value) > 64)
            value = "(a value not shown: control characters or too long)";
        if (p->verify.value == VERIFY_STRICT)
            plan_fail(p, RR_EX_CONFIG,
                      xasprintf("%s=%s is harmful on %s: %s (verify = strict: the job does not "
                                "start; unset it, or --verify warn)", harmful[i].name, value,
                                on, harmful[i].why));
        else
            sv_pushf(&p->notes, "warning: %s=%s is harmful on %s: %s", harmful[i].name, value,
                     on, harmful[i].why);
    }
}
