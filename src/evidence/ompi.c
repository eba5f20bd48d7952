/* Open MPI's own reports of what it selected, at --mca pml_base_verbose,
 * btl_base_verbose and mtl_base_verbose (ob1, btl tcp, mtl ofi carry no UCX
 * or NCCL line):
 *   [node01:04321] mca: bml: Using tcp btl for send to [[41223,1],1] on node node02
 *   [node01:04321] btl: tcp: attempting to connect() to [[41223,1],1] address 10.0.0.2 on port 1024
 *   [node01:04321] mtl_ofi_component.c:343: mtl:ofi:provider: psm3
 *   [node01:04321] ... selected pml ob1, but peer [[41223,1],1] on node02 selected pml ucx
 * (opal/util/output.c's "[%s:%05d] " prefix; bml_r2.c, btl_tcp_endpoint.c,
 * common/ofi, pml_base_select.c.) And its help messages, framed by lines
 * of dashes (opal_show_help), whose first sentence says the BTL and whose
 * "Local host:" and "Peer host:" lines the two ends (help_topics below). */
#include "evidence/internal.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* An Open MPI help message being read (its family's state): its class + 1
 * (0: none open), the "Local host:" it names, and whether a line of it has
 * been recorded. */
struct ompi_help {
    int cls;
    char host[128];
    bool recorded;
};

void *ompi_state_new(void) { return xcalloc(1, sizeof(struct ompi_help)); }

/* Help messages that name a path between two processes: the first words
 * of their text (help-*.txt), the class, and whether they end the job. */
static const struct help_topic {
    const char *opening;
    enum path_class cls;
    bool error;
    const char *source;
} help_topics[] = {
    {"Open MPI failed to TCP connect to a peer MPI process", PC_TCP, true,
     "help-mpi-btl-tcp.txt [client connect fail], btl_tcp_endpoint.c"},
    {"Open MPI failed to handshake with a peer MPI process", PC_TCP, true,
     "help-mpi-btl-tcp.txt [client handshake fail]"},
    {"An MPI communication peer process has unexpectedly disconnected", PC_TCP, false,
     "help-mpi-btl-tcp.txt [peer hung up], btl_tcp_frag.c"},
    {"detected an inbound MPI TCP connection request from a peer", PC_TCP, false,
     "help-mpi-btl-tcp.txt [dropped inbound connection], btl_tcp_proc.c"},
    {"Open MPI accepted a TCP connection from what appears to be a", PC_TCP, false,
     "help-mpi-btl-tcp.txt [server accept cannot find guid]"},
    {"The InfiniBand retry count between two MPI processes has been", PC_RDMA, true,
     "help-mpi-btl-openib.txt [pp retry exceeded] (<= 4.1)"},
};

bool ompi_wanted(const char *line)
{
    return strstr(line, "btl") || strstr(line, "mtl:ofi:prov") || strstr(line, "selected pml") ||
           strstr(line, "pml_ucx.c") || strstr(line, "cannot be selected") ||
           strstr(line, "pml framework") || strstr(line, "MPI_INIT failed") || strstr(line, "Open MPI ") ||
           strstr(line, " host:") || strstr(line, " hostname:") || strstr(line, "Message:") ||
           strstr(line, "MPI communication peer") || strstr(line, "InfiniBand retry count") ||
           strstr(line, "-----");
}

/* A help message's line that names the peer ("Peer host:", "Peer
 * hostname:", "Message:    connect() to 10.0.0.2:1024 failed"): recorded
 * with where it puts the two ends. */
static bool help_peer(struct evidence *ev, const char *body, const char *line, const char *where,
                      const char *host, long pid)
{
    struct ompi_help *h = evidence_family_state(ev, FAMILY_OMPI);
    const char *peer = NULL;
    size_t plen = 0;
    if (strncmp(body, "Peer host", 9) == 0 && (peer = strchr(body, ':'))) {
        peer += 1 + strspn(peer + 1, " \t");
        plen = strcspn(peer, " \t\r\n");
    } else if (strncmp(body, "Message:", 8) == 0 && (peer = strstr(body, "connect() to "))) {
        peer += strlen("connect() to ");
        if (*peer == '[')   /* "[::1]:1024" */
            plen = strcspn(++peer, "]\r\n");
        else
            plen = strcspn(peer, ": \t\r\n");
    }
    if (!peer || !plen)
        return false;
    enum path_class cls = (enum path_class)(h->cls - 1);
    /* the hostnames alone never put two processes on one node (pods and
     * containers repeat them): only different names, or a loopback address */
    bool other = h->host[0] && strncmp(body, "Peer", 4) == 0 &&
                 (strlen(h->host) != plen || strncmp(h->host, peer, plen) != 0);
    enum path_scope scope = loopback_name(peer, plen) ? SCOPE_INTRA
                            : other                   ? SCOPE_INTER : SCOPE_UNKNOWN;
    char *what = xasprintf("%s to %.*s", cls == PC_TCP ? "btl tcp" : "btl openib", (int)plen, peer);
    evidence_add(ev, "ompi", h->host[0] ? h->host : host, pid, scope, cls, what, line, where);
    free(what);
    h->recorded = true;
    return true;
}

/* A help message's first line (help_topics), its closing dashes (a message
 * that named no peer is recorded then), opal_show_help's folded repeats. */
