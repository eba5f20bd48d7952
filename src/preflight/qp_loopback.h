/* The live verbs check: two RC queue pairs on one port, connected to each
 * other through it, carrying an RDMA WRITE, an RDMA READ and a SEND/RECV of a
 * known pattern. If this works, the port, the GID, the MTU and locked memory
 * are good enough for an MPI or NCCL job. */
#ifndef RDMARUN_QP_LOOPBACK_H
#define RDMARUN_QP_LOOPBACK_H
#include <stdbool.h>

struct qp_result {
    bool ok;
    char *message;     /* "passed: ..." or "<step> failed: <why> (hint: ...)" */
    double latency_us; /* 8-byte RDMA WRITE, completion round trip */
    double bw_mbps;    /* 64 KiB RDMA WRITEs */
};

/* gid_index < 0: none needed (InfiniBand) or unknown. timeout_s bounds every
 * wait for a completion. */
void qp_test(const char *device, int port, int gid_index, double timeout_s, struct qp_result *r);
/* The loopback bandwidth: RDMA WRITEs from one QP to the other through
 * the port, the queue kept full, for `seconds`; r->bw_mbps, and a message
 * with it in Gb/s. Every wait bounded by timeout_s. */
void qp_bandwidth(const char *device, int port, int gid_index, double seconds, double timeout_s,
                  struct qp_result *r);
void qp_result_free(struct qp_result *r);

#endif
