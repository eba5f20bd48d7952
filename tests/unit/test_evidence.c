/* Unit tests of the evidence stage: each log family's line parser, the
 * verdict drawn from evidence, what a verdict meets, and the fixtures. */
#include "evidence/evidence.h"
#include "evidence/internal.h"
#include "evidence/stream.h"
#include "tap.h"
#include "util/msg.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

static const char *srcdir(void)
{
    const char *d = getenv("RDMARUN_SRCDIR");
    return d && *d ? d : ".";
}

static const struct log_family *family(const char *name)
{
    for (size_t i = 0; i < nlog_families; i++)
        if (strcmp(log_families[i].name, name) == 0)
            return &log_families[i];
    return NULL;
}

/* Offer one line to one family the way evidence_parse_line does: its
 * prefilter, then its parser. */
static bool offer(const struct log_family *fam, struct evidence *ev, const char *line,
                  const char *host, long pid)
{
    return fam->wanted(line) && fam->parse(ev, line, "test:1", host, pid);
}

static void test_family_table(void)
{
    ok(nlog_families == 10, "ten log families (got %zu)", nlog_families);
    ok(family("perftest") && family("perftest")->parse == bench_parse_line,
       "perftest's row (perftest and the ibv_*_pingpong examples) holds bench.c's parser");
    ok(family("ucx") && family("nccl") && family("ompi") && family("impi"),
       "the table has ucx, nccl, ompi (Open MPI's own reports) and impi (Intel MPI's)");
    ok(family("ucx")->parse == ucx_parse_line && family("ucx")->wanted == ucx_wanted,
       "ucx's row holds ucx's prefilter and parser");
    ok(family("nccl")->parse == nccl_parse_line && family("nccl")->wanted == nccl_wanted,
       "nccl's row holds nccl's prefilter and parser");
}

#define UCX_PREFIX "[1795952102.463937] [rxe-guest:2213 :0]      ucp_worker.c:1763 UCX  INFO  "

static void test_ucx_ep_cfg(void)
{
    const struct log_family *ucx = family("ucx");
    struct evidence ev = {0};
    ok(offer(ucx, &ev, UCX_PREFIX "  ep_cfg[1]: tag(rc_verbs/rxe0:1)\n", "file-host", 7),
       "ucx 1.13 ep_cfg line with rc_verbs is evidence");
    ok(ev.n == 1 && ev.obs[0].kind == PATH_RDMA, "ep_cfg rc_verbs is an RDMA path");
    ok(ev.n == 1 && ev.obs[0].scope == SCOPE_UNKNOWN, "ep_cfg does not say its scope");
    is_str(ev.n ? ev.obs[0].family : NULL, "ucx", "ep_cfg observation's family is ucx");
    is_str(ev.n ? ev.obs[0].transports : NULL, "rc_verbs/rxe0:1", "ep_cfg data lane kept");
    is_str(ev.n ? ev.obs[0].host : NULL, "rxe-guest", "host from the [ts] [host:pid:tid] prefix");
    ok(ev.n == 1 && ev.obs[0].pid == 2213, "pid from the prefix, not the default (got %ld)",
       ev.n ? ev.obs[0].pid : -9);
    is_str(ev.n ? ev.obs[0].where : NULL, "test:1", "where is kept");
    ok(offer(ucx, &ev, UCX_PREFIX "  ep_cfg[1]: tag(rc_verbs/rxe0:1)\n", "file-host", 7) &&
           ev.n == 1 && ev.obs[0].count == 2,
       "the same configuration again is counted, not stored again");
    evidence_free(&ev);
    ok(ev.n == 0 && ev.obs == NULL, "evidence_free leaves empty evidence");

    ok(offer(ucx, &ev, UCX_PREFIX "  ep_cfg[0]: tag(self/memory0 rc_verbs/rxe0:1)", NULL, -1) &&
           ev.n == 1 && ev.obs[0].kind == PATH_SELF && ev.obs[0].scope == SCOPE_SELF,
       "ep_cfg with self first is the self path, self scope");
    evidence_free(&ev);

    ok(!offer(ucx, &ev, UCX_PREFIX "  ep_cfg[1] tag(rc_verbs/rxe0:1)", NULL, -1) && ev.n == 0,
       "ep_cfg without ']:' is not evidence");
}

static void test_ucx_cfg_hash(void)
{
    const struct log_family *ucx = family("ucx");
    struct evidence ev = {0};
    ok(offer(ucx, &ev, UCX_PREFIX "0xe53a00 inter-node cfg#1 tag(tcp/eth0)", NULL, -1) &&
           ev.n == 1 && ev.obs[0].kind == PATH_TCP && ev.obs[0].scope == SCOPE_INTER,
       "inter-node cfg#1 tag(tcp/eth0) is TCP, inter-node");
    is_str(ev.n ? ev.obs[0].transports : NULL, "tcp/eth0", "inter-node tcp lane kept");
    evidence_free(&ev);

    ok(offer(ucx, &ev, UCX_PREFIX "0x1b2c3d0 intra-node cfg#1tag(sysv/memory cma/memory)", NULL,
             -1) && ev.n == 1 && ev.obs[0].kind == PATH_LOCAL && ev.obs[0].scope == SCOPE_INTRA,
       "intra-node cfg#1tag(sysv/memory ...) without a space is local, intra-node");
    is_str(ev.n ? ev.obs[0].transports : NULL, "sysv/memory cma/memory",
           "both shared-memory lanes kept");
    evidence_free(&ev);

    ok(offer(ucx, &ev, UCX_PREFIX "0xe53a00 self cfg#0 tag(self/memory)", NULL, -1) &&
           ev.n == 1 && ev.obs[0].kind == PATH_SELF && ev.obs[0].scope == SCOPE_SELF,
       "self cfg#0 tag(self/memory) is self");
    evidence_free(&ev);

    ok(offer(ucx, &ev, UCX_PREFIX "0xe53a00 self cfg#0 tag(self/memory cma/memory rc_mlx5/mlx5_0:1)",
             NULL, -1) && ev.n == 1 && ev.obs[0].kind == PATH_SELF,
       "self scope makes the path self whatever its lanes");
    evidence_free(&ev);

    ok(offer(ucx, &ev, UCX_PREFIX "ucp_context_0 inter-node cfg#2  rma_am(rc_mlx5/mlx5_2:1)  "
             "am(rc_mlx5/mlx5_2:1)  ka(ud_mlx5/mlx5_2:1)", NULL, -1) &&
           ev.n == 1 && ev.obs[0].kind == PATH_RDMA && ev.obs[0].scope == SCOPE_INTER,
       "newer form without a tag lane: am/rma_am lanes count");
    is_str(ev.n ? ev.obs[0].transports : NULL, "rc_mlx5/mlx5_2:1",
           "keepalive ud_mlx5 lane not among the data lanes");
    evidence_free(&ev);

    ok(!offer(ucx, &ev, UCX_PREFIX "0xe53a00 remote cfg#1 tag(tcp/eth0)", NULL, -1) && ev.n == 0,
       "cfg# after an unknown scope word is not evidence");
}

