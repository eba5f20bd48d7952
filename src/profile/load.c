/* Reading a profile: one file through inih, each line's errors said at
 * it, and its parents (inherit) read first, each file once. */
#include "profile/profile_parts.h"
#include "profile/ucx_config.h"
#include "util/conf_file.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

#define INHERIT_MAX_DEPTH 32

/* ---- reading one file ---- */

/* Errors shown per file: past them, one line says how many more (a file of
 * 100,000 duplicate keys must not print 100,000 lines). */
#define FILE_ERRORS_SHOWN 20

struct file_error {
    int line;
    char *text;
};

struct file_state {
    const char *path;
    FILE *f;
    int line;              /* line the reader last returned */
    char *buf;
    size_t bufcap;
    size_t bytes;          /* read so far, against PROFILE_MAX_BYTES */
    int errors;
    /* The first FILE_ERRORS_SHOWN errors by line, said in line order once
     * the file is read: its names, its lines and its values in one pass. */
    struct file_error shown[FILE_ERRORS_SHOWN];
    int nshown;
    char *bad_section;     /* last unknown section reported, to say it once */
    bool lost_section;     /* after a section line inih cannot parse: its keys are not
                              the section before's, and not said as such */
    struct entry *e;       /* this file's own entries, in order */
    size_t n, cap;
    struct strvec inherit;
    int inherit_line;
};

static void file_error_text(struct file_state *st, int line, const char *text)
{
    st->errors++;
    int at = st->nshown;
    while (at > 0 && st->shown[at - 1].line > line)
        at--;
    if (at == FILE_ERRORS_SHOWN)
        return;
    if (st->nshown == FILE_ERRORS_SHOWN)
        free(st->shown[--st->nshown].text);
    memmove(&st->shown[at + 1], &st->shown[at], (size_t)(st->nshown - at) * sizeof(*st->shown));
    st->shown[at].line = line;
    st->shown[at].text = xstrdup(text);
    st->nshown++;
}

static void file_error(struct file_state *st, const char *fmt, const char *detail)
{
    char *text = xasprintf(fmt, detail);
    file_error_text(st, st->line, text);
    free(text);
}

/* Whether inih parses a line (with leading white space gone) as a section,
 * a key or a comment: its own scan (ini.c, find_chars_or_comment), where
 * ';' after white space starts a comment. */
static bool ini_line_ok(const char *t)
{
    if (!*t || *t == '#' || *t == ';')
        return true;
    const char *want = *t == '[' ? "]" : "=:";
    bool was_space = false;
    for (const char *c = *t == '[' ? t + 1 : t; *c; c++) {
        if (strchr(want, *c))
            return true;
        if (was_space && *c == ';')
            return false;
        was_space = *c == ' ' || *c == '\t' || *c == '\r' || *c == '\n';
    }
    return false;
}

/* A section line ("[name]" and what follows): an unknown section is said at
 * its own line, keys or none, and its keys are not said again. */
static void section_line(struct file_state *st, const char *t)
{
    char *name = xstrndup(t + 1, strcspn(t + 1, "]"));
    const struct sectiondef *sec = NULL;
    char *key = NULL, *why = NULL;
    if (!schema_section(name) && !profile_resolve_name(name, "x", &sec, &key, &why)) {
        file_error(st, "%s", why);
        free(st->bad_section);
        st->bad_section = name;
        name = NULL;
    }
    free(key);
    free(why);
    free(name);
}

/* inih reader: one line per call, so st->line is the line being parsed. It
 * also refuses what inih would silently cut or misread: over-long lines and
 * NUL bytes. */
static char *read_line(char *str, int num, void *stream)
{
    struct file_state *st = stream;
    ssize_t len = getline(&st->buf, &st->bufcap, st->f);
    if (len < 0)
        return NULL;
    st->line++;
    st->bytes += (size_t)len;   /* a file that grows while read: counted, not stat'd */
    if (st->line == 1 && starts_with(st->buf, "\xEF\xBB\xBF")) {   /* a UTF-8 BOM: no text */
        memmove(st->buf, st->buf + 3, (size_t)len - 2);
        len -= 3;
    }
    if (st->bytes > PROFILE_MAX_BYTES) {
        file_error(st, "%s", "the file grew past the 1 MiB a profile may have while read");
        return NULL;
    }
    if ((size_t)len != strlen(st->buf)) {
        file_error(st, "%s", "line contains a NUL byte (is this a text file?)");
        return NULL;
    }
    if (len >= num - 1 || len > PROFILE_MAX_LINE) {
        file_error(st, "line is longer than %s characters", "4096");
        return NULL;
    }
    /* A line inih cannot parse it skips after noting the first: each is
     * said here, with its own number. */
    const char *t = st->buf + strspn(st->buf, " \t\r\n");
    bool ok = ini_line_ok(t);
    if (*t == '[')
        st->lost_section = !ok;
    if (!ok)
        file_error(st, "%s", "malformed line (expected '[section]', 'key = value' or a comment "
                   "starting with '#' or ';')");
    else if (*t == '[')
        section_line(st, t);
    memcpy(str, st->buf, (size_t)len + 1);
    return str;
}

