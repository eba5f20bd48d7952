/* rdmarun check: the node health check (health/), with --qp-test the verbs
 * RC loopback on the node's ports, with --path-test RDMA between the nodes
 * the host options name (preflight/). */
#include "cmd/commands.h"
#include "cmd/job_hosts.h"
#include "facts/facts.h"
#include "health/health.h"
#include "launch/launch.h"
#include "plan/launchers.h"
#include "plan/path.h"
#include "profile/settings.h"
#include "preflight/path_test.h"
#include "preflight/preflight.h"
#include "preflight/fi_pair.h"
#include "slurm/drain.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int path_test(const struct cmdline *cl, long gid)
{
    if (cl->provider && (!cli_provider_ok("--provider", cl->provider) || cl->device ||
                         cl->gid_index)) {
        if (cl->device || cl->gid_index)
            rr_error("--device and --gid-index choose the verbs port; over libfabric "
                     "(--provider) the provider picks its own NIC (hint: FI_EFA_IFACE, "
                     "FI_CXI_DEVICE_NAME, FI_OPX_HFI_SELECT in the environment)");
        return RR_EX_USAGE;
    }
    double timeout = atof(schema_value(NULL, "check", "path-timeout"));
    if (cl->path_timeout && !parse_seconds(cl->path_timeout, 3600, &timeout)) {
        rr_error("--path-timeout %s: expected seconds, above 0 and at most 3600",
                 cl->path_timeout);
        return RR_EX_USAGE;
    }
    const struct launcher_desc *row =
        cl->launcher ? launcher_of(name_index(launcher_words(), cl->launcher)) : NULL;
    if (row && row->command_is_launcher) {
        rr_error("check --path-test --launcher %s: the path test starts one peer per node, "
                 "which only mpirun or srun can do (hint: --launcher mpirun or srun)", row->word);
        return RR_EX_USAGE;
    }
    struct strvec hosts = {0};
    int rc = job_hosts(&cl->job.mpirun_args, &hosts);
    if (rc)
        return rc;
    /* In a Slurm allocation with no host options, srun starts the peers. */
    bool srun = row ? row->path_test == LAUNCHER_SRUN
                    : hosts.n == 0 && cl->job.mpirun_args.n == 0 && getenv("SLURM_JOB_ID");
    bool on_path;
    char *launcher = launch_find(launcher_of(srun ? LAUNCHER_SRUN : LAUNCHER_MPIRUN), cl->mpirun,
                                 NULL, &on_path);
    char *self = realpath("/proc/self/exe", NULL);
    struct path_request rq = {
        .srun = srun, .launcher = launcher, .mpirun_args = &cl->job.mpirun_args, .hosts = &hosts,
        .alloc_nodes = slurm_alloc_nodes(), .self = self, .device = cl->device,
        .gid_index = (int)gid, .all_pairs = cl->all_pairs, .timeout_s = timeout,
        .provider = cl->provider,
    };
    struct path_plan pp;
    path_plan_build(&rq, &pp);
    struct strvec bad = {0};
    rc = path_test_run(&pp, false, cl->json, &bad);
    /* --drain: the nodes re-pairing found bad, each by name; never the good
     * side of a path, nor a node no re-pairing singled out. */
    for (size_t i = 0; cl->drain && i < bad.n; i++) {
        char *why = strchr(bad.v[i], '\t');
        *why++ = '\0';
        char *reason = xasprintf("RDMARUN-PATH: %s", why);
        slurm_drain(cl->scontrol, bad.v[i], reason);   /* (it says what went wrong) */
        free(reason);
    }
    sv_free(&bad);
    path_plan_free(&pp);
    free(launcher);
    free(self);
    sv_free(&hosts);
    return rc;
}

/* check --fi-pair PROVIDER: the libfabric pair test alone. */
static int fi_pair_check(const struct cmdline *cl)
{
    if (cl->qp_test || cl->path_test || cl->epilog) {
        rr_error("--fi-pair is a check of its own: run it alone");
        return RR_EX_USAGE;
    }
    if (!cli_provider_ok("--fi-pair", cl->fi_pair))
        return RR_EX_USAGE;
    char *message = NULL;
    int failed = fi_pair_test(cl->fi_pair, &message);
    if (failed)
        rr_error("libfabric pair test: %s", message);
    else
        printf("rdmarun: libfabric pair test %s\n", message);
    free(message);
    return failed ? RR_EX_UNAVAILABLE : 0;
}

int cmd_check(const struct cmdline *cl)
{
    if ((cl->job.mpirun_args.n || cl->launcher || cl->mpirun || cl->all_pairs || cl->provider ||
         cl->path_timeout || (cl->json && cl->qp_test)) && !cl->path_test) {
        rr_error("host, launcher and pair options are for 'rdmarun check --path-test' "
                 "(hint: rdmarun check --path-test -H node1,node2)");
        return RR_EX_USAGE;
    }
    if (cl->node && !slurm_node_name_ok(cl->node)) {
        rr_error("--node takes one node's name (letters, digits, '-', '_', '.'), not '%s': "
                 "Slurm reads a NodeName as a hostlist, so n[1-4], n1,n2 or ALL would drain "
                 "many nodes", cl->node);
        return RR_EX_USAGE;
    }
    if (cl->fi_pair)
        return fi_pair_check(cl);
    if (!cl->qp_test && !cl->path_test) {
        struct health_request rq = {cl->config, cl->sysfs, cl->drain, cl->json, cl->node,
                                    cl->scontrol, cl->prometheus, cl->manifest,
                                    cl->epilog};
        return health_main(&rq);
    }
    long gid = -1;
    if (!cli_gid_index(cl->gid_index, &gid))
        return RR_EX_USAGE;
    if (cl->epilog) {
        rr_error("--epilog is for the node health check, not for --qp-test or --path-test");
        return RR_EX_USAGE;
    }
    if (cl->path_test && cl->qp_test) {
        rr_error("--qp-test and --path-test are two checks: run one at a time");
        return RR_EX_USAGE;
    }
    if (cl->path_test)
        return path_test(cl, gid);
    struct facts f;
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false, false};
    int rc = facts_gather(&f, &src);
    if (!rc) {
        struct plan_port ports[MAX_PORTS];
        size_t n = preflight_ports(&f, cl->device, (int)gid, ports, MAX_PORTS);
        char *what = cl->device ? xasprintf("device or port %s on this node", cl->device)
                                : xstrdup("ACTIVE RDMA port");
        rc = preflight_qp_test(ports, n, what, false);
        free(what);
    }
    facts_free(&f);
    return rc;
}