static bool help_frame(struct evidence *ev, const char *body, const char *line,
                       const char *where, const char *host, long pid)
{
    struct ompi_help *h = evidence_family_state(ev, FAMILY_OMPI);
    if (strncmp(body, "----------", 10) == 0 && body[strspn(body, "-")] <= ' ') {
        bool closing = h->cls && !h->recorded;
        enum path_class cls = closing ? (enum path_class)(h->cls - 1) : PC_UNKNOWN;
        if (closing)
            evidence_add(ev, "ompi", h->host[0] ? h->host : host, pid, SCOPE_UNKNOWN, cls,
                         path_class_name(cls), line, where);
        h->cls = 0;
        return closing;
    }
    for (size_t i = 0; i < sizeof(help_topics) / sizeof(*help_topics); i++)
        if (strstr(line, help_topics[i].opening)) {
            *h = (struct ompi_help){(int)help_topics[i].cls + 1, "", false};
            if (help_topics[i].error && help_topics[i].cls == PC_TCP)
                evidence_error(ev, line, where);
            else if (help_topics[i].error)
                evidence_fault(ev, line, where);
            return false;
        }
    const char *folded = strstr(line, "have sent help message help-mpi-btl-tcp.txt");
    if (folded) {   /* "[host:pid] 3 more processes have sent help message ..." */
        struct line_origin o;
        line_origin(line, host, pid, &o);
        evidence_add(ev, "ompi", o.host, o.pid, SCOPE_UNKNOWN, PC_TCP, "btl tcp", line, where);
        free(o.host);
    }
    return folded != NULL;
}

/* A line of a help message: its frame, its host or its peer, recorded once
 * per message. */
static bool help_line(struct evidence *ev, const char *line, const char *where, const char *host,
                      long pid)
{
    struct ompi_help *h = evidence_family_state(ev, FAMILY_OMPI);
    const char *body = line + strspn(line, " \t");
    if (help_frame(ev, body, line, where, host, pid))
        return true;
    if (!h->cls || h->recorded)
        return false;
    if (strncmp(body, "Local host:", 11) == 0) {
        const char *v = body + 11 + strspn(body + 11, " \t");
        snprintf(h->host, sizeof(h->host), "%.*s", (int)strcspn(v, " \t\r\n"), v);
        return false;
    }
    return help_peer(ev, body, line, where, host, pid);
}

/* Open MPI's errors that end a job before any path: pml_ucx.c "Error:
 * Failed to create UCP worker", "ucp_ep_create(proc=%d) failed",
 * mca_pml_base_select's abort (Open MPI 5: help-mca-base.txt's
 * "find-available:none found" for the pml framework), the MPI_Init help
 * text; and two ranks that selected different pmls. Whether the line was
 * one. */
static bool ompi_failure(struct evidence *ev, const char *line, const char *where)
{
    const char *p;
    if ((strstr(line, "pml_ucx.c:") && strstr(line, "Error: ")) ||
        (strstr(line, "PML ") && strstr(line, " cannot be selected")) ||
        strstr(line, "No components were able to be opened in the pml framework") ||
        strstr(line, "MPI_INIT failed")) {
        evidence_error(ev, line, where);
        return true;
    }
    if ((p = strstr(line, "selected pml ")) && strstr(p, ", but peer ")) {
        evidence_failed(ev, line, where);   /* the job cannot run: its ranks disagree */
        return true;
    }
    return false;
}

/* "mca: bml: Using BTL ... on node N": the btl's class, its scope by the
 * node it names (this process's host: within the node). */
static char *bml_using(const char *p, const char *host, enum path_class *cls,
                       enum path_scope *scope)
{
    p += strlen("mca: bml: Using ");
    size_t len = strcspn(p, " ");
    *cls = path_class_of(VOCAB_OMPI_BTL, p, len);
    const char *node = strstr(p, " on node ");
    if (node && host) {
        node += strlen(" on node ");
        size_t nl = strcspn(node, " \r\n");
        *scope = strlen(host) == nl && strncmp(node, host, nl) == 0 ? SCOPE_INTRA : SCOPE_INTER;
    }
    if (*cls == PC_SELF)
        *scope = SCOPE_SELF;
    return xasprintf("btl %.*s", (int)len, p);
}

bool ompi_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid)
{
    if (help_line(ev, line, where, host, pid) || ompi_failure(ev, line, where))
        return true;
    struct line_origin o;
    line_origin(line, host, pid, &o);
    enum path_class cls = PC_UNKNOWN;
    enum path_scope scope = SCOPE_UNKNOWN;
    char *what = NULL;
    bool selected = false;
    const char *p;
    if ((p = strstr(line, "mca: bml: Using "))) {
        what = bml_using(p, o.host, &cls, &scope);
    } else if ((p = strstr(line, "btl: tcp: attempting to connect() to "))) {
        cls = PC_TCP;
        const char *addr = strstr(p, " address ");
        what = addr ? xasprintf("btl tcp to %.*s", (int)strcspn(addr + 9, " "), addr + 9)
                    : xstrdup("btl tcp");
    } else if ((p = strstr(line, "mtl:ofi:prov: ")) || (p = strstr(line, "mtl:ofi:provider: "))) {
        /* 5.0: "mtl:ofi:provider: NAME"; 4.1: "mtl:ofi:prov: NAME", then
         * "mtl:ofi:provider: DOMAIN" (hfi1_0, mlx5_0), which names no provider */
        p += strlen(p[12] == ':' ? "mtl:ofi:prov: " : "mtl:ofi:provider: ");
        size_t len = strcspn(p, " \r\n");
        cls = provider_class(p, len);
        what = xasprintf("mtl ofi provider %.*s", (int)len, p);
        selected = true;
    }
    bool ok = cls != PC_UNKNOWN;
    if (ok && selected)   /* the mtl's provider: chosen for the job, no peer named */
        evidence_selected(ev, "ompi", o.host, o.pid, cls, what, line, where);
    else if (ok)
        evidence_add(ev, "ompi", o.host, o.pid, scope, cls, what, line, where);
    free(what);
    free(o.host);
    return ok;
}
