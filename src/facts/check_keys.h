/* A profile's [check] keys judged on a node's facts: the words of each
 * problem, once, for both readers: the health check (health/checks.c) and
 * the plan, which holds a job to them before launch. Pure. */
#ifndef RDMARUN_CHECK_KEYS_H
#define RDMARUN_CHECK_KEYS_H
#include "facts/facts.h"
#include "facts/lossless.h"
#include "util/strvec.h"

/* port-state = active: the port is not ACTIVE. */
void judge_port_state(const struct port_ref *p, struct strvec *out);
/* min-rate (Gb/s), mtu, pcie-at-capability: on each port. */
void judge_rate(const char *min_gbps, const struct port_ref *p, size_t n, struct strvec *out,
                struct strvec *unknown);   /* an active port whose rate is unreadable */
void judge_mtu(const char *mtu, const struct port_ref *p, size_t n, struct strvec *out);
void judge_pcie(const struct port_ref *p, size_t n, struct strvec *out);
/* memlock (a size or unlimited) and hugepages (free pages): the node's limits. */
void judge_memlock(const char *want, const struct host_limits *l, struct strvec *out);
void judge_hugepages(const char *want, const struct host_limits *l, struct strvec *out);

/* The judges below add what they could not read to *unknown, a line each. */
/* lossless: PFC and ECN on the priority RoCE traffic of class c takes, on
 * each device with an Ethernet port. */
void judge_lossless(const struct port_ref *p, size_t n, const struct roce_class *c,
                    struct strvec *out, struct strvec *unknown);
/* irq-affinity: a device's interrupts all off its NUMA node; and when
 * rank_cpus is set (a CPU list), delivered to the cores the ranks run on. */
void judge_irqs(const struct port_ref *p, size_t n, const char *rank_cpus, struct strvec *out,
                struct strvec *unknown);
/* governor (a cpufreq governor name) and max-idle-latency (us): on the PUs
 * of cpus (a CPU list), or every PU when NULL. */
void judge_governor(const char *want, const struct cpu_state *c, const char *cpus,
                    struct strvec *out, struct strvec *unknown);
void judge_idle(const char *max_us, const struct cpu_state *c, const char *cpus,
                struct strvec *out, struct strvec *unknown);
/* gpudirect: NVIDIA GPUs with RDMA devices can use GPUDirect RDMA
 * (nvidia_peermem or dma-buf) and no bridge on a GPU-NIC path redirects it. */
void judge_gpudirect(const struct facts *f, struct strvec *out, struct strvec *unknown);

#endif
