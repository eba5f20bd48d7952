/* The profile's [check] keys held to the node before launch, and the path
 * test between the job's nodes (plan.c's plan_build). */
#include "plan/plan.h"
#include "plan/plan_parts.h"
#include "facts/check_keys.h"
#include "plan/launchers.h"
#include "profile/schema.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of the plan's environment variable `name`, or NULL. */
static const char *plan_value(const struct plan *p, const char *name)
{
    const struct plan_item *it = plan_find(p, ITEM_ENV, name);
    return it ? it->value : NULL;
}

/* The PUs all local ranks are bound to, or NULL when they are not placed. */
static char *ranks_pus(const struct plan *p)
{
    if (!p->placement)
        return NULL;
    struct strvec all = {0};
    for (int r = 0; r < p->placement->local_size; r++)
        if (p->placement->ranks[r].pus)
            sv_push(&all, p->placement->ranks[r].pus);
    char *joined = all.n ? sv_join(&all, ",") : NULL;
    char *out = joined ? cpus_common(joined, NULL) : NULL;
    free(joined);
    sv_free(&all);
    return out;
}

/* The node around the job's ports: lossless RoCE for the classes UCX's
 * and NCCL's traffic carry, and the NICs' interrupts against the ranks'
 * cores, warned always; with their [check] key (lossless, irq-affinity,
 * governor, max-idle-latency, gpudirect) a problem is held to the policy
 * like the keys above. What cannot be read is the health check's to say. */
static void plan_node_checks(struct plan *p, const struct profile *prof, const struct facts *f,
                             const struct port_ref *refs, size_t n)
{
    char *cpus = ranks_pus(p);
    static const char *const keys[] = {"lossless", "irq-affinity", "governor",
                                       "max-idle-latency", "gpudirect"};
    for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
        const char *v = profile_value(prof, "check", keys[k]);
        bool on = false, set = v && (!parse_bool(v, &on) || on);
        struct strvec found = {0}, unknown = {0};
        if (k == 0) {
            for (int nccl = 0; nccl < 2; nccl++) {
                const char *tc = plan_value(p, nccl ? "NCCL_IB_TC" : "UCX_IB_TRAFFIC_CLASS");
                const char *sl = plan_value(p, nccl ? "NCCL_IB_SL" : "UCX_IB_SL");
                struct roce_class c;
                if ((!nccl || plan_value(p, "NCCL_IB_HCA")) && roce_class_of(nccl, tc, sl, &c))
                    judge_lossless(refs, n, &c, &found, &unknown);
            }
        } else if (k == 1) {
            judge_irqs(refs, n, cpus, &found, &unknown);
        } else if (k == 2 && set) {
            judge_governor(v, &f->cpu, cpus, &found, &unknown);
        } else if (k == 3 && set) {
            judge_idle(v, &f->cpu, cpus, &found, &unknown);
        } else if (k == 4 && set) {
            judge_gpudirect(f, &found, &unknown);
        }
        for (size_t i = 0; i < found.n; i++) {
            if (set && p->verify.value == VERIFY_STRICT)
                plan_fail(p, RR_EX_UNAVAILABLE,
                     xasprintf("[check] %s: %s (verify = strict: the job does not start; "
                               "--verify warn runs it anyway)", keys[k], found.v[i]));
            else
                sv_pushf(&p->notes, "warning: %s%s%s%s", set ? "[check] " : "",
                         set ? keys[k] : "", set ? ": " : "", found.v[i]);
        }
        sv_free(&found);
        sv_free(&unknown);
    }
    free(cpus);
}

/* The [check] keys a plan does not apply are named, never skipped in
 * silence: the health check's own keys always; the job's keys (checks of
 * the ports and the node's limits, the QP and path tests) when the job has
 * no RDMA ports to hold them to or does not verify (`why`, else NULL). A
 * key that asks for nothing (qp-test = no, port-state = any) is not named. */
