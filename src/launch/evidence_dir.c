#include "launch/evidence_dir.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHARED_PARENT_MODE 03775   /* group-writable, setgid (the group is kept), sticky */

/* rdmarun's files in an evidence directory (the logs it writes, and what
 * evidence_own_file names). */
static const char *const own_files[] = {"ucx.log", "nccl.log", "verdict.json", "placement.txt"};

static char *parent_of(const char *dir)
{
    char *p = xstrdup(dir);
    char *slash = strrchr(p, '/');
    while (slash && slash > p && slash[1] == '\0') {   /* "a/b/" */
        *slash = '\0';
        slash = strrchr(p, '/');
    }
    if (!slash)
        strcpy(p, ".");
    else if (slash == p)
        p[1] = '\0';
    else
        *slash = '\0';
    return p;
}

/* Whether a directory could be made at `dir`: one can be made (and is
 * removed again) in its first existing ancestor. (access() would say yes
 * to root where mkdir fails, in /proc or on a read-only mount.) */
static int could_make(const char *dir)
{
    char *d = xstrdup(dir);
    struct stat st;
    int rc = -1;
    for (;;) {
        if (stat(d, &st) == 0) {
            char *probe = xasprintf("%s/.rdmarun-probe.%ld", d, (long)getpid());
            if (!S_ISDIR(st.st_mode))
                errno = ENOTDIR;
            else if (mkdir(probe, 0700) == 0)
                rc = rmdir(probe);
            free(probe);
            break;
        }
        if (errno != ENOENT || strcmp(d, "/") == 0 || strcmp(d, ".") == 0)
            break;
        char *up = parent_of(d);
        free(d);
        d = up;
    }
    free(d);
    return rc;
}

int evidence_dir_make(const char *dir, bool dry)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            errno = ENOTDIR;
            return -1;
        }
        if (access(dir, W_OK | X_OK) != 0)
            return -1;
        for (size_t i = 0; !dry && i < sizeof(own_files) / sizeof(*own_files); i++) {
            char *path = xasprintf("%s/%s", dir, own_files[i]);
            unlink(path);
            free(path);
        }
        return 0;
    }
    if (dry)
        return could_make(dir);
    char *parent = parent_of(dir);
    bool had_parent = stat(parent, &st) == 0;
    int rc = make_dirs(parent);
    if (rc == 0 && !had_parent)
        chmod(parent, SHARED_PARENT_MODE);
    if (rc == 0 && mkdir(dir, 0755) != 0)
        rc = -1;
    int e = errno;
    free(parent);
    errno = e;
    return rc;
}

void evidence_dir_warn(const char *dir, int err)
{
    rr_warn("cannot write the evidence directory %s: %s; the job runs and the verdict is "
            "drawn from its output, but no evidence is kept for 'rdmarun verify' (hint: "
            "--evidence-dir DIR, or RDMARUN_EVIDENCE_DIR)", dir, strerror(err));
}
