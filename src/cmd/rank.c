/* rdmarun rank: the per-rank helper. mpirun starts it in front of each rank
 * (the plan writes `rdmarun rank OPTIONS -- PROGRAM ARGS`); it finds its local
 * rank, probes its own node (so nodes that differ each decide on their own
 * facts), binds itself to the chosen cores and NUMA memory, sets the rank's
 * NIC and GPU variables, and execs the program: same pid, argv and the rest
 * of the environment. Affinity and memory policy survive exec. */
#include "cmd/commands.h"
#include "facts/facts.h"
#include "plan/placement.h"
#include "evidence/stream.h"
#include "launch/rank.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* This rank's local rank and the node's rank count from its launcher's
 * variables, checked; the variable's name, or NULL after saying why. */
static const char *local_rank_of(long *local, long *size, long *rank)
{
    const char *from = rank_from_launcher(local, size, rank);
    if (!from) {
        rr_error("rank: cannot tell this rank's local rank: none of OMPI_COMM_WORLD_LOCAL_RANK, "
                 "SLURM_LOCALID, LOCAL_RANK, MPI_LOCALRANKID, MV2_COMM_WORLD_LOCAL_RANK, "
                 "PALS_LOCAL_RANKID, PMI_LOCAL_RANK, FLUX_TASK_LOCAL_ID or RDMARUN_LOCAL_RANK "
                 "is set with its local size (hint: 'rdmarun rank' runs under mpirun, "
                 "mpiexec, srun or torchrun, in front of each rank; under Flux give "
                 "RDMARUN_LOCAL_SIZE)");
        return NULL;
    }
    if (*local >= *size) {
        rr_error("rank: %s says local rank %ld of %ld ranks on this node, which cannot be",
                 from, *local, *size);
        return NULL;
    }
    if (*size > MAX_LOCAL_RANKS) {
        rr_error("rank: %ld ranks on one node; rdmarun places at most %d (hint: --bind-policy "
                 "none)", *size, MAX_LOCAL_RANKS);
        return NULL;
    }
    return from;
}

/* The rank's CPUs and memory policy, unless it keeps the job's: 0, or the
 * exit status after saying why. */
static int bind_rank(const struct placement *pl, const struct rank_place *rp, long rank,
                     bool keep_cpus)
{
    if (!rp->numa || keep_cpus)
        return 0;
    if (rank_bind_cpus(rp->pus) != 0) {
        rr_error("rank %ld: cannot bind to PUs %s: %s (hint: the job's cpuset may not include "
                 "them; use --bind-policy none)", rank, rp->pus, strerror(errno));
        return RR_EX_OSERR;
    }
    if (rank_bind_memory(rp->numa, pl->memory) != 0) {
        rr_error("rank %ld: cannot set the memory policy (%s) to NUMA %s: %s (hint: [bind] "
                 "memory = none)", rank, placement_memory(pl, rp), rp->numa, strerror(errno));
        return RR_EX_OSERR;
    }
    return 0;
}

/* The rank's variables set, but for GPUs the job was given (Slurm's --gpus,
 * a site, the user): that list stays, and CUDA's order too, which its
 * indexes mean. The names left as they were go in kept. */
static void set_rank_env(const struct facts *facts, const struct rank_place *rp,
                         struct strvec *kept)
{
    for (size_t i = 0; i < rp->env.n; i++) {
        char *name = xstrndup(rp->env.v[i], strcspn(rp->env.v[i], "="));
        long n = placement_devices_of(facts, name);
        const char *before = getenv(name);
        if (n >= 0 && before && rank_devices_restricted(before, (size_t)n)) {
            sv_push(kept, name);
            if (strcmp(name, "CUDA_VISIBLE_DEVICES") == 0)
                sv_push(kept, "CUDA_DEVICE_ORDER");
        }
        free(name);
    }
    for (size_t i = 0; i < rp->env.n; i++) {
        char *name = xstrndup(rp->env.v[i], strcspn(rp->env.v[i], "="));
        if (sv_find(kept, name) < 0)
            setenv(name, rp->env.v[i] + strlen(name) + 1, 1);
        free(name);
    }
}

/* What the rank says on stderr (which the launcher brings to the
 * supervisor from every node: no file system is shared for it): its line
 * with --report (and the launcher's variable), with --record the tagged
 * line, and local rank 0 the node's notes. */
