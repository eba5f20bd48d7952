/* Hydra's output, put back together a rank at a time.
 *
 * MPICH's PMI_Init makes each rank's stdout unbuffered (setbuf(stdout,
 * NULL), src/pmi/src/pmi_v1.c and pmi_v2.c), and glibc 2.37+ writes an
 * fprintf to an unbuffered stream in 128-byte pieces: a UCX line leaves a
 * rank in pieces, and Hydra's mpiexec writes each piece as its proxy read
 * it, between other ranks' (seen on Debian 13: one process of two counted,
 * about 1 run in 60). mpiexec's -prepend-pattern writes the pattern before
 * every piece it forwards (ui/utils/uiu.c stdoe_cb: before each segment up
 * to a newline or the end of the piece), so with the pattern
 * "LABEL%r]" every piece names its rank: the pieces of each rank are
 * joined here into whole lines, which the line filter (stream.c) judges and
 * passes on without the label ("[RANK] " in front when the job asked for
 * -l). LABEL holds a random word, so no rank's output can forge one. Bytes
 * after a newline that no label precedes are mpiexec's own. */
#include "evidence/stream.h"
#include "util/hashtab.h"
#include "util/fs.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NO_RANK (-1L)    /* mpiexec's own output */
/* A held start that looks like a log record ("[1796397941.86] [vm:1:0] ...",
 * "[0] MPI startup(): ...") is the start of a line that a rank writes in
 * pieces, however slowly (a loaded node): it waits for its end this long
 * before it passes as it is; any other (a prompt) passes at the first pause. */