static int on_value(void *user, const char *section, const char *name, const char *value)
{
    struct file_state *st = user;
    if (st->lost_section)
        return 0;   /* its section line is the error */
    if (!*section) {
        file_error(st, "'%s' comes before any [section]", name);
        return 0;
    }
    const struct sectiondef *sec = NULL;
    char *key = NULL, *why = NULL;
    if (!profile_resolve_name(section, name, &sec, &key, &why)) {
        bool unknown_section = sec == NULL;
        if (!unknown_section || !st->bad_section || strcmp(st->bad_section, section) != 0)
            file_error(st, "%s", why);
        if (unknown_section) {
            free(st->bad_section);
            st->bad_section = xstrdup(section);
        }
        free(why);
        return 0;
    }
    if (!is_printable(value)) {
        file_error(st, "value of '%s' contains a control character", name);
        free(key);
        return 0;
    }
    for (size_t i = 0; i < st->n; i++) {
        if (strcmp(st->e[i].section, sec->name) == 0 && strcmp(st->e[i].key, key) == 0) {
            char *text = xasprintf("duplicate key '%s' in [%s] (first set at line %d)", name,
                                   sec->name, st->e[i].line);
            file_error_text(st, st->line, text);
            free(text);
            free(key);
            return 0;
        }
    }
    if (strcmp(sec->name, "profile") == 0 && strcmp(key, "inherit") == 0) {
        sv_split(&st->inherit, value, ",");
        st->inherit_line = st->line;
    }
    GROW(st->e, st->cap, st->n + 1);
    struct entry *e = &st->e[st->n++];
    e->section = xstrdup(sec->name);
    e->key = key;
    e->value = xstrdup(value);
    e->kind = ORIGIN_FILE;
    e->file = xstrdup(st->path);
    e->line = st->line;
    return 1;
}


/* The values of a file's entries, each error with its line. */
static void check_values(struct file_state *st)
{
    for (size_t i = 0; i < st->n; i++) {
        char *why = NULL;
        if (!profile_entry_valid(&st->e[i], &why)) {
            char *text = xasprintf("[%s] %s = %s: %s", st->e[i].section, st->e[i].key,
                                   st->e[i].value, why);
            file_error_text(st, st->e[i].line, text);
            free(text);
        }
        free(why);
    }
}

/* Parse one file into st. Returns an RR_EX_* status. */
static int read_file(const char *path, struct file_state *st)
{
    memset(st, 0, sizeof(*st));
    st->path = path;
    st->f = open_input(path);
    if (!st->f) {
        int err = errno;
        if (err == EISDIR)
            rr_error("profile %s is a directory", path);
        else
            rr_error("cannot read profile %s: %s%s", path, input_strerror(err),
                     err == EACCES ? " (hint: check the file's permissions)" : "");
        return RR_EX_NOINPUT;
    }
    struct stat sb;
    if (fstat(fileno(st->f), &sb) == 0 && sb.st_size > PROFILE_MAX_BYTES) {
        rr_error("profile %s is %lld bytes, more than the 1 MiB a profile may have (hint: is "
                 "this really a profile?)", path, (long long)sb.st_size);
        fclose(st->f);
        return RR_EX_CONFIG;
    }
    ini_configure();
    int bad = ini_parse_stream(read_line, st, on_value, st);
    fclose(st->f);
    free(st->buf);
    free(st->bad_section);
    /* Every line inih cannot parse is said above, each with its own number;
     * its first error is said only when nothing was (it parses otherwise). */
    if (bad > 0 && !st->errors)
        file_error_text(st, bad, "malformed line (expected '[section]', 'key = value' or a "
                        "comment starting with '#' or ';')");
    /* A file with errors has its values checked too, so that one pass says
     * all of them. */
    if (st->errors)
        check_values(st);
    for (int i = 0; i < st->nshown; i++) {
        rr_error("%s:%d: %s", path, st->shown[i].line, st->shown[i].text);
        free(st->shown[i].text);
    }
    if (st->errors > FILE_ERRORS_SHOWN)
        rr_error("%s: %d more errors not shown", path, st->errors - FILE_ERRORS_SHOWN);
    return st->errors ? RR_EX_CONFIG : 0;
}

/* ---- inheritance ---- */

