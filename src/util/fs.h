#ifndef RDMARUN_UTIL_FS_H
#define RDMARUN_UTIL_FS_H
/* mkdir -p: every missing folder of `path` (mode 0755). 0, or -1 with errno. */
int make_dirs(const char *path);
/* First line of a file, trimmed; NULL if absent or empty. */
char *read_first_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The source tree an uninstalled rdmarun runs from: the build writes its
 * path into rdmarun-tree beside the binary (never installed). NULL for an
 * installed rdmarun. */
char *source_tree_of_self(void);
#endif
