/* Starting the launcher. */
#ifndef RDMARUN_LAUNCH_H
#define RDMARUN_LAUNCH_H
#include "util/strvec.h"
#include <stdbool.h>

/* The mpirun to use: --mpirun, then $RDMARUN_MPIRUN, then the first mpirun on
 * PATH that is not rdmarun's own drop-in wrapper (*on_path: the first one
 * there, so the plan names it "mpirun" as a shell would). Caller frees; NULL
 * when none is found. */
char *launch_find_mpirun(const char *option, bool *on_path);
/* The same for srun: --mpirun, then $RDMARUN_SRUN, then PATH. */
char *launch_find_srun(const char *option);
/* The same for MPICH's Hydra: --mpirun, then $RDMARUN_MPIEXEC, then the
 * mpiexec.hydra of the program's own MPI (beside LIBPATH, the MPI library
 * it loads, when not NULL: LIBDIR/../bin, Intel MPI's and any MPICH
 * installed in a prefix), then mpiexec.hydra or mpiexec.mpich (Debian's
 * name, beside Open MPI's mpiexec) on PATH. */
char *launch_find_mpiexec(const char *option, const char *libpath);
/* Flux's flux: --mpirun, then $RDMARUN_FLUX, then PATH. */
char *launch_find_flux(const char *option);
/* PALS's mpiexec: --mpirun, then $RDMARUN_PALS, then the mpiexec on PATH
 * when it is PALS's (installed under a .../pals/... prefix: /opt/cray/pals/
 * VERSION/bin, /opt/cray/pe/pals/...), never Open MPI's or Hydra's. */
char *launch_find_pals(const char *option);
/* The first executable `name` on PATH, past rdmarun's drop-in wrapper (a
 * name with '/' as it is). Caller frees; NULL when there is none. */
char *launch_on_path(const char *name);
/* Replace this process with argv (no shell), the program at `path` (NULL:
 * argv[0]). Returns only on failure, with an RR_EX_* status after printing why. */
int launch_exec(const char *path, const struct strvec *argv);
/* Say that the launcher at `path` could not be run (errno err), with a hint;
 * returns the status: RR_EX_NOTFOUND, or RR_EX_OSERR. */
int launch_failed(const char *path, int err);

/* Started by the drop-in wrapper (RDMARUN_WRAPPED names the launcher it
 * stands for: mpirun, mpiexec, orterun, prterun, mpiexec.hydra,
 * mpiexec.mpich) with an invocation that
 * launches nothing (no arguments; --version, -V, --help [TOPIC], --show-me):
 * replace this process with the real launcher of that name and the same
 * arguments, so flavour detection (CMake's FindMPI) sees Open MPI's answer.
 * Returns -1 when rdmarun should go on as itself, else the failure status.
 * RDMARUN_WRAPPED is removed from the environment either way. */
int launch_wrapped_passthrough(int argc, char **argv);
/* The MPI the wrapper's name implies for a program whose libraries name
 * none (a script): MPI_MPICH for mpiexec.hydra and mpiexec.mpich, which
 * are Hydra's; -1 for the others (and when not started by the wrapper). */
int launch_wrapped_mpi(void);

#endif
