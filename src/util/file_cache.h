/* A per-user cache of what a program or a library said about itself (a
 * launcher's options, an MPI library's version), so that it is asked once
 * per build rather than once per rdmarun. The answer is keyed by the file's
 * identity: its real path, size, modification time, device and inode; a new
 * build or package makes a new key, and the old answer is not read. One
 * file per (kind, real path) in the user's runtime folder
 * (user_runtime_dir, opened by private_dir_open), read only as the user's
 * own regular file (read_own_file_at), written by atomic replace
 * (replace_file_at): two rdmaruns that write at once leave one whole answer. */
#ifndef RDMARUN_UTIL_FILE_CACHE_H
#define RDMARUN_UTIL_FILE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

struct file_cache {
    int dirfd;    /* the runtime folder; -1: no cache (asked every time) */
    char *file;   /* "KIND.HASH" */
    char *key;    /* the first line: kind, version, path and identity */
};

/* Opens the cache of KIND (a word) for the file at REAL_PATH (realpath's).
 * False when the file cannot be stat'ed: then c holds nothing to free. A
 * folder that cannot be used leaves dirfd -1: get misses, put does nothing. */
bool file_cache_open(struct file_cache *c, const char *kind, const char *real_path);
/* The answer kept for this key (the text after the key's line), at most
 * MAX bytes read; NULL when there is none. Caller frees. */
char *file_cache_get(const struct file_cache *c, size_t max);
/* Keeps TEXT as the answer (a full disk: asked again next time). */
void file_cache_put(const struct file_cache *c, const char *text);
void file_cache_close(struct file_cache *c);

#endif
