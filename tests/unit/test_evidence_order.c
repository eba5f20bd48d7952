/* The verdict does not depend on line order: mpirun merges the output of
 * many processes, so the lines of one process's UCX protocol table arrive
 * between another's. Lines of N processes, interleaved in many random orders
 * (fixed seeds, each process's own order kept), give one verdict and the
 * same paths for every process; every prefix of many orders (a log cut
 * anywhere, in the middle of a table) gives a verdict about what it shows,
 * never a row read under another process's header. */
#include "evidence/evidence.h"
#include "evidence/internal.h"
#include "tap.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 8
#define MAXL 16

struct proc_lines {
    const char *host;
    long pid;
    const char *lines[MAXL];
    size_t n;
};

#define P(host, pid) "[1735000100.400200] [" host ":" pid ":0]   "
#define BORDER "+--------------------------------+-------------------------------+-------------+"
/* A table's top border, its header row naming the endpoint, the border under it */
#define HEAD(host, pid, ep)                                                                   \
    P(host, pid) BORDER,                                                                      \
        P(host, pid) "| ucp_context_0 " ep " | tagged message by ucp_tag_send* from host memory |", \
        P(host, pid) BORDER

/* UCX 1.18's UCX_PROTO_INFO=y tables (src/ucp/proto/proto_debug.c: the
 * header row names the endpoint's scope and cfg#, "+---" borders frame the
 * header and close the table), each line through ucs_log with its own
 * "[ts] [host:pid:tid]" prefix, as tests/data/logs/ucx-proto-table-*.log. */
static const struct proc_lines scenario_rdma[] = {
    /* a node whose ranks reach each other over tcp/lo (shared memory off):
     * TCP within the node, not a fallback */
    {"cn01", 100, {HEAD("cn01", "100", "intra-node cfg#1"),
                   P("cn01", "100") "|                        0..8184 | eager short                   | tcp/lo      |",
                   P("cn01", "100") "|                      8185..inf | rendezvous zero-copy          | tcp/lo      |",
                   P("cn01", "100") BORDER}, 6},
    {"cn02", 200, {HEAD("cn02", "200", "inter-node cfg#2"),
                   P("cn02", "200") "|                        0..2030 | eager short                   | rc_mlx5/mlx5_0:1/path0 |",
                   P("cn02", "200") "|                    8239..27188 | multi-frag eager zero-copy    | 50% on rc_mlx5/mlx5_0:1/path0 and 50% on rc_mlx5/mlx5_1:1/path0 |",
                   P("cn02", "200") BORDER}, 6},
    {"cn03", 300, {HEAD("cn03", "300", "self cfg#0"),
                   P("cn03", "300") "|                        0..inf  | eager short                   | self/memory |",
                   P("cn03", "300") BORDER,
                   HEAD("cn03", "300", "inter-node cfg#3"),
                   P("cn03", "300") "|                        0..inf  | rendezvous zero-copy          | rc_mlx5/mlx5_0:1/path0 |",
                   P("cn03", "300") BORDER}, 10},
    /* NCCL's and Open MPI's lines are whole on their own; they share the stream */
    {"gpu1", 400, {"gpu1:400:410 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                   "gpu1:400:410 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA"}, 2},
    {"cn04", 500, {"[cn04:00500] mca: bml: Using vader btl for send to [[6579,1],1] on node cn04",
                   "[cn04:00500] mca: bml: Using self btl for send to [[6579,1],0] on node cn04"}, 2},
};

/* The same with one inter-node table on TCP: a fallback in every order. */
static const struct proc_lines scenario_tcp[] = {
    {"cn01", 100, {HEAD("cn01", "100", "inter-node cfg#1"),
                   P("cn01", "100") "|                        0..8184 | eager short                   | tcp/eth0    |",
                   P("cn01", "100") BORDER}, 5},
    {"cn02", 200, {HEAD("cn02", "200", "intra-node cfg#2"),
                   P("cn02", "200") "|                        0..inf  | eager short                   | sysv/memory |",
                   P("cn02", "200") BORDER}, 5},
    {"cn03", 300, {HEAD("cn03", "300", "inter-node cfg#3"),
                   P("cn03", "300") "|                        0..inf  | eager short                   | rc_mlx5/mlx5_0:1/path0 |",
                   P("cn03", "300") BORDER}, 5},
};

static unsigned long long rng;

static unsigned next_random(unsigned bound)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng >> 33) % bound);
}

/* One order: each step takes the next line of a random process that has
 * lines left. */