static void test_ucx_lanes(void)
{
    const struct log_family *ucx = family("ucx");
    struct evidence ev = {0};
    ok(offer(ucx, &ev, UCX_PREFIX "  ep_cfg[1]: tag(rc_verbs/mlx5_0:1) ka(tcp/eth0)", NULL, -1) &&
           ev.n == 1 && ev.obs[0].kind == PATH_RDMA,
       "a tcp keepalive lane beside an RDMA data lane is RDMA, not TCP");
    is_str(ev.n ? ev.obs[0].transports : NULL, "rc_verbs/mlx5_0:1",
           "the keepalive lane is not a data transport");
    evidence_free(&ev);

    ok(!offer(ucx, &ev, UCX_PREFIX "  ep_cfg[2]: ka(tcp/eth0)", NULL, -1) && ev.n == 0,
       "keepalive ka(tcp/eth0) lanes alone are not tcp data evidence");
    ok(!offer(ucx, &ev, UCX_PREFIX "0x1 inter-node cfg#3 ka(tcp/eth0) wireup(tcp/eth0)", NULL, -1)
           && ev.n == 0,
       "only non-data lanes on a cfg# line: not evidence");

    ok(offer(ucx, &ev, UCX_PREFIX "  ep_cfg[1]: tag(tcp/ib0) am(tcp/ib0) ka(tcp/ib0)", NULL, -1) &&
           ev.n == 1 && ev.obs[0].kind == PATH_TCP,
       "tcp/ib0 (TCP over IPoIB) is tcp, not RDMA");
    is_str(ev.n ? ev.obs[0].transports : NULL, "tcp/ib0", "a lane repeated is listed once");
    evidence_free(&ev);

    ok(offer(ucx, &ev, UCX_PREFIX "  ep_cfg[1]: tag(rc_mlx5/mlx5_0:1 tcp/eth0)", NULL, -1) &&
           ev.n == 1 && ev.obs[0].kind == PATH_TCP,
       "any tcp data lane makes the path TCP, even beside RDMA");
    evidence_free(&ev);
}

static void test_ucx_origin_and_rejects(void)
{
    const struct log_family *ucx = family("ucx");
    struct evidence ev = {0};
    ok(offer(ucx, &ev, "    ep_cfg[1]: tag(rc_mlx5/mlx5_0:1) rma_bw(rc_mlx5/mlx5_0:1)", "node7",
             4242) && ev.n == 1,
       "a pasted ep_cfg line without prefix is evidence");
    is_str(ev.n ? ev.obs[0].host : NULL, "node7", "no prefix: host from the defaults");
    ok(ev.n == 1 && ev.obs[0].pid == 4242, "no prefix: pid from the defaults");
    is_str(ev.n ? ev.obs[0].line : NULL, "ep_cfg[1]: tag(rc_mlx5/mlx5_0:1) rma_bw(rc_mlx5/mlx5_0:1)",
           "the example line is kept trimmed");
    evidence_free(&ev);

    ok(offer(ucx, &ev, "ep_cfg[1]: tag(rc_verbs/rxe0:1)", NULL, -1) && ev.n == 1 &&
           ev.obs[0].host == NULL && ev.obs[0].pid == -1,
       "no prefix and no defaults: host NULL, pid -1");
    evidence_free(&ev);

    const char *version = "[1795952102.401000] [rxe-guest:2213 :0] ucp_context.c:1849 UCX  INFO  "
                          "Version 1.13.1 (loaded from /lib/x86_64-linux-gnu/libucp.so.0)";
    ok(ucx->wanted(version) && !ucx->parse(&ev, version, "test:1", NULL, -1) && ev.n == 0,
       "UCX's version line is not evidence");
    ok(ev.versions.n == 1 && strcmp(ev.versions.v[0], "UCX 1.13.1") == 0,
       "but its version is kept (%s)", ev.versions.n ? ev.versions.v[0] : "none");
    evidence_free(&ev);
    ok(!ucx->wanted("plain text, nothing to see") &&
           !ucx->parse(&ev, "plain text, nothing to see", "test:1", NULL, -1),
       "ucx prefilter and parser both reject plain text");
    ok(!ucx->wanted("") && !ucx->parse(&ev, "", "test:1", NULL, -1), "empty line rejected");
    ok(ucx->wanted(UCX_PREFIX "  ep_cfg[1]: tag(rc_verbs/rxe0:1)") &&
           ucx->wanted(UCX_PREFIX "0x1 inter-node cfg#1 tag(tcp/eth0)") &&
           ucx->wanted(UCX_PREFIX "0x1 intra-node cfg#1tag(sysv/memory)"),
       "ucx prefilter wants every evidence form");
    ok(ev.n == 0, "rejected lines recorded nothing");
    evidence_free(&ev);
}

#define NCCL_PREFIX "gpu01:12345:12402 [0] NCCL INFO "

static void test_nccl(void)
{
    const struct log_family *nccl = family("nccl");
    struct evidence ev = {0};
    ok(offer(nccl, &ev, NCCL_PREFIX "Using network IB\n", "default", 1) && ev.n == 1 &&
           ev.obs[0].kind == PATH_RDMA && ev.obs[0].scope == SCOPE_UNKNOWN,
       "Using network IB is RDMA, scope unknown");
    is_str(ev.n ? ev.obs[0].transports : NULL, "network IB", "network choice kept as transport");
    is_str(ev.n ? ev.obs[0].family : NULL, "nccl", "nccl observation's family is nccl");
    is_str(ev.n ? ev.obs[0].host : NULL, "gpu01", "host from the host:pid:tid prefix");
    ok(ev.n == 1 && ev.obs[0].pid == 12345, "pid from the host:pid:tid prefix");
    evidence_free(&ev);

    ok(offer(nccl, &ev, NCCL_PREFIX "Using network Socket", NULL, -1) && ev.n == 1 &&
           ev.obs[0].kind == PATH_TCP,
       "Using network Socket is TCP");
    evidence_free(&ev);

    ok(offer(nccl, &ev, "gpu03:777:777 [0] NCCL INFO NET/IB : No device found.", NULL, -1),
       "NET/IB : No device found is evidence");
    ok(ev.nccl_no_device && ev.n == 0, "No device found sets nccl_no_device, no observation");
    evidence_free(&ev);
    ok(!ev.nccl_no_device, "evidence_free clears nccl_no_device");
    /* Alone (strict stops at it, before "Using network Socket"): the process named. */
    offer(nccl, &ev, "gpu03:777:777 [0] NCCL INFO NET/IB : No device found.", "gpu03", 777);
    char *sum = verdict_summary(&ev, evidence_verdict(&ev));
    is_str(sum, "FALLBACK: process 777 on gpu03: NCCL found no RDMA device (NET/IB : No device "
           "found) and uses sockets between nodes", "No device found alone: a fallback, its process named");
    free(sum);
    evidence_free(&ev);

    ok(offer(nccl, &ev, NCCL_PREFIX "Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA", NULL,
             -1) && ev.n == 1 && ev.obs[0].kind == PATH_RDMA && ev.obs[0].scope == SCOPE_INTER,
       "channel via NET/IB/0/GDRDMA is inter-node RDMA");
    is_str(ev.n ? ev.obs[0].transports : NULL, "NET/IB/0/GDRDMA", "channel transport kept");
    evidence_free(&ev);

    ok(offer(nccl, &ev, NCCL_PREFIX "Channel 00 : 0[0] -> 1[0] via NET/IBext_v8/4", NULL, -1) &&
           ev.n == 1 && ev.obs[0].kind == PATH_RDMA,
       "a net plugin channel via NET/IBext_v8 is RDMA");
    evidence_free(&ev);

    ok(offer(nccl, &ev, NCCL_PREFIX "Ring 00 : 0 -> 1 [send] via NET/Socket/0", NULL, -1) &&
           ev.n == 1 && ev.obs[0].kind == PATH_TCP && ev.obs[0].scope == SCOPE_INTER,
       "old Ring via NET/Socket/0 is inter-node TCP");
    evidence_free(&ev);

    ok(offer(nccl, &ev, "gpu07:7777:7777 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
             NULL, -1) && ev.n == 1 && ev.obs[0].kind == PATH_LOCAL &&
           ev.obs[0].scope == SCOPE_INTRA,
       "channel via P2P/IPC is local, intra-node");
    ok(offer(nccl, &ev, "gpu07:7777:7777 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via "
             "SHM/direct/direct", NULL, -1) && ev.n == 2 && ev.obs[1].kind == PATH_LOCAL,
       "channel via SHM/direct/direct is local");
    evidence_free(&ev);

    const char *bootstrap = "gpu04:4444:4444 [0] NCCL INFO NET/Socket : Using [0]ib0:10.0.0.4<0>";
    ok(nccl->wanted(bootstrap) && !nccl->parse(&ev, bootstrap, "test:1", NULL, -1) && ev.n == 0,
       "NET/Socket : Using alone (the bootstrap) is not evidence");
    ok(!nccl->parse(&ev, NCCL_PREFIX "Channel 00 : 0 -> 1 via NVL/whatever", "test:1", NULL, -1),
       "a channel via an unknown transport is not evidence");
    ok(!nccl->wanted("plain text, nothing to see") &&
           !nccl->parse(&ev, "plain text, nothing to see", "test:1", NULL, -1),
       "nccl prefilter and parser both reject plain text");
    ok(nccl->wanted(NCCL_PREFIX "Using network IB") &&
           nccl->wanted(NCCL_PREFIX "NET/IB : No device found.") &&
           nccl->wanted(NCCL_PREFIX "Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA"),
       "nccl prefilter wants every evidence form");
    ok(!ev.nccl_no_device && ev.n == 0, "rejected nccl lines recorded nothing");

    ok(offer(nccl, &ev, "NCCL INFO Using network IB", "fromname", 99) && ev.n == 1,
       "nccl line without host:pid:tid is still evidence");
    is_str(ev.n ? ev.obs[0].host : NULL, "fromname", "no nccl prefix: host from the defaults");
    ok(ev.n == 1 && ev.obs[0].pid == 99, "no nccl prefix: pid from the defaults");
    evidence_free(&ev);
}

