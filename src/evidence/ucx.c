/* UCX endpoint configurations, as UCX_LOG_LEVEL=info prints them:
 *   1.6-1.13:  [ts] [host:pid:tid] ucp_worker.c:1763 UCX INFO ep_cfg[1]: tag(rc_verbs/rxe0:1) ...
 *   1.14+:     ... 0x55f940f99dc0 inter-node cfg#1 tag(rc_mlx5/mlx5_0:1) rma_bw(...) ka(...)
 *   1.14.0:    ... intra-node cfg#1tag(sysv/memory ...)            (no space)
 *   newer:     ... ucp_context_0 inter-node cfg#2 rma_am(...) am(...) ka(...)   (no tag lane)
 * Lines may come pasted without the "[ts] [host:pid]" prefix. At DEBUG level and in
 * `ucx_info -e`, the lanes themselves (lane_line), UCX 1.15+'s protocol tables
 * (table_line) and uct tcp's connections (tcp_ep_line). */
#include "evidence/internal.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Lanes that carry data; ka (keepalive), device, wireup and cm do not. */
static bool data_lane(const char *name, size_t len)
{
    static const char *const names[] = {"tag", "am", "rma", "rma_bw", "rma_am", "amo",
                                        "amo_am", "stream", "rkey_ptr", "am_bw"};
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
        if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
            return true;
    return false;
}

/* A transport's class ("rc_mlx5", "tcp", "sysv"): path_class.c's UCX words. */
static enum path_class tl_class(const char *tl, size_t len)
{
    return path_class_of(VOCAB_UCX_TL, tl, len);
}

/* "tcp/lo", "tcp/lo:1" (the first len bytes of a lane): TCP on the
 * loopback device, one host by construction. */
static bool tcp_on_loopback(const char *tl, size_t len)
{
    size_t slash = strcspn(tl, "/");
    if (slash >= len || path_class_kind(tl_class(tl, slash)) != PATH_TCP)
        return false;
    const char *dev = tl + slash + 1;
    size_t dlen = strcspn(dev, ":/ ");
    return loopback_name(dev, dlen < len - slash - 1 ? dlen : len - slash - 1);
}

/* What the data lanes of an endpoint hold, in the order that decides its
 * class: self first, then TCP on any lane, then a fabric, then memory. */
struct lanes_seen {
    bool self_first, any;
    enum path_class tcp, fabric, local;   /* the first of each, PC_UNKNOWN: none */
    bool tcp_off_host;                    /* a TCP lane on a device other than loopback */
};

static void lanes_note(struct lanes_seen *l, const char *t, size_t tlen, bool first)
{
    size_t slash = strcspn(t, "/");
    enum path_class c = tl_class(t, slash < tlen ? slash : tlen);
    if (first)
        l->self_first = c == PC_SELF;
    enum path_kind k = path_class_kind(c);
    if (k == PATH_TCP) {
        l->tcp = c;
        l->tcp_off_host |= !tcp_on_loopback(t, tlen);
    } else if (k == PATH_RDMA && l->fabric == PC_UNKNOWN) {
        l->fabric = c;
    } else if (k == PATH_LOCAL && l->local == PC_UNKNOWN) {
        l->local = c;
    }
    l->any = true;
}

/* Walk "name(tl/dev tl/dev) name(...)" and classify the data lanes; *loop:
 * the TCP lanes are all on the loopback device. */
