/* Unit tests of the facts stage: the pure findings, the warnings, the GID
 * choice, and facts gathered from recorded sysfs trees. */
#include "facts/counters.h"
#include "facts/facts.h"
#include "facts/findings.h"
#include "facts/internal.h"
#include "tap.h"
#include "util/strvec.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *srcdir(void)
{
    const char *d = getenv("RDMARUN_SRCDIR");
    return d && *d ? d : ".";
}

static struct rdma_port port(const char *state, const char *phys)
{
    struct rdma_port p = {.num = 1, .state = (char *)state, .phys_state = (char *)phys,
                          .link_layer = "InfiniBand", .lid = -1, .sm_lid = -1};
    return p;
}

/* Whether some line of `v` holds every one of the NULL-terminated parts. */
static bool has_line(const struct strvec *v, const char *const *parts)
{
    for (size_t i = 0; i < v->n; i++) {
        bool all = true;
        for (size_t k = 0; parts[k] && all; k++)
            all = strstr(v->v[i], parts[k]) != NULL;
        if (all)
            return true;
    }
    return false;
}

static void test_port_link_up(void)
{
    struct rdma_port p = port("ACTIVE", "LinkUp");
    ok(port_is_active(&p) && port_link_up(&p), "ACTIVE and LinkUp: link up");
    p = port("ACTIVE", NULL);
    ok(port_link_up(&p), "ACTIVE, physical state unknown: link up");
    p = port("ACTIVE", "Polling");
    ok(port_is_active(&p) && !port_link_up(&p), "ACTIVE but physically Polling: not up");
    p = port("DOWN", "LinkUp");
    ok(!port_is_active(&p) && !port_link_up(&p), "DOWN even if LinkUp: not up");
    p = port("DOWN", "Disabled");
    ok(!port_link_up(&p), "DOWN and Disabled: not up");
    p = port("INIT", "LinkUp");
    ok(!port_link_up(&p), "INIT (no subnet manager yet): not up");
    p = port("active", "LinkUp");
    ok(!port_is_active(&p), "the state compares with ACTIVE exactly");
    p = port(NULL, NULL);
    ok(!port_is_active(&p) && !port_link_up(&p), "no state at all: not active, not up");
}

static void test_pcie(void)
{
    struct rdma_device d = {.name = "mlx5_0", .pcie_speed_gts = 16, .pcie_max_speed_gts = 16,
                            .pcie_width = 16, .pcie_max_width = 16};
    ok(!pcie_below_capability(&d), "16 GT/s x16 of 16 GT/s x16: at capability");
    d.pcie_speed_gts = 8;
    ok(pcie_below_capability(&d), "8 GT/s of 16 GT/s: below capability");
    d.pcie_speed_gts = 16;
    d.pcie_width = 8;
    ok(pcie_below_capability(&d), "x8 of x16: below capability");
    d.pcie_width = 16;
    d.pcie_speed_gts = 0;
    ok(!pcie_below_capability(&d), "current speed unknown (0): not judged below");
    d.pcie_speed_gts = 8;
    d.pcie_max_speed_gts = 0;
    ok(!pcie_below_capability(&d), "capability speed unknown (0): not judged below");
    d.pcie_max_speed_gts = 16;
    d.pcie_speed_gts = 16;
    d.pcie_width = 0;
    ok(!pcie_below_capability(&d), "current width unknown (0): not judged below");
    d.pcie_width = 4;
    d.pcie_max_width = 0;
    ok(!pcie_below_capability(&d), "capability width unknown (0): not judged below");
    struct rdma_device sw = {.name = "rxe0"};
    ok(!pcie_below_capability(&sw), "a software device with no PCIe at all: not below");
    struct rdma_device over = {.name = "x", .pcie_speed_gts = 16, .pcie_max_speed_gts = 8,
                               .pcie_width = 16, .pcie_max_width = 8};
    ok(!pcie_below_capability(&over), "above the recorded capability is not below it");

    /* At capability, and still too narrow for the port. */
    struct rdma_device gen3x8 = {.name = "mlx5_0", .pcie_speed_gts = 8, .pcie_max_speed_gts = 8,
                                 .pcie_width = 8, .pcie_max_width = 8};
    struct rdma_port hdr = port("ACTIVE", "LinkUp");
    hdr.rate_gbps = 200;
    ok(pcie_gbps(&gen3x8) > 63 && pcie_gbps(&gen3x8) < 63.1, "Gen3 x8 carries 63.0 Gb/s (%.2f)",
       pcie_gbps(&gen3x8));
    ok(pcie_narrower_than_port(&gen3x8, &hdr), "Gen3 x8 behind a 200 Gb/s port: too narrow");
    struct rdma_device gen4x16 = {.name = "mlx5_0", .pcie_speed_gts = 16, .pcie_width = 16};
    ok(!pcie_narrower_than_port(&gen4x16, &hdr), "Gen4 x16 (252 Gb/s) carries 200 Gb/s");
    struct rdma_device gen2x8 = {.name = "mlx4_0", .pcie_speed_gts = 5, .pcie_width = 8};
    hdr.rate_gbps = 40;
    ok(pcie_gbps(&gen2x8) == 32 && pcie_narrower_than_port(&gen2x8, &hdr),
       "Gen2 x8 (8b/10b: 32 Gb/s) behind 40 Gb/s QDR: too narrow");
    hdr.rate_gbps = 0;
    ok(!pcie_narrower_than_port(&gen3x8, &hdr) && !pcie_narrower_than_port(&sw, &hdr),
       "an unknown rate or link is not judged");
}

