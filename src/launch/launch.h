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
/* Replace this process with argv (no shell), the program at `path` (NULL:
 * argv[0]). Returns only on failure, with an RR_EX_* status after printing why. */
int launch_exec(const char *path, const struct strvec *argv);
/* Say that the launcher at `path` could not be run (errno err), with a hint;
 * returns the status: RR_EX_NOTFOUND, or RR_EX_OSERR. */
int launch_failed(const char *path, int err);

#endif