static void parse_lanes(const char *s, enum path_class *cls, bool *loop, char **transports)
{
    struct lanes_seen l = {.tcp = PC_UNKNOWN, .fabric = PC_UNKNOWN, .local = PC_UNKNOWN};
    bool first_lane = true;
    struct strvec seen = {0};
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        size_t nlen = strcspn(s, "( \t");
        if (s[nlen] != '(')
            break;
        const char *name = s;
        const char *body = s + nlen + 1;
        const char *close = strchr(body, ')');
        if (!close)
            break;
        if (data_lane(name, nlen)) {
            for (const char *t = body; t < close;) {
                while (t < close && *t == ' ')
                    t++;
                size_t tlen = 0;
                while (t + tlen < close && t[tlen] != ' ')
                    tlen++;
                if (!tlen)
                    break;
                lanes_note(&l, t, tlen, first_lane && t == body + strspn(body, " "));
                char *item = xstrndup(t, tlen);
                if (sv_find(&seen, item) < 0)
                    sv_push(&seen, item);
                free(item);
                t += tlen;
            }
            first_lane = false;
        }
        s = close + 1;
    }
    *cls = !l.any ? PC_UNKNOWN : l.self_first ? PC_SELF : l.tcp != PC_UNKNOWN ? l.tcp
         : l.fabric != PC_UNKNOWN ? l.fabric : l.local;
    *loop = l.tcp != PC_UNKNOWN && !l.tcp_off_host;
    *transports = sv_join(&seen, " ");
    sv_free(&seen);
}

/* ep_cfg[ and cfg# both hold "cfg"; lanes "lane["; protocol tables "| ";
 * TCP endpoints "tcp_ep"; the version line "Version"; UCX ending a process
 * "' failed", "Fatal: ", "Caught signal". */
bool ucx_wanted(const char *line)
{
    return strstr(line, "cfg") || strstr(line, "lane[") || strstr(line, "| ") ||
           strstr(line, "+--") || strstr(line, "UCX  ERROR") || strstr(line, "(synd 0x") ||
           strstr(line, " QP 0x") ||
           strstr(line, "tcp_ep") || strstr(line, "UCX  INFO  Version") ||
           strstr(line, "' failed") || strstr(line, "Fatal: ") || strstr(line, "Caught signal ") ||
           strstr(line, "ucx_info") || strstr(line, "# UCP endpoint");
}

/* ucx_info -e's endpoint: the command pasted ("ucx_info -e -u t"), its
 * context's name in a table header ("ucx_info self cfg#0"), or the block
 * ucp_ep_print_info opens with ("# UCP endpoint", ucp_ep.c), which only
 * the tool prints. */
static bool self_dump_line(struct evidence *ev, const char *line)
{
    const char *u = strstr(line, "ucx_info");
    bool command = u && (strstr(u, " -e") || strstr(u, " -pe") || strstr(u, " self cfg#"));
    if (!command && !strstr(line, "# UCP endpoint"))
        return false;
    ev->ucx_self_dump = true;
    return !strstr(line, "| ");   /* a table header is read as one too */
}

static void add_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid, enum path_scope scope, enum path_class cls, const char *transports)
{
    struct line_origin o;
    line_origin(line, host, pid, &o);
    evidence_add(ev, "ucx", o.host, o.pid, scope, cls, transports, line, where);
    free(o.host);
}

/* A DEBUG lane line (ucp_wireup_print_config, ucp_ep_config_lane_info_str)
 * or ucx_info -e's: "lane[1]:  3:tcp/eth0.0 md[0] -> addr[0].md[0]/tcp/sysdev[255]
 * rma_bw#1 am_bw#1". Data usages: rma_bw, amo, am, rkey_ptr, am_bw,
 * tag_offload; a lane that is only "keepalive" or "wireup", and "cm" lanes,
 * carry none. */
