/* A profile's [check] keys judged on a node's facts: the words of each
 * problem, once, for both readers: the health check (health/checks.c) and
 * the plan, which holds a job to them before launch. Pure. */
#ifndef RDMARUN_CHECK_KEYS_H
#define RDMARUN_CHECK_KEYS_H
#include "facts/facts.h"
#include "util/strvec.h"

/* port-state = active: the port is not ACTIVE. */
void judge_port_state(const struct port_ref *p, struct strvec *out);
/* min-rate (Gb/s), mtu, pcie-at-capability: on each port. */
void judge_rate(const char *min_gbps, const struct port_ref *p, size_t n, struct strvec *out);
void judge_mtu(const char *mtu, const struct port_ref *p, size_t n, struct strvec *out);
void judge_pcie(const struct port_ref *p, size_t n, struct strvec *out);
/* memlock (a size or unlimited) and hugepages (free pages): the node's limits. */
void judge_memlock(const char *want, const struct host_limits *l, struct strvec *out);
void judge_hugepages(const char *want, const struct host_limits *l, struct strvec *out);

#endif
