/* The one hash table of rdmarun: open addressing over entries of the
 * caller's own type, kept in place, at most half full, linear probing,
 * removal by moving later entries back (no tombstones). The caller says, in
 * a struct hashtab_ops, how big an entry is, whether one is used (a free
 * entry is all zero bytes), how a used one hashes and whether it holds a
 * key; so a table keyed by a name (strmap.h), an id (a rank, a pid) or a
 * composite (a class of evidence, a (host, class) pair) is the same code. */
#ifndef RDMARUN_UTIL_HASHTAB_H
#define RDMARUN_UTIL_HASHTAB_H
#include <stdbool.h>
#include <stddef.h>

struct hashtab_ops {
    size_t size;                                                    /* of an entry */
    bool (*used)(const void *entry);
    size_t (*hash)(const void *entry, const void *ctx);            /* of a used entry */
    bool (*holds)(const void *entry, const void *key, const void *ctx);
};

struct hashtab {
    void *slots;      /* cap entries */
    size_t cap, n;    /* cap: 0 or a power of two */
};

/* The entry holding key (whose hash is h), or the free entry where it would
 * go; NULL while the table has no room at all (before hashtab_reserve). */
void *hashtab_find(const struct hashtab *t, const struct hashtab_ops *ops, size_t h,
                   const void *key, const void *ctx);
/* Room for one entry more: the table doubles (from 64) when half full. An
 * entry pointer from before it may have moved. */
void hashtab_reserve(struct hashtab *t, const struct hashtab_ops *ops, const void *ctx);
/* Entry `at` (found free, now filled by the caller) counts as used. */
void hashtab_added(struct hashtab *t);
/* Frees entry `at`: its bytes zeroed, later entries of its run moved back. */
void hashtab_remove(struct hashtab *t, const struct hashtab_ops *ops, void *at, const void *ctx);
/* Entry i of the slots (0 <= i < cap), used or not: for walking the table. */
void *hashtab_at(const struct hashtab *t, const struct hashtab_ops *ops, size_t i);
void hashtab_free(struct hashtab *t);

/* A hash of a number, well spread in its high and low bits (Fibonacci
 * hashing's multiplier), and two hashes mixed into one. */
size_t hash_number(unsigned long long x);
size_t hash_mix(size_t a, size_t b);

#endif
