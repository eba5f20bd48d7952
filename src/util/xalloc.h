/* Allocation that cannot return NULL: rdmarun has nothing useful to do
 * without memory, so it stops with a message instead of crashing later. */
#ifndef RDMARUN_XALLOC_H
#define RDMARUN_XALLOC_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* A string written as a stream (open_memstream), for strings built from
 * many small pieces; xmemstream_close ends it, *buf then holds the text. */
FILE *xmemstream_open(char **buf, size_t *len);
void xmemstream_close(FILE *m);

/* Grow *v (of *cap elements of size `size`) so that it holds at least need. */
void grow(void **v, size_t *cap, size_t need, size_t size);
#define GROW(v, cap, need) grow((void **)&(v), &(cap), (need), sizeof(*(v)))

#endif
