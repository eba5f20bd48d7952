/* Benchmark results as rdmarun judge reads them: every tool's printed
 * output (parse.c dispatches to one reader a tool, each naming the file and
 * function of the tool that prints its format), turned into series of
 * (message size, figure) for the speed-of-light model. */
#ifndef RDMARUN_JUDGE_RESULTS_H
#define RDMARUN_JUDGE_RESULTS_H
#include "model/model.h"
#include "util/strvec.h"
#include <stddef.h>

#define RESULTS_MAX_ROWS 4096      /* rows a series keeps */
#define RESULTS_MAX_SERIES 64      /* series a file gives */
#define RESULTS_MAX_BYTES (16u << 20)   /* a file read whole, at most */

struct result_row {
    double bytes;
    double value;           /* GB/s (10^9 bytes), or us for OP_LAT */
};

struct result_series {
    const char *tool;       /* "nccl-tests", "OSU", "IMB", "perftest", "ucx_perftest", "rdmarun" */
    char test[64];          /* "all_reduce_perf", "osu_bw", "PingPong", "RDMA_Write BW" */
    struct bench bench;
    bool judged;            /* the model judges this measure (collectives' latency: no) */
    struct result_row *rows;
    size_t nrows;
    /* What the output says of where it ran (0, -1, NULL: nothing). */
    int ranks, nodes;
    char gpu[64];           /* nccl-tests' device name, "NVIDIA H100 80GB HBM3" */
    enum link_kind kind;    /* perftest's "Link type" */
    int mtu;
    bool loopback;          /* perftest: the remote address is the local one */
    int nics_used;          /* NCCL's "NET/IB : Using [0]mlx5_0:1/IB ..." */
    int gdr;                /* NCCL's "GPU Direct RDMA Disabled" (0) or GDRDMA (1) */
    struct strvec says;     /* what the output shows that lowers a figure */
};

struct result_file {
    struct result_series *series;
    size_t n;
};

/* The series of one file's text (NUL-terminated, its own copy is cut into
 * lines); `name` is the file's name (a test name in it is a hint). Returns
 * the number of series; 0: no tool's output found. */
size_t results_parse(struct result_file *rf, char *text, const char *name);
void results_free(struct result_file *rf);

/* Readers (parse_*.c): each reads the lines and adds series; 0 when the
 * text is not its tool's. */
struct lines {
    char **v;
    size_t n;
};
size_t parse_nccl_tests(struct result_file *rf, const struct lines *l, const char *name);
size_t parse_nccl_json(struct result_file *rf, const char *text);
/* The nccl-tests collective a text names ("all_reduce" in
 * "./all_reduce_perf"), or NULL (parse_nccl.c's one list). */
const char *nccl_coll_in(const char *s);
size_t parse_osu(struct result_file *rf, const struct lines *l);
size_t parse_imb(struct result_file *rf, const struct lines *l);
size_t parse_perftest(struct result_file *rf, const struct lines *l);
size_t parse_ucx_perftest(struct result_file *rf, const struct lines *l);
size_t parse_sweep(struct result_file *rf, const struct lines *l);

/* Helpers for the readers (parse.c). */
struct result_series *results_add(struct result_file *rf, const char *tool, const char *test,
                                  enum bench_op op);
void series_row(struct result_series *s, double bytes, double value);
/* Whitespace-separated words of a line, at most max, into w (pointers into
 * a copy in buf); the count. */
size_t split_words(const char *line, char *buf, size_t buflen, char **w, size_t max);
/* A finite number >= 0 with nothing after it (%g's forms, "1.2e+05"). */
bool word_number(const char *w, double *out);

#endif
