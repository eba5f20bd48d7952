/* runs.csv: one line per finished run of a comparison, appended as each
 * run ends (never rewritten: a comparison killed at any moment keeps every
 * run it recorded), read back for the statistics and by --resume. */
#include "compare/runs.h"
#include "util/fs.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
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
    char line[512], metric[32] = "";
    if (!isnan(r->metric))
        snprintf(metric, sizeof(metric), "%.9g", r->metric);
    int len = snprintf(line, sizeof(line), "%d,%d,%s,%s,%ld,%.6f,%d,%s,%s,%s,%d\n", r->index,
                       r->round, r->warmup ? "warmup" : "measure", r->profile, r->np, r->wall,
                       r->status, r->verdict, r->expect, metric, r->included);
    if (len < 0 || (size_t)len >= sizeof(line)) {
        errno = EOVERFLOW;
        return -1;
    }
    return line_log_append(fd, line, (size_t)len);
}

size_t runs_read(const char *path, struct run **out)
{
    FILE *f = fopen(path, "r");
    size_t n = 0, cap = 0;
    char line[1024];
    bool rest = false;   /* reading the rest of a line too long to be a row */
    *out = NULL;
    while (f && fgets(line, sizeof(line), f)) {
        bool whole = strchr(line, '\n') != NULL, skip = rest;
        rest = !whole;
        if (skip || !whole || strncmp(line, "run,", 4) == 0)
            continue;
        line[strcspn(line, "\n")] = '\0';
        char *field[11], *s = line;
        size_t nf = 0;
        for (char *tok; nf < 11 && (tok = strsep(&s, ",")) != NULL;)
            field[nf++] = tok;
        if (nf != 11)
            continue;
        struct run r;
        memset(&r, 0, sizeof(r));
        r.index = atoi(field[0]);
        r.round = atoi(field[1]);
        r.warmup = strcmp(field[2], "warmup") == 0;
        snprintf(r.profile, sizeof(r.profile), "%s", field[3]);
        r.np = atol(field[4]);
        r.wall = strtod(field[5], NULL);
        r.status = atoi(field[6]);
        snprintf(r.verdict, sizeof(r.verdict), "%s", field[7]);
        snprintf(r.expect, sizeof(r.expect), "%s", field[8]);
        r.metric = field[9][0] ? strtod(field[9], NULL) : NAN;
        r.included = atoi(field[10]) != 0;
        GROW(*out, cap, n + 1);
        (*out)[n++] = r;
    }
    if (f)
        fclose(f);
    return n;
}
