/* The launcher's own options, as the installed launcher lists them: their
 * names and how many words each takes. rdmarun tells them from its own and
 * from mistakes with this list, never with a list of its own making. */
#ifndef RDMARUN_LAUNCHER_OPTIONS_H
#define RDMARUN_LAUNCHER_OPTIONS_H
#include "profile/settings.h"
#include "util/strvec.h"
#include <stdbool.h>
#include <stddef.h>

struct launcher_opts {
    char *label;           /* as messages name it: "mpirun 4.1.4", "srun" */
    struct strvec names;   /* without their dashes: "np", "mca", "x" */
    int *nargs;            /* the words after each */
    size_t cap;
    bool asked;            /* false: the launcher could not be asked (fallback list) */
    char *per_option;      /* Open MPI 5's mpirun, whose lists (prterun's) leave out
                            * options of its own (--display-map): asked for one
                            * name at a time, `mpirun --help NAME` */
};

/* The options a launcher's help lists, added to out; how many. Four forms:
 * Open MPI 4's `mpirun --help all` ("   -mca|--mca <arg0> <arg1>   ..."),
 * PRRTE's table (Open MPI 5's prterun --help: | "-c" | "--np <num>" | ...),
 * srun's --help ("  -A, --account=name   ...") and Hydra's mpiexec -h
 * ("    -genv {name} {value}   ...", "-n/-np {value}"). */
size_t launcher_options_parse(const char *help, struct launcher_opts *out);
/* The options of the launcher at `path` (srun: srun's --help; hydra:
 * mpiexec -h; else Open MPI's mpirun, or PRRTE's prterun beside it), asked once per binary and
 * kept in the user's runtime folder, keyed by the binary's real path, size,
 * mtime and inode. When it cannot be asked (not there, not Open MPI, srun
 * without its configuration) out->asked is false and out holds the fallback
 * list: the Open MPI options rdmarun itself reads or translates. */
void launcher_options_of(const char *path, enum launcher kind, struct launcher_opts *out);
/* The words option `name` (without dashes) takes, or -1 when it is none
 * (Open MPI 5's mpirun is asked about a name its lists lack). */
int launcher_option_nargs(struct launcher_opts *o, const char *name);
/* Open MPI 5's answer to `mpirun --help NAME`: the words it takes ("Syntax:
 * --mca <arg0> <arg1>": 2; none said: 0), or -1 when it is no option. */
int launcher_help_nargs(const char *help);
void launcher_options_free(struct launcher_opts *o);

#endif
