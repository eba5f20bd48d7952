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
/* The port's rate is known and below min_gbps. */
bool port_rate_below(const struct rdma_port *p, double min_gbps);
/* The port's active MTU is known and is not mtu. */
bool port_mtu_differs(const struct rdma_port *p, int mtu);

enum limit_finding { LIMIT_OK, LIMIT_BELOW, LIMIT_UNKNOWN };
/* The soft memlock limit against a need in bytes (-1: unlimited). */
enum limit_finding memlock_against(const struct host_limits *l, long long need);

#endif
