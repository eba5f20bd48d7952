/* rdmarun judge's engine: the node a series ran on, the model's figure
 * per size, a label per size and one per series, and the causes. */
#include "judge/judge.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const judge_label_names[] = {"none", "normal", "degraded", "broken", NULL};

/* base's node, what the series says where base does not know, and the
 * description over both. */
static void node_for(struct node_model *m, const struct node_model *base,
                     const struct result_series *s, const char *desc)
{
    *m = *base;
    memset(&m->assumed, 0, sizeof(m->assumed));
    memset(&m->facts_say, 0, sizeof(m->facts_say));
    sv_append(&m->assumed, &base->assumed);
    sv_append(&m->facts_say, &base->facts_say);
    if (s->nodes > 0)
        m->nodes = s->nodes;
    if (s->ranks > 0 && s->nodes > 0 && m->gpus <= 0)
        m->gpus = s->ranks / s->nodes;
    if (!m->gpu && s->gpu[0])
        m->gpu = gpu_model_named(s->gpu);
    if (m->kind == KIND_UNKNOWN)
        m->kind = s->kind;
    if (m->mtu <= 0)
        m->mtu = s->mtu;
    if (s->gdr >= 0)
        m->gdr = s->gdr;
    char err[160];
    if (desc)
        node_model_parse(m, desc, err, sizeof(err));   /* checked by the command */
}

static enum judge_label label_of(double fraction, bool latency)
{
    double normal = latency ? JUDGE_LAT_NORMAL : JUDGE_BW_NORMAL;
    double broken = latency ? JUDGE_LAT_BROKEN : JUDGE_BW_BROKEN;
    return fraction >= normal ? LABEL_NORMAL : fraction >= broken ? LABEL_DEGRADED : LABEL_BROKEN;
}

static void judge_row(struct judged *j, struct judged_row *row, const struct bench *b)
{
    model_expect(&j->m, b, row->r.bytes, &row->e);
    bool lat = b->op == OP_LAT;
    if (row->e.none || !j->s->judged || row->r.value <= 0 || (row->e.latency_bound != lat))
        return;
    row->fraction = lat ? row->e.lat_us / row->r.value : row->r.value / row->e.gbs;
    if (!row->e.ceiling)
        row->label = label_of(row->fraction, lat);
}

/* The highest share of a ceiling (model.h: shown, never labeled), or NULL. */
static const struct judged_row *ceiling_row(const struct judged *j)
{
    const struct judged_row *best = NULL;
    for (size_t i = 0; i < j->nrows; i++)
        if (j->rows[i].e.ceiling && j->rows[i].fraction > 0 &&
            (!best || j->rows[i].fraction > best->fraction))
            best = &j->rows[i];
    return best;
}

/* The series' label: its best judged size's (a bandwidth's peak, a
 * latency's floor). */
static const struct judged_row *best_row(const struct judged *j)
{
    const struct judged_row *best = NULL;
    for (size_t i = 0; i < j->nrows; i++)
        if (j->rows[i].label != LABEL_NONE && (!best || j->rows[i].fraction > best->fraction))
            best = &j->rows[i];
    return best;
}

static void overall(struct judged *j)
{
    const struct judged_row *best = best_row(j), *top = ceiling_row(j);
    bool lat = j->s->bench.op == OP_LAT;
    char got[32], want[32];
    if (!best && top) {   /* shared memory: a share of its ceiling, not labeled */
        j->label = LABEL_NONE;
        judge_format(got, sizeof(got), top->r.value, j->s->bench.op);
        judge_format(want, sizeof(want), lat ? top->e.lat_us : top->e.gbs, j->s->bench.op);
        snprintf(j->reason, sizeof(j->reason), "%s at %.0f B is %.0f%% of %s (%s); one copy "
                 "stream is bound by its core, not by the memory: not labeled", got, top->r.bytes,
                 top->fraction * 100, want, top->e.limit);
        return;
    }
    if (!best) {
        j->label = LABEL_NONE;
        snprintf(j->reason, sizeof(j->reason), "%s",
                 !j->s->judged ? "the model does not judge this measure"
                 : j->nrows && j->rows[0].e.none ? j->rows[0].e.limit
                 : j->s->bench.op == OP_LAT ? "no size small enough to be latency-bound"
                                            : "every size is latency-bound");
        return;
    }
    j->label = best->label;
    judge_format(got, sizeof(got), best->r.value, j->s->bench.op);
    judge_format(want, sizeof(want), lat ? best->e.lat_us : best->e.gbs, j->s->bench.op);
    snprintf(j->reason, sizeof(j->reason), "%s at %.0f B is %.0f%% of the model's %s (%s)", got,
             best->r.bytes, best->fraction * 100, want, best->e.limit);
}

void judge_series(struct judged *j, const char *file, const struct result_series *s,
                  const struct node_model *base, const char *desc)
{
    memset(j, 0, sizeof(*j));
    j->file = file;
    j->s = s;
    node_for(&j->m, base, s, desc);
    j->bench = s->bench;
    if (j->m.nodes == 1 && j->bench.scope == SCOPE_NET && j->bench.op != OP_BUSBW)
        j->bench.scope = SCOPE_NODE;
    node_model_assume(&j->m, &j->bench);
    j->node = node_model_describe(&j->m);
    j->rows = xcalloc(s->nrows ? s->nrows : 1, sizeof(*j->rows));
    j->nrows = s->nrows;
    for (size_t i = 0; i < s->nrows; i++) {
        j->rows[i].r = s->rows[i];
        judge_row(j, &j->rows[i], &j->bench);
    }
    overall(j);
    judge_causes(j);
}

void judged_free(struct judged *j)
{
    node_model_free(&j->m);
    free(j->node);
    free(j->rows);
    sv_free(&j->causes);
}
