/* The path test's records and their judgement, pure: which directed pairs of
 * nodes are tested (a ring, or all pairs), the lines each node's peer
 * process prints (path_peer.c) parsed back on the launch node, and what they
 * add up to: the pairs that failed with their likely cause, the outliers,
 * the node that differs from the others, the nodes that never answered. */
#ifndef RDMARUN_PATH_REPORT_H
#define RDMARUN_PATH_REPORT_H
#include "util/strvec.h"
#include <stdbool.h>
#include <stddef.h>

/* Every record starts with this; the rest is KEY=VALUE words, and err= (the
 * last) takes the rest of the line. */
#define PATH_TAG "rdmarun-path: "

struct path_edge {
    int from, to;      /* node ranks: `from` sends, `to` receives */
};

/* The pairs among n nodes: each node to the next (one node: to itself), or
 * all ordered pairs (up to PATH_ALL_PAIRS_MAX nodes; a ring beyond).
 * Returns how many; *out is owned. */
size_t path_edges(int n, bool all_pairs, struct path_edge **out);

/* The facts a node's record carries that should be the same on every node
 * (key, and its name in messages): the odd one out is named. */
struct path_same {
    const char *key, *label;
};
extern const struct path_same path_same_keys[];

struct path_node {
    bool seen, done;
    double took;               /* its seconds from start to done; 0: unknown */
    struct strvec kv;          /* its node record, KEY=VALUE */
    char *fail_step, *fail_err;    /* the node's own failure, or NULL */
    struct strvec counters;    /* NAME=GROWTH of the port's counters during the test */
};

struct path_pair {
    int from, to;
    bool seen, ok;
    char *step, *err;          /* where and why it failed */
    double lat_us, bw_mbps;
};

struct path_report {
    int n;                     /* nodes, as the launcher said (0: none answered) */
    bool all_pairs;
    struct path_node *nodes;
    struct path_pair *pairs;
    size_t npairs;
    struct strvec said;        /* the launcher's own lines (the last ones kept) */
};

/* " (N% of the speed of light's X MB/s for 32 KiB writes: LIMIT)" for
 * the path test's best bandwidth on a port of that driver, link layer, rate
 * and MTU (path_sol.c); " (software RDMA: no line-rate expectation)"; ""
 * when the rate is unknown. Caller frees. */
char *path_sol_text(const char *driver, const char *ll, const char *rate, const char *mtu,
                    bool libfabric, double bw_mbps);
/* One line of the launcher's output: true when it was a record (taken);
 * other lines are kept in `said`, to find what the launcher said of a node. */
bool path_report_line(struct path_report *r, const char *line);
void path_report_free(struct path_report *r);
/* A value of node i's record, or NULL. */
const char *path_node_value(const struct path_report *r, int i, const char *key);
/* The same, "?" when the node did not say. */
const char *path_node_val(const struct path_report *r, int i, const char *key);

enum path_level { PATH_FAIL, PATH_WARN };
struct path_finding {
    enum path_level level;
    char *text;
};
/* What the records add up to, failures first. `hosts` (may be empty) are the
 * nodes the job names, so one that never answered is named too. Returns how
 * many findings; *out is owned (path_findings_free). */
/* The hosts asked for that no peer answered from (by name, short name or
 * address), each once, in their order. */
void path_silent_hosts(const struct path_report *r, const struct strvec *hosts,
                       struct strvec *out);
size_t path_judge(const struct path_report *r, const struct strvec *hosts,
                  struct path_finding **out);
void path_findings_free(struct path_finding *f, size_t n);
/* Re-pairing (Google's way of telling which side of a bad path is bad):
 * the nodes of the failed paths that no failure of their own explains (the
 * suspects, *suspects, owned), and a node that answered and passed every
 * path it was in, to test each suspect with (*good; -1 when there is
 * none). Returns how many suspects. */
size_t path_suspects(const struct path_report *r, int **suspects, int *good);
/* "2 nodes, 2 paths (ring): latency 33.1-35.0 us, bandwidth 21.0-23.4 MB/s" */
char *path_summary(const struct path_report *r);
/* "b (rxe0:1, GID 1 RoCE v2)" */
char *path_node_name(const struct path_report *r, int i);

#endif