static size_t interleave(const struct proc_lines *ps, size_t np, const char **out)
{
    size_t at[MAXP] = {0}, n = 0, total = 0;
    for (size_t i = 0; i < np; i++)
        total += ps[i].n;
    while (n < total) {
        size_t p = next_random((unsigned)np);
        while (at[p] >= ps[p].n)
            p = (p + 1) % np;
        out[n++] = ps[p].lines[at[p]++];
    }
    return n;
}

/* Each process's paths: "host:pid family scope path lanes" per class that
 * holds it, in class order made canonical by sorting. */
static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *paths_of(const struct evidence *ev, const struct proc_lines *ps, size_t np)
{
    struct strvec items = {0};
    for (size_t i = 0; i < ev->pairs.cap; i++) {
        const struct ev_pair *pr = (const struct ev_pair *)ev->pairs.slots + i;
        if (!pr->at.host)
            continue;
        const struct ev_host *h = &ev->hosts[pr->at.host - 1];
        const struct observation *o = &ev->obs[pr->at.key - 1];
        for (size_t p = 0; p < np; p++)
            if (h->name && strcmp(h->name, ps[p].host) == 0 && pidset_has(&pr->procs, ps[p].pid))
                sv_pushf(&items, "%s:%ld %s %s %s %s", ps[p].host, ps[p].pid, o->family,
                         path_scope_name(o->scope), path_kind_name(o->kind), o->transports);
    }
    if (items.n)
        qsort(items.v, items.n, sizeof(*items.v), by_string);
    char *s = items.n ? sv_join(&items, "; ") : xstrdup("");
    sv_free(&items);
    return s;
}

static void parse_all(struct evidence *ev, const char **lines, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char where[32];
        snprintf(where, sizeof(where), "order:%zu", i + 1);
        evidence_parse_line(ev, lines[i], where, NULL, -1);
    }
}

/* ORDERS orders of a scenario: one verdict, the same paths per process; and
 * no prefix of the first CUT_ORDERS of them says `never` (every cut is a
 * log of its own: n of them an order). */
#define ORDERS 200
#define CUT_ORDERS 40

static void check_orders(const char *name, const struct proc_lines *ps, size_t np,
                         enum verdict want, const char *want_paths, int never)
{
    const char *lines[MAXP * MAXL];
    size_t differ = 0, wrong_paths = 0, bad_prefix = 0, prefixes = 0;
    char *first_bad = NULL;
    for (unsigned seed = 1; seed <= ORDERS; seed++) {
        rng = seed;
        size_t n = interleave(ps, np, lines);
        struct evidence ev = {0};
        parse_all(&ev, lines, n);
        char *paths = paths_of(&ev, ps, np);
        differ += evidence_verdict(&ev) != want;
        if (strcmp(paths, want_paths) != 0) {
            if (!wrong_paths++)
                first_bad = xasprintf("seed %u: %s", seed, paths);
        }
        free(paths);
        evidence_free(&ev);
        /* every cut of this order */
        for (size_t cut = 0; seed <= CUT_ORDERS && cut < n; cut++) {
            struct evidence part = {0};
            parse_all(&part, lines, cut);
            bad_prefix += never >= 0 && evidence_verdict(&part) == (enum verdict)never;
            prefixes++;
            evidence_free(&part);
        }
    }
    ok(differ == 0, "%s: the verdict is %s in all %d orders (%zu differ)", name,
       verdict_name(want), ORDERS, differ);
    ok(wrong_paths == 0, "%s: every process has the same paths in every order (%zu differ%s%s)",
       name, wrong_paths, first_bad ? "; first: " : "", first_bad ? first_bad : "");
    if (never >= 0)
        ok(bad_prefix == 0 && prefixes > 0, "%s: none of %zu cut logs says %s (%zu did)", name,
           prefixes, verdict_name((enum verdict)never), bad_prefix);
    free(first_bad);
}

/* The paths each process must have, written by hand from the lines above:
 * cn01's tcp/lo rows are its intra-node table's, cn03's self row its self
 * table's, the multi-rail row counts both rails. */
static const char *const rdma_paths =
    "cn01:100 ucx intra-node tcp tcp/lo; "
    "cn02:200 ucx inter-node rdma rc_mlx5/mlx5_0:1; "
    "cn02:200 ucx inter-node rdma rc_mlx5/mlx5_1:1; "
    "cn03:300 ucx inter-node rdma rc_mlx5/mlx5_0:1; "
    "cn03:300 ucx self self self/memory; "
    "cn04:500 ompi intra-node shared-memory btl vader; "
    "cn04:500 ompi self self btl self; "
    "gpu1:400 nccl inter-node rdma NET/IB/0/GDRDMA";

