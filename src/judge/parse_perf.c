/* The verbs and UCX benchmarks' output, and rdmarun's own sweep.
 *
 * perftest (linux-rdma/perftest, src/perftest_parameters.c: print_report_bw,
 * print_full_bw_report, print_report_lat; formats in perftest_parameters.h):
 * a title ("RDMA_Write BW Test", "Send Latency Test"), the link ("Link type
 * : IB", "Mtu : 4096[B]", "local address: LID 0x01 ...", "remote address:"),
 * then RESULT_FMT " #bytes #iterations BW peak[MB/sec] BW average[MB/sec]
 * MsgRate[Mpps]" (MiB/sec from 24.07; both 2^20 bytes; Gb/sec with
 * --report_gbits) or RESULT_FMT_LAT "... t_typical[usec] t_avg[usec] ...",
 * rows split by blanks and tabs.
 *
 * ucx_perftest (src/tools/perf/perftest_run.c, print_header and
 * print_progress, UCX 1.13 to 1.19): "latency (usec)" or "overhead (usec)"
 * in the header's box, then "Final:" and eight numbers: iterations, the
 * percentile, average and overall latency, average and overall bandwidth
 * (MB/s of 2^20 bytes) and message rates. The size is not printed: it is
 * the bandwidth times the time. Its CSV (-v) is read by tune/perftest.c.
 *
 * rdmarun's sweep (examples/mpi_pingpong.c): "pingpong size=N iters=N
 * latency_us=X bandwidth_MBps=Y" (10^6 bytes). */
#include "judge/results.h"
#include "tune/perftest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct perftest_read {
    struct result_series *s;
    char title[64];
    enum link_kind kind;
    int mtu, col;
    double unit;            /* bytes in the table's unit; 0: latency */
    char local[64], remote[64];
    bool cuda;
    int tx_depth;           /* "TX depth : 128" */
};

static void perftest_header(struct perftest_read *r, struct result_file *rf, const char *line)
{
    bool lat = strstr(line, "t_min[usec]") != NULL;
    r->unit = lat ? 0 : strstr(line, "[Gb/sec]") ? 1.25e8 : 1048576;
    r->col = 3;   /* BW average */
    if (lat) {
        char buf[512], *w[16];
        size_t n = split_words(line, buf, sizeof(buf), w, 16);
        r->col = -1;
        for (size_t k = 0; k < n; k++)
            if (strcmp(w[k], "t_avg[usec]") == 0 || (r->col < 0 && strcmp(w[k], "t_typical[usec]") == 0))
                r->col = (int)k;
    }
    enum bench_op op = lat ? OP_LAT : strstr(r->title, "Bidirectional") ? OP_BIBW : OP_BW;
    if (!(r->s = results_add(rf, "perftest", r->title[0] ? r->title : "perftest", op)))
        return;
    r->s->kind = r->kind;
    r->s->mtu = r->mtu;
    r->s->bench.gpu_memory = r->cuda;
    r->s->bench.window = lat ? 1 : r->tx_depth > 0 ? r->tx_depth : 128;   /* perftest's default */
    r->s->loopback = r->local[0] && strcmp(r->local, r->remote) == 0;
    r->s->bench.scope = r->s->loopback ? SCOPE_LOOPBACK : SCOPE_NET;
}

/* "local address: LID 0x01 QPN 0x0011 PSN ... GID: ..." : the LID and GID. */
static void address(char *out, size_t n, const char *line)
{
    const char *lid = strstr(line, "LID ");
    const char *gid = strstr(line, "GID: ");
    char a[24] = "", b[48] = "";
    if (lid)
        sscanf(lid + 4, "%23s", a);
    if (gid)
        sscanf(gid + 5, "%47s", b);
    if (!out[0])
        snprintf(out, n, "%s/%s", a, b);
}

