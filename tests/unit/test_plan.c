/* Unit tests of the plan stage on recorded nodes: plan_build's settings and
 * their precedence, item sources, structured ports, launchers, the per-rank
 * helper's argv (read back with its own option table), each rule's condition,
 * and placement_build. */
#include "facts/facts.h"
#include "plan/placement.h"
#include "plan/ports.h"
#include "plan/plan.h"
#include "plan/rank_args.h"
#include "plan/rules.h"
#include "profile/profile.h"
#include "tap.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static const char *src(void)
{
    const char *s = getenv("RDMARUN_SRCDIR");
    return s && *s ? s : ".";
}

/* A recorded node: a sysfs tree with the two-NUMA topology the golden tests use. */
static int node(struct facts *f, const char *tree)
{
    char *sysfs = xasprintf("%s/tests/data/sysfs/%s", src(), tree);
    char *topo = xasprintf("%s/tests/data/topology/2pkg-2numa.xml", src());
    struct facts_sources s = {.sysfs_root = sysfs, .topology = topo};
    int rc = facts_gather(f, &s);
    free(sysfs);
    free(topo);
    return rc;
}

/* A shipped profile, with one --set SECTION.KEY=VALUE (or none). */
static int profile_set(struct profile *p, const char *name, const char *set)
{
    struct strvec dirs = {0}, sets = {0};
    sv_pushf(&dirs, "%s/profiles", src());
    if (set)
        sv_push(&sets, set);
    int rc = profile_load_for_job(name, &dirs, set ? &sets : NULL, p);
    sv_free(&dirs);
    sv_free(&sets);
    return rc;
}

static int profile(struct profile *p, const char *name)
{
    return profile_set(p, name, NULL);
}

/* One job: 2 ranks of ./app. */
struct job {
    struct job_args args;
    struct plan_request rq;
};

static void job_init(struct job *j, const struct profile *p, const struct facts *f)
{
    memset(j, 0, sizeof(*j));
    j->args.np = 2;
    j->args.ppn = -1;
    sv_push(&j->args.program, "./app");
    j->rq = (struct plan_request){.profile = p, .facts = f, .job = &j->args,
                                  .found = {[LAUNCHER_MPIRUN] = "/usr/bin/mpirun",
                                            [LAUNCHER_SRUN] = "/usr/bin/srun"},
                                  .evidence_dir = "/EV", .self = "/bin/rdmarun"};
}

static void job_free(struct job *j)
{
    sv_free(&j->args.program);
    sv_free(&j->args.user_opts);
    sv_free(&j->args.mpirun_args);
}

static bool argv_has(const struct plan *p, const char *word)
{
    return sv_find(&p->argv, word) >= 0;
}

/* Whether one of the notes says `what`. */
static bool notes_have(const struct strvec *notes, const char *what)
{
    for (size_t i = 0; i < notes->n; i++)
        if (strstr(notes->v[i], what))
            return true;
    return false;
}

