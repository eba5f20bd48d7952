/* libFuzzer target: the profile parser (inih with rdmarun's reader, names,
 * duplicates, inheritance lookups) and the value checks. */
#include "profile/profile.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0]) {
        snprintf(path, sizeof(path), "/tmp/rdmarun-fuzz-%d.ini", (int)getpid());
        /* Every input is an error report: keep them out of the fuzzer's
         * output, but let the sanitizers write theirs. */
        setenv("ASAN_OPTIONS", "detect_leaks=0", 0);
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    struct strvec dirs = {0};
    sv_push(&dirs, "/nonexistent");
    struct profile p;
    if (profile_load(path, &dirs, &p) == 0)
        profile_validate(&p);
    profile_free(&p);
    sv_free(&dirs);
    return 0;
}