static void test_parse_line_dispatch(void)
{
    struct evidence ev = {0};
    ok(evidence_parse_line(&ev, UCX_PREFIX "  ep_cfg[1]: tag(rc_verbs/rxe0:1)", "a:1", NULL, -1) &&
           ev.n == 1 && strcmp(ev.obs[0].family, "ucx") == 0,
       "evidence_parse_line hands a UCX line to ucx");
    ok(evidence_parse_line(&ev, NCCL_PREFIX "Using network IB", "a:2", NULL, -1) && ev.n == 2 &&
           strcmp(ev.obs[1].family, "nccl") == 0,
       "evidence_parse_line hands a NCCL line to nccl");
    ok(!evidence_parse_line(&ev, "nothing here", "a:3", NULL, -1) && ev.n == 2,
       "evidence_parse_line: a plain line is not evidence");
    ok(ev.lines == 3, "evidence_parse_line counts every line it is given (got %llu)", ev.lines);
    evidence_free(&ev);
}

/* Evidence from lines, then its verdict. */
static enum verdict verdict_of(const char *const *lines)
{
    struct evidence ev = {0};
    for (size_t i = 0; lines[i]; i++)
        evidence_parse_line(&ev, lines[i], "v:1", "h", 1);
    enum verdict v = evidence_verdict(&ev);
    evidence_free(&ev);
    return v;
}

static void test_verdict(void)
{
    const char *rdma[] = {UCX_PREFIX "0x1 self cfg#0 tag(self/memory)",
                          UCX_PREFIX "0x1 intra-node cfg#1 tag(sysv/memory)",
                          UCX_PREFIX "0x1 inter-node cfg#2 tag(rc_mlx5/mlx5_0:1)", NULL};
    ok(verdict_of(rdma) == VERDICT_RDMA, "RDMA inter-node beside local paths: rdma");
    const char *fallback[] = {UCX_PREFIX "0x1 inter-node cfg#2 tag(rc_mlx5/mlx5_0:1)",
                              UCX_PREFIX "0x1 inter-node cfg#3 tag(tcp/eth0)", NULL};
    ok(verdict_of(fallback) == VERDICT_FALLBACK, "one TCP inter-node path among RDMA: fallback");
    const char *unscoped_tcp[] = {"ep_cfg[1]: tag(tcp/eth0)", NULL};
    ok(verdict_of(unscoped_tcp) == VERDICT_FALLBACK, "TCP of unknown scope may leave: fallback");
    const char *local[] = {UCX_PREFIX "0x1 self cfg#0 tag(self/memory)",
                           UCX_PREFIX "0x1 intra-node cfg#1tag(sysv/memory cma/memory)", NULL};
    ok(verdict_of(local) == VERDICT_LOCAL, "self and shared memory only: local");
    const char *intra_tcp[] = {UCX_PREFIX "0x1 intra-node cfg#1 tag(tcp/lo)", NULL};
    ok(verdict_of(intra_tcp) == VERDICT_LOCAL, "TCP within one node is not a fallback: local");
    /* UCX 1.18's own line for a tcp,self job on one node: the summary says TCP. */
    struct evidence ev18 = {0};
    evidence_parse_line(&ev18, "[1796117648.571256] [vm:8687 :0]      ucp_worker.c:1903 UCX  INFO "
                        "   ucp_context_0 intra-node cfg#1 tag(tcp/lo tcp/eth0)", "t:1", NULL, -1);
    char *sum = verdict_summary(&ev18, evidence_verdict(&ev18));
    ok(evidence_verdict(&ev18) == VERDICT_LOCAL && strstr(sum, "over TCP (tcp/lo tcp/eth0)") &&
       !strstr(sum, "on shared memory"), "intra-node TCP is never called shared memory: %s", sum);
    free(sum);
    evidence_free(&ev18);
    const char *nothing[] = {"hello", "UCX  INFO  Version 1.13.1", NULL};
    ok(verdict_of(nothing) == VERDICT_UNKNOWN, "no evidence lines: unknown");
    struct evidence empty = {0};
    ok(evidence_verdict(&empty) == VERDICT_UNKNOWN, "empty evidence: unknown");

    const char *no_dev[] = {"g:1:1 [0] NCCL INFO NET/IB : No device found.", NULL};
    ok(verdict_of(no_dev) == VERDICT_FALLBACK, "nccl no device, no RDMA channel: fallback");
    const char *no_dev_local[] = {"g:1:1 [0] NCCL INFO NET/IB : No device found.",
                                  "g:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
                                  NULL};
    ok(verdict_of(no_dev_local) == VERDICT_LOCAL,
       "nccl no device, and its channels all within the node: local (the sockets would carry "
       "only what goes between nodes, and no channel does)");
    const char *no_dev_rdma[] = {"g:1:1 [0] NCCL INFO NET/IB : No device found.",
                                 "g:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via "
                                 "NET/IB/0/GDRDMA", NULL};
    ok(verdict_of(no_dev_rdma) == VERDICT_RDMA, "nccl no device but an RDMA channel: rdma");
}

