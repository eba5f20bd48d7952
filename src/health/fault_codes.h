/* The health check's fault codes: every failing check has a stable code,
 * in its output line, the drain reason and the JSON, so that a site's
 * tooling and a fleet report count faults by kind, not by wording. The
 * table is rdmarun-slurm(7)'s (tests/health.sh holds one to the other). */
#ifndef RDMARUN_FAULT_CODES_H
#define RDMARUN_FAULT_CODES_H
#include <stddef.h>

struct fault_code {
    const char *code;     /* "RDMARUN-PORT-DOWN" */
    const char *check;    /* the check that gives it; NULL: the supervisor */
    const char *meaning;
};
extern const struct fault_code fault_codes[];
extern const size_t nfault_codes;

/* The code a check's problem gets when the check names none: its first
 * row in the table; "RDMARUN-CHECK" for a check not in it. */
const char *fault_code_of_check(const char *check);

#define FAULT_TIMEOUT "RDMARUN-TIMEOUT"
#define FAULT_CONFIG "RDMARUN-CONFIG"

#endif
