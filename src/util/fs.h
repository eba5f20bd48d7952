#ifndef RDMARUN_UTIL_FS_H
#define RDMARUN_UTIL_FS_H
/* mkdir -p: every missing folder of `path` (mode 0755). 0, or -1 with errno. */
int make_dirs(const char *path);
#endif
