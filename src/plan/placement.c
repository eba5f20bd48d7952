#include "plan/placement.h"
#include "plan/ports.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

static size_t core_count(const struct numa_node *n)
{
    size_t k = 0;
    while (n->core_pus && n->core_pus[k])
        k++;
    return k;
}

/* The PUs of cores [from, to) of NUMA node n, as one list. */
static char *pus_of_cores(const struct numa_node *n, size_t from, size_t to)
{
    hwloc_bitmap_t all = hwloc_bitmap_alloc(), one = hwloc_bitmap_alloc();
    for (size_t c = from; c < to; c++)
        if (hwloc_bitmap_list_sscanf(one, n->core_pus[c]) == 0)
            hwloc_bitmap_or(all, all, one);
    char *s = NULL, *out;
    out = hwloc_bitmap_list_asprintf(&s, all) < 0 ? xstrdup("") : xstrdup(s);
    free(s);
    hwloc_bitmap_free(one);
    hwloc_bitmap_free(all);
    return out;
}

static size_t numa_index(const struct facts *f, int os_index)
{
    for (size_t i = 0; i < f->nnuma; i++)
        if (f->numa[i].os_index == os_index)
            return i;
    return (size_t)-1;
}

/* Ranks go to NUMA nodes in blocks, in proportion to their cores, so that
 * local ranks 0..k share the first node (Open MPI's --map-by core order). */
static size_t block_domain(const struct facts *f, const size_t *doms, size_t ndoms, int r,
                           int size)
{
    size_t total = 0;
    for (size_t d = 0; d < ndoms; d++)
        total += core_count(&f->numa[doms[d]]);
    size_t c = (size_t)r * total / (size_t)size, seen = 0;
    for (size_t d = 0; d < ndoms; d++) {
        seen += core_count(&f->numa[doms[d]]);
        if (c < seen)
            return doms[d];
    }
    return doms[ndoms - 1];
}

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

static void rank_env(struct rank_place *rp, const struct placement_request *rq)
{
    if (rp->nics && rq->set_ucx)
        sv_pushf(&rp->env, "UCX_NET_DEVICES=%s", rp->nics);
    if (rp->nics && rq->set_nccl)
        sv_pushf(&rp->env, "NCCL_IB_HCA==%s", rp->nics);
    const char *vendor = rp->gpu ? vendor_of(rp->gpu) : "";
    if (strcmp(vendor, "NVIDIA") == 0) {
        sv_push(&rp->env, "CUDA_DEVICE_ORDER=PCI_BUS_ID");
        sv_pushf(&rp->env, "CUDA_VISIBLE_DEVICES=%d", rp->gpu_index);
    } else if (strcmp(vendor, "AMD") == 0) {
        sv_pushf(&rp->env, "ROCR_VISIBLE_DEVICES=%d", rp->gpu_index);
    } else if (strcmp(vendor, "Intel") == 0) {
        sv_pushf(&rp->env, "ZE_AFFINITY_MASK=%d", rp->gpu_index);
    }
}

/* The OpenMP variables for a rank on cores [from, to) of node n: a place
 * per core (its hardware threads together) or, with smt, per hardware
 * thread; one thread per place unless a count is asked for. True when the
 * count asked for is more than the places. */
static bool omp_env(struct rank_place *rp, const struct numa_node *n, size_t from, size_t to,
                   const struct placement_request *rq)
{
    struct strvec places = {0};
    hwloc_bitmap_t pus = hwloc_bitmap_alloc();
    for (size_t c = from; c < to; c++) {
        if (hwloc_bitmap_list_sscanf(pus, n->core_pus[c]) != 0)
            continue;
        /* OpenMP's place lists are "{0,1}", never a range ("0-1") */
        struct strvec core = {0};
        unsigned pu;
        hwloc_bitmap_foreach_begin(pu, pus) {
            if (rq->smt)
                sv_pushf(&places, "{%u}", pu);
            else
                sv_pushf(&core, "%u", pu);
        }
        hwloc_bitmap_foreach_end();
        if (!rq->smt) {
            char *list = sv_join(&core, ",");
            sv_pushf(&places, "{%s}", list);
            free(list);
        }
        sv_free(&core);
    }
    hwloc_bitmap_free(pus);
    int threads = rq->threads > 0 ? rq->threads : (int)places.n;
    char *list = sv_join(&places, ",");
    sv_pushf(&rp->env, "OMP_NUM_THREADS=%d", threads);
    sv_pushf(&rp->env, "OMP_PLACES=%s", list);
    sv_pushf(&rp->env, "OMP_PROC_BIND=%s", (size_t)threads < places.n ? "spread" : "close");
    free(list);
    bool crowded = (size_t)threads > places.n;
    sv_free(&places);
    return crowded;
}

