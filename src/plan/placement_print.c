#include "plan/placement.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static const char *near_word(bool known, bool local)
{
    return !known ? "-" : local ? "local" : "remote";
}

/* The rank's GPUs by name, "cuda0,cuda1"; NULL: none. */
static char *gpu_names(const struct rank_place *rp)
{
    if (rp->ngpus == 0)
        return NULL;
    struct strvec v = {0};
    for (size_t i = 0; i < rp->ngpus; i++)
        sv_push(&v, rp->gpus[i]->name);
    char *s = sv_join(&v, ",");
    sv_free(&v);
    return s;
}

void placement_print_table(const struct placement *p, const char *host, FILE *out)
{
    fprintf(out, "placement: policy %s, %d rank%s per node, memory %s%s%s\n",
            bind_policy_names[p->policy],
            p->local_size, p->local_size == 1 ? "" : "s", memory_policy_names[p->memory], host ? ", host " : "",
            host ? host : "");
    fprintf(out, "  %-5s %-5s %-5s %-16s %-16s %-6s %-8s %-6s %s\n", "local", "NUMA", "cores",
            "PUs", "NIC", "NIC-is", "GPU", "GPU-is", "GPU-NIC");
    for (int r = 0; r < p->local_size; r++) {
        const struct rank_place *rp = &p->ranks[r];
        if (!rp->numa) {
            fprintf(out, "  %-5d not bound\n", r);
            continue;
        }
        char *gpus = gpu_names(rp);
        fprintf(out, "  %-5d %-5s %-5d %-16s %-16s %-6s %-8s %-6s %s\n", r, rp->numa, rp->ncores,
                rp->pus, rp->nics ? rp->nics : "-", near_word(rp->nics, rp->nic_local),
                gpus ? gpus : "-", near_word(gpus, rp->gpu_local),
                rp->gpu_nic_path ? rp->gpu_nic_path : "-");
        free(gpus);
    }
    for (size_t i = 0; i < p->notes.n; i++)
        fprintf(out, "note: %s\n", p->notes.v[i]);
}

void placement_json(const struct placement *p, struct json *j)
{
    json_begin_object(j, "placement");
    json_string(j, "policy", bind_policy_names[p->policy]);
    json_string(j, "memory", memory_policy_names[p->memory]);
    json_int(j, "ranks_per_node", p->local_size);
    json_begin_array(j, "ranks");
    for (int r = 0; r < p->local_size; r++) {
        const struct rank_place *rp = &p->ranks[r];
        json_begin_object(j, NULL);
        json_int(j, "local_rank", r);
        if (rp->numa) {
            json_begin_array(j, "numa");
            for (size_t i = 0; i < rp->nnuma; i++)
                json_int(j, NULL, rp->numa_os[i]);
            json_end_array(j);
        } else {
            json_null(j, "numa");
        }
        json_string(j, "memory", rp->numa ? placement_memory(p, rp) : NULL);
        json_string(j, "pus", rp->pus);
        json_int(j, "cores", rp->ncores);
        json_bool(j, "cores_shared", rp->shared);
        json_string(j, "nic", rp->nics);
        json_bool(j, "nic_local", rp->nics && rp->nic_local);
        json_begin_array(j, "gpus");
        for (size_t i = 0; i < rp->ngpus; i++)
            json_string(j, NULL, rp->gpus[i]->name);
        json_end_array(j);
        json_bool(j, "gpu_local", rp->ngpus && rp->gpu_local);
        json_string(j, "gpu_nic_path", rp->gpu_nic_path);
        json_begin_array(j, "env");
        for (size_t i = 0; i < rp->env.n; i++)
            json_string(j, NULL, rp->env.v[i]);
        json_end_array(j);
        json_end_object(j);
    }
    json_end_array(j);
    json_begin_array(j, "notes");
    for (size_t i = 0; i < p->notes.n; i++)
        json_string(j, NULL, p->notes.v[i]);
    json_end_array(j);
    json_end_object(j);
}

char *placement_rank_line(const struct placement *p, int local_rank, const char *host, long rank)
{
    const struct rank_place *rp = &p->ranks[local_rank];
    char *names = gpu_names(rp);
    char *gpu = names ? xasprintf(", GPU%s %s (%s%s%s)", rp->ngpus > 1 ? "s" : "", names,
                                  near_word(true, rp->gpu_local),
                                  rp->gpu_nic_path ? ", PCIe path to the NIC " : "",
                                  rp->gpu_nic_path ? rp->gpu_nic_path : "") : xstrdup("");
    free(names);
    char *nic = rp->nics ? xasprintf(", NIC %s (%s)", rp->nics, near_word(true, rp->nic_local))
                         : xstrdup("");
    char *line = !rp->numa
        ? xasprintf("rank %ld (local %d of %d) on %s: not bound", rank, local_rank,
                    p->local_size, host)
        : xasprintf("rank %ld (local %d of %d) on %s: PUs %s (%d core%s%s), NUMA %s, memory %s%s%s",
                    rank, local_rank, p->local_size, host, rp->pus, rp->ncores,
                    rp->ncores == 1 ? "" : "s", rp->shared ? ", shared" : "", rp->numa,
                    placement_memory(p, rp), nic, gpu);
    free(gpu);
    free(nic);
    return line;
}
