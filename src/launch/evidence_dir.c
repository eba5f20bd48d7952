#include "launch/evidence_dir.h"
#include "evidence/evidence.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SHARED_ROOT_MODE 03775   /* group-writable, setgid (the group is kept), sticky */
#define KEEP_DEFAULT 20
/* In every directory rdmarun makes for a job: what tells an earlier job's
 * directory (whose files may be replaced) from a user's own; verify reads
 * such a directory for its logs only. */
#define MARK EVIDENCE_DIR_MARK

/* rdmarun's files in a run directory: the logs it writes, the ranks' own
 * (ucx.HOST.PID.log with --output-filename), and its mark. */
static bool own_file(const char *name)
{
    return evidence_log_name(name) || evidence_own_file(name) || strcmp(name, MARK) == 0;
}

char *evidence_dir_template(const char *root)
{
    char host[64] = "host";
    gethostname(host, sizeof(host) - 1);
    host[sizeof(host) - 1] = '\0';
    return xasprintf("%s/%s.%ld.%ld.XXXXXX", root, host, (long)getpid(), (long)time(NULL));
}

/* The mark of the run directory this process uses, locked (flock) for its
 * life: another job's rotation never removes it, another job sharing the
 * folder never clears it. Released as the process ends. */
static int held = -1;

/* The run directory itself, open for the job's life: the supervisor
 * writes its logs and verdict.json through it (evidence_dir_fd), so a
 * folder renamed or replaced by a link meanwhile is never written through. */
static int held_dir = -1;

static void hold_dir(int dfd)
{
    if (held_dir >= 0)
        close(held_dir);
    held_dir = dfd;
}

int evidence_dir_fd(void)
{
    return held_dir;
}

/* Hold the lock of mark fd m: it becomes `held`. 0, or -1 (EWOULDBLOCK: a
 * running job holds it), m closed then. */
