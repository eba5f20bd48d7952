/* A tune's or a comparison's results folder (results_dir.h). */
#include "compare/results_dir.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MARK_MAX 256   /* "rdmarun-results KIND\npid N\n" */

static const char *what_of(const char *kind)
{
    return strcmp(kind, "tune") == 0 ? "a tune" : "a comparison";
}

/* A folder of this user's that no one else may write, never through a
 * final link: its fd, or -1 with errno (EPERM: another user's or
 * writable by others; ELOOP: a link). */
static int open_own_dir(int at, const char *path)
{
    int fd = openat(at, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 && errno == ENOTDIR && fstatat(at, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(st.st_mode))
        errno = ELOOP;   /* (O_DIRECTORY's ENOTDIR: a link is refused before it is read) */
    if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 022))) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}

static const char *dir_strerror(int e)
{
    return e == EPERM ? "it is another user's, or others may write it" :
           e == ELOOP ? "it is a symbolic link (give the folder itself)" : strerror(e);
}

/* The marker's holder, as it wrote itself: its pid, or 0. */
static long holder_of(int mark)
{
    char text[MARK_MAX + 1];
    ssize_t n = pread(mark, text, MARK_MAX, 0);
    text[n > 0 ? n : 0] = '\0';
    const char *pid = strstr(text, "\npid ");
    return pid ? strtol(pid + 5, NULL, 10) : 0;
}

/* Locks the marker for this process's life and writes it: the kind, then
 * this pid. An RR_EX_ status after saying why. */
static int take(struct results_dir *rd, int mark, const char *kind)
{
    rd->lock = mark;
    if (flock(mark, LOCK_EX | LOCK_NB) != 0) {
        long pid = errno == EWOULDBLOCK ? holder_of(mark) : 0;
        if (pid)
            rr_error("%s: %s is in use by rdmarun %s (pid %ld), which still runs in it (hint: "
                     "wait for it to end, or stop it, then --resume %s)", kind, rd->path, kind,
                     pid, rd->path);
        else
            rr_error("%s: cannot lock %s/%s: %s", kind, rd->path, RESULTS_DIR_MARK,
                     strerror(errno));
        return RR_EX_CANTCREAT;
    }
    char *text = xasprintf("rdmarun-results %s\npid %ld\n", kind, (long)getpid());
    int rc = ftruncate(mark, 0) == 0 && pwrite(mark, text, strlen(text), 0) ==
             (ssize_t)strlen(text) ? 0 : RR_EX_CANTCREAT;
    if (rc)
        rr_error("%s: cannot write %s/%s: %s", kind, rd->path, RESULTS_DIR_MARK, strerror(errno));
    free(text);
    return rc;
}

