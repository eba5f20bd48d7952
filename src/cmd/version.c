/* rdmarun --version: rdmarun's own version, the stack it was built against
 * (configure's pkg-config versions, config.h) and the one it finds now:
 * each library asked itself, the launchers on PATH asked with --version
 * (bounded, with a timeout). Where the two differ, it says so. */
#include "cmd/commands.h"
#include "facts/facts.h"
#include "launch/launch.h"
#include "plan/launchers.h"
#include "profile/ucx_config.h"
#include "util/fs.h"
#include "util/proc.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <config.h>
#include <errno.h>
#include <hwloc.h>
#include <json-c/json_c_version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define VERSION_TIMEOUT_S 3.0   /* a launcher's --version: a hung one is named, not waited for */
#define VERSION_MAX 4096

static struct strvec differ;   /* "UCX: built against 1.13.1, found 1.14.0" */

static void row(const char *name, const char *built, const char *found)
{
    printf("  %-11s %-22s %s\n", name, built && *built ? built : "-",
           found && *found ? found : "-");
}

/* A row whose two versions are the same kind of number: compared. */
static void compared(const char *name, const char *built, const char *found)
{
    bool both = built && *built && found && *found;
    if (both && strcmp(built, found) != 0) {
        char *f = xasprintf("%s   (differs)", found);
        row(name, built, f);
        free(f);
        sv_pushf(&differ, "%s: built against %s, found %s", name, built, found);
    } else {
        row(name, built, found);
    }
}

