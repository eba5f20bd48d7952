/* libFuzzer target: the check configuration reader, as `rdmarun check`
 * reads it (profile_load with parents from the file's own folder, then
 * profile_validate), and every check that configuration turns on, judged
 * against a recorded device tree (RDMARUN_FUZZ_SYSFS, set by run.sh): the
 * value parsers of [check] (devices = mlx5_0:x, min-rate, memlock, idle
 * latencies, governors, IRQ CPU lists) meet whatever the file holds. The
 * worker's report goes to /dev/null; a crash, a leak or a hang is the bug.
 * The input is also read as the flap check's state file and as a kernel
 * log (/dev/kmsg records, health/kmsg.c). */
#include "health/health.h"
#include "health/kmsg.h"
#include "health/port_history.h"
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
    if (profile_load(path, &dirs, &cfg) == 0 && profile_validate(&cfg) == 0) {
        /* The files the checks keep go in the fuzzer's folder, whatever the
         * input says: a fuzzed `state = /etc/x` must not replace a file of
         * the machine running the fuzzer. */
        char *keep = NULL;
        for (int k = 0; k < 2; k++) {
            const char *key = k ? "state" : "baseline";
            keep = realloc(keep, strlen(dir) + 16);
            sprintf(keep, "%s/%s", dir, key);
            profile_put(&cfg, "check", key, keep, ORIGIN_SET, NULL, 0);
        }
        free(keep);
        struct health_scope scope = {getenv("RDMARUN_FUZZ_SYSFS"), NULL, false};
        health_checks(&cfg, &scope, out);
    }
    /* The same bytes as a state file of the flap check: read, written back
     * and read again to the same ports. */
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
        static struct port_history h1[64], h2[64];
        size_t n1 = port_history_parse(text, h1, 64);
        char *back = port_history_text(h1, n1);
        size_t n2 = port_history_parse(back, h2, 64);
        if (n1 != n2)
            abort();   /* the text it writes must read back whole */
        free(back);
        free(text);
    }
    /* The same bytes as a kernel log: every record parsed and judged, the
     * parse always moving on. */
    const char *p = (const char *)data, *end = p + size;
    struct kmsg_record r;
    bool bad;
    while (p < end) {
        const char *before = p;
        if (kmsg_next(&p, end, &r, &bad))
            (void)kmsg_classify(&r);
        else if (!bad)
            break;
        if (p <= before || p > end)
            abort();
    }
    profile_free(&cfg);
    sv_free(&dirs);
    return 0;
}