static const char *const tcp_paths =
    "cn01:100 ucx inter-node tcp tcp/eth0; "
    "cn02:200 ucx intra-node shared-memory sysv/memory; "
    "cn03:300 ucx inter-node rdma rc_mlx5/mlx5_0:1";

/* A table cut after its header and before any row, then another process's
 * rows without a header of their own (pasted from the middle): the rows
 * count with their scope unknown, never with the cut table's. */
static void test_cut_tables(void)
{
    struct evidence ev = {0};
    evidence_parse_line(&ev, P("a", "1") "| ucp_context_0 intra-node cfg#1 | tagged message |",
                        "x:1", NULL, -1);
    evidence_parse_line(&ev, P("b", "2") "|                        0..8184 | eager short | tcp/eth0 |",
                        "x:2", NULL, -1);
    ok(ev.n == 1 && ev.obs[0].scope == SCOPE_UNKNOWN && evidence_verdict(&ev) == VERDICT_FALLBACK,
       "a row of b is not read under a's intra-node header: scope unknown, TCP that may leave "
       "the node");
    evidence_free(&ev);
    /* a's table closed by its border: a later row of a has no header */
    ev = (struct evidence){0};
    const char *a[] = {P("a", "1") BORDER,
                       P("a", "1") "| ucp_context_0 intra-node cfg#1 | tagged message |",
                       P("a", "1") BORDER,
                       P("a", "1") "|                        0..8184 | eager short | tcp/lo |",
                       P("a", "1") BORDER,
                       P("a", "1") "|                        0..8184 | eager short | tcp/eth0 |"};
    parse_all(&ev, a, 6);
    ok(ev.n == 2 && ev.obs[0].scope == SCOPE_INTRA && ev.obs[1].scope == SCOPE_UNKNOWN &&
           ev.tables.n == 0,
       "a table ends at its closing border: a row after it is not the table's (%zu classes, "
       "%zu tables open)", ev.n, ev.tables.n);
    evidence_free(&ev);
    /* many processes' tables, each opened and closed: no state left */
    ev = (struct evidence){0};
    char line[300];
    for (int i = 0; i < 20000; i++) {
        const char *rows[] = {BORDER, "| ucp_context_0 inter-node cfg#1 | tagged message |",
                              BORDER, "|  0..inf | eager short | rc_mlx5/mlx5_0:1/path0 |",
                              BORDER};
        for (int k = 0; k < 5; k++) {
            snprintf(line, sizeof(line), "[1.0] [h%d:%d:0]   %s", i / 100, 1000 + i % 100,
                     rows[k]);
            evidence_parse_line(&ev, line, "big", NULL, -1);
        }
    }
    ok(ev.tables.n == 0 && ev.nprocs == 20000 && ev.n == 1 && ev.tables.cap <= 64,
       "20000 processes' tables read: none left open, the table map stays small (%zu open, "
       "capacity %zu)", ev.tables.n, ev.tables.cap);
    evidence_free(&ev);
}

/* Any mix of classes (issue 46): lines that each show one path between
 * processes, from several libraries, drawn at random (fixed seeds) and fed
 * in random orders. The verdict follows the truth table written here
 * independently of verdict.c: TCP not known to stay on a node is a
 * fallback; else a class that crosses nodes is RDMA, named by that class,
 * never local; else a network rdmarun cannot class is no verdict; else
 * paths within the node are local, resting on the lowest tier among them;
 * a process to itself alone is no verdict. And verdict and class are the
 * same in every order. */
