/* One writer for every table, three backends: see table.h. */
#include "util/table.h"
#include "util/csv.h"
#include "util/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool shown(const struct table_col *c, enum table_format f)
{
    unsigned bit = f == TABLE_TEXT ? TS_TEXT : f == TABLE_CSV ? TS_CSV : TS_JSON;
    return !c->show || (c->show & bit);
}

/* The cell as the text backend shows it. Caller frees. */
static char *text_of(const struct table_col *c, const struct table_cell *v)
{
    if (v->none || (c->type == TT_NUM && isnan(v->d)))
        return xstrdup("-");
    if (c->type == TT_STR)
        return xstrdup(v->s ? v->s : "-");
    if (c->type == TT_INT)
        return xasprintf("%lld", v->i);
    if (c->type == TT_BOOL)
        return xstrdup(v->i ? "yes" : "no");
    return xasprintf(c->text_fmt ? c->text_fmt : "%.6g", v->d * (c->text_scale ? c->text_scale : 1));
}

static void text_cell(FILE *out, const struct table_col *c, bool first, const char *s)
{
    fputs(first ? "" : c->gap ? c->gap : " ", out);
    fprintf(out, c->width < 0 ? "%-*s" : "%*s", abs(c->width), s);
}

static void csv_cell(FILE *out, const struct table_col *c, const struct table_cell *v, bool last)
{
    if (c->type == TT_STR) {
        csv_field(out, v->none || !v->s ? "" : v->s, last);
        return;
    }
    if (v->none || (c->type == TT_NUM && isnan(v->d)))
        ;
    else if (c->type == TT_INT)
        fprintf(out, "%lld", v->i);
    else if (c->type == TT_BOOL)
        fputs(v->i ? "yes" : "no", out);
    else
        fprintf(out, c->data_fmt ? c->data_fmt : "%.9g", v->d);
    fputs(last ? "\n" : ",", out);
}

static void json_cell(struct json *j, const struct table_col *c, const struct table_cell *v)
{
    bool none = v->none || (c->type == TT_NUM && isnan(v->d)) || (c->type == TT_STR && !v->s);
    if (c->type == TT_JSON && !none)
        v->put(j, c->name, v->arg);
    else if (none && !c->omit_none)
        json_null(j, c->name);
    else if (none)
        ;
    else if (c->type == TT_STR)
        json_string(j, c->name, v->s);
    else if (c->type == TT_INT)
        json_int(j, c->name, v->i);
    else if (c->type == TT_BOOL)
        json_bool(j, c->name, v->i != 0);
    else
        json_double(j, c->name, v->d);
}

/* The last column this backend shows (the CSV row's end). */
static size_t last_shown(const struct table *t)
{
    size_t last = 0;
    for (size_t k = 0; k < t->ncols; k++)
        if (shown(&t->cols[k], t->format))
            last = k;
    return last;
}

/* One line of the table: the header (cells NULL: each shown column's
 * header, JSON: none) or a row. */
static void put_line(const struct table *t, const struct table_cell *cells)
{
    if (t->format == TABLE_JSON)
        json_begin_object(t->json, NULL);
    size_t last = last_shown(t);
    bool first = true;
    for (size_t k = 0; k < t->ncols; k++) {
        const struct table_col *c = &t->cols[k];
        if (!shown(c, t->format))
            continue;
        if (t->format == TABLE_JSON) {
            json_cell(t->json, c, &cells[k]);
        } else if (t->format == TABLE_CSV && !cells) {
            fprintf(t->out, "%s%s", c->name, k == last ? "\n" : ",");
        } else if (t->format == TABLE_CSV) {
            csv_cell(t->out, c, &cells[k], k == last);
        } else {
            char *s = cells ? text_of(c, &cells[k]) : xstrdup(c->head ? c->head : c->name);
            text_cell(t->out, c, first, s);
            free(s);
        }
        first = false;
    }
    if (t->format == TABLE_JSON)
        json_end_object(t->json);
    else if (t->format == TABLE_TEXT)
        fputc('\n', t->out);
}

void table_begin(const struct table *t)
{
    if (t->format == TABLE_JSON)
        json_begin_array(t->json, t->json_key);
    else
        put_line(t, NULL);
}

void table_row(const struct table *t, const struct table_cell *cells)
{
    put_line(t, cells);
}

void table_end(const struct table *t)
{
    if (t->format == TABLE_JSON)
        json_end_array(t->json);
}
