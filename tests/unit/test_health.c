/* Unit tests of the health checks (health_checks) against recorded sysfs
 * trees: what each check reports, and that only the checks asked for run. */
#include "health/health.h"
#include "profile/profile.h"
#include "tap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/test_health.XXXXXX";

static const char *srcdir(void)
{
    const char *d = getenv("RDMARUN_SRCDIR");
    return d && *d ? d : ".";
}

/* A [check] configuration from "key", "value" pairs (NULL-terminated). */
static void configure(struct profile *cfg, const char *const *kv)
{
    for (size_t i = 0; kv[i] && kv[i + 1]; i += 2)
        profile_put(cfg, "check", kv[i], kv[i + 1], ORIGIN_SET, NULL, 0);
}

/* Run the checks of `kv` against a recorded tree (a name under
 * tests/data/sysfs, or an absolute path); the report, to be freed. */
static char *run(const char *tree, const char *const *kv)
{
    struct profile cfg = {0};
    configure(&cfg, kv);
    char sysfs[4096];
    if (tree[0] == '/')
        snprintf(sysfs, sizeof(sysfs), "%s", tree);
    else
        snprintf(sysfs, sizeof(sysfs), "%s/tests/data/sysfs/%s", srcdir(), tree);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    struct health_scope scope = {sysfs, NULL, false};
    health_checks(&cfg, &scope, out);
    fclose(out);
    profile_free(&cfg);
    return buf;
}

#define RUN(tree, ...) run(tree, (const char *const[]){__VA_ARGS__, NULL})

/* A whole run's limit of 20 s on an idle machine (RDMARUN_TEST_SLOWDOWN). */
static char limit20[16];

/* The check began and ended. */
static bool ran(const char *out, const char *name)
{
    char b[128], e[128];
    snprintf(b, sizeof(b), "begin %s\n", name);
    snprintf(e, sizeof(e), "end %s\n", name);
    const char *pb = strncmp(out, b, strlen(b)) == 0 ? out : NULL;
    if (!pb) {
        snprintf(b, sizeof(b), "\nbegin %s\n", name);
        pb = strstr(out, b);
    }
    return pb && strstr(pb, e) != NULL;
}

static bool began(const char *out, const char *name)
{
    char b[128];
    snprintf(b, sizeof(b), "begin %s\n", name);
    if (strncmp(out, b, strlen(b)) == 0)
        return true;
    snprintf(b, sizeof(b), "\nbegin %s\n", name);
    return strstr(out, b) != NULL;
}

/* How many "fail NAME\t..." lines hold `text` (NULL: any). */
static int fails(const char *out, const char *name, const char *text)
{
    char head[128];
    snprintf(head, sizeof(head), "fail %s\t", name);
    int n = 0;
    for (const char *line = out; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (strncmp(line, head, strlen(head)) == 0) {
            char *copy = strndup(line, len);
            n += !text || strstr(copy, text) != NULL;
            free(copy);
        }
        line = nl ? nl + 1 : NULL;
    }
    return n;
}

/* Which ports `devices` kept for the later checks: a min-rate no port
 * meets makes rate fail once per kept port, naming it ("rxe0 port 1 runs
 * at"). "devices passes" alone also holds when nothing was looked at; this
 * is the proof that the port was. */
static bool judged(const char *out, const char *port)
{
    char text[128];
    snprintf(text, sizeof(text), "%s runs at", port);
    return fails(out, "rate", text) == 1;
}

#define UNMEETABLE_RATE "min-rate", "100000"   /* Gb/s, above every recorded port */