static void test_rate_and_mtu(void)
{
    struct rdma_port p = port("ACTIVE", "LinkUp");
    p.rate = "100 Gb/sec (4X EDR)";
    p.rate_gbps = 100;
    ok(port_rate_below(&p, 200), "100 Gb/s is below 200");
    ok(!port_rate_below(&p, 100), "100 Gb/s is not below 100 (equal)");
    ok(!port_rate_below(&p, 50), "100 Gb/s is not below 50");
    p.rate_gbps = 2.5;
    ok(port_rate_below(&p, 10), "2.5 Gb/s (rxe) is below 10");
    p.rate = NULL;
    p.rate_gbps = 0;
    ok(!port_rate_below(&p, 200), "rate unknown (0): not judged below");

    p.active_mtu = 4096;
    ok(!port_mtu_differs(&p, 4096), "MTU 4096 against 4096: same");
    ok(port_mtu_differs(&p, 2048), "MTU 4096 against 2048: differs");
    p.active_mtu = 1024;
    ok(port_mtu_differs(&p, 4096), "MTU 1024 against 4096: differs");
    p.active_mtu = 0;
    ok(!port_mtu_differs(&p, 4096), "MTU unknown (0): not judged different");
}

static void test_memlock(void)
{
    struct host_limits l = {.memlock_soft = -2, .memlock_hard = -2};
    ok(memlock_against(&l, -1) == LIMIT_UNKNOWN, "memlock -2 against unlimited: unknown");
    ok(memlock_against(&l, 65536) == LIMIT_UNKNOWN, "memlock -2 against 64 KiB: unknown");
    l.memlock_soft = l.memlock_hard = -1;
    ok(memlock_against(&l, -1) == LIMIT_OK, "unlimited (-1) meets unlimited");
    ok(memlock_against(&l, 1LL << 40) == LIMIT_OK, "unlimited (-1) meets 1 TiB");
    l.memlock_soft = 64 * 1024;
    ok(memlock_against(&l, -1) == LIMIT_BELOW, "64 KiB is below unlimited");
    ok(memlock_against(&l, 32 * 1024) == LIMIT_OK, "64 KiB meets 32 KiB");
    ok(memlock_against(&l, 64 * 1024) == LIMIT_OK, "64 KiB meets 64 KiB (equal)");
    ok(memlock_against(&l, 128 * 1024) == LIMIT_BELOW, "64 KiB is below 128 KiB");
    ok(memlock_against(&l, 0) == LIMIT_OK, "any limit meets a need of 0");
    l.memlock_soft = 0;
    ok(memlock_against(&l, 1) == LIMIT_BELOW, "a 0 limit is below 1 byte");
    l.memlock_soft = -1;
    l.memlock_hard = 0;
    ok(memlock_against(&l, -1) == LIMIT_OK, "the soft limit is the one judged");
}

