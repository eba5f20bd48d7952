/* Verbs benchmarks as users paste them (a "> " quote allowed), whose data
 * always moves over RDMA verbs between the two ends they print:
 * - perftest (ib_write_bw, ib_read_lat, ...), linux-rdma/perftest:
 *   perftest_communication.c ctx_print_pingpong_data's BASIC_ADDR_FMT
 *   " %s address: LID %#04x QPN %#06x PSN %#06x" (local, then remote), each
 *   with PERF_GID_FMT " GID: %02d:%02d:...", decimal bytes, on RoCE;
 *   perftest_parameters.c ctx_print_test_info's " Device : %s" and
 *   " Connection type : %s"; the results' RESULT_FMT header " #bytes
 *   #iterations ..." (RESULT_FMT_LAT for latency) and rows of numbers;
 *   perftest_resources.h NOTIFY_COMP_ERROR_SEND " Completion with error at
 *   client";
 * - rdma-core libibverbs/examples (ibv_rc_pingpong, ibv_uc_pingpong,
 *   ibv_ud_pingpong, ibv_srq_pingpong), main(): "  local address:  LID
 *   0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s" (ud: ": GID"), "  remote
 *   address: ...", then "%lld bytes in %.2f seconds = %.2f Mbit/sec";
 *   parse_single_wc's "Failed status %s (%d) for wr_id %d".
 * The ends are one host when the local and remote lines name the same
 * port: the same non-zero LID or the same GID (not all zero); the client
 * pointed at 127.0.0.1 or localhost is too. Other ends are not known to
 * share a node. Data moved once a result row or line is printed; a failure
 * before it moved none. */
#include "evidence/internal.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* What was read of a pasted benchmark so far (its family's state): each
 * end's "lid 0x02" or "gid fe80::1", the device, whether both ends were
 * printed, which came last, its results table, and data moved. */
struct bench_state {
    char local[64], remote[64], device[32];
    bool addresses, last_remote, table, data, loopback;
};

void *bench_state_new(void) { return xcalloc(1, sizeof(struct bench_state)); }

static struct bench_state *state_of(struct evidence *ev)
{
    return evidence_family_state(ev, FAMILY_PERFTEST);
}

static const char *unquoted(const char *line)
{
    const char *s = line_body(line);
    while (*s == '>')
        s += 1 + strspn(s + 1, " ");
    return s;
}

bool bench_wanted(const char *line)
{
    return strstr(line, " address:") || strstr(line, "GID: ") || strstr(line, "#bytes") ||
           strstr(line, "Mbit/sec") || strstr(line, "Completion with error") ||
           strstr(line, "Failed status ") || strstr(line, "Device ") || strstr(line, "ib_") ||
           strstr(line, "_pingpong") || (*unquoted(line) && isdigit((unsigned char)*unquoted(line)));
}

/* The value after key ("GID ", "LID ") as NAME VALUE ("gid fe80::1", "lid
 * 0x02), when it is not all zero (zero: the characters an unset one is made
 * of); whether it was. */
static bool id_after(const char *s, const char *key, const char *name, const char *zero,
                     char *id, size_t size)
{
    const char *v = strstr(s, key);
    if (!v)
        return false;
    v += strlen(key);
    size_t n = strcspn(v, " ,\r\n");
    if (!n || strspn(v, zero) >= n)
        return false;
    snprintf(id, size, "%s %.*s", name, (int)n, v);
    return true;
}

/* One end's "LID 0x02 QPN ..., GID fe80::...": the GID when it is set, else
 * the LID when it is. */
static void end_id(const char *s, char *id, size_t size)
{
    if (!id_after(s, "GID ", "gid", ":0", id, size) && !id_after(s, "LID ", "lid", "0x", id, size))
        id[0] = '\0';
}

/* A word naming a benchmark: "ib_write_bw", "/usr/bin/ib_read_lat",
 * "ibv_rc_pingpong", "rc_pingpong". */
