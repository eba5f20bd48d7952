#include "util/fs.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

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
