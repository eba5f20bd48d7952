#include "util/fs.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int make_dirs(const char *path)
{
    if (!path[0]) {   /* no folder at all */
        errno = ENOENT;
        return -1;
    }
    char *copy = xstrdup(path);
    int rc = 0;
    for (char *s = copy + 1; rc == 0; s++) {
        char c = *s;
        if (c != '/' && c != '\0')
            continue;
        *s = '\0';
        if (mkdir(copy, 0755) != 0 && errno != EEXIST)
            rc = -1;
        *s = c;
        if (!c)
            break;
    }
    free(copy);
    return rc;
}

char *path_parent(const char *path)
{
    char *p = xmalloc(strlen(path) + 2);   /* room for "." when path is "" */
    strcpy(p, path);
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

char *read_first_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *path = xvasprintf(fmt, ap);
    va_end(ap);
    FILE *f = open_input(path);
    free(path);
    if (!f)
        return NULL;
    /* A sysfs attribute is at most a page (4096 bytes); a longer first line
     * is no attribute's, and is refused whole (EFBIG), never cut. */
    char buf[FIRST_LINE_MAX + 2];
    char *line = fgets(buf, sizeof(buf), f);
    bool longer = line && !strchr(buf, '\n') && strlen(buf) > FIRST_LINE_MAX;
    fclose(f);
    if (!line || longer) {
        errno = longer ? EFBIG : ENODATA;   /* there, but empty: ENOENT stays "absent" */
        return NULL;
    }
    /* The kernel writes these attributes in printable ASCII: a control
     * character or a byte past ASCII is a file made to look like one (a
     * recorded tree, a planted file), never data to judge or print. */
    for (const unsigned char *c = (const unsigned char *)buf; *c && *c != '\n'; c++)
        if ((*c < 0x20 && *c != '\t') || *c >= 0x7f) {
            errno = EILSEQ;
            return NULL;
        }
    char *out = trim_dup(buf, strlen(buf));
    if (!*out) {
        free(out);
        errno = ENODATA;
        return NULL;
    }
    return out;
}

/* The folder the running binary is in (symlinks resolved); NULL when
 * /proc/self/exe cannot be read. */
static char *dir_of_self(void)
{
    char *self = realpath("/proc/self/exe", NULL);
    char *slash = self ? strrchr(self, '/') : NULL;
    if (!slash) {
        free(self);
        return NULL;
    }
    *slash = '\0';
    return self;
}

char *source_tree_of_self(void)
{
    char *dir = dir_of_self();
    char *tree = NULL;
    if (dir) {   /* a path, which may be UTF-8: not read_first_line's ASCII */
        char *path = xasprintf("%s/rdmarun-tree", dir);
        size_t len = 0;
        char *text = read_input(path, 4096, &len);
        free(path);
        if (text) {
            text[strcspn(text, "\n")] = '\0';
            tree = *text ? xstrdup(text) : NULL;
        }
        free(text);
    }
    if (tree && tree[0] != '/') {   /* relative to the build tree, which is here */
        char *abs = xasprintf("%s/%s", dir, tree);
        char *real = realpath(abs, NULL);
        free(tree);
        tree = real ? real : abs;
        if (real)
            free(abs);
    }
    free(dir);
    return tree;
}

/* The build's folders (Makefile.am); the fuzz build compiles without them. */
#ifndef RDMARUN_LIBEXECDIR
#define RDMARUN_LIBEXECDIR "/usr/libexec"
#endif
#ifndef RDMARUN_BINDIR
#define RDMARUN_BINDIR "/usr/bin"
#endif

char *helper_path(const char *tree_path)
{
    char *tree = source_tree_of_self();
    char *path = NULL;
    if (tree) {
        char *dir = dir_of_self();
        path = dir ? xasprintf("%s/%s", dir, tree_path) : NULL;
        free(dir);
    } else {
        const char *slash = strrchr(tree_path, '/');
        char *dir = installed_path_of_self(RDMARUN_BINDIR, RDMARUN_LIBEXECDIR "/rdmarun");
        path = xasprintf("%s/%s", dir ? dir : RDMARUN_LIBEXECDIR "/rdmarun",
                         slash ? slash + 1 : tree_path);
        free(dir);
    }
    free(tree);
    return path;
}