/* Why a rank runs away from its GPU, naming the GPU's own NUMA node. */
static void gpu_away_note(const struct facts *f, const struct rank_place *rp, int r, bool crowded,
                          struct strvec *notes)
{
    int g = rp->gpu->numa_node;
    size_t gd = g >= 0 ? numa_index(f, g) : (size_t)-1;
    if (g < 0)
        sv_pushf(notes, "local rank %d: hwloc does not say which NUMA node %s is on; the rank "
                 "runs on NUMA %d", r, rp->gpu->name, rp->numa);
    else if (gd < f->nnuma && core_count(&f->numa[gd]) == 0)
        sv_pushf(notes, "local rank %d: %s is on NUMA %d, which has no cores; the rank runs on "
                 "NUMA %d", r, rp->gpu->name, g, rp->numa);
    else
        sv_pushf(notes, "local rank %d: %s is on NUMA %d, but the rank runs on NUMA %d%s", r,
                 rp->gpu->name, g, rp->numa,
                 crowded ? ": the GPUs' NUMA nodes have too few cores for every rank" : "");
}

static char *join_refs(const struct port_ref *p, size_t n)
{
    struct strvec v = {0};
    for (size_t i = 0; i < n; i++)
        sv_pushf(&v, "%s:%d", p[i].dev->name, p[i].port->num);
    char *s = sv_join(&v, ",");
    sv_free(&v);
    return s;
}

/* The NUMA nodes ranks may use under the policy (indexes into f->numa). */
static size_t eligible_domains(const struct facts *f, const struct placement_request *rq,
                               const struct port_ref *all, size_t nall, size_t *doms,
                               struct strvec *notes)
{
    size_t n = 0, near = 0, near_cores = 0;
    size_t near_doms[MAX_NUMA];
    for (size_t i = 0; i < f->nnuma && i < MAX_NUMA; i++) {
        if (core_count(&f->numa[i]) == 0)
            continue;   /* memory-only nodes (GPU or HBM memory) run no rank */
        doms[n++] = i;
        for (size_t k = 0; k < nall; k++)
            if (all[k].dev->local_numa && device_local_to(all[k].dev, f->numa[i].os_index)) {
                near_doms[near++] = i;
                near_cores += core_count(&f->numa[i]);
                break;
            }
    }
    if (rq->policy != BIND_NIC_LOCAL || nall == 0)
        return n;
    if (near == 0) {
        sv_push(notes, "no NUMA node has a local ACTIVE port: ranks are spread over every NUMA "
                "node and use the nearest port");
        return n;
    }
    if (near_cores < (size_t)rq->local_size) {
        sv_pushf(notes, "the NUMA nodes with a local port have %zu cores for %d ranks: ranks are "
                 "spread over every NUMA node instead, some with a remote port", near_cores,
                 rq->local_size);
        return n;
    }
    memcpy(doms, near_doms, near * sizeof(*doms));
    return near;
}

void placement_build(const struct facts *f, const struct placement_request *rq,
                     struct placement *out)
{
    memset(out, 0, sizeof(*out));
    out->policy = rq->policy;
    out->memory = rq->memory;
    int size = rq->local_size > 0 ? rq->local_size : 1;
    if (size > MAX_LOCAL_RANKS) {
        sv_pushf(&out->notes, "%d ranks on one node is more than rdmarun places (%d): showing "
                 "the first %d", size, MAX_LOCAL_RANKS, MAX_LOCAL_RANKS);
        size = MAX_LOCAL_RANKS;
    }
    out->local_size = size;
    out->ranks = xcalloc((size_t)size, sizeof(*out->ranks));
    for (int r = 0; r < size; r++)
        out->ranks[r].numa = -1;

    struct port_ref all[MAX_PORTS];
    size_t nall = rq->fabric && fabric_is_rdma(rq->fabric)
                ? ports_select(f, rq->fabric, all, MAX_PORTS) : 0;
    size_t doms[MAX_NUMA];
    size_t ndoms = eligible_domains(f, rq, all, nall, doms, &out->notes);
    if (ndoms == 0) {
        sv_push(&out->notes, "the topology shows no NUMA node with cores: ranks are not bound");
        return;
    }
    bool by_gpu = rq->policy == BIND_GPU_LOCAL && f->ngpus > 0;
    if (rq->policy == BIND_GPU_LOCAL && f->ngpus == 0)
        sv_push(&out->notes, "gpu-local: this node has no GPU: ranks are placed by NUMA node");
    if (by_gpu && (size_t)size > f->ngpus)
        sv_pushf(&out->notes, "%d ranks share %zu GPU%s", size, f->ngpus,
                 f->ngpus == 1 ? "" : "s");

