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
    for (size_t i = 0; i < cl->program.n && !rc; i++)
        rc = evidence_read(&ev, cl->program.v[i]);
    if (!rc) {
        enum verdict v = evidence_verdict(&ev);
        if (cl->json) {
            evidence_print_json(&ev, v, stdout);
        } else {
            char *summary = verdict_summary(&ev, v);
            printf("rdmarun: %s\n", summary);
            free(summary);
        }
        static const int status[] = {0, RR_EX_FALLBACK, RR_EX_LOCAL, RR_EX_NO_EVIDENCE};
        rc = status[v];
    }
    evidence_free(&ev);
    return rc;
}

