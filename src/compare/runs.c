/* runs.csv: one line per finished run of a comparison, appended as each
 * run ends, read back for the statistics and by --resume. */
#include "compare/runs.h"
#include "util/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void runs_append(FILE *csv, const struct run *r)
{
    fprintf(csv, "%d,%d,%s,%s,%ld,%.6f,%d,%s,%s,", r->index, r->round,
            r->warmup ? "warmup" : "measure", r->profile, r->np, r->wall, r->status, r->verdict,
            r->expect);
    if (!isnan(r->metric))
        fprintf(csv, "%.9g", r->metric);
    fprintf(csv, ",%d\n", r->included);
    fflush(csv);
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