static char *api_version(unsigned v)
{
    return xasprintf("API %u.%u.%u", (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
}

/* rdma-core's release from libibverbs' version (1.14.44.0: 44). */
static char *rdma_core_of(const char *libibverbs)
{
    unsigned a, b, c;
    return sscanf(libibverbs, "%u.%u.%u", &a, &b, &c) == 3 ? xasprintf("%u", c) : NULL;
}

/* What a failed --version said: its line with "fatal" (srun's conclusion
 * after its errors), else its last, terminal-safe. */
static char *failure_line(const char *out)
{
    const char *pick = NULL, *last = out;
    for (const char *s = out; *s; s += strcspn(s, "\n") + (s[strcspn(s, "\n")] != 0)) {
        size_t n = strcspn(s, "\n");
        if (n)
            last = s;
        for (size_t k = 0; n >= 5 && !pick && k <= n - 5; k++)
            if (strncmp(s + k, "fatal", 5) == 0)
                pick = s;
    }
    const char *s = pick ? pick : last;
    return term_safe(s, strcspn(s, "\n"), 200);
}

/* The first line of `path --version`, or why there is none (*answered
 * false): its status and first line when it failed (srun without its
 * configuration: "srun: fatal: ..." on stderr). */
static char *ask_version(const char *path, bool *answered)
{
    char *argv[] = {(char *)path, "--version", NULL};
    /* Its own group: a script's children (a hung srun's) end with it. */
    struct proc_spec spec = {.argv = argv, .err_to_out = true, .own_group = true};
    char *out = NULL;
    bool timed_out = false;
    int status = proc_capture(&spec, VERSION_TIMEOUT_S, VERSION_MAX, &out, &timed_out);
    *answered = false;
    char *line = NULL;
    if (status < 0) {
        line = xasprintf("--version cannot run: %s", strerror(errno));
    } else if (timed_out) {
        line = xasprintf("--version did not answer within %g s", VERSION_TIMEOUT_S);
    } else {
        size_t len = out ? strcspn(out, "\n") : 0;
        char *first = trim_dup(out ? out : "", len);
        bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (*first && ok) {
            line = term_safe(first, strlen(first), 200);
            *answered = true;
        } else if (*first) {
            char *said = failure_line(out);
            line = xasprintf("--version failed (status %d): %s", WIFEXITED(status)
                             ? WEXITSTATUS(status) : -1, said);
            free(said);
        } else {
            line = xasprintf("--version said nothing (status %d)",
                             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
        free(first);
    }
    free(out);
    return line;
}

static void open_mpi(void)
{
    bool on_path, answered;
    char *mpirun = launch_find(launcher_of(LAUNCHER_MPIRUN), NULL, NULL, &on_path);
    char *lib = facts_mpi_library("libmpi.so.40");   /* "Open MPI 4.1.4" */
    char *found = NULL;
    if (mpirun) {
        char *line = ask_version(mpirun, &answered);
        /* "mpirun (Open MPI) 4.1.4" */
        const char *v = answered ? strstr(line, "(Open MPI) ") : NULL;
        char *version = v ? xasprintf("Open MPI %s", v + strlen("(Open MPI) ")) : NULL;
        found = xasprintf("%s (%s)", version ? version : line, mpirun);
        if (version && lib && strcmp(version, lib) != 0)
            sv_pushf(&differ, "Open MPI: %s runs %s, the ranks' libmpi.so.40 is %s", mpirun,
                     version, lib);
        free(version);
        free(line);
    } else {
        found = xstrdup("no mpirun on PATH (nor $RDMARUN_MPIRUN)");
    }
    row("mpirun", NULL, found);
    row("libmpi", NULL, lib ? lib : "no libmpi.so.40");
    free(found);
    free(lib);
    free(mpirun);
}

static void slurm(void)
{
    bool on_path;
    char *srun = launch_find(launcher_of(LAUNCHER_SRUN), NULL, NULL, &on_path);
    if (!srun) {
        row("srun", NULL, "no srun on PATH (nor $RDMARUN_SRUN)");
        return;
    }
    bool answered;
    char *line = ask_version(srun, &answered);
    char *found = xasprintf("%s (%s)", line, srun);
    row("srun", NULL, found);
    free(found);
    free(line);
    free(srun);
}

/* PMIx is linked by the path test's program alone (path_peer_main.c): the
 * one it loads is the one rdmarun uses. */
static void pmix(void)
{
    char *helper = helper_path("libexec/path-peer");
    bool answered;
    char *line = ask_version(helper, &answered);
    /* "OpenPMIx 4.2.2rc2, repo rev: ..." */
    const char *sp = answered ? strchr(line, ' ') : NULL;
    char *found = answered ? trim_dup(sp ? sp + 1 : line, strcspn(sp ? sp + 1 : line, " ,"))
                           : xasprintf("%s (%s)", line, helper);
    compared("PMIx", RDMARUN_BUILT_PMIX, found);
    free(found);
    free(line);
    free(helper);
}

int cmd_version(const struct cmdline *cl)
{
    (void)cl;
    printf("rdmarun %s\n  %-11s %-22s %s\n", PACKAGE_VERSION, "", "built against",
           "found now");
    char *b = api_version(HWLOC_API_VERSION), *f = api_version(hwloc_get_api_version());
    char *built = xasprintf("%s (%s)", RDMARUN_BUILT_HWLOC, b);
    /* hwloc's release is not asked at run time, its API is. */
    if (strcmp(b, f) != 0)
        sv_pushf(&differ, "hwloc: built against %s, found %s", b, f);
    row("hwloc", built, f);
    free(built);
    free(b);
    free(f);
    compared("UCX", RDMARUN_BUILT_UCX, ucx_config_version());
    char *rc_built = rdma_core_of(RDMARUN_BUILT_IBVERBS), *rc_found = facts_rdma_core();
    compared("rdma-core", rc_built, rc_found);
    free(rc_built);
    free(rc_found);
    compared("json-c", RDMARUN_BUILT_JSONC, json_c_version());
    row("inih", RDMARUN_BUILT_INIH, "(no version call)");
    pmix();
    open_mpi();
    slurm();
    for (size_t i = 0; i < differ.n; i++)
        printf("differs: %s\n", differ.v[i]);
    sv_free(&differ);
    return 0;
}
