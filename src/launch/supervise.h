/* Running the launcher as a child when the transports are to be verified:
 * signals forwarded, exit status passed through, evidence watched while the
 * job runs, the verdict printed after it, the policy applied. */
#ifndef RDMARUN_SUPERVISE_H
#define RDMARUN_SUPERVISE_H
#include "facts/facts.h"
#include "plan/plan.h"

/* Returns rdmarun's exit status: the job's own (128+N when a signal ended
 * it), or a verification status when the policy says so. */
int supervise(const struct plan *p, const struct facts *f);

#endif
