/* What verify = strict sets so that a library errors where it would
 * silently take a lower path (issue 46): a table of the libraries' own
 * fail-closed switches, each with the node fact that makes it safe. A
 * switch the profile or the command line already gives is theirs. */
#include "plan/launchers.h"
#include "plan/plan.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <stdlib.h>

static const struct strict_switch {
    const char *name, *value;
    bool (*applies)(const struct facts *f);   /* the node fact */
    const char *why;
} strict_switches[] = {
    /* NCCL's transports within a node (graph/paths.cc ncclTopoCheckP2p,
     * ncclTopoCheckNet; transport/shm.cc): with NVLink between every pair
     * of GPUs, P2P always has a path, and SHM or NET between them is only
     * a silent drop from NVLink (NVIDIA/nccl#602) */
    {"NCCL_SHM_DISABLE", "1", facts_nvlink_all_pairs,
     "NVLink joins every pair of this node's GPUs: a broken NVLink path then errors instead of "
     "moving NCCL's traffic to shared memory"},
    {"NCCL_NET_DISABLE_INTRA", "1", facts_nvlink_all_pairs,
     "NVLink joins every pair of this node's GPUs: a broken NVLink path then errors instead of "
     "moving NCCL's traffic within the node through the NIC"},
};

void plan_strict_switches(struct plan *p, const struct facts *f)
{
    if (p->verify.value != VERIFY_STRICT)
        return;
    for (size_t i = 0; i < sizeof(strict_switches) / sizeof(*strict_switches); i++) {
        const struct strict_switch *s = &strict_switches[i];
        if (!s->applies(f))
            continue;
        const struct plan_item *have = plan_find(p, ITEM_ENV, s->name);
        if (have)
            sv_pushf(&p->notes, "%s=%s from %s is kept (verify = strict would set %s: %s)",
                     s->name, have->value ? have->value : "", have->origin, s->value, s->why);
        else
            plan_add_item(p, ITEM_ENV, SOURCE_PLAN, s->name, s->value,
                          xstrdup("verify strict"), xstrdup(s->why));
    }
}
