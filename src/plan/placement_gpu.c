/* Each rank's GPUs as its vendor's visible-devices variable (placement_gpu.h). */
#include "plan/placement_gpu.h"
#include "plan/ports.h"
#include "facts/findings.h"
#include "util/text.h"
#include <stdlib.h>
#include <string.h>

/* Who made it: the facts' vendor, else the API hwloc named it by (facts
 * saved before vendors were recorded). */
static const char *vendor_of(const struct gpu *g)
{
    if (g->vendor)
        return g->vendor;
    if (starts_with(g->name, "cuda") || starts_with(g->name, "nvml"))
        return "NVIDIA";
    if (starts_with(g->name, "rsmi"))
        return "AMD";
    if (starts_with(g->name, "ze"))
        return "Intel";
    return "";
}

/* Its index among its vendor's GPUs in PCI bus order: what
 * CUDA_VISIBLE_DEVICES (with CUDA_DEVICE_ORDER=PCI_BUS_ID),
 * ROCR_VISIBLE_DEVICES and ZE_AFFINITY_MASK count (ROCm and Level Zero
 * enumerate in PCI order). */
static int gpu_index(const struct facts *f, const struct gpu *g)
{
    int k = 0;
    for (size_t i = 0; i < f->ngpus; i++)
        if (strcmp(vendor_of(&f->gpus[i]), vendor_of(g)) == 0 && g->pci_busid &&
            f->gpus[i].pci_busid && strcmp(f->gpus[i].pci_busid, g->pci_busid) < 0)
            k++;
    return k;
}

/* The rank's GPUs as its vendor's visible-devices variable (indexes in PCI
 * order among that vendor's GPUs). A rank sees only its own, as device 0,
 * as Slurm's --gpu-bind and mpibind show them. A worker that picks its GPU
 * by local rank (torchrun's, DeepSpeed's, Accelerate's: PyTorch's
 * `torch.cuda.set_device(LOCAL_RANK)`) would find no device there: it sees
 * every GPU instead, its own at index local rank (modulo their number), so
 * both that and `cuda:LOCAL_RANK % device_count()` pick it. Level Zero's
 * mask does not promise an order, so Intel GPUs stay restricted. */
static const struct { const char *vendor, *var; bool ordered; } vendors[] = {
    {"NVIDIA", "CUDA_VISIBLE_DEVICES", true}, {"AMD", "ROCR_VISIBLE_DEVICES", true},
    {"Intel", "ZE_AFFINITY_MASK", false},
};

static int vendor_gpus(const struct facts *f, const char *vendor)
{
    int n = 0;
    for (size_t i = 0; i < f->ngpus; i++)
        n += strcmp(vendor_of(&f->gpus[i]), vendor) == 0;
    return n;
}

long placement_devices_of(const struct facts *f, const char *var)
{
    for (size_t v = 0; v < sizeof(vendors) / sizeof(vendors[0]); v++)
        if (strcmp(var, vendors[v].var) == 0)
            return vendor_gpus(f, vendors[v].vendor);
    return -1;
}

void placement_gpu_env(const struct facts *f, struct rank_place *rp, int local, bool by_local)
{
    for (size_t v = 0; v < sizeof(vendors) / sizeof(vendors[0]); v++) {
        struct strvec ids = {0};
        int own = -1, n = vendor_gpus(f, vendors[v].vendor);
        for (size_t i = 0; i < rp->ngpus; i++)
            if (strcmp(vendor_of(rp->gpus[i]), vendors[v].vendor) == 0) {
                int k = gpu_index(f, rp->gpus[i]);
                own = own < 0 ? k : own;
                sv_pushf(&ids, "%d", k);
            }
        if (ids.n && by_local && vendors[v].ordered) {
            /* 0..n-1 with the rank's GPU and the one at its index swapped. */
            int at = local % n;
            sv_free(&ids);
            for (int k = 0; k < n; k++)
                sv_pushf(&ids, "%d", k == at ? own : k == own ? at : k);
        }
        if (ids.n && v == 0)
            sv_push(&rp->env, "CUDA_DEVICE_ORDER=PCI_BUS_ID");
        if (ids.n) {
            char *list = sv_join(&ids, ",");
            sv_pushf(&rp->env, "%s=%s", vendors[v].var, list);
            free(list);
        }
        sv_free(&ids);
    }
}

/* How far port i's device is from the rank's NUMA nodes (ports.h,
 * numa_gap: 0 on one of them; a device on no known node is near). */
static int rank_port_gap(const struct facts *f, const struct rank_place *rp,
                         const struct port_ref *port)
{
    size_t doms[MAX_NUMA], n = 0;
    for (size_t k = 0; k < rp->nnuma && n < MAX_NUMA; k++)
        for (size_t i = 0; i < f->nnuma; i++)
            if (f->numa[i].os_index == rp->numa_os[k])
                doms[n++] = i;
    int dev = port->dev->numa_node;
    return dev < 0 || n == 0 ? 0 : numa_gap(f, doms, n, dev);
}

/* NCCL's path classes (nvidia-smi topo -m), nearest first; unknown last. */
static int path_rank(const char *cls)
{
    static const char *const order[] = {"PIX", "PXB", "PHB", "NODE", "SYS"};
    for (int i = 0; cls && i < 5; i++)
        if (strcmp(cls, order[i]) == 0)
            return i;
    return 5;
}

size_t gpu_port_choice(const struct facts *f, const struct rank_place *rp,
                       const struct port_ref *all, size_t nall, const int *load, size_t cur)
{
    size_t best = cur;
    int gap = rank_port_gap(f, rp, &all[cur]);
    int best_path = path_rank(gpu_path_to(rp->gpus[0], all[cur].dev->name));
    for (size_t i = 0; i < nall; i++) {
        int path = path_rank(gpu_path_to(rp->gpus[0], all[i].dev->name));
        /* the rank's own share of its current port does not count against it */
        bool lighter = load[i] < load[best] - (best == cur);
        if (rank_port_gap(f, rp, &all[i]) <= gap &&
            (path < best_path || (path == best_path && lighter))) {
            best = i;
            best_path = path;
        }
    }
    return best;
}
