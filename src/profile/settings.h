/* The settings that steer rdmarun itself (not UCX or Open MPI): each an
 * enum with the words a profile or an option spells it with, and one rule of
 * precedence for all of them: the command line's option, else the profile's
 * value, else the built-in default, each with the origin the plan shows. */
#ifndef RDMARUN_SETTINGS_H
#define RDMARUN_SETTINGS_H
#include "profile/profile.h"

enum verify_policy { VERIFY_OFF, VERIFY_WARN, VERIFY_STRICT };
/* What a job's paths between nodes should be: a path class (evidence/
 * path_class.h) or a set of them; rdma is every fabric class that is not
 * TCP by design (rdma, efa, cxi, opx). */
enum expectation { EXPECT_RDMA, EXPECT_TCP, EXPECT_LOCAL, EXPECT_ANY, EXPECT_EFA, EXPECT_CXI,
                   EXPECT_OPX, EXPECT_GPUDIRECT_TCP };
/* The built-in launchers, rows of plan/launcher.c's table. */
enum launcher { LAUNCHER_MPIRUN, LAUNCHER_SRUN, LAUNCHER_EXEC, LAUNCHER_HYDRA, LAUNCHER_FLUX,
                LAUNCHER_PALS };
#define MAX_LAUNCHERS 16
/* The MPI family a job's program is linked with: its launcher and vocabulary. */
/* MPI_IMPI: Intel MPI, MPICH's ABI (libmpi.so.12) and its own Hydra. */
enum mpi_family { MPI_OPENMPI, MPI_MPICH, MPI_IMPI };
/* MPICH and the MPIs built on it: Hydra's mpiexec, MPICH's ABI and MPI_T. */
#define MPI_MPICH_ABI(f) ((f) == MPI_MPICH || (f) == MPI_IMPI)
enum bind_policy { BIND_NONE, BIND_NUMA, BIND_NIC_LOCAL, BIND_GPU_LOCAL };
enum memory_policy { MEMORY_PREFER, MEMORY_BIND, MEMORY_NONE };
enum nic_choice { NICS_ONE, NICS_NEAREST };

/* The words, in enum order, and the same as "a|b|c" for the schema and
 * messages. */
extern const char *const verify_policy_names[], *const expectation_names[],
    *const bind_policy_names[], *const memory_policy_names[],
    *const nic_choice_names[], *const mpi_family_names[],
    *const mpi_family_titles[];
#define VERIFY_POLICIES "off|warn|strict"
#define EXPECTATIONS "rdma|tcp|local|any|efa|cxi|opx|gpudirect-tcp"
#define LAUNCHERS "mpirun|srun|exec|hydra|flux|pals"
#define MPI_FAMILIES "openmpi|mpich|impi"
#define BIND_POLICIES "none|numa|nic-local|gpu-local"
#define MEMORY_POLICIES "prefer|bind|none"
#define NIC_CHOICES "one|nearest"

/* Whether an expectation is a fabric's own path (rdma, efa, cxi, opx,
 * gpudirect-tcp), which TCP sockets or no evidence fail under strict. */
bool expects_fabric(int expectation);
/* Index of `word` in a NULL-terminated list of names, or -1. */
int name_index(const char *const *names, const char *word);

/* One resolved setting: its word and where it came from ("--verify",
 * "roce.ini:4", "default"). */
struct setting {
    int value;       /* the enum */
    char *origin;    /* owned */
};

/* given (an option's value, spelled `option`) wins over [section] key of the
 * profile, which wins over dflt. Values were checked when read (options by
 * the parser, profiles by the schema), so a word outside `names` cannot
 * arrive; should one, the default is kept. */
void setting_resolve(struct setting *out, const char *const *names, const char *given,
                     const char *option, const struct profile *p, const char *section,
                     const char *key, int dflt);
void setting_free(struct setting *s);

/* A fixed key's value in `p` ([section] key), else its default in the
 * key table (schema.c), else NULL. */
const char *schema_value(const struct profile *p, const char *section, const char *key);

#endif