static void test_warnings(void)
{
    struct rdma_port ports[2] = {port("ACTIVE", "LinkUp"), port("DOWN", "Disabled")};
    ports[1].num = 2;
    struct rdma_device dev = {.name = "mlx5_0", .driver = "mlx5_core", .numa_node = -1,
                              .pcie_speed_gts = 8, .pcie_max_speed_gts = 16, .pcie_width = 8,
                              .pcie_max_width = 16, .ports = ports, .nports = 2};
    struct facts f = {.devs = &dev, .ndevs = 1};
    f.limits = (struct host_limits){.memlock_soft = 64 * 1024, .memlock_hard = 64 * 1024,
                                    .hugepages_total = -1, .hugepages_free = -1,
                                    .hugepage_kb = -1, .uverbs_devices = 1,
                                    .uverbs_accessible = true, .modules_known = false};
    struct strvec w = {0};
    facts_warnings(&f, &w);
    ok(w.n == 3, "an unhealthy node: three warnings (got %zu)", w.n);
    ok(has_line(&w, (const char *[]){"mlx5_0 port 2 is DOWN, physical state Disabled",
                                     "ibstat mlx5_0 2", NULL}),
       "warning: the DOWN port, its physical state and the command to look");
    ok(!has_line(&w, (const char *[]){"port 1 is", NULL}), "no warning for the healthy port");
    ok(has_line(&w, (const char *[]){"mlx5_0 PCIe link trained at 8.0 GT/s x8",
                                     "below its capability 16.0 GT/s x16", NULL}),
       "warning: PCIe below its capability");
    ok(has_line(&w, (const char *[]){"memlock limit is 64 KiB, not unlimited", NULL}),
       "warning: a finite memlock limit");
    sv_free(&w);

    ports[1] = port("DOWN", NULL);
    ports[1].num = 2;
    facts_warnings(&f, &w);
    ok(has_line(&w, (const char *[]){"mlx5_0 port 2 is DOWN (hint:", NULL}),
       "a DOWN port whose physical state is unknown: no physical state in the line");
    sv_free(&w);

    /* Healthy: ports up, PCIe at capability, memlock unlimited. */
    ports[1] = port("ACTIVE", "LinkUp");
    ports[1].num = 2;
    dev.pcie_speed_gts = dev.pcie_max_speed_gts = 16;
    dev.pcie_width = dev.pcie_max_width = 16;
    f.limits.memlock_soft = f.limits.memlock_hard = -1;
    f.limits.modules_known = true;
    f.limits.mod_ib_uverbs = true;
    facts_warnings(&f, &w);
    ok(w.n == 0, "a healthy node: no warnings (got %zu%s%s)", w.n, w.n ? ": " : "",
       w.n ? w.v[0] : "");
    sv_free(&w);

    ports[0].active_mtu = 4096;
    ports[1].active_mtu = 1024;
    facts_warnings(&f, &w);
    ok(w.n == 1 && has_line(&w, (const char *[]){"mlx5_0 port 2 has MTU 1024 but mlx5_0 has 4096",
                                                 NULL}),
       "two active ports with different MTUs: one warning");
    sv_free(&w);
    ports[0].active_mtu = ports[1].active_mtu = 0;

    f.limits.memlock_soft = -2;
    facts_warnings(&f, &w);
    ok(w.n == 0, "memlock unknown (-2): no memlock warning");
    sv_free(&w);

    f.limits.memlock_soft = 64 * 1024;
    f.ndevs = 0;
    facts_warnings(&f, &w);
    ok(w.n == 0, "no RDMA devices: a small memlock limit does not matter");
    sv_free(&w);
}

