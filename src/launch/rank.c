/* What the per-rank helper does to its own process: learn its local rank
 * from the launcher that started it, bind itself, record where it went. */
#include "launch/rank.h"
#include "facts/findings.h"
#include "plan/launchers.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool env_int(const char *name, long *out)
{
    return parse_long(getenv(name), 0, LONG_MAX, out);
}

/* Slurm's SLURM_STEP_TASKS_PER_NODE ("2(x3),1") for node `node`. */
static bool slurm_local_size(long node, long *out)
{
    const char *s = getenv("SLURM_STEP_TASKS_PER_NODE");
    if (!s)
        s = getenv("SLURM_TASKS_PER_NODE");
    for (long seen = 0; s && *s;) {
        char *end;
        long tasks = strtol(s, &end, 10), times = 1;
        if (end == s)
            return false;
        if (strncmp(end, "(x", 2) == 0)
            times = strtol(end + 2, &end, 10), end += *end == ')';
        if (node < seen + times) {
            *out = tasks;
            return true;
        }
        seen += times;
        s = end + (*end == ',');
    }
    return false;
}

/* One launcher's variables (local rank, local size, rank): whether they
 * are all there; a rank not given is the local rank. */
static bool rank_vars(const char *const vars[3], long *local, long *size, long *rank)
{
    long node;
    if (!vars[0] || !env_int(vars[0], local))
        return false;
    bool sized = strcmp(vars[1], "SLURM_TASKS_PER_NODE") == 0
                     ? env_int("SLURM_NODEID", &node) && slurm_local_size(node, size)
                     : env_int(vars[1], size);
    if (sized && !env_int(vars[2], rank))
        *rank = *local;
    return sized;
}

/* The launcher table's variables (plan/launchers.h): the inherited rows'
 * or the others'. The variable read, or NULL. */
static const char *launcher_rank(bool inherited, long *local, long *size, long *rank)
{
    for (int k = 0; k < launcher_count(); k++) {
        const struct launcher_desc *l = launcher_of(k);
        for (size_t i = 0; l->rank_vars_inherited == inherited && i < 2; i++)
            if (rank_vars(l->local_rank[i], local, size, rank))
                return l->local_rank[i][0];
    }
    return NULL;
}

const char *rank_from_launcher(long *local, long *size, long *rank)
{
    /* Variables of no launcher of rdmarun's: its own first; torchrun's
     * (torch.distributed.elastic), DeepSpeed's and Accelerate's, whose
     * workers start below any MPI or Slurm task (a worker of `srun
     * torchrun` also has SLURM_LOCALID 0); then the launchers'; then
     * MVAPICH's and Cray PMI's own pair where PALS's is not there. */
    static const char *const before[][3] = {
        {"RDMARUN_LOCAL_RANK", "RDMARUN_LOCAL_SIZE", "RDMARUN_RANK"},
        {"LOCAL_RANK", "LOCAL_WORLD_SIZE", "RANK"},
    }, *const after[][3] = {
        {"MV2_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_SIZE", "MV2_COMM_WORLD_RANK"},
        {"PMI_LOCAL_RANK", "PMI_LOCAL_SIZE", "PMI_RANK"},
    };
    for (size_t i = 0; i < sizeof(before) / sizeof(*before); i++)
        if (rank_vars(before[i], local, size, rank))
            return before[i][0];
    const char *found = launcher_rank(false, local, size, rank);
    for (size_t i = 0; !found && i < sizeof(after) / sizeof(*after); i++)
        if (rank_vars(after[i], local, size, rank))
            found = after[i][0];
    return found ? found : launcher_rank(true, local, size, rank);
}

cpu_set_t *rank_cpu_set(const char *pus, size_t *size)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    cpu_set_t *mask = NULL;
    /* Sized by the highest PU named, not glibc's fixed 1024: a cpu_set_t
     * drops PU 1024 and above without a word. */
    if (set && cpu_list_valid(pus) && hwloc_bitmap_list_sscanf(set, pus) == 0 &&
        !hwloc_bitmap_iszero(set)) {
        int count = hwloc_bitmap_last(set) + 1;
        *size = CPU_ALLOC_SIZE(count);
        mask = CPU_ALLOC(count);
        if (mask && hwloc_cpuset_to_glibc_sched_affinity(NULL, set, mask, *size) != 0) {
            CPU_FREE(mask);
            mask = NULL;
        }
    }
    hwloc_bitmap_free(set);
    return mask;
}

int rank_bind_cpus(const char *pus)
{
    size_t size;
    cpu_set_t *mask = rank_cpu_set(pus, &size);
    if (!mask) {
        errno = EINVAL;
        return -1;
    }
    int rc = sched_setaffinity(0, size, mask);
    CPU_FREE(mask);
    return rc;
}

int rank_bind_memory(const char *nodes, enum memory_policy how)
{
    if (how == MEMORY_NONE)
        return 0;
    if (numa_available() < 0) {
        errno = ENOSYS;
        return -1;
    }
    /* libnuma's own parser, so "0-3" means to it what it means to numactl. */
    struct bitmask *set = numa_parse_nodestring(nodes);
    if (!set) {
        errno = EINVAL;
        return -1;
    }
    /* set_mempolicy itself, not numa_set_*: those report a failure only by
     * printing it. */
    int mode = how == MEMORY_BIND ? MPOL_BIND
             : numa_bitmask_weight(set) > 1 ? MPOL_INTERLEAVE : MPOL_PREFERRED;
    int rc = set_mempolicy(mode, set->maskp, set->size + 1);
    numa_bitmask_free(set);
    return rc;
}

bool rank_devices_restricted(const char *before, size_t n)
{
    size_t seen = 0;
    bool *has = n ? xcalloc(n, sizeof(*has)) : NULL;
    bool whole = n > 0;
    for (const char *p = before; whole && *p;) {
        long k;
        size_t len = strcspn(p, ",");
        char *item = xstrndup(p, len);
        whole = parse_long(item, 0, (long)n - 1, &k) && !has[k];
        if (whole)
            has[k] = true, seen++;
        free(item);
        p += len + (p[len] == ',');
    }
    free(has);
    return !(whole && seen == n);
}
