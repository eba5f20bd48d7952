/* The launcher table (launchers.h): one row per launcher, in enum launcher
 * order, and rows added after them (the unit tests' dummy launcher). */
#include "plan/launchers.h"
#include <string.h>

static struct launcher_desc table[MAX_LAUNCHERS] = {
    [LAUNCHER_MPIRUN] = {
        .word = "mpirun", .title = "Open MPI's mpirun", .argv = mpirun_argv,
        .programs = {"mpirun"}, .path_var = "RDMARUN_MPIRUN",
        .install_hint = "apt-get install openmpi-bin", .help = LAUNCHER_MPIRUN,
        .mpich_abi = 0, .other_mpi_hint = "--launcher hydra, or leave the launcher to rdmarun",
        .path_test = LAUNCHER_MPIRUN,
        .local_rank = {{"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE",
                        "OMPI_COMM_WORLD_RANK"}},
    },
    [LAUNCHER_SRUN] = {
        .word = "srun", .title = "srun", .argv = srun_argv,
        .programs = {"srun"}, .path_var = "RDMARUN_SRUN",
        .install_hint = "apt-get install slurm-client", .help = LAUNCHER_SRUN,
        .mpich_abi = -1, .pipes = true, .path_test = LAUNCHER_SRUN,
        /* SLURM_LOCALID is inherited by mpirun's daemons started by srun,
         * and by their ranks: read last. */
        .local_rank = {{"SLURM_LOCALID", "SLURM_TASKS_PER_NODE", "SLURM_PROCID"}},
        .rank_vars_inherited = true,
    },
    [LAUNCHER_EXEC] = {
        .word = "exec", .title = "COMMAND", .argv = exec_argv, .help = LAUNCHER_MPIRUN,
        .mpich_abi = -1, .command_is_launcher = true, .path_test = -1,
    },
    [LAUNCHER_HYDRA] = {
        .word = "hydra", .title = "Hydra's mpiexec (mpiexec.hydra, mpiexec.mpich)",
        .argv = hydra_argv, .programs = {"mpiexec.hydra", "mpiexec.mpich"}, .beside_mpi = true,
        .path_var = "RDMARUN_MPIEXEC", .install_hint = "apt-get install mpich",
        .help = LAUNCHER_HYDRA, .mpich_abi = 1,
        .other_mpi_hint = "--launcher mpirun, or --mpi mpich for an MPICH program",
        .path_test = LAUNCHER_MPIRUN,
        .local_rank = {{"MPI_LOCALRANKID", "MPI_LOCALNRANKS", "PMI_RANK"}},
    },
    [LAUNCHER_FLUX] = {
        .word = "flux", .title = "flux", .argv = flux_argv,
        .programs = {"flux"}, .path_var = "RDMARUN_FLUX",
        .install_hint = "Flux is not packaged in Debian: install flux-core",
        .help = LAUNCHER_MPIRUN, .mpich_abi = -1, .pipes = true, .path_test = -1,
        /* Flux's job shell: FLUX_TASK_LOCAL_ID, but no local size in the
         * environment (flux-core src/shell/task.c): the job passes it,
         * flux run --env=RDMARUN_LOCAL_SIZE=N --tasks-per-node=N. */
        .local_rank = {{"FLUX_TASK_LOCAL_ID", "RDMARUN_LOCAL_SIZE", "FLUX_TASK_RANK"}},
    },
    [LAUNCHER_PALS] = {
        .word = "pals", .title = "PALS's mpiexec (under /opt/cray/pals/)", .argv = pals_argv,
        .programs = {"mpiexec"}, .real_path_has = "/pals/", .path_var = "RDMARUN_PALS",
        .install_hint = "PALS comes with HPE's PBS Pro or Cray PE: load its module",
        .help = LAUNCHER_MPIRUN, .mpich_abi = -1, .pipes = true, .path_test = -1,
        /* PALS_LOCAL_RANKID with PALS's own PALS_LOCAL_SIZE, else with Cray
         * PMI's local size (ALCF's Polaris and Aurora guides). */
        .local_rank = {{"PALS_LOCAL_RANKID", "PALS_LOCAL_SIZE", "PALS_RANKID"},
                       {"PALS_LOCAL_RANKID", "PMI_LOCAL_SIZE", "PALS_RANKID"}},
    },
};
static int rows = LAUNCHER_PALS + 1;
static const char *words[MAX_LAUNCHERS + 1];

const struct launcher_desc *launcher_of(int kind)
{
    return kind >= 0 && kind < rows ? &table[kind] : NULL;
}

int launcher_count(void)
{
    return rows;
}

const char *const *launcher_words(void)
{
    for (int i = 0; i < rows; i++)
        words[i] = table[i].word;
    words[rows] = NULL;
    return words;
}

int launcher_add(const struct launcher_desc *row)
{
    if (rows == MAX_LAUNCHERS || !row->word || !row->argv)
        return -1;
    for (int i = 0; i < rows; i++)
        if (strcmp(table[i].word, row->word) == 0)
            return -1;
    table[rows] = *row;
    return rows++;
}
