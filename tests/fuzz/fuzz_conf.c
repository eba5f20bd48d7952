/* libFuzzer target: util/conf_file, the reader of tune.conf and
 * compare.conf (what --resume reads back), with a round trip: the settings
 * it reads, written again with conf_put and read back, are as many and the
 * same, byte for byte (whatever ';', '%', spaces or control bytes a value
 * holds), unless a line written would be longer than inih reads whole
 * (INI_LINE_MAX: then the reader refuses it, said). */
#include "util/conf_file.h"
#include "util/strvec.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int take(void *user, const char *name, const char *value, const char *where)
{
    (void)where;
    struct strvec *pairs = user;
    sv_push(pairs, name);
    sv_push(pairs, value);
    return 0;
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "w");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64], again[80];
    if (!path[0]) {
        snprintf(path, sizeof(path), "/tmp/rdmarun-fuzz-conf-%d", (int)getpid());
        snprintf(again, sizeof(again), "/tmp/rdmarun-fuzz-conf-%d-again", (int)getpid());
    }
    write_file(path, data, size);
    struct strvec first = {0}, second = {0};
    bool fits = true;
    int rc = conf_file_read(path, "fuzz", take, &first);
    for (size_t i = 0; i + 1 < first.n; i += 2)
        fits = fits && conf_put_length(first.v[i], first.v[i + 1]) <= INI_LINE_MAX;
    if (rc == 0 && fits) {
        FILE *f = fopen(again, "w");
        if (!f)
            abort();
        conf_begin(f, "fuzz");
        for (size_t i = 0; i + 1 < first.n; i += 2)
            if (strcmp(first.v[i], "format") != 0)   /* (the reader's own) */
                conf_put(f, first.v[i], first.v[i + 1]);
        fclose(f);
        if (conf_file_read(again, "fuzz", take, &second) != 0)
            abort();   /* what conf_put wrote is read */
        size_t want = 0;
        for (size_t i = 0; i + 1 < first.n; i += 2)
            want += strcmp(first.v[i], "format") != 0;
        if (second.n != 2 * want)
            abort();   /* every setting back */
        for (size_t i = 0, j = 0; i + 1 < first.n; i += 2) {
            if (strcmp(first.v[i], "format") == 0)
                continue;
            if (strcmp(first.v[i], second.v[j]) != 0 || strcmp(first.v[i + 1], second.v[j + 1]) != 0)
                abort();   /* each as it was */
            j += 2;
        }
    }
    sv_free(&first);
    sv_free(&second);
    unlink(path);
    unlink(again);
    return 0;
}
