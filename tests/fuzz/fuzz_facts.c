/* libFuzzer target: the saved-facts loader (json-c) and everything that
 * reads facts afterwards: the report, the JSON output, the warnings and the
 * placement (fewer, as many and more ranks than the facts' cores). */
#include "facts/facts.h"
#include "plan/placement.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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
    return 0;
}
