/* LIBEXECDIR/rdmarun/ucx-pair: UCX's own ucx_perftest as the benchmark of
 * 'rdmarun tune --benchmark ucx'. ucx_perftest as Debian (and most sites)
 * build it has no MPI: a test is a server process and a client that
 * connects to it over TCP (-p PORT) and tells it what to run. For each test
 * and message size this starts the server, starts the client once the
 * server listens, and prints one line in the form tune's metric reads:
 *   tag_lat size=8 iters=1000 time_us=0.370 bandwidth_MiBps=20.60
 * Both processes get this one's environment (the plan's UCX_* and UCX's
 * log level), and all they print but the client's CSV passes on, so the
 * UCX lines the verdict reads reach rdmarun.
 * Usage: ucx-pair [-n ITERS] [-t TEST[,TEST...]] [SIZE...]
 * (default 1000 iterations, tag_lat and tag_bw, 8 B, 1 KiB, 64 KiB, 1 MiB). */
#include "tune/perftest.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define LISTEN_WAIT_S 60.0    /* a loaded node may take long to start UCX */
#define SERVER_END_S 30.0     /* the server ends with its client's test */
#define PORT_TRIES 3          /* a free port can be taken before the server binds it */

/* "-P 0" when this ucx_perftest has an MPI mode (built with MPI, as
 * Debian 13's is, it is on by default and a process started alone waits
 * for a second rank), as its own help lists it; else nothing. */
static const char *no_mpi[2];

/* A TCP port no one listens on now: the kernel's pick for port 0. */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t len = sizeof(a);
    int port = -1;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

/* Whether process pid holds the socket with this inode. */
static bool holds_socket(pid_t pid, unsigned long inode)
{
    char dir[64], want[64], link[64];
    snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
    snprintf(want, sizeof(want), "socket:[%lu]", inode);
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        char path[320];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        ssize_t n = readlink(path, link, sizeof(link) - 1);
        found = n > 0 && (size_t)n == strlen(want) && memcmp(link, want, (size_t)n) == 0;
    }
    if (d)
        closedir(d);
    return found;
}

/* Whether the server listens on port: a LISTEN row of /proc/net/tcp (its
 * fourth column 0A) for the port whose socket the server holds (not
 * another program that took the port first). Its stdout says "Waiting for
 * connection..." too, but only when it ends (a pipe is fully buffered). */
static bool listening(pid_t pid, int port)
{
    FILE *f = fopen("/proc/net/tcp", "re");
    char line[512];
    bool yes = false;
    while (f && !yes && fgets(line, sizeof(line), f)) {
        unsigned lport, st;
        unsigned long inode;
        if (sscanf(line, " %*d: %*x:%x %*x:%*x %x %*x:%*x %*x:%*x %*x %*u %*d %lu", &lport, &st,
                   &inode) == 3 && (int)lport == port && st == 0x0A)
            yes = holds_socket(pid, inode);
    }
    if (f)
        fclose(f);
    return yes;
}

/* Start the server on a free port and wait until it listens: 1, or 0 when
 * it ended first (the port was taken: try another), -1 on an error said. */
static int start_server(struct proc *srv, int *port)
{
    *port = free_port();
    if (*port < 0) {
        rr_error("ucx-pair: no free TCP port: %s", strerror(errno));
        return -1;
    }
    char pstr[16];
    snprintf(pstr, sizeof(pstr), "%d", *port);
    char *argv[] = {"ucx_perftest", "-p", pstr, (char *)no_mpi[0], (char *)no_mpi[1], NULL};
    struct proc_spec s = {.argv = argv, .out = PROC_INHERIT, .err = PROC_INHERIT,
                          .die_with_parent = true};
    if (proc_start(&s, srv) != 0) {
        rr_error("ucx-pair: cannot run ucx_perftest: %s (hint: install UCX's tools, Debian's "
                 "ucx-utils)", strerror(errno));
        return -1;
    }
    double deadline = proc_now() + LISTEN_WAIT_S;
    while (!listening(srv->pid, *port)) {
        int status;
        if (proc_wait(srv, proc_now() + 0.01, &status))
            return 0;
        if (proc_now() > deadline) {
            proc_kill(srv, SIGKILL);
            rr_error("ucx-pair: ucx_perftest's server did not listen on port %d within %.0f s",
                     *port, LISTEN_WAIT_S);
            return -1;
        }
    }
    return 1;
}