static bool lane_line(struct evidence *ev, const char *line, const char *where,
                      const char *host, long pid)
{
    const char *p = strstr(line, "lane[");
    const char *c = p ? strstr(p, "]: ") : NULL;
    if (!c)
        return false;
    const char *t = c + 3 + strspn(c + 3, " ");
    size_t d = strspn(t, "0123456789");
    if (!d || t[d] != ':')
        return false;   /* "lane[0]: cm rdmacm", or not a lane line */
    t += d + 1;
    size_t tlen = strcspn(t, " ");
    const char *arrow = strstr(t, "-> ");
    if (!arrow)
        return false;
    bool data = false;
    for (const char *u = arrow + 3; *u && !data;) {
        u += strspn(u, " ");
        size_t ul = strcspn(u, " #\r\n");
        static const char *const usages[] = {"rma_bw", "amo", "am", "rkey_ptr", "am_bw",
                                             "tag_offload"};
        for (size_t i = 0; i < sizeof(usages) / sizeof(*usages) && !data; i++)
            data = strlen(usages[i]) == ul && strncmp(u, usages[i], ul) == 0;
        u += ul + strcspn(u + ul, " ");
    }
    if (!data)
        return false;
    /* "tcp/eth0.0": the device's ".path" dropped */
    char *tl = xstrndup(t, tlen);
    char *dot = strrchr(tl, '.');
    if (dot && dot > strchr(tl, '/') && strspn(dot + 1, "0123456789") == strlen(dot + 1))
        *dot = '\0';
    size_t slash = strcspn(tl, "/");
    enum path_class cls = tl_class(tl, slash);
    bool ok = cls != PC_UNKNOWN;
    bool loop = tcp_on_loopback(tl, strlen(tl));
    if (ok)
        add_line(ev, line, where, host, pid, cls == PC_SELF ? SCOPE_SELF : loop ? SCOPE_INTRA
                                                                             : SCOPE_UNKNOWN,
                 cls, tl);
    free(tl);
    return ok;
}

/* A protocol table (UCX_PROTO_INFO=y, UCX 1.15+; ucx_info -e): its header
 * names the endpoint ("inter-node cfg#1 | tagged message by ..."), its rows
 * the transports: "| 0..8184 | eager short | rc_mlx5/mlx5_0:1/path0 |",
 * "| 64K..inf | (?) rendezvous ... | 73% on tcp/ens1f0 and 27% on tcp/ib0 |";
 * "+----+" borders frame the header and close the table (proto_debug.c).
 * mpirun merges many processes' output, so a header's scope is kept per
 * process (its own [host:pid] prefix) until its closing border; rows with no
 * header seen (a table pasted from the middle) still count, scope unknown. */
/* A protocol table row's config cell (text): each transport a path of its
 * own, a share ("73%") standing before the transport it belongs to ("50%
 * on A and 50% on B", "A, B and C", "A 50% on path0 and 50% on path1").
 * Whether any was evidence; *tcp_pct: the share on TCP. */
static bool row_transports(struct evidence *ev, char *text, const struct line_origin *o,
                           enum path_scope table_scope, const char *line, const char *where,
                           int *tcp_pct)
{
    bool any = false;
    int share = 0;
    *tcp_pct = 0;
    for (char *w = text, *save = NULL, *tok; (tok = strtok_r(w, " ,", &save)); w = NULL) {
        size_t tl = strlen(tok), slash = strcspn(tok, "/");
        if (tl > 1 && tok[tl - 1] == '%') {
            share = atoi(tok);
            continue;
        }
        if (!tok[slash])
            continue;
        char *path = strstr(tok, "/path");
        if (path)
            *path = '\0';
        enum path_class cls = tl_class(tok, slash);
        if (path_class_kind(cls) == PATH_TCP)
            *tcp_pct += share ? share : 100;
        share = 0;
        if (cls == PC_UNKNOWN)
            continue;
        bool loop = tcp_on_loopback(tok, strlen(tok));
        enum path_scope scope = cls == PC_SELF ? SCOPE_SELF : loop ? SCOPE_INTRA : table_scope;
        evidence_add(ev, "ucx", o->host, o->pid, scope, cls, tok, line, where);
        any = true;
    }
    return any;
}

/* A table's header: the scope its rows have (inter-node, intra-node, self). */
static void table_header(struct evidence *ev, const struct line_origin *o, const char *bar,
                         const char *cfg)
{
    struct ev_table *t = evidence_table(ev, o->host, o->pid, true);
    if (!t)
        return;
    t->scope = !cfg ? SCOPE_UNKNOWN
             : strstr(bar, "inter-node cfg#") ? SCOPE_INTER
             : strstr(bar, "intra-node cfg#") ? SCOPE_INTRA
             : strstr(bar, "self cfg#") ? SCOPE_SELF : SCOPE_UNKNOWN;
    t->rows = false;
}