char *installed_path_of_self(const char *bindir, const char *path)
{
    if (bindir[0] != '/' || path[0] != '/')
        return NULL;
    /* The components bindir and path share ("/usr/local/"), then one ".."
     * for each of bindir's own ("bin"). */
    size_t common = 0;
    for (size_t i = 0; bindir[i] && bindir[i] == path[i]; i++)
        if (bindir[i] == '/')
            common = i + 1;
    char *dir = dir_of_self();
    if (!dir)
        return NULL;
    char *out = xstrdup(dir);
    for (const char *s = bindir + common; *s;) {
        const char *end = strchr(s, '/');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (n) {
            char *up = xasprintf("%s/..", out);
            free(out);
            out = up;
        }
        s += n + (end ? 1 : 0);
    }
    char *full = xasprintf("%s/%s", out, path + common);
    free(out);
    free(dir);
    char *real = realpath(full, NULL);
    free(full);
    struct stat st;
    if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(real);
        return NULL;
    }
    return real;
}

int private_dir_open(const char *path)
{
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return -1;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {   /* another user's folder we may not even open: EPERM too */
        int e = errno;
        errno = e == EACCES && lstat(path, &st) == 0 && st.st_uid != geteuid() ? EPERM : e;
        return -1;
    }
    if (fstat(fd, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 077)) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}

