/* A hash index from strings to numbers (an entry's place in the caller's
 * array): lookups in constant time, where a scan of thousands of names per
 * record made a report quadratic. A table of util/hashtab.h, FNV-1a. */
#ifndef RDMARUN_UTIL_STRMAP_H
#define RDMARUN_UTIL_STRMAP_H
#include "util/hashtab.h"
#include <stdbool.h>
#include <stddef.h>

struct strmap {
    struct hashtab t;   /* of (key, value) entries */
};

/* The number put under key: true and *val, or false. */
bool strmap_get(const struct strmap *m, const char *key, size_t *val);
/* key (copied) now gives val. */
void strmap_put(struct strmap *m, const char *key, size_t val);
void strmap_free(struct strmap *m);

#endif
