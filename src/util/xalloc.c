#include "util/xalloc.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p)
{
    if (!p) {
        fputs("rdmarun: error: out of memory\n", stderr);
        exit(71);
    }
    return p;
}

void *xmalloc(size_t n) { return check(malloc(n ? n : 1)); }
void *xcalloc(size_t n, size_t size) { return check(calloc(n ? n : 1, size ? size : 1)); }
void *xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1)); }
char *xstrdup(const char *s) { return check(strdup(s)); }
char *xstrndup(const char *s, size_t n) { return check(strndup(s, n)); }

FILE *xmemstream_open(char **buf, size_t *len) { return check(open_memstream(buf, len)); }

void xmemstream_close(FILE *m)
{
    if (fclose(m) != 0)
        check(NULL);
}

char *xvasprintf(const char *fmt, va_list ap)
{
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        check(NULL);
    return s;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

void grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return;
    size_t n = *cap ? *cap : 8;
    while (n < need)   /* doubled, never past what size_t holds */
        n = n > SIZE_MAX / 2 ? need : n * 2;
    if (size && n > SIZE_MAX / size)
        check(NULL);   /* (more than memory can hold) */
    *v = xrealloc(*v, n * size);
    *cap = n;
}