static void test_settings(void)
{
    struct facts f;
    struct profile p;
    ok(node(&f, "rxe") == 0 && profile(&p, "roce") == 0, "rxe node and roce profile load");
    struct job j;
    job_init(&j, &p, &f);
    struct plan pl;
    plan_build(&j.rq, &pl);
    ok(pl.status == 0, "roce on rxe plans");
    ok(pl.verify.value == VERIFY_WARN, "verify defaults to warn");
    is_str(pl.verify.origin, "default", "its origin is the default");
    ok(pl.expect.value == EXPECT_RDMA, "an RDMA fabric expects rdma");
    is_str(pl.expect.origin, "fabric roce", "the expectation comes from the fabric");
    ok(pl.launcher.value == LAUNCHER_MPIRUN && pl.bind.value == BIND_NONE,
       "launcher mpirun and bind policy none by default");
    is_str(pl.evidence_dir, "/EV", "a verified job logs its evidence");
    ok(pl.mpi_library == NULL && pl.ucx_version && strcmp(pl.ucx_version, f.ucx_version) == 0,
       "the stack planned for: UCX from the facts, no MPI library asked for");
    plan_free(&pl);
    j.rq.mpi_library = "Open MPI 5.0.7";
    plan_build(&j.rq, &pl);
    is_str(pl.mpi_library, "Open MPI 5.0.7", "the MPI library the launcher found is in the plan");
    plan_free(&pl);
    j.rq.mpi_library = NULL;

    /* The nodes the job names, for the verdict: its distinct hosts (as
     * job_hosts lists -H c01:4,c01:2: once, without slots; test_cmd), else
     * the allocation's, else unknown (a default hostfile). */
    struct strvec hosts = {0};
    sv_push(&hosts, "c01");
    j.rq.hosts = &hosts;
    plan_build(&j.rq, &pl);
    ok(pl.job_nodes == 1, "-H c01:4,c01:2 is one node (%ld)", pl.job_nodes);
    plan_free(&pl);
    sv_push(&hosts, "c02");
    plan_build(&j.rq, &pl);
    ok(pl.job_nodes == 2, "and with c02, two (%ld)", pl.job_nodes);
    plan_free(&pl);
    j.rq.hosts = NULL;
    sv_free(&hosts);
    j.rq.alloc_nodes = 3;
    plan_build(&j.rq, &pl);
    ok(pl.job_nodes == 3, "no hosts named: the Slurm allocation's 3 nodes (%ld)", pl.job_nodes);
    plan_free(&pl);
    j.rq.alloc_nodes = -1;
    plan_build(&j.rq, &pl);
    ok(pl.job_nodes == -1, "neither: unknown, -1 (%ld)", pl.job_nodes);
    plan_free(&pl);
    j.rq.alloc_nodes = 0;

    /* The profile's value wins over the default, the option over both. */
    profile_put(&p, "profile", "verify", "strict", ORIGIN_SET, NULL, 0);
    plan_build(&j.rq, &pl);
    ok(pl.verify.value == VERIFY_STRICT, "the profile's verify = strict");
    is_str(pl.verify.origin, "--set", "its origin is the profile's value (--set)");
    plan_free(&pl);
    j.rq.verify = "off";
    j.rq.bind_policy = "numa";
    j.rq.launcher = "srun";
    plan_build(&j.rq, &pl);
    ok(pl.verify.value == VERIFY_OFF && !plan_verifies(&pl), "--verify off wins over the profile");
    is_str(pl.verify.origin, "--verify", "its origin is the option");
    ok(pl.evidence_dir == NULL, "verify off: no evidence directory");
    bool any_evidence = false;
    for (size_t i = 0; i < pl.n; i++)
        any_evidence |= pl.items[i].source == SOURCE_EVIDENCE;
    ok(!any_evidence, "verify off: no evidence variables");
    ok(pl.bind.value == BIND_NUMA, "--bind-policy numa");
    is_str(pl.bind.origin, "--bind-policy", "bind policy's origin is the option");
    ok(pl.launcher.value == LAUNCHER_SRUN && pl.argv.n > 0 &&
       strcmp(pl.argv.v[0], "/usr/bin/env") == 0 && argv_has(&pl, "/usr/bin/srun") &&
       argv_has(&pl, "--mpi=pmix"), "--launcher srun: env VARS srun --mpi=pmix");
    plan_free(&pl);
    job_free(&j);
    profile_free(&p);

    static const struct { const char *profile; enum expectation e; } fabrics[] = {
        {"tcp", EXPECT_TCP}, {"shm", EXPECT_LOCAL}, {"ib", EXPECT_RDMA},
    };
    for (size_t i = 0; i < sizeof(fabrics) / sizeof(*fabrics); i++) {
        ok(profile(&p, fabrics[i].profile) == 0, "profile %s loads", fabrics[i].profile);
        job_init(&j, &p, &f);
        plan_build(&j.rq, &pl);
        ok(pl.expect.value == (int)fabrics[i].e, "profile %s expects %s", fabrics[i].profile,
           expectation_names[fabrics[i].e]);
        plan_free(&pl);
        job_free(&j);
        profile_free(&p);
    }
    facts_free(&f);
}

static void test_items_and_ports(void)
{
    struct facts f;
    struct profile p;
    node(&f, "rxe");
    profile(&p, "roce");
    struct job j;
    job_init(&j, &p, &f);
    struct plan pl;
    plan_build(&j.rq, &pl);
    const struct plan_item *dev = plan_find(&pl, ITEM_ENV, "UCX_NET_DEVICES");
    const struct plan_item *gid = plan_find(&pl, ITEM_ENV, "UCX_IB_GID_INDEX");
    const struct plan_item *pml = plan_find(&pl, ITEM_MCA, "pml_ucx_devices");
    const struct plan_item *log = plan_find(&pl, ITEM_ENV, "UCX_LOG_FILE");
    ok(dev && dev->source == SOURCE_AUTO && strcmp(dev->origin, "auto") == 0,
       "UCX_NET_DEVICES = auto is resolved from the facts");
    is_str(dev ? dev->value : NULL, "rxe0:1", "to the ACTIVE RoCE port");
    ok(pml && pml->source == SOURCE_RULE, "pml_ucx_devices comes from a rule");
    ok(log && log->source == SOURCE_EVIDENCE, "UCX_LOG_FILE is evidence");
    ok(pl.nports == 1, "one port for preflight");
    is_str(pl.ports[0].name, "rxe0:1", "named as UCX_NET_DEVICES names it");
    ok(pl.ports[0].dev && strcmp(pl.ports[0].dev->name, "rxe0") == 0 && pl.ports[0].port &&
       pl.ports[0].port->num == 1, "pointing at the device and port in the facts");
    /* tests/data/sysfs/rxe, rxe0 port 1: gids/0 fe80:: (link-local),
     * gids/1 ::ffff:10.0.2.15 (IPv4), gids/2 fec0:: (site-local IPv6), all
     * "RoCE v2" in gid_attrs/types. The routable RoCE v2 GID bound to an
     * IPv4 address is index 1 (README's example plan says the same). */
    is_str(gid ? gid->value : NULL, "1", "UCX_IB_GID_INDEX is 1, rxe0:1's IPv4 RoCE v2 GID");
    ok(pl.ports[0].gid_index == 1, "the port for preflight has GID index 1 (got %d)",
       pl.ports[0].gid_index);
    plan_free(&pl);

    /* A device this node does not have stays, without a device, for preflight. */
    profile_put(&p, "ucx", "NET_DEVICES", "nosuch_0:1,rxe0", ORIGIN_SET, NULL, 0);
    profile_put(&p, "ucx", "IB_GID_INDEX", "3", ORIGIN_SET, NULL, 0);
    plan_build(&j.rq, &pl);
    ok(pl.nports == 2 && pl.ports[0].dev == NULL && strcmp(pl.ports[0].name, "nosuch_0:1") == 0,
       "an unknown device is kept by name, without a device");
    ok(pl.nports == 2 && pl.ports[1].dev && strcmp(pl.ports[1].name, "rxe0:1") == 0,
       "a device without a port names its ports");
    ok(pl.nports == 2 && pl.ports[1].gid_index == 3, "a GID index set by the profile is used");
    plan_free(&pl);
    job_free(&j);
    profile_free(&p);

    /* InfiniBand needs no GID index. */
    facts_free(&f);
    node(&f, "ib-mlx5");
    profile(&p, "ib");
    job_init(&j, &p, &f);
    plan_build(&j.rq, &pl);
    ok(pl.nports == 1 && pl.ports[0].gid_index == -1, "an InfiniBand port has no GID index");
    plan_free(&pl);
    job_free(&j);
    profile_free(&p);

    /* An RDMA profile on a node without its fabric cannot run. */
    facts_free(&f);
    node(&f, "none");
    profile(&p, "roce");
    job_init(&j, &p, &f);
    plan_build(&j.rq, &pl);
    ok(pl.status == RR_EX_UNAVAILABLE && pl.errors.n > 0, "roce on a node without RoCE: 69");
    plan_free(&pl);
    job_free(&j);
    profile_free(&p);
    facts_free(&f);
}

