/* rdmarun judge's series: what the readers fill, and the helpers they
 * share to read a line's words and numbers. */
#include "judge/results.h"
#include "util/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct result_series *results_add(struct result_file *rf, const char *tool, const char *test,
                                   enum bench_op op)
{
    if (rf->n >= RESULTS_MAX_SERIES)
        return NULL;
    /* all of them at once: readers hold pointers to earlier series */
    if (!rf->series)
        rf->series = xcalloc(RESULTS_MAX_SERIES, sizeof(*rf->series));
    struct result_series *s = &rf->series[rf->n++];
    memset(s, 0, sizeof(*s));
    s->tool = tool;
    snprintf(s->test, sizeof(s->test), "%s", test);
    s->bench.op = op;
    s->judged = true;
    s->gdr = -1;
    return s;
}

void series_row(struct result_series *s, double bytes, double value)
{
    if (!s || s->nrows >= RESULTS_MAX_ROWS)
        return;
    if (s->nrows % 64 == 0)
        s->rows = xrealloc(s->rows, (s->nrows + 64) * sizeof(*s->rows));
    s->rows[s->nrows++] = (struct result_row){bytes, value};
}

size_t split_words(const char *line, char *buf, size_t buflen, char **w, size_t max)
{
    snprintf(buf, buflen, "%s", line);
    size_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t\r", &save); t && n < max; t = strtok_r(NULL, " \t\r", &save))
        w[n++] = t;
    return n;
}

bool word_number(const char *w, double *out)
{
    char *end;
    if (!w || !(*w >= '0' && *w <= '9'))
        return false;
    *out = strtod(w, &end);
    return !*end && isfinite(*out) && *out >= 0;
}

void results_free(struct result_file *rf)
{
    for (size_t i = 0; i < rf->n; i++) {
        free(rf->series[i].rows);
        sv_free(&rf->series[i].says);
    }
    free(rf->series);
    rf->series = NULL;
    rf->n = 0;
}
