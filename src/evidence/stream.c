/* The live line filter between the launcher's output and rdmarun's. */
#include "evidence/stream.h"
#include "evidence/internal.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { LOG_UCX, LOG_NCCL, LOG_MPI };
static const char *const log_names[] = {"ucx.log", "nccl.log", "mpi.log"};
#define NLOGS 3

/* Another family's report (the MPI's own: Intel MPI's I_MPI_DEBUG lines,
 * Open MPI's, MVAPICH's, libfabric's): its family, or -1. */
static int other_family(const char *rec)
{
    for (size_t i = 0; i < nlog_families; i++)
        if (log_families[i].live_other && log_families[i].wanted(rec))
            return (int)i;
    return -1;
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
        *f = l->dfd >= 0 ? create_new_file_at(l->dfd, name) : create_new_file(l->dir, name);
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
    if (f) {   /* flushed once a read (logs_flush): a write a line cost more than the parse */
        fwrite(line, 1, len, f);
        fputc('\n', f);
    }
    return l->dir ? xasprintf("%s/%s:%llu", l->dir, log_names[which], l->nlines[which])
                  : xasprintf("%s:%llu", log_names[which], l->nlines[which]);
}

/* What a read kept reaches the files (a report still comes before its verdict). */
static void logs_flush(struct evidence_logs *l)
{
    for (int i = 0; i < NLOGS; i++)
        if (l->file[i] && fflush(l->file[i]) != 0 && !l->failed) {
            rr_warn("cannot write %s/%s: %s (the evidence is kept in memory; the verdict "
                    "stands)", l->dir, log_names[i], strerror(errno));
            l->failed = true;
        }
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
    /* UCX_PROTO_INFO's tables: compact lines, "[ts] [host:pid:tid]   | ... |",
     * the user's to see (rdmarun does not ask for them) and evidence too */
    bool table = !level && !nccl && rec[0] == '[' && isdigit((unsigned char)rec[1]) &&
                 (strstr(rec, "| ") || strstr(rec, "+--"));
    /* UCX ending a process: evidence, and the job's to see (not taken) */
    bool fatal = !level && !nccl && !table && ucx_fatal_message(rec);
    int other = !level && !nccl && !table && !fatal ? other_family(rec) : -1;
    if (!level && !nccl && !table && !fatal && other < 0) {
        s->ev->lines++;
        return false;
    }
    /* A listing of where ranks ran (Hello lines, --report-bindings) is no
     * transport report: "no rank reported a transport" stays true of it. */
    if (other < 0 || strcmp(log_families[other].name, "ranks") != 0)
        s->ev->reports++;
    bool impi = other >= 0 && strcmp(log_families[other].name, "impi") == 0;
    bool take = table ? false
              : level ? s->take_ucx && (level_is(level, "INFO") || level_is(level, "DIAG"))
              : nccl ? s->take_nccl : impi && s->take_mpi;
    int which = level || table || fatal ? LOG_UCX : nccl ? LOG_NCCL : LOG_MPI;
    bool wanted = other >= 0 || log_families[which].wanted(rec);
    if (!take && !wanted) {
        s->ev->lines++;
        return false;
    }
    char *where = keep(s->logs, which, rec, rlen);
    *evidence = evidence_parse_line(s->ev, rec, where, NULL, -1);
    free(where);
    return take;
}

/* Whole or partial lines (unlabelled output, or demux.c's whole lines) to
 * the line filter. */
static size_t feed_lines(struct evidence_stream *s, const char *data, size_t n)
{
    size_t found = 0;
    while (n > 0) {
        if (s->passing) {
            const char *nl = memchr(data, '\n', n);
            size_t k = nl ? (size_t)(nl - data) + 1 : n;
            /* A failed write loses our own output: the job's is not ours to keep. */
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
        /* The job's lines are gathered at the front of the buffer and
         * passed in one write a read, in their order. */
        char *start = s->buf, *end = s->buf + s->len, *nl, *pass = s->buf;
        while ((nl = memchr(start, '\n', (size_t)(end - start)))) {
            *nl = '\0';
            bool ev;
            size_t len = (size_t)(nl - start) + 1;
            if (!judge(s, start, len - 1, &ev)) {
                *nl = '\n';
                memmove(pass, start, len);
                pass += len;
            }
            found += ev;
            start = nl + 1;
        }
        write_all(s->out, s->buf, (size_t)(pass - s->buf));
        logs_flush(s->logs);
        s->len = (size_t)(end - start);
        memmove(s->buf, start, s->len);
        if (s->len == sizeof(s->buf) - 1)
            stream_flush(s);   /* a line longer than any report: the job's */
    }
    return found;
}

size_t stream_feed(struct evidence_stream *s, const char *data, size_t n)
{
    return s->label ? stream_demux_feed(s, data, n, feed_lines) : feed_lines(s, data, n);
}

bool stream_holding(const struct evidence_stream *s)
{
    return s->len > 0 || (s->label && stream_demux_holding(s));
}

void stream_flush(struct evidence_stream *s)
{
    if (s->label)
        stream_demux_flush(s, false);
    if (!s->len)
        return;
    write_all(s->out, s->buf, s->len);
    s->len = 0;
    s->passing = true;
}

void stream_end(struct evidence_stream *s)
{
    if (s->label)
        stream_demux_flush(s, true);
    stream_flush(s);
}

void evidence_logs_close(struct evidence_logs *l)
{
    for (int i = 0; i < NLOGS; i++)
        if (l->file[i])
            fclose(l->file[i]);
    if (l->placement)
        fclose(l->placement);
    memset(l->file, 0, sizeof(l->file));
    l->placement = NULL;
}
