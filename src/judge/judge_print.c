/* rdmarun judge's output: a table a series, and --json. Every string that
 * came from an input (file names, test and GPU names) is shown terminal-safe. */
#include "judge/judge.h"
#include "util/json.h"
#include "util/text.h"
#include <stdlib.h>
#include <string.h>

void judge_format(char *buf, size_t n, double value, enum bench_op op)
{
    if (op == OP_LAT)
        snprintf(buf, n, "%.2f us", value);
    else if (value >= 1)
        snprintf(buf, n, "%.1f GB/s", value);
    else
        snprintf(buf, n, "%.0f MB/s", value * 1e3);
}

static const char *const op_names[] = {"bandwidth", "bidirectional bandwidth", "latency",
                                       "bus bandwidth"};

static void print_head(const struct judged *j, FILE *out)
{
    const struct result_series *s = j->s;
    char *file = term_safe(j->file, strlen(j->file), 200);
    char *test = term_safe(s->test, strlen(s->test), 64);
    fprintf(out, "%s: %s %s (%s)", file, s->tool, test, op_names[s->bench.op]);
    if (s->ranks > 0)
        fprintf(out, ", %d ranks on %d node%s", s->ranks, s->nodes, s->nodes == 1 ? "" : "s");
    fputc('\n', out);
    fprintf(out, "  node: %s\n", j->node);
    for (size_t i = 0; i < j->m.assumed.n; i++)
        fprintf(out, "%s%s", i ? "; " : "  assumed: ", j->m.assumed.v[i]);
    if (j->m.assumed.n)
        fputc('\n', out);
    free(file);
    free(test);
}

static void print_rows(const struct judged *j, FILE *out)
{
    if (!j->nrows || j->rows[0].e.none || !j->s->judged)
        return;
    fprintf(out, "  %12s  %12s  %12s  %8s  %-13s %s\n", "size", "measured", "expected",
            "fraction", "label", "limit");
    for (size_t i = 0; i < j->nrows; i++) {
        const struct judged_row *r = &j->rows[i];
        char got[32], want[32], frac[16] = "-";
        bool lat = j->s->bench.op == OP_LAT;
        judge_format(got, sizeof(got), r->r.value, j->s->bench.op);
        judge_format(want, sizeof(want), lat ? r->e.lat_us : r->e.gbs, j->s->bench.op);
        if (r->label != LABEL_NONE || r->fraction > 0)
            snprintf(frac, sizeof(frac), "%.0f%%", r->fraction * 100);
        const char *label = r->label != LABEL_NONE ? judge_label_names[r->label]
                            : r->fraction > 0 ? "of ceiling"
                            : lat ? "size-bound" : "latency-bound";
        fprintf(out, "  %12.0f  %12s  %12s  %8s  %-13s %s\n", r->r.bytes, got, want, frac, label,
                r->e.limit);
    }
}

void judge_print_text(const struct judged *j, FILE *out)
{
    print_head(j, out);
    print_rows(j, out);
    fprintf(out, "  %s: %s\n", j->label == LABEL_NONE ? "not judged" : judge_label_names[j->label],
            j->reason);
    for (size_t i = 0; i < j->causes.n; i++) {
        char *c = term_safe(j->causes.v[i], strlen(j->causes.v[i]), 300);
        fprintf(out, "  cause: %s\n", c);
        free(c);
    }
}

static void json_row(struct json *js, const struct judged *j, const struct judged_row *r)
{
    json_begin_object(js, NULL);
    json_double(js, "bytes", r->r.bytes);
    json_double(js, "measured", r->r.value);
    if (!r->e.none) {
        json_double(js, "expected", j->s->bench.op == OP_LAT ? r->e.lat_us : r->e.gbs);
        json_bool(js, "latency_bound", r->e.latency_bound);
    }
    if (r->label != LABEL_NONE || r->fraction > 0)
        json_double(js, "fraction", r->fraction);
    if (!r->e.none)
        json_bool(js, "ceiling", r->e.ceiling);
    json_string(js, "label", judge_label_names[r->label]);
    json_string(js, "limit", r->e.limit);
    json_end_object(js);
}

static void json_one(struct json *js, const struct judged *j)
{
    const struct result_series *s = j->s;
    json_begin_object(js, NULL);
    json_string(js, "file", j->file);
    json_string(js, "tool", s->tool);
    json_string(js, "test", s->test);
    json_string(js, "measure", op_names[s->bench.op]);
    json_string(js, "unit", s->bench.op == OP_LAT ? "us" : "GB/s");
    json_string(js, "node", j->node);
    json_strings(js, "assumed", &j->m.assumed);
    json_begin_array(js, "sizes");
    for (size_t i = 0; i < j->nrows; i++)
        json_row(js, j, &j->rows[i]);
    json_end_array(js);
    json_string(js, "label", judge_label_names[j->label]);
    json_string(js, "reason", j->reason);
    json_strings(js, "causes", &j->causes);
    json_end_object(js);
}

void judge_print_json(const struct judged *j, size_t n, FILE *out)
{
    struct json js;
    json_init(&js, out);
    json_begin_object(&js, NULL);
    json_begin_array(&js, "results");
    for (size_t i = 0; i < n; i++)
        json_one(&js, &j[i]);
    json_end_array(&js);
    json_end_object(&js);
    json_finish(&js);
}
