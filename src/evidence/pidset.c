/* Process ids as runs, then a hash (pidset.h). */
#include "evidence/pidset.h"
#include "util/hashtab.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

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

/* The scattered ids: entries of the hash (util/hashtab.h). */
struct scattered {
    long pid;
    bool used;
};

static bool pid_used(const void *e)
{
    return ((const struct scattered *)e)->used;
}

static size_t pid_hash(const void *e, const void *ctx)
{
    (void)ctx;
    return hash_number((unsigned long long)((const struct scattered *)e)->pid);
}

static bool pid_holds(const void *e, const void *key, const void *ctx)
{
    (void)ctx;
    return ((const struct scattered *)e)->pid == *(const long *)key;
}

static const struct hashtab_ops pid_ops = {sizeof(struct scattered), pid_used, pid_hash,
                                           pid_holds};

static bool in_hash(const struct pidset *s, long pid)
{
    struct scattered k = {pid, true};
    const struct scattered *e = hashtab_find(&s->hash, &pid_ops, pid_hash(&k, NULL), &pid, NULL);
    return e && e->used;
}

bool pidset_has(const struct pidset *s, long pid)
{
    return in_runs(s, pid) || in_hash(s, pid);
}

static void hash_add(struct pidset *s, long pid)
{
    struct scattered k = {pid, true};
    hashtab_reserve(&s->hash, &pid_ops, NULL);
    *(struct scattered *)hashtab_find(&s->hash, &pid_ops, pid_hash(&k, NULL), &pid, NULL) = k;
    hashtab_added(&s->hash);
}

size_t pidset_scattered(const struct pidset *s, long *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->hash.cap && n < max; i++) {
        const struct scattered *e = hashtab_at(&s->hash, &pid_ops, i);
        if (e->used && e->pid > 0)
            out[n++] = e->pid;
    }
    return n;
}

bool pidset_add(struct pidset *s, long pid)
{
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
    hashtab_free(&s->hash);
    memset(s, 0, sizeof(*s));
}
