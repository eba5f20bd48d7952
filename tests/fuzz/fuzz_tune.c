/* libFuzzer target: rdmarun tune's four readers. The first byte picks one
 * (modulo 4): 0, the journal (samples.tsv, what --resume replays) after its
 * header and identity, with a round trip: the records it reads, written again (journal_append) and read
 * back, are as many and are written the same; 1, a --space file (the rest
 * of the input) read against an empty base profile on a node without
 * devices; 2, ompi_info --parsable output, an enumerator's names; 3, an
 * Open MPI rules file's check. */
#include "facts/facts.h"
#include "profile/profile.h"
#include "tune/coll_rules.h"
#include "tune/nccl_rules.h"
#include "tune/perftest.h"
#include "tune/journal.h"
#include "tune/space.h"
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A journal's first two lines, for a tune of identity 0: the input is
 * what follows them (the records). */
#define HEAD JOURNAL_HEADER "#identity\t0000000000000000\n"

/* The records as journal_append writes them, as a string; *len its length. */
static char *written(const struct journal_record *r, size_t n, size_t *len)
{
    int fd = memfd_create("journal", MFD_CLOEXEC);
    if (fd < 0)
        abort();
    if (write(fd, HEAD, strlen(HEAD)) < 0)
        abort();
    for (size_t i = 0; i < n; i++)
        journal_append(fd, &r[i]);
    off_t end = lseek(fd, 0, SEEK_END);
    char *text = malloc((size_t)end + 1);
    if (!text || pread(fd, text, (size_t)end, 0) != end)
        abort();
    text[end] = '\0';
    *len = (size_t)end;
    close(fd);
    return text;
}

static void journal_round_trip(const char *path, const char *again)
{
    struct journal_record *r, *back;
    size_t n, m, len1, len2;
    journal_read(path, 0, &r, &n);   /* (a refusal keeps the records before it) */
    char *first = written(r, n, &len1);
    FILE *f = fopen(again, "w");
    if (f) {
        fwrite(first, 1, len1, f);
        fclose(f);
        int rc = journal_read(again, 0, &back, &m);
        char *second = written(back, m, &len2);
        if (rc || m != n || len1 != len2 || memcmp(first, second, len1) != 0) {
            printf("journal round trip: %zu records read, %zu read back\n--- written:\n%s--- "
                   "again:\n%s---\n", n, m, first, second);
            fflush(stdout);
            abort();
        }
        free(second);
        journal_free(back, m);
    }
    free(first);
    journal_free(r, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64], again[80];
    if (!path[0]) {
        snprintf(path, sizeof(path), "/tmp/rdmarun-fuzz-tune-%d", (int)getpid());
        snprintf(again, sizeof(again), "/tmp/rdmarun-fuzz-tune-%d-again", (int)getpid());
    }
    if (size < 1)
        return 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    if (data[0] % 4 == 0)
        fputs(HEAD, f);
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    if (data[0] % 8 == 7) {
        /* NCCL's example tuner plugin's CSV. */
        char *text = malloc(size), *why = NULL;
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        bool ok = nccl_rules_check(text, &why);
        if (ok == (why != NULL))   /* a reason exactly when refused */
            abort();
        free(why);
        free(text);
    } else if (data[0] % 8 == 4) {
        /* ucx_perftest's CSV, a line at a time, as ucx-pair reads it. */
        char *text = malloc(size), *save = NULL;
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            struct perftest_result r;
            if (perftest_csv_header(line) && perftest_csv_row(line, &r))
                abort();   /* a header is never a row */
            if (perftest_csv_row(line, &r) && (r.iterations < 1 || !(r.latency_us >= 0)))
                abort();
        }
        free(text);
    } else if (data[0] % 4 == 0) {
        journal_round_trip(path, again);
    } else if (data[0] % 4 == 3) {
        char *text = malloc(size), *why = NULL;
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        long max[COLL_COUNT];
        for (size_t i = 0; i < COLL_COUNT; i++)
            max[i] = (long)i % 7;
        bool ok = coll_rules_check(text, max, &why);
        if (ok == (why != NULL))   /* a reason exactly when refused */
            abort();
        free(why);
        free(text);
    } else if (data[0] % 4 == 2) {
        char *text = malloc(size);
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        struct strvec names = {0}, codes = {0};
        size_t n = ompi_info_enumerators(text, "coll_tuned_allreduce_algorithm", &names, &codes);
        if (n != names.n || n != codes.n)
            abort();
        sv_free(&names);
        sv_free(&codes);
        free(text);
    } else {
        struct profile base;
        struct facts node;
        struct tune_space sp;
        memset(&base, 0, sizeof(base));
        memset(&node, 0, sizeof(node));
        memset(&sp, 0, sizeof(sp));
        tune_space_read(&sp, path, &base, &node, NULL);
        tune_space_free(&sp);
    }
    return 0;
}
