/* The MPI benchmarks' output: OSU's and Intel's.
 *
 * OSU micro-benchmarks (c/util/osu_util.c and osu_util_mpi.c, print_header
 * and print_preamble; 5.x to 7.x): "# OSU MPI[-CUDA] Bandwidth Test vX"
 * (osu_bw; "Bi-Directional Bandwidth", "Latency", "Allreduce Latency"...),
 * for accelerator buffers "# Send Buffer on DEVICE (D) and Receive Buffer
 * on DEVICE (D)", then a row per size: "%-10d" size and "%20.2f" MB/s
 * (10^6 bytes) or us, and with -f more columns after them.
 *
 * Intel MPI Benchmarks (src_c/IMB_output.c, IMB_print_header and
 * IMB_display_times): "# Benchmarking PingPong", then "#bytes #repetitions
 * t[usec] Mbytes/sec" (PingPong, PingPing) or "t_min[usec] t_max[usec]
 * t_avg[usec] [Mbytes/sec]", a row per size, 13 columns wide. Mbytes are
 * 10^6 bytes from IMB 2018 on (2^20 before); PingPong's t is half a round
 * trip, Sendrecv's Mbytes/sec counts both directions. */
#include "judge/results.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "osu_bw" from "Bandwidth", "osu_allreduce" from "Allreduce Latency". */
static void osu_test(const char *title, enum bench_op *op, bool *judged, char *test, size_t n)
{
    const char *what = strstr(title, " Test") ? title : "";
    *judged = true;
    if (strstr(what, "Bi-Directional Bandwidth")) {
        *op = OP_BIBW;
        snprintf(test, n, "osu_bibw");
    } else if (strstr(what, "Bandwidth")) {
        *op = OP_BW;
        snprintf(test, n, strstr(what, "Multiple") ? "osu_mbw_mr" : "osu_bw");
        *judged = !strstr(what, "Multiple");
    } else {
        *op = OP_LAT;
        /* "# OSU MPI Allreduce Latency Test v7.2": the word before Latency */
        const char *lat = strstr(what, " Latency");
        const char *w = lat;
        while (w && w > what && w[-1] != ' ')
            w--;
        size_t len = lat && w ? (size_t)(lat - w) : 0;
        bool pt2pt = len == 3 || len == 0;   /* "MPI Latency" */
        snprintf(test, n, "osu_%.*s", pt2pt ? 7 : (int)len, pt2pt ? "latency" : w);
        for (char *c = test; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        *judged = pt2pt;
    }
}

/* A row: a size then a number, both whole words. */
static bool size_row(const char *line, double *bytes, double *value, size_t col)
{
    char buf[512], *w[16];
    size_t n = split_words(line, buf, sizeof(buf), w, 16);
    return n > col && word_number(w[0], bytes) && word_number(w[col], value) &&
           strspn(w[0], "0123456789") == strlen(w[0]);
}

size_t parse_osu(struct result_file *rf, const struct lines *l)
{
    size_t found = 0;
    struct result_series *s = NULL;
    for (size_t i = 0; i < l->n; i++) {
        const char *line = l->v[i];
        if (strncmp(line, "# OSU MPI", 9) == 0 || strncmp(line, "#OSU MPI", 8) == 0) {
            enum bench_op op;
            bool judged;
            char test[64];
            osu_test(line, &op, &judged, test, sizeof(test));
            if (!(s = results_add(rf, "OSU", test, op)))
                break;
            s->judged = judged;
            s->bench.scope = SCOPE_NET;
            s->bench.window = op == OP_LAT ? 1 : 64;   /* osu_bw's window_size */
            found++;
            continue;
        }
        if (s && strstr(line, "Buffer on DEVICE"))
            s->bench.gpu_memory = true;
        double bytes, v;
        if (s && line[0] != '#' && size_row(line, &bytes, &v, 1) && bytes > 0)
            series_row(s, bytes, s->bench.op == OP_LAT ? v : v / 1e3);
    }
    return found;
}

/* IMB's benchmark names and what their figures are. */
static enum bench_op imb_op(const char *name, bool *judged)
{
    *judged = strcmp(name, "PingPong") == 0 || strcmp(name, "Sendrecv") == 0;
    return strcmp(name, "Sendrecv") == 0 ? OP_BIBW : strcmp(name, "PingPong") == 0 ? OP_BW : OP_LAT;
}

struct imb_read {
    struct result_series *bw, *lat;
    int tcol, bwcol;      /* columns of t_avg (or t) and Mbytes/sec; -1 none */
    double mega;          /* bytes in IMB's Mbyte */
};

static void imb_header(struct imb_read *r, const char *line)
{
    char buf[512], *w[16];
    size_t n = split_words(line, buf, sizeof(buf), w, 16);
    r->tcol = r->bwcol = -1;
    for (size_t k = 0; k < n; k++) {
        if (strcmp(w[k], "t[usec]") == 0 || strcmp(w[k], "t_avg[usec]") == 0)
            r->tcol = (int)k;
        if (strcmp(w[k], "Mbytes/sec") == 0)
            r->bwcol = (int)k;
    }
}

static void imb_row(struct imb_read *r, const char *line)
{
    double bytes, v;
    if (r->bwcol > 0 && size_row(line, &bytes, &v, (size_t)r->bwcol) && bytes > 0)
        series_row(r->bw, bytes, v * r->mega / 1e9);
    if (r->tcol > 0 && size_row(line, &bytes, &v, (size_t)r->tcol) && bytes > 0)
        series_row(r->lat, bytes, v);
}

size_t parse_imb(struct result_file *rf, const struct lines *l)
{
    struct imb_read r = {.tcol = -1, .bwcol = -1, .mega = 1e6};
    size_t found = 0;
    for (size_t i = 0; i < l->n; i++) {
        const char *line = l->v[i];
        const char *b = strstr(line, "# Benchmarking ");
        int year;
        const char *ver = strstr(line, "Intel(R) MPI Benchmarks ");
        if (ver && sscanf(ver + 24, "%d", &year) == 1 && year > 0 && year < 2018)
            r.mega = 1048576;   /* IMB 2017 and older: 2^20 */
        if (b) {
            char name[32] = "";
            sscanf(b + 15, "%31s", name);
            bool judged;
            enum bench_op op = imb_op(name, &judged);
            r.bw = op == OP_LAT ? NULL : results_add(rf, "IMB", name, op);
            r.lat = results_add(rf, "IMB", name, OP_LAT);
            if (!r.lat)
                break;
            r.lat->judged = judged && op == OP_BW;
            if (r.bw)
                r.bw->bench.scope = SCOPE_NET;
            r.lat->bench.scope = SCOPE_NET;
            r.tcol = r.bwcol = -1;
            found++;
        } else if (r.lat && strncmp(line, "#bytes", 6) == 0) {
            imb_header(&r, line);
        } else if (r.lat && line[0] != '#') {
            imb_row(&r, line);
        }
    }
    return found;
}
