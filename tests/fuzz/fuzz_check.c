/* libFuzzer target: the check configuration reader, as `rdmarun check`
 * reads it (profile_load with parents from the file's own folder, then
 * profile_validate), and every check that configuration turns on, judged
 * against a recorded device tree (RDMARUN_FUZZ_SYSFS, set by run.sh): the
 * value parsers of [check] (devices = mlx5_0:x, min-rate, memlock, idle
 * latencies, governors, IRQ CPU lists) meet whatever the file holds. The
 * worker's report goes to /dev/null; a crash, a leak or a hang is the bug. */
#include "health/health.h"
#include "profile/profile.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[64], path[96];
    static FILE *out;
    if (!dir[0]) {
        snprintf(dir, sizeof(dir), "/tmp/rdmarun-fuzz-check-%d", (int)getpid());
        mkdir(dir, 0700);
        snprintf(path, sizeof(path), "%s/check.ini", dir);
        out = fopen("/dev/null", "w");
    }
    FILE *f = fopen(path, "w");
    if (!f || !out) {
        if (f)
            fclose(f);
        return 0;
    }
    fwrite(data, 1, size, f);
    fclose(f);
    struct strvec dirs = {0};
    sv_push(&dirs, dir);
    struct profile cfg;
    if (profile_load(path, &dirs, &cfg) == 0 && profile_validate(&cfg) == 0)
        health_checks(&cfg, getenv("RDMARUN_FUZZ_SYSFS"), out);
    profile_free(&cfg);
    sv_free(&dirs);
    return 0;
}