int safe_parent_dir(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return -1;
    if (S_ISLNK(st.st_mode) && st.st_uid != geteuid()) {
        errno = EPERM;
        return -1;
    }
    if (stat(dir, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    /* Others may write: only a sticky folder of root's or ours keeps what we
     * make (its owner may still rename or remove any entry). */
    if ((st.st_mode & 022) &&
        (!(st.st_mode & S_ISVTX) || (st.st_uid != 0 && st.st_uid != geteuid()))) {
        errno = EPERM;
        return -1;
    }
    return access(dir, W_OK | X_OK);
}

/* Each component of PATH, "." and empty ones dropped; false for "..". */
static bool path_components(const char *path, struct strvec *out)
{
    sv_split(out, path, "/");
    size_t k = 0;
    for (size_t i = 0; i < out->n; i++) {
        if (strcmp(out->v[i], "..") == 0)
            return false;
        if (!*out->v[i] || strcmp(out->v[i], ".") == 0)
            free(out->v[i]);
        else
            out->v[k++] = out->v[i];
    }
    out->n = k;
    return true;
}

int open_no_links(const char *path, int flags, mode_t mode, bool make_dirs,
                  bool (*dir_ok)(const struct stat *st, bool parent), char **where)
{
    struct strvec parts = {0};
    char *abs = path[0] == '/' ? xstrdup(path) : NULL;
    if (!abs) {
        char *cwd = getcwd(NULL, 0);
        abs = cwd ? xasprintf("%s/%s", cwd, path) : NULL;
        free(cwd);
    }
    int fd = abs && path_components(abs, &parts) && parts.n
             ? open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : (errno = EINVAL, -1);
    struct strvec so_far = {0};
    sv_push(&so_far, "");
    for (size_t i = 0; fd >= 0 && i < parts.n; i++) {
        struct stat st;
        bool last = i + 1 == parts.n;
        if (dir_ok && (fstat(fd, &st) != 0 || !dir_ok(&st, last))) {
            *where = i ? sv_join(&so_far, "/") : xstrdup("/");
            close(fd);
            fd = -1;
            errno = EPERM;
            break;
        }
        int dflags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
        int next = last ? openat(fd, parts.v[i], flags | O_NOFOLLOW | O_CLOEXEC, mode)
                        : openat(fd, parts.v[i], dflags);
        bool a_dir = !last || (flags & O_DIRECTORY);
        if (a_dir && next < 0 && errno == ENOENT && make_dirs && mkdirat(fd, parts.v[i], 0755) == 0)
            next = openat(fd, parts.v[i], last ? flags | O_NOFOLLOW | O_CLOEXEC : dflags);
        int e = errno;
        if (next < 0 && (e == ENOTDIR || e == ELOOP) &&
            fstatat(fd, parts.v[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
            e = ELOOP;   /* a link on the way: never followed */
        sv_push(&so_far, parts.v[i]);
        if (next < 0)
            *where = sv_join(&so_far, "/");
        close(fd);
        fd = next;
        errno = e;
    }
    sv_free(&parts);
    sv_free(&so_far);
    free(abs);
    return fd;
}

char *user_runtime_dir(void)
{
    const char *run = getenv("XDG_RUNTIME_DIR");
    if (run && run[0] == '/')
        return xasprintf("%s/rdmarun", run);
    return xasprintf("/tmp/rdmarun-%ld", (long)geteuid());
}

/* Reads fd to its end (at most max bytes, counted as read), then closes
 * it; errno stays the read's. */
static char *read_bounded(int fd, size_t max, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = xmalloc(cap + 1);
    for (;;) {
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        if (r == 0) {
            buf[n] = '\0';
            if (len)
                *len = n;
            close(fd);
            return buf;
        }
        n += (size_t)r;
        if (n > max) {
            errno = EFBIG;
            break;
        }
        if (n == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap + 1);
        }
    }
    int e = errno;
    free(buf);
    close(fd);
    errno = e;
    return NULL;
}

/* A regular file opened without blocking, then made blocking again; -1
 * with errno (EISDIR, EINVAL: a FIFO, device or socket). */
static int open_regular_at(int dirfd, const char *name, int flags, bool own, bool fifo)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
    if (fd < 0)
        return -1;
    struct stat st;
    int e = 0;
    if (fstat(fd, &st) != 0)
        e = errno;
    else if (S_ISDIR(st.st_mode))
        e = EISDIR;
    else if (!S_ISREG(st.st_mode) && !(fifo && S_ISFIFO(st.st_mode)))
        e = EINVAL;
    else if (own && st.st_uid != geteuid())
        e = EPERM;
    else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
        e = errno;
    if (e) {
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

char *read_own_file_at(int dirfd, const char *name, size_t max, size_t *len)
{
    int fd = open_regular_at(dirfd, name, O_NOFOLLOW, true, false);
    if (fd < 0) {
        if (errno == EINVAL || errno == EISDIR)
            errno = EPERM;
        return NULL;
    }
    return read_bounded(fd, max, len);
}

static FILE *open_file(const char *path, bool fifo)
{
    int fd = open_regular_at(AT_FDCWD, path, 0, false, fifo);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (fd >= 0 && !f)
        close(fd);
    return f;
}

FILE *open_input(const char *path)
{
    return open_file(path, false);
}

FILE *open_stream(const char *path)
{
    return strcmp(path, "-") == 0 ? stdin : open_file(path, true);
}

const char *input_strerror(int err)
{
    return err == EINVAL ? "not a regular file (a FIFO, a device or a socket: rdmarun reads "
                           "only regular files here)"
                         : strerror(err);
}

char *read_input(const char *path, size_t max, size_t *len)
{
    int fd = open_regular_at(AT_FDCWD, path, 0, false, false);
    if (fd < 0)
        return NULL;
    return read_bounded(fd, max, len);
}

int write_all(int fd, const void *buf, size_t len)
{
    const char *s = buf;
    while (len > 0) {
        ssize_t w = write(fd, s, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        len -= (size_t)w;
    }
    return 0;
}

int replace_file_at(int dirfd, const char *name, const void *buf, size_t len)
{
    return replace_file_mode_at(dirfd, name, buf, len, 0600);
}

int replace_file_mode_at(int dirfd, const char *name, const void *buf, size_t len, mode_t mode)
{
    char *tmp = xasprintf(".%s.%ld.tmp", name, (long)getpid());
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    /* the mode set on the open file: the umask does not narrow it */
    /* on disk before the rename, and the rename on disk before the caller
     * goes on: a power cut leaves the old file or the new one, never an
     * empty one */
    int rc = fd < 0 ? -1 : fchmod(fd, mode) != 0 ? -1 : write_all(fd, buf, len);
    if (rc == 0)
        rc = fsync(fd);
    if (fd >= 0 && close(fd) != 0)
        rc = -1;
    if (rc == 0)
        rc = renameat(dirfd, tmp, dirfd, name);
    if (rc == 0)
        fsync(dirfd);   /* (a folder opened O_RDONLY: EBADF or EINVAL on some file systems) */
    if (rc != 0 && fd >= 0) {
        int e = errno;
        unlinkat(dirfd, tmp, 0);
        errno = e;
    }
    free(tmp);
    return rc;
}

int replace_file_in(const char *dir, const char *name, const void *buf, size_t len)
{
    return replace_file_mode_in(dir, name, buf, len, 0600);
}

int replace_file_mode_in(const char *dir, const char *name, const void *buf, size_t len,
                         mode_t mode)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return -1;
    int rc = replace_file_mode_at(dfd, name, buf, len, mode), e = errno;
    close(dfd);
    errno = e;
    return rc;
}

int replace_own_file_mode_in(const char *dir, const char *name, const void *buf, size_t len,
                             mode_t mode)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return -1;
    struct stat st;
    int rc;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        (!S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
        errno = EPERM;
        rc = -1;
    } else
        rc = replace_file_mode_at(dfd, name, buf, len, mode);
    int e = errno;
    close(dfd);
    errno = e;
    return rc;
}

const char *file_kind(mode_t mode)
{
    return S_ISREG(mode) ? "regular file" : S_ISDIR(mode) ? "folder" :
           S_ISLNK(mode) ? "symbolic link" : S_ISFIFO(mode) ? "FIFO" :
           S_ISCHR(mode) ? "character device" : S_ISBLK(mode) ? "block device" :
           S_ISSOCK(mode) ? "socket" : "file of an unknown kind";
}

FILE *create_new_file_at(int dfd, const char *name)
{
    struct stat st;
    int fd = -1;
    if (fstat(dfd, &st) != 0 || st.st_uid != geteuid())
        errno = EPERM;
    else
        fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

FILE *create_new_file(const char *dir, const char *name)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return NULL;
    FILE *f = create_new_file_at(dfd, name);
    int e = errno;
    close(dfd);
    errno = e;
    return f;
}

/* Everything of a file but its last line, when that line has no newline
 * (cut short as it was written): nothing is appended to a torn line. */
static int cut_torn_line(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -1;
    char buf[4096];
    for (off_t end = st.st_size; end > 0;) {
        off_t at = end > (off_t)sizeof(buf) ? end - (off_t)sizeof(buf) : 0;
        ssize_t r = pread(fd, buf, (size_t)(end - at), at);
        if (r != (ssize_t)(end - at))
            return -1;
        for (ssize_t i = r - 1; i >= 0; i--)
            if (buf[i] == '\n')
                return at + i + 1 == st.st_size ? 0 : ftruncate(fd, at + i + 1);
        end = at;
    }
    return st.st_size ? ftruncate(fd, 0) : 0;
}

int line_log_open(const char *path, const char *header)
{
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
    struct stat st;
    if (fd < 0)
        return -1;
    if (cut_torn_line(fd) != 0 || fstat(fd, &st) != 0 ||
        (st.st_size == 0 && header &&
         (write_all(fd, header, strlen(header)) != 0 || fsync(fd) != 0))) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int line_log_append(int fd, const char *line, size_t len)
{
    /* One write, so the line is whole or, at worst, the torn last one
     * line_log_open cuts; on disk before the next step starts. */
    return write_all(fd, line, len) == 0 && fsync(fd) == 0 ? 0 : -1;
}