    /* Each rank's NUMA node (index into f->numa). */
    size_t *dom = xcalloc((size_t)size, sizeof(*dom));
    size_t on[MAX_NUMA] = {0}, seen[MAX_NUMA] = {0};   /* ranks per NUMA node */
    for (int r = 0; r < size; r++) {
        dom[r] = block_domain(f, doms, ndoms, r, size);
        if (!by_gpu)
            continue;
        const struct gpu *g = &f->gpus[(size_t)r * f->ngpus / (size_t)size];
        out->ranks[r].gpu = g;
        out->ranks[r].gpu_index = gpu_index(f, g);
        size_t gd = g->numa_node >= 0 ? numa_index(f, g->numa_node) : (size_t)-1;
        out->ranks[r].gpu_local = gd < MAX_NUMA && core_count(&f->numa[gd]) > 0;
        if (out->ranks[r].gpu_local)
            dom[r] = gd;
    }
    for (int r = 0; r < size; r++)
        on[dom[r]]++;
    /* More ranks than the GPUs' NUMA nodes have cores: spread them instead. */
    bool crowded = false;
    for (size_t d = 0; by_gpu && d < f->nnuma && d < MAX_NUMA; d++)
        crowded |= on[d] > core_count(&f->numa[d]);
    if (crowded) {
        sv_pushf(&out->notes, "the GPUs' NUMA nodes have fewer cores than their %d ranks: ranks "
                 "are spread over every NUMA node, some away from their GPU", size);
        memset(on, 0, sizeof(on));
        for (int r = 0; r < size; r++) {
            dom[r] = block_domain(f, doms, ndoms, r, size);
            out->ranks[r].gpu_local = out->ranks[r].gpu->numa_node == f->numa[dom[r]].os_index;
            on[dom[r]]++;
        }
    }

    /* Cores: each NUMA node's cores split into contiguous blocks among its
     * ranks; the NIC: the nearest ports, dealt round-robin among them. */
    hwloc_bitmap_t remote = hwloc_bitmap_alloc();   /* local ranks with a remote port */
    int crowded_threads = 0;
    for (int r = 0; r < size; r++) {
        struct rank_place *rp = &out->ranks[r];
        const struct numa_node *node = &f->numa[dom[r]];
        size_t m = on[dom[r]], j = seen[dom[r]]++;
        size_t nc = core_count(node);
        size_t from = j * nc / m, to = (j + 1) * nc / m;
        rp->shared = m > nc;
        if (to <= from)
            to = from + 1;   /* more ranks than cores: cores are shared */
        rp->numa = node->os_index;
        rp->pus = pus_of_cores(node, from, to);
        rp->ncores = (int)(to - from);
        if (nall) {
            struct port_ref near[MAX_PORTS];
            size_t nnear = ports_nearest(f, dom[r], all, nall, near, &rp->nic_local);
            bool one = rq->nics == NICS_ONE;
            rp->nics = one ? join_refs(&near[j % nnear], 1) : join_refs(near, nnear);
            if (!rp->nic_local)
                hwloc_bitmap_set(remote, (unsigned)r);
        }
        if (by_gpu && !rp->gpu_local)
            gpu_away_note(f, rp, r, crowded, &out->notes);
        rank_env(rp, rq);
        if (rq->threads && omp_env(rp, node, from, to, rq) && !crowded_threads++)
            sv_pushf(&out->notes, "local rank %d: %d OpenMP threads on fewer %s: threads share "
                     "them", r, rq->threads, rq->smt ? "hardware threads" : "cores");
    }
    for (int r = 0; r < size; r++)
        if (out->ranks[r].shared) {
            sv_pushf(&out->notes, "more ranks than cores on some NUMA nodes: ranks there share "
                     "cores (first: local rank %d on NUMA %d)", r, out->ranks[r].numa);
            break;
        }
    int nremote = hwloc_bitmap_weight(remote);
    char *list = NULL;
    if (nremote > 0 && hwloc_bitmap_list_asprintf(&list, remote) >= 0)
        sv_pushf(&out->notes, "no ACTIVE %s port is local to the NUMA node of local rank%s %s: "
                 "%s the nearest port on another NUMA node", fabric_label(rq->fabric),
                 nremote > 1 ? "s" : "", list, nremote > 1 ? "they use" : "it uses");
    free(list);
    hwloc_bitmap_free(remote);
    free(dom);
}

void placement_free(struct placement *p)
{
    for (int r = 0; p->ranks && r < p->local_size; r++) {
        free(p->ranks[r].pus);
        free(p->ranks[r].nics);
        sv_free(&p->ranks[r].env);
    }
    free(p->ranks);
    sv_free(&p->notes);
    memset(p, 0, sizeof(*p));
}
