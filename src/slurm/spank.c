/* SPANK plugin: `srun/sbatch/salloc --rdma-profile=NAME` makes every rdmarun
 * in the job use that profile (RDMARUN_PROFILE in the tasks' environment,
 * the batch script's included). Load it from plugstack.conf:
 *   optional /usr/local/lib/rdmarun/rdmarun_spank.so */
#include <stdint.h>   /* spank.h needs it first */
#include <slurm/spank.h>
#include <stdlib.h>
#include <string.h>

SPANK_PLUGIN(rdmarun, 1);

static char *profile;

static int take_profile(int val, const char *optarg, int remote)
{
    (void)val;
    (void)remote;
    if (!optarg || !*optarg || strchr(optarg, '\n')) {
        slurm_error("rdmarun: --rdma-profile needs a profile name or file");
        return ESPANK_BAD_ARG;
    }
    free(profile);
    profile = strdup(optarg);
    return profile ? ESPANK_SUCCESS : ESPANK_ERROR;
}

static struct spank_option rdma_profile = {
    "rdma-profile", "NAME",
    "rdmarun tuning profile for this job (sets RDMARUN_PROFILE; see rdmarun-slurm(7))", 1, 0,
    take_profile,
};

/* The option is registered in every context (as NVIDIA's pyxis does): sbatch
 * and salloc know it only so, and slurmstepd must know it to receive its
 * value. */
int slurm_spank_init(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    return spank_option_register(sp, &rdma_profile);
}

/* In each task (and the batch script) just before it starts. */
int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (profile && spank_setenv(sp, "RDMARUN_PROFILE", profile, 1) != ESPANK_SUCCESS) {
        slurm_error("rdmarun: cannot set RDMARUN_PROFILE for the task");
        return ESPANK_ERROR;
    }
    return ESPANK_SUCCESS;
}