static bool table_line(struct evidence *ev, const char *line, const char *where,
                       const char *host, long pid)
{
    const char *bar = strstr(line, "| ");
    if (!bar)
        return false;
    struct line_origin o;
    line_origin(line, host, pid, &o);
    const char *cfg = strstr(bar, " cfg#");
    if (cfg || strstr(bar, "ep_cfg[")) {   /* a header */
        table_header(ev, &o, bar, cfg);
        free(o.host);
        return false;
    }
    struct ev_table *t = evidence_table(ev, o.host, o.pid, false);
    enum path_scope table_scope = t ? t->scope : SCOPE_UNKNOWN;
    if (t)
        t->rows = true;
    /* The third cell: "| range | protocol | config |". */
    const char *c1 = strstr(bar + 2, " | ");
    const char *c2 = c1 ? strstr(c1 + 3, " | ") : NULL;
    if (!c2) {
        free(o.host);
        return false;
    }
    const char *cell = c2 + 3;
    size_t len = strcspn(cell, "|");
    while (len && cell[len - 1] == ' ')
        len--;
    char *text = xstrndup(cell, len);
    int tcp_pct;
    bool any = row_transports(ev, text, &o, table_scope, line, where, &tcp_pct);
    if (tcp_pct > 0 && tcp_pct < 100 && tcp_pct > ev->tcp_share)
        ev->tcp_share = tcp_pct;   /* a mixed row: that share of it on TCP */
    free(text);
    free(o.host);
    return any;
}

/* A table's border, "+-----+----+": after rows, the table's end. */
static bool border_line(struct evidence *ev, const char *line, const char *host, long pid)
{
    const char *b = strstr(line, "+--");
    if (!b || b[strspn(b, "+-")] > ' ')
        return false;
    struct line_origin o;
    line_origin(line, host, pid, &o);
    struct ev_table *t = evidence_table(ev, o.host, o.pid, false);
    if (t && t->rows)
        evidence_table_end(ev, o.host, o.pid);
    free(o.host);
    return false;
}

/* uct tcp's DEBUG connection lines: "tcp_ep 0x...: CONNECTING -> WAITING_ACK
 * for the [10.10.1.7:41233]<->[10.10.1.8:45517]:0 connection": TCP data
 * between two addresses, the same (one node) or not. */
static bool tcp_ep_line(struct evidence *ev, const char *line, const char *where,
                        const char *host, long pid)
{
    const char *p = strstr(line, "tcp_ep ");
    const char *a = p ? strstr(p, " for the [") : NULL;
    const char *b = a ? strstr(a, "]<->[") : NULL;
    if (!b)
        return false;
    a += strlen(" for the [");
    const char *ae = a, *be = b + 5;
    while (ae < b && *ae != ':' )
        ae++;
    size_t alen = (size_t)(ae - a), blen = strcspn(be, ":]");
    bool same = alen == blen && strncmp(a, be, alen) == 0;
    bool loop = loopback_name(a, alen) || loopback_name(be, blen);
    char *what = xasprintf("tcp %.*s<->%.*s", (int)alen, a, (int)blen, be);
    add_line(ev, line, where, host, pid, same || loop ? SCOPE_INTRA : SCOPE_INTER, PC_TCP,
             what);
    free(what);
    return true;
}

/* A completion with error (ib_mlx5_log.c, uct_ib_mlx5_completion_with_err),
 * two lines with one prefix, "[host:pid:tid:tid] ib_mlx5_log.c:177  ":
 *   "Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)"
 *   "DCI QP 0x2a41 wqe[5023]: SEND s-e [rqpn 0x1b07 rlid 884] [va ... len 4912 ...]"
 *   "RC QP 0x5e13 wqe[712]: RDMA_WRITE s-- [rva ...] [rqpn 0x5d88 dlid=117 ...]"
 * A work request to a remote QP (rqpn: UCX 1.12+) was on the wire: RDMA
 * carried the job's data, then failed, unless it was the QP's very first
 * (wqe[0]: the first send of a new QP, as in MPI_Init's wireup), when
 * nothing was delivered over it. The first line is held until the second
 * says which; alone (older UCX) it is the fault. */
