#include "cmd/job_hosts.h"
#include "util/fs.h"
#include "util/msg.h"
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

/* localhost is this node, whose peer reports its own name. */
static void push_hosts(struct strvec *out, const char *list)
{
    struct strvec items = {0};
    char self[256] = "localhost";
    gethostname(self, sizeof(self) - 1);
    sv_split(&items, list, ",");
    for (size_t i = 0; i < items.n; i++) {
        const char *h = items.v[i];
        bool local = strncmp(h, "localhost", 9) == 0 && (!h[9] || h[9] == ':');
        sv_pushf(out, "%s%s", local ? self : h, local ? h + 9 : "");
    }
    sv_free(&items);
}

/* via: the variable that named it, or NULL for the command line. */
static int hostfile(const char *path, const char *via, struct strvec *out)
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
    char line[1024];
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "#\n")] = '\0';
        char *h = line + strspn(line, " \t");
        h[strcspn(h, " \t")] = '\0';
        if (*h)
            push_hosts(out, h);
    }
    fclose(f);
    return 0;
}

int job_hosts(const struct strvec *a, struct strvec *out)
{
    static const char *const lists[] = {"H", "host", NULL};
    static const char *const files[] = {"hostfile", "machinefile", "default-hostfile", NULL};
    bool given = false;
    for (size_t i = 0; i + 1 < a->n; i++) {
        if (named(a->v[i], lists)) {
            push_hosts(out, a->v[i + 1]);
            given = true;
        } else if (named(a->v[i], files)) {
            int rc = hostfile(a->v[i + 1], NULL, out);
            if (rc)
                return rc;
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
    for (size_t i = 0; !given && vars[i]; i++) {
        const char *path = getenv(vars[i]);
        if (path && *path)
            return hostfile(path, vars[i], out);
    }
    return 0;
}

long slurm_alloc_nodes(void)
{
    const char *v = getenv("SLURM_JOB_NUM_NODES");
    if (!v)
        v = getenv("SLURM_NNODES");
    long n;
    return v && parse_long(v, 1, 1L << 30, &n) ? n : -1;
}