struct load_stack {
    const char *paths[INHERIT_MAX_DEPTH];
    int depth;
    struct strvec seen;   /* every file read (real paths): each is read once */
};

#define INHERIT_MAX_FILES 256

/* NAME in the folder of FILE. Caller frees. */
static char *path_beside(const char *file, const char *name)
{
    const char *slash = strrchr(file, '/');
    return slash ? xasprintf("%.*s/%s", (int)(slash - file), file, name) : xstrdup(name);
}

/* A parent by name from a file that is itself on the search path: the first
 * NAME.ini after that file (a site's roce.ini with "inherit = roce" takes the
 * shipped one, as a shell's PATH or a module system's next does), else the
 * first on the path. */
static char *find_after(const char *name, const char *from_file, const struct strvec *dirs)
{
    char *self = realpath(from_file, NULL), *first = NULL, *next = NULL;
    bool passed = false;
    for (size_t i = 0; i < dirs->n && !next; i++) {
        char *path = xasprintf("%s/%s.ini", dirs->v[i], name);
        char *real = profile_is_file(path) ? realpath(path, NULL) : NULL;
        if (real && self && strcmp(real, self) == 0)
            passed = true;
        else if (real && passed)
            next = xstrdup(path);
        else if (real && !first)
            first = xstrdup(path);
        free(real);
        free(path);
    }
    free(self);
    if (passed) {
        free(first);
        return next;
    }
    free(next);
    return first;
}

/* A parent written as a path is relative to the file that names it. */
static char *find_parent(const char *name, const char *from_file, const struct strvec *dirs)
{
    if (from_file && strchr(name, '/') && name[0] != '/') {
        while (starts_with(name, "./"))
            name += 2;
        const char *slash = strrchr(from_file, '/');
        bool here = !slash || (slash == from_file + 1 && from_file[0] == '.');
        return here ? xasprintf("./%s", name)
                    : xasprintf("%.*s/%s", (int)(slash - from_file), from_file, name);
    }
    return from_file && !strchr(name, '/') ? find_after(name, from_file, dirs)
                                           : profile_find(name, dirs);
}

/* The profile name on the search path nearest `name` ("rce": roce), as
 * " (did you mean 'roce'?)", or "". Static. */
static const char *near_profile(const char *name, const struct strvec *dirs)
{
    static char said[160];
    struct profile_info *list;
    size_t n;
    profile_list(dirs, &list, &n);
    const char **names = xcalloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++)
        names[i] = list[i].name;
    const char *s = suggest(name, names, n);
    snprintf(said, sizeof(said), s ? " (did you mean '%.100s'?)" : "", s);
    free(names);
    profile_info_free(list, n);
    return said;
}

/* Whether file is NAME.ini. */
static bool same_name(const char *file, const char *name)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t n = strlen(name);
    return strncmp(base, name, n) == 0 && strcmp(base + n, ".ini") == 0;
}

/* A parent (or -p's profile) that cannot be found, said with what was
 * searched and the spelling meant where the file is there. */
static int not_found(const char *name, const struct strvec *dirs, const char *from_file,
                     int from_line)
{
    char *searched = sv_join(dirs, ", ");
    char *sibling = from_file ? path_beside(from_file, name) : NULL;
    if (sibling && profile_is_file(sibling))   /* "inherit = b.ini" meant the file beside it */
        rr_error("%s:%d: parent profile '%s' not found (searched: %s) (hint: a name is "
                 "looked up in those folders; for the file beside %s say inherit = ./%s)",
                 from_file, from_line, name, searched, from_file, name);
    else if (from_file && same_name(from_file, name))
        rr_error("%s:%d: parent profile '%s' not found after this file on the search path "
                 "(searched: %s) (hint: a profile that inherits its own name takes the next one "
                 "on the path, as a site's roce.ini takes the shipped roce; to inherit another "
                 "file, give its path)", from_file, from_line, name, searched);
    else if (from_file)
        rr_error("%s:%d: parent profile '%s' not found%s (searched: %s)", from_file, from_line,
                 name, near_profile(name, dirs), searched);
    else if (profile_is_file(name))   /* "-p site.ini" meant the file here */
        rr_error("profile '%s' not found (searched: %s) (hint: a name is looked up in "
                 "those folders; for the file in this folder say -p ./%s)", name, searched,
                 name);
    else
        rr_error("profile '%s' not found%s (searched: %s) (hint: 'rdmarun profiles' lists "
                 "the profiles; -p also takes a path to a file)", name, near_profile(name, dirs),
                 searched);
    free(searched);
    free(sibling);
    return RR_EX_NOINPUT;
}

/* Whether path (real: its real path) is on the stack of files being read:
 * an inheritance cycle, said with its chain. */
