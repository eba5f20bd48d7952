/* The live line filter between the launcher's output and rdmarun's. */
#include "evidence/stream.h"
#include "evidence/internal.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { LOG_UCX, LOG_NCCL };
static const char *const log_names[] = {"ucx.log", "nccl.log"};

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;   /* our own output is gone: the job's is not ours to keep */
        p += w;
        n -= (size_t)w;
    }
}

/* A UCX log record: "[1795949793.450] [host:pid:tid] file.c:123 UCX  LEVEL ...".
 * Returns its level, or NULL. */
static const char *ucx_level(const char *s)
{
    if (s[0] != '[' || !isdigit((unsigned char)s[1]))
        return NULL;
    const char *u = strstr(s, " UCX  ");
    return u ? u + 6 : NULL;
}

static bool level_is(const char *level, const char *name)
{
    size_t n = strlen(name);
    return strncmp(level, name, n) == 0 && (level[n] == ' ' || level[n] == '\0');
}

static FILE *log_file(struct evidence_logs *l, int which, const char *name)
{
    FILE **f = which < 0 ? &l->placement : &l->file[which];
    if (!*f && l->dir && !l->failed) {
        char *path = xasprintf("%s/%s", l->dir, name);
        *f = fopen(path, "w");
        if (!*f) {
            rr_warn("cannot write %s: %s (the evidence is kept in memory; the verdict stands)",
                    path, strerror(errno));
            l->failed = true;
        }
        free(path);
    }
    return *f;
}

/* Keep a line in the evidence directory; its file:line for the verdict. */
static char *keep(struct evidence_logs *l, int which, const char *line, size_t len)
{
    FILE *f = log_file(l, which, log_names[which]);
    l->nlines[which]++;
    if (f) {
        fwrite(line, 1, len, f);
        fputc('\n', f);
        if (fflush(f) != 0 && !l->failed) {
            rr_warn("cannot write %s/%s: %s (the evidence is kept in memory; the verdict "
                    "stands)", l->dir, log_names[which], strerror(errno));
            l->failed = true;
        }
    }
    return l->dir ? xasprintf("%s/%s:%llu", l->dir, log_names[which], l->nlines[which])
                  : xasprintf("%s:%llu", log_names[which], l->nlines[which]);
}

/* One complete line (without its newline, NUL-terminated in place): whether
 * it is taken out of the job's output; *evidence says if it was evidence. */
static bool judge(struct evidence_stream *s, char *line, size_t len, bool *evidence)
{
    const char *rec = line_body(line);
    size_t rlen = len - (size_t)(rec - line);
    *evidence = false;
    if (strncmp(rec, PLACEMENT_TAG, strlen(PLACEMENT_TAG)) == 0) {
        FILE *f = log_file(s->logs, -1, "placement.txt");
        if (f) {
            fprintf(f, "%s\n", rec + strlen(PLACEMENT_TAG));
            fflush(f);
        }
        return true;
    }
    const char *level = ucx_level(rec);
    bool nccl = !level && strstr(rec, " NCCL INFO ") != NULL;
    if (!level && !nccl) {
        s->ev->lines++;
        return false;
    }
    s->ev->reports++;
    bool take = level ? s->take_ucx && (level_is(level, "INFO") || level_is(level, "DIAG"))
                      : s->take_nccl;
    int which = level ? LOG_UCX : LOG_NCCL;
    bool wanted = log_families[which].wanted(rec);
    if (!take && !wanted) {
        s->ev->lines++;
        return false;
    }
    char *where = keep(s->logs, which, rec, rlen);
    *evidence = evidence_parse_line(s->ev, rec, where, NULL, -1);
    free(where);
    return take;
}

size_t stream_feed(struct evidence_stream *s, const char *data, size_t n)
{
    size_t found = 0;
    while (n > 0) {
        if (s->passing) {
            const char *nl = memchr(data, '\n', n);
            size_t k = nl ? (size_t)(nl - data) + 1 : n;
            write_all(s->out, data, k);
            s->passing = !nl;
            data += k;
            n -= k;
            continue;
        }
        size_t room = sizeof(s->buf) - 1 - s->len, k = n < room ? n : room;
        memcpy(s->buf + s->len, data, k);
        s->len += k;
        data += k;
        n -= k;
        char *start = s->buf, *end = s->buf + s->len, *nl;
        while ((nl = memchr(start, '\n', (size_t)(end - start)))) {
            *nl = '\0';
            bool ev;
            if (!judge(s, start, (size_t)(nl - start), &ev)) {
                *nl = '\n';
                write_all(s->out, start, (size_t)(nl - start) + 1);
            }
            found += ev;
            start = nl + 1;
        }
        s->len = (size_t)(end - start);
        memmove(s->buf, start, s->len);
        if (s->len == sizeof(s->buf) - 1)
            stream_flush(s);   /* a line longer than any report: the job's */
    }
    return found;
}

bool stream_holding(const struct evidence_stream *s)
{
    return s->len > 0;
}

void stream_flush(struct evidence_stream *s)
{
    if (!s->len)
        return;
    write_all(s->out, s->buf, s->len);
    s->len = 0;
    s->passing = true;
}

void evidence_logs_close(struct evidence_logs *l)
{
    for (int i = 0; i < 2; i++)
        if (l->file[i])
            fclose(l->file[i]);
    if (l->placement)
        fclose(l->placement);
    memset(l->file, 0, sizeof(l->file));
    l->placement = NULL;
}