static const struct mix_line {
    const char *line;
    /* 't' TCP out, 'r' a fabric class, 'u' a network rdmarun cannot class,
     * 'l' within a node, 's' self */
    char kind;
    const char *cls;      /* the class a verdict resting on it names */
} mix_pool[] = {
    {"[1.1] [m1:101:0] ucp_worker.c:1903 UCX  INFO    ucp_context_0 inter-node cfg#1 "
     "tag(rc_mlx5/mlx5_0:1)", 'r', "rdma"},
    {"[1.1] [m2:102:0] ucp_worker.c:1903 UCX  INFO    ucp_context_0 inter-node cfg#1 "
     "tag(tcp/eth0)", 't', "tcp"},
    {"[1.1] [m3:103:0] ucp_worker.c:1903 UCX  INFO    ucp_context_0 intra-node cfg#2 "
     "tag(sysv/memory cma/memory)", 'l', "shm"},
    {"[1.1] [m4:104:0] ucp_worker.c:1903 UCX  INFO    ucp_context_0 self cfg#0 tag(self/memory)",
     's', NULL},
    {"g1:201:201 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA", 'r',
     "rdma"},
    {"g2:202:202 [0] NCCL INFO Channel 00/0 : 2[0] -> 3[0] [send] via NET/Socket/0", 't', "tcp"},
    {"g3:203:203 [0] NCCL INFO Channel 00/0 : 4[0] -> 5[1] via P2P/IPC", 'l', "pcie-p2p"},
    {"g4:204:204 [0] NCCL INFO Channel 01/0 : 6[0] -> 7[1] via SHM/direct/direct", 'l', "shm"},
    {"g5:205:205 [0] NCCL INFO Channel 00/0 : 8[0] -> 9[0] [send] via NET/AWS Libfabric/0/GDRDMA",
     'u', NULL},
    {"[o1:00301] mca: bml: Using tcp btl for send to [[7,1],1] on node o2", 't', "tcp"},
    {"[o3:00303] mca: bml: Using vader btl for send to [[7,1],2] on node o3", 'l', "shm"},
    {"[o4:00304] mca: bml: Using uct btl for send to [[7,1],5] on node o5", 'r', "rdma"},
};
#define NMIX (sizeof(mix_pool) / sizeof(*mix_pool))

/* The truth table's verdict for a draw: the kinds it holds. */
static enum verdict mix_model(const char *kinds)
{
    if (strchr(kinds, 't'))
        return VERDICT_FALLBACK;
    if (strchr(kinds, 'r'))
        return VERDICT_RDMA;
    if (strchr(kinds, 'u'))
        return VERDICT_UNKNOWN;
    if (strchr(kinds, 'l'))
        return VERDICT_LOCAL;
    return VERDICT_UNKNOWN;
}

static void test_class_mixes(void)
{
    size_t wrong = 0, unstable = 0, local_crossing = 0, draws = 0;
    char *first = NULL;
    for (unsigned seed = 1; seed <= 500; seed++) {
        rng = seed * 7919u;
        const char *lines[NMIX];
        char kinds[NMIX + 1];
        size_t n = 0;
        for (size_t i = 0; i < NMIX; i++)
            if (next_random(3) == 0) {
                lines[n] = mix_pool[i].line;
                kinds[n++] = mix_pool[i].kind;
            }
        kinds[n] = '\0';
        if (!n)
            continue;
        draws++;
        enum verdict want = mix_model(kinds), first_v = VERDICT_UNKNOWN;
        enum path_class first_c = PC_UNKNOWN;
        for (int order = 0; order < 8; order++) {
            for (size_t i = n; i > 1; i--) {   /* Fisher-Yates */
                size_t j = next_random((unsigned)i);
                const char *t = lines[i - 1];
                lines[i - 1] = lines[j];
                lines[j] = t;
            }
            struct evidence ev = {0};
            parse_all(&ev, lines, n);
            enum verdict v = evidence_verdict(&ev);
            enum path_class c = evidence_class(&ev);
            if (order == 0) {
                first_v = v;
                first_c = c;
            }
            unstable += v != first_v || c != first_c;
            local_crossing += strchr(kinds, 'r') && v == VERDICT_LOCAL;
            if (v != want && !wrong++)
                first = xasprintf("seed %u: kinds %s, got %s, want %s", seed, kinds,
                                  verdict_name(v), verdict_name(want));
            evidence_free(&ev);
        }
    }
    ok(wrong == 0, "%zu random mixes of classes, 8 orders each: the verdict follows the truth "
       "table (%zu wrong%s%s)", draws, wrong, first ? "; first: " : "", first ? first : "");
    ok(unstable == 0, "and each mix's verdict and class are the same in every order (%zu differ)",
       unstable);
    ok(local_crossing == 0, "a class that crosses nodes is never local (%zu were)", local_crossing);
    free(first);
}

int main(void)
{
    check_orders("RDMA between nodes, TCP within one", scenario_rdma,
                 sizeof(scenario_rdma) / sizeof(*scenario_rdma), VERDICT_RDMA, rdma_paths,
                 VERDICT_FALLBACK);
    check_orders("one inter-node table on TCP", scenario_tcp,
                 sizeof(scenario_tcp) / sizeof(*scenario_tcp), VERDICT_FALLBACK, tcp_paths, -1);
    test_cut_tables();
    test_class_mixes();
    return done_testing();
}
