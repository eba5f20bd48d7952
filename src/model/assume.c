/* What the speed-of-light model takes where neither the facts nor a
 * description say, each said in node_model.assumed, and the node in a
 * line. */
#include "model/model.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <string.h>

/* A 4X InfiniBand port's nominal rate and its data rate, for a rate
 * given without its speed's name (links.c's ib_speeds). */
static double ib_4x_data(double gbps)
{
    static const char *const names[] = {"(4X SDR)", "(4X DDR)", "(4X QDR)", "(4X FDR)"};
    static const double rates[] = {10, 20, 40, 56};
    for (size_t i = 0; i < sizeof(rates) / sizeof(*rates); i++)
        if (gbps == rates[i])
            return ib_data_gbps(gbps, names[i]);
    return gbps;
}

/* The fabric's usual MTU: IB's and RoCE's 4096 (RoCE: the netdev's 9000
 * jumbo frames), EFA's 8 KiB, TCP's 1500. */
static int usual_mtu(enum link_kind k)
{
    return k == KIND_EFA ? 8192 : k == KIND_ETH ? 1500 : 4096;
}

static void assume_nics(struct node_model *m)
{
    if (m->nic_gbps > 0 && m->nics <= 0) {
        m->nics = 1;
        sv_push(&m->assumed, "nics=1 (none said)");
    }
    if (m->kind == KIND_IB && m->nic_data_gbps == m->nic_gbps)
        m->nic_data_gbps = ib_4x_data(m->nic_gbps);
    if (m->kind != KIND_UNKNOWN && m->kind != KIND_SOFT && m->mtu <= 0) {
        m->mtu = usual_mtu(m->kind);
        sv_pushf(&m->assumed, "mtu=%d (%s's usual)", m->mtu, link_kind_names[m->kind]);
    }
    if (m->pcie_gts <= 0 && m->nic_gbps > 0)
        sv_push(&m->assumed, "pcie: not a limit (unknown)");
}

static void assume_gpus(struct node_model *m, const struct bench *b)
{
    if (m->nvlink_links < 0 && m->gpu && m->gpu->nvlink_gen > 0) {
        if (m->nvlink_gen <= 0)
            m->nvlink_gen = m->gpu->nvlink_gen;
        m->nvlink_links = m->gpu->nvlink_links;
        sv_pushf(&m->assumed, "nvlink=%dx%d (%s SXM's links)", m->nvlink_gen, m->nvlink_links,
                 m->gpu->name);
    } else if (m->nvlink_links < 0) {
        m->nvlink_gen = m->nvlink_links = 0;
        if (m->gpus > 0)
            sv_push(&m->assumed, "nvlink=none (unknown)");
    }
    if (b->gpu_memory && m->gdr < 0) {
        m->gdr = 1;
        sv_push(&m->assumed, "gdr=yes (unknown)");
    }
    if (b->op == OP_BUSBW && m->gpus <= 0 && b->ranks > 0) {
        int nodes = m->nodes > 0 ? m->nodes : 1;
        m->gpus = b->ranks / nodes > 0 ? b->ranks / nodes : 1;
        sv_pushf(&m->assumed, "gpus=%d (ranks over nodes)", m->gpus);
    }
}

void node_model_assume(struct node_model *m, const struct bench *b)
{
    if (m->nodes <= 0) {
        m->nodes = b->scope == SCOPE_NET && b->op != OP_BUSBW ? 2 : 1;
        sv_pushf(&m->assumed, "nodes=%d (none said)", m->nodes);
    }
    assume_nics(m);
    assume_gpus(m, b);
    if (m->numa_remote < 0 && b->scope != SCOPE_NODE) {
        m->numa_remote = 0;
        sv_push(&m->assumed, "numa=local (unknown)");
    }
}

char *node_model_describe(const struct node_model *m)
{
    char buf[512];
    size_t n = 0;
    buf[0] = '\0';
    if (m->nics > 0)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%d x %g Gb/s %s", m->nics, m->nic_gbps,
                              link_kind_names[m->kind]);
    else if (m->kind != KIND_UNKNOWN)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", link_kind_names[m->kind]);
    if (m->pcie_gts > 0 && n < sizeof(buf))
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%sPCIe %d.0 x%d", n ? ", " : "",
                              pcie_gen_of(m->pcie_gts), m->pcie_width);
    if (m->gpus > 0 && n < sizeof(buf))
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d x %s", n ? ", " : "", m->gpus,
                              m->gpu ? m->gpu->name : "GPU");
    if (m->nvlink_links > 0 && n < sizeof(buf))
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, " (NVLink %d x %d)", m->nvlink_gen,
                              m->nvlink_links);
    if (m->mem_gbs > 0 && n < sizeof(buf))
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%smemory %.1f GB/s a NUMA node",
                              n ? ", " : "", m->mem_gbs);
    if (m->nodes > 1 && n < sizeof(buf))
        snprintf(buf + n, sizeof(buf) - n, ", %d nodes", m->nodes);
    return xstrdup(buf[0] ? buf : "nothing known");
}
