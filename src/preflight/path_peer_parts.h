/* The path test's node process (path_peer.c) and what it says of its node
 * and its paths (path_peer_say.c): the wire format a node publishes
 * through PMIx, its QP ends, its state. */
#ifndef RDMARUN_PATH_PEER_PARTS_H
#define RDMARUN_PATH_PEER_PARTS_H

#include "facts/facts.h"
#include "plan/plan.h"
#include "preflight/path_peer.h"
#include "preflight/path_report.h"
#include <infiniband/verbs.h>
#include <pmix.h>
#include <stdbool.h>
#include <stdint.h>

#define PMIX_KEY "rdmarun.path"
#define WIRE_MAGIC 0x52445031u   /* "RDP1" */
#define SLOT (64 * 1024)         /* each QP's part of the buffer */
#define CHECK_LEN 4096           /* SEND lands at 0, the RDMA WRITE at CHECK_LEN */
#define BW_OFF (32 * 1024)
#define BW_LEN (32 * 1024)
#define LAT_ITERS 100
#define BW_ITERS 32

/* What a node publishes: its port, then one entry per QP it has. */
struct wire_head {
    uint32_t magic, nqp;
    uint8_t usable, global, mtu, pad;
    uint16_t lid;
    uint8_t gid[16];
};
struct wire_qp {
    uint32_t edge, sender, qpn, rkey;   /* sender: 1 on the edge's `from` side */
    uint64_t addr;
};

struct qp_end {
    int edge, peer;
    bool sender;
    struct ibv_qp *qp;
    struct ibv_cq *cq;    /* a sender's own: one pair's errors never reach another's */
    char *buf;            /* its slot */
    uint64_t raddr;       /* a sender's: the receiver's slot */
    uint32_t rkey;
    bool connected, received;
};

struct peer {
    const struct path_peer_opts *o;
    pmix_proc_t me;
    int rank, n;
    struct path_edge *edges;
    size_t nedges;
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq *rcq;
    struct ibv_mr *mr;
    char *buf;
    struct ibv_port_attr attr;
    union ibv_gid gid;
    struct plan_port port;
    bool usable;
    struct qp_end *ends;
    size_t nends;
    double t0;            /* when it started */
};

/* The job's processes, PMIx's job size; -1 unknown (path_peer_pmix.c). */
int peer_job_size(const pmix_proc_t *me);
/* This node's ends: one on each edge it is an end of, the sender's first. */
void peer_make_ends(struct peer *p);
/* The verbs test (path_peer.c): RC QPs on the node's port. */
void peer_verbs_run(struct peer *p);
/* Every node's PMIx fence (a failure said); true when all joined. */
bool peer_fence(const struct peer *p);
/* BLOB (freed) published as this node's PMIX_KEY, then the fence. */
bool peer_publish(const struct peer *p, void *blob, size_t len);
/* Node RANK's published blob of at least MIN_LEN bytes (PMIX_VALUE_RELEASE
 * it), or NULL with *err (caller frees). */
pmix_value_t *peer_blob(const struct peer *p, int rank, size_t min_len, char **err);
/* The libfabric test (path_peer_fi.c): one RDM endpoint of the provider per
 * node, tagged messages along the node's edges; its records, its final fence. */
void peer_fi_run(struct peer *p);

/* A record on stdout for the launch node (PATH_TAG KIND r= n= ...). */
void peer_record(const struct peer *p, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A value with no spaces, for a record's word. Caller frees. */
char *peer_word(const char *s);
/* Every IPv4 address of this node, "a,b" ("-": none). Caller frees. */
char *peer_all_ipv4(void);
void peer_say_pair_failure(const struct peer *p, int to, const char *step, const char *err);
void peer_say_failure(const struct peer *p, const char *step, const char *err);
/* The node's record: its port, GID, addresses, versions and limits. */
void peer_say_node(const struct peer *p, const struct facts *f);

#endif