static void test_devices(void)
{
    char *out = RUN("rxe", "devices", "rxe0", UNMEETABLE_RATE);
    ok(ran(out, "facts") && fails(out, "facts", NULL) == 0, "facts are read first, without fail");
    ok(ran(out, "devices"), "devices check runs (begin and end)");
    ok(fails(out, "devices", NULL) == 0 && judged(out, "rxe0 port 1"),
       "rxe0 present and ACTIVE: devices passes, and keeps rxe0 port 1 for the other checks");
    free(out);

    out = RUN("rxe", "devices", "rxe0:1", UNMEETABLE_RATE);
    ok(fails(out, "devices", NULL) == 0 && judged(out, "rxe0 port 1"),
       "rxe0:1 names a present, ACTIVE port: passes, port 1 kept");
    free(out);

    out = RUN("rxe", "devices", "mlx5_0,rxe0", UNMEETABLE_RATE);
    ok(fails(out, "devices", "mlx5_0 is absent") == 1, "an absent device fails, named");
    ok(fails(out, "devices", NULL) == 1 && judged(out, "rxe0 port 1"),
       "only the absent device fails; rxe0, after it, was looked at and kept");
    free(out);

    out = RUN("none", "devices", "mlx5_0,rxe0");
    ok(fails(out, "devices", "mlx5_0 is absent") == 1 && fails(out, "devices", "rxe0 is absent") == 1,
       "no devices at all: each named device fails");
    free(out);

    out = RUN("none", "timeout", limit20);
    ok(fails(out, "devices", "no RDMA device on this node") == 1,
       "nothing named and no device: fails saying so");
    free(out);

    out = RUN("ib-down", "timeout", limit20);
    ok(fails(out, "devices", "mlx5_0 port 1 is DOWN, physical state Disabled") == 1,
       "a DOWN port fails with its physical state");
    free(out);

    out = RUN("ib-down", "port-state", "any", UNMEETABLE_RATE);
    ok(ran(out, "devices") && fails(out, "devices", NULL) == 0 && judged(out, "mlx5_0 port 1"),
       "port-state = any accepts the DOWN port (kept for the other checks)");
    free(out);

    out = RUN("ib-mlx5", "timeout", limit20);
    ok(fails(out, "devices", "mlx5_0 port 2 is DOWN, physical state Polling") == 1 &&
           fails(out, "devices", NULL) == 1,
       "every port when devices is not set: only mlx5_0 port 2 (DOWN) fails");
    free(out);

    out = RUN("ib-mlx5", "devices", "mlx5_0:3");
    ok(fails(out, "devices", "mlx5_0 has no port 3") == 1, "a port the device lacks fails");
    free(out);
}

static void test_rate(void)
{
    char *out = RUN("ib-mlx5", "devices", "mlx5_0:1", "min-rate", "200");
    ok(ran(out, "rate"), "min-rate set: rate check runs");
    ok(fails(out, "rate", "mlx5_0 port 1 runs at 100 Gb/sec (4X EDR), below the 200 Gb/s required")
           == 1, "min-rate 200 above the port's 100 Gb/s fails");
    free(out);

    /* tests/data/sysfs/ib-mlx5: mlx5_0/ports/1/rate is "100 Gb/sec (4X EDR)".
     * A pass is only proof beside the fail one step above it, on the same port. */
    out = RUN("ib-mlx5", "devices", "mlx5_0:1", "min-rate", "50");
    ok(ran(out, "rate") && fails(out, "rate", NULL) == 0, "min-rate 50 below 100 Gb/s passes");
    free(out);

    out = RUN("ib-mlx5", "devices", "mlx5_0:1", "min-rate", "100");
    ok(ran(out, "rate") && fails(out, "rate", NULL) == 0, "min-rate equal to the port's rate passes");
    free(out);

    out = RUN("ib-mlx5", "devices", "mlx5_0:1", "min-rate", "101");
    ok(fails(out, "rate", "mlx5_0 port 1 runs at 100 Gb/sec") == 1,
       "min-rate 101, just above, fails: the passes above judged mlx5_0 port 1");
    free(out);

    out = RUN("rxe", "devices", "rxe0", "min-rate", "10");
    ok(fails(out, "rate", "rxe0 port 1 runs at 2.5 Gb/sec (1X SDR)") == 1,
       "rxe's 2.5 Gb/s is below min-rate 10");
    free(out);

    /* mlx5_0 port 2 is DOWN at 10 Gb/s; mlx5_0 port 1 and mlx5_1 port 1
     * ACTIVE at 100. */
    out = RUN("ib-mlx5", "min-rate", "50");
    ok(ran(out, "rate") && fails(out, "rate", NULL) == 0,
       "a DOWN port is left to devices, not judged by rate");
    free(out);
    out = RUN("ib-mlx5", UNMEETABLE_RATE);
    ok(judged(out, "mlx5_0 port 1") && judged(out, "mlx5_1 port 1") &&
           fails(out, "rate", "mlx5_0 port 2") == 0 && fails(out, "rate", NULL) == 2,
       "a rate no port meets: rate judges the two ACTIVE ports, not the DOWN one");
    free(out);

    out = RUN("ib-mlx5", "port-state", "any", "min-rate", "50");
    ok(fails(out, "rate", "mlx5_0 port 2 runs at 10 Gb/sec") == 1 && fails(out, "rate", NULL) == 1,
       "port-state = any: the slow DOWN port is judged by rate too");
    free(out);
}

static void test_mtu(void)
{
    /* Recorded trees have no MTU (only verbs knows it): unknown is not a failure. */
    char *out = RUN("ib-mlx5", "devices", "mlx5_0:1", "mtu", "4096", UNMEETABLE_RATE);
    ok(ran(out, "mtu"), "mtu set: mtu check runs");
    ok(fails(out, "mtu", NULL) == 0 && judged(out, "mlx5_0 port 1"),
       "an unknown active MTU does not fail the mtu check, which had mlx5_0 port 1 to judge");
    free(out);
}