static void test_gids(void)
{
    struct gid_entry gids[] = {
        {0, "fe80:0000:0000:0000:0e42:a1ff:fe65:1a00", "IB/RoCE v1", "ens1f0np0"},
        {1, "fe80:0000:0000:0000:0e42:a1ff:fe65:1a00", "RoCE v2", "ens1f0np0"},
        {2, "fd00:0000:0000:0000:0e42:a1ff:fe65:1a00", "RoCE v2", "ens1f0np0"},
        {3, "0000:0000:0000:0000:0000:ffff:c0a8:6415", "IB/RoCE v1", "ens1f0np0"},
        {4, "0000:0000:0000:0000:0000:ffff:c0a8:6415", "RoCE v2", "ens1f0np0"},
    };
    struct rdma_port p = port("ACTIVE", "LinkUp");
    p.gids = gids;
    p.ngids = 5;
    const struct gid_entry *best = port_best_gid(&p);
    ok(best && best->index == 4, "best GID: the RoCE v2 IPv4-mapped one (index %d)",
       best ? best->index : -1);
    ok(gid_is_ipv4(&gids[4]), "a RoCE v2 ::ffff:a.b.c.d GID is IPv4");
    ok(!gid_is_ipv4(&gids[1]), "a RoCE v2 link-local fe80 GID is not IPv4");
    ok(!gid_is_ipv4(&gids[2]), "a RoCE v2 global IPv6 GID is not IPv4");

    p.ngids = 3;
    best = port_best_gid(&p);
    ok(best && best->index == 2, "no IPv4 GID: the global IPv6 RoCE v2 one, not link-local");
    p.ngids = 2;
    ok(port_best_gid(&p) == NULL, "only link-local GIDs: none fits");

    struct gid_entry odd[] = {
        {0, "0000:0000:0000:0000:0000:ffff:a9fe:0101", "RoCE v2", "eth0"},   /* 169.254.1.1 */
        {1, "0000:0000:0000:0000:0000:ffff:0a00:020f", NULL, "eth0"},        /* type unknown */
        {2, "0000:0000:0000:0000:0000:ffff:0a00:020f", "IB/RoCE v1", "eth0"},
    };
    p.gids = odd;
    p.ngids = 3;
    ok(!gid_is_ipv4(&odd[0]), "an IPv4 link-local (169.254) GID is not a routable IPv4 one");
    ok(port_best_gid(&p) == NULL, "169.254, unknown type and RoCE v1 GIDs: none fits");
}

