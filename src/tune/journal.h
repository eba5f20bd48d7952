/* The journal of a tune (DIR/samples.tsv): one line per run, appended and
 * fsync'd as the run ends, so a tune killed at any moment keeps every
 * sample it took; --resume replays them instead of running them again. */
#ifndef RDMARUN_TUNE_JOURNAL_H
#define RDMARUN_TUNE_JOURNAL_H
#include <stdbool.h>
#include <stddef.h>

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

/* Open to append (a torn last line cut off); an fd or -1 with errno. */
int journal_open(const char *path);
/* 0, or -1 with errno. */
int journal_append(int fd, const struct journal_record *r);
/* Every whole line, in order; a line that is not a record ends the reading
 * (what follows it cannot be replayed in order). */
size_t journal_read(const char *path, struct journal_record **out);
void journal_record_clear(struct journal_record *r);
void journal_free(struct journal_record *r, size_t n);

#endif