/* One test at one size: the client's final figures in *r. */
static bool run_pair(const char *test, const char *size, const char *iters,
                     struct perftest_result *r)
{
    struct proc srv;
    int port, up = 0;
    for (int i = 0; i < PORT_TRIES && up == 0; i++)
        up = start_server(&srv, &port);
    if (up <= 0) {
        if (up == 0)
            rr_error("ucx-pair: ucx_perftest's server ended before it listened, %d times",
                     PORT_TRIES);
        return false;
    }
    char pstr[16];
    snprintf(pstr, sizeof(pstr), "%d", port);
    char *argv[] = {"ucx_perftest", "-p", pstr, "127.0.0.1", "-t", (char *)test, "-s",
                    (char *)size, "-n", (char *)iters, "-w", "100", "-v", (char *)no_mpi[0],
                    (char *)no_mpi[1], NULL};
    struct proc_spec s = {.argv = argv, .out = PROC_PIPE, .err = PROC_INHERIT,
                          .die_with_parent = true};
    struct proc cli;
    bool ok = false, csv = false;
    if (proc_start(&s, &cli) != 0) {
        rr_error("ucx-pair: cannot run ucx_perftest: %s", strerror(errno));
        proc_kill(&srv, SIGKILL);
        return false;
    }
    /* Its output: the CSV is read, every other line passes on (UCX's). */
    FILE *out = fdopen(cli.out, "r");
    char line[4096];
    while (out && fgets(line, sizeof(line), out)) {
        size_t len = strcspn(line, "\n");
        bool whole = line[len] == '\n';
        line[len] = '\0';
        if (whole && perftest_csv_header(line))
            csv = true;
        else if (whole && csv && perftest_csv_row(line, r))
            ok = true;
        else
            printf("%s%s", line, whole ? "\n" : "");
        fflush(stdout);
    }
    if (out)
        fclose(out);
    int status = 0, sstatus;
    proc_wait(&cli, -1, &status);
    if (!proc_wait(&srv, proc_now() + SERVER_END_S, &sstatus))
        proc_kill(&srv, SIGKILL);
    if (proc_exit_code(status) != 0 || !ok) {
        rr_error("ucx-pair: ucx_perftest -t %s -s %s failed (status %d%s)", test, size,
                 proc_exit_code(status), ok ? "" : ", no final figures");
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    const char *iters = "1000", *tests = "tag_lat,tag_bw";
    struct strvec sizes = {0}, names = {0};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i += 2) {
        long n;
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc && parse_long(argv[i + 1], 1, 1L << 30, &n))
            iters = argv[i + 1];
        else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc && is_printable(argv[i + 1]))
            tests = argv[i + 1];
        else {
            rr_error("ucx-pair: usage: ucx-pair [-n ITERS] [-t TEST[,TEST...]] [SIZE...]");
            return RR_EX_USAGE;
        }
    }
    for (; i < argc; i++) {
        long n;
        if (!parse_long(argv[i], 1, 1L << 40, &n)) {
            rr_error("ucx-pair: message size '%s' is not a number of bytes", argv[i]);
            return RR_EX_USAGE;
        }
        sv_push(&sizes, argv[i]);
    }
    if (!sizes.n) {
        const char *dflt[] = {"8", "1024", "65536", "1048576"};
        for (size_t k = 0; k < sizeof(dflt) / sizeof(*dflt); k++)
            sv_push(&sizes, dflt[k]);
    }
    sv_split(&names, tests, ",");
    char *help_argv[] = {"ucx_perftest", "-h", NULL};
    struct proc_spec hs = {.argv = help_argv, .out = PROC_PIPE, .err = PROC_NULL,
                           .err_to_out = true};
    char *help = NULL;
    bool timed_out;
    if (proc_capture(&hs, 30, 1 << 20, &help, &timed_out) >= 0 && help &&
        strstr(help, "-P <0|1>")) {
        no_mpi[0] = "-P";
        no_mpi[1] = "0";
    }
    free(help);
    int rc = 0;
    for (size_t t = 0; !rc && t < names.n; t++)
        for (size_t k = 0; !rc && k < sizes.n; k++) {
            struct perftest_result r;
            if (!run_pair(names.v[t], sizes.v[k], iters, &r))
                rc = 1;
            else
                printf("%s size=%s iters=%ld time_us=%.3f bandwidth_MiBps=%.2f\n", names.v[t],
                       sizes.v[k], r.iterations, r.latency_us, r.bandwidth_mbs);
            fflush(stdout);
        }
    sv_free(&sizes);
    sv_free(&names);
    return rc;
}
