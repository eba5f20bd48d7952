/* Lossless RoCE: reading DCB's answers (facts/lossless.c) and the priority
 * a job's RoCE traffic takes. Pure, apart from facts_read_lossless. */
#ifndef RDMARUN_LOSSLESS_H
#define RDMARUN_LOSSLESS_H
#include "facts/facts.h"
#include "util/strvec.h"

/* `dcb -j pfc show` output: the priorities with PFC on as a bitmask, -1
 * when it is not that output. */
int lossless_parse_pfc(const char *text);
/* `dcb -j app show` output (6.1: [[26,3]], 6.15: [[26,3," "]]): its DSCP-to-priority map "26:3,48:6" ("" when
 * it maps no DSCP), NULL when it is not that output. */
char *lossless_parse_dscp_prio(const char *text);
/* The priority of DSCP `dscp` under map (as above): the mapped one, dscp >> 3
 * for an unmapped DSCP (the kernel's default), -2 when no DSCP is mapped (the
 * port trusts the VLAN PCP), -1 when the map is unknown. */
int lossless_dscp_priority(const char *map, int dscp);

/* The traffic class and service level a job's RoCE traffic carries. */
struct roce_class {
    int tclass;             /* the GRH traffic class (ToS byte): DSCP << 2 | ECN */
    int sl;                 /* the service level: the VLAN PCP on RoCE */
    const char *tclass_from, *sl_from;   /* where they were set: "UCX_IB_TRAFFIC_CLASS", ... */
    const char *who;        /* "UCX's", "NCCL's" */
};
/* The class of UCX's RoCE v2 traffic (UCX_IB_TRAFFIC_CLASS, default 106:
 * DSCP 26; UCX_IB_SL, default 0) or NCCL's (NCCL_IB_TC and NCCL_IB_SL, both
 * 0 by default) from the values set (NULL or "auto": unset). false when one
 * is not a number in range. */
bool roce_class_of(bool nccl, const char *tclass, const char *sl, struct roce_class *c);
/* The priority that traffic takes on device d, and how it was found (*why,
 * static): -1 when it cannot be told. */
int lossless_priority(const struct rdma_device *d, const struct roce_class *c, const char **why);
/* What is wrong with lossless RoCE on d for that traffic, a line each: PFC
 * or ECN off on its priority. *unknown lists what could not be read. */
void lossless_judge(const struct rdma_device *d, const struct roce_class *c, struct strvec *out,
                    struct strvec *unknown);

#endif
