/* inih's reader over a text, and rdmarun's own settings files: see
 * conf_file.h. */
#include "util/conf_file.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define CONF_MAX_BYTES (1 << 20)
#define CONF_FORMAT 2

void ini_configure(void)
{
    ini_allow_multiline = false;
    ini_use_stack = false;
    ini_max_line = INI_LINE_MAX + 3;
    /* Off the stack, inih's buffer is ini_initial_alloc bytes (200), not
     * ini_max_line: lines of 199 characters and more were refused. */
    ini_initial_alloc = INI_LINE_MAX + 3;
    ini_allow_realloc = false;
}

void ini_text_init(struct ini_text *t, const char *text, size_t len)
{
    memset(t, 0, sizeof(*t));
    t->next = text;
    t->end = text + len;
}

char *ini_text_line(char *buf, int size, void *user)
{
    struct ini_text *t = user;
    if (t->bad_line || t->next >= t->end)
        return NULL;
    const char *nl = memchr(t->next, '\n', (size_t)(t->end - t->next));
    size_t take = nl ? (size_t)(nl - t->next) + 1 : (size_t)(t->end - t->next);
    t->line++;
    if (memchr(t->next, '\0', take))
        t->why = "a NUL byte in the line (is this a text file?)";
    else if (take > (size_t)size - 1)
        t->why = "the line is longer than inih reads whole";
    if (t->why) {
        t->bad_line = t->line;
        return NULL;
    }
    memcpy(buf, t->next, take);
    buf[take] = '\0';
    t->next += take;
    return buf;
}

/* Needs %XX: what inih would cut (';' begins a comment after a space),
 * trim (spaces at the ends) or not keep on one line. */
static bool needs_escape(const char *v, size_t i, size_t len)
{
    unsigned char c = (unsigned char)v[i];
    return c == '%' || c == ';' || c < 0x20 || c == 0x7f ||
           ((c == ' ' || c == '\t') && (i == 0 || i == len - 1));
}

void conf_put(FILE *f, const char *name, const char *value)
{
    size_t len = strlen(value);
    fprintf(f, "%s=", name);
    for (size_t i = 0; i < len; i++) {
        if (needs_escape(value, i, len))
            fprintf(f, "%%%02X", (unsigned char)value[i]);
        else
            fputc(value[i], f);
    }
    fputc('\n', f);
}

size_t conf_put_length(const char *name, const char *value)
{
    size_t len = strlen(value), n = strlen(name) + 1;
    for (size_t i = 0; i < len; i++)
        n += needs_escape(value, i, len) ? 3 : 1;
    return n;
}

void conf_putf(FILE *f, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *v = xvasprintf(fmt, ap);
    va_end(ap);
    conf_put(f, name, v);
    free(v);
}

void conf_begin(FILE *f, const char *comment)
{
    fprintf(f, "# %s\nformat=%d\n", comment, CONF_FORMAT);
}

/* %XX decoded in place; false on a malformed escape. */
static bool unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r != '%') {
            *w++ = *r;
            continue;
        }
        if (!isxdigit((unsigned char)r[1]) || !isxdigit((unsigned char)r[2]))
            return false;
        char hex[3] = {r[1], r[2], '\0'};
        long c = strtol(hex, NULL, 16);
        if (c == 0)
            return false;   /* (a NUL ends the value) */
        *w++ = (char)c;
        r += 2;
    }
    *w = '\0';
    return true;
}

struct conf_read {
    struct ini_text text;
    const char *path;
    conf_setting fn;
    void *user;
    int format, rc;
};

static int on_setting(void *user, const char *section, const char *name, const char *value)
{
    struct conf_read *r = user;
    (void)section;
    if (r->rc || !name)
        return 0;
    char *where = xasprintf("%s:%d", r->path, r->text.line);
    char *v = xstrdup(value);
    if (strcmp(name, "format") == 0 && r->format == 0) {
        r->format = atoi(v);
        if (r->format != CONF_FORMAT) {
            rr_error("%s: format %s, not %d (hint: a newer rdmarun wrote it)", where, v,
                     CONF_FORMAT);
            r->rc = RR_EX_DATAERR;
        }
    } else if (r->format && !unescape(v)) {
        rr_error("%s: %s: a malformed %%XX escape", where, name);
        r->rc = RR_EX_DATAERR;
    } else {
        r->rc = r->fn(r->user, name, v, where);
    }
    free(v);
    free(where);
    return r->rc == 0;
}

int conf_file_read(const char *path, const char *hint, conf_setting fn, void *user)
{
    size_t len;
    char *text = read_input(path, CONF_MAX_BYTES, &len);
    if (!text) {
        rr_error("cannot read %s: %s (hint: %s)", path, input_strerror(errno), hint);
        return RR_EX_NOINPUT;
    }
    struct conf_read r = {.path = path, .fn = fn, .user = user};
    ini_configure();
    ini_text_init(&r.text, text, len);
    int bad = ini_parse_stream(ini_text_line, &r.text, on_setting, &r);
    free(text);
    if (!r.rc && r.text.bad_line) {
        rr_error("%s:%d: %s", path, r.text.bad_line, r.text.why);
        r.rc = RR_EX_DATAERR;
    } else if (!r.rc && bad > 0) {
        rr_error("%s:%d: not a NAME=VALUE setting", path, bad);
        r.rc = RR_EX_DATAERR;
    }
    return r.rc;
}