static void note_unapplied_checks(struct plan *p, const struct profile *prof, const char *why)
{
    static const char *const health_only[] = {"devices", "modules", "counters", "counter-limits",
                                              "baseline", "timeout", "check-timeout", "flaps",
                                              "flap-count", "flap-window", "drop-after",
                                              "state", "manifest", "loopback",
                                              "min-loopback-gbps", "min-loopback-percent",
                                              "loopback-seconds", NULL};
    struct strvec job = {0}, health = {0};
    for (size_t i = 0; i < prof->n; i++) {
        const struct entry *e = &prof->e[i];
        bool on = true;
        if (strcmp(e->section, "check") != 0 || e->kind == ORIGIN_DEFAULT ||
            (parse_bool(e->value, &on) && !on) || strcmp(e->value, "any") == 0)
            continue;
        bool h = false;
        for (size_t k = 0; health_only[k]; k++)
            h |= strcmp(e->key, health_only[k]) == 0;
        char *o = entry_origin(e);
        if (h)
            sv_pushf(&health, "%s (%s)", e->key, o);
        else if (why)
            sv_pushf(&job, "%s = %s (%s)", e->key, e->value, o);
        free(o);
    }
    if (job.n) {
        char *list = sv_join(&job, ", ");
        sv_pushf(&p->notes, "[check] %s: not checked before this job: %s ('rdmarun check "
                 "--config FILE' judges the node)", list, why);
        free(list);
    }
    if (health.n) {
        char *list = sv_join(&health, ", ");
        sv_pushf(&p->notes, "[check] %s: the health check's keys (rdmarun check "
                 "--config FILE), not checked before a job", list);
        free(list);
    }
    sv_free(&job);
    sv_free(&health);
}

/* The profile's [check] keys, before launch, on the job's ports (those of
 * UCX_NET_DEVICES on this node, else the fabric's ACTIVE ones) and this
 * node's limits: under strict a problem keeps the job from starting
 * (status 69), under warn it is said and the job runs. A limit that cannot
 * be read is the health check's concern, not a reason to stop a job. */
void plan_checks(struct plan *p, const struct profile *prof, const struct facts *f,
                 const struct port_ref *fabric_ports, size_t nfabric)
{
    const char *qp = profile_value(prof, "check", "qp-test");
    bool on = true;
    /* the verbs RC loopback proves a UCX fabric's ports; EFA has no RC, and
     * Slingshot and opx are no verbs at all */
    bool test = !qp || !parse_bool(qp, &on) || on;
    p->qp_test = test && fabric_is_rdma(p->fabric);
    p->fi_pair_test = test && plan_verifies(p) && plan_fi_provider(p) != NULL;
    char *why = !plan_verifies(p) ? xstrdup("verify = off")
              : !fabric_has_ports(p->fabric)
                  ? xasprintf("the job has no RDMA ports (fabric %s)", p->fabric)
                  : NULL;
    note_unapplied_checks(p, prof, why);
    bool skip = why != NULL;
    free(why);
    if (skip)
        return;
    struct port_ref refs[MAX_PORTS];
    size_t n = 0;
    for (size_t i = 0; i < p->nports; i++)
        if (p->ports[i].dev)
            refs[n++] = (struct port_ref){p->ports[i].dev, p->ports[i].port};
    for (size_t i = 0; n == 0 && i < nfabric && i < MAX_PORTS; i++)
        refs[i] = fabric_ports[i];
    if (n == 0)
        n = nfabric < MAX_PORTS ? nfabric : MAX_PORTS;
    static const char *const keys[] = {"port-state", "min-rate", "mtu", "pcie-at-capability",
                                       "memlock", "hugepages"};
    for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
        const char *v = profile_value(prof, "check", keys[k]);
        struct strvec found = {0};
        if (k == 0 && (!v || strcmp(v, "any") != 0))
            for (size_t i = 0; i < n; i++)
                judge_port_state(&refs[i], &found);
        else if (k == 1 && v)
            judge_rate(v, refs, n, &found, NULL);
        else if (k == 2 && v)
            judge_mtu(v, refs, n, &found);
        else if (k == 3 && v && parse_bool(v, &on) && on)
            judge_pcie(refs, n, &found);
        else if (k == 4 && v && f->limits.memlock_soft != -2)
            judge_memlock(v, &f->limits, &found);
        else if (k == 5 && v && f->limits.hugepages_free >= 0)
            judge_hugepages(v, &f->limits, &found);
        for (size_t i = 0; i < found.n; i++) {
            if (p->verify.value == VERIFY_STRICT)
                plan_fail(p, RR_EX_UNAVAILABLE,
                     xasprintf("[check] %s: %s (verify = strict: the job does not start; "
                               "--verify warn runs it anyway)", keys[k], found.v[i]));
            else
                sv_pushf(&p->notes, "warning: [check] %s: %s (verify = warn: the job runs)",
                         keys[k], found.v[i]);
        }
        sv_free(&found);
    }
    plan_node_checks(p, prof, f, refs, n);
}