/* The folder made, as rd->path: its parent safe, the folder new. */
static int make_new(struct results_dir *rd, const char *kind, bool named)
{
    char *up = path_parent(rd->path);
    int rc = 0;
    if (safe_parent_dir(up) != 0) {
        rr_error("%s: cannot make a folder in %s: %s (hint: -o a folder in one of your own)", kind,
                 up, errno == EPERM ? "others may write it and could swap what is made there"
                                    : strerror(errno));
        rc = RR_EX_CANTCREAT;
    } else if (mkdir(rd->path, 0755) != 0) {
        int e = errno, fd = e == EEXIST ? open_own_dir(AT_FDCWD, rd->path) : -1;
        bool holds = fd >= 0 && faccessat(fd, RESULTS_DIR_MARK, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
        if (fd >= 0)
            close(fd);
        if (holds)
            rr_error("%s: %s already holds %s (hint: --resume %s, or another -o DIR)", kind,
                     rd->path, what_of(kind), rd->path);
        else if (e == EEXIST)
            rr_error("%s: %s exists: rdmarun writes %s only into a folder it makes, so that "
                     "nothing there is replaced (hint: -o a new name)", kind, rd->path,
                     what_of(kind));
        else
            rr_error("%s: cannot make %s: %s", kind, rd->path, strerror(e));
        rc = e == EEXIST && named ? RR_EX_USAGE : RR_EX_CANTCREAT;
    }
    free(up);
    return rc;
}

int results_dir_create(struct results_dir *rd, const char *output, const char *parent,
                       const char *kind)
{
    rd->fd = rd->lock = -1;
    if (output)
        rd->path = xstrdup(output);
    else {
        char stamp[32];
        time_t now = time(NULL);
        strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
        if (mkdir(parent, 0755) != 0 && errno != EEXIST) {
            rr_error("%s: cannot make %s: %s", kind, parent, strerror(errno));
            return RR_EX_CANTCREAT;
        }
        rd->path = xasprintf("%s/%s", parent, stamp);
        /* another run in the same second: DATE-TIME-2, -3, ... */
        for (int i = 2; i < 100 && faccessat(AT_FDCWD, rd->path, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
             i++) {
            free(rd->path);
            rd->path = xasprintf("%s/%s-%d", parent, stamp, i);
        }
    }
    int rc = make_new(rd, kind, output != NULL);
    if (!rc && (rd->fd = open_own_dir(AT_FDCWD, rd->path)) < 0) {
        rr_error("%s: cannot open %s: %s", kind, rd->path, dir_strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    int mark = rc ? -1 : openat(rd->fd, RESULTS_DIR_MARK,
                                O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (!rc && mark < 0) {
        rr_error("%s: cannot write %s/%s: %s", kind, rd->path, RESULTS_DIR_MARK, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    return rc ? rc : take(rd, mark, kind);
}

/* The marker of an earlier run of `kind` in rd->fd: its fd, or -1 after
 * saying why, with *rc. */
static int open_mark(const struct results_dir *rd, const char *kind, const char *who, int *rc)
{
    int mark = openat(rd->fd, RESULTS_DIR_MARK, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    char text[MARK_MAX + 1] = "";
    char *want = xasprintf("rdmarun-results %s\n", kind);
    *rc = RR_EX_NOINPUT;
    if (mark < 0 && errno == ENOENT)
        rr_error("%s: %s was not made by rdmarun %s: it has no %s (hint: the folder of an "
                 "earlier 'rdmarun %s -o DIR')", who, rd->path, kind, RESULTS_DIR_MARK, kind);
    else if (mark < 0 || fstat(mark, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
        rr_error("%s: %s/%s is not a file of yours", who, rd->path, RESULTS_DIR_MARK);
        *rc = RR_EX_CANTCREAT;
    } else if (pread(mark, text, MARK_MAX, 0) < (ssize_t)strlen(want) ||
               strncmp(text, want, strlen(want)) != 0)
        rr_error("%s: %s holds no results of rdmarun %s (its %s says otherwise)", who,
                 rd->path, kind, RESULTS_DIR_MARK);
    else
        *rc = 0;
    free(want);
    if (*rc && mark >= 0) {
        close(mark);
        mark = -1;
    }
    return mark;
}

int results_dir_resume(struct results_dir *rd, const char *path, const char *kind,
                       const char *who)
{
    rd->fd = rd->lock = -1;
    rd->path = xstrdup(path);
    char *up = path_parent(path);
    int rc = 0;
    if (safe_parent_dir(up) != 0 && errno == EPERM) {
        rr_error("%s: %s is in %s, which others may write: they could swap it (hint: move it "
                 "into a folder of your own)", who, path, up);
        rc = RR_EX_CANTCREAT;
    } else if ((rd->fd = open_own_dir(AT_FDCWD, path)) < 0) {
        int e = errno;
        rr_error("%s: cannot open %s: %s (hint: the folder of an earlier 'rdmarun %s -o DIR')",
                 who, path, dir_strerror(e), kind);
        rc = e == ENOENT || e == ENOTDIR ? RR_EX_NOINPUT : RR_EX_CANTCREAT;
    }
    free(up);
    int mark = rc ? -1 : open_mark(rd, kind, who, &rc);
    return rc ? rc : take(rd, mark, kind);
}

int results_dir_subdir(const struct results_dir *rd, const char *name)
{
    if (mkdirat(rd->fd, name, 0755) != 0 && errno != EEXIST)
        return -1;
    int fd = open_own_dir(rd->fd, name);
    return fd < 0 ? -1 : close(fd);
}

char *results_dir_file(const struct results_dir *rd, const char *name)
{
    return xasprintf("%s/%s", rd->path, name);
}

void results_dir_close(struct results_dir *rd)
{
    if (!rd->path)   /* never opened (a zeroed struct too) */
        return;
    if (rd->lock >= 0)
        close(rd->lock);   /* the lock goes with it */
    if (rd->fd >= 0)
        close(rd->fd);
    free(rd->path);
    *rd = (struct results_dir)RESULTS_DIR_INIT;
}
