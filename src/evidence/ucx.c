/* UCX endpoint configurations, as UCX_LOG_LEVEL=info prints them:
 *   1.6-1.13:  [ts] [host:pid:tid] ucp_worker.c:1763 UCX INFO ep_cfg[1]: tag(rc_verbs/rxe0:1) ...
 *   1.14+:     ... 0x55f940f99dc0 inter-node cfg#1 tag(rc_mlx5/mlx5_0:1) rma_bw(...) ka(...)
 *   1.14.0:    ... intra-node cfg#1tag(sysv/memory ...)            (no space)
 *   newer:     ... ucp_context_0 inter-node cfg#2 rma_am(...) am(...) ka(...)   (no tag lane)
 * Lines may come pasted without the "[ts] [host:pid]" prefix. */
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

enum tl_class { TL_SELF, TL_MEMORY, TL_RDMA, TL_TCP, TL_OTHER };

static enum tl_class classify(const char *tl, size_t len)
{
    static const char *const memory[] = {"posix", "sysv", "xpmem", "knem", "cma", "cuda_ipc",
                                         "rocm_ipc", "cuda_copy", "rocm_copy", "gdr_copy", "mm"};
    static const char *const rdma[] = {"rc_verbs", "rc_mlx5", "dc_mlx5", "ud_verbs", "ud_mlx5",
                                       "rc", "dc", "ud", "srd", "efa"};
    char name[32];
    snprintf(name, sizeof(name), "%.*s", (int)(len < 31 ? len : 31), tl);
    if (strcmp(name, "self") == 0)
        return TL_SELF;
    if (strcmp(name, "tcp") == 0 || strcmp(name, "sockcm") == 0)
        return TL_TCP;
    for (size_t i = 0; i < sizeof(memory) / sizeof(*memory); i++)
        if (strcmp(name, memory[i]) == 0)
            return TL_MEMORY;
    for (size_t i = 0; i < sizeof(rdma) / sizeof(*rdma); i++)
        if (strcmp(name, rdma[i]) == 0)
            return TL_RDMA;
    return TL_OTHER;
}

/* Walk "name(tl/dev tl/dev) name(...)" and classify the data lanes. */
static void parse_lanes(const char *s, enum path_kind *kind, char **transports)
{
    bool self_first = false, any_tcp = false, any_rdma = false, any_mem = false, any = false;
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
                size_t slash = strcspn(t, "/");
                enum tl_class c = classify(t, slash < tlen ? slash : tlen);
                if (first_lane && t == body + strspn(body, " "))
                    self_first = c == TL_SELF;
                any_tcp |= c == TL_TCP;
                any_rdma |= c == TL_RDMA;
                any_mem |= c == TL_MEMORY;
                any = true;
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
    *kind = !any ? PATH_UNKNOWN : self_first ? PATH_SELF : any_tcp ? PATH_TCP
          : any_rdma ? PATH_RDMA : any_mem ? PATH_LOCAL : PATH_UNKNOWN;
    *transports = sv_join(&seen, " ");
    sv_free(&seen);
}

/* ep_cfg[ and cfg# both hold "cfg". */
bool ucx_wanted(const char *line)
{
    return strstr(line, "cfg") != NULL;
}

bool ucx_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                    long pid)
{
    const char *lanes = NULL;
    enum path_scope scope = SCOPE_UNKNOWN;
    const char *p = strstr(line, "ep_cfg[");
    if (p) {
        const char *colon = strstr(p, "]:");
        if (!colon)
            return false;
        lanes = colon + 2;
    } else if ((p = strstr(line, "cfg#"))) {
        /* the word before "cfg#" is the scope */
        const char *w = p;
        while (w > line && w[-1] == ' ')
            w--;
        const char *ws = w;
        while (ws > line && ws[-1] != ' ')
            ws--;
        size_t wl = (size_t)(w - ws);
        if (wl == 4 && strncmp(ws, "self", 4) == 0)
            scope = SCOPE_SELF;
        else if (wl == 10 && strncmp(ws, "intra-node", 10) == 0)
            scope = SCOPE_INTRA;
        else if (wl == 10 && strncmp(ws, "inter-node", 10) == 0)
            scope = SCOPE_INTER;
        else
            return false;
        lanes = p + 4 + strspn(p + 4, "0123456789");
    } else {
        return false;
    }
    enum path_kind kind;
    char *transports;
    parse_lanes(lanes, &kind, &transports);
    if (kind == PATH_UNKNOWN) {
        free(transports);
        return false;
    }
    if (scope == SCOPE_SELF)
        kind = PATH_SELF;
    else if (kind == PATH_SELF)
        scope = SCOPE_SELF;
    struct line_origin o;
    line_origin(line, host, pid, &o);
    evidence_add(ev, "ucx", o.host, o.pid, scope, kind, transports, line, where);
    free(o.host);
    free(transports);
    return true;
}
