/* Tables: one writer for every tabular output, with three backends. Text
 * (aligned columns, for people), CSV (RFC 4180 through util/csv.c) and JSON
 * (an array of objects inside the caller's document, util/json.c) are
 * written from the same columns and the same rows, as hwloc's lstopo draws
 * one topology through its backends. A column says which backends show it:
 * a text column may be words made of data columns (a gain with its
 * interval), which CSV and JSON carry as numbers.
 *
 * Users: compare's results (stdout, summary.csv, summary.json), tune's
 * summary and --validate (stdout, summary.csv/validate.csv, summary.json),
 * report's node table (text, --csv, --json). */
#ifndef RDMARUN_UTIL_TABLE_H
#define RDMARUN_UTIL_TABLE_H

#include "util/json.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum table_format { TABLE_TEXT, TABLE_CSV, TABLE_JSON };
enum table_type { TT_STR, TT_INT, TT_NUM, TT_BOOL, TT_JSON };
/* The backends that show a column (0: all of them). */
enum table_show { TS_ALL = 0, TS_TEXT = 1, TS_CSV = 2, TS_JSON = 4, TS_DATA = TS_CSV | TS_JSON };

/* A cell: its text, integer (TT_INT, TT_BOOL) or number by the column's
 * type; none: no value
 * (text "-", CSV an empty field, JSON null or, with omit_none, no key). A
 * TT_JSON cell writes itself (put: under key, a nested object). */
struct table_cell {
    const char *s;
    long long i;
    double d;
    bool none;
    void (*put)(struct json *j, const char *key, const void *arg);
    const void *arg;
};

struct table_col {
    const char *name;      /* CSV's header and JSON's key; the text's header too, unless head */
    const char *head;      /* the text's header (NULL: name) */
    int width;             /* text: at least this wide, right-aligned; negative: left-aligned */
    enum table_type type;
    unsigned show;         /* enum table_show bits */
    const char *text_fmt;  /* text: a number's format ("%.6g"; "%.1f%%") */
    double text_scale;     /* text: a number times this (0: 1) */
    const char *data_fmt;  /* CSV: a number's format (NULL: "%.9g") */
    bool omit_none;        /* JSON: a cell without a value leaves its key out */
    const char *gap;       /* text: before the column (NULL: " "; the first: "") */
};

struct table {
    enum table_format format;
    FILE *out;                   /* TEXT and CSV */
    struct json *json;           /* JSON */
    const char *json_key;        /* the array's key in the caller's object */
    const struct table_col *cols;
    size_t ncols;
};

/* Text: the header line; CSV: the header row; JSON: the array opened. */
void table_begin(const struct table *t);
/* One row: a cell a column, in the columns' order. */
void table_row(const struct table *t, const struct table_cell *cells);
/* JSON: the array closed. */
void table_end(const struct table *t);

#endif
