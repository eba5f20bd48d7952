#include "launch.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <errno.h>
#include <limits.h>
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

static bool same_dir(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

char *launch_find_mpirun(const char *option)
{
    if (option)
        return xstrdup(option);
    const char *env = getenv("RDMARUN_MPIRUN");
    if (env && *env)
        return xstrdup(env);
    const char *path = getenv("PATH");
    const char *skip = getenv("RDMARUN_WRAPPER_DIR");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char *copy = xstrdup(path), *save = NULL;
    char *found = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        if (skip && same_dir(dir, skip))
            continue;
        char *cand = xasprintf("%s/mpirun", *dir ? dir : ".");
        if (executable(cand))
            found = cand;
        else
            free(cand);
    }
    free(copy);
    return found;
}

int launch_exec(const struct strvec *argv)
{
    fflush(stdout);
    fflush(stderr);
    execv(argv->v[0], argv->v);
    int err = errno;
    rr_error("cannot run %s: %s (hint: install Open MPI's mpirun, or give its path with "
             "--mpirun or RDMARUN_MPIRUN)", argv->v[0], strerror(err));
    return err == ENOENT || err == EACCES ? RR_EX_NOTFOUND : RR_EX_OSERR;
}
