#include "util/fs.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int make_dirs(const char *path)
{
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

char *read_first_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *path = xvasprintf(fmt, ap);
    va_end(ap);
    FILE *f = fopen(path, "r");
    free(path);
    if (!f)
        return NULL;
    char buf[512];
    char *line = fgets(buf, sizeof(buf), f);
    fclose(f);
    if (!line)
        return NULL;
    char *out = trim_dup(buf, strlen(buf));
    if (!*out) {
        free(out);
        return NULL;
    }
    return out;
}

char *source_tree_of_self(void)
{
    char *self = realpath("/proc/self/exe", NULL);
    char *slash = self ? strrchr(self, '/') : NULL;
    char *tree = NULL;
    if (slash) {
        *slash = '\0';
        tree = read_first_line("%s/rdmarun-tree", self);
    }
    free(self);
    return tree;
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

char *read_own_file_at(int dirfd, const char *name, size_t max, size_t *len)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
        errno = EPERM;
        goto out;
    }
    if ((unsigned long long)st.st_size > max) {
        errno = EFBIG;
        goto out;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    buf = xmalloc(cap + 1);
    for (;;) {   /* the file may grow while read: read up to one byte more than max */
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            free(buf);
            buf = NULL;
            goto out;
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n > max) {
            free(buf);
            buf = NULL;
            errno = EFBIG;
            goto out;
        }
        if (n == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap + 1);
        }
    }
    buf[n] = '\0';
    if (len)
        *len = n;
out:
    close(fd);
    return buf;
}

int replace_file_at(int dirfd, const char *name, const void *buf, size_t len)
{
    char *tmp = xasprintf(".%s.%ld.tmp", name, (long)getpid());
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int rc = fd < 0 ? -1 : 0;
    for (size_t done = 0; rc == 0 && done < len;) {
        ssize_t w = write(fd, (const char *)buf + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            rc = -1;
        else
            done += (size_t)w;
    }
    if (fd >= 0 && close(fd) != 0)
        rc = -1;
    if (rc == 0)
        rc = renameat(dirfd, tmp, dirfd, name);
    if (rc != 0 && fd >= 0) {
        int e = errno;
        unlinkat(dirfd, tmp, 0);
        errno = e;
    }
    free(tmp);
    return rc;
}

FILE *create_new_file(const char *dir, const char *name)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return NULL;
    struct stat st;
    int fd = -1;
    if (fstat(dfd, &st) != 0 || st.st_uid != geteuid())
        errno = EPERM;
    else
        fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int e = errno;
    close(dfd);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !f) {
        e = errno;
        close(fd);
    }
    errno = e;
    return f;
}
