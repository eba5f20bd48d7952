/* runs.csv: one line per finished run of a comparison, appended as each
 * run ends (never rewritten: a comparison killed at any moment keeps every
 * run it recorded), read back for the statistics and by --resume. */
#include "compare/runs.h"
#include "compare/measure.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int runs_open(const char *path)
{
    return line_log_open(path, RUNS_CSV_HEADER);
}

int runs_append(int fd, const struct run *r)
{
    char line[512], metric[32] = "", bin[sizeof(r->bin)];
    if (!isnan(r->metric))
        snprintf(metric, sizeof(metric), "%.9g", r->metric);
    snprintf(bin, sizeof(bin), "%s", r->bin);
    for (char *c = bin; *c; c++)
        if (*c == ',' || *c == '"' || (unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '_';
    int len = snprintf(line, sizeof(line), "%d,%d,%s,%s,%ld,%.6f,%d,%s,%s,%s,%d,%s\n", r->index,
                       r->round, r->warmup ? "warmup" : "measure", r->profile, r->np, r->wall,
                       r->status, r->verdict, r->expect, metric, r->included, bin);
    if (len < 0 || (size_t)len >= sizeof(line)) {
        errno = EOVERFLOW;
        return -1;
    }
    return line_log_append(fd, line, (size_t)len);
}

/* A field copied whole into dst (size bytes), or false. */
static bool text_field(char *dst, size_t size, const char *src)
{
    return snprintf(dst, size, "%s", src) < (int)size;
}

/* One row, every field whole and in range, as runs_append writes it;
 * NULL, else what is wrong. */
static const char *parse_row(char *line, struct run *r)
{
    char *field[13], *s = line;
    size_t nf = 0;
    for (char *tok; nf < 13 && (tok = strsep(&s, ",")) != NULL;)
        field[nf++] = tok;
    if (nf != 11 && nf != 12)
        return "not 12 comma-separated fields (11 before the bin was kept)";
    long index, round, np, status, included;
    memset(r, 0, sizeof(*r));
    if (!parse_long(field[0], 0, INT_MAX, &index) || !parse_long(field[1], 0, INT_MAX, &round))
        return "a run or round that is not a whole number from 0";
    if (strcmp(field[2], "warmup") != 0 && strcmp(field[2], "measure") != 0)
        return "a phase that is neither warmup nor measure";
    if (!parse_long(field[4], 1, RUNS_MAX_NP, &np))
        return "ranks (np) that are not a whole number from 1";
    if (!parse_real(field[5], 0, MEASURE_MAX_WALL, &r->wall))
        return "a wall time that is not a number of seconds from 0 to 1e9";
    if (!parse_long(field[6], -1, 255, &status))
        return "a status that is not -1 (not started) or from 0 to 255";
    r->metric = NAN;
    if (field[9][0] && !parse_real(field[9], -METRIC_MAX, METRIC_MAX, &r->metric))
        return "a metric that is not a number within +-1e18";
    if (!parse_long(field[10], 0, 1, &included))
        return "included that is neither 0 nor 1";
    if (!text_field(r->profile, sizeof(r->profile), field[3]) || !field[3][0] ||
        !text_field(r->verdict, sizeof(r->verdict), field[7]) ||
        !text_field(r->expect, sizeof(r->expect), field[8]))
        return "a profile, verdict or expectation empty or too long";
    if (nf == 12 && !text_field(r->bin, sizeof(r->bin), field[11]))
        return "a bin longer than 63 bytes";
    r->index = (int)index;
    r->round = (int)round;
    r->warmup = field[2][0] == 'w';
    r->np = np;
    r->status = (int)status;
    r->included = included;
    return NULL;
}

int runs_read(const char *path, struct run **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    FILE *f = open_input(path);   /* a regular file only */
    if (!f)
        return errno == ENOENT ? 0 : (rr_error("cannot read %s: %s", path,
                                               input_strerror(errno)), RR_EX_NOINPUT);
    size_t cap = 0, size = 0;
    char *line = NULL;
    ssize_t len;
    int rc = 0;
    for (long lineno = 1; !rc && (len = getline(&line, &size, f)) > 0; lineno++) {
        if (line[len - 1] != '\n')
            break;   /* cut short as it was written: runs_open cuts it */
        line[len - 1] = '\0';
        if (lineno == 1 && strncmp(line, "run,", 4) == 0)
            continue;
        struct run r;
        const char *why = len > RUNS_MAX_LINE ? "longer than any row" : parse_row(line, &r);
        if (!why && r.index != (int)*n)
            why = "out of order: not the run after the one before";
        if (why) {
            rr_error("%s:%ld: %s (hint: the file is written by rdmarun compare; do not edit "
                     "it, or start again with another -o DIR)", path, lineno, why);
            rc = RR_EX_DATAERR;
            break;
        }
        GROW(*out, cap, *n + 1);
        (*out)[(*n)++] = r;
    }
    free(line);
    fclose(f);
    return rc;
}
