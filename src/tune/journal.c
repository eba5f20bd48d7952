/* The tune journal (journal.h): tab-separated, a record a line. */
#include "tune/journal.h"
#include "compare/measure.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define JOURNAL_MAX_LINE (64 * 1024)

/* The header and the tune's identity, as the journal's first two lines. */
static char *head_of(uint64_t identity)
{
    return xasprintf("%s#identity\t%016" PRIx64 "\n", JOURNAL_HEADER, identity);
}

int journal_open(const char *path, uint64_t identity)
{
    char *head = head_of(identity);
    int fd = line_log_open(path, head);
    free(head);
    return fd;
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

/* The first seven fields: whole, in range. NULL, else what is wrong. */
static const char *parse_fields(char **f, struct journal_record *r)
{
    long sample, status, included;
    if (!parse_long(f[0], 0, LONG_MAX, &sample))
        return "a sample that is not a whole number from 0";
    if (!f[1][0])
        return "no configuration";
    if (!parse_long(f[2], -1, 255, &status))
        return "a status that is not -1 (not started) or from 0 to 255";
    if (!f[3][0] || strlen(f[3]) >= sizeof(r->verdict))
        return "a verdict empty or too long";
    if (!parse_long(f[4], 0, 1, &included))
        return "included that is neither 0 nor 1";
    if (!parse_real(f[5], 0, MEASURE_MAX_WALL, &r->wall))
        return "a wall time that is not a number of seconds from 0 to 1e9";
    r->sample = (size_t)sample;
    r->status = (int)status;
    r->included = included;
    snprintf(r->verdict, sizeof(r->verdict), "%s", f[3]);
    r->config = xstrdup(f[1]);
    r->log = xstrdup(f[6]);
    return NULL;
}

/* One record, every field whole and in range, as journal_append writes it.
 * NULL, else what is wrong (r cleared). */
static const char *parse_record(char *line, struct journal_record *r)
{
    memset(r, 0, sizeof(*r));
    char *f[7], *s = line;
    for (size_t i = 0; i < 7; i++)
        if (!(f[i] = strsep(&s, "\t")))
            return "fewer than 7 tab-separated fields";
    const char *why = parse_fields(f, r);
    size_t cap = 0;
    for (char *bin; !why && (bin = strsep(&s, "\t")) != NULL;) {
        char *value = strsep(&s, "\t");
        double v;
        if (!value || !parse_real(value, -METRIC_MAX, METRIC_MAX, &v)) {
            why = "a bin without a figure within +-1e18";
            break;
        }
        GROW(r->bins, cap, r->nbins + 1);
        r->bins[r->nbins++] = (struct journal_bin){xstrdup(bin), v};
    }
    if (why)
        journal_record_clear(r);
    return why;
}

/* The journal's first two lines: its header and this tune's identity. */
static const char *check_head(FILE *f, uint64_t identity, char **line, size_t *size,
                              long *lineno)
{
    char *want = head_of(identity);
    const char *why = NULL;
    size_t header = strlen(JOURNAL_HEADER);
    for (int k = 0; k < 2 && !why; k++) {
        *lineno = k + 1;
        ssize_t len = getline(line, size, f);
        const char *expect = k ? want + header : want;
        size_t n = k ? strlen(want) - header : header;
        if (len != (ssize_t)n || memcmp(*line, expect, n) != 0)
            why = k == 0 ? "not the journal's header"
                : strncmp(*line, "#identity\t", 10) == 0
                ? "recorded by another tune: its settings or its base profile differ from "
                  "this one's (tune.conf or the profile changed since)"
                : "no identity line (a journal from an older rdmarun, or edited)";
    }
    free(want);
    return why;
}

int journal_read(const char *path, uint64_t identity, struct journal_record **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    FILE *f = open_input(path);   /* a regular file only: never a FIFO's wait */
    if (!f)
        return errno == ENOENT ? 0 : (rr_error("cannot read %s: %s", path,
                                               input_strerror(errno)), RR_EX_NOINPUT);
    char *line = NULL;
    size_t size = 0, cap = 0;
    ssize_t len;
    long lineno = 2;
    const char *why = NULL;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && st.st_size > 0)
        why = check_head(f, identity, &line, &size, &lineno);
    while (!why && (len = getline(&line, &size, f)) > 0) {
        lineno++;
        if (line[len - 1] != '\n')
            break;   /* torn: cut when the journal is opened again */
        line[len - 1] = '\0';
        struct journal_record r;
        why = len > JOURNAL_MAX_LINE ? "longer than any record" : parse_record(line, &r);
        if (!why && r.sample != *n) {
            why = "out of order: not the sample after the one before";
            journal_record_clear(&r);
        }
        if (!why) {
            GROW(*out, cap, *n + 1);
            (*out)[(*n)++] = r;
        }
    }
    if (why)
        rr_error("%s:%ld: %s (hint: the file is written by rdmarun tune; do not edit it, or "
                 "start a new tune with another -o DIR)", path, lineno, why);
    free(line);
    fclose(f);
    return why ? RR_EX_DATAERR : 0;
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
