/* The string index (strmap.h). */
#include "util/strmap.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* The slot of key: where it is, or the empty one where it would go. */
static size_t slot_of(const struct strmap *m, const char *key)
{
    size_t i = (size_t)fnv1a(FNV1A_INIT, key, strlen(key)) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key) != 0)
        i = (i + 1) & (m->cap - 1);
    return i;
}

bool strmap_get(const struct strmap *m, const char *key, size_t *val)
{
    if (!m->cap)
        return false;
    size_t i = slot_of(m, key);
    if (!m->keys[i])
        return false;
    *val = m->vals[i];
    return true;
}

static void strmap_grow(struct strmap *m)
{
    struct strmap bigger = {.cap = m->cap ? m->cap * 2 : 64};
    bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
    bigger.vals = xcalloc(bigger.cap, sizeof(*bigger.vals));
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) {
            size_t j = slot_of(&bigger, m->keys[i]);
            bigger.keys[j] = m->keys[i];
            bigger.vals[j] = m->vals[i];
        }
    bigger.n = m->n;
    free(m->keys);
    free(m->vals);
    *m = bigger;
}

void strmap_put(struct strmap *m, const char *key, size_t val)
{
    if ((m->n + 1) * 2 > m->cap)
        strmap_grow(m);
    size_t i = slot_of(m, key);
    if (!m->keys[i]) {
        m->keys[i] = xstrdup(key);
        m->n++;
    }
    m->vals[i] = val;
}

void strmap_free(struct strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof(*m));
}
