/* Starting the launcher. */
#ifndef RDMARUN_LAUNCH_H
#define RDMARUN_LAUNCH_H
#include "util/strvec.h"
#include <stdbool.h>

/* The launcher of a row of the launcher table (plan/launchers.h): --mpirun
 * (`option`), then the row's variable ($RDMARUN_MPIRUN, $RDMARUN_SRUN, ...),
 * then, where the row says so, its program beside LIBPATH, the MPI library
 * the program loads (LIBDIR/../bin: Intel MPI's, an MPICH in a prefix),
 * then the first of its programs on PATH that is not rdmarun's own drop-in
 * wrapper, and, where the row names one, whose real path has real_path_has
 * (PALS's mpiexec under /opt/cray/pals/, never Open MPI's or Hydra's).
 * *on_path: found on PATH, the first one there, so the plan names it by
 * its name as a shell would. Caller frees; NULL when none is found (exec:
 * always, COMMAND is the launcher). */
struct launcher_desc;
char *launch_find(const struct launcher_desc *row, const char *option, const char *libpath,
                  bool *on_path);
/* A launcher not found: what was looked for, how to install it, the
 * variable that names its path. RR_EX_NOTFOUND. */
int launch_not_found(const struct launcher_desc *row);
/* The first executable `name` on PATH, past rdmarun's drop-in wrapper (a
 * name with '/' as it is). Caller frees; NULL when there is none. */
char *launch_on_path(const char *name);
/* A program of that MPI beside its library (LIBDIR/../bin/TOOL; oneAPI's
 * LIBDIR/lib/release/../../bin/TOOL), as a real path; NULL when none is
 * executable there. Caller frees. */
char *mpi_tool_beside(const char *libpath, const char *tool);
/* Replace this process with argv (no shell), the program at `path` (NULL:
 * argv[0]), the launcher of `row` (NULL: the drop-in wrapper's). Returns only
 * on failure, with an RR_EX_* status after printing why. */
int launch_exec(const struct launcher_desc *row, const char *path, const struct strvec *argv);
/* Say that the launcher at `path` could not be run (errno err), with the
 * hint of its row (how to install it and name its path; exec: COMMAND's);
 * returns the status: RR_EX_NOTFOUND, or RR_EX_OSERR. */
int launch_failed(const struct launcher_desc *row, const char *path, int err);

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