static bool in_cycle(const struct load_stack *stack, const char *path, const char *real,
                     const char *from_file, int from_line)
{
    for (int i = 0; i < stack->depth; i++) {
        char *other = realpath(stack->paths[i], NULL);
        bool same = real && other ? strcmp(real, other) == 0 : strcmp(stack->paths[i], path) == 0;
        free(other);
        if (!same)
            continue;
        struct strvec chain = {0};
        for (int j = i; j < stack->depth; j++)
            sv_push(&chain, stack->paths[j]);
        sv_push(&chain, path);
        char *text = sv_join(&chain, " -> ");
        rr_error("%s:%d: inheritance cycle: %s", from_file, from_line, text);
        free(text);
        sv_free(&chain);
        return true;
    }
    return false;
}

/* Whether the file may be read now: 0; 1 when it was read already
 * (reached again through another parent); or RR_EX_CONFIG (a cycle, too
 * many files, too deep). */
static int may_read(struct load_stack *stack, const char *path, const char *from_file,
                    int from_line)
{
    /* The same file however it is spelled (./b.ini, ../x/b.ini, a link). */
    char *real = realpath(path, NULL);
    int rc = 0;
    if (in_cycle(stack, path, real, from_file, from_line))
        rc = RR_EX_CONFIG;
    /* Reached again through another parent (a diamond): read once, where
     * it was first reached, so that n files take n reads, not 4^depth. */
    for (size_t i = 0; !rc && real && i < stack->seen.n; i++)
        if (strcmp(stack->seen.v[i], real) == 0)
            rc = 1;
    if (!rc && stack->seen.n == INHERIT_MAX_FILES) {
        rr_error("%s:%d: profiles inherit from more than %d files", from_file, from_line,
                 INHERIT_MAX_FILES);
        rc = RR_EX_CONFIG;
    }
    if (!rc && real)
        sv_push(&stack->seen, real);
    free(real);
    if (!rc && stack->depth == INHERIT_MAX_DEPTH) {
        rr_error("%s:%d: profiles inherit more than %d levels deep", from_file, from_line,
                 INHERIT_MAX_DEPTH);
        rc = RR_EX_CONFIG;
    }
    return rc;
}

static int load_rec(const char *name, const struct strvec *dirs, struct profile *out,
                    struct load_stack *stack, const char *from_file, int from_line)
{
    char *path = find_parent(name, from_file, dirs);
    if (!path)
        return not_found(name, dirs, from_file, from_line);
    int rc = may_read(stack, path, from_file, from_line);
    if (rc) {
        free(path);
        return rc == 1 ? 0 : rc;
    }
    struct file_state st;
    rc = read_file(path, &st);
    stack->paths[stack->depth++] = path;
    for (size_t i = 0; rc == 0 && i < st.inherit.n; i++)
        rc = load_rec(st.inherit.v[i], dirs, out, stack, path, st.inherit_line);
    stack->depth--;
    /* A parent refused: this file's values are said now too, not after a fix. */
    for (size_t i = 0; rc && !st.errors && i < st.n; i++) {
        char *why = NULL;
        if (!profile_entry_valid(&st.e[i], &why))
            profile_value_error(&st.e[i], why);
        free(why);
    }
    if (rc == 0) {
        for (size_t i = 0; i < st.n; i++) {
            struct entry *e = &st.e[i];
            profile_put(out, e->section, e->key, e->value, e->kind, e->file, e->line);
        }
        sv_push(&out->files, path);
    }
    profile_entries_free(st.e, st.n);
    sv_free(&st.inherit);
    free(path);
    return rc;
}

int profile_load(const char *name, const struct strvec *dirs, struct profile *out)
{
    memset(out, 0, sizeof(*out));
    out->name = xstrdup(name);
    struct load_stack stack = {.depth = 0};
    int rc = load_rec(name, dirs, out, &stack, NULL, 0);
    sv_free(&stack.seen);
    if (rc == 0) {
        out->path = xstrdup(out->files.v[out->files.n - 1]);
        /* inherit names this file's parents only; the merged profile has them all. */
        const struct entry *inh = profile_get(out, "profile", "inherit");
        if (inh && strcmp(inh->file, out->path) != 0)
            profile_put(out, "profile", "inherit", "", ORIGIN_DEFAULT, NULL, 0);
    }
    return rc;
}

int profile_load_for_job(const char *name, const struct strvec *dirs, const struct strvec *sets,
                         struct profile *p)
{
    int rc = profile_load(name, dirs, p);
    /* environ is read only now: asking UCX for its tables swaps it. */
    if (!rc)
        rc = profile_apply_env(p, environ);
    for (size_t i = 0; !rc && sets && i < sets->n; i++)
        rc = profile_apply_set(p, sets->v[i]);
    if (!rc)
        rc = profile_validate(p);
    return rc;
}
