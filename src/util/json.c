#include "util/json.h"
#include "util/strvec.h"
#include "util/text.h"
#include <inttypes.h>
#include <math.h>

void json_init(struct json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->need_comma[0] = false;
}

/* A JSON string: control bytes escaped, and a byte that starts no
 * well-formed UTF-8 sequence (a log's or a host name's bytes) written as
 * U+FFFD in UTF-8, so that every JSON reader takes the document and what it
 * reads back is written the same again. */
static void put_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x80) {
            size_t n = utf8_seq_len(p);
            if (n) {
                fwrite(p, 1, n, f);
                p += n - 1;
            } else {
                fputs("\xef\xbf\xbd", f);   /* U+FFFD, as JSON readers give it back */
            }
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Comma, newline, indentation and key before any value. */
static void lead(struct json *j, const char *key)
{
    if (j->need_comma[j->depth])
        fputc(',', j->f);
    if (j->depth > 0) {
        fputc('\n', j->f);
        for (int i = 0; i < j->depth; i++)
            fputs("  ", j->f);
    }
    j->need_comma[j->depth] = true;
    if (key) {
        put_escaped(j->f, key);
        fputs(": ", j->f);
    }
}

static void open(struct json *j, const char *key, char c)
{
    lead(j, key);
    fputc(c, j->f);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        j->depth++;
    j->need_comma[j->depth] = false;
}

static void close(struct json *j, char c)
{
    bool had_items = j->need_comma[j->depth];
    if (j->depth > 0)
        j->depth--;
    if (had_items) {
        fputc('\n', j->f);
        for (int i = 0; i < j->depth; i++)
            fputs("  ", j->f);
    }
    fputc(c, j->f);
}

void json_begin_object(struct json *j, const char *key) { open(j, key, '{'); }
void json_end_object(struct json *j) { close(j, '}'); }
void json_begin_array(struct json *j, const char *key) { open(j, key, '['); }
void json_end_array(struct json *j) { close(j, ']'); }

void json_string(struct json *j, const char *key, const char *value)
{
    lead(j, key);
    if (value)
        put_escaped(j->f, value);
    else
        fputs("null", j->f);
}

void json_int(struct json *j, const char *key, int64_t value)
{
    lead(j, key);
    fprintf(j->f, "%" PRId64, value);
}

void json_double(struct json *j, const char *key, double value)
{
    lead(j, key);
    if (isfinite(value))
        fprintf(j->f, "%.10g", value);
    else
        fputs("null", j->f);   /* JSON has no NaN or infinity */
}

void json_bool(struct json *j, const char *key, bool value)
{
    lead(j, key);
    fputs(value ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
    lead(j, key);
    fputs("null", j->f);
}

void json_strings(struct json *j, const char *key, const struct strvec *v)
{
    json_begin_array(j, key);
    for (size_t i = 0; v && i < v->n; i++)
        json_string(j, NULL, v->v[i]);
    json_end_array(j);
}

void json_finish(struct json *j) { fputc('\n', j->f); }
