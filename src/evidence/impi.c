/* Intel MPI's report of its fabric, at I_MPI_DEBUG >= 1 (Intel MPI Library
 * Developer Reference, "Other Environment Variables", I_MPI_DEBUG):
 *   [0] MPI startup(): libfabric provider: tcp;ofi_rxm
 *   [0#3520@clusternode1] MPI startup(): libfabric provider: mlx
 *   [0] MPI startup(): Intel(R) MPI Library, Version 2021.12  Build 20240213
 *   [0] MPI startup(): single node launch is detected with spawn support disabled.
 *       Defaulting to shm fabric.                      (I_MPI_DEBUG >= 6, 2021.x)
 *   [0] MPI startup(): I_MPI_FABRICS=shm               (the variables, I_MPI_DEBUG >= 5)
 * With the mlx (UCX) provider, UCX's own lines tell the lanes; on one node
 * Intel MPI opens no provider at all, and the line above says so. With
 * I_MPI_FABRICS=ofi (no shm) every message between ranks goes through the
 * provider, on one node too (measured over rxe: the ranks' RC QPs in RTS,
 * 2021.18 with verbs;ofi_rxm): the provider is then a path the ranks used,
 * not only what would carry traffic between nodes. */
#include "evidence/internal.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* Intel MPI's family state: the libfabric provider it names, and whether its
 * fabric is ofi alone (I_MPI_FABRICS=ofi: no shm), when the provider carries
 * the ranks' traffic within a node too, and whether that path was recorded. */
struct impi_state {
    char *provider;
    bool ofi_only, ofi_path;
};

void *impi_state_new(void) { return xcalloc(1, sizeof(struct impi_state)); }
void impi_state_free(void *state) { free(((struct impi_state *)state)->provider); }

bool impi_wanted(const char *line)
{
    return strstr(line, "MPI startup()") != NULL;
}

/* The provider as the ranks' path, once both lines are read (in either
 * order): its kind decides, and where the job spans nodes, TCP is a
 * fallback as any path on TCP not known to stay on the node. */
static void ofi_path(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid)
{
    struct impi_state *st = evidence_family_state(ev, FAMILY_IMPI);
    if (!st->ofi_only || !st->provider || st->ofi_path)
        return;
    st->ofi_path = true;
    struct line_origin o;
    line_origin(line, host, pid, &o);
    /* the provider's name is the lane, as UCX's transport/device is */
    evidence_add(ev, "impi", o.host, o.pid, SCOPE_UNKNOWN,
                 provider_class(st->provider, strlen(st->provider)), st->provider,
                 line, where);
    free(o.host);
}

bool impi_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid)
{
    const char *p;
    if ((p = strstr(line, "Intel(R) MPI Library, Version "))) {
        p += strlen("Intel(R) MPI Library, Version ");
        evidence_version(ev, "Intel MPI", p, strcspn(p, " \r\n"));
        return false;
    }
    const char *fab = strstr(line, "MPI startup(): I_MPI_FABRICS=");
    bool shm_only = fab && strncmp(fab + strlen("MPI startup(): I_MPI_FABRICS="), "shm",
                                   3) == 0 &&
                    strchr(" \r\n", fab[strlen("MPI startup(): I_MPI_FABRICS=shm")]) != NULL;
    if (strstr(line, "Defaulting to shm fabric") || shm_only) {
        struct line_origin o;
        line_origin(line, host, pid, &o);
        evidence_selected(ev, "impi", o.host, o.pid, PC_SHM,
                          shm_only ? "shm fabric (I_MPI_FABRICS=shm)"
                                   : "shm fabric (a single node launch)", line, where);
        free(o.host);
        return true;
    }
    bool ofi_only = fab && strncmp(fab + strlen("MPI startup(): I_MPI_FABRICS="), "ofi", 3) == 0 &&
                    strchr(" \r\n", fab[strlen("MPI startup(): I_MPI_FABRICS=ofi")]) != NULL;
    if (ofi_only) {
        ((struct impi_state *)evidence_family_state(ev, FAMILY_IMPI))->ofi_only = true;
        ofi_path(ev, line, where, host, pid);
        return true;
    }
    if (!(p = strstr(line, "libfabric provider: ")))
        return false;
    p += strlen("libfabric provider: ");
    size_t len = strcspn(p, " \r\n");
    enum path_class cls = provider_class(p, len);
    if (cls == PC_UNKNOWN)
        return false;
    struct line_origin o;
    line_origin(line, host, pid, &o);
    char *what = xasprintf("libfabric provider %.*s", (int)len, p);
    /* The provider carries traffic between nodes, if the job has any. */
    evidence_selected(ev, "impi", o.host, o.pid, cls, what, line, where);
    free(what);
    free(o.host);
    struct impi_state *st = evidence_family_state(ev, FAMILY_IMPI);
    free(st->provider);
    st->provider = xstrndup(p, len);
    ofi_path(ev, line, where, host, pid);
    return true;
}
