/* rdmarun verify LOG...: the verdict from saved logs (evidence only). A
 * directory of runs (rdmarun-evidence, each run's directory marked) gives
 * one verdict per run, never one merged across jobs. */
#include "cmd/commands.h"
#include "evidence/evidence.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* How bad a status is, for the worst of many runs: a read error, a
 * fallback, no evidence, local only, RDMA. */
static int severity(int rc)
{
    switch (rc) {
    case 0: return 0;
    case RR_EX_LOCAL: return 1;
    case RR_EX_NO_EVIDENCE: return 2;
    case RR_EX_FALLBACK: return 3;
    default: return 4;
    }
}

/* The status of a verdict under the evidence's expectation (--expect, else
 * what the run recorded), if any. */
static int status_of(const struct evidence *ev, enum verdict v)
{
    /* With an expectation, a verdict that meets it is a success, and one
     * that does not is never 0 (RDMA where only local was expected: 80). */
    int e = ev->expect ? name_index(expectation_names, ev->expect) : -1;
    int rc = verdict_status(v);
    if (e >= 0)
        rc = evidence_meets(ev, (enum expectation)e) ? 0 : rc ? rc : RR_EX_FALLBACK;
    return rc;
}

/* One verdict of the logs in paths (named `run` when there are many). */
static int verdict_of(const struct cmdline *cl, char *const *paths, size_t n, const char *run,
                      bool *first_json)
{
    struct evidence ev = {0};
    int rc = 0;
    char *expect = NULL, *why = NULL;
    if (cl->expect) {   /* --expect wins over what a run recorded */
        ev.expect = cl->expect;
        ev.expect_reason = "--expect";
    } else if (n == 1) {
        evidence_recorded_expect(paths[0], &ev, &expect, &why);
    }
    for (size_t i = 0; i < n && !rc; i++)
        rc = evidence_read(&ev, paths[i]);
    if (!rc) {
        enum verdict v = evidence_verdict(&ev);
        ev.run = run;
        if (cl->json) {
            if (first_json && !*first_json)
                fputs(",\n", stdout);
            if (first_json)
                *first_json = false;
            evidence_print_json(&ev, v, stdout);
        } else {
            char *summary = verdict_summary(&ev, v);
            char *painted = msg_paint_verdict(stdout, summary);
            printf("rdmarun: %s%s%s\n", run ? run : "", run ? ": " : "", painted);
            free(painted);
            free(summary);
        }
        rc = status_of(&ev, v);
    }
    evidence_free(&ev);
    free(expect);
    free(why);
    return rc;
}

/* The run directories in path, a directory of runs (sorted by name: host,
 * pid, time); none when path is no such directory. */
static void runs_in(const char *path, struct strvec *runs)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode) || evidence_is_run_dir(path))
        return;
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        char *child = xasprintf("%s/%s", path, names[i]->d_name);
        struct stat cs;
        if (names[i]->d_name[0] != '.' && lstat(child, &cs) == 0 && S_ISDIR(cs.st_mode) &&
            evidence_is_run_dir(child))
            sv_push(runs, child);
        free(child);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

int cmd_verify(const struct cmdline *cl)
{
    const struct strvec *args = &cl->job.program;
    struct strvec *runs = xcalloc(args->n ? args->n : 1, sizeof(*runs));
    bool many = false;
    for (size_t i = 0; i < args->n; i++) {
        runs_in(args->v[i], &runs[i]);
        many |= runs[i].n > 0;
    }
    int rc;
    if (!many) {
        rc = verdict_of(cl, args->v, args->n, NULL, NULL);
    } else {
        /* Each run its own verdict, each path given beside them too; the
         * status is the worst. */
        bool first = true;
        rc = 0;
        if (cl->json)
            fputs("{\"runs\": [\n", stdout);
        for (size_t i = 0; i < args->n; i++) {
            for (size_t r = 0; r < runs[i].n; r++) {
                const char *slash = strrchr(runs[i].v[r], '/');
                int one = verdict_of(cl, &runs[i].v[r], 1, slash ? slash + 1 : runs[i].v[r],
                                     &first);
                rc = severity(one) > severity(rc) ? one : rc;
            }
            if (!runs[i].n) {
                int one = verdict_of(cl, &args->v[i], 1, args->v[i], &first);
                rc = severity(one) > severity(rc) ? one : rc;
            }
        }
        if (cl->json)
            fputs("]}\n", stdout);
    }
    for (size_t i = 0; i < args->n; i++)
        sv_free(&runs[i]);
    free(runs);
    return rc;
}
