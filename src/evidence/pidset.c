/* Process ids as runs, then a hash (pidset.h). */
#include "evidence/pidset.h"
#include "util/xalloc.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PIDSET_EMPTY LONG_MIN

static bool in_run(const struct pid_run *r, long pid)
{
    if (pid < r->first)
        return false;
    if (r->count == 1)
        return pid == r->first;
    unsigned long d = (unsigned long)pid - (unsigned long)r->first;
    return d % (unsigned long)r->step == 0 && d / (unsigned long)r->step < (unsigned long)r->count;
}

static bool in_runs(const struct pidset *s, long pid)
{
    for (size_t i = 0; i < s->nruns; i++)
        if (in_run(&s->runs[i], pid))
            return true;
    return false;
}

/* Grow a run by pid at either end; whether it could. Steps are below 2^40
 * and ids compared in unsigned arithmetic, so that nothing overflows. */
static bool extend(struct pid_run *r, long pid)
{
    unsigned long p = (unsigned long)pid, first = (unsigned long)r->first;
    if (r->count == 1) {   /* a second id sets the step */
        unsigned long step = pid > r->first ? p - first : first - p;
        if (step == 0 || step >= 1ul << 40)
            return false;
        r->step = (long)step;
        if (pid < r->first)
            r->first = pid;
        r->count = 2;
        return true;
    }
    unsigned long step = (unsigned long)r->step;
    unsigned long last = first + (unsigned long)(r->count - 1) * step;
    if (pid > r->first && p - step == last) {
        r->count++;
        return true;
    }
    if (pid < r->first && p + step == first) {
        r->first = pid;
        r->count++;
        return true;
    }
    return false;
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
    return in_runs(s, pid) || in_hash(s, pid);
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
    if (pidset_has(s, pid))
        return false;
    s->count++;
    for (size_t i = s->nruns; i-- > 0;)   /* the newest run first: ranks arrive in order */
        if (extend(&s->runs[i], pid))
            return true;
    if (s->nruns < PIDSET_RUNS) {
        GROW(s->runs, s->runs_cap, s->nruns + 1);
        s->runs[s->nruns++] = (struct pid_run){pid, 1, 0};
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
