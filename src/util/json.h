/* A minimal streaming JSON writer (indented, stable key order as written).
 * No packaged C library in Debian 12 writes JSON without pulling in far more
 * than rdmarun needs, so this is the one place that does it. */
#ifndef RDMARUN_JSON_H
#define RDMARUN_JSON_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
    FILE *f;
    int depth;
    bool need_comma[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
/* `key` is NULL inside arrays and at the top level. */
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);
void json_string(struct json *j, const char *key, const char *value); /* NULL -> null */
void json_int(struct json *j, const char *key, int64_t value);
void json_double(struct json *j, const char *key, double value);   /* NaN, inf -> null */
void json_bool(struct json *j, const char *key, bool value);
void json_null(struct json *j, const char *key);
/* An array of the strings of v (NULL: an empty array). */
struct strvec;
void json_strings(struct json *j, const char *key, const struct strvec *v);
/* Finish the document with a newline. */
void json_finish(struct json *j);

#endif