/* fabric = auto picks the candidate for the node's fabric. */
static void test_auto(void)
{
    struct facts f;
    struct profile p, ib;
    node(&f, "ib-mlx5");
    profile(&p, "auto");
    profile(&ib, "ib");
    const struct profile *cands[] = {&ib};
    struct job j;
    job_init(&j, &p, &f);
    j.rq.candidates = cands;
    j.rq.ncandidates = 1;
    struct plan pl;
    plan_build(&j.rq, &pl);
    is_str(pl.chosen, "ib", "auto on an InfiniBand node chooses ib");
    is_str(pl.fabric, "ib", "and its fabric");
    plan_free(&pl);
    j.rq.ncandidates = 0;
    plan_build(&j.rq, &pl);
    ok(pl.status == RR_EX_NOINPUT, "auto without the ib profile to choose: 66");
    plan_free(&pl);
    job_free(&j);
    profile_free(&ib);
    profile_free(&p);
    facts_free(&f);
}

/* The helper's command line, read back with the helper's own table. */
static void test_helper_argv(void)
{
    struct facts f;
    struct profile p;
    node(&f, "rxe");
    profile(&p, "roce");
    struct job j;
    job_init(&j, &p, &f);
    j.rq.bind_policy = "nic-local";
    j.rq.report = true;
    j.rq.sysfs = "/rec";
    struct plan pl;
    plan_build(&j.rq, &pl);
    int at = sv_find(&pl.argv, "rank"), end = sv_find(&pl.argv, "--");
    ok(at > 0 && strcmp(pl.argv.v[at - 1], "/bin/rdmarun") == 0 && end > at,
       "rdmarun rank OPTIONS -- comes before the program");
    struct rank_args a;
    memset(&a, 0, sizeof(a));
    int good = 1;
    for (int i = at + 1; i < end && good == 1; i++)
        good = opt_parse(rank_options, nrank_options, 1, &a, end, pl.argv.v, &i);
    ok(good == 1, "every word the plan wrote is one of the helper's options");
    is_str(a.bind_policy, "nic-local", "--bind-policy");
    is_str(a.memory, "prefer", "--memory (the default)");
    is_str(a.nics, "one", "--nics (the default)");
    is_str(a.fabric, "roce", "--fabric");
    is_str(a.sysfs, "/rec", "--sysfs");
    ok(a.net_devices && !a.nccl_hca && !a.keep_cpus && a.report && a.record,
       "flags: --net-devices, --report and --record, not --nccl-hca or --keep-cpus");
    const struct plan_item *bind = plan_find(&pl, ITEM_OPTION, "--bind-to");
    ok(bind && strcmp(bind->value, "none") == 0 && bind->source == SOURCE_PLAN,
       "Open MPI is told --bind-to none");
    ok(pl.placement && pl.placement->local_size == 2, "the placement for 2 local ranks");
    rank_args_free(&a);
    plan_free(&pl);

    /* --bind-to on the command line: the helper leaves cores alone. */
    sv_push(&j.args.user_opts, "bind-to");
    plan_build(&j.rq, &pl);
    ok(argv_has(&pl, "--keep-cpus"), "--bind-to given: the helper gets --keep-cpus");
    plan_free(&pl);
    job_free(&j);
    profile_free(&p);
    facts_free(&f);
}