static void test_recorded_node(void)
{
    char sysfs[4096], topo[4096];
    snprintf(sysfs, sizeof(sysfs), "%s/tests/data/sysfs/rxe", srcdir());
    snprintf(topo, sizeof(topo), "%s/tests/data/topology/2pkg-2numa.xml", srcdir());
    struct facts f;
    struct facts_sources src = {.sysfs_root = sysfs, .topology = topo};
    ok(facts_gather(&f, &src) == 0, "facts_gather on the recorded rxe node");
    ok(f.ndevs == 1, "one RDMA device (got %zu)", f.ndevs);
    const struct rdma_device *d = f.ndevs ? &f.devs[0] : NULL;
    is_str(d ? d->name : NULL, "rxe0", "the device is rxe0");
    is_str(d ? d->driver : NULL, "rdma_rxe", "rxe0's driver, from its name");
    ok(d && d->pci_busid == NULL, "rxe0 is a software device: no PCI bus id");
    const struct rdma_port *p = d && d->nports ? &d->ports[0] : NULL;
    ok(d && d->nports == 1 && p->num == 1, "rxe0 has one port, port 1");
    is_str(p ? p->state : NULL, "ACTIVE", "port 1 state ACTIVE (the number stripped)");
    is_str(p ? p->phys_state : NULL, "LinkUp", "port 1 physical state LinkUp");
    is_str(p ? p->link_layer : NULL, "Ethernet", "port 1 link layer Ethernet");
    ok(p && p->rate_gbps == 2.5, "port 1 rate 2.5 Gb/s (got %g)", p ? p->rate_gbps : -1);
    ok(p && p->ngids == 3, "the all-zero GID is left out (got %zu)", p ? p->ngids : 0);
    const struct gid_entry *g = p ? port_best_gid(p) : NULL;
    ok(g && g->index == 1 && gid_is_ipv4(g), "best GID of rxe0:1 is index 1, IPv4-mapped");
    ok(p && p->counters.names.n == 0 && !f.counters_timed_out,
       "no counters recorded: none, and none read late");
    ok(f.nnuma == 2 && f.npackages == 2 && f.ncores == 8 && f.npus == 16,
       "topology: 2 packages, 2 NUMA nodes, 8 cores, 16 PUs");
    ok(f.limits.memlock_soft == -2, "a recorded node's memlock is unknown");
    struct strvec w = {0};
    facts_warnings(&f, &w);
    ok(w.n == 0, "the recorded rxe node deserves no warning (got %zu)", w.n);
    sv_free(&w);
    facts_free(&f);
    ok(f.ndevs == 0 && f.devs == NULL, "facts_free empties the facts");

    snprintf(sysfs, sizeof(sysfs), "%s/tests/data/sysfs/ib-mlx5", srcdir());
    ok(facts_gather(&f, &src) == 0 && f.ndevs == 2, "the recorded ib-mlx5 node: two devices");
    facts_warnings(&f, &w);
    ok(has_line(&w, (const char *[]){"mlx5_0 port 2 is DOWN, physical state Polling", NULL}),
       "ib-mlx5: mlx5_0 port 2 DOWN is warned about");
    ok(has_line(&w, (const char *[]){"mlx5_1 PCIe link trained at 8.0 GT/s x8", NULL}),
       "ib-mlx5: mlx5_1's PCIe link below capability is warned about");
    ok(w.n == 2, "ib-mlx5: only those two warnings (got %zu)", w.n);
    sv_free(&w);
    facts_free(&f);
}

/* Write `value` to ROOT/class/infiniband/mlx5_0/ports/1/DIR/NAME. */
static void put_counter(const char *root, const char *dir, const char *name, long long value)
{
    char path[512];
    snprintf(path, sizeof(path), "mkdir -p %s/class/infiniband/mlx5_0/ports/1/%s", root, dir);
    if (system(path) != 0)
        return;
    snprintf(path, sizeof(path), "%s/class/infiniband/mlx5_0/ports/1/%s/%s", root, dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%lld\n", value);
        fclose(f);
    }
}

/* Counters read from a port's counters/ and hw_counters/ twice, as around
 * a job: what grew, by family and in words; unknown counters by name. */
