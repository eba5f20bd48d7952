#include "util/hashtab.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

void *hashtab_at(const struct hashtab *t, const struct hashtab_ops *ops, size_t i)
{
    return (char *)t->slots + i * ops->size;
}

void *hashtab_find(const struct hashtab *t, const struct hashtab_ops *ops, size_t h,
                   const void *key, const void *ctx)
{
    if (!t->cap)
        return NULL;
    size_t i = h & (t->cap - 1);
    void *e;
    while (ops->used(e = hashtab_at(t, ops, i)) && !ops->holds(e, key, ctx))
        i = (i + 1) & (t->cap - 1);
    return e;
}

/* The free entry of slots (cap) where a used entry of hash h goes. */
static void *free_for(void *slots, size_t cap, const struct hashtab_ops *ops, size_t h)
{
    size_t i = h & (cap - 1);
    while (ops->used((char *)slots + i * ops->size))
        i = (i + 1) & (cap - 1);
    return (char *)slots + i * ops->size;
}

void hashtab_reserve(struct hashtab *t, const struct hashtab_ops *ops, const void *ctx)
{
    if (t->cap && (t->n + 1) * 2 <= t->cap)
        return;
    size_t ncap = t->cap ? t->cap * 2 : 64;
    void *ns = xcalloc(ncap, ops->size);
    for (size_t i = 0; i < t->cap; i++) {
        const void *e = hashtab_at(t, ops, i);
        if (ops->used(e))
            memcpy(free_for(ns, ncap, ops, ops->hash(e, ctx)), e, ops->size);
    }
    free(t->slots);
    t->slots = ns;
    t->cap = ncap;
}

void hashtab_added(struct hashtab *t)
{
    t->n++;
}

void hashtab_remove(struct hashtab *t, const struct hashtab_ops *ops, void *at, const void *ctx)
{
    size_t i = (size_t)((char *)at - (char *)t->slots) / ops->size, j = i, mask = t->cap - 1;
    memset(at, 0, ops->size);
    t->n--;
    for (;;) {
        j = (j + 1) & mask;
        void *e = hashtab_at(t, ops, j);
        if (!ops->used(e))
            return;
        /* an entry whose home lies cyclically in (i, j] stays where it is */
        size_t home = ops->hash(e, ctx) & mask;
        if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
            continue;
        memcpy(hashtab_at(t, ops, i), e, ops->size);
        memset(e, 0, ops->size);
        i = j;
    }
}

void hashtab_free(struct hashtab *t)
{
    free(t->slots);
    memset(t, 0, sizeof(*t));
}

size_t hash_number(unsigned long long x)
{
    unsigned long long h = x * 0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ (h >> 29));
}

size_t hash_mix(size_t a, size_t b)
{
    return (a * 0x9E3779B97F4A7C15ull) ^ (b + 0x7F4A7C159E3779B9ull + (a << 6) + (a >> 2));
}
