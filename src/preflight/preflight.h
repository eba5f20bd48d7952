/* Before a job: the live verbs RC loopback (qp_loopback.c) on the ports the
 * plan chose, under the plan's verify policy; and the same test on a node's
 * ports for `rdmarun check --qp-test` and the health check. */
#ifndef RDMARUN_PREFLIGHT_H
#define RDMARUN_PREFLIGHT_H
#include "facts/facts.h"
#include "plan/plan.h"
#include <stdbool.h>

/* The ports of this node to test: every ACTIVE one, or those `only` names
 * (DEV, every port of it, or DEV:PORT). gid_index >= 0 is used on each; else
 * the routable RoCE v2 GID on Ethernet, none on InfiniBand. */
size_t preflight_ports(const struct facts *f, const char *only, int gid_index,
                       struct plan_port *out, size_t max);
/* The QP test on each port; a line per result (passes only unless quiet).
 * Returns 0 when all pass, RR_EX_UNAVAILABLE otherwise (none to test too;
 * `what` names what was asked for in that message). */
int preflight_qp_test(const struct plan_port *ports, size_t n, const char *what, bool quiet);
/* Before launch, for a plan that verifies an RDMA job: the QP test on its
 * ports. strict refuses to launch on a failure (the status), warn warns and
 * returns 0. */
int preflight_run(const struct plan *p);
/* The dry run's part of it: under strict, the QP test (this node's own
 * loopback; it starts no process), with the status the run would have. The
 * path test between nodes starts the launcher on every node, so the dry run
 * only shows its command. */
int preflight_predict(const struct plan *p);

#endif
