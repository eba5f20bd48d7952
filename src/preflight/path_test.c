#include "preflight/path_test.h"
#include "preflight/path_report.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OUTPUT_MAX (4 << 20)

/* The slower end's rate in Gb/s, 0 when unknown. */
static double pair_rate(const struct path_report *r, const struct path_pair *p)
{
    const char *a = path_node_value(r, p->from, "rate"), *b = path_node_value(r, p->to, "rate");
    double x = a ? atof(a) : 0, y = b ? atof(b) : 0;
    return x > 0 && (y <= 0 || x < y) ? x : y;
}

/* " (27% of the slower port's 2.5 Gb/s)", or "". */
static char *rate_share(const struct path_report *r, const struct path_pair *p)
{
    double rate = pair_rate(r, p);
    return rate > 0 ? xasprintf(" (%.0f%% of the slower port's %g Gb/s)",
                                p->bw_mbps * 8 / 1000 / rate * 100, rate)
                    : xstrdup("");
}

static void print_text(const struct path_report *r, const struct path_finding *f, size_t nf,
                       bool quiet, bool failed, const char *sum, double took)
{
    for (size_t i = 0; !quiet && i < r->npairs; i++) {
        const struct path_pair *p = &r->pairs[i];
        if (!p->ok)
            continue;
        char *a = path_node_name(r, p->from), *b = path_node_name(r, p->to);
        char *share = rate_share(r, p);
        printf("rdmarun: path %s -> %s: %s verified, latency %.1f us, bandwidth %.1f MB/s%s\n",
               a, b, path_node_value(r, p->from, "prov") ? "tagged messages (4 KiB, 32 KiB)"
               : "SEND/RECV and RDMA WRITE", p->lat_us, p->bw_mbps, share);
        free(a);
        free(b);
        free(share);
    }
    for (size_t i = 0; i < nf; i++) {
        if (f[i].level == PATH_FAIL)
            rr_error("path test: %s", f[i].text);
        else
            rr_warn("path test: %s", f[i].text);
    }
    if (failed)
        rr_error("path test failed: %s, %.1f s", sum, took);
    else
        printf("rdmarun: path test passed: %s, %.1f s\n", sum, took);
}

/* "KEY=VALUE": the key, malloc'd, and the value in place. */
static char *key_of(const char *kv, const char **value)
{
    *value = kv + strcspn(kv, "=") + (kv[strcspn(kv, "=")] == '=');
    return xstrndup(kv, strcspn(kv, "="));
}

/* One suspect re-paired with the good node: how their own test went. */
struct repair {
    char *node, *with;
    bool ok;
    char *step, *err;
};

/* The hosts asked for, and those that did not answer (a silent node has
 * no record of its own to name it). */
static void json_hosts(struct json *j, const struct path_report *r, const struct strvec *hosts)
{
    struct strvec silent = {0};
    path_silent_hosts(r, hosts, &silent);
    json_begin_array(j, "hosts");
    for (size_t i = 0; i < hosts->n; i++)
        json_string(j, NULL, hosts->v[i]);
    json_end_array(j);
    json_begin_array(j, "silent_hosts");
    for (size_t i = 0; i < silent.n; i++)
        json_string(j, NULL, silent.v[i]);
    json_end_array(j);
    sv_free(&silent);
}

/* A node's object: its rank, whether it answered and finished, what it
 * said of itself, its failure, its counters that grew. */
static void node_json(struct json *j, const struct path_node *nd, int i)
{
    json_begin_object(j, NULL);
    json_int(j, "rank", i);
    json_bool(j, "answered", nd->seen);
    json_bool(j, "done", nd->done);
    if (nd->took > 0)
        json_double(j, "seconds", nd->took);
    for (size_t k = 0; k < nd->kv.n; k++) {
        const char *v;
        char *key = key_of(nd->kv.v[k], &v);
        if (strcmp(key, "r") != 0 && strcmp(key, "n") != 0)   /* rank, and the count */
            json_string(j, key, v);
        free(key);
    }
    json_string(j, "failed_step", nd->fail_step);
    json_string(j, "error", nd->fail_err);
    json_begin_object(j, "counters_grown");
    for (size_t k = 0; k < nd->counters.n; k++) {
        const char *v;
        char *key = key_of(nd->counters.v[k], &v);
        json_int(j, key, atoll(v));
        free(key);
    }
    json_end_object(j);
    json_end_object(j);
}

