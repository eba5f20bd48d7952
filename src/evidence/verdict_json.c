/* A verdict as JSON (evidence_print_json): the verdict, its class and
 * reason, what explains it (the lines it rests on), the port counters that
 * grew, every observation. */
#include "evidence/internal.h"
#include "util/json.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static void json_example(struct json *j, const char *host, long pid, const char *where)
{
    json_string(j, "host", host);
    if (pid >= 0)
        json_int(j, "pid", pid);
    else
        json_null(j, "pid");
    json_string(j, "where", where);
}

/* The verdict, its class, what the run expected, and the counts. */
static void json_verdict(struct json *j, const struct evidence *ev, enum verdict v)
{
    if (ev->run)
        json_string(j, "run", ev->run);
    json_string(j, "verdict", verdict_name(v));
    json_string(j, "class", path_class_name(evidence_class(ev)));
    int e = ev->expect ? name_index(expectation_names, ev->expect) : -1;
    if (e >= 0) {
        json_string(j, "expect", ev->expect);
        json_string(j, "expect_reason", ev->expect_reason);
        json_bool(j, "expected", evidence_meets(ev, (enum expectation)e));
    }
    char *summary = verdict_summary(ev, v);
    json_string(j, "summary", summary);
    free(summary);
    json_int(j, "files", ev->files);
    json_int(j, "lines", (int64_t)ev->lines);
    json_int(j, "processes", (int64_t)ev->nprocs);
    json_int(j, "hosts", (int64_t)ev->nhosts);
    if (ev->classes_full || ev->hosts_full || ev->pairs_full) {
        /* Past the caps nothing is dropped, but counts are lower bounds. */
        json_begin_object(j, "merged");
        json_bool(j, "lanes", ev->classes_full);
        json_bool(j, "hosts", ev->hosts_full);
        json_bool(j, "class_processes", ev->pairs_full);
        json_end_object(j);
    }
    json_bool(j, "nccl_no_device", ev->nccl_no_device);
}

static void json_line_pair(struct json *j, const char *name, const char *line,
                           const char *where_name, const char *where)
{
    if (!line)
        return;
    json_string(j, name, line);
    json_string(j, where_name, where);
}

/* What explains the verdict: the log families and versions seen, the
 * reason when there is none, the lines that ended RDMA or the job. */
static void json_explain(struct json *j, const struct evidence *ev, enum verdict v)
{
    struct strvec fams = {0};
    for (size_t i = 0; i < ev->n; i++)
        if (sv_find(&fams, ev->obs[i].family) < 0)
            sv_push(&fams, ev->obs[i].family);
    json_begin_array(j, "families");
    for (size_t i = 0; i < fams.n; i++)
        json_string(j, NULL, fams.v[i]);
    json_end_array(j);
    sv_free(&fams);
    json_begin_array(j, "versions");
    for (size_t i = 0; i < ev->versions.n; i++)
        json_string(j, NULL, ev->versions.v[i]);
    json_end_array(j);
    if (v == VERDICT_UNKNOWN) {
        char *why = evidence_reason(ev);
        json_string(j, "reason", why);
        free(why);
        json_string(j, "reason_code", unknown_reason_names[evidence_why(ev)]);
    }
    const char *fault_where, *fault = evidence_fault_of(ev, &fault_where);
    json_line_pair(j, "failure", ev->failure, "failure_where", ev->failure_where);
    json_line_pair(j, "fault", fault, "fault_where", fault_where);
    json_line_pair(j, "error", ev->error, "error_where", ev->error_where);
    json_line_pair(j, "aborted", ev->abort, "aborted_where", ev->abort_where);
    if (ev->nodes > 0)
        json_int(j, "nodes", ev->nodes);
    if (ev->tcp_share > 0)
        json_int(j, "tcp_share_percent", ev->tcp_share);
    if (ev->nccl_gdr_channels + ev->nccl_staged_channels) {
        json_begin_object(j, "nccl_channels");
        json_int(j, "gdrdma", (int64_t)ev->nccl_gdr_channels);
        json_int(j, "host_staged", (int64_t)ev->nccl_staged_channels);
        json_bool(j, "gdr_capable", ev->nccl_gdr_capable);
        json_string(j, "gdr_disabled", ev->nccl_gdr_off);
        json_end_object(j);
    }
}

/* Every counter delta, known or not, and the words for what is not traffic. */
static void json_counters(struct json *j, const struct evidence *ev)
{
    if (!ev->ncounters)
        return;
    json_begin_array(j, "counters");
    for (size_t i = 0; i < ev->ncounters; i++) {
        const struct counter_growth *g = &ev->counters[i];
        json_begin_object(j, NULL);
        json_string(j, "port", g->port);
        json_begin_object(j, "grew");
        for (size_t k = 0; k < g->names.n; k++)
            json_int(j, g->names.v[k], g->deltas[k]);
        json_end_object(j);
        json_begin_object(j, "families");
        for (int fam = 0; fam < COUNTER_FAMILIES; fam++)
            json_int(j, counter_family_names[fam], counter_growth_sum(g, fam));
        json_end_object(j);
        char *words = counter_growth_words(g);
        json_string(j, "words", words);
        free(words);
        json_end_object(j);
    }
    json_end_array(j);
}

/* One entry a class: its first process whole, the next by name. */
static void json_observations(struct json *j, const struct evidence *ev)
{
    json_begin_array(j, "observations");
    for (size_t i = 0; i < ev->n; i++) {
        const struct observation *o = &ev->obs[i];
        json_begin_object(j, NULL);
        json_string(j, "family", o->family);
        json_string(j, "scope", path_scope_name(o->scope));
        json_string(j, "path", path_kind_name(o->kind));
        json_string(j, "class", path_class_name(o->cls));
        json_bool(j, "selected", o->selected);
        json_string(j, "transports", o->transports);
        json_int(j, "count", (int64_t)o->count);
        json_int(j, "processes", (int64_t)o->procs);
        json_int(j, "hosts", (int64_t)o->hosts);
        json_example(j, o->host, o->pid, o->where);
        json_string(j, "line", o->line);
        json_begin_array(j, "also");
        for (unsigned k = 0; k < o->nalso; k++) {
            json_begin_object(j, NULL);
            json_example(j, o->also[k].host, o->also[k].pid, o->also[k].where);
            json_end_object(j);
        }
        json_end_array(j);
        json_end_object(j);
    }
    json_end_array(j);
}

void evidence_print_json(const struct evidence *ev, enum verdict v, FILE *out)
{
    struct json j;
    json_init(&j, out);
    json_begin_object(&j, NULL);
    json_verdict(&j, ev, v);
    json_explain(&j, ev, v);
    json_counters(&j, ev);
    json_observations(&j, ev);
    json_end_object(&j);
    json_finish(&j);
}
