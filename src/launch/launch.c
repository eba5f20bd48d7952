#include "launch/launch.h"
#include "plan/launchers.h"
#include "profile/settings.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* rdmarun's own drop-in wrapper (wrappers/mpirun) carries this mark near its
 * top; finding it instead of the real mpirun would loop. */
#define WRAPPER_MARK "rdmarun-mpirun-wrapper"

static bool is_wrapper(const char *path)
{
    char head[256];
    FILE *f = open_input(path);
    if (!f)
        return false;
    size_t n = fread(head, 1, sizeof(head) - 1, f);
    fclose(f);
    head[n] = '\0';
    return strstr(head, WRAPPER_MARK) != NULL;
}

static char *find_launcher(const char *name, const char *option, const char *envvar,
                           bool *on_path)
{
    *on_path = false;
    if (option)
        return xstrdup(option);
    const char *env = getenv(envvar);
    if (env && *env)
        return xstrdup(env);
    *on_path = true;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char *copy = xstrdup(path), *save = NULL;
    char *found = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char *cand = xasprintf("%s/%s", *dir ? dir : ".", name);
        if (executable(cand) && !is_wrapper(cand)) {
            found = cand;
        } else {
            /* Past the wrapper, the bare name would find the wrapper again. */
            if (executable(cand))
                *on_path = false;
            free(cand);
        }
    }
    free(copy);
    return found;
}

char *launch_on_path(const char *name)
{
    bool on_path;
    return strchr(name, '/') ? xstrdup(name) : find_launcher(name, NULL, "", &on_path);
}

/* Here beside launch_on_path: the launcher finder and program_mpi.c both
 * ask it. */
char *mpi_tool_beside(const char *libpath, const char *tool)
{
    char *dir = xstrdup(libpath), *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    char *found = NULL;
    bool release = ends_with(dir, "/lib/release");   /* oneAPI's lib/release/ folder */
    for (int up = 1; up <= (release ? 2 : 1) && !found; up++) {
        char *cand = xasprintf("%s/%s/bin/%s", dir, up == 1 ? ".." : "../..", tool);
        found = access(cand, X_OK) == 0 ? realpath(cand, NULL) : NULL;
        free(cand);
    }
    free(dir);
    return found;
}

/* A launcher found on PATH counts only where its real path has `part`. */
static char *real_path_has(char *found, const char *part)
{
    char *real = realpath(found, NULL);
    bool has = real && strstr(real, part);
    free(real);
    if (!has) {
        free(found);
        found = NULL;
    }
    return found;
}

char *launch_find(const struct launcher_desc *row, const char *option, const char *libpath,
                  bool *on_path)
{
    *on_path = false;
    if (!row->programs[0])
        return NULL;
    const char *env = getenv(row->path_var);
    if (row->beside_mpi && !option && !(env && *env) && libpath) {
        char *beside = mpi_tool_beside(libpath, row->programs[0]);
        if (beside)
            return beside;
    }
    char *found = NULL;
    for (size_t i = 0; !found && i < sizeof(row->programs) / sizeof(*row->programs) &&
                       row->programs[i]; i++)
        found = find_launcher(row->programs[i], i ? NULL : option, row->path_var, on_path);
    if (found && *on_path && row->real_path_has)
        found = real_path_has(found, row->real_path_has);
    return found;
}

int launch_not_found(const struct launcher_desc *row)
{
    rr_error("%s not found on PATH (hint: %s, or give its path with --mpirun or %s)",
             row->title, row->install_hint, row->path_var);
    return RR_EX_NOTFOUND;
}

int launch_failed(const struct launcher_desc *row, const char *path, int err)
{
    if (!row || row->command_is_launcher)   /* COMMAND itself (exec), or the wrapper's */
        rr_error("cannot run %s: %s (hint: %s)", path, strerror(err),
                 row ? "COMMAND is run as given: its path, and that it is executable"
                     : "the MPI launcher behind rdmarun's drop-in wrapper");
    else
        rr_error("cannot run %s: %s (hint: %s, or give its path with --mpirun or %s)", path,
                 strerror(err), row->install_hint, row->path_var);
    return err == ENOENT || err == EACCES ? RR_EX_NOTFOUND : RR_EX_OSERR;
}

int launch_exec(const struct launcher_desc *row, const char *path, const struct strvec *argv)
{
    fflush(stdout);
    fflush(stderr);
    /* A bare name (--mpirun mpirun) is looked up on PATH, as the
     * supervised run's spawn does (util/proc.c). */
    if (!path && !strchr(argv->v[0], '/'))
        execvp(argv->v[0], argv->v);
    else
        execv(path ? path : argv->v[0], argv->v);
    return launch_failed(row, path ? path : argv->v[0], errno);
}

/* The first argument of an invocation that starts no job. */
static bool launches_nothing(int argc, char **argv)
{
    static const char *const words[] = {"--version", "-V", "-version", "--help", "-h", "-help",
                                        "--show-me", "--showme", "-showme"};
    if (argc < 2)
        return true;
    for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
        if (strcmp(argv[1], words[i]) == 0)
            return true;
    return strncmp(argv[1], "--show-me:", 10) == 0 || strncmp(argv[1], "--showme:", 9) == 0;
}

/* The wrapper's name, kept when RDMARUN_WRAPPED is taken out. */
static int wrapped_mpi = -1;

int launch_wrapped_mpi(void)
{
    return wrapped_mpi;
}

int launch_wrapped_passthrough(int argc, char **argv)
{
    const char *env = getenv("RDMARUN_WRAPPED");
    char *name = env ? xstrdup(env) : NULL;
    unsetenv("RDMARUN_WRAPPED");
    static const char *const launchers[] = {"mpirun", "mpiexec", "orterun", "prterun",
                                            "mpiexec.hydra", "mpiexec.mpich"};
    bool known = false;
    for (size_t i = 0; name && i < sizeof(launchers) / sizeof(*launchers); i++)
        known |= strcmp(name, launchers[i]) == 0;
    if (known && starts_with(name, "mpiexec."))
        wrapped_mpi = MPI_MPICH;
    if (!known || !launches_nothing(argc, argv)) {
        free(name);
        return -1;
    }
    bool on_path;
    char *real = find_launcher(name, NULL, "RDMARUN_MPIRUN", &on_path);
    if (!real) {
        rr_error("%s not found on PATH behind rdmarun's drop-in wrapper (hint: install %s's "
                 "%s, or take the wrapper folder off PATH)", name,
                 starts_with(name, "mpiexec.") ? "MPICH" : "Open MPI", name);
        free(name);
        return RR_EX_NOTFOUND;
    }
    struct strvec args = {0};
    sv_push(&args, name);
    for (int i = 1; i < argc; i++)
        sv_push(&args, argv[i]);
    free(name);
    int rc = launch_exec(NULL, real, &args);   /* returns only on failure */
    free(real);
    sv_free(&args);
    return rc;
}
