/* One node's part of the path test: `rdmarun path-peer`, one process per node
 * started by the job's launcher (mpirun --map-by ppr:1:node, srun
 * --ntasks-per-node=1). It opens an RC QP per pair it is in on the port and
 * GID index chosen for this node, exchanges the QPs' addresses with the
 * other nodes through PMIx (the launcher's own server), connects them, and
 * sends: SEND/RECV and RDMA WRITE with a data check, then latency and
 * bandwidth. With a libfabric provider (--provider) it opens one RDM
 * endpoint of that provider instead and sends tagged messages along the same
 * pairs (path_peer_fi.c). Every wait has a deadline. It reports on stdout in
 * path_report.h's records, which reach the launch node with the job's
 * output; the launch node judges (path_test.c). */
#ifndef RDMARUN_PATH_PEER_H
#define RDMARUN_PATH_PEER_H
#include <stdbool.h>

struct path_peer_opts {
    const char *device;   /* DEV or DEV:PORT; NULL: this node's first ACTIVE port */
    int gid_index;        /* -1: the routable RoCE v2 GID (Ethernet), none (InfiniBand) */
    bool all_pairs;       /* every pair of nodes, not the ring */
    double step_s;        /* the deadline of every step */
    const char *provider; /* a libfabric provider to test instead of verbs, or NULL */
};

/* Returns 0 when it reported (whatever the result), else an RR_EX_* status
 * (not started by a launcher with a PMIx server). */
int path_peer_main(const struct path_peer_opts *o);

#endif
