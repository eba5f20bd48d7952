#include "util/msg.h"
#include <stdarg.h>
#include <stdio.h>

static void say(const char *kind, const char *fmt, va_list ap)
{
    fprintf(stderr, "rdmarun: %s", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

#define SAY(kind)            \
    va_list ap;              \
    va_start(ap, fmt);       \
    say(kind, fmt, ap);      \
    va_end(ap)

void rr_error(const char *fmt, ...) { SAY("error: "); }
void rr_warn(const char *fmt, ...) { SAY("warning: "); }
void rr_note(const char *fmt, ...) { SAY(""); }
