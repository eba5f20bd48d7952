/* Each rank prints where it really runs: the CPUs it may run on
 * (sched_getaffinity), its NUMA memory policy (get_mempolicy) and the
 * placement variables in its environment (mem=interleave:0-1). Used to check rdmarun's placement
 * against what the kernel says. Build: mpicc -o mpi_placement mpi_placement.c -lnuma */
#define _GNU_SOURCE
#include <mpi.h>
#include <numaif.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "0-3,8" from a CPU set, as taskset -c prints it. */
static void cpu_list(const cpu_set_t *set, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE && n < len; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int end = c;
        while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
            end++;
        n += (size_t)snprintf(out + n, len - n, n ? ",%d" : "%d", c);
        if (end > c && n < len)
            n += (size_t)snprintf(out + n, len - n, "-%d", end);
        c = end;
    }
}

static const char *policy_name(int mode)
{
    switch (mode) {
    case MPOL_DEFAULT: return "default";
    case MPOL_PREFERRED: return "prefer";
    case MPOL_BIND: return "bind";
    case MPOL_INTERLEAVE: return "interleave";
    default: return "other";
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    cpu_set_t set;
    char cpus[1024] = "?";
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        cpu_list(&set, cpus, sizeof(cpus));
    int mode = -1;
    unsigned long nodes[16] = {0};
    char mem[64] = "unknown";
    if (get_mempolicy(&mode, nodes, sizeof(nodes) * 8, NULL, 0) == 0) {
        /* The node mask as a CPU set, to list it the same way: "0-1". */
        cpu_set_t mask;
        CPU_ZERO(&mask);
        for (int b = 0; b < (int)(sizeof(nodes) * 8); b++)
            if (nodes[b / 64] >> (b % 64) & 1)
                CPU_SET(b, &mask);
        char list[48];
        cpu_list(&mask, list, sizeof(list));
        if (mode == MPOL_DEFAULT || CPU_COUNT(&mask) == 0)
            snprintf(mem, sizeof(mem), "%s", policy_name(mode));
        else
            snprintf(mem, sizeof(mem), "%s:%s", policy_name(mode), list);
    }
    /* The local rank as the launcher gives it: Open MPI's, Hydra's, Slurm's,
     * torchrun's. */
    const char *names[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
                           "LOCAL_RANK"};
    const char *local = NULL;
    for (size_t i = 0; !local && i < sizeof(names) / sizeof(*names); i++)
        local = getenv(names[i]);
    const char *dev = getenv("UCX_NET_DEVICES"), *hca = getenv("NCCL_IB_HCA");
    const char *gpu = getenv("CUDA_VISIBLE_DEVICES");
    printf("placement rank=%d local=%s cpus=%s mem=%s UCX_NET_DEVICES=%s NCCL_IB_HCA=%s "
           "CUDA_VISIBLE_DEVICES=%s\n", rank, local ? local : "-", cpus, mem, dev ? dev : "-",
           hca ? hca : "-", gpu ? gpu : "-");
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
