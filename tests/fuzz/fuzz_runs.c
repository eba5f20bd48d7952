/* libFuzzer target: compare's runs.csv reader (what --resume reads back). */
#include "compare/runs.h"
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof(path), "/tmp/rdmarun-fuzz-runs-%d.csv", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    struct run *runs;
    size_t n = runs_read(path, &runs);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    for (size_t i = 0; null >= 0 && i < n; i++)
        runs_append(null, &runs[i]);
    if (null >= 0)
        close(null);
    free(runs);
    return 0;
}