#define RECORD_WAIT_S 5.0

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The ranks with an unfinished line: a table of util/hashtab.h by rank, no
 * limit on their number (a million ranks' pieces are each judged whole). */
static bool part_used(const void *e)
{
    return ((const struct stream_part *)e)->used;
}

static size_t rank_hash(long rank)
{
    return hash_number((unsigned long long)rank);
}

static size_t part_hash(const void *e, const void *ctx)
{
    (void)ctx;
    return rank_hash(((const struct stream_part *)e)->rank);
}

static bool part_holds(const void *e, const void *rank, const void *ctx)
{
    (void)ctx;
    return ((const struct stream_part *)e)->rank == *(const long *)rank;
}

static const struct hashtab_ops part_ops = {sizeof(struct stream_part), part_used, part_hash,
                                            part_holds};

static struct stream_part *part_of(struct evidence_stream *s, long rank)
{
    hashtab_reserve(&s->parts, &part_ops, NULL);
    struct stream_part *p = hashtab_find(&s->parts, &part_ops, rank_hash(rank), &rank, NULL);
    if (!p->used) {
        *p = (struct stream_part){.rank = rank, .used = true};
        hashtab_added(&s->parts);
    }
    return p;
}

static void part_drop(struct evidence_stream *s, struct stream_part *p)
{
    free(p->data);
    hashtab_remove(&s->parts, &part_ops, p, NULL);
}

/* "[RANK] " when the job asked for Hydra's -l, else "". */
static void rank_head(const struct evidence_stream *s, long rank, char head[32])
{
    head[0] = '\0';
    if (s->rank_prefix && rank != NO_RANK)
        snprintf(head, 32, "[%ld] ", rank);
}

/* The start of RANK's line passed as it is, not judged. */
static void pass_start(struct evidence_stream *s, long rank, const char *data, size_t n)
{
    char head[32];
    rank_head(s, rank, head);
    write_all(s->out, head, strlen(head));
    write_all(s->out, data, n);
}

/* A whole line of RANK (with its newline) to the line filter. */
static size_t whole_line(struct evidence_stream *s, stream_lines_fn lines, long rank,
                         const char *a, size_t alen, const char *b, size_t blen)
{
    char head[32];
    rank_head(s, rank, head);
    size_t hlen = strlen(head), len = hlen + alen + blen;
    char *line = xmalloc(len);
    memcpy(line, head, hlen);
    if (alen)   /* a is NULL when the rank had nothing held */
        memcpy(line + hlen, a, alen);
    memcpy(line + hlen + alen, b, blen);
    size_t found = lines(s, line, len);
    free(line);
    return found;
}

/* DATA, the next bytes of the current rank's output. */
static size_t deliver(struct evidence_stream *s, stream_lines_fn lines, const char *data,
                      size_t n)
{
    size_t found = 0;
    while (n > 0) {
        const char *nl = memchr(data, '\n', n);
        size_t k = nl ? (size_t)(nl - data) + 1 : n;
        struct stream_part *p = part_of(s, s->rank);
        if (p->passing) {
            write_all(s->out, data, k);   /* the rest of a line already passed */
            if (nl)
                part_drop(s, p);
        } else if (nl) {
            found += whole_line(s, lines, s->rank, p->data, p->len, data, k);
            part_drop(s, p);
        } else if (p->len + k > STREAM_BUF) {
            pass_start(s, s->rank, p->data, p->len);   /* longer than any report: the job's */
            write_all(s->out, data, k);
            p->len = 0;
            p->passing = true;
        } else {
            if (!p->len)
                p->since = now_s();
            p->data = xrealloc(p->data, p->len + k);
            memcpy(p->data + p->len, data, k);
            p->len += k;
        }
        data += k;
        n -= k;
        if (nl)
            s->rank = NO_RANK;   /* Hydra labels every piece: unlabelled bytes are its own */
    }
    return found;
}

/* The longest end of RAW that may begin a label: held for the next read. */
static size_t label_start_at_end(const char *raw, size_t n, const char *label, size_t llen)
{
    for (size_t k = llen - 1 < n ? llen - 1 : n; k > 0; k--)
        if (memcmp(raw + n - k, label, k) == 0)
            return k;
    return 0;
}

size_t stream_demux_feed(struct evidence_stream *s, const char *data, size_t n,
                         stream_lines_fn lines)
{
    size_t found = 0, llen = strlen(s->label);
    s->raw = xrealloc(s->raw, s->rawlen + n + 1);
    memcpy(s->raw + s->rawlen, data, n);
    s->rawlen += n;
    size_t at = 0;
    while (at < s->rawlen) {
        char *from = s->raw + at, *end = s->raw + s->rawlen;
        char *lab = memmem(from, (size_t)(end - from), s->label, llen);
        if (!lab) {
            size_t keep = label_start_at_end(from, (size_t)(end - from), s->label, llen);
            found += deliver(s, lines, from, (size_t)(end - from) - keep);
            at = s->rawlen - keep;
            break;
        }
        found += deliver(s, lines, from, (size_t)(lab - from));
        /* LABEL, the rank's digits, "]" */
        char *d = lab + llen, *q = d;
        long rank = 0;
        while (q < end && *q >= '0' && *q <= '9' && q - d < 9)
            rank = rank * 10 + (*q++ - '0');
        if (q == end) {
            at = (size_t)(lab - s->raw);   /* the label goes on in the next read */
            break;
        }
        if (q > d && *q == ']') {
            s->rank = rank;
            at = (size_t)(q + 1 - s->raw);
        } else {   /* not one of mpiexec's labels: the bytes are output */
            found += deliver(s, lines, lab, llen);
            at = (size_t)(lab + llen - s->raw);
        }
    }
    s->rawlen -= at;
    memmove(s->raw, s->raw + at, s->rawlen);
    return found;
}

bool stream_demux_holding(const struct evidence_stream *s)
{
    for (size_t i = 0; i < s->parts.cap; i++) {
        const struct stream_part *p = hashtab_at(&s->parts, &part_ops, i);
        if (p->used && p->len)
            return true;
    }
    return false;
}

/* What each rank has of an unfinished line passes as it is (a prompt, or a
 * line that ended without a newline; a record's start only after
 * RECORD_WAIT_S); its rest follows unjudged. At the end, all of it, and
 * what is held of a label too. */
void stream_demux_flush(struct evidence_stream *s, bool end)
{
    double t = end ? 0 : now_s();
    for (size_t i = 0; i < s->parts.cap; i++) {
        struct stream_part *p = hashtab_at(&s->parts, &part_ops, i);
        if (!p->used)
            continue;
        bool record = p->len && p->data[0] == '[';
        if (p->len && (end || !record || t - p->since > RECORD_WAIT_S)) {
            pass_start(s, p->rank, p->data, p->len);
            p->len = 0;
            p->passing = true;
        }
    }
    if (!end)
        return;
    write_all(s->out, s->raw, s->rawlen);
    for (size_t i = 0; i < s->parts.cap; i++)
        free(((struct stream_part *)hashtab_at(&s->parts, &part_ops, i))->data);
    hashtab_free(&s->parts);
    free(s->raw);
    s->raw = NULL;
    s->rawlen = 0;
}