static void test_verdict_meets(void)
{
    /* The expectation's truth table (rdmarun(1), VERIFY): a network
     * expectation is met by its own classes between nodes or by local only;
     * rdma takes every fabric class but GPUDirect-TCPX; no evidence and a
     * degraded tier meet none but any. */
    static const struct {
        enum verdict v;
        enum path_class c;
        enum expectation e;
        bool met;
    } table[] = {
        {VERDICT_RDMA, PC_RDMA, EXPECT_RDMA, true},
        {VERDICT_RDMA, PC_EFA, EXPECT_RDMA, true},
        {VERDICT_RDMA, PC_CXI, EXPECT_RDMA, true},
        {VERDICT_RDMA, PC_OPX, EXPECT_RDMA, true},
        {VERDICT_RDMA, PC_GPUDIRECT_TCP, EXPECT_RDMA, false},
        {VERDICT_RDMA, PC_GPUDIRECT_TCP, EXPECT_GPUDIRECT_TCP, true},
        {VERDICT_RDMA, PC_RDMA, EXPECT_EFA, false},
        {VERDICT_RDMA, PC_EFA, EXPECT_EFA, true},
        {VERDICT_RDMA, PC_CXI, EXPECT_CXI, true},
        {VERDICT_RDMA, PC_OPX, EXPECT_OPX, true},
        {VERDICT_FALLBACK, PC_TCP, EXPECT_RDMA, false},
        {VERDICT_FALLBACK, PC_TCP, EXPECT_EFA, false},
        {VERDICT_FALLBACK, PC_TCP, EXPECT_GPUDIRECT_TCP, false},
        {VERDICT_LOCAL, PC_SHM, EXPECT_RDMA, true},
        {VERDICT_LOCAL, PC_SHM, EXPECT_EFA, true},
        {VERDICT_UNKNOWN, PC_UNKNOWN, EXPECT_RDMA, false},
        {VERDICT_DEGRADED, PC_SHM, EXPECT_RDMA, false},
        {VERDICT_DEGRADED, PC_SHM, EXPECT_LOCAL, false},
        {VERDICT_DEGRADED, PC_SHM, EXPECT_ANY, true},
        {VERDICT_RDMA, PC_RDMA, EXPECT_TCP, false},
        {VERDICT_FALLBACK, PC_TCP, EXPECT_TCP, true},
        {VERDICT_LOCAL, PC_TCP, EXPECT_TCP, true},
        {VERDICT_UNKNOWN, PC_UNKNOWN, EXPECT_TCP, false},
        {VERDICT_RDMA, PC_RDMA, EXPECT_LOCAL, false},
        {VERDICT_FALLBACK, PC_TCP, EXPECT_LOCAL, false},
        {VERDICT_LOCAL, PC_NVLINK, EXPECT_LOCAL, true},
        {VERDICT_UNKNOWN, PC_UNKNOWN, EXPECT_LOCAL, false},
        {VERDICT_RDMA, PC_RDMA, EXPECT_ANY, true},
        {VERDICT_FALLBACK, PC_TCP, EXPECT_ANY, true},
        {VERDICT_LOCAL, PC_SHM, EXPECT_ANY, true},
        {VERDICT_UNKNOWN, PC_UNKNOWN, EXPECT_ANY, true},
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(*table); i++)
        ok(verdict_meets(table[i].v, table[i].c, table[i].e) == table[i].met,
           "verdict %s on %s %s expect %s", verdict_name(table[i].v),
           path_class_name(table[i].c), table[i].met ? "meets" : "does not meet",
           expectation_names[table[i].e]);
}

static void test_status_and_names(void)
{
    ok(verdict_status(VERDICT_RDMA) == 0, "status of rdma is 0");
    ok(verdict_status(VERDICT_FALLBACK) == 80 && RR_EX_FALLBACK == 80, "status of fallback is 80");
    ok(verdict_status(VERDICT_LOCAL) == 81 && RR_EX_LOCAL == 81, "status of local is 81");
    ok(verdict_status(VERDICT_UNKNOWN) == 82 && RR_EX_NO_EVIDENCE == 82, "status of unknown is 82");
    is_str(verdict_name(VERDICT_RDMA), "rdma", "verdict_name rdma");
    is_str(verdict_name(VERDICT_FALLBACK), "fallback", "verdict_name fallback");
    is_str(verdict_name(VERDICT_LOCAL), "local", "verdict_name local");
    is_str(verdict_name(VERDICT_UNKNOWN), "unknown", "verdict_name unknown");
    /* The words rdmarun(1) documents for --json's "verdict" and
     * "reason_code" (man/rdmarun.1.in, rdmarun verify), in enum order. */
    static const char *const verdicts[] = {"rdma", "fallback", "local", "unknown", "degraded"};
    size_t n = 0;
    while (verdict_names[n])
        n++;
    ok(n == 5, "verdict_names: five names, NULL-terminated (got %zu)", n);
    ok(verdict_status(VERDICT_DEGRADED) == 84 && RR_EX_DEGRADED == 84, "status of degraded is 84");
    for (size_t i = 0; i < n && i < 5; i++)
        is_str(verdict_names[i], verdicts[i], "verdict_names[%zu] is %s, as rdmarun(1) says", i, verdicts[i]);
    static const char *const reasons[] = {
        "none", /* WHY_NONE: there is a verdict, never printed */
        "no_evidence", "no_peer", "aborted_before_transport", "rdma_failed",
        "selected_only", "no_inter_node_lines", "no_data_lines", "unknown_network"};
    const size_t nreasons = sizeof(reasons) / sizeof(*reasons);
    n = 0;
    while (unknown_reason_names[n])
        n++;
    ok(n == nreasons, "unknown_reason_names: %zu names, NULL-terminated (got %zu)", nreasons, n);
    for (size_t i = 0; i < n && i < nreasons; i++)
        is_str(unknown_reason_names[i], reasons[i], "reason_code %zu is %s, as rdmarun(1) says", i, reasons[i]);
    is_str(unknown_reason_names[WHY_NO_PEER], "no_peer", "WHY_NO_PEER is no_peer");
    is_str(unknown_reason_names[WHY_UNKNOWN_NETWORK], "unknown_network",
           "WHY_UNKNOWN_NETWORK is unknown_network");
}

