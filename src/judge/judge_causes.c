/* Why a result falls short of the speed-of-light model: the causes the
 * result's own output, the node's description and its facts show. */
#include "judge/judge.h"
#include <stdio.h>
#include <string.h>

/* The best figure the series measured (bandwidth). */
static double best_measured(const struct judged *j)
{
    double best = 0;
    for (size_t i = 0; i < j->nrows; i++)
        if (j->rows[i].r.value > best)
            best = j->rows[i].r.value;
    return best;
}

/* A NIC slot trained below what it can: the trained link's figure, and
 * how close the result comes to it. */
static void trained_below(struct judged *j)
{
    const struct node_model *m = &j->m;
    if (m->pcie_now_gts <= 0 || m->pcie_gts <= 0 ||
        (m->pcie_now_gts >= m->pcie_gts && m->pcie_now_width >= m->pcie_width))
        return;
    double now = model_pcie_gbs(m->pcie_now_gts, m->pcie_now_width);
    char tail[96] = "";
    if (j->s->bench.op != OP_LAT && now > 0)
        snprintf(tail, sizeof(tail), "; the result is %.0f%% of that",
                 best_measured(j) / (now * (j->s->bench.op == OP_BIBW ? 2 : 1)) * 100);
    sv_pushf(&j->causes, "the NIC's PCIe link trained at %d.0 x%d of its %d.0 x%d: it carries "
             "%.1f GB/s%s", pcie_gen_of(m->pcie_now_gts), m->pcie_now_width,
             pcie_gen_of(m->pcie_gts), m->pcie_width, now, tail);
}

void judge_causes(struct judged *j)
{
    if (j->label != LABEL_DEGRADED && j->label != LABEL_BROKEN)
        return;
    const struct node_model *m = &j->m;
    sv_append(&j->causes, &j->s->says);
    trained_below(j);
    if (m->numa_remote == 1)
        sv_push(&j->causes, "the ranks ran on a NUMA node remote from the NIC: every DMA "
                            "crosses the sockets' link (place them with --bind-policy nic-local)");
    if (j->s->bench.gpu_memory && m->gdr == 0 && j->s->gdr != 0)
        sv_push(&j->causes, "GPUDirect RDMA is off: GPU memory is staged through host memory "
                            "(load nvidia_peermem, or use a dma-buf capable driver)");
    if (j->s->nics_used > 0 && j->s->nics_used < m->nics)
        sv_pushf(&j->causes, "NCCL used %d of the node's %d NICs", j->s->nics_used, m->nics);
    sv_append(&j->causes, &m->facts_say);
    if (!j->causes.n)
        sv_push(&j->causes, "nothing the output or the node's facts show explains it: "
                            "'rdmarun check' on each node (links, PCIe, counters), then "
                            "'rdmarun check --path-test' between them");
}
