#include "cmd/job_hosts.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/strmap.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool named(const char *opt, const char *const *names)
{
    const char *n = opt + (opt[1] == '-' ? 2 : 1);
    for (size_t i = 0; names[i]; i++)
        if (strcmp(n, names[i]) == 0)
            return true;
    return false;
}

/* The hosts named so far: each once, by name (slots dropped: "a:4" and
 * "a slots=2" are a), through a hash index (100,000 hosts were a scan
 * each). */
struct hosts {
    struct strvec *out;
    struct strmap seen;
    char self[256];
};

/* localhost is this node, whose peer reports its own name. */
static void push_hosts(struct hosts *hs, const char *list)
{
    struct strvec items = {0};
    sv_split(&items, list, ",");
    for (size_t i = 0; i < items.n; i++) {
        const char *h = items.v[i];
        char *name = xstrndup(h, strcspn(h, ":"));
        const char *host = strcmp(name, "localhost") == 0 ? hs->self : name;
        size_t at;
        if (*host && !strmap_get(&hs->seen, host, &at)) {
            strmap_put(&hs->seen, host, hs->out->n);
            sv_push(hs->out, host);
        }
        free(name);
    }
    sv_free(&items);
}

/* A hostfile's lines, read whole (a comment longer than any buffer stays
 * one line: its tail is never a host), up to HOSTFILE_MAX_LINE bytes each
 * and HOSTFILE_MAX_BYTES in all, said when past either. */
#define HOSTFILE_MAX_LINE (64 * 1024)
#define HOSTFILE_MAX_BYTES (256L * 1024 * 1024)
static int hostfile_lines(FILE *f, const char *path, struct hosts *hs)
{
    char *line = xmalloc(HOSTFILE_MAX_LINE + 2);
    size_t total = 0;
    int rc = 0;
    /* fgets into a bounded buffer: a line (or a file of NUL bytes) past the
     * bound is refused as it is read, never held whole */
    for (long n = 1; !rc && fgets(line, HOSTFILE_MAX_LINE + 2, f); n++) {
        size_t len = strlen(line);
        bool whole = (len && line[len - 1] == '\n') || feof(f);
        total += len;
        if (!whole || len > HOSTFILE_MAX_LINE || total > HOSTFILE_MAX_BYTES) {
            rr_error("hostfile %s:%ld: %s (hint: a hostfile lists hosts, one a line)", path, n,
                     total > HOSTFILE_MAX_BYTES ? "past the 256 MiB a hostfile may have"
                                                : "a line longer than 64 KiB");
            rc = RR_EX_DATAERR;
            break;
        }
        line[strcspn(line, "#\n")] = '\0';
        char *h = line + strspn(line, " \t");
        h[strcspn(h, " \t")] = '\0';
        if (*h)
            push_hosts(hs, h);
    }
    free(line);
    return rc;
}

/* via: the variable that named it, or NULL for the command line. */
static int hostfile(const char *path, const char *via, struct hosts *hs)
{
    FILE *f = open_input(path);
    if (!f) {
        if (via)
            rr_error("hostfile %s (named by %s) cannot be read: %s", path, via,
                     input_strerror(errno));
        else
            rr_error("hostfile %s cannot be read: %s", path, input_strerror(errno));
        return RR_EX_NOINPUT;
    }
    int rc = hostfile_lines(f, path, hs);
    fclose(f);
    return rc;
}

int job_hosts(const struct strvec *a, struct strvec *out)
{
    static const char *const lists[] = {"H", "host", NULL};
    static const char *const files[] = {"hostfile", "machinefile", "default-hostfile", NULL};
    struct hosts hs = {.out = out, .self = "localhost"};
    gethostname(hs.self, sizeof(hs.self) - 1);
    bool given = false;
    int rc = 0;
    for (size_t i = 0; !rc && i + 1 < a->n; i++) {
        if (named(a->v[i], lists)) {
            push_hosts(&hs, a->v[i + 1]);
            given = true;
        } else if (named(a->v[i], files)) {
            rc = hostfile(a->v[i + 1], NULL, &hs);
            given = true;
        }
    }
    /* Without hosts on the command line, the launchers' own defaults from
     * the environment, as the Kubeflow MPI operator sets them in its
     * launcher pod (/etc/mpi/hostfile: "HOST slots=N" for Open MPI,
     * "HOST:N" for Intel MPI and MPICH): Open MPI 4's and 5's default
     * hostfile parameters, Hydra's and Intel's host file. */
    static const char *const vars[] = {"OMPI_MCA_orte_default_hostfile",
                                       "PRTE_MCA_prte_default_hostfile", "HYDRA_HOST_FILE",
                                       "I_MPI_HYDRA_HOST_FILE", NULL};
    for (size_t i = 0; !rc && !given && vars[i]; i++) {
        const char *path = getenv(vars[i]);
        if (path && *path) {
            rc = hostfile(path, vars[i], &hs);
            given = true;
        }
    }
    strmap_free(&hs.seen);
    return rc;
}

long slurm_alloc_nodes(void)
{
    const char *v = getenv("SLURM_JOB_NUM_NODES");
    if (!v)
        v = getenv("SLURM_NNODES");
    long n;
    return v && parse_long(v, 1, 1L << 30, &n) ? n : -1;
}

int job_node_count(const struct strvec *args)
{
    struct strvec hosts = {0};
    int n = job_hosts(args, &hosts) == 0 ? (int)hosts.n : 0;
    sv_free(&hosts);
    long alloc = slurm_alloc_nodes();
    return n > 0 ? n : alloc > 0 ? (int)alloc : 1;
}
