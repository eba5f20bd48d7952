/* Open MPI's own reports of what it selected, at --mca pml_base_verbose,
 * btl_base_verbose and mtl_base_verbose (ob1, btl tcp, mtl ofi carry no UCX
 * or NCCL line):
 *   [node01:04321] mca: bml: Using tcp btl for send to [[41223,1],1] on node node02
 *   [node01:04321] btl: tcp: attempting to connect() to [[41223,1],1] address 10.0.0.2 on port 1024
 *   [node01:04321] mtl_ofi_component.c:343: mtl:ofi:provider: psm3
 *   [node01:04321] ... selected pml ob1, but peer [[41223,1],1] on node02 selected pml ucx
 * (opal/util/output.c's "[%s:%05d] " prefix; bml_r2.c, btl_tcp_endpoint.c,
 * common/ofi, pml_base_select.c.) */
#include "evidence/internal.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

bool ompi_wanted(const char *line)
{
    return strstr(line, "btl") || strstr(line, "mtl:ofi:prov") || strstr(line, "selected pml") ||
           strstr(line, "pml_ucx.c") || strstr(line, "cannot be selected") ||
           strstr(line, "MPI_INIT failed");
}

bool ompi_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid)
{
    struct line_origin o;
    line_origin(line, host, pid, &o);
    enum path_class cls = PC_UNKNOWN;
    enum path_scope scope = SCOPE_UNKNOWN;
    char *what = NULL;
    bool selected = false;
    const char *p;
    if ((strstr(line, "pml_ucx.c:") && strstr(line, "Error: ")) ||
        strstr(line, "PML ucx cannot be selected") || strstr(line, "MPI_INIT failed")) {
        /* pml_ucx.c "Error: Failed to create UCP worker", "ucp_ep_create(proc=%d)
         * failed", mca_pml_base_select's abort, the MPI_Init help text */
        evidence_error(ev, line, where);
        free(o.host);
        return true;
    }
    if ((p = strstr(line, "selected pml ")) && strstr(p, ", but peer ")) {
        evidence_failed(ev, line, where);   /* the job cannot run: its ranks disagree */
        free(o.host);
        return true;
    }
    if ((p = strstr(line, "mca: bml: Using "))) {
        p += strlen("mca: bml: Using ");
        size_t len = strcspn(p, " ");
        cls = path_class_of(VOCAB_OMPI_BTL, p, len);
        const char *node = strstr(p, " on node ");
        if (node && o.host) {
            node += strlen(" on node ");
            size_t nl = strcspn(node, " \r\n");
            scope = strlen(o.host) == nl && strncmp(node, o.host, nl) == 0 ? SCOPE_INTRA
                                                                           : SCOPE_INTER;
        }
        if (cls == PC_SELF)
            scope = SCOPE_SELF;
        what = xasprintf("btl %.*s", (int)len, p);
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