static void test_pcie(void)
{
    char *out = RUN("ib-mlx5", "devices", "mlx5_1", "pcie-at-capability", "yes");
    ok(ran(out, "pcie"), "pcie-at-capability = yes: pcie check runs");
    ok(fails(out, "pcie", "mlx5_1 PCIe link runs at 8 GT/s x8, below its capability 16 GT/s x16")
           == 1, "mlx5_1 trained at 8 GT/s x8 of 16 GT/s x16 fails");
    free(out);

    out = RUN("ib-mlx5", "devices", "mlx5_0", "pcie-at-capability", "yes", UNMEETABLE_RATE);
    ok(ran(out, "pcie") && fails(out, "pcie", NULL) == 0 && judged(out, "mlx5_0 port 1"),
       "mlx5_0 at its capability passes, with its port in the list pcie judged");
    free(out);

    out = RUN("ib-mlx5", "port-state", "any", "pcie-at-capability", "yes");
    ok(fails(out, "pcie", NULL) == 1 && fails(out, "pcie", "mlx5_1") == 1,
       "every device: one failure, for mlx5_1 only, once for a device of two ports");
    free(out);

    out = RUN("ib-mlx5", "devices", "mlx5_1", "pcie-at-capability", "no");
    ok(!began(out, "pcie") && fails(out, "pcie", NULL) == 0, "pcie-at-capability = no: not run");
    free(out);

    out = RUN("rxe", "devices", "rxe0", "pcie-at-capability", "yes", UNMEETABLE_RATE);
    ok(ran(out, "pcie") && fails(out, "pcie", NULL) == 0 && judged(out, "rxe0 port 1"),
       "a software device (no PCIe) passes the pcie check, which had rxe0 to judge");
    free(out);
}

static void test_modules(void)
{
    char *out = RUN("rxe", "devices", "rxe0", "modules", "no_such_module_xyz");
    ok(ran(out, "modules"), "modules set: modules check runs");
    ok(fails(out, "modules",
             "kernel module no_such_module_xyz is not loaded (hint: modprobe no_such_module_xyz)")
           == 1, "a module that does not exist fails, with the fix");
    free(out);

    /* Modules come from <sysfs_root>/module/NAME. */
    char root[512], mod[600];
    snprintf(root, sizeof(root), "%s/sys-mods", tmpdir);
    snprintf(mod, sizeof(mod), "%s/module", root);
    mkdir(root, 0755);
    mkdir(mod, 0755);
    snprintf(mod, sizeof(mod), "%s/module/ib_uverbs", root);
    ok(mkdir(mod, 0755) == 0, "a tree where ib_uverbs is loaded");
    out = RUN(root, "modules", "ib_uverbs, rdma_rxe");
    ok(fails(out, "modules", "rdma_rxe is not loaded") == 1, "the module missing from it fails");
    ok(fails(out, "modules", "ib_uverbs") == 0, "the module present in <sysfs>/module passes");
    free(out);
    rmdir(mod);
    out = RUN(root, "modules", "ib_uverbs, rdma_rxe");
    ok(fails(out, "modules", "ib_uverbs is not loaded") == 1,
       "its folder removed, the same module fails: the pass above looked at it");
    free(out);
    snprintf(mod, sizeof(mod), "%s/module", root);
    rmdir(mod);
    rmdir(root);
}

