/* What plan.c's plan_build calls in the files it is split into: one job
 * each (plan_auto.c, plan_evidence.c, plan_bind.c, plan_checks.c). */
#ifndef RDMARUN_PLAN_PARTS_H
#define RDMARUN_PLAN_PARTS_H
#include "plan/plan.h"

/* A profile value `auto` (section, key) resolved from the job's ports. */
void plan_resolve_auto(struct plan *p, struct plan_item *it, const char *section,
                       const char *key, const struct port_ref *ports, size_t nports,
                       const char *where);
/* NCCL_NET_GDR_LEVEL = auto: from each GPU's PCIe path to the job's NICs. */
void plan_resolve_gdr_level(struct plan_item *it, const struct facts *f,
                            const struct port_ref *ports, size_t nports);
/* The variables that make the ranks report their transports into `dir`. */
void plan_evidence(struct plan *p, const char *dir, const struct job_args *job,
                   const char *rq_impi_debug);
/* [bind] threads and smt, --threads winning over the profile. */
void plan_threads(struct plan *p, const struct profile *prof, const struct plan_request *rq);
/* The placement the per-rank helper gives each rank, or --bind-to for mpirun. */
void plan_placement(struct plan *p, const struct plan_request *rq);
/* The profile's [check] keys judged on this node before launch. */
void plan_checks(struct plan *p, const struct profile *prof, const struct facts *f,
                 const struct port_ref *fabric_ports, size_t nfabric);
/* The path test between the job's nodes, where the launcher can start it. */
void plan_path(struct plan *p, const struct profile *prof, const struct plan_request *rq);
/* The nodes the job names (its hosts), else the allocation's; -1: unknown. */
long plan_job_nodes(const struct plan_request *rq);

#endif
