#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push_owned(struct strvec *sv, char *s)
{
    GROW(sv->v, sv->cap, sv->n + 2);
    sv->v[sv->n++] = s;
    sv->v[sv->n] = NULL;
}

void sv_push(struct strvec *sv, const char *s) { push_owned(sv, xstrdup(s)); }

void sv_pushf(struct strvec *sv, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    push_owned(sv, xvasprintf(fmt, ap));
    va_end(ap);
}

void sv_append(struct strvec *sv, const struct strvec *other)
{
    for (size_t i = 0; i < other->n; i++)
        sv_push(sv, other->v[i]);
}

int sv_find(const struct strvec *sv, const char *s)
{
    for (size_t i = 0; i < sv->n; i++)
        if (strcmp(sv->v[i], s) == 0)
            return (int)i;
    return -1;
}

void sv_free(struct strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

void sv_split(struct strvec *sv, const char *s, const char *sep)
{
    while (*s) {
        size_t len = strcspn(s, sep);
        char *item = trim_dup(s, len);
        if (*item)
            push_owned(sv, item);
        else
            free(item);
        s += len;
        if (*s)
            s++;
    }
}

char *sv_join(const struct strvec *sv, const char *sep)
{
    size_t len = 1;
    for (size_t i = 0; i < sv->n; i++)
        len += strlen(sv->v[i]) + strlen(sep);
    char *out = xmalloc(len), *end = out;
    *end = '\0';
    /* stpcpy, not strcat: strcat walks the whole string again for each item */
    for (size_t i = 0; i < sv->n; i++)
        end = stpcpy(i ? stpcpy(end, sep) : end, sv->v[i]);
    return out;
}
