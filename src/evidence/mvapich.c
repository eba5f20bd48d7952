/* MVAPICH2's own report at MV2_SHOW_ENV_INFO=1 (rank 0; mrail/src/gen2/
 * ibv_param.c mv2_print_env_info, MVAPICH2 2.3.7):
 *    MVAPICH2-2.3.7 Parameters
 *   	HCA NAME                       : MV2_HCA_MLX_CX_HDR
 *   	MV2_IBA_EAGER_THRESHOLD        : 16384
 * The HCA is the library's choice for paths between nodes (its OFA-IB-CH3
 * channel has no TCP path); the MV2_VBUF_TOTAL_SIZE, MV2_IBA_EAGER_THRESHOLD
 * and the other RDMA lines are printed only when the job is not on shared
 * memory alone (!SMP_ONLY: more than one node, or SMP turned off), so with
 * them the ranks do reach each other through the HCA. */
#include "evidence/internal.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

bool mvapich_wanted(const char *line)
{
    return strstr(line, "MVAPICH2-") || strstr(line, "HCA NAME") ||
           strstr(line, "MV2_IBA_EAGER_THRESHOLD");
}

/* "HCA NAME : MV2_HCA_MLX_CX_HDR": the value after the colon. */
static const char *value(const char *line)
{
    const char *c = strchr(line, ':');
    return c ? c + 1 + strspn(c + 1, " \t") : NULL;
}

bool mvapich_parse_line(struct evidence *ev, const char *line, const char *where,
                        const char *host, long pid)
{
    const char *p;
    if ((p = strstr(line, "MVAPICH2-")) && strstr(p, " Parameters")) {
        p += strlen("MVAPICH2-");
        evidence_version(ev, "MVAPICH2", p, strcspn(p, " \r\n"));
        return false;
    }
    if (strstr(line, "HCA NAME") && (p = value(line)) && starts_with(p, "MV2_HCA_")) {
        size_t len = strcspn(p, " \t\r\n");
        if (starts_with(p, "MV2_HCA_UNKWN"))
            return false;
        char *what = xasprintf("HCA %.*s", (int)len, p);
        evidence_selected(ev, "mvapich", host, pid, PC_RDMA, what, line, where);
        free(what);
        return true;
    }
    if (strstr(line, "MV2_IBA_EAGER_THRESHOLD") && value(line)) {
        evidence_add(ev, "mvapich", host, pid, SCOPE_UNKNOWN, PC_RDMA, "mrail verbs", line,
                     where);
        return true;
    }
    return false;
}
