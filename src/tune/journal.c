/* The tune journal (journal.h): tab-separated, a record a line. */
#include "tune/journal.h"
#include "util/fs.h"
#include "util/xalloc.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOURNAL_MAX_LINE (64 * 1024)

int journal_open(const char *path)
{
    return line_log_open(path, JOURNAL_HEADER);
}

/* A field as written: tabs, newlines and other control characters become
 * spaces, so that the line stays one record. */
static void field(FILE *m, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, m);
}

int journal_append(int fd, const struct journal_record *r)
{
    char *line;
    size_t len;
    FILE *m = xmemstream_open(&line, &len);
    fprintf(m, "%zu\t", r->sample);
    field(m, r->config);
    fprintf(m, "\t%d\t", r->status);
    field(m, r->verdict);
    fprintf(m, "\t%d\t%.6f\t", r->included, r->wall);
    field(m, r->log);
    for (size_t i = 0; i < r->nbins; i++) {
        fputc('\t', m);
        field(m, r->bins[i].bin);
        fprintf(m, "\t%.9g", r->bins[i].value);
    }
    fputc('\n', m);
    xmemstream_close(m);
    int rc = len > JOURNAL_MAX_LINE ? (errno = EOVERFLOW, -1) : line_log_append(fd, line, len);
    free(line);
    return rc;
}

static bool parse_record(char *line, struct journal_record *r)
{
    memset(r, 0, sizeof(*r));
    char *f[7], *s = line;
    for (size_t i = 0; i < 7; i++)
        if (!(f[i] = strsep(&s, "\t")))
            return false;
    char *end;
    r->sample = strtoul(f[0], &end, 10);
    if (*end || !*f[0])
        return false;
    r->status = (int)strtol(f[2], &end, 10);
    if (*end || !*f[2] || (strcmp(f[4], "0") != 0 && strcmp(f[4], "1") != 0))
        return false;
    r->included = f[4][0] == '1';
    r->wall = strtod(f[5], &end);
    if (*end || !isfinite(r->wall))
        return false;
    snprintf(r->verdict, sizeof(r->verdict), "%s", f[3]);
    r->config = xstrdup(f[1]);
    r->log = xstrdup(f[6]);
    size_t cap = 0;
    for (char *bin; (bin = strsep(&s, "\t")) != NULL;) {
        char *value = strsep(&s, "\t");
        double v = value ? strtod(value, &end) : NAN;
        if (!value || *end || !*value) {
            journal_record_clear(r);
            return false;
        }
        GROW(r->bins, cap, r->nbins + 1);
        r->bins[r->nbins++] = (struct journal_bin){xstrdup(bin), v};
    }
    return true;
}

size_t journal_read(const char *path, struct journal_record **out)
{
    *out = NULL;
    size_t n = 0, cap = 0;
    FILE *f = open_input(path);   /* a regular file only: never a FIFO's wait */
    if (!f)
        return 0;
    char *line = NULL;
    size_t size = 0;
    ssize_t len;
    bool header = true;
    while ((len = getline(&line, &size, f)) > 0 && len <= JOURNAL_MAX_LINE) {
        if (line[len - 1] != '\n')
            break;   /* torn: cut when the journal is opened again */
        line[len - 1] = '\0';
        if (header) {
            header = false;
            if (strncmp(line, "sample\t", 7) == 0)
                continue;
        }
        struct journal_record r;
        if (!parse_record(line, &r))
            break;
        if (r.sample != n) {   /* out of order: nothing from here on replays */
            journal_record_clear(&r);
            break;
        }
        GROW(*out, cap, n + 1);
        (*out)[n++] = r;
    }
    free(line);
    fclose(f);
    return n;
}

void journal_record_clear(struct journal_record *r)
{
    free(r->config);
    free(r->log);
    for (size_t b = 0; b < r->nbins; b++)
        free(r->bins[b].bin);
    free(r->bins);
    memset(r, 0, sizeof(*r));
}

void journal_free(struct journal_record *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        journal_record_clear(&r[i]);
    free(r);
}
