/* The journal of a tune (DIR/samples.tsv): one line per run, appended and
 * fsync'd as the run ends, so a tune killed at any moment keeps every
 * sample it took; --resume replays them instead of running them again. */
#ifndef RDMARUN_TUNE_JOURNAL_H
#define RDMARUN_TUNE_JOURNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOURNAL_HEADER "sample\tconfig\tstatus\tverdict\tincluded\twall_s\tlog\tbin\tvalue...\n"

struct journal_bin {
    char *bin;        /* the metric's bin ("" for one figure), without tabs or control characters */
    double value;
};

struct journal_record {
    size_t sample;
    char *config;     /* the value index of each key, "0,3,1" */
    int status;
    char verdict[16];
    bool included;
    double wall;
    char *log;
    struct journal_bin *bins;
    size_t nbins;
};


/* Open to append (a torn last line cut off), a new one with its header and
 * the tune's identity (tune_identity: its settings and base profile); an
 * fd or -1 with errno. */
int journal_open(const char *path, uint64_t identity);
/* 0, or -1 with errno. */
int journal_append(int fd, const struct journal_record *r);
/* Every record, each checked whole: its header, then the identity given
 * (else it is another tune's journal), then records whose fields parse
 * entirely and lie in range, numbered 0, 1, 2, ... in order. A last line
 * cut short (an interruption as it was written) is left out; any other
 * line that is not such a record stops the reading with PATH:LINE and why
 * (RR_EX_DATAERR). 0 otherwise, a missing file too (no records). *out
 * malloc'd, *n records. */
int journal_read(const char *path, uint64_t identity, struct journal_record **out, size_t *n);
void journal_record_clear(struct journal_record *r);
void journal_free(struct journal_record *r, size_t n);

#endif
