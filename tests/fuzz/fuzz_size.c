/* libFuzzer target: the size parser, with a round trip: a size it accepts,
 * written as its byte count (what the UCX check writes for a spelling UCX
 * cannot read) and in every unit it divides exactly, in each spelling
 * size.h names, parses to the same bytes. A rejected size leaves the
 * output alone. */
#include "util/size.h"
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void again(const char *written, uint64_t want, const char *input)
{
    uint64_t got = 0;
    if (!parse_size(written, &got) || got != want) {
        printf("size round trip: '%s' is %" PRIu64 " bytes, written '%s' reads %s%" PRIu64 "\n",
               input, want, written, got == want ? "as no size " : "", got);
        fflush(stdout);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    const uint64_t untouched = 0x5eed;
    uint64_t v = untouched;
    if (!parse_size(s, &v)) {
        if (v != untouched)
            abort();
        free(s);
        return 0;
    }
    char buf[64];
    snprintf(buf, sizeof(buf), "%" PRIu64, v);
    again(buf, v, s);
    static const char *const spellings[][4] = {
        {"k", "K", "KB", "KiB"}, {"m", "M", "MB", "MiB"}, {"g", "G", "GB", "GiB"},
        {"t", "T", "TB", "TiB"}};
    for (unsigned u = 0; u < 4; u++) {
        unsigned shift = 10 * (u + 1);
        if (v & ((UINT64_C(1) << shift) - 1))
            break;
        for (unsigned k = 0; k < 4; k++) {
            snprintf(buf, sizeof(buf), "%" PRIu64 "%s", v >> shift, spellings[u][k]);
            again(buf, v, s);
        }
    }
    free(s);
    return 0;
}
