/* What a program or library said about itself, kept per build: see
 * file_cache.h. */
#include "util/file_cache.h"
#include "util/fs.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The key's format: a change here (its version) reads no older answer. */
#define FILE_CACHE_VERSION 3

bool file_cache_open(struct file_cache *c, const char *kind, const char *real_path)
{
    memset(c, 0, sizeof(*c));
    c->dirfd = -1;
    struct stat st;
    if (!real_path || stat(real_path, &st) != 0)
        return false;
    c->key = xasprintf("rdmarun-%s %d %s size %lld mtime %lld.%09ld inode %llu:%llu", kind,
                       FILE_CACHE_VERSION, real_path, (long long)st.st_size,
                       (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                       (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
    /* One file per path: a new build of the same path replaces it. */
    char *id = xasprintf("%s %s", kind, real_path);
    c->file = xasprintf("%s.%016llx", kind, (unsigned long long)fnv1a(FNV1A_INIT, id, strlen(id)));
    free(id);
    char *dir = user_runtime_dir();
    c->dirfd = private_dir_open(dir);
    free(dir);
    return true;
}

char *file_cache_get(const struct file_cache *c, size_t max)
{
    if (c->dirfd < 0)
        return NULL;
    size_t len;
    char *text = read_own_file_at(c->dirfd, c->file, max, &len);
    size_t klen = strlen(c->key);
    if (!text || len <= klen || strncmp(text, c->key, klen) != 0 || text[klen] != '\n') {
        free(text);
        return NULL;
    }
    memmove(text, text + klen + 1, len - klen);   /* (with its '\0') */
    return text;
}

void file_cache_put(const struct file_cache *c, const char *text)
{
    if (c->dirfd < 0)
        return;
    char *all = xasprintf("%s\n%s", c->key, text);
    replace_file_at(c->dirfd, c->file, all, strlen(all));
    free(all);
}

void file_cache_close(struct file_cache *c)
{
    if (c->dirfd >= 0)
        close(c->dirfd);
    free(c->file);
    free(c->key);
    memset(c, 0, sizeof(*c));
    c->dirfd = -1;
}
