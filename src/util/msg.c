#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --color: -1 auto (a terminal, and NO_COLOR unset or empty), 0 never,
 * 1 always. */
static int colour_mode = -1;

void msg_color(const char *mode)
{
    colour_mode = !mode || !strcmp(mode, "auto") ? -1 : !strcmp(mode, "always") ? 1 : 0;
}

bool msg_color_on(FILE *f)
{
    if (colour_mode >= 0)
        return colour_mode;
    const char *no = getenv("NO_COLOR");   /* https://no-color.org */
    return !(no && *no) && isatty(fileno(f));
}

/* SGR sequences: bold red for errors and FALLBACK, bold yellow for warnings. */
#define RED "\033[1;31m"
#define YELLOW "\033[1;33m"
#define RESET "\033[0m"

char *msg_paint_verdict(FILE *f, const char *line)
{
    static const char word[] = "FALLBACK";
    if (strncmp(line, word, sizeof(word) - 1) != 0 || !msg_color_on(f))
        return xstrdup(line);
    return xasprintf(RED "%s" RESET "%s", word, line + sizeof(word) - 1);
}

const char *msg_warning_word(FILE *f)
{
    return msg_color_on(f) ? YELLOW "warning:" RESET " " : "warning: ";
}

const char *msg_error_word(FILE *f)
{
    return msg_color_on(f) ? RED "error:" RESET " " : "error: ";
}

/* Longest message shown whole: a value of 128 KiB (a file's line, a
 * hostname in facts) is cut, with its length. */
#define SAY_MAX 4096

/* msg_capture: where the first error goes instead of stderr. */
static char **capture;

void msg_capture(char **first)
{
    capture = first;
    if (first)
        *first = NULL;
}

/* One line, whatever the values in it: what they carry of escape
 * sequences and newlines is shown, never sent to the terminal. */
static void say(const char *kind, const char *fmt, va_list ap)
{
    char *text = xvasprintf(fmt, ap);
    char *safe = term_safe(text, strlen(text), SAY_MAX);
    if (capture) {   /* kept, not said: the first error only */
        if (!*capture && *kind == 'e')
            *capture = safe;
        else
            free(safe);
        free(text);
        return;
    }
    const char *colour = !*kind || !msg_color_on(stderr) ? NULL : *kind == 'e' ? RED : YELLOW;
    size_t word = strcspn(kind, " ");   /* "error:" of "error: " */
    if (colour)
        fprintf(stderr, "rdmarun: %s%.*s" RESET "%s%s\n", colour, (int)word, kind, kind + word,
                safe);
    else
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
