/* MPICH's ch3 device over TCP, which prints no line while it works: its
 * error stacks name the netmod in their frames (src/mpi/errhan/errutil.c,
 * "FUNC(LINE)....: message"), and ch3:nemesis sends only the paths
 * between nodes through its netmod (the node's ranks share memory):
 *   MPID_nem_tcp_connpoll(1845): Communication error with rank 1: Connection refused
 *   MPID_nem_tcp_connect(807)..: Unable to establish connection to rank 3
 * (src/mpid/ch3/channels/nemesis/netmod/tcp/socksm.c, texts in
 * src/mpi/errhan/errnames.txt), and ch3:sock's "[ch3:sock] rank 13 unable
 * to connect to rank 12 using business card <...>". Each is TCP chosen
 * for a path to a peer and failing on it. MPICH's ch4 lines are
 * libfabric.c's ("libfabric provider: ...") and ucx.c's. */
#include "evidence/internal.h"
#include <string.h>

static const struct {
    const char *frame;    /* in the line */
    const char *source;
} tcp_frames[] = {
    {"MPID_nem_tcp_", "ch3/channels/nemesis/netmod/tcp (socksm.c, tcp_send.c, tcp_init.c)"},
    {"[ch3:sock]", "ch3/channels/sock (MPICH 1.x, MPICH2 on Windows)"},
};

bool mpich_wanted(const char *line)
{
    return strstr(line, "MPID_nem_tcp_") || strstr(line, "[ch3:sock]");
}

bool mpich_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                      long pid)
{
    for (size_t i = 0; i < sizeof(tcp_frames) / sizeof(*tcp_frames); i++) {
        if (!strstr(line, tcp_frames[i].frame))
            continue;
        /* the error stack names no host or pid: the process is unknown,
         * whether the peer shares its node is not said (MPIR_CVAR_NOLOCAL
         * sends a node's ranks through the netmod too) */
        evidence_add(ev, "mpich", host, pid, SCOPE_UNKNOWN, PC_TCP, "ch3 tcp", line, where);
        if (strstr(line, "Communication error") || strstr(line, "Unable to establish") ||
            strstr(line, "unable to connect"))
            evidence_error(ev, line, where);
        return true;
    }
    return false;
}
