#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest message shown whole: a value of 128 KiB (a file's line, a
 * hostname in facts) is cut, with its length. */
#define SAY_MAX 4096

static int muted;

void rr_mute(int on) { muted = on; }

/* One line, whatever the values in it: what they carry of escape
 * sequences and newlines is shown, never sent to the terminal. */
static void say(const char *kind, const char *fmt, va_list ap)
{
    if (muted)
        return;
    char *text = xvasprintf(fmt, ap);
    char *safe = term_safe(text, strlen(text), SAY_MAX);
    fprintf(stderr, "rdmarun: %s%s\n", kind, safe);
    free(safe);
    free(text);
}

#define SAY(kind)            \
    va_list ap;              \
    va_start(ap, fmt);       \
    say(kind, fmt, ap);      \
    va_end(ap)

void rr_error(const char *fmt, ...) { SAY("error: "); }
void rr_warn(const char *fmt, ...) { SAY("warning: "); }
void rr_note(const char *fmt, ...) { SAY(""); }
