/* Live evidence: the ranks' UCX and NCCL reports as they reach the launch
 * node on mpirun's (or srun's) stdout and stderr. rdmarun reads both through
 * pipes; every line passes on to its own stdout/stderr unchanged and at once,
 * except the INFO lines rdmarun itself asked UCX and NCCL for, which become
 * evidence and go to the evidence directory's ucx.log / nccl.log instead.
 * Nothing is assumed of the ranks' file systems. */
#ifndef RDMARUN_EVIDENCE_STREAM_H
#define RDMARUN_EVIDENCE_STREAM_H
#include "evidence/evidence.h"
#include "util/hashtab.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define STREAM_BUF 65536

struct evidence_logs {
    char *dir;                 /* the evidence directory, or NULL: kept in memory only */
    int dfd;                   /* dir, open for the job's life (files made through it), or -1 */
    FILE *file[3];             /* ucx.log, nccl.log, mpi.log, opened on first use */
    unsigned long long nlines[3];
    FILE *placement;           /* placement.txt: the per-rank helper's records */
    bool failed;               /* a write failed (warned once) */
};

/* One rank's unfinished line in Hydra's labelled output (demux.c). */
struct stream_part {
    long rank;
    char *data;
    size_t len;
    double since;              /* when its held start came (monotonic seconds) */
    bool passing;              /* its start passed unjudged: the rest follows as it comes */
    bool used;                 /* an entry of the table in use (util/hashtab.h) */
};

struct evidence_stream {
    struct evidence *ev;
    struct evidence_logs *logs;
    int out;                   /* where passed bytes go: 1 or 2 */
    bool take_ucx, take_nccl;  /* rdmarun set the level: its INFO lines are not the job's */
    bool take_mpi;             /* and I_MPI_DEBUG: Intel MPI's "MPI startup()" lines */
    char buf[STREAM_BUF];
    size_t len;
    bool passing;              /* the line in buf is the job's: its rest passes at once */
    /* Hydra's output with every piece labelled "LABEL<rank>]" (mpiexec
     * -prepend-pattern): put back together a rank at a time (demux.c). */
    const char *label;         /* NULL: the output is not labelled */
    bool rank_prefix;          /* the job asked for -l: "[RANK] " before each line */
    char *raw;                 /* the end of a read that may begin a label */
    size_t rawlen;
    long rank;                 /* whose bytes come now; -1: mpiexec's own */
    struct hashtab parts;      /* struct stream_part by rank: ranks with an unfinished line */
};

/* Take in what a read returned; complete lines are judged at once. Returns
 * how many of them were evidence. */
size_t stream_feed(struct evidence_stream *s, const char *data, size_t n);
/* Whether an incomplete line is held back (it may still be evidence). */
bool stream_holding(const struct evidence_stream *s);
/* Pass on what is held (a line that ended without a newline, or a prompt). */
void stream_flush(struct evidence_stream *s);
/* The launcher's output has ended: pass on all that is held, free the rest. */
void stream_end(struct evidence_stream *s);

/* For demux.c: Hydra's labelled output, each rank's whole lines given to
 * LINES (stream.c's line filter). */
typedef size_t (*stream_lines_fn)(struct evidence_stream *s, const char *data, size_t n);
size_t stream_demux_feed(struct evidence_stream *s, const char *data, size_t n,
                         stream_lines_fn lines);
bool stream_demux_holding(const struct evidence_stream *s);
void stream_demux_flush(struct evidence_stream *s, bool end);

/* The helper's placement line, as it prints it on stderr for the supervisor. */
#define PLACEMENT_TAG "rdmarun-placement: "

void evidence_logs_close(struct evidence_logs *l);

#endif
