/* nccl-tests' output (NVIDIA/nccl-tests): the text table and its -J JSON.
 *
 * Text (src/common.cu up to v2.17.2, src/util.cu from v2.17.3:
 * writeResultHeader, writeBenchmarkLinePreamble/Body): a row per size,
 *   "%12li  %12li  %8s  %6s  %6s" size, count, type, redop, root, then for
 *   out-of-place and in-place "  %7s  %6.2f  %6.2f  %5g" time (us), algbw
 *   and busbw (GB/s, 10^9 bytes), #wrong ("N/A" without -c); before v2.13
 *   no root and an "error" column; from v2.17.3 a wide figure is printed as
 *   %g ("1.2e+05"). srun --label's "  0: " or Open MPI's "[1,0]<stdout>:"
 *   may lead each line. The device lines "#  Rank %2d Group %2d Pid %6d on
 *   %10s device %2d [%04x:%02x:%02x] %s" (v2.13: "#   Rank %2d Pid %6d on
 *   %10s device %2d [0x%02x] %s") name the ranks, their hosts and GPUs.
 * With NCCL_DEBUG=INFO, NCCL's own lines say what it used (src/transport/
 * net_ib.cc's "NET/IB : Using [0]mlx5_0:1/IB ...", "GPU Direct RDMA
 * Disabled for HCA", net_socket.cc's "NET/Socket : Using"). */
#include "judge/results.h"
#include "util/strvec.h"
#include <stdio.h>
#include <string.h>

/* nccl-tests' binaries, longest names first where one holds another. */
static const char *const colls[] = {"all_reduce", "all_gather", "reduce_scatter", "alltoall",
                                    "broadcast", "sendrecv", "hypercube", "gather", "scatter",
                                    "reduce", NULL};

const char *nccl_coll_in(const char *s)
{
    for (size_t i = 0; s && colls[i]; i++)
        if (strstr(s, colls[i]))
            return colls[i];
    return NULL;
}

/* A line without a launcher's label ("  0: ", "[1,0]<stdout>:"). */
static const char *unlabelled(const char *line)
{
    const char *p = line + strspn(line, " ");
    size_t digits = strspn(p, "0123456789");
    if (digits && p[digits] == ':')
        return p + digits + 1;
    if (*p == '[' && (p = strstr(p, "]<stdout>:")) != NULL)
        return p + 10;
    return line;
}

struct nccl_read {
    struct strvec hosts;
    int ranks;
    char gpu[64];
    const char *coll;
    int nics_used, gdr;
    bool sockets;
    char gdr_off[160];
};

static void device_line(struct nccl_read *r, const char *line)
{
    const char *on = strstr(line, " on ");
    const char *br = strchr(line, ']');
    if (!on)
        return;
    char host[64];
    if (sscanf(on + 4, "%63s", host) == 1 && sv_find(&r->hosts, host) < 0 && r->hosts.n < 4096)
        sv_push(&r->hosts, host);
    r->ranks++;
    if (br && !r->gpu[0])
        snprintf(r->gpu, sizeof(r->gpu), "%s", br + 1 + strspn(br + 1, " "));
}

static void nccl_info(struct nccl_read *r, const char *line)
{
    const char *p;
    if ((p = strstr(line, "NET/IB : Using ")) != NULL) {
        int n = 0;
        for (p += 15; (p = strchr(p, '[')) != NULL; p++)
            n++;
        if (n > r->nics_used)
            r->nics_used = n;
    }
    if (strstr(line, "NET/Socket : Using") || strstr(line, "Using network Socket"))
        r->sockets = true;
    if ((p = strstr(line, "GPU Direct RDMA Disabled")) != NULL && !r->gdr_off[0]) {
        r->gdr = 0;
        snprintf(r->gdr_off, sizeof(r->gdr_off), "%.150s", p);
    }
    if (strstr(line, "/GDRDMA") && r->gdr < 0)
        r->gdr = 1;
}

/* A table row: its size and the larger of its two busbw. */
static bool table_row(const char *line, double *bytes, double *busbw)
{
    char buf[512], *w[20];
    size_t n = split_words(line, buf, sizeof(buf), w, 20);
    double count, root, oop, ip;
    if (n < 12 || !word_number(w[0], bytes) || !word_number(w[1], &count) ||
        !(w[2][0] >= 'a' && w[2][0] <= 'z'))
        return false;
    size_t base = (n >= 13 && (word_number(w[4], &root) || strcmp(w[4], "-1") == 0)) ? 5 : 4;
    bool a = word_number(w[base + 2], &oop), b = base + 6 < n && word_number(w[base + 6], &ip);
    if (!a && !b)
        return false;
    *busbw = a && b ? (oop > ip ? oop : ip) : a ? oop : ip;
    return *bytes > 0;
}

static void finish(struct result_series *s, struct nccl_read *r, const char *name)
{
    s->bench.coll = r->coll ? r->coll : nccl_coll_in(name);
    s->bench.gpu_memory = true;
    s->ranks = s->bench.ranks = r->ranks;
    s->nodes = (int)r->hosts.n;
    s->bench.scope = s->nodes > 1 ? SCOPE_NET : SCOPE_NODE;
    snprintf(s->gpu, sizeof(s->gpu), "%s", r->gpu);
    s->nics_used = r->nics_used;
    s->gdr = r->gdr;
    if (r->sockets)
        sv_push(&s->says, "NCCL used its socket transport (TCP), not the NICs' RDMA");
    if (r->gdr == 0)
        sv_pushf(&s->says, "NCCL said: %s (GPU memory staged through host memory)", r->gdr_off);
    if (s->test[0] == '\0')
        snprintf(s->test, sizeof(s->test), "%s_perf", s->bench.coll ? s->bench.coll : "nccl");
}

size_t parse_nccl_tests(struct result_file *rf, const struct lines *l, const char *name)
{
    struct nccl_read r = {.gdr = -1};
    struct result_series *s = NULL;
    bool header = false;
    for (size_t i = 0; i < l->n; i++) {
        const char *line = unlabelled(l->v[i]);
        const char *start = strstr(line, "# Collective test starting: ");
        if (start)
            r.coll = nccl_coll_in(start);
        else if (strstr(line, "NCCL INFO"))
            nccl_info(&r, line);
        else if (strncmp(line, "#", 1) == 0 && strstr(line, " Rank ") && strstr(line, " device "))
            device_line(&r, line);
        else if (strstr(line, "size") && strstr(line, "count") && strstr(line, "busbw"))
            header = true;
        double bytes, busbw;
        if (header && table_row(line, &bytes, &busbw)) {
            if (!s && !(s = results_add(rf, "nccl-tests", "", OP_BUSBW)))
                break;
            series_row(s, bytes, busbw);
        }
    }
    if (s)
        finish(s, &r, name);
    sv_free(&r.hosts);
    return s ? 1 : 0;
}