/* Each rule's condition, on the facts it keys on. */
static void test_rules(void)
{
    struct facts rxe, mlx, roce_mlx;
    node(&rxe, "rxe");
    node(&mlx, "ib-mlx5");
    node(&roce_mlx, "roce-mlx5");
    struct port_ref rxe_ports[MAX_PORTS], mlx_ports[MAX_PORTS];
    size_t nrxe = ports_select(&rxe, "roce", rxe_ports, MAX_PORTS);
    size_t nmlx = ports_select(&mlx, "ib", mlx_ports, MAX_PORTS);
    ok(nrxe == 1 && nmlx == 2, "rxe: one ACTIVE RoCE port; ib-mlx5: two ACTIVE InfiniBand ports");
    const struct rule *by_id[8] = {0};
    const char *const ids[] = {"rdma-pml-ucx", "rdma-no-openib", "ompi-pml-ucx-any-device",
                               "ompi-pml-ucx-any-tls", "ucx-ud-eth-dgid-check",
                               "nccl-vm-topology-file"};
    for (size_t k = 0; k < 6; k++)
        for (size_t r = 0; r < nrules; r++)
            if (strcmp(rules[r].id, ids[k]) == 0)
                by_id[k] = &rules[r];
    ok(nrules == 6 && by_id[0] && by_id[1] && by_id[2] && by_id[3] && by_id[4] && by_id[5],
       "the rules table holds the six known rules");
    bool versions = true;
    for (size_t r = 0; r < nrules; r++)
        versions &= rules[r].applies_to && *rules[r].applies_to;
    ok(versions, "every rule says which versions it applies to");
    if (nrules != 6 || !by_id[4] || !by_id[5])
        goto out;
    /* the VM topology rule: its value is the node's file */
    struct facts vm = {.cloud = {.vm_family = "ND H100 v5", .topo_file = "/opt/microsoft/ndv5-topo.xml"}};
    struct rule_context vc = {.fabric = "ib", .facts = &vm};
    ok(rule_applies(by_id[5], &vc) && by_id[5]->value == NULL &&
       strcmp(by_id[5]->value_of(&vc), "/opt/microsoft/ndv5-topo.xml") == 0,
       "an Azure VM with its topology file: NCCL_TOPO_FILE is the file");
    vm.cloud.nccl_conf_topo = "/opt/microsoft/ndv5/topo.xml";
    ok(!rule_applies(by_id[5], &vc), "with nccl.conf naming one: NCCL's own, nothing set");
    vm.cloud.nccl_conf_topo = NULL;
    vm.cloud.topo_file = NULL;
    ok(!rule_applies(by_id[5], &vc), "without the file on the node: nothing to set");
    struct rule_context c = {.fabric = "roce", .ucx_version = "1.13.1", .facts = &rxe,
                             .ports = rxe_ports, .nports = nrxe, .pml = "ucx"};
    ok(rule_applies(by_id[0], &c) && rule_applies(by_id[1], &c),
       "RDMA fabric: pml ucx forced, openib excluded");
    c.fabric = "tcp";
    ok(!rule_applies(by_id[0], &c) && !rule_applies(by_id[1], &c), "tcp: neither");
    c.fabric = "roce";
    ok(rule_applies(by_id[2], &c) && rule_applies(by_id[3], &c),
       "pml ucx on rxe (no mlx* device): pml_ucx_devices and pml_ucx_tls any");
    c.pml = "ob1";
    ok(!rule_applies(by_id[2], &c), "pml ob1: not needed");
    struct rule_context m = {.fabric = "ib", .ucx_version = "1.13.1", .facts = &mlx,
                             .ports = mlx_ports, .nports = nmlx, .pml = "ucx"};
    ok(!rule_applies(by_id[2], &m) && !rule_applies(by_id[3], &m), "pml ucx on mlx5: not needed");
    c.pml = "ucx";
    ok(rule_applies(by_id[4], &c), "UCX 1.13 with UD on rxe RoCE: the DGID check is turned off");
    c.ucx_version = "1.19.0";
    ok(!rule_applies(by_id[4], &c), "UCX 1.19 has the fix");
    c.ucx_version = NULL;
    ok(rule_applies(by_id[4], &c), "an unknown UCX version keeps the workaround");
    c.ucx_version = "1.18.1";
    c.ucx_tls = "tcp,self";
    ok(!rule_applies(by_id[4], &c), "UCX_TLS without UD or RC: no UD, no rule");
    c.ucx_tls = "^ud";
    ok(!rule_applies(by_id[4], &c), "UCX_TLS=^ud excludes UD");
    c.ucx_tls = "rc,sm,self";
    ok(rule_applies(by_id[4], &c), "rc wires up over UD: the rule applies");
    struct rule_context r = {.fabric = "roce", .ucx_version = "1.13.1", .facts = &roce_mlx,
                             .ucx_tls = "rc,sm,self"};
    ok(!rule_applies(by_id[4], &r), "mlx5 RoCE fills wc.sl: no rule");
out:
    facts_free(&rxe);
    facts_free(&mlx);
    facts_free(&roce_mlx);
}