static void test_fixtures(void)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/tests/data/logs/EXPECTED", srcdir());
    FILE *f = fopen(path, "r");
    ok(f != NULL, "EXPECTED list of fixtures is readable (%s)", path);
    if (!f)
        return;
    char line[1024], file[256], want[64];
    int fixtures = 0, listed = 0;
    struct strvec names = {0};   /* the files EXPECTED names */
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        listed++;
        if (sscanf(line, "%255s %63s", file, want) != 2)
            continue;
        sv_push(&names, file);
        snprintf(path, sizeof(path), "%s/tests/data/logs/%s", srcdir(), file);
        struct evidence ev = {0};
        int rc = evidence_read(&ev, path);
        enum verdict v = evidence_verdict(&ev);
        /* "unknown/no_peer": the verdict, then the reason it is unknown;
         * "rdma@efa": then the path class it rests on */
        char got[128];
        snprintf(got, sizeof(got), "%s%s%s%s%s", verdict_name(v), strchr(want, '/') ? "/" : "",
                 strchr(want, '/') ? unknown_reason_names[evidence_why(&ev)] : "",
                 strchr(want, '@') ? "@" : "",
                 strchr(want, '@') ? path_class_name(evidence_class(&ev)) : "");
        ok(rc == 0 && ev.files == 1 && strcmp(got, want) == 0,
           "fixture %s: verdict %s (got %s, rc %d)", file, want, got, rc);
        evidence_free(&ev);
        fixtures++;
    }
    fclose(f);
    ok(fixtures == listed && fixtures > 0, "every line of EXPECTED names a file and a verdict "
       "(%d of %d lines)", fixtures, listed);
    /* The folder itself is the oracle of how many fixtures there are: every
     * file in it but EXPECTED has exactly one line, and no line names a
     * file that is not there (a fixture added without a verdict is caught). */
    snprintf(path, sizeof(path), "%s/tests/data/logs", srcdir());
    DIR *d = opendir(path);
    ok(d != NULL, "the fixture folder can be listed");
    size_t present = 0, unlisted = 0;
    bool *seen = xcalloc(names.n + 1, sizeof(*seen));
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "EXPECTED") == 0)
            continue;
        present++;
        size_t times = 0;
        for (size_t i = 0; i < names.n; i++)
            if (strcmp(names.v[i], e->d_name) == 0) {
                times++;
                seen[i] = true;
            }
        if (times != 1) {
            unlisted++;
            printf("# fixture %s has %zu lines in EXPECTED\n", e->d_name, times);
        }
    }
    if (d)
        closedir(d);
    size_t missing = 0;
    for (size_t i = 0; i < names.n; i++)
        if (!seen[i]) {
            missing++;
            printf("# EXPECTED names %s, which is not in the folder\n", names.v[i]);
        }
    ok(present > 0 && unlisted == 0 && missing == 0 && present == names.n,
       "EXPECTED and the folder agree: %zu files, %zu lines, %zu unlisted, %zu missing", present,
       names.n, unlisted, missing);
    free(seen);
    sv_free(&names);
}

static void test_read_files(void)
{
    char dir[] = "/tmp/test_evidence.XXXXXX";
    ok(mkdtemp(dir) != NULL, "a temporary evidence directory");
    char path[256];
    snprintf(path, sizeof(path), "%s/ucx.nodeA.99.log", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("banner line\n    ep_cfg[1]: tag(rc_verbs/rxe0:1)\n", f);
        fclose(f);
    }
    struct evidence ev = {0};
    ok(evidence_read(&ev, path) == 0 && ev.n == 1, "a ucx.HOST.PID.log file is read");
    is_str(ev.n ? ev.obs[0].host : NULL, "nodeA", "prefix-less line: host from the file name");
    ok(ev.n == 1 && ev.obs[0].pid == 99, "prefix-less line: pid from the file name");
    ok(ev.lines == 2, "both lines counted (got %llu)", ev.lines);
    evidence_free(&ev);

    char other[256];
    snprintf(other, sizeof(other), "%s/nccl.nodeB.5.log", dir);
    f = fopen(other, "w");
    if (f) {
        fputs("gpu:5:5 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] via NET/Socket/0\n", f);
        fclose(f);
    }
    ok(evidence_read(&ev, dir) == 0 && ev.files == 2 && ev.n == 2,
       "a directory: every file in it is read");
    ok(evidence_verdict(&ev) == VERDICT_FALLBACK, "directory verdict: one socket channel falls back");
    evidence_free(&ev);

    snprintf(path + strlen(dir), sizeof(path) - strlen(dir), "/absent.log");
    fprintf(stderr, "# expect an error about %s below\n", path);
    ok(evidence_read(&ev, path) == RR_EX_NOINPUT && ev.files == 0, "a missing file: NOINPUT");
    evidence_free(&ev);

    /* A host name with dots: the pid is the last part of the name. */
    char dotted[256];
    snprintf(dotted, sizeof(dotted), "%s/ucx.c01.cluster.local.1234.log", dir);
    f = fopen(dotted, "w");
    if (f) {
        fputs("    ep_cfg[1]: tag(rc_verbs/rxe0:1)\n", f);
        fclose(f);
    }
    ok(evidence_read(&ev, dotted) == 0 && ev.n == 1, "a dotted host's log is read");
    is_str(ev.n ? ev.obs[0].host : NULL, "c01.cluster.local", "the host keeps its dots");
    ok(ev.n == 1 && ev.obs[0].pid == 1234, "the pid is the name's last part");
    evidence_free(&ev);
    unlink(dotted);

    /* A NUL byte inside a line hides neither that line's end nor the next line. */
    char nul[256];
    snprintf(nul, sizeof(nul), "%s/ucx.nodeC.7.log", dir);
    f = fopen(nul, "w");
    if (f) {
        fwrite("junk\0more\n", 1, 10, f);
        fputs("    ep_cfg[1]: tag(rc_verbs/rxe0:1)\n", f);
        fclose(f);
    }
    ok(evidence_read(&ev, nul) == 0 && ev.n == 1 && evidence_verdict(&ev) == VERDICT_RDMA,
       "the line after one with a NUL byte is still read");
    evidence_free(&ev);
    unlink(nul);

    snprintf(path, sizeof(path), "%s/ucx.nodeA.99.log", dir);
    unlink(path);
    unlink(other);
    rmdir(dir);
}

/* The live filter: what passes to the job's output, what becomes evidence. */
static char *passed_through(struct evidence_stream *st, const char *const *chunks, size_t n,
                            size_t *found)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    st->out = fd[1];
    *found = 0;
    for (size_t i = 0; i < n; i++)
        *found += stream_feed(st, chunks[i], strlen(chunks[i]));
    stream_end(st);
    close(fd[1]);
    static char buf[8192];
    ssize_t r = read(fd[0], buf, sizeof(buf) - 1);
    close(fd[0]);
    buf[r > 0 ? r : 0] = '\0';
    return buf;
}