static bool completion_error(struct evidence *ev, const char *line, const char *where,
                             const char *host, long pid)
{
    const char *close = strchr(line, ']');   /* the text after its prefix */
    const char *text = line_body(close ? close + 1 : line);
    if (strstr(line, "(synd 0x") && strstr(line, " on ")) {
        evidence_synd(ev, text, where);
        return true;
    }
    const char *qp = strstr(line, " QP 0x");
    if (!qp || !strstr(qp, " wqe[") || !strstr(qp, "[rqpn "))
        return false;
    const char *type = qp;
    while (type > line && type[-1] != ' ')
        type--;
    const char *tl = starts_with(type, "DCI") ? "dc_mlx5" : starts_with(type, "UD") ? "ud_mlx5"
                                                                                  : "rc_mlx5";
    bool first_request = strstr(qp, " wqe[0]:") != NULL;
    char *said = ev->synd ? ev->synd : xstrdup(text);
    char *said_where = ev->synd ? ev->synd_where : xstrdup(where);
    ev->synd = ev->synd_where = NULL;
    if (first_request) {
        evidence_failed(ev, said, said_where);
    } else {
        evidence_fault(ev, said, said_where);
        add_line(ev, line, where, host, pid, SCOPE_UNKNOWN, PC_RDMA, tl);
    }
    free(said);
    free(said_where);
    return true;
}

/* UCX ending a process itself, one line after its "[host:pid:thread:tid]"
 * prefix (debug/assert.c ucs_fatal_error_message "%13s:%-4u %s", debug.c
 * ucs_handle_error):
 *   "[n1:2382 :a:2387]   ib_device.c:210  Assertion `wait_ctx->cb_id == ...' failed"
 *   "[n1:2382 :0:2382]      ucp_ep.c:1210 Fatal: ..."
 *   "[n1:2382 :0:2382] Caught signal 11 (Segmentation fault: address not mapped ...)"
 * Returns its message, or NULL. */
const char *ucx_fatal_message(const char *body)
{
    const char *s = body;
    if (*s != '[')
        return NULL;
    size_t hl = strcspn(s + 1, ":] ");
    const char *p = s + 1 + hl;
    if (hl == 0 || *p != ':' || !isdigit((unsigned char)p[1]))
        return NULL;
    p += 1 + strspn(p + 1, "0123456789 ");
    const char *close = strchr(p, ']');
    if (*p != ':' || !close)
        return NULL;
    const char *text = close + 1 + strspn(close + 1, " ");
    if (starts_with(text, "Caught signal "))
        return text;
    size_t name = strcspn(text, ": ");   /* "file.c:210  Assertion `...' failed" */
    const char *after = text + name;
    if (name == 0 || *after != ':' || !isdigit((unsigned char)after[1]))
        return NULL;
    after += 1 + strspn(after + 1, "0123456789");
    after += strspn(after, " ");
    if ((starts_with(after, "Assertion `") && strstr(after, "' failed")) ||
        starts_with(after, "Fatal: "))
        return text;
    return NULL;
}

/* Kept as "UCX ended process 2382 on n1: <message>", or "process 2382 on
 * n1 crashed: signal 11 (...)"; with no path chosen yet it is also the
 * error that ended the job. */
