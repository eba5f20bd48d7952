/* rdmarun report DIR...: the fleet view of many runs' and checks' records
 * (fleet/report.c). */
#include "cmd/commands.h"
#include "fleet/report.h"
#include "util/msg.h"

int cmd_report(const struct cmdline *cl)
{
    if (cl->json && cl->csv) {
        rr_error("--json and --csv are two formats: give one");
        return RR_EX_USAGE;
    }
    if (cl->plot && (cl->json || cl->csv)) {
        rr_error("--plot draws on the table: it goes without --json and --csv");
        return RR_EX_USAGE;
    }
    return fleet_report(&cl->job.program, cl->json ? REPORT_JSON : cl->csv ? REPORT_CSV
                                                                         : REPORT_TABLE,
                        cl->plot, stdout);
}