static void test_counters(void)
{
    char root[] = "/tmp/rdmarun-counters-XXXXXX";
    ok(mkdtemp(root) != NULL, "a temporary sysfs tree");
    put_counter(root, "counters", "port_xmit_data", 1000);
    put_counter(root, "counters", "symbol_error", 0);
    put_counter(root, "hw_counters", "out_of_sequence", 10);
    put_counter(root, "hw_counters", "local_ack_timeout_err", 0);
    put_counter(root, "hw_counters", "np_cnp_sent", 5);
    put_counter(root, "hw_counters", "vendor_magic", 1);
    put_counter(root, "hw_counters", "lifespan", 10);
    struct port_counters before, after;
    port_counters_read(root, "mlx5_0", 1, &before);
    ok(before.names.n == 6 && sv_find(&before.names, "lifespan") < 0,
       "every counter but lifespan is read (%zu)", before.names.n);
    put_counter(root, "counters", "port_xmit_data", 1000 + 262144);
    put_counter(root, "hw_counters", "out_of_sequence", 1250);
    put_counter(root, "hw_counters", "local_ack_timeout_err", 37);
    put_counter(root, "hw_counters", "vendor_magic", 4);
    port_counters_read(root, "mlx5_0", 1, &after);
    struct counter_growth g;
    counters_growth("mlx5_0", 1, &before, &after, &g);
    ok(g.names.n == 4, "four counters grew (%zu)", g.names.n);
    ok(counter_growth_sum(&g, COUNTER_LOSS) == 1277 && counter_growth_sum(&g, COUNTER_LINK) == 0 &&
       counter_growth_sum(&g, COUNTER_OTHER) == 3, "by family: loss 1277, link 0, unknown 3");
    char *w = counter_growth_words(&g), *t = counter_traffic_words(&g);
    ok(w && strstr(w, "mlx5_0/1: ") == w &&
       strstr(w, "1,240 packets out of sequence and 37 ACK timeouts: the fabric drops packets"),
       "loss in words: %s", w);
    ok(w && strstr(w, "vendor_magic +3"), "an unknown counter is reported by name");
    ok(t && strcmp(t, "mlx5_0/1 sent 1.0 MiB") == 0, "traffic from the 4-byte words: %s", t);
    free(w);
    free(t);
    counter_growth_free(&g);
    counters_growth("mlx5_0", 1, &after, &after, &g);
    ok(g.names.n == 0 && !counter_growth_words(&g), "nothing grew: no words");
    counter_growth_free(&g);
    put_counter(root, "hw_counters", "out_of_sequence", 3);   /* reset */
    port_counters_free(&before);
    port_counters_read(root, "mlx5_0", 1, &before);
    counters_growth("mlx5_0", 1, &after, &before, &g);
    ok(sv_find(&g.names, "out_of_sequence") < 0, "a counter that went back (reset) is not growth");
    counter_growth_free(&g);
    port_counters_free(&before);
    port_counters_free(&after);
    port_counters_read(root, "nothere", 1, &before);
    ok(before.names.n == 0, "a port without counters gives none");
    port_counters_free(&before);
    ok(counter_family_of("rcvd_seq_err") == COUNTER_LOSS && counter_family_of("link_downed") ==
       COUNTER_LINK && counter_family_of("req_cqe_error") == COUNTER_ERROR &&
       counter_family_of("out_of_buffer") == COUNTER_RECEIVER &&
       counter_family_of("np_ecn_marked_roce_packets") == COUNTER_CONGESTION &&
       counter_family_of("sent_pkts") == COUNTER_TRAFFIC, "the families of mlx5, rxe and IB counters");
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
    ok(system(cmd) == 0, "the tree is removed");
}