static bool has_env_prefix(const struct strvec *env, const char *prefix)
{
    for (size_t i = 0; i < env->n; i++)
        if (strncmp(env->v[i], prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

static void test_placement(void)
{
    struct facts f;
    node(&f, "rxe");
    struct placement_request rq = {.policy = BIND_NUMA, .fabric = "roce", .nics = NICS_ONE,
                                   .memory = MEMORY_BIND, .set_ucx = true, .local_size = 4};
    struct placement pl;
    placement_build(&f, &rq, &pl);
    ok(pl.local_size == 4 && pl.policy == BIND_NUMA && pl.memory == MEMORY_BIND,
       "4 local ranks, policy and memory as asked");
    bool placed = true, env = true;
    for (int r = 0; r < 4; r++) {
        placed &= pl.ranks[r].numa && pl.ranks[r].pus && pl.ranks[r].ncores > 0;
        env &= sv_find(&pl.ranks[r].env, "UCX_NET_DEVICES=rxe0:1") >= 0;
    }
    ok(placed, "every rank has a NUMA node and cores");
    ok(env, "every rank gets UCX_NET_DEVICES for its port");
    ok(strcmp(pl.ranks[0].numa, pl.ranks[3].numa) != 0, "ranks are spread over both NUMA nodes");
    bool disjoint = true;
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            disjoint &= strcmp(pl.ranks[a].pus, pl.ranks[b].pus) != 0;
    ok(disjoint, "no two ranks share their PUs");
    char *line = placement_rank_line(&pl, 1, "h", 7);
    ok(line && strstr(line, "rank 7 (local 1 of 4) on h") && strstr(line, "memory bind") &&
       strstr(line, "NIC rxe0:1"), "the helper's report line: %s", line);
    free(line);
    placement_free(&pl);
    rq.policy = BIND_GPU_LOCAL;
    placement_build(&f, &rq, &pl);
    ok(notes_have(&pl.notes, "no GPU"), "gpu-local without GPUs says so and places by NUMA node");
    placement_free(&pl);

    /* Fewer ranks than NUMA nodes: the rank takes them all, and its memory
     * is interleaved over them unless bound. */
    rq = (struct placement_request){.policy = BIND_NUMA, .local_size = 1, .memory = MEMORY_PREFER};
    placement_build(&f, &rq, &pl);
    ok(pl.ranks[0].nnuma == 2 && strcmp(pl.ranks[0].numa, "0-1") == 0 &&
       pl.ranks[0].ncores == f.ncores, "1 rank on 2 NUMA nodes gets both and every core (%s, %d)",
       pl.ranks[0].numa, pl.ranks[0].ncores);
    ok(strcmp(placement_memory(&pl, &pl.ranks[0]), "interleave") == 0,
       "memory = prefer over several NUMA nodes is interleave");
    pl.memory = MEMORY_BIND;
    ok(strcmp(placement_memory(&pl, &pl.ranks[0]), "bind") == 0, "memory = bind stays bind");
    placement_free(&pl);

    /* Hybrid ranks: OpenMP's variables match the cores the rank is bound to. */
    rq = (struct placement_request){.policy = BIND_NUMA, .local_size = 2, .threads = -1};
    placement_build(&f, &rq, &pl);
    const struct rank_place *r0 = &pl.ranks[0];
    char *want = xasprintf("OMP_NUM_THREADS=%d", r0->ncores);
    ok(sv_find(&r0->env, want) >= 0 && sv_find(&r0->env, "OMP_PROC_BIND=close") >= 0,
       "threads = auto: one thread per core of the rank (%d), bound close", r0->ncores);
    free(want);
    const char *places = NULL;
    for (size_t i = 0; i < r0->env.n; i++)
        if (strncmp(r0->env.v[i], "OMP_PLACES=", 11) == 0)
            places = r0->env.v[i] + 11;
    ok(places && strncmp(places, "{0,1},{2,3}", 11) == 0 && !strchr(places, '-'),
       "a place per core with its hardware threads, listed, not ranged (%s)", places);
    placement_free(&pl);
    rq.smt = true;
    placement_build(&f, &rq, &pl);
    want = xasprintf("OMP_NUM_THREADS=%d", 2 * pl.ranks[0].ncores);
    ok(sv_find(&pl.ranks[0].env, want) >= 0 && has_env_prefix(&pl.ranks[0].env, "OMP_PLACES={0},{1},"),
       "smt: a place, and a thread, per hardware thread");
    free(want);
    placement_free(&pl);
    rq = (struct placement_request){.policy = BIND_NUMA, .local_size = 2, .threads = 2};
    placement_build(&f, &rq, &pl);
    ok(sv_find(&pl.ranks[0].env, "OMP_NUM_THREADS=2") >= 0 &&
       sv_find(&pl.ranks[0].env, "OMP_PROC_BIND=spread") >= 0,
       "threads = 2 on more cores: 2 threads, spread over them");
    placement_free(&pl);
    rq.threads = 0;
    placement_build(&f, &rq, &pl);
    ok(!has_env_prefix(&pl.ranks[0].env, "OMP_"), "threads unset: no OpenMP variable (pure MPI)");
    placement_free(&pl);
    ok(threads_value("auto") == -1 && threads_value("8") == 8 && threads_value(NULL) == 0 &&
       threads_value("x") == -2 && threads_value("-3") == -2, "threads values: auto, N, none, bad");
    facts_free(&f);
}

static bool has_text(const struct strvec *v, const char *text)
{
    for (size_t i = 0; i < v->n; i++)
        if (strstr(v->v[i], text))
            return true;
    return false;
}

/* The profile's [check] keys before launch: strict refuses with the check's
 * own words (69), warn says them and runs. */
static void test_check_keys(void)
{
    struct facts f;
    struct profile p;
    node(&f, "rxe");
    profile(&p, "roce");   /* memlock = unlimited, port-state = active */
    struct job j;
    job_init(&j, &p, &f);
    struct plan pl;
    f.limits.memlock_soft = 8 << 20;
    j.rq.verify = "strict";
    plan_build(&j.rq, &pl);
    ok(pl.status == RR_EX_UNAVAILABLE && has_text(&pl.errors, "[check] memlock: the memlock "
       "limit is 8192 KiB, the site requires unlimited"), "strict, memlock 8 MiB: refused, 69");
    plan_free(&pl);
    j.rq.verify = "warn";
    plan_build(&j.rq, &pl);
    ok(pl.status == 0 && has_text(&pl.notes, "warning: [check] memlock") &&
       has_text(&pl.notes, "verify = warn: the job runs"), "warn: a warning, and the job runs");
    plan_free(&pl);
    j.rq.verify = "off";
    plan_build(&j.rq, &pl);
    ok(pl.status == 0 && !has_text(&pl.notes, "warning: [check]") &&
       has_text(&pl.notes, "[check] port-state = active (roce.ini:") &&
       has_text(&pl.notes, "memlock = unlimited (roce.ini:") &&
       has_text(&pl.notes, ": not checked before this job: verify = off"),
       "verify off: no check, and the plan names the keys it does not apply");
    plan_free(&pl);
    /* A profile of shared memory asking for a memlock limit under strict:
     * no RDMA port to hold the job to; the plan says so, and runs. */
    {
        struct profile s;
        profile_set(&s, "shm", "check.memlock=unlimited");
        j.rq.profile = &s;
        j.rq.verify = "strict";
        plan_build(&j.rq, &pl);
        ok(pl.status == 0 && !has_text(&pl.errors, "[check]") &&
           has_text(&pl.notes, "[check] memlock = unlimited (--set): not checked before this "
                    "job: the job has no RDMA ports (fabric shm)"),
           "shm, strict, [check] memlock: named in the plan as not checked, the job runs");
        plan_free(&pl);
        profile_free(&s);
        profile_set(&s, "roce", "check.devices=rxe0");
        j.rq.profile = &s;
        j.rq.verify = "warn";
        plan_build(&j.rq, &pl);
        ok(has_text(&pl.notes, "[check] devices (--set): the health check's keys"),
           "a health check key in a job's profile: named, not checked before the job");
        plan_free(&pl);
        profile_free(&s);
        j.rq.profile = &p;
        j.rq.verify = "off";
    }
    f.limits.memlock_soft = -2;
    j.rq.verify = "strict";
    plan_build(&j.rq, &pl);
    ok(pl.status == 0, "a memlock limit that cannot be read does not stop a job");
    plan_free(&pl);
    /* ... and not because no key was judged: beside a min-rate rxe's 2.5 Gb/s
     * misses, the plan is refused for the rate alone. */
    struct profile q;
    profile_set(&q, "roce", "check.min-rate=400");
    j.rq.profile = &q;
    plan_build(&j.rq, &pl);
    ok(pl.status == RR_EX_UNAVAILABLE && has_text(&pl.errors, "[check] min-rate: rxe0 port 1") &&
       !has_text(&pl.errors, "[check] memlock") && !has_text(&pl.notes, "[check] memlock"),
       "memlock unknown, min-rate 400: the keys were judged, the rate refused, memlock left");
    plan_free(&pl);
    profile_free(&q);
    j.rq.profile = &p;
    f.limits.memlock_soft = -1;

    /* Every other key, one at a time (the recorded tree has no MTU or huge pages). */
    f.devs[0].ports[0].active_mtu = 1024;
    f.limits.hugepages_free = 0;
    struct {
        const char *set, *want;
    } cases[] = {
        {"check.min-rate=400", "[check] min-rate: rxe0 port 1 runs at"},
        {"check.mtu=4096", "[check] mtu: rxe0 port 1 has active MTU 1024, the site requires 4096"},
        {"check.hugepages=16", "[check] hugepages: 0 huge pages free, the site requires 16"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        profile_set(&q, "roce", cases[i].set);
        j.rq.profile = &q;
        plan_build(&j.rq, &pl);
        ok(pl.status == RR_EX_UNAVAILABLE && has_text(&pl.errors, cases[i].want),
           "strict, --set %s: refused with '%s'", cases[i].set, cases[i].want);
        plan_free(&pl);
        profile_free(&q);
    }
    j.rq.profile = &p;

    /* A port the profile names that is not ACTIVE. */
    for (size_t i = 0; i < f.ndevs; i++)
        for (size_t k = 0; k < f.devs[i].nports; k++) {
            free(f.devs[i].ports[k].state);
            f.devs[i].ports[k].state = xstrdup("DOWN");
        }
    plan_build(&j.rq, &pl);
    ok(pl.status == RR_EX_UNAVAILABLE, "no ACTIVE port: refused (69)");
    plan_free(&pl);
    job_free(&j);
    profile_free(&p);
    facts_free(&f);
}

/* launcher exec: COMMAND under stdbuf -oL when the job is verified, with
 * UCX's reports on stdout; a note when stdbuf is missing; COMMAND as it is
 * with verify off. */
static void test_exec_line_buffered(void)
{
    struct facts f;
    struct profile p;
    ok(node(&f, "rxe") == 0 && profile(&p, "roce") == 0, "rxe node and roce profile load");
    struct job j;
    job_init(&j, &p, &f);
    j.rq.launcher = "exec";
    j.rq.stdbuf = true;
    struct plan pl;
    plan_build(&j.rq, &pl);
    int at = sv_find(&pl.argv, PLAN_STDBUF_PATH);
    ok(pl.status == 0 && at > 0 && (size_t)at + 2 < pl.argv.n &&
       strcmp(pl.argv.v[at + 1], "-oL") == 0 && strcmp(pl.argv.v[at + 2], "./app") == 0 &&
       strchr(pl.argv.v[at - 1], '='), "exec: env VAR=VALUE... stdbuf -oL COMMAND");
    const struct plan_item *log = plan_find(&pl, ITEM_ENV, "UCX_LOG_FILE");
    ok(log && log->source == SOURCE_EVIDENCE && strcmp(log->value, "stdout") == 0,
       "exec: UCX reports on stdout, the line-buffered one (%s)", log ? log->value : "unset");
    plan_free(&pl);
    j.rq.stdbuf = false;
    plan_build(&j.rq, &pl);
    ok(pl.status == 0 && !argv_has(&pl, PLAN_STDBUF_PATH) &&
       notes_have(&pl.notes, "stdbuf (coreutils) is missing"),
       "exec without stdbuf: COMMAND as it is, and the plan says what that risks");
    plan_free(&pl);
    j.rq.stdbuf = true;
    j.rq.verify = "off";
    plan_build(&j.rq, &pl);
    ok(pl.status == 0 && !argv_has(&pl, PLAN_STDBUF_PATH) && !notes_have(&pl.notes, "stdbuf"),
       "exec with verify off: COMMAND's output is left as it is");
    plan_free(&pl);
    job_free(&j);
    profile_free(&p);
    facts_free(&f);
}

/* The plan's command, space-separated, for exact comparison. */
static char *argv_line(const struct plan *p)
{
    return sv_join(&p->argv, " ");
}

/* Flux and PALS (neither installed here): each command compared whole with
 * what their documentation says the job needs. MPICH's program and verify
 * off keep the plan to one item, the shm profile's UCX_TLS=sm,self. */
static void test_flux_pals(void)
{
    struct facts f;
    struct profile p;
    ok(node(&f, "rxe") == 0 && profile(&p, "shm") == 0, "rxe node and shm profile load");
    struct job j;
    job_init(&j, &p, &f);
    j.rq.mpi = "mpich";
    j.rq.verify = "off";
    j.args.np = 8;
    j.args.ppn = 4;
    const char *words[] = {"-np", "8", "-N", "4", "-H", "a:4,b:4", "-x", "A=1$x",
                           "--bind-to", "core", "--map-by", "node", "--allow-run-as-root"};
    for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
        sv_push(&j.args.mpirun_args, words[i]);
    struct plan pl;
    j.rq.launcher = "flux";
    plan_build(&j.rq, &pl);
    char *line = argv_line(&pl);
    /* flux-run(1): -N nodes with --tasks-per-node (no -n beside it: Flux
     * refuses a per-task count with a per-node one); -o cpu-affinity=per-task
     * binds each task to its own cores (--bind-to core); --env=VAR=VAL with
     * '$' doubled, as Flux substitutes $name; --taskmap=cyclic deals tasks
     * over the nodes (--map-by node); --requires=host:LIST names the hosts
     * (job-constraints), without Open MPI's :slots; MPICH's ranks use Flux's
     * default PMI, so no -o pmi. */
    is_str(line, "flux run --nodes=2 --tasks-per-node=4 -o cpu-affinity=per-task --env=A=1$$x "
                 "--taskmap=cyclic --env=UCX_TLS=sm,self --requires=host:a,b ./app",
           "flux: Open MPI's words in Flux's");
    free(line);
    plan_free(&pl);

    j.rq.launcher = "pals";
    plan_build(&j.rq, &pl);
    line = argv_line(&pl);
    /* PALS mpiexec(1): -n, --ppn, --hosts a,b (bare names), --env VAR=VALUE
     * (one word: ALCF's examples), --cpu-bind core; --map-by has no PALS
     * word: a note. */
    is_str(line, "mpiexec -n 8 --ppn 4 --hosts a,b --env A=1$x --cpu-bind core "
                 "--env UCX_TLS=sm,self ./app", "pals: Open MPI's words in PALS's");
    ok(notes_have(&pl.notes, "pals: --map-by node has no PALS equivalent"),
       "pals: --map-by is named as left out");
    free(line);
    plan_free(&pl);

    /* The helper places the ranks: Flux's and PALS's own binding off, the
     * helper in front of the program, and for Flux the node's rank count,
     * which no Flux variable gives a task. An Open MPI program under Flux
     * needs the PMIx plugin (flux-pmix). */
    sv_free(&j.args.mpirun_args);
    sv_push(&j.args.mpirun_args, "-np");
    sv_push(&j.args.mpirun_args, "2");
    j.args.np = 2;
    j.args.ppn = -1;
    j.rq.mpi = NULL;
    j.rq.bind_policy = "numa";
    j.rq.launcher = "flux";
    plan_build(&j.rq, &pl);
    int at = sv_find(&pl.argv, "rank");
    ok(pl.status == 0 && argv_has(&pl, "--ntasks=2") && argv_has(&pl, "pmi=pmix") &&
       argv_has(&pl, "cpu-affinity=off") && argv_has(&pl, "--env=RDMARUN_LOCAL_SIZE=2") &&
       argv_has(&pl, "--env=OMPI_MCA_pml=ucx") && at > 0 &&
       strcmp(pl.argv.v[at - 1], "/bin/rdmarun") == 0,
       "flux, Open MPI, bind policy numa: -o pmi=pmix, cpu-affinity=off, the local size, the "
       "MCA parameters as OMPI_MCA_*, the helper");
    plan_free(&pl);
    j.rq.launcher = "pals";
    plan_build(&j.rq, &pl);
    at = sv_find(&pl.argv, "--cpu-bind");
    ok(pl.status == 0 && at > 0 && strcmp(pl.argv.v[at + 1], "none") == 0 &&
       sv_find(&pl.argv, "rank") > at, "pals, bind policy numa: --cpu-bind none, then the helper");
    plan_free(&pl);

    /* What Flux cannot be told: refused with the way out. */
    j.rq.launcher = "flux";
    static const struct { const char *words[6]; long np, ppn; const char *error; } refused[] = {
        {{"-np", "6", "-N", "4"}, 6, 4, "-np 6 is not a multiple of -N 4"},
        {{"-np", "2", "-H", "a,b"}, 2, -1, "needs the ranks per node"},
        {{"-np", "2", "--tag-output"}, 2, -1, "--tag-output is an mpirun option"},
    };
    for (size_t r = 0; r < sizeof(refused) / sizeof(*refused); r++) {
        sv_free(&j.args.mpirun_args);
        for (size_t i = 0; refused[r].words[i]; i++)
            sv_push(&j.args.mpirun_args, refused[r].words[i]);
        j.args.np = refused[r].np;
        j.args.ppn = refused[r].ppn;
        plan_build(&j.rq, &pl);
        ok(pl.status == RR_EX_USAGE && notes_have(&pl.errors, refused[r].error),
           "flux refuses: %s", refused[r].error);
        plan_free(&pl);
    }
    j.rq.launcher = "pals";
    plan_build(&j.rq, &pl);
    ok(pl.status == RR_EX_USAGE && notes_have(&pl.errors, "--tag-output is an mpirun option"),
       "pals refuses an mpirun option it has no word for");
    plan_free(&pl);
    job_free(&j);
    profile_free(&p);
    facts_free(&f);
}

/* The fabric rows (ports.c): each fabric's layer and provider, and the
 * provider's per-rank NIC variable from a rank's ports (issue 49). */
static void test_fabric_rows(void)
{
    ok(fabric_is_rdma("roce") && !fabric_is_rdma("efa") && fabric_has_ports("efa") &&
       fabric_has_ports("rdma") && !fabric_has_ports("tcpx") && !fabric_has_ports("tcp"),
       "roce goes through UCX; efa has ports but not UCX; tcpx and tcp no ports");
    is_str(fabric_row("cxi")->provider, "cxi", "Slingshot's provider is cxi");
    is_str(fabric_row("opa")->auto_profile, "opx", "auto picks opx for Omni-Path");
    char *env = fabric_rank_env(fabric_row("efa"), "rdmap18s0:1,rdmap34s0:1");
    is_str(env, "FI_EFA_IFACE=rdmap18s0,rdmap34s0", "EFA: FI_EFA_IFACE names the devices");
    free(env);
    env = fabric_rank_env(fabric_row("opa"), "hfi1_1:1,hfi1_0:1");
    is_str(env, "FI_OPX_HFI_SELECT=1", "opx: FI_OPX_HFI_SELECT takes the first unit's number");
    free(env);
    /* intro_mpi(3)'s MPICH_OFI_NIC_MAPPING form, "NIC:ranks; NIC:ranks" */
    char *nics[] = {"cxi0:1", "cxi0:1", "cxi1:1", "cxi1:1", "cxi3:1", "cxi2:1", "cxi0:1"};
    env = fabric_nic_mapping(nics, 7);
    is_str(env, "0:0-1,6; 1:2-3; 2:5; 3:4", "Cray MPICH's mapping: each NIC's local ranks, ranges "
           "joined");
    free(env);
    nics[3] = NULL;
    ok(fabric_nic_mapping(nics, 7) == NULL, "a rank with no NIC: no mapping");
    char *odd[] = {"hsn:1"};
    ok(fabric_nic_mapping(odd, 1) == NULL, "a NIC with no index: no mapping");
    const char *names[MAX_AUTO_PROFILES];
    size_t n = fabric_auto_profiles(names, MAX_AUTO_PROFILES);
    ok(n == 6 && strcmp(names[3], "efa") == 0 && strcmp(names[4], "slingshot") == 0,
       "auto chooses among ib, roce, pvrdma, efa, slingshot, opx (%zu)", n);
}

int main(void)
{
    test_fabric_rows();
    test_settings();
    test_items_and_ports();
    test_auto();
    test_helper_argv();
    test_rules();
    test_placement();
    test_check_keys();
    test_exec_line_buffered();
    test_flux_pals();
    return done_testing();
}
