/* ucx_perftest's CSV output (its -v), which tune's UCX-level benchmark
 * (libexec/rdmarun/ucx-pair) reads: a header line
 *   iterations,50.0_percentile_lat,avg_lat,overall_lat,avg_bw,overall_bw,avg_mr,overall_mr
 * (UCX's src/tools/perf/perftest.c, print_header_csv; the percentile is -R's)
 * then a row per report (each second, and the final one last): eight
 * numbers, "%4.0f,%.3f,%.3f,%.3f,%.2f,%.2f,%.0f,%.0f". */
#ifndef RDMARUN_TUNE_PERFTEST_H
#define RDMARUN_TUNE_PERFTEST_H
#include <stdbool.h>

struct perftest_result {
    long iterations;
    double latency_us;     /* overall_lat: a message's one-way latency (lat tests) or
                            * its overhead (bw tests) over the run, microseconds */
    double bandwidth_mbs;  /* overall_bw, MiB/s (perftest_run.c divides by 1024^2,
                            * though its table says MB/s) */
};

/* Whether `line` (no newline) is a header of ucx_perftest's CSV. */
bool perftest_csv_header(const char *line);
/* A data row after a header: eight numbers, the first a count; false for
 * anything else. */
bool perftest_csv_row(const char *line, struct perftest_result *r);

#endif