static void test_cpu_lists(void)
{
    const char *good[] = {"0", "0-3", "0-3,8", "0,48", "5-5", "65535", "0-23,48-71"};
    for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
        ok(cpu_list_valid(good[i]), "CPU list \"%s\" is valid", good[i]);
    const char *bad[] = {"", "-3", " 3", "010", "08", "0x3", "0-", "0,", ",0", "3-1",
                         "0-9999-287", "0--3", "0-3:2/4", "65536", "0-65536", "1,,2"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
        ok(!cpu_list_valid(bad[i]), "CPU list \"%s\" is refused", bad[i]);
}

/* A core_pus list (NULL-terminated, owned) from a literal one. */
static char **cores(const char *const *list)
{
    struct strvec v = {0};
    for (size_t k = 0; list[k]; k++)
        sv_push(&v, list[k]);
    return v.v;
}

static void test_numa_cores(void)
{
    /* HBM in flat mode: hwloc gives NUMA 1 and 3 the cores of 0 and 2 */
    struct numa_node hbm[4] = {
        {.os_index = 0, .core_pus = cores((const char *[]){"0-1", "2-3", NULL})},
        {.os_index = 1, .core_pus = cores((const char *[]){"0-1", "2-3", NULL})},
        {.os_index = 2, .core_pus = cores((const char *[]){"4-5", "6-7", NULL})},
        {.os_index = 3, .core_pus = cores((const char *[]){"4-5", "6-7", NULL})},
    };
    char *why = numa_cores_claim(hbm, 4);
    ok(why == NULL, "NUMA nodes that share their cores are one machine's");
    ok(list_len(hbm[0].core_pus) == 2 && list_len(hbm[1].core_pus) == 0 &&
       list_len(hbm[2].core_pus) == 2 && list_len(hbm[3].core_pus) == 0,
       "a core stays with the first NUMA node that lists it");
    is_str(hbm[2].core_pus[1], "6-7", "the first node keeps its cores in order");
    for (size_t i = 0; i < 4; i++)
        list_free(hbm[i].core_pus);

    struct numa_node part[2] = {
        {.os_index = 0, .core_pus = cores((const char *[]){"0-1", NULL})},
        {.os_index = 1, .core_pus = cores((const char *[]){"2", "1-2", NULL})},
    };
    why = numa_cores_claim(part, 2);
    ok(why && strstr(why, "numa_nodes[1].core_pus[1] \"1-2\" is not a core of its own"),
       "a core with part of another core's PUs is refused: %s", why ? why : "(none)");
    free(why);
    for (size_t i = 0; i < 2; i++)
        list_free(part[i].core_pus);

    struct numa_node twice[2] = {{.os_index = 3}, {.os_index = 3}};
    why = numa_cores_claim(twice, 2);
    ok(why && strstr(why, "numa_nodes[1] is NUMA node 3 again"), "a NUMA number twice is "
       "refused: %s", why ? why : "(none)");
    free(why);
}

/* What kind a port is (facts.c's table), the fault codes counters of their
 * own carry, and the ABI each NCCL release takes of a plugin (issue 49). */
static void test_fabric_kinds(void)
{
    struct rdma_port ib = {.link_layer = "InfiniBand"}, eth = {.link_layer = "Ethernet"},
                     unk = {.link_layer = "Unknown"};
    struct rdma_device mlx = {.driver = "mlx5_core"}, efa = {.driver = "efa"},
                       cxi = {.driver = "cxi_ss1"}, hfi = {.driver = "hfi1"},
                       pv = {.driver = "vmw_pvrdma"};
    is_str(port_kind(&mlx, &ib), "ib", "an mlx5 port on InfiniBand is ib");
    is_str(port_kind(&mlx, &eth), "roce", "an mlx5 port on Ethernet is roce");
    is_str(port_kind(&efa, &unk), "efa", "an efa port (link layer Unknown) is efa");
    is_str(port_kind(&cxi, &unk), "cxi", "a Cassini NIC is cxi");
    is_str(port_kind(&hfi, &ib), "opa", "hfi1, though its link layer says InfiniBand, is opa");
    is_str(port_kind(&pv, &eth), "pvrdma", "vmw_pvrdma is pvrdma");
    ok(counter_fault_code("retrans_timeout_events") &&
       strcmp(counter_fault_code("retrans_timeout_events"), "RDMARUN-EFA-RETRANS-TIMEOUT") == 0 &&
       counter_fault_code("symbol_error") == NULL,
       "EFA's retransmission timeouts carry a code of their own; symbol_error its family's");
    int lo, hi;
    ok(nccl_plugin_abi_used("2.28.9", "net", "v12,v7", &lo, &hi) == 7 && lo == 6 && hi == 11,
       "NCCL 2.28 asks net v11-v6: of v12 and v7 it takes v7");
    ok(nccl_plugin_abi_used("2.18.3", "net", "v10,v9", &lo, &hi) == 0 && hi == 6,
       "NCCL 2.18 asks net v6-v4: a v10/v9 plugin is ignored");
    ok(nccl_plugin_abi_used("2.21.5", "tuner", "v3,v2,v1", &lo, &hi) == 2,
       "NCCL 2.21 takes tuner v2 only");
    ok(nccl_plugin_abi_used("1.3.0", "net", "v2", &lo, &hi) == -1 &&
       nccl_plugin_abi_used(NULL, "net", "v2", &lo, &hi) == -1,
       "an NCCL release before plugins, or none: unknown");
}

int main(void)
{
    test_fabric_kinds();
    test_cpu_lists();
    test_numa_cores();
    test_port_link_up();
    test_pcie();
    test_rate_and_mtu();
    test_memlock();
    test_warnings();
    test_gids();
    test_recorded_node();
    test_counters();
    return done_testing();
}
