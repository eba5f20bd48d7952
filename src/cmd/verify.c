/* rdmarun verify LOG...: the verdict from saved logs (evidence only). */
#include "cmd/commands.h"
#include "evidence/evidence.h"
#include "util/msg.h"
#include <stdio.h>
#include <stdlib.h>

int cmd_verify(const struct cmdline *cl)
{
    struct evidence ev = {0};
    int rc = 0;
    for (size_t i = 0; i < cl->job.program.n && !rc; i++)
        rc = evidence_read(&ev, cl->job.program.v[i]);
    if (!rc) {
        enum verdict v = evidence_verdict(&ev);
        if (cl->json) {
            evidence_print_json(&ev, v, stdout);
        } else {
            char *summary = verdict_summary(&ev, v);
            char *painted = msg_paint_verdict(stdout, summary);
            printf("rdmarun: %s\n", painted);
            free(painted);
            free(summary);
        }
        /* With --expect, a verdict that meets it is a success, and one that
         * does not is never 0 (RDMA where only local was expected: 80). */
        int e = name_index(expectation_names, cl->expect);
        rc = verdict_status(v);
        if (e >= 0)
            rc = evidence_meets(&ev, (enum expectation)e) ? 0 : rc ? rc : RR_EX_FALLBACK;
    }
    evidence_free(&ev);
    return rc;
}

