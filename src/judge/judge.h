/* rdmarun judge: each benchmark result held to the speed-of-light model of
 * the node it ran on (model/), labelled normal, degraded or broken, with the
 * link that limits it and, below the model, the causes the facts show. */
#ifndef RDMARUN_JUDGE_H
#define RDMARUN_JUDGE_H
#include "judge/results.h"
#include "model/model.h"
#include <stdio.h>

enum judge_label { LABEL_NONE, LABEL_NORMAL, LABEL_DEGRADED, LABEL_BROKEN };
extern const char *const judge_label_names[];

/* A bandwidth at or above NORMAL of the model's is normal, below BROKEN
 * broken; latencies (the floor over the measured) likewise. */
#define JUDGE_BW_NORMAL 0.70
#define JUDGE_BW_BROKEN 0.25
#define JUDGE_LAT_NORMAL 0.50
#define JUDGE_LAT_BROKEN 0.20

struct judged_row {
    struct result_row r;
    struct sol_figure e;
    double fraction;        /* measured over expected (latency: expected over measured) */
    enum judge_label label; /* LABEL_NONE: latency-bound or not judged */
};

struct judged {
    const char *file;
    const struct result_series *s;
    struct node_model m;
    struct bench bench;     /* the series', within one node where the node says nodes=1 */
    char *node;             /* node_model_describe */
    struct judged_row *rows;
    size_t nrows;
    enum judge_label label;
    char reason[320];
    struct strvec causes;
};

/* Judge series s against base (facts, else nothing), the description desc
 * over it (NULL: none). */
void judge_series(struct judged *j, const char *file, const struct result_series *s,
                  const struct node_model *base, const char *desc);
void judged_free(struct judged *j);
/* Below the model: what the output, the description and the facts show
 * that explains it (judge_causes.c). */
void judge_causes(struct judged *j);
void judge_print_text(const struct judged *j, FILE *out);
void judge_print_json(const struct judged *j, size_t n, FILE *out);
/* A bandwidth's figure for text: "476.5 GB/s", "980 MB/s". */
void judge_format(char *buf, size_t n, double value, enum bench_op op);

#endif
