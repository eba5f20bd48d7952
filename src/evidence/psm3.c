/* psm3's own lines (libfabric prov/psm3, Intel MPI and Open MPI through
 * it), from its sources:
 * - PSM3_IDENTIFY=1 (psm_utils.c psm3_print_identify and
 *   psm3_print_ep_identify), each line "LABEL PSM3_IDENTIFY WHAT", LABEL
 *   being "host:rankN" or "host:pidN" (utils/utils_debug.c
 *   psm3_get_mylabel):
 *     "HAL: verbs (RDMA Verbs) ..." | "HAL: sockets (TCP Sockets)"  the HAL
 *     "NIC 0 (mlx5_0) Port 1 100000 Mbps NUMA 0 IP=10.0.0.1 QP=17"  the NIC's
 *         address (psm3_epid_fmt_addr: "LID=... GID=... QP=" over IB/OPA,
 *         "IP=... QP=" over RoCE, "IP=... TCP=" or "UDP=" over sockets),
 *         " loopback" at the end when the NIC carries the node's own ranks
 *     "EP: shm" (no NIC: within the node only), "EP: self",
 *     "Global Rank %d (%d total) Local Rank %d (%d total)" (the job's ranks
 *         and the node's: fewer on the node means several nodes);
 *   what the process will send over, not a path to a peer, except where
 *   the node's own traffic is named;
 * - the NIC failing to open (psm_context.c: "PSM3 can't open nic unit: %ld",
 *   "PSM3 no nic units are available", "PSM3 no nic units are active";
 *   hal_verbs/verbs_ep.c "Unable to open rendezvous module"): RDMA chosen
 *   and lost before any data. */
#include "evidence/internal.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IDENTIFY " PSM3_IDENTIFY "

bool psm3_wanted(const char *line)
{
    return strstr(line, "PSM3") != NULL || strstr(line, "rendezvous module") != NULL;
}

/* "host:rank2" before the tag: the host, and the rank or pid as the
 * process's key. */
static void psm3_label(const char *line, const char *tag, const char *host, long pid,
                       struct line_origin *o)
{
    const char *start = tag;
    while (start > line && start[-1] != ' ' && start[-1] != '\t')
        start--;
    const char *colon = memchr(start, ':', (size_t)(tag - start));
    o->host = host ? xstrdup(host) : NULL;
    o->pid = pid;
    if (!colon || colon == start)
        return;
    free(o->host);
    o->host = xstrndup(start, (size_t)(colon - start));
    if (strncmp(colon, ":rank", 5) == 0 || strncmp(colon, ":pid", 4) == 0)
        o->pid = strtol(colon + (colon[1] == 'r' ? 5 : 4), NULL, 10);
}

/* The NIC line's address: its class, or PC_UNKNOWN. */
static enum path_class nic_class(const char *what)
{
    if (strstr(what, " LID=") || (strstr(what, " IP=") && strstr(what, " QP=")))
        return PC_RDMA;
    if (strstr(what, " IP=") && (strstr(what, " TCP=") || strstr(what, " UDP=")))
        return PC_TCP;
    return PC_UNKNOWN;
}

/* "Global Rank 0 (4 total) Local Rank 0 (2 total)": fewer ranks on the
 * node than in the job puts it on several nodes (counted, not named). */
static void rank_counts(struct evidence *ev, const char *what)
{
    long rank, global, local_rank, local;
    if (sscanf(what, "Global Rank %ld (%ld total) Local Rank %ld (%ld total)", &rank, &global,
               &local_rank, &local) != 4 || global < 1 || local < 1 || local > global)
        return;
    if (global > ev->ranks)
        ev->ranks = global;
    long nodes = local < global ? 2 : 1;
    if (nodes > ev->nodes)
        ev->nodes = nodes;
}

static bool identify_line(struct evidence *ev, const char *what, const struct line_origin *o,
                          const char *line, const char *where)
{
    enum path_class cls = PC_UNKNOWN;
    rank_counts(ev, what);
    bool selected = true;
    if (strncmp(what, "HAL: ", 5) == 0) {
        cls = path_class_of(VOCAB_PSM3_HAL, what + 5, strcspn(what + 5, " \r\n"));
        selected = cls != PC_SELF;
    } else if (strncmp(what, "NIC ", 4) == 0) {
        cls = nic_class(what);
        size_t len = strcspn(what, "\r\n");
        if (cls != PC_UNKNOWN && len > 9 && strncmp(what + len - 9, " loopback", 9) == 0) {
            cls = path_class_looped(cls);   /* the node's own ranks, through the NIC */
            selected = false;
        }
    } else if (strncmp(what, "EP: shm", 7) == 0 || strncmp(what, "EP: self", 8) == 0) {
        cls = what[4] == 's' && what[5] == 'h' ? PC_SHM : PC_SELF;
        selected = false;
    }
    if (cls == PC_UNKNOWN)
        return false;
    size_t len = strcspn(what, "(\r\n");
    while (len && what[len - 1] == ' ')
        len--;
    char *words = xstrndup(what, len);   /* "HAL: verbs", "NIC 0", "EP: shm" */
    if (selected)
        evidence_selected(ev, "psm3", o->host, o->pid, cls, words, line, where);
    else
        evidence_add(ev, "psm3", o->host, o->pid, cls == PC_SELF ? SCOPE_SELF : SCOPE_INTRA, cls,
                     words, line, where);
    free(words);
    return true;
}

bool psm3_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid)
{
    const char *tag = strstr(line, IDENTIFY);
    if (tag) {
        struct line_origin o;
        psm3_label(line, tag, host, pid, &o);
        bool used = identify_line(ev, tag + strlen(IDENTIFY), &o, line, where);
        free(o.host);
        return used;
    }
    if (strstr(line, "PSM3 can't open nic unit") || strstr(line, "PSM3 no nic units are") ||
        strstr(line, "Unable to open rendezvous module")) {
        evidence_failed(ev, line, where);
        return true;
    }
    return false;
}