static bool tool_word(const char *w, size_t n)
{
    const char *base = w;
    for (size_t i = 0; i < n; i++)
        if (w[i] == '/')
            base = w + i + 1;
    size_t bn = n - (size_t)(base - w);
    bool ends_bw = bn > 3 && strncmp(base + bn - 3, "_bw", 3) == 0;
    bool ends_lat = bn > 4 && strncmp(base + bn - 4, "_lat", 4) == 0;
    bool ends_pp = bn > 9 && strncmp(base + bn - 9, "_pingpong", 9) == 0;
    return (strncmp(base, "ib_", 3) == 0 && (ends_bw || ends_lat)) || ends_pp;
}

/* A command line: its tool, and whether it points at the host itself. */
static bool command_line(struct evidence *ev, const char *s)
{
    bool tool = false;
    for (const char *w = s; *w && *w != '\r' && *w != '\n' && !tool;) {
        w += strspn(w, " \t$#");
        size_t n = strcspn(w, " \t\r\n");
        tool = tool_word(w, n);
        w += n;
    }
    if (!tool || strstr(s, " address:"))
        return false;
    struct bench_state *b = state_of(ev);
    *b = (struct bench_state){0};
    b->loopback = loopback_word_in(s);
    return true;
}

static bool address_line(struct evidence *ev, const char *s)
{
    struct bench_state *b = state_of(ev);
    bool local = starts_with(s, "local address:"), remote = starts_with(s, "remote address:");
    if (local || remote) {
        end_id(s, local ? b->local : b->remote, sizeof(b->local));
        b->last_remote = remote;
        b->addresses = true;
        b->data = false;
        return true;
    }
    if (starts_with(s, "GID: ") && b->addresses) {   /* perftest: the end printed last */
        id_after(s, "GID: ", "gid", ":0", b->last_remote ? b->remote : b->local, sizeof(b->local));
        return true;
    }
    const char *dev = strstr(s, "Device ");
    if (dev && strchr(dev, ':')) {   /* " Dual-port : OFF\t\tDevice         : mlx5_0" */
        const char *d = strchr(dev, ':') + 1;
        d += strspn(d, " \t");
        snprintf(b->device, sizeof(b->device), "%.*s", (int)strcspn(d, " \t\r\n"), d);
        return true;
    }
    return false;
}

/* The data moved: a result row or line after both ends were printed. */
static bool data_line(struct evidence *ev, const char *s, const char *line, const char *where,
                      const char *host, long pid)
{
    struct bench_state *b = state_of(ev);
    if (starts_with(s, "#bytes")) {
        b->table = true;
        return false;
    }
    bool pingpong = strstr(s, " bytes in ") && strstr(s, "Mbit/sec");
    bool row = b->table && isdigit((unsigned char)*s) && strchr(s, '.');
    if (!b->addresses || (!pingpong && !row) || b->data)
        return false;
    b->data = true;
    bool same = b->loopback || (b->local[0] && strcmp(b->local, b->remote) == 0);
    const char *family = pingpong ? "ibv_pingpong" : "perftest";
    char *what = xasprintf("%s verbs%s%s%s", family, b->device[0] ? " on " : "", b->device,
                           same ? " (one port: loopback)" : "");
    evidence_add(ev, family, host, pid, same ? SCOPE_INTRA : SCOPE_UNKNOWN,
                 same ? path_class_looped(PC_RDMA) : PC_RDMA, what, line, where);
    free(what);
    return true;
}

bool bench_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                      long pid)
{
    const char *s = unquoted(line);
    s += strspn(s, " \t");
    if (command_line(ev, s) || address_line(ev, s))
        return false;
    if (strstr(s, "Completion with error at ") || starts_with(s, "Failed status ")) {
        if (state_of(ev)->data)
            evidence_fault(ev, s, where);
        else
            evidence_failed(ev, s, where);
        return true;
    }
    return data_line(ev, s, line, where, host, pid);
}
