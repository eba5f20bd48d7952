/* Facts: what the node is. Gathered once (the files under facts/) and then only read:
 * the plan is computed from them without any I/O of its own. */
#ifndef RDMARUN_FACTS_H
#define RDMARUN_FACTS_H
#include <stdbool.h>
#include <stddef.h>

struct gid_entry {
    int index;
    char *gid;     /* as sysfs prints it: fe80:0000:...:3401 */
    char *type;    /* "IB/RoCE v1", "RoCE v2" */
    char *ndev;    /* netdev the GID belongs to, or NULL */
};

struct rdma_port {
    int num;
    char *state;        /* ACTIVE, DOWN, INIT, ARMED */
    char *phys_state;   /* LinkUp, Disabled, Polling, ... */
    char *link_layer;   /* InfiniBand, Ethernet */
    char *rate;         /* "100 Gb/sec (4X EDR)" */
    struct gid_entry *gids;
    size_t ngids;
};

struct rdma_device {
    char *name;         /* mlx5_0, rxe0, vmw_pvrdma0 */
    char *driver;       /* mlx5_core, rdma_rxe, vmw_pvrdma, efa, hfi1 */
    struct rdma_port *ports;
    size_t nports;
};

struct facts {
    char *source;        /* where they came from: "/sys" or a recorded tree */
    char *ucx_version;   /* "1.13.1" */
    struct rdma_device *devs;
    size_t ndevs;
};

/* Read RDMA devices from `sysfs_root` (normally "/sys"; a recorded tree in
 * tests) and the UCX version from the library. A node without RDMA devices
 * gives facts with ndevs == 0; that is not an error. */
void facts_gather(struct facts *f, const char *sysfs_root);
void facts_free(struct facts *f);

bool port_is_active(const struct rdma_port *p);

#endif
