/* rdmarun judge FILE...: benchmark results held to the speed-of-light model
 * of the node they ran on (judge/, model/). */
#include "cmd/commands.h"
#include "facts/facts.h"
#include "judge/judge.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A whole input, at most RESULTS_MAX_BYTES; "-" is standard input. */
static char *read_result(const char *path)
{
    size_t len = 0;
    if (strcmp(path, "-") != 0)
        return read_input(path, RESULTS_MAX_BYTES, &len);
    FILE *f = open_stream(path);
    char *buf = f ? xmalloc(RESULTS_MAX_BYTES + 1) : NULL;
    size_t n = f ? fread(buf, 1, RESULTS_MAX_BYTES + 1, f) : 0;
    if (f)
        fclose(f);
    if (buf && n > RESULTS_MAX_BYTES) {
        free(buf);
        errno = EFBIG;
        return NULL;
    }
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* The node to judge against: the facts (this node's, saved, or a recorded
 * tree), unless only a description is given. */
static int base_node(const struct cmdline *cl, struct node_model *base)
{
    node_model_init(base);
    char err[200];
    if (cl->node && !node_model_parse(base, cl->node, err, sizeof(err))) {
        char *safe = term_safe(err, strlen(err), 200);
        rr_error("--node: %s (hint: KEY=VALUE words such as 'nics=8x400G kind=ib pcie=5x16 "
                 "gpus=8xH100 nodes=2'; rdmarun judge --help)", safe);
        free(safe);
        return RR_EX_USAGE;
    }
    node_model_free(base);
    node_model_init(base);
    if (cl->node && !cl->facts && !cl->sysfs && !cl->topology)
        return 0;
    struct facts f;
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false, false};
    int rc = facts_gather(&f, &src);
    if (!rc)
        node_model_from_facts(base, &f);
    facts_free(&f);
    return rc;
}

/* One file's series, judged and appended to *all. */
static int judge_file(const struct cmdline *cl, const char *path, const struct node_model *base,
                      struct result_file *rf, struct judged **all, size_t *n)
{
    char *safe = term_safe(path, strlen(path), 200);
    char *text = read_result(path);
    if (!text) {
        int err = errno;
        rr_error("%s: cannot read it: %s", safe, input_strerror(err));
        free(safe);
        return err == ENOENT || err == EACCES ? RR_EX_NOINPUT : RR_EX_DATAERR;
    }
    int rc = 0;
    if (!results_parse(rf, text, path)) {
        rr_error("%s: no benchmark output found in it (nccl-tests' table or -J JSON, OSU, IMB, "
                 "perftest, ucx_perftest, rdmarun's mpi_pingpong)", safe);
        rc = RR_EX_DATAERR;
    }
    *all = xrealloc(*all, (*n + rf->n + 1) * sizeof(**all));
    for (size_t i = 0; i < rf->n; i++)
        if (rf->series[i].nrows)
            judge_series(&(*all)[(*n)++], path, &rf->series[i], base, cl->node);
    free(text);
    free(safe);
    return rc;
}

static int status_of(const struct judged *j, size_t n, int rc)
{
    for (size_t i = 0; i < n; i++) {
        int s = j[i].label == LABEL_BROKEN ? RR_EX_BROKEN
              : j[i].label == LABEL_DEGRADED ? RR_EX_DEGRADED : 0;
        if (s > rc && !(rc >= RR_EX_USAGE && rc <= RR_EX_CONFIG))
            rc = s;
    }
    return rc;
}

int cmd_judge(const struct cmdline *cl)
{
    struct node_model base;
    int rc = base_node(cl, &base);
    if (rc) {
        node_model_free(&base);
        return rc;
    }
    size_t nfiles = cl->job.program.n, n = 0;
    struct result_file *files = xcalloc(nfiles, sizeof(*files));
    struct judged *all = NULL;
    for (size_t i = 0; i < nfiles; i++) {
        int r = judge_file(cl, cl->job.program.v[i], &base, &files[i], &all, &n);
        rc = rc ? rc : r;
    }
    if (cl->json)
        judge_print_json(all, n, stdout);
    else
        for (size_t i = 0; i < n; i++) {
            if (i)
                fputc('\n', stdout);
            judge_print_text(&all[i], stdout);
        }
    rc = status_of(all, n, rc);
    for (size_t i = 0; i < n; i++)
        judged_free(&all[i]);
    for (size_t i = 0; i < nfiles; i++)
        results_free(&files[i]);
    free(all);
    free(files);
    node_model_free(&base);
    return rc;
}
