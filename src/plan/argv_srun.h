#ifndef RDMARUN_SRUN_H
#define RDMARUN_SRUN_H
#include "plan/plan.h"

/* Append to p->argv the srun command for the plan's items and the options
 * the user gave (`given`, written for mpirun or for srun), up to the
 * program. Untranslatable options become notes. */
void srun_argv(struct plan *p, const char *srun, const struct strvec *given);

#endif
