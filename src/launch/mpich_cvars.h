/* The MPICH control variables a job is given (MPIR_CVAR_*: the profile's
 * [mpich], -x, the environment), checked by the program's own MPICH. */
#ifndef RDMARUN_MPICH_CVARS_H
#define RDMARUN_MPICH_CVARS_H
#include "plan/plan.h"

/* For an MPICH job: each name must be one of LIBRARY's control variables
 * (MPICH ignores any other) and each value one it parses; otherwise the
 * plan fails with 78, naming where the value came from. LIBRARY is the
 * program's (libmpich.so.12 when unknown). Notes when it cannot be asked. */
void mpich_cvars_check(struct plan *p, const char *library);

#endif