static void test_stream(void)
{
    static struct evidence_stream st;
    struct evidence ev = {0};
    struct evidence_logs logs = {0};
    st = (struct evidence_stream){.ev = &ev, .logs = &logs, .take_ucx = true, .take_nccl = true};
    const char *chunks[] = {
        "rank 0 of 2: hello\n[1795.1] [c01:41 :0]     ucp_worker.c:1888 UCX  INFO  ep_cfg[1]: ",
        "tag(tcp/eth0);\n[1795.2] [c01:41 :0]  ucp_context.c:1 UCX  WARN  something odd\n",
        "[1,1]<stderr>:[1795.3] [c02:42 :0] ucp_worker.c:1888 UCX  INFO  ep_cfg[0]: tag(rc_verbs/mlx5_0:1);\n",
        "[1795.4] [c02:42 :0] rdmacm_cm.c:928  UCX  DIAG  rdma_create_event_channel failed\n",
        "c02:42:42 [0] NCCL INFO Using network IB\n",
        "c02:42:42 [0] NCCL WARN NET/IB : something\n",
        "rdmarun-placement: rank 0 on c01: PUs 0-3\n",
        "a prompt> ",
    };
    size_t found;
    const char *out = passed_through(&st, chunks, sizeof(chunks) / sizeof(*chunks), &found);
    is_str(out, "rank 0 of 2: hello\n[1795.2] [c01:41 :0]  ucp_context.c:1 UCX  WARN  something "
                "odd\nc02:42:42 [0] NCCL WARN NET/IB : something\na prompt> ",
           "the job's lines and UCX's and NCCL's warnings pass, in order, unchanged; a "
           "line cut between reads is judged whole; the INFO and DIAG lines rdmarun asked "
           "for and the helper's placement are taken out");
    ok(found == 3 && ev.nprocs == 2, "three lines were evidence, from 2 processes (%zu, %llu)",
       found, ev.nprocs);
    ok(evidence_verdict(&ev) == VERDICT_FALLBACK, "c01's endpoint on TCP: a fallback");
    const struct observation *o = &ev.obs[0];
    ok(o->host && strcmp(o->host, "c01") == 0 && o->pid == 41 &&
       strcmp(o->where, "ucx.log:1") == 0,
       "the process, host and line come from the report itself (%s:%ld, %s)",
       o->host ? o->host : "?", o->pid, o->where);
    ok(ev.n >= 2 && ev.obs[1].host && strcmp(ev.obs[1].host, "c02") == 0,
       "Open MPI's --tag-output prefix is looked past");
    long pids[4];
    ok(evidence_pids_on(&ev, "c02", pids, 4) == 1 && pids[0] == 42,
       "the pids of one host's reporting processes, for rdma res");
    evidence_free(&ev);

    /* The user set UCX_LOG_LEVEL: every line is theirs; evidence is still read. */
    st = (struct evidence_stream){.ev = &ev, .logs = &logs};
    const char *mine[] = {"[1795.1] [c01:41 :0] ucp_worker.c:1888 UCX  INFO  ep_cfg[1]: "
                          "tag(sysv/memory);\n"};
    out = passed_through(&st, mine, 1, &found);
    ok(strstr(out, "ep_cfg[1]") && found == 1 && evidence_verdict(&ev) == VERDICT_LOCAL,
       "with the user's own log level, the INFO lines stay in the output and count");
    evidence_free(&ev);

    /* UCX_PROTO_INFO's tables, read live: the user's lines (they pass) and
     * evidence, each row under its own process's header though two
     * processes' tables interleave. */
    st = (struct evidence_stream){.ev = &ev, .logs = &logs, .take_ucx = true};
    const char *tables[] = {
        "[1735.1] [a:1:0]   | ucp_context_0 intra-node cfg#1 | tagged message |\n",
        "[1735.2] [b:2:0]   | ucp_context_0 inter-node cfg#1 | tagged message |\n",
        "[1735.3] [a:1:0]   |  0..inf | eager short | tcp/lo |\n",
        "[1735.4] [b:2:0]   |  0..inf | eager short | rc_mlx5/mlx5_0:1/path0 |\n",
    };
    out = passed_through(&st, tables, 4, &found);
    ok(strstr(out, "tcp/lo") && strstr(out, "rc_mlx5") && found == 2 &&
           evidence_verdict(&ev) == VERDICT_RDMA,
       "live tables pass through and count: a's tcp/lo rows are its intra-node table's, b's "
       "rc_mlx5 its inter-node one's (found %zu, %s)", found, verdict_name(evidence_verdict(&ev)));
    evidence_free(&ev);

    /* A line longer than the buffer is the job's. */
    st = (struct evidence_stream){.ev = &ev, .logs = &logs, .take_ucx = true};
    static char big[STREAM_BUF + 100];
    memset(big, 'x', sizeof(big) - 2);
    big[sizeof(big) - 2] = '\n';
    FILE *sink = tmpfile();
    if (sink) {
        st.out = fileno(sink);
        stream_feed(&st, big, strlen(big));
        stream_flush(&st);
        long total = ftell(sink) >= 0 ? (long)lseek(fileno(sink), 0, SEEK_END) : -1;
        fclose(sink);
        ok(total == (long)strlen(big), "a %zu-byte line passes whole (%ld bytes out)",
           strlen(big), total);
    }
    evidence_free(&ev);
}

/* Hydra's output with every piece labelled (mpiexec -prepend-pattern, as
 * uiu.c's stdoe_cb writes it: the label before each segment up to a
 * newline or the end of a piece): rank 0's UCX line is cut by rank 1's
 * whole one (MPICH's ranks write unbuffered, glibc 2.37+ in 128-byte
 * pieces), mpiexec writes a line of its own, rank 0 ends on a prompt. */
#define LBL "[rdmarun:0a1b "
static const char *const labelled[] = {
    LBL "0][1.1] [h:10:0]      ucp_worker.c:1903 UCX  INFO    ucp_context_0 intra-node cfg#1 "
        "tag(sysv/memory cma/memory) ",
    LBL "1][1.2] [h:11:0]      ucp_worker.c:1903 UCX  INFO    ucp_context_0 intra-node cfg#1 "
        "tag(sysv/memory cma/memory)  rma(sysv/memory)\n" LBL "1]rank 1 says hi\n",
    LBL "0] rma(sysv/memory posix/memory)  am(sysv/memory cma/memory)\n",
    "[mpiexec@h] a line of mpiexec's own\n",
    LBL "0]a prompt> ",
};

static void test_stream_labelled(void)
{
    static struct evidence_stream st;
    struct evidence ev = {0};
    struct evidence_logs logs = {0};
    size_t found;
    const char *want = "rank 1 says hi\n[mpiexec@h] a line of mpiexec's own\na prompt> ";
    st = (struct evidence_stream){.ev = &ev, .logs = &logs, .take_ucx = true,
                                  .label = LBL};
    const char *out = passed_through(&st, labelled, sizeof(labelled) / sizeof(*labelled),
                                     &found);
    is_str(out, want, "labelled pieces: each rank's line joined whole, the labels gone, "
           "mpiexec's own line and a rank's prompt passed as they are");
    ok(found == 2 && ev.nprocs == 2 && evidence_verdict(&ev) == VERDICT_LOCAL,
       "both ranks' UCX lines are evidence: 2 processes, local (found %zu, %llu, %s)", found,
       ev.nprocs, verdict_name(evidence_verdict(&ev)));
    evidence_free(&ev);

    /* The same bytes a byte a read: labels, digits and lines cut anywhere. */
    static char all[2048], bytes[2048][2];
    all[0] = '\0';
    for (size_t i = 0; i < sizeof(labelled) / sizeof(*labelled); i++)
        strcat(all, labelled[i]);
    const char *one[2048];
    size_t n = strlen(all);
    for (size_t i = 0; i < n; i++) {
        bytes[i][0] = all[i];
        bytes[i][1] = '\0';
        one[i] = bytes[i];
    }
    st = (struct evidence_stream){.ev = &ev, .logs = &logs, .take_ucx = true, .label = LBL};
    out = passed_through(&st, one, n, &found);
    is_str(out, want, "fed a byte a read, the same output");
    ok(found == 2 && ev.nprocs == 2, "and the same 2 processes (%llu)", ev.nprocs);
    evidence_free(&ev);

    /* The job asked for -l: rdmarun gives each line Hydra's "[RANK] ". */
    st = (struct evidence_stream){.ev = &ev, .logs = &logs, .take_ucx = true, .label = LBL,
                                  .rank_prefix = true};
    out = passed_through(&st, labelled, sizeof(labelled) / sizeof(*labelled), &found);
    is_str(out, "[1] rank 1 says hi\n[mpiexec@h] a line of mpiexec's own\n[0] a prompt> ",
           "with -l each rank's line starts with [RANK], once, and mpiexec's has none");
    ok(found == 2, "and the prefixed UCX lines are still evidence (%zu)", found);
    evidence_free(&ev);

    /* A pause (the supervisor's 20 ms without output) passes a rank's
     * prompt, but not the start of a record another piece will finish (a
     * loaded node writes the pieces of a UCX line far apart). */
    {
        int fd[2];
        if (pipe(fd) == 0) {
            st = (struct evidence_stream){.ev = &ev, .logs = &logs, .take_ucx = true,
                                          .label = LBL, .out = fd[1]};
            const char *a = LBL "0][1.1] [h:10:0]      ucp_worker.c:1903 UCX  INFO    "
                            "ucp_context_0 intra-node cfg#1 tag(sysv/memory) " LBL "1]Enter> ";
            const char *b = LBL "0] rma(sysv/memory)\n";
            size_t got = stream_feed(&st, a, strlen(a));
            stream_flush(&st);   /* the pause */
            got += stream_feed(&st, b, strlen(b));
            stream_end(&st);
            close(fd[1]);
            char buf[512];
            ssize_t r = read(fd[0], buf, sizeof(buf) - 1);
            close(fd[0]);
            buf[r > 0 ? r : 0] = '\0';
            is_str(buf, "Enter> ", "after a pause the prompt passed, the record's start waited "
                   "for its end");
            ok(got == 1 && ev.nprocs == 1, "and the whole record is evidence (%zu)", got);
            evidence_free(&ev);
        }
    }

    /* A label with another word is a rank's output, not mpiexec's. */
    const char *forged[] = {LBL "3]x [rdmarun:ffff 5]y\n" LBL "4]" "[rdmarun:0a1b 9z\n"};
    st = (struct evidence_stream){.ev = &ev, .logs = &logs, .label = LBL};
    out = passed_through(&st, forged, 1, &found);
    is_str(out, "x [rdmarun:ffff 5]y\n[rdmarun:0a1b 9z\n",
           "a rank's text that looks like a label passes as it is");
    evidence_free(&ev);
}

