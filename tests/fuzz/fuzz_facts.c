/* libFuzzer target: the saved-facts loader (json-c) and everything that
 * reads facts afterwards: the report, the JSON output and the warnings. */
#include "facts/facts.h"
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
    }
    facts_free(&facts);
    return 0;
}