static bool ucx_abort(struct evidence *ev, const char *line, const char *where, const char *host,
                      long pid)
{
    const char *s = line_body(line), *text = ucx_fatal_message(s);
    if (!text)
        return false;
    struct line_origin o;
    line_origin(s, host, pid, &o);
    char *who = evidence_process_words(o.host, o.pid);
    /* UCX's signal handler (debug.c ucs_debug_handle_error_signal) prints
     * "Caught signal" for any crash, the program's own bugs too: the
     * process crashed; the other messages are UCX's own end of it. */
    char *said = starts_with(text, "Caught signal ")
                 ? xasprintf("%s crashed: %s, UCX's handler printed the backtrace", who,
                             text + strlen("Caught "))
                 : xasprintf("UCX ended %s: %s", who, text);
    evidence_abort(ev, said, where);
    evidence_error(ev, said, where);
    free(said);
    free(who);
    free(o.host);
    return true;
}

/* The scope the word before "cfg#" names (p: at "cfg#"): self,
 * intra-node, inter-node; false for another word. */
static bool cfg_scope(const char *line, const char *p, enum path_scope *scope)
{
    const char *w = p;
    while (w > line && w[-1] == ' ')
        w--;
    const char *ws = w;
    while (ws > line && ws[-1] != ' ')
        ws--;
    size_t wl = (size_t)(w - ws);
    if (wl == 4 && strncmp(ws, "self", 4) == 0)
        *scope = SCOPE_SELF;
    else if (wl == 10 && strncmp(ws, "intra-node", 10) == 0)
        *scope = SCOPE_INTRA;
    else if (wl == 10 && strncmp(ws, "inter-node", 10) == 0)
        *scope = SCOPE_INTER;
    else
        return false;
    return true;
}

/* An endpoint's lanes ("ep_cfg[N]: ..." or "SCOPE cfg#N ..."): its class
 * recorded, its scope from the line or the lanes. */
static bool endpoint_line(struct evidence *ev, const char *line, const char *lanes,
                          enum path_scope scope, const char *where, const char *host, long pid)
{
    struct line_origin o;
    line_origin(line, host, pid, &o);
    /* An endpoint line of its own: the process's earlier table is over. */
    evidence_table_end(ev, o.host, o.pid);
    enum path_class cls;
    bool loop;
    char *transports;
    parse_lanes(lanes, &cls, &loop, &transports);
    if (cls == PC_UNKNOWN) {
        free(transports);
        free(o.host);
        return false;
    }
    if (scope == SCOPE_SELF)
        cls = PC_SELF;
    else if (cls == PC_SELF)
        scope = SCOPE_SELF;
    else if (loop)
        scope = SCOPE_INTRA;   /* "tcp/lo": the loopback device is one host */
    evidence_add(ev, "ucx", o.host, o.pid, scope, cls, transports, line, where);
    free(o.host);
    free(transports);
    return true;
}

bool ucx_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                    long pid)
{
    if (strstr(line, "UCX  ERROR")) {   /* what ended the job, if nothing reached a peer */
        evidence_error(ev, line, where);
        return true;
    }
    if (completion_error(ev, line, where, host, pid) || ucx_abort(ev, line, where, host, pid))
        return true;
    if (self_dump_line(ev, line))
        return false;
    if (strstr(line, "| "))
        return table_line(ev, line, where, host, pid);
    if (strstr(line, "+--"))
        return border_line(ev, line, host, pid);
    enum path_scope scope = SCOPE_UNKNOWN;
    const char *p = strstr(line, "ep_cfg["), *colon;
    if (p)
        return (colon = strstr(p, "]:")) &&
               endpoint_line(ev, line, colon + 2, scope, where, host, pid);
    if ((p = strstr(line, "cfg#")))   /* the word before "cfg#" is the scope */
        return cfg_scope(line, p, &scope) &&
               endpoint_line(ev, line, p + 4 + strspn(p + 4, "0123456789"), scope, where, host,
                             pid);
    const char *v = strstr(line, "UCX  INFO  Version ");
    if (v) {
        v += strlen("UCX  INFO  Version ");
        evidence_version(ev, "UCX", v, strcspn(v, " \r\n"));
        return false;
    }
    return lane_line(ev, line, where, host, pid) || tcp_ep_line(ev, line, where, host, pid);
}