/* A multi-node RDMA job that verifies gets the path test first, unless
 * [check] path-test = no: on its own launcher, with its host options, on the
 * device and GID index the profile names (else each node's own). */
/* Distinct hosts the job names (-H a,a,b is two: job_hosts lists each
 * once), else the allocation's nodes, else unknown. */
long plan_job_nodes(const struct plan_request *rq)
{
    if (rq->hosts && rq->hosts->n)
        return (long)rq->hosts->n;
    return rq->alloc_nodes > 0 ? rq->alloc_nodes : -1;
}

void plan_path(struct plan *p, const struct profile *prof, const struct plan_request *rq)
{
    const char *v = profile_value(prof, "check", "path-test");
    bool on = true;
    /* verbs RC for an RDMA expectation; the fabric's provider for EFA,
     * Slingshot and Omni-Path (their expectations) */
    int e = p->expect.value;
    const char *provider = e == EXPECT_EFA || e == EXPECT_CXI || e == EXPECT_OPX
                           ? plan_fi_provider(p) : NULL;
    if (!plan_verifies(p) || (p->expect.value != EXPECT_RDMA && !provider) ||
        (v && parse_bool(v, &on) && !on))
        return;
    const struct launcher_desc *l = launcher_of(p->launcher.value);
    if (l->path_test < 0) {
        /* exec: one rdmarun per node (srun rdmarun --launcher exec), and a
         * path test from each would test every path N times; Flux and PALS:
         * the path test starts its peers with mpirun or srun. */
        if (rq->alloc_nodes > 1 || (rq->hosts && rq->hosts->n > 1))
            sv_pushf(&p->notes, "launcher %s: no path test between the nodes before the job "
                     "(hint: 'rdmarun check --path-test' in the job script, before it)",
                     l->word);
        return;
    }
    const struct plan_item *dev = plan_find(p, ITEM_ENV, "UCX_NET_DEVICES");
    const char *pairs = schema_value(prof, "check", "path-pairs");
    struct path_request pr = {
        .srun = l->path_test == LAUNCHER_SRUN, .launcher = rq->found[l->path_test],
        .mpirun_args = &rq->job->mpirun_args, .hosts = rq->hosts,
        .alloc_nodes = rq->alloc_nodes, .self = rq->self,
        .device = dev && dev->source != SOURCE_AUTO && dev->value && !strchr(dev->value, ',')
                  ? dev->value : NULL,
        .gid_index = p->nports ? p->ports[0].gid_index : -1,
        .all_pairs = pairs && strcmp(pairs, "all") == 0, .provider = provider,
        .timeout_s = atof(schema_value(prof, "check", "path-timeout")),
    };
    const struct plan_item *gid = plan_find(p, ITEM_ENV, "UCX_IB_GID_INDEX");
    if (!gid || gid->source == SOURCE_AUTO || provider)
        pr.gid_index = -1;   /* each node's own routable GID */
    if (provider)
        pr.device = NULL;    /* the provider's own NIC */
    path_plan_build(&pr, &p->path);
    if (p->path.nodes > 1) {
        p->path_test = true;
        sv_append(&p->notes, &p->path.notes);
    } else {
        path_plan_free(&p->path);
    }
}
