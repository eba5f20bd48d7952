/* Where the ranks ran, as launchers and MPI libraries list them: no path,
 * but whether the job is on one node or several, which decides what a
 * library's choice of transport means (a tcp provider on one node carries
 * nothing). Every rank listed on one host proves one node; two hosts prove
 * two (a hostname shared by pods proves nothing, so only a listing counts):
 *   [cn21:08812] Rank 0 bound to package[0][core:0]          (PRRTE, Open MPI 5)
 *   [cn21:08812] MCW rank 0 bound to socket 0[core 0[hwt 0]]: [B/./.]   (Open MPI 4.1)
 *   [cn21:08812] MCW rank 1 is not bound (or bound to all available processors)
 *   [0] MPI startup(): 0       48210    a01r3n31   {0,1,2,3}   (Intel MPI's pinning table)
 *   [0] MPI startup(): 0       0          eth0       (2021.18's NIC pinning: no host)
 *   Hello world from processor cn07, rank 0 out of 2 processors   (mpitutorial)
 *   Hello world: rank 0 of 2 running on cn07                      (Intel MPI's test.c)
 *       [1] proxy: cn101 (1 cores)                                (Hydra's -verbose)
 *   $ mpirun_rsh -np 2 cn201 cn202 MV2_SHOW_ENV_INFO=1 ./app         (MVAPICH2's launcher:
 *     a host a rank, then VAR=VALUE, then the program)
 * (odls_base_bind.c, rtc_hwloc.c, the I_MPI_DEBUG=4 table, Hydra's uiu.c.) */
#include "evidence/internal.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ranks_wanted(const char *line)
{
    return strstr(line, " bound") || strstr(line, "MPI startup(): ") || strstr(line, "Hello world") ||
           strstr(line, "proxy: ") || strstr(line, "mpirun_rsh ");
}

/* A host name's characters, as far as they go. */
static size_t name_len(const char *s)
{
    size_t n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '-' || s[n] == '.' || s[n] == '_')
        n++;
    return n;
}

/* mpirun_rsh's command line: "-np N" and N host names (a hostfile's are not
 * on it), up to the first VAR=VALUE or path. */
static bool mpirun_rsh_hosts(struct evidence *ev, const char *p)
{
    const char *np = strstr(p, " -np ");
    if (!np)
        return false;
    char *end;
    long n = strtol(np + 5, &end, 10);
    if (n <= 0 || *end != ' ')
        return false;
    const char *h = end;
    long listed = 0;
    for (; listed < n; listed++) {
        h += strspn(h, " ");
        size_t len = name_len(h);
        if (!len || (h[len] != ' ' && h[len] != '\0'))
            break;   /* "VAR=VALUE", "./app", "-hostfile": not a host */
        char *name = xstrndup(h, len);
        evidence_rank_host(ev, name);
        free(name);
        h += len;
    }
    if (listed == n && n > ev->ranks)
        ev->ranks = n;
    return listed > 0;
}

bool ranks_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                      long pid)
{
    (void)where;
    const char *p;
    long n = 0;
    char *name = NULL;
    if (((p = strstr(line, " rank ")) || (p = strstr(line, "] Rank "))) &&
        (strstr(p, " bound to ") || strstr(p, " is not bound"))) {
        struct line_origin o;
        line_origin(line, host, pid, &o);
        name = o.host;   /* the daemon of the rank's node prints it */
    } else if ((p = strstr(line, "MPI startup(): ")) && isdigit((unsigned char)p[15])) {
        /* A CPU pinning row: rank, pid, host, then the CPU set in braces.
         * 2021.18's NIC pinning table ("0       0          eth0": rank,
         * thread, NIC) is no host listing. Each row counts its rank. */
        long rank, rpid;
        int used = 0;
        const char *h = p + 15;
        if (sscanf(h, "%ld %ld %n", &rank, &rpid, &used) == 2 && used > 0 && rank >= 0 &&
            rank < 100000000 && rpid > 0 && name_len(h + used) > 0 &&
            h[used + name_len(h + used) + strspn(h + used + name_len(h + used), " \t")] == '{') {
            name = xstrndup(h + used, name_len(h + used));
            n = rank + 1;
        }
    } else if ((p = strstr(line, "Hello world from processor "))) {
        p += strlen("Hello world from processor ");
        name = xstrndup(p, name_len(p));
        const char *of = strstr(p, " out of ");
        n = of ? strtol(of + 8, NULL, 10) : 0;
    } else if ((p = strstr(line, "Hello world: rank ")) && (p = strstr(p, " running on "))) {
        p += strlen(" running on ");
        name = xstrndup(p, name_len(p));
        const char *of = strstr(line, " of ");
        n = of ? strtol(of + 4, NULL, 10) : 0;
    } else if (starts_with(line, "proxy: ") || (p = strstr(line, "] proxy: "))) {
        /* "[1] " is taken for a rank's number and already looked past */
        p = strstr(line, "proxy: ") + strlen("proxy: ");
        name = xstrndup(p, name_len(p));
    }
    if (!name && (p = strstr(line, "mpirun_rsh ")) && mpirun_rsh_hosts(ev, p))
        return true;
    if (!name || !*name) {
        free(name);
        return false;
    }
    evidence_rank_host(ev, name);
    if (n > ev->ranks)
        ev->ranks = n;
    free(name);
    return true;
}
