/* The MPI's own variables a job is given (MPICH's MPIR_CVAR_*, Intel MPI's
 * I_MPI_*: the profile's [mpich] and [impi], -x, the environment), checked
 * by the program's own MPI. */
#ifndef RDMARUN_MPI_VARS_H
#define RDMARUN_MPI_VARS_H
#include "plan/plan.h"

/* For an MPICH or Intel MPI job: each MPIR_CVAR_ name must be one of
 * LIBRARY's control variables (MPICH ignores any other) and each value one
 * it parses; each I_MPI_ name one Intel's impi_info lists. Otherwise the
 * plan fails with 78, naming where the value came from. LIBRARY is the
 * program's (the file its loader finds, else its soname; libmpich.so.12
 * when NULL). Notes when the MPI cannot be asked. */
void mpi_vars_check(struct plan *p, const char *library);

#endif
