/* libFuzzer target: facts/cloud.c's reader of NCCL's configuration files
 * (nccl.conf), the NCCL_TOPO_FILE it takes: NULL, or a value of printable
 * bytes, under 4096, with no space, tab or '#' (what ends a value there). */
#include "facts/facts.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof(path), "/tmp/rdmarun-fuzz-ncclconf-%d", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    char *v = facts_nccl_conf_topo(path);
    if (v) {
        size_t n = strlen(v);
        if (n == 0 || n >= 4096 || strpbrk(v, " \t#\r\n"))
            abort();
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)v[i] < 0x20 || (unsigned char)v[i] == 0x7f)
                abort();
    }
    free(v);
    return 0;
}