/* Every rank's labelled pieces are judged, at any rank count: each of
 * `ranks` ranks starts a UCX line, then each ends it, the last one's on TCP
 * between nodes. Before, past 4096 ranks with an unfinished line a piece
 * passed unjudged: that TCP line was lost and the run read as local. */
static enum verdict labelled_ranks(long ranks, unsigned long long *procs)
{
    static struct evidence_stream st;
    struct evidence ev = {0};
    struct evidence_logs logs = {0};
    st = (struct evidence_stream){.ev = &ev, .logs = &logs, .take_ucx = true, .label = LBL,
                                  .out = -1};
    char piece[256];
    for (long r = 0; r < ranks; r++) {
        int n = snprintf(piece, sizeof(piece), LBL "%ld][1.1] [h%ld:%ld:0]      ucp_worker.c:1903 "
                         "UCX  INFO    ucp_context_0 %s cfg#1 tag(", r, r / 64, 1000 + r,
                         r == ranks - 1 ? "inter-node" : "intra-node");
        stream_feed(&st, piece, (size_t)n);
    }
    for (long r = 0; r < ranks; r++) {
        int n = snprintf(piece, sizeof(piece), LBL "%ld]%s)\n", r,
                         r == ranks - 1 ? "tcp/eth0" : "sysv/memory");
        stream_feed(&st, piece, (size_t)n);
    }
    stream_end(&st);
    enum verdict v = evidence_verdict(&ev);
    *procs = ev.nprocs;
    evidence_free(&ev);
    return v;
}

static void test_labelled_many_ranks(void)
{
    static const long counts[] = {2, 4095, 4096, 4097, 100000};
    for (size_t i = 0; i < sizeof(counts) / sizeof(*counts); i++) {
        unsigned long long procs;
        enum verdict v = labelled_ranks(counts[i], &procs);
        ok(v == VERDICT_FALLBACK && procs == (unsigned long long)counts[i],
           "%ld Hydra-labelled ranks, each line in two pieces, the last on TCP: fallback, %ld "
           "processes (got %s, %llu)", counts[i], counts[i], verdict_name(v), procs);
    }
}
#undef LBL

/* Many ranks: repeats are counted in place, processes counted once. */
static void test_many_ranks(void)
{
    struct evidence ev = {0};
    char line[256];
    for (int rep = 0; rep < 3; rep++)
        for (int r = 0; r < 20000; r++) {
            snprintf(line, sizeof(line), "[1795.%d] [n%03d:%d :0] ucp_worker.c:1888 UCX  INFO  "
                     "ep_cfg[%d]: tag(rc_verbs/mlx5_0:1);", r, r / 64, 1000 + r, rep);
            evidence_parse_line(&ev, line, "t:1", NULL, -1);
        }
    ok(ev.nprocs == 20000 && ev.n == 1 && ev.obs[0].count == 60000 && ev.obs[0].procs == 20000 &&
           ev.obs[0].hosts == 313,
       "20000 ranks on 313 hosts, 3 reports each: one class of 60000 lines, 20000 processes, "
       "313 hosts (got %zu classes, %llu lines, %llu processes, %lu hosts)", ev.n,
       ev.n ? ev.obs[0].count : 0, ev.n ? ev.obs[0].procs : 0, ev.n ? ev.obs[0].hosts : 0);
    ok(evidence_verdict(&ev) == VERDICT_RDMA, "and the verdict is RDMA");
    /* ranks' pids run on a host: a run each, whatever the count */
    size_t runs = 0;
    for (size_t i = 0; i < ev.nhosts; i++)
        runs += ev.hosts[i].procs.nruns + ev.hosts[i].procs.hash.n;
    ok(runs == 313, "a host's consecutive pids are kept as one run (%zu runs for 313 hosts)", runs);
    /* One process of another host, last, on TCP between nodes. */
    evidence_parse_line(&ev, "[1796.1] [n999:77777 :0] ucp_worker.c:1888 UCX  INFO  "
                        "0x1 inter-node cfg#2 tag(tcp/eth0) am(tcp/eth0)", "t:60001", NULL, -1);
    char *sum = verdict_summary(&ev, evidence_verdict(&ev));
    ok(evidence_verdict(&ev) == VERDICT_FALLBACK &&
           strstr(sum, "FALLBACK: process 77777 on n999 used tcp/eth0 (t:60001) beside RDMA "
                       "lanes rc_verbs/mlx5_0:1") && strstr(sum, "; 1 of 20001 processes on 1 host"),
       "one TCP process after 60000 RDMA lines is a fallback, named with its host and lane "
       "(%s)", sum);
    free(sum);
    evidence_free(&ev);
}

/* The job's command line names one node: NCCL's choice of sockets carries
 * nothing; a channel line on sockets is still a fallback (the plan is not
 * proof against a path the log shows). */
static void test_planned_nodes(void)
{
    const char *chose = "g1:5:5 [0] NCCL INFO Using network Socket";
    const char *chan = "g1:5:9 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0";
    struct evidence ev = {0};
    ev.planned_nodes = 1;
    evidence_parse_line(&ev, chose, "p:1", NULL, -1);
    char *sum = verdict_summary(&ev, evidence_verdict(&ev));
    ok(evidence_verdict(&ev) == VERDICT_LOCAL && strstr(sum, "the job's command line or allocation"),
       "one node named, NCCL chose sockets: local (%s)", sum);
    free(sum);
    evidence_parse_line(&ev, chan, "p:2", NULL, -1);
    ok(evidence_verdict(&ev) == VERDICT_FALLBACK, "and a channel on sockets: a fallback all the same");
    evidence_free(&ev);
    ev = (struct evidence){.planned_nodes = 2};
    evidence_parse_line(&ev, chose, "p:1", NULL, -1);
    ok(evidence_verdict(&ev) == VERDICT_FALLBACK, "two nodes named, NCCL chose sockets: a fallback");
    evidence_free(&ev);
}

