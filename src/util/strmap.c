/* The string index (strmap.h), a table of util/hashtab.h. */
#include "util/strmap.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

struct strmap_entry {
    char *key;     /* NULL: free */
    size_t val;
};

static bool entry_used(const void *e)
{
    return ((const struct strmap_entry *)e)->key != NULL;
}

static size_t key_hash(const char *key)
{
    return (size_t)fnv1a(FNV1A_INIT, key, strlen(key));
}

static size_t entry_hash(const void *e, const void *ctx)
{
    (void)ctx;
    return key_hash(((const struct strmap_entry *)e)->key);
}

static bool entry_holds(const void *e, const void *key, const void *ctx)
{
    (void)ctx;
    return strcmp(((const struct strmap_entry *)e)->key, key) == 0;
}

static const struct hashtab_ops ops = {sizeof(struct strmap_entry), entry_used, entry_hash,
                                       entry_holds};

bool strmap_get(const struct strmap *m, const char *key, size_t *val)
{
    const struct strmap_entry *e = hashtab_find(&m->t, &ops, key_hash(key), key, NULL);
    if (!e || !e->key)
        return false;
    *val = e->val;
    return true;
}

void strmap_put(struct strmap *m, const char *key, size_t val)
{
    hashtab_reserve(&m->t, &ops, NULL);
    struct strmap_entry *e = hashtab_find(&m->t, &ops, key_hash(key), key, NULL);
    if (!e->key) {
        e->key = xstrdup(key);
        hashtab_added(&m->t);
    }
    e->val = val;
}

void strmap_free(struct strmap *m)
{
    for (size_t i = 0; i < m->t.cap; i++)
        free(((struct strmap_entry *)hashtab_at(&m->t, &ops, i))->key);
    hashtab_free(&m->t);
}
