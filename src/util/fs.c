#include "util/fs.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
