/* Unit tests of the path test's pure parts: the launcher's command
 * (plan/path.c), the pairs, and the judgement of the peers' records
 * (preflight/path_report.c). The peers themselves run on real verbs between
 * two Soft-RoCE guests (tests/vm/guest/pair.sh). */
#include "plan/path.h"
#include "preflight/path_report.h"
#include "tap.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>

static const char *const healthy[] = {
    "rdmarun-path: node r=0 n=2 host=a ip=10.0.0.1 dev=mlx5_0 port=1 state=ACTIVE ll=Ethernet "
    "mtu=4096 netmtu=9000 rate=100 gidx=3 gid=0000:0000:0000:0000:0000:ffff:0a00:0001 "
    "gtype=RoCE_v2 subnet=10.0.0.0/24 vlan=none lid=0 driver=mlx5_core fw=28.39.1002 "
    "board=MT_0000000838 kernel=6.1.0 ucx=1.18.1",
    "rdmarun-path: node r=1 n=2 host=b ip=10.0.0.2 dev=mlx5_0 port=1 state=ACTIVE ll=Ethernet "
    "mtu=4096 netmtu=9000 rate=100 gidx=3 gid=0000:0000:0000:0000:0000:ffff:0a00:0002 "
    "gtype=RoCE_v2 subnet=10.0.0.0/24 vlan=none lid=0 driver=mlx5_core fw=28.39.1002 "
    "board=MT_0000000838 kernel=6.1.0 ucx=1.18.1",
    NULL};

static void feed(struct path_report *r, const char *const *lines)
{
    for (size_t i = 0; lines[i]; i++)
        path_report_line(r, lines[i]);
}

/* The findings joined, for has(). */
static char *judged(const struct path_report *r, const struct strvec *hosts, int *fails)
{
    struct path_finding *f;
    size_t n = path_judge(r, hosts, &f);
    struct strvec all = {0};
    *fails = 0;
    for (size_t i = 0; i < n; i++) {
        sv_push(&all, f[i].text);
        *fails += f[i].level == PATH_FAIL;
    }
    char *s = sv_join(&all, "\n");
    sv_free(&all);
    path_findings_free(f, n);
    return s;
}

static bool has(const char *s, const char *part)
{
    bool found = s && strstr(s, part);
    if (!found)
        printf("#   missing '%s' in:\n#   %s\n", part, s ? s : "(null)");
    return found;
}

/* The summary of the last two_nodes report: "nothing to say" is only a
 * pass beside proof that the pairs were read. */
static char last_summary[512];

/* Two healthy nodes with b changed by `b_line` and the pair results given. */
static char *two_nodes(const char *b_line, const char *const *more, int *fails)
{
    struct path_report r = {0};
    path_report_line(&r, healthy[0]);
    path_report_line(&r, b_line ? b_line : healthy[1]);
    feed(&r, more);
    char *s = judged(&r, NULL, fails);
    char *sum = path_summary(&r);
    snprintf(last_summary, sizeof(last_summary), "%s", sum ? sum : "");
    free(sum);
    path_report_free(&r);
    return s;
}

static char *with(const char *key_value)
{
    /* healthy[1] with one KEY=VALUE replaced */
    size_t kl = strcspn(key_value, "=") + 1;
    char key[64];
    snprintf(key, sizeof(key), " %.*s", (int)kl, key_value);
    const char *at = strstr(healthy[1], key);
    size_t vl = strcspn(at + strlen(key), " ");
    return xasprintf("%.*s %s%s", (int)(at - healthy[1]), healthy[1], key_value,
                     at + strlen(key) + vl);
}