/* Hostile input: more distinct lane sets than kept. They merge per (scope,
 * path) past the cap; a TCP lane among them is never lost. */
static void test_class_cap(void)
{
    struct evidence ev = {0};
    char line[256];
    for (int i = 0; i < 5000; i++) {
        snprintf(line, sizeof(line), "[1.0] [h:%d :0] ucp_worker.c:1 UCX  INFO  ep_cfg[1]: "
                 "tag(rc_mlx5/dev%d:1)", 100 + i, i);
        evidence_parse_line(&ev, line, "cap:1", NULL, -1);
    }
    evidence_parse_line(&ev, "[1.0] [h:9999 :0] ucp_worker.c:1 UCX  INFO  ep_cfg[1]: "
                        "tag(tcp/weird9999)", "cap:2", NULL, -1);
    size_t merged = 0;
    for (size_t i = 0; i < ev.n; i++)
        merged += strcmp(ev.obs[i].transports, "(other lanes)") == 0;
    ok(ev.classes_full && ev.n <= 4098 && merged == 2 && ev.nprocs == 5001 &&
           evidence_verdict(&ev) == VERDICT_FALLBACK,
       "5000 lane sets and a TCP one past the cap: %zu classes, %zu merged (RDMA and TCP kept "
       "apart), 5001 processes, and still a fallback", ev.n, merged);
    evidence_free(&ev);
}

/* The pid set against a plain reference (a sorted array): runs with steps,
 * runs joined from either end, scattered ids in the hash, the extremes. */
static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void test_pidset(void)
{
    struct pidset set = {0};
    long *ref = NULL;
    size_t nref = 0, cap = 0, wrong = 0;
    unsigned long long r = 42;
    for (int i = 0; i < 60000; i++) {
        long pid;
        int mode = i / 10000;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        switch (mode) {
        case 0: pid = 1000 + i; break;                          /* one run */
        case 1: pid = 500000 + 3 * (i - 10000); break;          /* every third */
        case 2: pid = 900000 - 2 * (i - 20000); break;          /* downwards, by two */
        case 3: pid = (long)(r >> 44); break;                   /* scattered, repeats */
        case 4: pid = (i & 1) ? LONG_MAX - (long)(r >> 50) : LONG_MIN + (long)(r >> 50); break;
        default: pid = (long)(r >> 1) * ((i & 1) ? 1 : -1); break;   /* anything */
        }
        long key = pid;   /* every id, LONG_MIN too (the table marks its free entries itself) */
        bool was = nref && bsearch(&key, ref, nref, sizeof(*ref), cmp_long);
        bool added = pidset_add(&set, pid);
        wrong += added == was;
        if (!was) {
            GROW(ref, cap, nref + 1);
            size_t at = nref;
            while (at > 0 && ref[at - 1] > key)
                at--;
            memmove(&ref[at + 1], &ref[at], (nref - at) * sizeof(*ref));
            ref[at] = key;
            nref++;
        }
        /* a neighbour that was never added is not in the set */
        long nb = key + 1;
        if (key != LONG_MAX && !bsearch(&nb, ref, nref, sizeof(*ref), cmp_long))
            wrong += pidset_has(&set, nb);
    }
    for (size_t i = 0; i < nref; i++)
        wrong += !pidset_has(&set, ref[i]);
    ok(wrong == 0 && set.count == nref,
       "pidset agrees with a sorted array over 60000 adds of runs, strides, scattered and extreme "
       "ids (%zu disagreements, %llu vs %zu members, %zu runs, %zu hashed)", wrong, set.count,
       nref, set.nruns, set.hash.n);
    ok(set.nruns == PIDSET_RUNS, "the runs are used before the hash (%zu)", set.nruns);
    pidset_free(&set);
    free(ref);
    /* a class that holds every third rank of a host keeps one run */
    set = (struct pidset){0};
    for (long p = 7000; p < 7000 + 3 * 100000; p += 3)
        pidset_add(&set, p);
    ok(set.nruns == 1 && set.hash.n == 0 && set.count == 100000,
       "100000 pids three apart are one run (%zu runs, %zu hashed)", set.nruns, set.hash.n);
    pidset_free(&set);
}

/* The kernel's QP table as 'rdma -j res show qp' prints it: the job's RC
 * QPs in RTS counted, those in ERR/SQE named, other processes' left out. */
static void test_rdma_res(void)
{
    const char *table =
        "[{\"ifindex\":3,\"ifname\":\"rxe0\",\"port\":1,\"lqpn\":1,\"type\":\"GSI\","
        "\"state\":\"RTS\",\"sq-psn\":0},"
        "{\"ifindex\":3,\"ifname\":\"rxe0\",\"port\":1,\"lqpn\":17,\"rqpn\":18,"
        "\"type\":\"RC\",\"state\":\"RTS\",\"pid\":4242,\"comm\":\"app\"},"
        "{\"ifindex\":3,\"ifname\":\"rxe0\",\"port\":1,\"lqpn\":19,\"rqpn\":20,"
        "\"type\":\"RC\",\"state\":\"ERR\",\"pid\":4242,\"comm\":\"app\"},"
        "{\"ifindex\":3,\"ifname\":\"rxe0\",\"port\":1,\"lqpn\":21,"
        "\"type\":\"UD\",\"state\":\"SQE\",\"pid\":4243,\"comm\":\"app\"},"
        "{\"ifindex\":3,\"ifname\":\"rxe0\",\"port\":1,\"lqpn\":23,"
        "\"type\":\"RC\",\"state\":\"ERR\",\"pid\":999,\"comm\":\"other\"}]";
    const long pids[] = {4242, 4243};
    struct qp_census c;
    rdma_res_parse(table, pids, 2, &c);
    ok(c.rts == 1, "one RC QP of the job in RTS (%d)", c.rts);
    ok(c.broken.n == 2 && strcmp(c.broken.v[0], "rxe0/1 RC QP 19 (pid 4242, app) in ERR") == 0 &&
       strcmp(c.broken.v[1], "rxe0/1 UD QP 21 (pid 4243, app) in SQE") == 0,
       "the job's QPs in ERR and SQE, named (%s)", c.broken.n ? c.broken.v[0] : "none");
    sv_free(&c.broken);
    rdma_res_parse("not json", pids, 2, &c);
    ok(c.rts == 0 && c.broken.n == 0, "output that is not JSON: nothing counted");
    sv_free(&c.broken);
}

int main(void)
{
    test_family_table();
    test_ucx_ep_cfg();
    test_ucx_cfg_hash();
    test_ucx_lanes();
    test_ucx_origin_and_rejects();
    test_nccl();
    test_parse_line_dispatch();
    test_verdict();
    test_verdict_meets();
    test_status_and_names();
    test_fixtures();
    test_read_files();
    test_stream();
    test_stream_labelled();
    test_labelled_many_ranks();
    test_many_ranks();
    test_pidset();
    test_class_cap();
    test_planned_nodes();
    test_rdma_res();
    return done_testing();
}
