/* Unit tests of preflight that need no RDMA hardware: which ports of a
 * recorded node are tested and with which GID index, and the failures that
 * come before any verbs call (no port, a device the node lacks). The QP
 * loopback itself runs on real verbs in the Soft-RoCE VM (tests/vm). */
#include "facts/facts.h"
#include "preflight/preflight.h"
#include "tap.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int node(struct facts *f, const char *tree)
{
    const char *src = getenv("RDMARUN_SRCDIR");
    src = src && *src ? src : ".";
    char *sysfs = xasprintf("%s/tests/data/sysfs/%s", src, tree);
    char *topo = xasprintf("%s/tests/data/topology/2pkg-2numa.xml", src);
    /* A recorded topology too: this node's would load hwloc's PCI plugin,
     * which valgrind sees leak. */
    struct facts_sources s = {.sysfs_root = sysfs, .topology = topo};
    int rc = facts_gather(f, &s);
    free(sysfs);
    free(topo);
    return rc;
}

/* preflight_run with its stderr kept: a status of 0 is the same whether the
 * QP test passed, failed under warn or never ran; what it said tells them
 * apart. The text, to be freed, in *said. */
static int run_said(const struct plan *p, char **said)
{
    char path[] = "/tmp/test_preflight.XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    fflush(stderr);
    if (fd >= 0)
        dup2(fd, 2);
    int rc = preflight_run(p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    *said = xcalloc(1, 4096);
    if (fd >= 0) {
        ssize_t n = pread(fd, *said, 4095, 0);
        (*said)[n > 0 ? n : 0] = '\0';
        close(fd);
        unlink(path);
    }
    return rc;
}

int main(void)
{
    struct facts f;
    struct plan_port ports[MAX_PORTS];
    ok(node(&f, "ib-mlx5") == 0, "ib-mlx5 loads");
    size_t n = preflight_ports(&f, NULL, -1, ports, MAX_PORTS);
    ok(n == 2, "every ACTIVE port: mlx5_0:1 and mlx5_1:1, not the DOWN mlx5_0:2 (%zu)", n);
    ok(n == 2 && strcmp(ports[0].name, "mlx5_0:1") == 0 && ports[0].gid_index == -1,
       "InfiniBand: no GID index");
    n = preflight_ports(&f, "mlx5_0", -1, ports, MAX_PORTS);
    ok(n == 2 && ports[1].port->num == 2, "a device names all its ports, DOWN ones too");
    n = preflight_ports(&f, "mlx5_0:2", 5, ports, MAX_PORTS);
    ok(n == 1 && ports[0].gid_index == 5, "DEV:PORT, with the GID index asked for");
    n = preflight_ports(&f, "mlx5_9", -1, ports, MAX_PORTS);
    ok(n == 0, "a device the node lacks: no port");
    ok(preflight_qp_test(ports, 0, "such device or port", true) == RR_EX_UNAVAILABLE,
       "nothing to test fails with 69");
    struct plan_port unknown = {.name = "nosuch:1", .gid_index = -1};
    ok(preflight_qp_test(&unknown, 1, "port", true) == RR_EX_UNAVAILABLE,
       "a port the plan named but the node lacks fails with 69");
    facts_free(&f);

    ok(node(&f, "rxe") == 0, "rxe loads");
    n = preflight_ports(&f, NULL, -1, ports, MAX_PORTS);
    const struct gid_entry *g = n ? port_best_gid(ports[0].port) : NULL;
    /* tests/data/sysfs/rxe: rxe0 port 1's GIDs are 0 fe80:: (link-local),
     * 1 ::ffff:10.0.2.15, 2 fec0::, all RoCE v2: the routable IPv4 one is 1. */
    ok(n == 1 && ports[0].gid_index == 1 && g && g->index == 1,
       "RoCE: the routable RoCE v2 GID, index 1 (got %d)", n ? ports[0].gid_index : -1);
    facts_free(&f);

    /* A plan that does not verify, or expects no RDMA, runs no QP test. */
    struct plan p;
    memset(&p, 0, sizeof(p));
    p.verify.value = VERIFY_OFF;
    p.expect.value = EXPECT_RDMA;
    p.nports = 1;
    p.ports[0] = unknown;
    p.qp_test = true;
    /* The port is one the node lacks: a QP test that runs on it fails and
     * says "nosuch:1", so silence below means it did not run. */
    char *said;
    ok(run_said(&p, &said) == 0 && !*said, "verify off: no preflight (nothing said: %s)", said);
    free(said);
    p.verify.value = VERIFY_STRICT;
    p.expect.value = EXPECT_TCP;
    ok(run_said(&p, &said) == 0 && !*said, "expect tcp: no preflight (nothing said: %s)", said);
    free(said);
    p.expect.value = EXPECT_RDMA;
    ok(run_said(&p, &said) == RR_EX_UNAVAILABLE && strstr(said, "nosuch:1") &&
       strstr(said, "preflight QP test failed: not starting the job (verify = strict)"),
       "strict, RDMA expected, the test on nosuch:1 fails: refused");
    free(said);
    p.qp_test = false;
    ok(run_said(&p, &said) == 0 && !*said,
       "[check] qp-test = no: no QP test (nothing said: %s), the job starts", said);
    free(said);
    p.qp_test = true;
    p.verify.value = VERIFY_WARN;
    ok(run_said(&p, &said) == 0 && strstr(said, "nosuch:1") &&
       strstr(said, "preflight QP test failed; starting the job anyway (verify = warn)"),
       "warn: the test ran on nosuch:1 and failed, and the job starts anyway");
    free(said);
    return done_testing();
}