static void test_hugepages_and_memlock(void)
{
    char *out = RUN("rxe", "devices", "rxe0", "hugepages", "999999999");
    ok(ran(out, "hugepages"), "hugepages set: hugepages check runs");
    ok(fails(out, "hugepages", "huge pages free, the site requires 999999999") == 1,
       "a huge number of huge pages fails");
    free(out);

    out = RUN("rxe", "devices", "rxe0", "memlock", "unlimited");
    ok(ran(out, "memlock"), "memlock set: memlock check runs to its end (this node's limit)");
    ok(fails(out, "memlock", "cannot be read") == 0, "this node's memlock limit can be read");
    /* The oracle is this process's own limit, asked of the kernel. */
    struct rlimit rl;
    ok(getrlimit(RLIMIT_MEMLOCK, &rl) == 0, "getrlimit(RLIMIT_MEMLOCK)");
    char text[128];
    snprintf(text, sizeof(text), "the memlock limit is %llu KiB, the site requires unlimited",
             (unsigned long long)rl.rlim_cur / 1024);
    if (rl.rlim_cur == RLIM_INFINITY)
        ok(fails(out, "memlock", NULL) == 0, "this node's memlock is unlimited: passes");
    else
        ok(fails(out, "memlock", text) == 1 && fails(out, "memlock", NULL) == 1,
           "this node's memlock is %llu KiB: fails, naming it", (unsigned long long)rl.rlim_cur / 1024);
    free(out);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 4096);
    size_t n = fread(buf, 1, 4095, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_counters(void)
{
    char baseline[512];
    snprintf(baseline, sizeof(baseline), "%s/state/deep/counters.baseline", tmpdir);
    char *out = RUN("ib-mlx5", "devices", "mlx5_0:2", "port-state", "any", "counters", "yes",
                    "baseline", baseline);
    ok(ran(out, "counters") && fails(out, "counters", NULL) == 0,
       "first counter check: no baseline yet, passes");
    free(out);
    char *text = slurp(baseline);
    ok(text != NULL, "the baseline is written, its folders made");
    ok(text && strstr(text, "mlx5_0 2 link_downed 3\n") && strstr(text, "mlx5_0 2 symbol_error 0\n"),
       "the baseline holds the port's counters");
    free(text);

    out = RUN("ib-mlx5", "devices", "mlx5_0:2", "port-state", "any", "counters", "yes",
              "baseline", baseline);
    ok(ran(out, "counters") && fails(out, "counters", NULL) == 0,
       "second check with the same counters passes");
    free(out);

    FILE *f = fopen(baseline, "w");
    if (f) {
        fputs("mlx5_0 2 link_downed 1\nmlx5_0 2 symbol_error 0\n", f);
        fclose(f);
    }
    out = RUN("ib-mlx5", "devices", "mlx5_0:2", "port-state", "any", "counters", "yes",
              "baseline", baseline);
    ok(fails(out, "counters", "mlx5_0 port 2 link_downed grew by 2 since the last check") == 1 &&
           fails(out, "counters", NULL) == 1,
       "a counter above its baseline fails, by how much it grew");
    free(out);

    text = slurp(baseline);
    ok(text && strstr(text, "mlx5_0 2 link_downed 3\n"),
       "the failing check rewrote the baseline with the port's link_downed 3");
    free(text);
    out = RUN("ib-mlx5", "devices", "mlx5_0:2", "port-state", "any", "counters", "yes",
              "baseline", baseline);
    ok(ran(out, "counters") && fails(out, "counters", NULL) == 0,
       "the baseline was rewritten: the next check passes");
    free(out);

    out = RUN("ib-mlx5", "devices", "mlx5_0:1", "counters", "yes", "baseline",
              "/proc/no-such-dir/counters.baseline");
    ok(fails(out, "counters", "cannot write the counter baseline") == 1,
       "a baseline that cannot be written fails");
    free(out);

    char path[600];
    unlink(baseline);
    snprintf(path, sizeof(path), "%s/state/deep", tmpdir);
    rmdir(path);
    snprintf(path, sizeof(path), "%s/state", tmpdir);
    rmdir(path);
}

static void test_only_asked(void)
{
    char *out = RUN("rxe", "devices", "rxe0");
    is_str(out, "begin facts\nend facts\nbegin devices\nend devices\n",
           "only facts and devices run when nothing else is asked for");
    static const char *const optional[] = {"rate", "mtu", "pcie", "memlock", "hugepages",
                                           "modules", "counters", "qp"};
    for (size_t i = 0; i < sizeof(optional) / sizeof(*optional); i++)
        ok(!began(out, optional[i]), "check %s not asked for: no begin line", optional[i]);
    free(out);

    out = RUN("rxe", "devices", "rxe0", "counters", "no", "qp-test", "no");
    ok(!began(out, "counters") && !began(out, "qp"), "counters = no, qp-test = no: neither runs");
    free(out);

    out = RUN("rxe", "devices", "rxe0", "min-rate", "1");
    ok(began(out, "rate") && !began(out, "mtu"), "asking for rate runs rate, not mtu");
    free(out);
}

int main(void)
{
    snprintf(limit20, sizeof(limit20), "%.0f", scaled(20));
    /* The checks read this node's topology besides the recorded sysfs tree:
     * give hwloc the recorded one instead, so that runs are alike on every
     * machine (and hwloc's PCI plugin, whose libpciaccess leaks, stays out). */
    char topo[4096];
    snprintf(topo, sizeof(topo), "%s/tests/data/topology/2pkg-2numa.xml", srcdir());
    setenv("HWLOC_XMLFILE", topo, 1);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_devices();
    test_rate();
    test_mtu();
    test_pcie();
    test_modules();
    test_hugepages_and_memlock();
    test_counters();
    test_only_asked();
    rmdir(tmpdir);
    return done_testing();
}
