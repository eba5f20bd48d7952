#include "preflight/path_test.h"
#include "preflight/path_report.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OUTPUT_MAX (4 << 20)

int path_test_run(const struct path_plan *pp, bool quiet)
{
    for (size_t i = 0; i < pp->notes.n; i++)
        rr_note("%s", pp->notes.v[i]);
    if (!quiet) {
        char *cmd = sv_join(&pp->argv, " ");
        printf("rdmarun: path test: %s\n", cmd);
        fflush(stdout);
        free(cmd);
    }
    struct proc_spec spec = {.argv = pp->argv.v, .err_to_out = true, .die_with_parent = true};
    char *out = NULL;
    bool timed_out = false;
    double t0 = proc_now();
    int status = proc_capture(&spec, pp->timeout_s, OUTPUT_MAX, &out, &timed_out);
    double took = proc_now() - t0;
    if (status < 0) {
        rr_error("path test: cannot run %s: %s (hint: --mpirun PATH, or $RDMARUN_MPIRUN)",
                 pp->argv.v[0], strerror(errno));
        free(out);
        return RR_EX_NOTFOUND;
    }
    struct path_report r = {.all_pairs = pp->all_pairs};
    /* The launcher's own lines are the user's to read: shown as they were. */
    for (char *line = out, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!path_report_line(&r, line))
            fprintf(stderr, "%s\n", line);
    }
    free(out);
    if (timed_out)
        rr_warn("path test: stopped after %.0f s (its deadline, [check] path-timeout)",
                pp->timeout_s);
    for (size_t i = 0; !quiet && i < r.npairs; i++) {
        const struct path_pair *p = &r.pairs[i];
        if (!p->ok)
            continue;
        char *a = path_node_name(&r, p->from), *b = path_node_name(&r, p->to);
        printf("rdmarun: path %s -> %s: SEND/RECV and RDMA WRITE verified, latency %.1f us, "
               "bandwidth %.1f MB/s\n", a, b, p->lat_us, p->bw_mbps);
        free(a);
        free(b);
    }
    struct path_finding *f;
    size_t nf = path_judge(&r, &pp->hosts, &f);
    bool failed = false;
    for (size_t i = 0; i < nf; i++) {
        if (f[i].level == PATH_FAIL)
            rr_error("path test: %s", f[i].text);
        else
            rr_warn("path test: %s", f[i].text);
        failed = failed || f[i].level == PATH_FAIL;
    }
    char *sum = path_summary(&r);
    if (failed)
        rr_error("path test failed: %s, %.1f s", sum, took);
    else
        printf("rdmarun: path test passed: %s, %.1f s\n", sum, took);
    fflush(stdout);
    free(sum);
    path_findings_free(f, nf);
    path_report_free(&r);
    return failed ? RR_EX_PATH : 0;
}
