/* libFuzzer target: compare's runs.csv reader (what --resume reads back),
 * with a round trip: the rows it reads, written again (runs_append) and read
 * back, are all taken, as many, and written the same. */
#include "compare/runs.h"
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The rows as runs_append writes them (into a memfd), as a string; *len
 * its length. */
static char *written(const struct run *runs, size_t n, size_t *len)
{
    int fd = memfd_create("runs", MFD_CLOEXEC);
    if (fd < 0)
        abort();
    if (write(fd, RUNS_CSV_HEADER, strlen(RUNS_CSV_HEADER)) < 0)
        abort();
    for (size_t i = 0; i < n; i++)
        runs_append(fd, &runs[i]);
    off_t end = lseek(fd, 0, SEEK_END);
    char *text = malloc((size_t)end + 1);
    if (!text || pread(fd, text, (size_t)end, 0) != end)
        abort();
    text[end] = '\0';
    *len = (size_t)end;
    close(fd);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64], again[80];
    if (!path[0]) {
        snprintf(path, sizeof(path), "/tmp/rdmarun-fuzz-runs-%d.csv", (int)getpid());
        snprintf(again, sizeof(again), "/tmp/rdmarun-fuzz-runs-%d-again.csv", (int)getpid());
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    struct run *runs, *back;
    size_t n, m, len1, len2;
    runs_read(path, &runs, &n);   /* (a refusal keeps the rows before it) */
    char *first = written(runs, n, &len1);
    if ((f = fopen(again, "w"))) {
        fwrite(first, 1, len1, f);
        fclose(f);
        int rc = runs_read(again, &back, &m);
        char *second = written(back, m, &len2);
        if (rc || m != n || len1 != len2 || memcmp(first, second, len1) != 0) {
            printf("runs.csv round trip: %zu rows read, %zu read back\n--- written:\n%s--- "
                   "again:\n%s---\n", n, m, first, second);
            fflush(stdout);
            abort();
        }
        free(second);
        free(back);
    }
    free(first);
    free(runs);
    return 0;
}