static void perftest_line(struct perftest_read *r, struct result_file *rf, const char *line)
{
    const char *p;
    if (line[0] == '#')   /* perftest's own lines never start with '#' */
        return;
    if (strstr(line, " Test") && (strstr(line, " BW ") || strstr(line, " Latency ") ||
                                  strstr(line, " Lat ")) && !r->s) {
        p = line + strspn(line, " \t");
        snprintf(r->title, sizeof(r->title), "%.*s", (int)(strstr(p, " Test") - p), p);
    } else if ((p = strstr(line, "Link type")) && (p = strchr(p, ':'))) {
        r->kind = strstr(p, "IB") ? KIND_IB : strstr(p, "Ethernet") ? KIND_ROCE : KIND_UNKNOWN;
    } else if ((p = strstr(line, "TX depth")) && (p = strchr(p, ':'))) {
        r->tx_depth = atoi(p + 1);
    } else if ((p = strstr(line, "Mtu")) && (p = strchr(p, ':'))) {
        r->mtu = atoi(p + 1);
    } else if (strstr(line, "local address:")) {
        address(r->local, sizeof(r->local), line);
    } else if (strstr(line, "remote address:")) {
        address(r->remote, sizeof(r->remote), line);
    } else if (strstr(line, "CUDA") && !strstr(line, "doesn't")) {
        r->cuda = true;
    } else if (strstr(line, "#bytes") && strstr(line, "#iterations")) {
        perftest_header(r, rf, line);
    } else if (r->s && r->col > 0) {
        char buf[512], *w[16];
        size_t n = split_words(line, buf, sizeof(buf), w, 16);
        double bytes, v;
        if (n > (size_t)r->col && word_number(w[0], &bytes) && word_number(w[r->col], &v) && bytes > 0)
            series_row(r->s, bytes, r->unit > 0 ? v * r->unit / 1e9 : v);
    }
}

size_t parse_perftest(struct result_file *rf, const struct lines *l)
{
    struct perftest_read r = {0};
    size_t before = rf->n;
    for (size_t i = 0; i < l->n; i++)
        perftest_line(&r, rf, l->v[i]);
    return rf->n - before;
}

/* ucx_perftest's "Final:" row (or its CSV's last row). */
static void ucx_final(struct result_file *rf, bool lat, double lat_us, double mbs)
{
    struct result_series *s = results_add(rf, "ucx_perftest", lat ? "latency" : "bandwidth",
                                          lat ? OP_LAT : OP_BW);
    if (!s)
        return;
    double bytes = mbs * 1048576 * lat_us * 1e-6 * (lat ? 2 : 1);
    bytes = bytes < 8 ? 8 : bytes;
    s->bench.scope = SCOPE_NET;
    s->bench.window = lat ? 1 : 16;   /* ucx_perftest's bandwidth tests keep several in flight */
    series_row(s, bytes, lat ? lat_us : mbs * 1048576 / 1e9);
}

size_t parse_ucx_perftest(struct result_file *rf, const struct lines *l)
{
    size_t before = rf->n;
    int lat = -1;
    struct perftest_result csv;
    bool csv_rows = false, have_csv = false;
    for (size_t i = 0; i < l->n; i++) {
        const char *line = l->v[i];
        char buf[512], *w[12];
        if (strstr(line, "latency (usec)"))
            lat = 1;
        else if (strstr(line, "overhead (usec)"))
            lat = 0;
        else if (perftest_csv_header(line))
            csv_rows = true;
        else if (csv_rows && perftest_csv_row(line, &csv))
            have_csv = true;
        size_t n = split_words(line, buf, sizeof(buf), w, 12);
        double avg, bw;
        if (lat >= 0 && n == 9 && strcmp(w[0], "Final:") == 0 && word_number(w[4], &avg) &&
            word_number(w[6], &bw))
            ucx_final(rf, lat == 1, avg, bw);
    }
    if (rf->n == before && have_csv)   /* -v: the kind of test is not printed */
        ucx_final(rf, csv.bandwidth_mbs < 1, csv.latency_us, csv.bandwidth_mbs);
    return rf->n - before;
}

size_t parse_sweep(struct result_file *rf, const struct lines *l)
{
    struct result_series *bw = NULL, *lat = NULL;
    for (size_t i = 0; i < l->n; i++) {
        long size, iters;
        double us, mbs;
        if (sscanf(l->v[i], "pingpong size=%ld iters=%ld latency_us=%lf bandwidth_MBps=%lf", &size,
                   &iters, &us, &mbs) != 4 || size <= 0 || us < 0 || mbs < 0)
            continue;
        if (!bw) {
            bw = results_add(rf, "rdmarun", "mpi_pingpong bandwidth", OP_BW);
            lat = results_add(rf, "rdmarun", "mpi_pingpong latency", OP_LAT);
            if (!bw || !lat)
                break;
            bw->bench.scope = lat->bench.scope = SCOPE_NET;
        }
        series_row(bw, (double)size, mbs / 1e3);
        series_row(lat, (double)size, us);
    }
    return bw ? 2 : 0;
}