static void say_rank(const struct rank_args *a, const struct placement *pl,
                     const struct facts *facts, const struct strvec *kept, long local,
                     long rank, const char *host, const char *from)
{
    char *line = placement_rank_line(pl, (int)local, host, rank);
    if (a->report)
        fprintf(stderr, "rdmarun: %s [%s]\n", line, from);
    if (a->record) {
        fprintf(stderr, PLACEMENT_TAG "%s\n", line);
        for (size_t i = 0; local == 0 && i < pl->notes.n; i++)
            fprintf(stderr, PLACEMENT_TAG "note: %s: %s\n", host, pl->notes.v[i]);
    }
    if (a->report && local == 0)
        for (size_t i = 0; i < pl->notes.n; i++)
            fprintf(stderr, "rdmarun: note: %s: %s\n", host, pl->notes.v[i]);
    for (size_t k = 0; local == 0 && k < kept->n; k++)
        if (placement_devices_of(facts, kept->v[k]) >= 0)
            fprintf(stderr, "rdmarun: note: %s: %s=%s was set before rdmarun (the job's GPUs, "
                    "from Slurm or the site): the ranks keep it; gpu-local does not choose their "
                    "GPUs\n", host, kept->v[k], getenv(kept->v[k]));
    free(line);
}

int cmd_rank(const struct cmdline *cl)
{
    /* Each of its lines in one write(): every rank's helper writes to
     * stderr at once, and glibc 2.37+ writes an unbuffered stderr's line in
     * 128-byte pieces, which Open MPI 5 interleaves with the other ranks'
     * (a --record line cut so is lost from placement.txt). Line-buffered,
     * a line leaves whole; exec drops nothing, each line being flushed. */
    static char line_buffer[8192];
    setvbuf(stderr, line_buffer, _IOLBF, sizeof(line_buffer));
    long local, size, rank;
    const char *from = local_rank_of(&local, &size, &rank);
    if (!from)
        return RR_EX_USAGE;
    const struct rank_args *a = &cl->rank;
    int threads = threads_value(a->threads);
    if (threads == -2) {
        rr_error("rank: --threads %s: expected a number of threads or auto", a->threads);
        return RR_EX_USAGE;
    }
    struct facts facts;
    struct facts_sources src = {.sysfs_root = a->sysfs, .placement_only = true};
    int rc = facts_gather(&facts, &src);
    if (rc) {
        facts_free(&facts);
        return rc;
    }
    int policy = a->bind_policy ? name_index(bind_policy_names, a->bind_policy) : BIND_NUMA;
    int memory = a->memory ? name_index(memory_policy_names, a->memory) : MEMORY_PREFER;
    int nics = a->nics ? name_index(nic_choice_names, a->nics) : NICS_ONE;
    struct placement_request rq = {
        .policy = (enum bind_policy)policy, .fabric = a->fabric, .nics = (enum nic_choice)nics,
        .memory = (enum memory_policy)memory, .set_ucx = a->net_devices,
        .set_nccl = a->nccl_hca, .set_fabric = a->fabric_nics,
        .nic_mapping = a->nic_mapping, .local_size = (int)size, .threads = threads, .smt = a->smt,
        .gpus_by_local_rank = strcmp(from, "LOCAL_RANK") == 0,
    };
    struct placement pl;
    placement_build(&facts, &rq, &pl);
    const struct rank_place *rp = &pl.ranks[local];
    char host[256] = "localhost";
    gethostname(host, sizeof(host) - 1);
    host[sizeof(host) - 1] = '\0';
    rc = bind_rank(&pl, rp, rank, a->keep_cpus);
    struct strvec kept = {0};   /* names of the variables left as they are */
    if (!rc) {
        set_rank_env(&facts, rp, &kept);
        say_rank(a, &pl, &facts, &kept, local, rank, host, from);
    }
    sv_free(&kept);
    placement_free(&pl);
    facts_free(&facts);
    if (rc)
        return rc;
    fflush(NULL);
    execvp(cl->job.program.v[0], cl->job.program.v);
    int err = errno;
    rr_error("rank %ld: cannot run %s: %s", rank, cl->job.program.v[0], strerror(err));
    return err == ENOENT ? RR_EX_NOTFOUND : RR_EX_NOEXEC;
}
