/* libFuzzer target: the saved-facts loader (json-c) and everything that
 * reads facts afterwards: the report, the JSON output, the warnings and the
 * placement (fewer, as many and more ranks than the facts' cores); and the
 * round trip: what it writes loads and is written the same again. The same
 * JSON is also a record of rdmarun report (a check, a verdict, a path
 * test): read and printed in every format. */
#include "facts/facts.h"
#include "fleet/report.h"
#include "plan/placement.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The facts in `path`, loaded and written as probe --json writes them (a
 * string), or NULL when they do not load. */
static char *loaded_json(const char *path)
{
    struct facts facts;
    struct facts_sources src = {.facts_file = path};
    char *text = NULL;
    size_t len = 0;
    if (facts_gather(&facts, &src) == 0) {
        FILE *m = open_memstream(&text, &len);
        facts_print_json(&facts, m);
        fclose(m);
    }
    facts_free(&facts);
    return text;
}

/* The round trip probe --json and --facts promise: facts written, loaded
 * and written again are written the same. (Read back from the same path:
 * the facts name the file they came from.) */
static void round_trip(const char *path)
{
    char *first = loaded_json(path);
    FILE *f = first ? fopen(path, "w") : NULL;
    if (!f) {
        free(first);
        return;
    }
    fputs(first, f);
    fclose(f);
    char *second = loaded_json(path);
    if (!second || strcmp(first, second) != 0) {
        printf("facts round trip: written:\n%s\n--- loaded and written again:\n%s\n", first,
               second ? second : "(does not load)");
        fflush(stdout);
        abort();
    }
    free(first);
    free(second);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static FILE *null;
    if (!path[0]) {
        snprintf(path, sizeof(path), "/tmp/rdmarun-fuzz-%d.json", (int)getpid());
        null = fopen("/dev/null", "w");
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    struct facts facts;
    struct facts_sources src = {.facts_file = path};
    if (facts_gather(&facts, &src) == 0) {
        facts_print_text(&facts, null);
        facts_print_json(&facts, null);
        for (int n = 1; n <= 64; n *= 4) {
            struct placement_request rq = {.policy = BIND_GPU_LOCAL, .fabric = "rdma",
                                           .nics = NICS_ONE, .local_size = n, .threads = -1};
            struct placement pl;
            placement_build(&facts, &rq, &pl);
            placement_print_table(&pl, NULL, null);
            placement_free(&pl);
        }
    }
    facts_free(&facts);
    struct strvec dirs = {0};
    sv_push(&dirs, path);
    for (int fmt = REPORT_TABLE; fmt <= REPORT_JSON; fmt++)
        fleet_report(&dirs, (enum report_format)fmt, fmt == REPORT_TABLE, null);
    sv_free(&dirs);
    round_trip(path);
    return 0;
}
