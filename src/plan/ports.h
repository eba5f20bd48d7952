/* Which RDMA ports a fabric uses, and which of them are nearest to a NUMA
 * node. Shared by the plan (the job's ports) and the placement (each rank's
 * port). Pure: reads only the facts. */
#ifndef RDMARUN_PORTS_H
#define RDMARUN_PORTS_H
#include "facts/facts.h"
#include "facts/findings.h"
#include <stdbool.h>
#include <stddef.h>

/* The most ports a plan chooses among (and UCX_NET_DEVICES names): a node
 * with more ACTIVE ports of its fabric gets a note saying which are left
 * out (ports_over_cap), never a silent cut. */
#define MAX_PORTS 64
/* The most NUMA nodes of a node that plans and placements look at: as
 * many as facts take (os_index 0 to 1023). */
#define MAX_NUMA MAX_NUMA_NODES

/* What carries a fabric's traffic: UCX over verbs (pml ucx, UCX_NET_DEVICES),
 * libfabric (a provider: Open MPI's mtl ofi, MPICH's ch4:ofi, NCCL's OFI
 * plugin), GPUDirect-TCPX (NCCL's TCPX plugin and its receive-data-path
 * manager), or nothing of its own (tcp, shm). */
enum fabric_layer { LAYER_NONE, LAYER_UCX, LAYER_OFI, LAYER_TCPX };

struct fabric_row {
    const char *name;       /* fabric = NAME in a profile */
    const char *label;      /* "InfiniBand", "AWS EFA", for messages */
    const char *kinds;      /* the port kinds it uses (port_kind), "roce,pvrdma"; NULL: none */
    enum fabric_layer layer;
    const char *provider;   /* LAYER_OFI: the libfabric provider (fi_info -p) */
    const char *expect;     /* the path class a job on it should show (expect =) */
    const char *auto_profile;   /* the profile fabric = auto picks for it; NULL: none */
    /* The provider's variable that gives a rank its NICs, as UCX_NET_DEVICES
     * does for UCX (FI_EFA_IFACE, FI_CXI_DEVICE_NAME, FI_OPX_HFI_SELECT);
     * NULL: none */
    const char *rank_var;
};
/* The rank's NAME=VALUE of row->rank_var for its ports `nics` ("dev:1,..."):
 * device names, or hfi1_N's unit N for opx. Caller frees. */
char *fabric_rank_env(const struct fabric_row *row, const char *nics);
/* Cray MPICH's MPICH_OFI_NIC_MAPPING value (intro_mpi(3), with
 * MPICH_OFI_NIC_POLICY=USER) for local ranks 0..n-1 whose first port is
 * nics[r] ("cxi2:1"; NULL: none): "NIC:RANKS; ...", the NIC by its index
 * (cxiN is N, the order libfabric's cxi provider lists them), the ranks as
 * ranges ("0:0-1; 1:2-3"). NULL when a rank has none. Caller frees. */
char *fabric_nic_mapping(char *const *nics, int n);
struct rank_place;
/* Cray MPICH picks a rank's NIC itself: told the placement's choice as its
 * USER mapping, the same for every rank of RANKS[0..n-1]
 * (MPICH_OFI_NIC_POLICY=USER, MPICH_OFI_NIC_MAPPING); a restricted
 * FI_CXI_DEVICE_NAME would leave it one NIC for the mapping to name. */
void fabric_mapping_env(struct rank_place *ranks, int n);
#define MAX_AUTO_PROFILES 16
/* The profiles fabric = auto chooses among, in the table's order; how many. */
size_t fabric_auto_profiles(const char **out, size_t max);
/* The row of fabric NAME, or NULL. */
const struct fabric_row *fabric_row(const char *fabric);
/* The fabric whose ports are of one kind ("efa"), or NULL. */
const struct fabric_row *fabric_of_kind(const char *kind);
/* Whether the fabric's traffic goes through ports the plan places ranks by. */
bool fabric_has_ports(const char *fabric);

/* The ACTIVE ports of `fabric` (its row's kinds; rdma: ib, else roce), in
 * device order. */
size_t ports_select(const struct facts *f, const char *fabric, struct port_ref *out, size_t max);
/* How many ACTIVE ports of `fabric` the node has beyond MAX_PORTS (0 when
 * all fit). */
size_t ports_over_cap(const struct facts *f, const char *fabric);
/* Whether the fabric is one UCX carries over verbs (ib, roce, pvrdma, rdma). */
bool fabric_is_rdma(const char *fabric);
/* "InfiniBand", "RoCE", ... for messages. */
const char *fabric_label(const char *fabric);
/* Whether the device sits on NUMA node `numa_os` (true when unknown). */
bool device_local_to(const struct rdma_device *d, int numa_os);
/* How far NUMA node `numa_os` is from the nearest of f->numa[doms[0..n)]:
 * 0 when it is one of them, else hwloc's relative latency (10 local, 20 a
 * hop; INT_MAX/2 when hwloc gives no distances or does not know the node). */
int numa_gap(const struct facts *f, const size_t *doms, size_t n, int numa_os);
/* Of `all`, the ports nearest to the NUMA nodes f->numa[doms[0..n)]: those
 * local to any of them; else those of the NUMA node nearest to them (hwloc
 * distance) that has some; else all. *local says whether they are local.
 * The order spreads ranks over HCAs: every HCA's first port before any
 * HCA's second port. */
size_t ports_nearest(const struct facts *f, const size_t *doms, size_t n,
                     const struct port_ref *all, size_t nall, struct port_ref *out, bool *local);

#endif
