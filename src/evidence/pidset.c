/* Process ids as runs, then a hash (pidset.h). */
#include "evidence/pidset.h"
#include "util/xalloc.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PIDSET_EMPTY LONG_MIN

/* The first run whose last id is >= pid (nruns when none). */
static size_t run_at(const struct pidset *s, long pid)
{
    size_t lo = 0, hi = s->nruns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->runs[mid][1] < pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t hash_slot(const long *hash, size_t cap, long pid)
{
    size_t i = ((unsigned long)pid * 0x9E3779B97F4A7C15ull) >> 7 & (cap - 1);
    while (hash[i] != PIDSET_EMPTY && hash[i] != pid)
        i = (i + 1) & (cap - 1);
    return i;
}

static bool in_hash(const struct pidset *s, long pid)
{
    return s->hash_cap && s->hash[hash_slot(s->hash, s->hash_cap, pid)] == pid;
}

bool pidset_has(const struct pidset *s, long pid)
{
    size_t r = run_at(s, pid);
    return (r < s->nruns && s->runs[r][0] <= pid) || in_hash(s, pid);
}

static void hash_add(struct pidset *s, long pid)
{
    if ((s->hash_n + 1) * 2 > s->hash_cap) {
        size_t ncap = s->hash_cap ? s->hash_cap * 2 : 64;
        long *nh = xmalloc(ncap * sizeof(*nh));
        for (size_t i = 0; i < ncap; i++)
            nh[i] = PIDSET_EMPTY;
        for (size_t i = 0; i < s->hash_cap; i++)
            if (s->hash[i] != PIDSET_EMPTY)
                nh[hash_slot(nh, ncap, s->hash[i])] = s->hash[i];
        free(s->hash);
        s->hash = nh;
        s->hash_cap = ncap;
    }
    s->hash[hash_slot(s->hash, s->hash_cap, pid)] = pid;
    s->hash_n++;
}

bool pidset_add(struct pidset *s, long pid)
{
    if (pid == PIDSET_EMPTY)
        pid = PIDSET_EMPTY + 1;   /* the one id the hash cannot hold, folded */
    size_t r = run_at(s, pid);
    if ((r < s->nruns && s->runs[r][0] <= pid) || in_hash(s, pid))
        return false;
    s->count++;
    bool after_prev = r > 0 && s->runs[r - 1][1] == pid - 1;
    bool before_next = r < s->nruns && s->runs[r][0] == pid + 1;
    if (after_prev && before_next) {   /* it joins two runs */
        s->runs[r - 1][1] = s->runs[r][1];
        memmove(&s->runs[r], &s->runs[r + 1], (s->nruns - r - 1) * sizeof(*s->runs));
        s->nruns--;
    } else if (after_prev) {
        s->runs[r - 1][1] = pid;
    } else if (before_next) {
        s->runs[r][0] = pid;
    } else if (s->nruns < PIDSET_RUNS) {
        GROW(s->runs, s->runs_cap, s->nruns + 1);
        memmove(&s->runs[r + 1], &s->runs[r], (s->nruns - r) * sizeof(*s->runs));
        s->runs[r][0] = s->runs[r][1] = pid;
        s->nruns++;
    } else {
        hash_add(s, pid);
    }
    return true;
}

void pidset_free(struct pidset *s)
{
    free(s->runs);
    free(s->hash);
    memset(s, 0, sizeof(*s));
}