int main(void)
{
    struct path_edge *e;
    size_t n = path_edges(1, false, &e);
    ok(n == 1 && e[0].from == 0 && e[0].to == 0, "one node: the node to itself");
    free(e);
    n = path_edges(2, false, &e);
    ok(n == 2 && e[0].to == 1 && e[1].to == 0, "two nodes: both directions");
    free(e);
    n = path_edges(4, false, &e);
    ok(n == 4 && e[3].from == 3 && e[3].to == 0, "a ring of four: 3 -> 0 closes it");
    free(e);
    n = path_edges(3, true, &e);
    ok(n == 6, "all pairs of three: 6 ordered pairs (%zu)", n);
    free(e);
    n = path_edges(65536, true, &e);
    ok(n == 65536, "all pairs of 65536 nodes is a ring (no 4-billion-pair table: a fuzz input)");
    free(e);

    /* The launcher's command. */
    struct strvec args = {0}, hosts = {0};
    const char *job[] = {"--allow-run-as-root", "-H", "a,b:4,a", "-np", "8", "--map-by",
                         "socket", "--mca", "oob_tcp_if_include", "eth0", "-x", "FOO=1",
                         "--output-filename", "out", "--oversubscribe", NULL};
    for (size_t i = 0; job[i]; i++)
        sv_push(&args, job[i]);
    sv_push(&hosts, "a");   /* job_hosts' list of -H a,b:4,a: each host once */
    sv_push(&hosts, "b");
    struct path_request rq = {.mpirun_args = &args, .hosts = &hosts, .alloc_nodes = -1,
                              .self = "/usr/bin/rdmarun", .gid_index = -1};
    struct path_plan pp;
    path_plan_build(&rq, &pp);
    char *cmd = sv_join(&pp.argv, " ");
    is_str(cmd, "mpirun --allow-run-as-root -H a,b:4,a --mca oob_tcp_if_include eth0 "
           "--oversubscribe --map-by ppr:1:node --bind-to none /usr/bin/rdmarun path-peer "
           "--step-timeout=2", "mpirun: the job's host options, its own count and mapping");
    free(cmd);
    ok(pp.nodes == 2 && pp.hosts.n == 2, "a and b are two nodes (%ld)", pp.nodes);
    path_plan_free(&pp);
    rq = (struct path_request){.srun = true, .launcher = "/usr/bin/srun", .alloc_nodes = 64,
                               .device = "mlx5_1:1", .gid_index = 3, .all_pairs = true};
    path_plan_build(&rq, &pp);
    cmd = sv_join(&pp.argv, " ");
    is_str(cmd, "/usr/bin/srun --ntasks-per-node=1 --mpi=pmix --kill-on-bad-exit=0 rdmarun "
           "path-peer --device mlx5_1:1 --gid-index=3 --step-timeout=2",
           "srun: one task per node of the allocation, PMIx; all pairs of 64 is a ring");
    free(cmd);
    ok(pp.nodes == 64 && !pp.all_pairs && pp.notes.n == 1 && has(pp.notes.v[0], "4032 pairs"),
       "64 nodes: a ring, with a note");
    path_plan_free(&pp);
    sv_free(&args);
    sv_free(&hosts);

    /* Judgements. */
    int fails;
    const char *good[] = {"rdmarun-path: pair r=0 n=2 to=1 ok=1 lat=3.10 bw=11000.5",
                          "[1,1]<stdout>:rdmarun-path: pair r=1 n=2 to=0 ok=1 lat=3.30 bw=10990",
                          "rdmarun-path: done r=0 n=2", "rdmarun-path: done r=1 n=2", NULL};
    char *s = two_nodes(NULL, good, &fails);
    ok(fails == 0 && *s == '\0' && has(last_summary, "2 nodes, 2 of 2 paths good"),
       "two healthy nodes: both paths read and good, nothing to say");
    free(s);
    struct path_report r = {0};
    feed(&r, healthy);
    feed(&r, good);
    s = path_summary(&r);
    /* RoCE at 100 Gb/s: 12.5 GB/s x 4096/(4096 + 82) = 12.255; 32 KiB writes,
     * 32 in flight, a 1.6 us floor: 32768 / (1.6/32 + 32768/12255) us = 12.03 GB/s */
    is_str(s, "2 nodes, 2 of 2 paths good (ring): latency 3.1-3.3 us, bandwidth 10990.0-11000.5 "
           "MB/s (91% of the speed of light's 12030 MB/s for 32 KiB writes: 100 Gb/s roce, MTU "
           "4096 (12.3 GB/s))", "the summary, read past mpirun's tag, with its speed of light");
    free(s);
    path_report_free(&r);

    const char *timeout[] = {"rdmarun-path: pair r=0 n=2 to=1 ok=0 step=first_completion "
                             "err=completion with error: transport retry counter exceeded",
                             "rdmarun-path: pair r=1 n=2 to=0 ok=1 lat=3.3 bw=10990",
                             "rdmarun-path: done r=0 n=2", "rdmarun-path: done r=1 n=2", NULL};
    char *b = with("mtu=1024");
    s = two_nodes(b, timeout, &fails);
    ok(fails == 1 && has(s, "path a (mlx5_0:1, GID 3 RoCE_v2) -> b (mlx5_0:1, GID 3 RoCE_v2) "
                            "failed at first completion: completion with error: transport retry "
                            "counter exceeded; likely cause: MTU differs: 4096 on a (netdev "
                            "9000), 1024 on b"),
       "a failed pair with an MTU that differs: the pair, the step, both MTUs");
    ok(has(s, "MTU differs between nodes: a 4096, b 1024"), "and the MTU is listed per node");
    free(s);
    free(b);
    b = with("state=DOWN");
    const char *down[] = {"rdmarun-path: fail r=1 n=2 step=port err=port 1 of mlx5_0 is "
                          "PORT_DOWN, not ACTIVE",
                          "rdmarun-path: pair r=0 n=2 to=1 ok=0 step=exchange err=the other end "
                          "has no usable port", "rdmarun-path: done r=0 n=2",
                          "rdmarun-path: done r=1 n=2", NULL};
    s = two_nodes(b, down, &fails);
    ok(fails == 2 && has(s, "b (mlx5_0:1, GID 3 RoCE_v2): port: port 1 of mlx5_0 is PORT_DOWN") &&
       has(s, "likely cause: port DOWN: mlx5_0:1 on b is DOWN"),
       "a DOWN port: the node's failure and its pair's cause, and b -> a once, not twice");
    free(s);
    free(b);
    struct { const char *change, *cause; } causes[] = {
        {"vlan=7", "VLANs differ: none on a, 7 on b"},
        {"subnet=10.0.1.0/24", "different subnets: 10.0.0.0/24 on a, 10.0.1.0/24 on b"},
        {"gtype=RoCE_v1", "GID types differ: RoCE_v2 on a, RoCE_v1 on b"},
        {"gid=fe80:0000:0000:0000:0000:00ff:fe00:0002", "GID index 3 on b is link-local"},
        {"ll=InfiniBand", "link layers differ: Ethernet on a, InfiniBand on b"},
    };
    for (size_t i = 0; i < sizeof(causes) / sizeof(*causes); i++) {
        b = with(causes[i].change);
        s = two_nodes(b, timeout, &fails);
        ok(fails == 1 && has(s, causes[i].cause), "%s: %s", causes[i].change, causes[i].cause);
        free(s);
        free(b);
    }
    const char *loss[] = {"rdmarun-path: pair r=0 n=2 to=1 ok=0 step=bandwidth err=no completion "
                          "within 2.0 s", "rdmarun-path: pair r=1 n=2 to=0 ok=1 lat=3.3 bw=10990",
                          "rdmarun-path: counters r=1 n=2 rcvd_pkts=300 out_of_sequence=41 "
                          "duplicate_request=12", "rdmarun-path: done r=0 n=2",
                          "rdmarun-path: done r=1 n=2", NULL};
    s = two_nodes(NULL, loss, &fails);
    ok(fails == 1 && has(s, "likely cause: packet loss: mlx5_0:1 on b counted out_of_sequence +41, "
                            "duplicate_request +12"),
       "counters that grew name the loss, traffic counters do not");
    free(s);
    const char *lossy_pass[] = {good[0], good[1], good[2], good[3],
                                "rdmarun-path: counters r=0 n=2 local_ack_timeout_err=30", NULL};
    s = two_nodes(NULL, lossy_pass, &fails);
    ok(fails == 0 && has(s, "packet loss: mlx5_0:1 on a counted local_ack_timeout_err +30 during "
                            "the path test, which passed"), "loss in a passing test: a warning");
    free(s);
    const char *retry_pass[] = {good[0], good[1], good[2], good[3],
                                "rdmarun-path: counters r=0 n=2 completer_retry_err=2 "
                                "sent_pkts=1268", NULL};
    s = two_nodes(NULL, retry_pass, &fails);
    ok(fails == 0 && *s == '\0' && has(last_summary, "2 of 2 paths good"),
       "2 retries in 1268 packets of a passing test: both paths good, nothing to say");
    free(s);
    const char *unfinished[] = {good[0], good[1], good[2], NULL};
    s = two_nodes(NULL, unfinished, &fails);
    ok(fails == 1 && has(s, "b (mlx5_0:1, GID 3 RoCE_v2) did not finish the test within its "
                            "deadline"), "a node that never said done is named");
    free(s);

    /* Four nodes: the odd one out, the slow path, the silent node. */
    memset(&r, 0, sizeof(r));
    const char *names[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; i++) {
        char *line = xasprintf("rdmarun-path: node r=%d n=4 host=%s dev=mlx5_0 port=1 "
                               "state=ACTIVE ll=InfiniBand mtu=4096 gidx=-1 fw=%s ucx=1.18.1",
                               i, names[i], i == 2 ? "20.31.1014" : "20.35.2000");
        path_report_line(&r, line);
        free(line);
        line = xasprintf("rdmarun-path: pair r=%d n=4 to=%d ok=1 lat=%s bw=%s", i, (i + 1) % 4,
                         i == 3 ? "9.5" : "1.9", i == 3 ? "4000" : "12000");
        path_report_line(&r, line);
        free(line);
        line = xasprintf("rdmarun-path: done r=%d n=4", i);
        path_report_line(&r, line);
        free(line);
    }
    s = judged(&r, NULL, &fails);
    ok(fails == 0 && has(s, "odd node out: c has firmware 20.31.1014 where the 3 others have 20.35.2000"),
       "the node with other firmware is named against the majority");
    ok(has(s, "slow path d (mlx5_0:1) -> a (mlx5_0:1): latency 9.5 us (median 1.9)"),
       "a path at five times the median latency is named");
    free(s);
    path_report_free(&r);

    memset(&r, 0, sizeof(r));
    feed(&r, healthy);
    path_report_line(&r, "PRTE has lost communication with a remote daemon [prterun-b-1@0,1]");
    path_report_line(&r, "  HNP daemon   : [prterun-a-3971@0,0] on node a");
    path_report_line(&r, "  Remote daemon: [prterun-a-3971@0,1] on node c");
    path_report_line(&r, "ssh: connect to host c port 22: No route to host");
    sv_push(&hosts, "a");
    sv_push(&hosts, "b.cluster");
    sv_push(&hosts, "c.cluster");
    s = judged(&r, &hosts, &fails);
    ok(has(s, "c.cluster did not answer: the launcher says \"  Remote daemon: [prterun-a-3971@0,1] "
              "on node c\"") && !strstr(s, "b.cluster did not") && !strstr(s, "a did not"),
       "a node that did not answer is named with the launcher's words (PRRTE's, not the line "
       "that names the launch node); b answers as b");
    free(s);
    path_report_free(&r);
    sv_free(&hosts);

    /* Open MPI's rsh launcher warns of a setpgid race when its child has
     * already exec'd (plm_rsh_module.c: "Ignore this error since the child
     * is off and running"): the node it names is not the one at fault. */
    memset(&r, 0, sizeof(r));
    path_report_line(&r, "[vm:04506] plm:rsh: Warning: setpgid(4510,4510) failed in parent with "
                         "errno=Permission denied(13)");
    path_report_line(&r, "ssh: Could not resolve hostname nosuch: Name or service not known");
    sv_push(&hosts, "vm");
    sv_push(&hosts, "nosuch.invalid");
    s = judged(&r, &hosts, &fails);
    ok(has(s, "nosuch.invalid did not answer: the launcher says \"ssh: Could not resolve") &&
       has(s, "no peer started on vm either") && !strstr(s, "vm did not answer"),
       "rsh's setpgid warning about the launch node is not its trouble: the unreachable node is");
    free(s);
    path_report_free(&r);
    sv_free(&hosts);

    /* Records as two Soft-RoCE guests sent them (tests/vm/guest/pair.sh). */
    const char *src = getenv("RDMARUN_SRCDIR");
    char *path = xasprintf("%s/tests/data/path/two-rxe-guests.txt", src && *src ? src : ".");
    FILE *fp = fopen(path, "r");
    char line[4096];
    memset(&r, 0, sizeof(r));
    while (fp && fgets(line, sizeof(line), fp)) {
        line[strcspn(line, "\n")] = '\0';
        path_report_line(&r, line);
    }
    if (fp)
        fclose(fp);
    free(path);
    s = judged(&r, NULL, &fails);
    char *sum = path_summary(&r);
    ok(fp && fails == 0 && *s == '\0' && has(sum, "2 nodes, 2 of 2 paths good (ring): latency "
                                                   "510.6-2488.1 us, bandwidth 9.3-21.4 MB/s"),
       "two real guests' records: passed, and their 2 retries in 1268 packets are no warning");
    ok(has(sum, "21.4 MB/s (software RDMA: no line-rate expectation)"),
       "rxe's bandwidth has no speed of light: %s", sum);
    free(s);
    free(sum);
    path_report_free(&r);

    /* An EDR port: 100 Gb/s / 8 x 4096/4122 = 12.421 GB/s; 32 KiB writes,
     * 32 in flight, 1 us floor: 32768 / (1/32 + 32768/12421) us = 12.28
     * GB/s, and 11000 MB/s is 90% of it. */
    memset(&r, 0, sizeof(r));
    path_report_line(&r, "rdmarun-path: node r=0 n=1 host=a dev=mlx5_0 port=1 ll=InfiniBand "
                         "mtu=4096 rate=100 driver=mlx5_core");
    path_report_line(&r, "rdmarun-path: pair r=0 n=1 to=0 ok=1 lat=1.1 bw=11000");
    sum = path_summary(&r);
    ok(has(sum, "bandwidth 11000.0-11000.0 MB/s (90% of the speed of light's 12276 MB/s for "
                "32 KiB writes: 100 Gb/s ib, MTU 4096 (12.4 GB/s))"),
       "an EDR port's path: its share of the speed of light: %s", sum);
    free(sum);
    path_report_free(&r);

    memset(&r, 0, sizeof(r));
    path_report_line(&r, "rdmarun-path: node r=5 n=2 host=x");
    path_report_line(&r, "rdmarun-path: pair r=0 n=999999999 to=1 ok=1");
    path_report_line(&r, "rdmarun-path: bogus");
    ok(r.n == 2 && !r.nodes[0].seen && !r.nodes[1].seen,
       "records that place no node are taken and not believed");
    s = judged(&r, NULL, &fails);
    ok(fails == 2 && has(s, "node 0 of 2 did not answer"), "and the nodes that did not answer "
       "are failures");
    free(s);
    path_report_free(&r);

    /* Re-pairing: a ring of 4 where c's both paths fail (b -> c, c -> d):
     * b and c and d are suspects, a (whose every path passed) the partner. */
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 4; i++) {
        char *rec = xasprintf("rdmarun-path: node r=%d n=4 host=%s dev=mlx5_0 port=1 "
                               "state=ACTIVE ll=InfiniBand mtu=4096 gidx=-1", i, names[i]);
        path_report_line(&r, rec);
        free(rec);
        rec = i == 1 || i == 2
             ? xasprintf("rdmarun-path: pair r=%d n=4 to=%d ok=0 step=rtr err=timeout", i, i + 1)
             : xasprintf("rdmarun-path: pair r=%d n=4 to=%d ok=1 lat=2 bw=9000", i, (i + 1) % 4);
        path_report_line(&r, rec);
        free(rec);
        rec = xasprintf("rdmarun-path: done r=%d n=4", i);
        path_report_line(&r, rec);
        free(rec);
    }
    int *sus, partner;
    n = path_suspects(&r, &sus, &partner);
    ok(partner == 0 && n == 3 && sus[0] == 1 && sus[1] == 2 && sus[2] == 3,
       "re-pairing: b, c and d are suspects, a (every path passed) is the partner (%zu, %d)",
       n, partner);
    free(sus);
    path_report_free(&r);
    /* Every node in a failed path: no partner to trust. */
    memset(&r, 0, sizeof(r));
    feed(&r, healthy);
    path_report_line(&r, "rdmarun-path: pair r=0 n=2 to=1 ok=0 step=rts err=timeout");
    n = path_suspects(&r, &sus, &partner);
    ok(partner == -1 && n == 2, "two nodes with a failed path: no partner to re-pair with");
    free(sus);
    path_report_free(&r);
    /* A node that failed its own step is named by that: not a suspect. */
    memset(&r, 0, sizeof(r));
    feed(&r, healthy);
    path_report_line(&r, "rdmarun-path: fail r=1 n=2 step=port err=port 1 is DOWN");
    path_report_line(&r, "rdmarun-path: pair r=0 n=2 to=1 ok=0 step=connect err=no peer");
    n = path_suspects(&r, &sus, &partner);
    ok(n == 0, "a failed path of a node whose own port failed makes no suspect");
    free(sus);
    path_report_free(&r);

    /* The re-paired test's command: the job's host options replaced by the
     * two nodes, one peer each, a ring of 2. */
    struct strvec words = {0};
    sv_push(&words, "--hostfile");
    sv_push(&words, "hosts");
    sv_push(&words, "-H");
    sv_push(&words, "a,b,c,d");
    sv_push(&words, "--mca");
    sv_push(&words, "btl");
    sv_push(&words, "^openib");
    struct path_request prq = {.launcher = "/usr/bin/mpirun", .mpirun_args = &words,
                               .self = "/usr/bin/rdmarun", .gid_index = -1, .all_pairs = true};
    struct path_plan big, two;
    path_plan_build(&prq, &big);
    path_plan_pair(&big, "c", "a", &two);
    cmd = sv_join(&two.argv, " ");
    ok(strcmp(cmd, "/usr/bin/mpirun -H c,a --mca btl ^openib --map-by ppr:1:node --bind-to none "
                   "/usr/bin/rdmarun path-peer --step-timeout=2") == 0 && two.nodes == 2,
       "re-pairing under mpirun: -H c,a in place of the job's hosts (%s)", cmd);
    free(cmd);
    path_plan_free(&two);
    path_plan_free(&big);
    struct path_request srq = {.srun = true, .launcher = "srun", .self = "rdmarun",
                               .gid_index = -1, .alloc_nodes = 16};
    path_plan_build(&srq, &big);
    path_plan_pair(&big, "n07", "n01", &two);
    cmd = sv_join(&two.argv, " ");
    ok(strcmp(cmd, "srun --nodes=2 --nodelist=n07,n01 --ntasks-per-node=1 --mpi=pmix "
                   "--kill-on-bad-exit=0 rdmarun path-peer --step-timeout=2") == 0,
       "re-pairing under srun: --nodes=2 --nodelist=n07,n01 (%s)", cmd);
    free(cmd);
    path_plan_free(&two);
    path_plan_free(&big);
    sv_free(&words);
    return done_testing();
}
