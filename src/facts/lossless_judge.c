/* Whether a job's RoCE traffic lands on a lossless priority: the priority
 * its traffic class (DSCP = tclass >> 2) or service level (the VLAN PCP)
 * maps to, and PFC and ECN there. Pure: the plan and the health check word
 * what it finds. */
#include "facts/lossless.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

bool roce_class_of(bool nccl, const char *tclass, const char *sl, struct roce_class *c)
{
    long tc = nccl ? 0 : 106, level = 0;
    c->tclass_from = nccl ? "NCCL's default" : "UCX's default";
    c->sl_from = nccl ? "NCCL's default" : "UCX's default";
    c->who = nccl ? "NCCL's" : "UCX's";
    bool good = true;
    if (tclass && !str_ieq(tclass, "auto")) {
        good &= parse_long(tclass, 0, 255, &tc);
        c->tclass_from = nccl ? "NCCL_IB_TC" : "UCX_IB_TRAFFIC_CLASS";
    }
    if (sl && !str_ieq(sl, "auto")) {
        good &= parse_long(sl, 0, 7, &level);
        c->sl_from = nccl ? "NCCL_IB_SL" : "UCX_IB_SL";
    }
    c->tclass = (int)tc;
    c->sl = (int)level;
    return good;
}

int lossless_priority(const struct rdma_device *d, const struct roce_class *c, const char **why)
{
    int prio = lossless_dscp_priority(d->dscp_prio, c->tclass >> 2);
    if (prio >= 0) {
        *why = "the DSCP-to-priority map (dcb app)";
        return prio;
    }
    if (prio == -2) {
        *why = "the service level, as the VLAN PCP: no DSCP is mapped (dcb app)";
        return c->sl;
    }
    *why = "unknown: DCB settings unreadable";
    return -1;
}

static void judge_ecn(const struct rdma_device *d, int prio, struct strvec *out,
                      struct strvec *unknown)
{
    if (d->ecn_np_prios < 0 && d->ecn_rp_prios < 0) {
        sv_pushf(unknown, "%s ECN (no ecn/roce_np, ecn/roce_rp in sysfs)", d->name);
        return;
    }
    const char *off = NULL;
    if (d->ecn_rp_prios >= 0 && !(d->ecn_rp_prios & 1 << prio))
        off = d->ecn_np_prios >= 0 && !(d->ecn_np_prios & 1 << prio)
            ? "as reaction and notification point" : "as reaction point (it ignores CNPs)";
    else if (d->ecn_np_prios >= 0 && !(d->ecn_np_prios & 1 << prio))
        off = "as notification point (it sends no CNPs)";
    if (off)
        sv_pushf(out, "%s: ECN (DCQCN) is off on priority %d %s: congestion is not slowed "
                 "down and ends in pauses or drops (hint: echo 1 > /sys/class/net/%s/ecn/"
                 "roce_rp/enable/%d and roce_np/enable/%d)", d->name, prio, off,
                 d->netdevs && d->netdevs[0] ? d->netdevs[0] : "NETDEV", prio, prio);
}

void lossless_judge(const struct rdma_device *d, const struct roce_class *c, struct strvec *out,
                    struct strvec *unknown)
{
    const char *nd = d->netdevs && d->netdevs[0] ? d->netdevs[0] : NULL;
    if (!nd) {
        sv_pushf(unknown, "%s lossless settings (no netdev)", d->name);
        return;
    }
    const char *why;
    int prio = lossless_priority(d, c, &why);
    if (prio < 0 || d->pfc_prios < 0) {
        sv_pushf(unknown, "%s PFC and priority ('dcb pfc show dev %s' fails: no DCB in "
                 "the driver, or not root)", d->name, nd);
        if (prio >= 0)
            judge_ecn(d, prio, out, unknown);
        return;
    }
    char *how = xasprintf("traffic class %d (%s) and service level %d (%s) map to priority "
                          "%d by %s", c->tclass, c->tclass_from, c->sl, c->sl_from, prio, why);
    if (!(d->pfc_prios & 1 << prio))
        sv_pushf(out, "%s: PFC is off on priority %d, which %s RoCE traffic takes (%s)%s: "
                 "congested switch ports drop its packets and RC retransmits (hint: 'dcb pfc "
                 "set dev %s prio-pfc %d:on' and the switch's PFC on that priority, or a "
                 "traffic class that maps to a PFC priority)", d->name, prio, c->who, how,
                 d->pfc_prios ? "" : "; PFC is on no priority", nd, prio);
    free(how);
    judge_ecn(d, prio, out, unknown);
}
