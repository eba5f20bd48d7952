#include "plan/placement.h"
#include "plan/placement_gpu.h"
#include "facts/findings.h"
#include "plan/ports.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <hwloc.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static size_t core_count(const struct numa_node *n)
{
    size_t k = 0;
    while (n->core_pus && n->core_pus[k])
        k++;
    return k;
}

/* Its cores' hardware threads. */
static size_t pu_count(const struct numa_node *n)
{
    size_t k = 0;
    hwloc_bitmap_t one = hwloc_bitmap_alloc();
    for (size_t c = 0; n->core_pus && n->core_pus[c]; c++)
        if (hwloc_bitmap_list_sscanf(one, n->core_pus[c]) == 0)
            k += (size_t)hwloc_bitmap_weight(one);
    hwloc_bitmap_free(one);
    return k;
}

/* Each hardware thread of a core, a string each, appended to out; how many. */
static size_t threads_of_core(const char *core, struct strvec *out)
{
    hwloc_bitmap_t one = hwloc_bitmap_alloc();
    unsigned pu;
    if (hwloc_bitmap_list_sscanf(one, core) == 0) {
        hwloc_bitmap_foreach_begin(pu, one) {
            sv_pushf(out, "%u", pu);
        } hwloc_bitmap_foreach_end();
    }
    hwloc_bitmap_free(one);
    return out->n;
}

