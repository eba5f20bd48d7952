#include "util/options.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(base, o, type) ((type *)((char *)(base) + (o)->offset))

/* VALUE must be one of "a|b|c". */
static bool one_of(const char *value, const char *choices)
{
    size_t n = strlen(value);
    for (const char *c = choices; *c; c += strcspn(c, "|"), c += *c == '|')
        if (strncmp(c, value, n) == 0 && (c[n] == '|' || c[n] == '\0'))
            return true;
    return false;
}

/* A value of the type its metavar names (N, R, W: a whole number; S:
 * seconds; N[,N...]: whole numbers; N|auto; DEV[:PORT]: a device and a port
 * number); NULL when it is one, else what was expected. Other metavars
 * (NAME, PATH, FILE, DIR, REGEX) take any text. */
static const char *type_error(const char *meta, const char *value)
{
    long n;
    double sec;
    if (!meta)
        return NULL;
    if (!strcmp(meta, "N") || !strcmp(meta, "R") || !strcmp(meta, "W"))
        return parse_long(value, 0, 1000000000L, &n) ? NULL : "a whole number";
    if (!strcmp(meta, "N|auto"))
        return str_ieq(value, "auto") || parse_long(value, 0, 1000000000L, &n)
               ? NULL : "a whole number or auto";
    if (!strcmp(meta, "S"))
        return parse_seconds(value, 1e9, &sec) ? NULL : "seconds, a number above 0";
    if (!strcmp(meta, "N[,N...]")) {
        for (const char *p = value; ; p += strcspn(p, ",") + 1) {
            char one[32];
            size_t len = strcspn(p, ",");
            snprintf(one, sizeof(one), "%.*s", (int)(len < 31 ? len : 31), p);
            if (len > 31 || !parse_long(one, 1, 1000000000L, &n))
                return "whole numbers above 0, separated by commas";
            if (!p[len])
                return NULL;
        }
    }
    if (!strcmp(meta, "DEV[:PORT]")) {
        const char *colon = strchr(value, ':');
        if (!*value || colon == value || strpbrk(value, " \t/"))
            return "a device name, optionally :PORT";
        return !colon || parse_long(colon + 1, 1, 255, &n) ? NULL
               : "a device name, optionally :PORT with a port number (mlx5_0:1)";
    }
    return NULL;
}

static int store(const struct opt *o, void *base, const char *value)
{
    if (!*value) {   /* "-p $PROFILE" with PROFILE unset: never a silent default */
        rr_error("--%s needs a value, not an empty one (hint: is a variable in the job script "
                 "unset?)", o->name);
        return -1;
    }
    if (o->choices && !one_of(value, o->choices)) {
        rr_error("--%s %s: expected %s", o->name, value, o->choices);
        return -1;
    }
    const char *want = type_error(o->metavar, value);
    if (want) {
        rr_error("--%s %s: expected %s (%s)", o->name, value, want, o->metavar);
        return -1;
    }
    if (o->type == OPT_LIST) {
        sv_push(FIELD(base, o, struct strvec), value);
    } else {
        char **field = FIELD(base, o, char *);
        free(*field);
        *field = xstrdup(value);
    }
    return 1;
}

int opt_parse(const struct opt *table, size_t n, unsigned scope, void *base, int argc,
              char **argv, int *i)
{
    const char *arg = argv[*i];
    for (size_t k = 0; k < n; k++) {
        const struct opt *o = &table[k];
        if (!(o->scope & scope))
            continue;
        size_t len = strlen(o->name);
        bool lng = strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, o->name, len) == 0;
        if (o->type != OPT_FLAG && lng && arg[2 + len] == '=')
            return store(o, base, arg + 3 + len);
        if (!(lng && arg[2 + len] == '\0') && !(o->alias && strcmp(arg, o->alias) == 0))
            continue;
        if (o->type == OPT_FLAG) {
            *FIELD(base, o, bool) = true;
            return 1;
        }
        if (*i + 1 >= argc) {
            rr_error("option %s needs a value (hint: rdmarun --help)", arg);
            return -1;
        }
        ++*i;
        return store(o, base, argv[*i]);
    }
    return 0;
}

void opt_write(const struct opt *table, size_t n, unsigned scope, const void *base,
               struct strvec *argv)
{
    for (size_t k = 0; k < n; k++) {
        const struct opt *o = &table[k];
        if (!(o->scope & scope))
            continue;
        if (o->type == OPT_FLAG) {
            if (*FIELD(base, o, const bool))
                sv_pushf(argv, "--%s", o->name);
        } else if (o->type == OPT_VALUE) {
            const char *v = *FIELD(base, o, char *const);
            if (v) {
                sv_pushf(argv, "--%s", o->name);
                sv_push(argv, v);
            }
        } else {
            const struct strvec *v = FIELD(base, o, const struct strvec);
            for (size_t j = 0; j < v->n; j++) {
                sv_pushf(argv, "--%s", o->name);
                sv_push(argv, v->v[j]);
            }
        }
    }
}

void opt_help_one(const struct opt *o, bool brief, FILE *out)
{
    char head[96];
    const char *meta = o->type == OPT_FLAG ? "" : o->choices ? o->choices : o->metavar;
    snprintf(head, sizeof(head), "%s%s--%s%s%s", o->alias ? o->alias : "",
             o->alias ? ", " : "    ", o->name, *meta ? " " : "", meta);
    /* The help text: after the head when it fits, else on the next line. */
    const char *h = o->help;
    bool first = true;
    if (strlen(head) > 24) {
        fprintf(out, "  %s\n", head);
        first = false;
    }
    while (*h) {
        size_t len = strcspn(h, "\n");
        if (brief && h[len]) {   /* the first line only, complete in itself */
            const char *open = NULL;
            for (const char *c = h; c < h + len; c++)
                open = *c == '(' ? c : *c == ')' ? NULL : open;
            if (open)
                len = (size_t)(open - h);
            while (len && strchr(" ;,", h[len - 1]))
                len--;
        }
        fprintf(out, "  %-24s %.*s\n", first ? head : "", (int)len, h);
        if (brief)
            break;
        first = false;
        h += len + (h[len] == '\n');
    }
}

void opt_help(const struct opt *table, size_t n, unsigned scope, unsigned shown, FILE *out)
{
    for (size_t k = 0; k < n; k++) {
        const struct opt *o = &table[k];
        if ((o->scope & scope) && !(o->scope & shown) && o->help)
            opt_help_one(o, false, out);
    }
}

void opt_free(const struct opt *table, size_t n, void *base)
{
    for (size_t k = 0; k < n; k++) {
        const struct opt *o = &table[k];
        if (o->type == OPT_VALUE) {
            char **field = FIELD(base, o, char *);
            free(*field);
            *field = NULL;
        } else if (o->type == OPT_LIST) {
            sv_free(FIELD(base, o, struct strvec));
        }
    }
}
