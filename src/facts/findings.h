/* Conditions on a node's facts that more than one stage judges: probe's
 * warnings, the health check's failures and the plan's notes word them for
 * their reader, but decide them here, once. Pure. */
#ifndef RDMARUN_FINDINGS_H
#define RDMARUN_FINDINGS_H
#include "facts/facts.h"
#include <stdbool.h>

/* ACTIVE, and physically LinkUp where the physical state is known. */
bool port_link_up(const struct rdma_port *p);
/* The PCIe link trained below the device's capability (speed or width,
 * where both sides are known). */
bool pcie_below_capability(const struct rdma_device *d);
/* What the trained PCIe link carries in Gb/s after its line encoding
 * (8b/10b up to 5 GT/s, 128b/130b at 8 to 32 GT/s, FLIT 242/256 at 64 GT/s);
 * 0 when speed or width is unknown. */
double pcie_gbps(const struct rdma_device *d);
/* The port's rate is known and more than the device's PCIe link carries: a
 * link at its capability can still be too narrow for the port (Gen3 x8
 * behind a 200 Gb/s port). */
bool pcie_narrower_than_port(const struct rdma_device *d, const struct rdma_port *p);
/* The fastest of the device's ports its PCIe link is narrower than, or NULL. */
const struct rdma_port *pcie_narrowest_port(const struct rdma_device *d);
/* A PCIe path class's place, nearest first: PIX 0, PXB 1, PHB 2, NODE 3,
 * SYS 4; -1 for anything else. */
int pcie_path_rank(const char *cls);
/* The GPU's path class to RDMA device `dev`, or NULL when unknown. */
const char *gpu_path_to(const struct gpu *g, const char *dev);
/* The RDMA device nearest to the GPU by PCIe path (*cls its class), or NULL. */
const char *gpu_nearest_nic(const struct gpu *g, const char **cls);
/* The port's rate is known and below min_gbps. */
bool port_rate_below(const struct rdma_port *p, double min_gbps);
/* The port's active MTU is known and is not mtu. */
bool port_mtu_differs(const struct rdma_port *p, int mtu);

/* An NVIDIA GPU (by vendor, else by the API hwloc saw it through). */
bool gpu_is_nvidia(const struct gpu *g);
/* GPUDirect RDMA on this node's side: nvidia_peermem (or the legacy
 * nv_peer_mem) loaded, or a device that registers dma-buf memory. 1 yes, 0
 * no, -1 unknown. */
int gpudirect_available(const struct facts *f);
/* More PUs than any machine hwloc has described: such a list is junk, and
 * expanding it would take the memory of the machine reading it. */
#define MAX_PUS 65536
/* NUMA node numbers: Linux's MAX_NUMNODES at its largest (NODES_SHIFT 10). */
#define MAX_NUMA_NODES 1024
/* A CPU list ("0-3,8") of PU numbers below MAX_PUS, checked before hwloc
 * reads one from a file: hwloc takes "-3" for PU 4294967293, reads numbers
 * with strtoul base 0 ("010" is 8), never ends on "08" and takes "0-9-2";
 * Linux writes "N" or "N-M" (N <= M), separated by commas. */
bool cpu_list_valid(const char *s);
/* The PUs of CPU list a that are also in b (b NULL: all of a), as a list;
 * NULL when none or when a list is not valid. */
char *cpus_common(const char *a, const char *b);

/* The PUs any of the device's interrupts go to, as a CPU list; NULL when
 * its interrupts are unknown or none. */
char *device_irq_cpus(const struct rdma_device *d);

enum limit_finding { LIMIT_OK, LIMIT_BELOW, LIMIT_UNKNOWN };
/* The soft memlock limit against a need in bytes (-1: unlimited). */
enum limit_finding memlock_against(const struct host_limits *l, long long need);

#endif