/* The PUs of cores[from, to), as one list. */
static char *pus_of_cores(const char *const *cores, size_t from, size_t to)
{
    hwloc_bitmap_t all = hwloc_bitmap_alloc(), one = hwloc_bitmap_alloc();
    for (size_t c = from; c < to; c++)
        if (hwloc_bitmap_list_sscanf(one, cores[c]) == 0)
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

/* Bucket j of n when `items` are dealt out as mpibind deals them: in
 * blocks, the first blocks one longer; with fewer items than buckets,
 * consecutive buckets share an item, the first items more of them. */
static void deal(size_t items, size_t n, size_t j, size_t *from, size_t *to)
{
    *from = *to = 0;
    if (items == 0 || n == 0)
        return;
    if (items >= n) {
        size_t avg = items / n, rem = items % n;
        *from = j * avg + (j < rem ? j : rem);
        *to = *from + avg + (j < rem);
        return;
    }
    size_t avg = n / items, rem = n % items;   /* buckets per item */
    *from = j < rem * (avg + 1) ? j / (avg + 1) : rem + (j - rem * (avg + 1)) / avg;
    *to = *from + 1;
}

/* Consecutive NUMA nodes (doms[d0 .. d0+nd)) and the consecutive local
 * ranks (r0 .. r0+nr) that share their cores and GPUs: one rank on several
 * nodes (fewer ranks than nodes), or several ranks on one. */
struct unit {
    size_t d0, nd;
    int r0, nr;
};

/* With at least as many ranks as NUMA nodes: one rank on each node of
 * some weight, then every further rank to the node where it leaves the most
 * weight per rank (D'Hondt's rule, so shares stay balanced and no core is
 * shared while another is free). The weight is a node's cores, or under
 * gpu-local its GPUs (nodes without one take no rank). A tie goes to a node
 * with a local port (nic-local) or with a GPU still without a rank
 * (gpu-local), then to the first node. */
static void ranks_per_node(const size_t *weight, const size_t *gpus, const bool *port,
                           size_t ndoms, int size, enum bind_policy policy, int *k)
{
    int given = 0;
    for (size_t d = 0; d < ndoms; d++)
        given += k[d] = weight[d] > 0;
    for (int r = given; r < size; r++) {
        size_t best = ndoms;
        int pull_best = 0;
        for (size_t d = 0; d < ndoms; d++) {
            if (weight[d] == 0)
                continue;
            int pull = policy == BIND_NIC_LOCAL ? port[d]
                     : policy == BIND_GPU_LOCAL ? gpus[d] > (size_t)k[d] : 0;
            if (best == ndoms) {
                best = d, pull_best = pull;
                continue;
            }
            unsigned long long mine = (unsigned long long)weight[d] * (unsigned)(k[best] + 1),
                               theirs = (unsigned long long)weight[best] * (unsigned)(k[d] + 1);
            if (mine > theirs || (mine == theirs && pull > pull_best))
                best = d, pull_best = pull;
        }
        if (best == ndoms)   /* no node of any weight: the caller gives one */
            break;
        k[best]++;
    }
}

/* The OpenMP variables for a rank on cores[from, to): a place per core
 * (its hardware threads together) or, with smt, per hardware thread; one
 * thread per place unless a count is asked for. True when the count asked
 * for is more than the places. */
static bool omp_env(struct rank_place *rp, const char *const *cores, size_t from, size_t to,
                    const struct placement_request *rq)
{
    /* Written as it goes: a string a PU, joined, took 12 s under ASan for
     * a core of 65536 PUs placed for 1 to 64 ranks (make fuzz). */
    char *list = NULL;
    size_t len = 0, nplaces = 0;
    FILE *m = xmemstream_open(&list, &len);
    hwloc_bitmap_t pus = hwloc_bitmap_alloc();
    for (size_t c = from; c < to; c++) {
        if (hwloc_bitmap_list_sscanf(pus, cores[c]) != 0)
            continue;
        /* OpenMP's place lists are "{0,1}", never a range ("0-1") */
        unsigned pu;
        bool first = true;
        hwloc_bitmap_foreach_begin(pu, pus) {
            if (rq->smt || first)
                fputs(nplaces++ ? ",{" : "{", m);
            fprintf(m, first || rq->smt ? "%u" : ",%u", pu);
            if (rq->smt)
                fputc('}', m);
            first = false;
        }
        hwloc_bitmap_foreach_end();
        if (!rq->smt && !first)
            fputc('}', m);
    }
    hwloc_bitmap_free(pus);
    xmemstream_close(m);
    int threads = rq->threads > 0 ? rq->threads : (int)nplaces;
    sv_pushf(&rp->env, "OMP_NUM_THREADS=%d", threads);
    sv_pushf(&rp->env, "OMP_PLACES=%s", list);
    sv_pushf(&rp->env, "OMP_PROC_BIND=%s", (size_t)threads < nplaces ? "spread" : "close");
    free(list);
    return (size_t)threads > nplaces;
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

/* The rank's NUMA nodes, doms[u->d0 .. +nd), as a list and one by one. */
static void rank_numa(const struct facts *f, const size_t *doms, const struct unit *u,
                      struct rank_place *rp)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    rp->numa_os = xcalloc(u->nd, sizeof(*rp->numa_os));
    for (size_t i = 0; i < u->nd; i++) {
        rp->numa_os[i] = f->numa[doms[u->d0 + i]].os_index;
        hwloc_bitmap_set(set, (unsigned)rp->numa_os[i]);
    }
    rp->nnuma = u->nd;
    char *s = NULL;
    rp->numa = hwloc_bitmap_list_asprintf(&s, set) < 0 ? xstrdup("") : xstrdup(s);
    free(s);
    hwloc_bitmap_free(set);
}

/* The rank's port: the nearest ports to its NUMA nodes (all of them with
 * nics = nearest, else the one of them fewest ranks use so far). */
static void rank_nic(const struct facts *f, const size_t *doms, const struct unit *u,
                     const struct port_ref *all, size_t nall, int *load,
                     const struct placement_request *rq, struct rank_place *rp)
{
    struct port_ref near[MAX_PORTS];
    size_t nnear = ports_nearest(f, &doms[u->d0], u->nd, all, nall, near, &rp->nic_local);
    if (nnear == 0)
        return;
    if (rq->nics != NICS_ONE) {
        rp->nics = join_refs(near, nnear);
        return;
    }
    size_t best = 0, best_i = 0;
    for (size_t k = 0; k < nnear; k++)
        for (size_t i = 0; i < nall; i++)
            if (all[i].port == near[k].port && (k == 0 || load[i] < load[best_i]))
                best = k, best_i = i;
    load[best_i]++;
    rp->nics = join_refs(&near[best], 1);
}

/* gpu-local: every GPU goes to some rank and every rank gets one. Each
 * unit's own GPUs are dealt to its ranks (blocks of GPUs, or ranks sharing
 * one when there are more ranks); a GPU on no NUMA node with cores goes to
 * the rank with fewest; a rank still without one takes a GPU from a rank
 * that holds several (the nearest such), else shares the nearest. */
/* The GPU deal's state: which rank owns each GPU (-1: none) and how many
 * ranks use it; the GPU a rank shares (-1: none) and how many it has; each
 * unit's NUMA distance to each GPU. */
struct gpu_deal {
    size_t ng, size;
    int *owner, *users, *count, *gap;
    long *share;
    const size_t *unit_of;
};

/* A rank's distance to GPU g. */
static int rank_gap(const struct gpu_deal *d, size_t r, size_t g)
{
    return d->gap[d->unit_of[r] * d->ng + g];
}

/* Each unit's own GPUs (distance 0) dealt among its ranks: owned where
 * there are as many GPUs as ranks, else shared. */
static void deal_local(struct gpu_deal *d, const struct facts *f, const size_t *doms,
                       const struct unit *units, size_t nunits)
{
    size_t *mine = xcalloc(d->ng, sizeof(size_t));
    for (size_t u = 0; u < nunits; u++) {
        const struct unit *un = &units[u];
        size_t nl = 0;
        for (size_t g = 0; g < d->ng; g++) {
            d->gap[u * d->ng + g] = f->gpus[g].numa_node < 0 ? INT_MAX / 2
                                  : numa_gap(f, &doms[un->d0], un->nd, f->gpus[g].numa_node);
            if (d->gap[u * d->ng + g] == 0)
                mine[nl++] = g;
        }
        for (int j = 0; j < un->nr; j++) {
            size_t a, b, r = (size_t)(un->r0 + j);
            deal(nl, (size_t)un->nr, (size_t)j, &a, &b);
            for (size_t i = a; i < b; i++) {
                if (nl >= (size_t)un->nr)
                    d->owner[mine[i]] = (int)r;
                else
                    d->share[r] = (long)mine[i];
                d->users[mine[i]]++;
                d->count[r]++;
            }
        }
    }
    free(mine);
}

/* A GPU no rank took goes to the rank with the fewest, nearest first. */
static void place_unused(struct gpu_deal *d)
{
    for (size_t g = 0; g < d->ng; g++) {
        if (d->users[g])
            continue;
        size_t best = 0;
        for (size_t r = 1; r < d->size; r++)
            if (d->count[r] < d->count[best] ||
                (d->count[r] == d->count[best] && rank_gap(d, r, g) < rank_gap(d, best, g)))
                best = r;
        d->owner[g] = (int)best;
        d->users[g]++;
        d->count[best]++;
    }
}

/* A rank without a GPU takes one from a rank with two or more (the
 * nearest), else shares the nearest, least used. */
static void serve_rank(struct gpu_deal *d, size_t r)
{
    long take = -1;
    for (size_t g = 0; g < d->ng; g++) {
        int h = d->owner[g];
        if (h < 0 || d->count[h] < 2)
            continue;
        int dist = rank_gap(d, r, g), bd = take < 0 ? 0 : rank_gap(d, r, (size_t)take);
        if (take < 0 || dist < bd || (dist == bd && d->count[h] >= d->count[d->owner[take]]))
            take = (long)g;
    }
    if (take >= 0) {
        d->count[d->owner[take]]--;
        d->owner[take] = (int)r;
    } else {
        take = 0;
        for (size_t g = 1; g < d->ng; g++) {
            int dist = rank_gap(d, r, g), bd = rank_gap(d, r, (size_t)take);
            if (dist < bd || (dist == bd && d->users[g] < d->users[take]))
                take = (long)g;
        }
        d->share[r] = take;
        d->users[take]++;
    }
    d->count[r]++;
}

static void assign_gpus(const struct facts *f, const size_t *doms, const struct unit *units,
                        size_t nunits, const size_t *unit_of, struct placement *out)
{
    struct gpu_deal d = {.ng = f->ngpus, .size = (size_t)out->local_size, .unit_of = unit_of};
    d.owner = xcalloc(d.ng, sizeof(int));
    d.users = xcalloc(d.ng, sizeof(int));
    d.share = xcalloc(d.size, sizeof(long));
    d.count = xcalloc(d.size, sizeof(int));
    d.gap = xcalloc(nunits * d.ng, sizeof(int));   /* unit to GPU */
    for (size_t g = 0; g < d.ng; g++)
        d.owner[g] = -1;
    for (size_t r = 0; r < d.size; r++)
        d.share[r] = -1;
    deal_local(&d, f, doms, units, nunits);
    place_unused(&d);
    for (size_t r = 0; r < d.size; r++)
        if (!d.count[r])
            serve_rank(&d, r);
    for (size_t r = 0; r < d.size; r++) {
        struct rank_place *rp = &out->ranks[r];
        rp->gpus = xcalloc((size_t)d.count[r], sizeof(*rp->gpus));
        rp->gpu_local = true;
        for (size_t g = 0; g < d.ng; g++)
            if (d.owner[g] == (int)r || d.share[r] == (long)g) {
                rp->gpus[rp->ngpus++] = &f->gpus[g];
                rp->gpu_local &= rank_gap(&d, r, g) == 0;
            }
    }
    free(d.owner);
    free(d.users);
    free(d.share);
    free(d.count);
    free(d.gap);
}

/* Why a rank's GPU is not on its NUMA nodes, naming the GPU's own node. */
static void gpu_away_note(const struct facts *f, const struct rank_place *rp, int r,
                          struct strvec *notes)
{
    const struct gpu *g = NULL;
    bool own = false;   /* some GPU is on the rank's NUMA nodes */
    for (size_t i = 0; i < rp->ngpus; i++) {
        bool here = false;
        for (size_t k = 0; k < rp->nnuma; k++)
            here |= rp->gpus[i]->numa_node == rp->numa_os[k];
        own |= here;
        if (!here && !g)
            g = rp->gpus[i];
    }
    for (size_t i = 0; !own && i < f->ngpus; i++)
        for (size_t k = 0; k < rp->nnuma; k++)
            own |= f->gpus[i].numa_node == rp->numa_os[k];
    if (!g)
        return;
    size_t gd = g->numa_node >= 0 ? numa_index(f, g->numa_node) : (size_t)-1;
    if (g->numa_node < 0)
        sv_pushf(notes, "local rank %d: hwloc does not say which NUMA node %s is on; the rank "
                 "runs on NUMA %s", r, g->name, rp->numa);
    else if (gd < f->nnuma && core_count(&f->numa[gd]) == 0)
        sv_pushf(notes, "local rank %d: %s is on NUMA %d, which has no cores; the rank runs on "
                 "NUMA %s", r, g->name, g->numa_node, rp->numa);
    else
        sv_pushf(notes, "local rank %d: %s is on NUMA %d, but the rank runs on NUMA %s, %s", r,
                 g->name, g->numa_node, rp->numa,
                 own ? "whose GPUs the other ranks there hold"
                     : rp->nnuma > 1 ? "which have no GPU" : "which has no GPU");
}

const char *placement_memory(const struct placement *p, const struct rank_place *rp)
{
    return p->memory == MEMORY_PREFER && rp->nnuma > 1 ? "interleave"
                                                        : memory_policy_names[p->memory];
}

/* What a placement is built from: the NUMA nodes ranks run on (those with
 * cores: memory-only nodes, GPU or HBM memory, run none), with their
 * cores, GPUs and ports; the fabric's ports and how many ranks use each. */
struct build {
    const struct facts *f;
    const struct placement_request *rq;
    struct placement *out;
    struct port_ref all[MAX_PORTS];
    size_t nall;
    size_t doms[MAX_NUMA], cores[MAX_NUMA], gpus[MAX_NUMA], ndoms, total;
    bool port[MAX_NUMA];
    int load[MAX_PORTS];
    struct unit *units;
    size_t nunits, *unit_of;
    hwloc_bitmap_t remote;   /* local ranks with a remote port */
    bool interleave;
    int crowded_threads;
};

static void find_doms(struct build *b)
{
    const struct facts *f = b->f;
    for (size_t i = 0; i < f->nnuma && b->ndoms < MAX_NUMA; i++) {
        size_t d = b->ndoms;
        if ((b->cores[d] = core_count(&f->numa[i])) == 0)
            continue;
        for (size_t g = 0; g < f->ngpus; g++)
            b->gpus[d] += f->gpus[g].numa_node == f->numa[i].os_index;
        for (size_t k = 0; k < b->nall; k++)
            b->port[d] |= b->all[k].dev->local_numa &&
                          device_local_to(b->all[k].dev, f->numa[i].os_index);
        b->total += b->cores[d];
        b->doms[b->ndoms++] = i;
    }
}

/* With as many ranks as NUMA nodes or more, each node takes several. Under
 * gpu-local, ranks go on the GPUs' NUMA nodes only, by their GPUs, as
 * mpibind's gpu_optim maps them: a rank of a GPU job drives its GPU, and
 * from another node it would reach it across the sockets' link. Not beyond
 * a hardware thread a rank there: then by cores. */
static void units_by_node(struct build *b, int size, bool by_gpu)
{
    const struct facts *f = b->f;
    size_t gpu_pus = 0;
    for (size_t d = 0; by_gpu && d < b->ndoms; d++)
        gpu_pus += b->gpus[d] ? pu_count(&f->numa[b->doms[d]]) : 0;
    if (gpu_pus > 0 && (size_t)size > gpu_pus)
        sv_pushf(&b->out->notes, "%d ranks are more than the %zu hardware threads of the GPUs' "
                 "NUMA nodes: ranks are placed on every NUMA node, by its cores", size, gpu_pus);
    int k[MAX_NUMA];
    ranks_per_node(gpu_pus >= (size_t)size ? b->gpus : b->cores, b->gpus, b->port, b->ndoms,
                   size, b->rq->policy, k);
    hwloc_bitmap_t idle = hwloc_bitmap_alloc();
    for (size_t d = 0; d < b->ndoms; d++)
        if (k[d] == 0)
            hwloc_bitmap_set(idle, (unsigned)f->numa[b->doms[d]].os_index);
    char *s = NULL;
    if (!hwloc_bitmap_iszero(idle) && hwloc_bitmap_list_asprintf(&s, idle) >= 0)
        sv_pushf(&b->out->notes, "gpu-local: ranks run on the GPUs' NUMA nodes only, as mpibind "
                 "places them: NUMA %s, without a GPU, stay%s idle (--bind-policy numa uses "
                 "every NUMA node)", s, hwloc_bitmap_weight(idle) > 1 ? "" : "s");
    free(s);
    hwloc_bitmap_free(idle);
    int r0 = 0;
    for (size_t u = 0; u < b->nunits; u++) {
        b->units[u] = (struct unit){u, 1, r0, k[u]};
        r0 += k[u];
    }
}

/* Units: fewer ranks than NUMA nodes, each rank takes several (the first
 * ranks one more, as mpibind's greedy mapping); else each node takes
 * several ranks. Local ranks 0..k go on the first (Open MPI's --map-by
 * core order). */
static void make_units(struct build *b, int size, bool by_gpu)
{
    b->nunits = (size_t)size < b->ndoms ? (size_t)size : b->ndoms;
    b->units = xcalloc(b->nunits, sizeof(*b->units));
    b->unit_of = xcalloc((size_t)size, sizeof(*b->unit_of));
    if ((size_t)size >= b->ndoms) {
        units_by_node(b, size, by_gpu);
        return;
    }
    for (size_t u = 0; u < b->nunits; u++) {
        size_t lo, hi;
        deal(b->ndoms, b->nunits, u, &lo, &hi);
        b->units[u] = (struct unit){lo, hi - lo, (int)u, 1};
    }
}

/* Rank j of unit u: its CPUs, memory, NIC and OpenMP variables. More ranks
 * than cores: the cores are dealt first (the first cores one rank more, as
 * mpibind's distrib), then each core's hardware threads among its ranks in
 * blocks (the first ranks one more), so no rank spans two cores and a core
 * is split only when it must be; past its threads, its ranks share them,
 * the first threads one rank more (mpibind's fill_in_buckets). */
static void place_rank(struct build *b, size_t u, const char **list, size_t nc, int j,
                       size_t *core, size_t *on_core, size_t *core_ranks)
{
    const struct unit *un = &b->units[u];
    int r = un->r0 + j;
    struct rank_place *rp = &b->out->ranks[r];
    bool split = (size_t)un->nr > nc;
    size_t from, to;
    b->unit_of[r] = u;
    rp->shared = split;
    rank_numa(b->f, b->doms, un, rp);
    if (split) {
        if (j == 0 || *on_core == *core_ranks) {
            *core = j == 0 ? 0 : *core + 1;
            *on_core = 0;
            *core_ranks = (size_t)un->nr / nc + (*core < (size_t)un->nr % nc);
        }
        struct strvec threads = {0};
        deal(threads_of_core(list[*core], &threads), *core_ranks, (*on_core)++, &from, &to);
        rp->pus = pus_of_cores((const char *const *)threads.v, from, to);
        rp->ncores = 1;
        sv_free(&threads);
    } else {
        deal(nc, (size_t)un->nr, (size_t)j, &from, &to);
        rp->pus = pus_of_cores(list, from, to);
        rp->ncores = (int)(to - from);
    }
    b->interleave |= strcmp(placement_memory(b->out, rp), "interleave") == 0;
    rank_nic(b->f, b->doms, un, b->all, b->nall, b->load, b->rq, rp);
    if (rp->nics && !rp->nic_local)
        hwloc_bitmap_set(b->remote, (unsigned)r);
    const char *own[] = {rp->pus};
    if (b->rq->threads &&
        omp_env(rp, split ? own : list, split ? 0 : from, split ? 1 : to, b->rq) &&
        !b->crowded_threads++)
        sv_pushf(&b->out->notes, "local rank %d: %d OpenMP threads on fewer %s: threads share "
                 "them", r, b->rq->threads, b->rq->smt ? "hardware threads" : "cores");
}

/* Each unit's cores (node by node) split into contiguous blocks among its
 * ranks; each rank's NIC the nearest port. */
static void place_units(struct build *b)
{
    const char **list = xcalloc(b->total ? b->total : 1, sizeof(*list));
    for (size_t u = 0; u < b->nunits; u++) {
        const struct unit *un = &b->units[u];
        size_t nc = 0;
        for (size_t i = 0; i < un->nd; i++) {
            const struct numa_node *node = &b->f->numa[b->doms[un->d0 + i]];
            for (size_t c = 0; node->core_pus && node->core_pus[c]; c++)
                list[nc++] = node->core_pus[c];
        }
        size_t core = 0, on_core = 0, core_ranks = 0;
        for (int j = 0; j < un->nr; j++)
            place_rank(b, u, list, nc, j, &core, &on_core, &core_ranks);
    }
    free(list);
}

/* A rank with a GPU and one port: the port nearest its GPU (PIX before
 * PXB ...) among those as near its cores as the one it has, so that each
 * GPU's traffic leaves through its own NIC (an EFA device, a Cassini NIC
 * or an HCA per GPU), not the one the rank's cores happened to get first. */
static void nic_by_gpu(struct build *b, struct rank_place *rp)
{
    if (!rp->ngpus || !rp->nics || b->rq->nics != NICS_ONE)
        return;
    size_t cur = b->nall;
    for (size_t i = 0; i < b->nall; i++)
        if (strncmp(rp->nics, b->all[i].dev->name, strlen(b->all[i].dev->name)) == 0 &&
            rp->nics[strlen(b->all[i].dev->name)] == ':')
            cur = i;
    if (cur == b->nall)
        return;
    size_t best = gpu_port_choice(b->f, rp, b->all, b->nall, b->load, cur);
    if (best == cur)
        return;
    b->load[cur]--;
    b->load[best]++;
    free(rp->nics);
    rp->nics = join_refs(&b->all[best], 1);
}

/* Each rank's GPU path to its NIC and its variables: GPUs, UCX's and
 * NCCL's devices. */
static void rank_variables(struct build *b, int size, bool by_gpu)
{
    for (int r = 0; r < size; r++) {
        struct rank_place *rp = &b->out->ranks[r];
        if (by_gpu && !rp->gpu_local)
            gpu_away_note(b->f, rp, r, &b->out->notes);
        if (by_gpu)
            nic_by_gpu(b, rp);
        if (rp->ngpus && rp->nics) {
            char *dev = xstrndup(rp->nics, strcspn(rp->nics, ":"));
            rp->gpu_nic_path = gpu_path_to(rp->gpus[0], dev);
            free(dev);
        }
        placement_gpu_env(b->f, rp, r, b->rq->gpus_by_local_rank);
        if (rp->nics && b->rq->set_ucx)
            sv_pushf(&rp->env, "UCX_NET_DEVICES=%s", rp->nics);
        if (rp->nics && b->rq->set_nccl)
            sv_pushf(&rp->env, "NCCL_IB_HCA==%s", rp->nics);
        const struct fabric_row *row = fabric_row(b->rq->fabric);
        if (rp->nics && b->rq->set_fabric && !b->rq->nic_mapping && row && row->rank_var) {
            char *env = fabric_rank_env(row, rp->nics);
            sv_push(&rp->env, env);
            free(env);
        }
    }
}

/* The notes on the whole node: ranks sharing cores, memory interleaved,
 * ranks with only a remote port. */
static void node_notes(struct build *b, int size)
{
    struct placement *out = b->out;
    for (int r = 0; r < size; r++)
        if (out->ranks[r].shared) {
            sv_pushf(&out->notes, "more ranks than cores on some NUMA nodes: ranks there share "
                     "cores, the first cores one rank more, each core's hardware threads split "
                     "among its ranks (past them, shared) (first: local rank %d on NUMA %s)", r,
                     out->ranks[r].numa);
            break;
        }
    if (b->interleave)
        sv_push(&out->notes, "a rank on several NUMA nodes has its memory interleaved over them "
                "(memory = prefer; bind keeps it on them, none leaves it alone)");
    int nremote = hwloc_bitmap_weight(b->remote);
    char *ranks = NULL;
    if (nremote > 0 && hwloc_bitmap_list_asprintf(&ranks, b->remote) >= 0)
        sv_pushf(&out->notes, "no ACTIVE %s port is local to the NUMA node%s of local rank%s %s: "
                 "%s the nearest port on another NUMA node", fabric_label(b->rq->fabric),
                 nremote > 1 ? "s" : "", nremote > 1 ? "s" : "", ranks,
                 nremote > 1 ? "they use" : "it uses");
    free(ranks);
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
    struct build *b = xcalloc(1, sizeof(*b));   /* its arrays are large */
    b->f = f;
    b->rq = rq;
    b->out = out;
    b->nall = rq->fabric && fabric_has_ports(rq->fabric)
            ? ports_select(f, rq->fabric, b->all, MAX_PORTS) : 0;
    find_doms(b);
    if (b->ndoms == 0) {
        sv_push(&out->notes, "the topology shows no NUMA node with cores: ranks are not bound");
        free(b);
        return;
    }
    bool by_gpu = rq->policy == BIND_GPU_LOCAL && f->ngpus > 0;
    if (rq->policy == BIND_GPU_LOCAL && f->ngpus == 0)
        sv_push(&out->notes, "gpu-local: this node has no GPU: ranks are placed by NUMA node");
    if (by_gpu && (size_t)size > f->ngpus)
        sv_pushf(&out->notes, "%d ranks share %zu GPU%s", size, f->ngpus,
                 f->ngpus == 1 ? "" : "s");
    make_units(b, size, by_gpu);
    b->remote = hwloc_bitmap_alloc();
    place_units(b);
    if (by_gpu)
        assign_gpus(f, b->doms, b->units, b->nunits, b->unit_of, out);
    rank_variables(b, size, by_gpu);
    if (rq->set_fabric && rq->nic_mapping)
        fabric_mapping_env(out->ranks, size);
    node_notes(b, size);
    hwloc_bitmap_free(b->remote);
    free(b->units);
    free(b->unit_of);
    free(b);
}

void placement_free(struct placement *p)
{
    for (int r = 0; p->ranks && r < p->local_size; r++) {
        free(p->ranks[r].numa);
        free(p->ranks[r].numa_os);
        free(p->ranks[r].pus);
        free(p->ranks[r].nics);
        free(p->ranks[r].gpus);
        sv_free(&p->ranks[r].env);
    }
    free(p->ranks);
    sv_free(&p->notes);
    memset(p, 0, sizeof(*p));
}