static int hold(int m)
{
    if (flock(m, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(m);
        errno = e;
        return -1;
    }
    if (held >= 0)
        close(held);
    held = m;
    return 0;
}

/* Marks a directory rdmarun made, and holds it: 0, or -1. */
static int mark(int dfd)
{
    int m = openat(dfd, MARK, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    return m < 0 ? -1 : hold(m);
}

/* Holds an earlier job's run directory: 0, or -1 (EWOULDBLOCK: that job
 * still runs). */
static int hold_earlier(int dfd)
{
    int m = openat(dfd, MARK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    return m < 0 ? -1 : hold(m);
}

/* Whether the job of run directory dfd still runs (holds its mark). */
static bool in_use(int dfd)
{
    int m = openat(dfd, MARK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (m < 0)
        return false;
    bool busy = flock(m, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(m);
    return busy;
}

/* What an existing --evidence-dir holds: 0 nothing, 1 only an earlier
 * rdmarun job's files (and its mark), 2 anything else. */
static int contents(int dfd)
{
    int fd = dup(dfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return 2;
    }
    rewinddir(d);   /* a dup shares the offset of an earlier read */
    int kind = 0;
    bool marked = false;
    for (struct dirent *e; kind < 2 && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        struct stat st;
        if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            !own_file(e->d_name))
            kind = 2;
        else {
            kind = 1;
            marked |= strcmp(e->d_name, MARK) == 0;
        }
    }
    closedir(d);
    return kind == 1 && !marked ? 2 : kind;
}

/* Removes a run directory's own files (never following a link) and, when
 * `remove`, the directory. Anything else in it (a folder, a user's file)
 * keeps it whole. */
static void clear_run(int parent, const char *name, bool remove)
{
    int dfd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return;
    struct stat st;
    if (fstat(dfd, &st) != 0 || st.st_uid != geteuid() || contents(dfd) != 1 ||
        (remove && in_use(dfd))) {   /* a job still running there keeps it */
        close(dfd);
        return;
    }
    int fd = dup(dfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d)
        rewinddir(d);   /* contents() read it through the same offset */
    for (struct dirent *e; d && (e = readdir(d));)
        if (own_file(e->d_name) && (remove || strcmp(e->d_name, MARK) != 0))
            unlinkat(dfd, e->d_name, 0);
    if (d)
        closedir(d);
    else if (fd >= 0)
        close(fd);
    close(dfd);
    if (remove)
        unlinkat(parent, name, AT_REMOVEDIR);
}

/* HOST.PID.TIME.XXXXXX (or an older rdmarun's HOST.PID.TIME): its TIME, or -1. */
static long run_time(const char *name)
{
    const char *end = name + strlen(name);
    const char *dots[3] = {NULL};
    int n = 0;
    for (const char *p = end; p > name && n < 3; p--)
        if (p[-1] == '.')
            dots[n++] = p - 1;
    if (n < 2)
        return -1;
    /* with a suffix: dots[0] before it, dots[1] before TIME, dots[2] before PID */
    bool suffix = n == 3 && end - dots[0] == 7;
    const char *t = suffix ? dots[1] + 1 : dots[0] + 1;
    const char *p = suffix ? dots[2] + 1 : dots[1] + 1;
    size_t tl = (size_t)((suffix ? dots[0] : end) - t), pl = (size_t)((suffix ? dots[1] : dots[0]) - p);
    if (!tl || !pl || strspn(t, "0123456789") < tl || strspn(p, "0123456789") < pl)
        return -1;
    return strtol(t, NULL, 10);
}

struct run {
    char *name;
    long time;
};

static int by_time(const void *a, const void *b)
{
    const struct run *x = a, *y = b;
    return x->time < y->time ? -1 : x->time > y->time ? 1 : strcmp(x->name, y->name);
}

/* This user's run directories in `root` beyond the newest `keep`: removed. */
static void prune(const char *root, const char *made, long keep)
{
    int rfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int fd = rfd >= 0 ? dup(rfd) : -1;
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        if (rfd >= 0)
            close(rfd);
        return;
    }
    struct run *runs = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        long t = run_time(e->d_name);
        struct stat st;
        if (t < 0 || strcmp(e->d_name, made) == 0 ||
            fstatat(rfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        GROW(runs, cap, n + 1);
        runs[n++] = (struct run){xstrdup(e->d_name), t};
    }
    closedir(d);
    if (n > 1)
        qsort(runs, n, sizeof(*runs), by_time);
    /* the one just made counts as the newest */
    for (size_t i = 0; i + (size_t)keep - 1 < n && keep > 0; i++)
        clear_run(rfd, runs[i].name, true);
    for (size_t i = 0; i < n; i++)
        free(runs[i].name);
    free(runs);
    close(rfd);
}

static long keep_runs(void)
{
    const char *v = getenv("RDMARUN_EVIDENCE_KEEP");
    char *end;
    long k = v && *v ? strtol(v, &end, 10) : KEEP_DEFAULT;
    if (v && *v && (*end || k < 0)) {
        rr_warn("RDMARUN_EVIDENCE_KEEP=%s is not a count of runs; keeping the last %d",
                v, KEEP_DEFAULT);
        k = KEEP_DEFAULT;
    }
    return k;
}

/* A fresh run directory from `template` (…XXXXXX), marked. */
static char *fresh(const char *template)
{
    char *dir = xstrdup(template);
    if (!mkdtemp(dir)) {
        free(dir);
        return NULL;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0 || mark(dfd) != 0) {
        int e = errno;
        if (dfd >= 0)
            close(dfd);
        rmdir(dir);
        free(dir);
        errno = e;
        return NULL;
    }
    hold_dir(dfd);
    return dir;
}

/* A run directory inside `dir` (its own, for this job). */
static char *fresh_inside(const char *dir)
{
    if (safe_parent_dir(dir) != 0)
        return NULL;
    char *t = evidence_dir_template(dir);
    char *made = fresh(t);
    free(t);
    return made;
}

static char *make_exact(const char *dir)
{
    char *parent = path_parent(dir);
    int rc = make_dirs(parent);
    /* made in a folder no one else may swap it in (another user's folder,
     * sticky or not, is refused) */
    if (!rc)
        rc = safe_parent_dir(parent);
    free(parent);
    if (rc != 0)
        return NULL;
    if (mkdir(dir, 0700) == 0) {
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dfd < 0 || mark(dfd) != 0) {
            int e = errno;
            if (dfd >= 0)
                close(dfd);
            errno = e;
            return NULL;
        }
        hold_dir(dfd);
        return xstrdup(dir);
    }
    if (errno != EEXIST)
        return NULL;
    /* It exists: ours and empty, or an earlier job's that has ended; else
     * (a user's folder, a job still running there) a run directory inside. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    char *made = NULL;
    if (dfd >= 0 && fstat(dfd, &st) == 0 && st.st_uid == geteuid() && !(st.st_mode & 022)) {
        int kind = contents(dfd);
        if ((kind == 0 && mark(dfd) == 0) || (kind == 1 && hold_earlier(dfd) == 0)) {
            if (kind == 1) {
                char *base = strrchr(dir, '/');
                char *up = path_parent(dir);
                int pfd = open(up, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                free(up);
                if (pfd >= 0) {
                    clear_run(pfd, base ? base + 1 : dir, false);
                    close(pfd);
                }
            }
            made = xstrdup(dir);
            hold_dir(dfd);
            dfd = -1;
        }
    }
    if (dfd >= 0)
        close(dfd);
    return made ? made : fresh_inside(dir);
}

char *evidence_dir_make(const char *dir, bool exact)
{
    if (exact)
        return make_exact(dir);
    char *root = path_parent(dir);
    struct stat st;
    char *made = NULL;
    if (lstat(root, &st) != 0 && errno == ENOENT) {
        char *up = path_parent(root);
        if (make_dirs(up) == 0 && (mkdir(root, 0700) == 0 || errno == EEXIST))
            chmod(root, SHARED_ROOT_MODE);   /* (mkdir's mode passes the umask) */
        free(up);
    }
    if (safe_parent_dir(root) == 0)
        made = fresh(dir);
    int e = errno;
    free(root);
    errno = e;
    return made;
}

void evidence_dir_prune(const char *made)
{
    char *root = path_parent(made);
    const char *slash = strrchr(made, '/');
    prune(root, slash ? slash + 1 : made, keep_runs());
    free(root);
}

int evidence_dir_check(const char *dir, bool exact)
{
    /* The nearest existing ancestor: a directory rdmarun could write in. A
     * directory is made and removed there (access() says yes to root where
     * mkdir fails, in /proc or on a read-only mount). */
    char *d = exact ? xstrdup(dir) : path_parent(dir);
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
        char *up = path_parent(d);
        free(d);
        d = up;
    }
    free(d);
    return rc;
}

void evidence_dir_warn(const char *dir, int err)
{
    rr_warn("cannot write the evidence directory %s: %s; the job runs and the verdict is "
            "drawn from its output, but no evidence is kept for 'rdmarun verify' (hint: "
            "--evidence-dir DIR of your own, or RDMARUN_EVIDENCE_DIR)", dir,
            err == EPERM ? "another user's, or others may write it without the sticky bit"
                         : strerror(err));
}