static void pair_json(struct json *j, const struct path_report *r, const struct path_pair *p)
{
    json_begin_object(j, NULL);
    json_int(j, "from", p->from);
    json_int(j, "to", p->to);
    json_bool(j, "reported", p->seen);
    json_bool(j, "ok", p->ok);
    json_string(j, "step", p->step);
    json_string(j, "error", p->err);
    if (p->ok) {
        json_double(j, "latency_us", p->lat_us);
        json_double(j, "bandwidth_mbps", p->bw_mbps);
    }
    double rate = pair_rate(r, p);
    if (rate > 0)
        json_double(j, "rate_gbps", rate);
    json_end_object(j);
}

static void print_json(const struct path_report *r, const struct strvec *hosts,
                       const struct path_finding *f, size_t nf, bool failed, const char *sum,
                       double took, const struct repair *rp, size_t nrp)
{
    struct json j;
    json_init(&j, stdout);
    json_begin_object(&j, NULL);
    json_bool(&j, "passed", !failed);
    json_string(&j, "summary", sum);
    json_double(&j, "seconds", took);
    json_string(&j, "pairs_tested", r->all_pairs && r->n > 1 ? "all" : "ring");
    json_hosts(&j, r, hosts);
    json_begin_array(&j, "nodes");
    for (int i = 0; i < r->n; i++)
        node_json(&j, &r->nodes[i], i);
    json_end_array(&j);
    json_begin_array(&j, "pairs");
    for (size_t i = 0; i < r->npairs; i++)
        pair_json(&j, r, &r->pairs[i]);
    json_end_array(&j);
    json_begin_array(&j, "findings");
    for (size_t i = 0; i < nf; i++) {
        json_begin_object(&j, NULL);
        json_string(&j, "level", f[i].level == PATH_FAIL ? "fail" : "warn");
        json_string(&j, "text", f[i].text);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_begin_array(&j, "repaired");
    for (size_t i = 0; i < nrp; i++) {
        json_begin_object(&j, NULL);
        json_string(&j, "node", rp[i].node);
        json_string(&j, "with", rp[i].with);
        json_bool(&j, "ok", rp[i].ok);
        json_string(&j, "step", rp[i].step);
        json_string(&j, "error", rp[i].err);
        json_bool(&j, "bad_side", !rp[i].ok);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
}

/* One run of the launcher with its peers: their records into *r (the
 * launcher's own lines shown as they are). 0, or RR_EX_NOTFOUND. */
static int run_round(const struct path_plan *pp, struct path_report *r, double *took)
{
    /* guard: check ended by a signal or kill -9 leaves no launcher, nor
     * anything it started, running */
    struct proc_spec spec = {.argv = pp->argv.v, .err_to_out = true, .guard = true};
    char *out = NULL;
    bool timed_out = false;
    double t0 = proc_now();
    int status = proc_capture(&spec, pp->timeout_s, OUTPUT_MAX, &out, &timed_out);
    *took = proc_now() - t0;
    if (status < 0) {
        rr_error("path test: cannot run %s: %s (hint: --mpirun PATH, or $RDMARUN_MPIRUN)",
                 pp->argv.v[0], strerror(errno));
        free(out);
        return RR_EX_NOTFOUND;
    }
    for (char *line = out, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t len = strlen(line);
        while (len && line[len - 1] == '\r')   /* a launcher's CRLF: the line's end */
            line[--len] = '\0';
        if (!path_report_line(r, line)) {   /* the launcher's own words, shown safe */
            char *safe = term_safe(line, len, 4096);
            fprintf(stderr, "%s\n", safe);
            free(safe);
        }
    }
    free(out);
    if (timed_out)
        rr_warn("path test: stopped after %.0f s (its deadline, [check] path-timeout)",
                pp->timeout_s);
    return 0;
}

/* Each suspect of a failed path tested again with a node whose every path
 * passed: the side that fails with a good partner too is the bad one. */
static size_t repair(const struct path_plan *pp, const struct path_report *r, bool quiet,
                     struct repair **out)
{
    int *sus, good;
    size_t n = path_suspects(r, &sus, &good);
    *out = xcalloc(n ? n : 1, sizeof(**out));
    size_t done = 0;
    const char *with = good >= 0 ? path_node_value(r, good, "host") : NULL;
    if (n && !with && !quiet)
        rr_note("path test: no node passed every path, so no suspect can be re-paired to tell "
                "which side is bad");
    for (size_t i = 0; with && i < n; i++) {
        const char *node = path_node_value(r, sus[i], "host");
        struct path_plan two;
        path_plan_pair(pp, node, with, &two);
        if (!quiet) {
            char *cmd = sv_join(&two.argv, " ");
            printf("rdmarun: path test: re-pairing %s with %s, which passed every path: %s\n",
                   node, with, cmd);
            fflush(stdout);
            free(cmd);
        }
        struct path_report r2 = {.all_pairs = false};
        double took;
        struct repair *rp = &(*out)[done];
        rp->node = xstrdup(node);
        rp->with = xstrdup(with);
        if (run_round(&two, &r2, &took) == 0) {
            rp->ok = r2.npairs > 0;
            for (size_t k = 0; k < r2.npairs; k++)
                if (!r2.pairs[k].seen || !r2.pairs[k].ok) {
                    rp->ok = false;
                    if (!rp->step && r2.pairs[k].step) {
                        rp->step = xstrdup(r2.pairs[k].step);
                        rp->err = r2.pairs[k].err ? xstrdup(r2.pairs[k].err) : NULL;
                    }
                }
            for (int k = 0; k < r2.n && !rp->step; k++)
                if (r2.nodes[k].fail_step) {
                    rp->step = xstrdup(r2.nodes[k].fail_step);
                    rp->err = r2.nodes[k].fail_err ? xstrdup(r2.nodes[k].fail_err) : NULL;
                }
            if (!rp->ok && !rp->step)
                rp->step = xstrdup(r2.n < 2 ? "launch" : "report");
            done++;
        } else {
            free(rp->node);
            free(rp->with);
        }
        path_report_free(&r2);
        path_plan_free(&two);
    }
    free(sus);
    return done;
}

int path_test_run(const struct path_plan *pp, bool quiet, bool json, struct strvec *bad)
{
    for (size_t i = 0; i < pp->notes.n; i++)
        rr_note("%s", pp->notes.v[i]);
    if (!quiet && !json) {
        char *cmd = sv_join(&pp->argv, " ");
        printf("rdmarun: path test: %s\n", cmd);
        fflush(stdout);
        free(cmd);
    }
    struct path_report r = {.all_pairs = pp->all_pairs};
    double took;
    int rc = run_round(pp, &r, &took);
    if (rc) {
        path_report_free(&r);
        return rc;
    }
    struct path_finding *f;
    size_t nf = path_judge(&r, &pp->hosts, &f);
    bool failed = false;
    for (size_t i = 0; i < nf; i++)
        failed = failed || f[i].level == PATH_FAIL;
    struct repair *rp = NULL;
    size_t nrp = failed ? repair(pp, &r, quiet || json, &rp) : 0;
    char *sum = path_summary(&r);
    if (json)
        print_json(&r, &pp->hosts, f, nf, failed, sum, took, rp, nrp);
    else
        print_text(&r, f, nf, quiet, failed, sum, took);
    for (size_t i = 0; i < nrp; i++) {
        if (!json && rp[i].ok)
            printf("rdmarun: path test: %s passes with %s: %s is not the bad side\n", rp[i].node,
                   rp[i].with, rp[i].node);
        else if (!json)
            rr_error("path test: %s fails with %s too, at step %s%s%s: %s is the bad side",
                     rp[i].node, rp[i].with, rp[i].step, rp[i].err ? ": " : "",
                     rp[i].err ? rp[i].err : "", rp[i].node);
        if (!rp[i].ok && bad)
            sv_pushf(bad, "%s\tfails RDMA with %s, which passed every path, at step %s",
                     rp[i].node, rp[i].with, rp[i].step);
    }
    fflush(stdout);
    for (size_t i = 0; i < nrp; i++) {
        free(rp[i].node);
        free(rp[i].with);
        free(rp[i].step);
        free(rp[i].err);
    }
    free(rp);
    free(sum);
    path_findings_free(f, nf);
    path_report_free(&r);
    return failed ? RR_EX_PATH : 0;
}
