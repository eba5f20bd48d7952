#include "profile/profile.h"
#include "profile/schema.h"
#include "profile/ucx_config.h"
#include "util/conf_file.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;
#include <sys/stat.h>

#ifndef RDMARUN_SYSCONFDIR
#define RDMARUN_SYSCONFDIR "/etc"
#endif
#ifndef RDMARUN_DATADIR
#define RDMARUN_DATADIR "/usr/share"
#endif
#ifndef RDMARUN_BINDIR
#define RDMARUN_BINDIR "/usr/bin"
#endif

#define PROFILE_MAX_BYTES (1024 * 1024) /* a profile is a page of text, not a data set */
#define PROFILE_MAX_LINE INI_LINE_MAX
#define INHERIT_MAX_DEPTH 32

void profile_search_path(struct strvec *dirs)
{
    const char *env = getenv("RDMARUN_PROFILE_PATH");
    if (env)
        sv_split(dirs, env, ":");
    const char *home = getenv("HOME");
    if (home && *home)
        sv_pushf(dirs, "%s/.config/rdmarun/profiles", home);
    /* Run from its build tree, rdmarun reads the tree's profiles, not
     * those of an installation it is not part of. */
    char *tree = source_tree_of_self();
    if (tree) {
        sv_pushf(dirs, "%s/profiles", tree);
        free(tree);
        return;
    }
    sv_push(dirs, RDMARUN_SYSCONFDIR "/rdmarun/profiles");
    /* An installation copied or moved elsewhere reads its own. */
    char *own = installed_path_of_self(RDMARUN_BINDIR, RDMARUN_DATADIR "/rdmarun/profiles");
    sv_push(dirs, own ? own : RDMARUN_DATADIR "/rdmarun/profiles");
    free(own);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *profile_find(const char *name, const struct strvec *dirs)
{
    if (strchr(name, '/'))
        return xstrdup(name);
    for (size_t i = 0; i < dirs->n; i++) {
        char *path = xasprintf("%s/%s.ini", dirs->v[i], name);
        if (is_file(path))
            return path;
        free(path);
    }
    return NULL;
}

/* ---- values ---- */

const struct entry *profile_get(const struct profile *p, const char *section, const char *key)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->e[i].section, section) == 0 && strcmp(p->e[i].key, key) == 0)
            return &p->e[i];
    return NULL;
}

const char *profile_value(const struct profile *p, const char *section, const char *key)
{
    const struct entry *e = profile_get(p, section, key);
    return e ? e->value : NULL;
}

void profile_put(struct profile *p, const char *section, const char *key, const char *value,
                 enum origin_kind kind, const char *file, int line)
{
    struct entry *e = (struct entry *)profile_get(p, section, key);
    if (e) {
        free(e->value);
        free(e->file);
    } else {
        GROW(p->e, p->cap, p->n + 1);
        e = &p->e[p->n++];
        e->section = xstrdup(section);
        e->key = xstrdup(key);
    }
    e->value = xstrdup(value);
    e->kind = kind;
    e->file = file ? xstrdup(file) : NULL;
    e->line = line;
}

static void entries_free(struct entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(e[i].section);
        free(e[i].key);
        free(e[i].value);
        free(e[i].file);
    }
    free(e);
}

void profile_free(struct profile *p)
{
    entries_free(p->e, p->n);
    free(p->name);
    free(p->path);
    sv_free(&p->files);
    sv_free(&p->passed);
    memset(p, 0, sizeof(*p));
}

char *entry_origin(const struct entry *e)
{
    switch (e->kind) {
    case ORIGIN_FILE: {
        const char *base = strrchr(e->file, '/');
        return xasprintf("%s:%d", base ? base + 1 : e->file, e->line);
    }
    case ORIGIN_ENV:
        return xstrdup("environment");
    case ORIGIN_SET:
        return xstrdup("--set");
    case ORIGIN_X:
        return xstrdup("-x");
    case ORIGIN_DEFAULT:
        break;
    }
    return xstrdup("default");
}

void profile_write(const struct profile *p, FILE *out)
{
    fprintf(out, "# profile %s\n", p->name);
    for (size_t i = 0; i < p->files.n; i++)
        fprintf(out, "# file: %s\n", p->files.v[i]);
    for (size_t s = 0; s < schema_nsections; s++) {
        bool header = false;
        for (size_t i = 0; i < p->n; i++) {
            const struct entry *e = &p->e[i];
            if (strcmp(e->section, schema_sections[s].name) != 0 || e->kind == ORIGIN_DEFAULT)
                continue;
            if (!header)
                fprintf(out, "\n[%s]\n", e->section);
            header = true;
            char *origin = entry_origin(e);
            int width = (int)(strlen(e->key) + strlen(e->value) + 3);
            /* A value near the line limit gets its origin on the line
             * before, so that what is written reads back. */
            if (width + 3 + strlen(origin) > PROFILE_MAX_LINE)
                fprintf(out, "; %s\n%s=%s\n", origin, e->key, e->value);
            else
                fprintf(out, "%s = %s%*s ; %s\n", e->key, e->value, width < 40 ? 40 - width : 0,
                        "", origin);
            free(origin);
        }
    }
}

/* ---- names: section and key checks shared by files, --set and environment ---- */

/* Canonical (section, key) or an error message. */
static bool resolve_name(const char *section, const char *key, const struct sectiondef **sec_out,
                         char **key_out, char **why)
{
    const struct sectiondef *sec = schema_section(section);
    *key_out = NULL;
    if (!sec) {
        const char *names[16];
        for (size_t i = 0; i < schema_nsections; i++)
            names[i] = schema_sections[i].name;
        const char *s = suggest(section, names, schema_nsections);
        *why = s ? xasprintf("unknown section [%s] (did you mean [%s]?)", section, s)
                 : xasprintf("unknown section [%s] (sections: profile, ucx, nccl, mpi, bind, "
                             "env, check)", section);
        return false;
    }
    *sec_out = sec;
    char *k = schema_canonical_key(sec, key, why);
    if (!k)
        return false;
    if (sec->keyset == KEYS_FIXED && !schema_key(sec, k)) {
        const char *names[16];
        size_t n = 0;
        for (const struct keydef *kd = sec->keys; kd->name && n < 16; kd++)
            names[n++] = kd->name;
        const char *s = suggest(k, names, n);
        *why = s ? xasprintf("unknown key '%s' in [%s] (did you mean '%s'?)", key, sec->name, s)
                 : xasprintf("unknown key '%s' in [%s]", key, sec->name);
        free(k);
        return false;
    }
    if (sec->keyset == KEYS_NCCL) {
        const char *s = NULL;
        if (!schema_nccl_known(k, &s)) {
            *why = xasprintf("unknown NCCL variable NCCL_%s in [nccl]%s%s%s (hint: a variable "
                             "newer than rdmarun knows can go under [env] as NCCL_%s)",
                             k, s ? " (did you mean NCCL_" : "", s ? s : "", s ? "?)" : "", k);
            free(k);
            return false;
        }
    }
    if (sec->keyset == KEYS_UCX) {
        char *s = NULL;
        if (!ucx_config_known(k, &s)) {
            *why = xasprintf("UCX %s has no configuration variable UCX_%s%s%s%s (hint: "
                             "'ucx_info -c -f' lists them all)", ucx_config_version(), k,
                             s ? " (did you mean UCX_" : "", s ? s : "", s ? "?)" : "");
            free(s);
            free(k);
            return false;
        }
    }
    *key_out = k;
    return true;
}

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
    if (!schema_section(name) && !resolve_name(name, "x", &sec, &key, &why)) {
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
    if (!resolve_name(section, name, &sec, &key, &why)) {
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

static bool entry_valid(struct entry *e, char **why);
static void value_error(const struct entry *e, const char *why);

/* The values of a file's entries, each error with its line. */
static void check_values(struct file_state *st)
{
    for (size_t i = 0; i < st->n; i++) {
        char *why = NULL;
        if (!entry_valid(&st->e[i], &why)) {
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
    return profile_find(name, dirs);
}

static int load_rec(const char *name, const struct strvec *dirs, struct profile *out,
                    struct load_stack *stack, const char *from_file, int from_line)
{
    char *path = find_parent(name, from_file, dirs);
    if (!path) {
        char *searched = sv_join(dirs, ", ");
        char *sibling = from_file ? path_beside(from_file, name) : NULL;
        if (sibling && is_file(sibling))   /* "inherit = b.ini" meant the file beside it */
            rr_error("%s:%d: parent profile '%s' not found (searched: %s) (hint: a name is "
                     "looked up in those folders; for the file beside %s say inherit = ./%s)",
                     from_file, from_line, name, searched, from_file, name);
        else if (from_file)
            rr_error("%s:%d: parent profile '%s' not found (searched: %s)", from_file, from_line,
                     name, searched);
        else if (is_file(name))   /* "-p site.ini" meant the file here */
            rr_error("profile '%s' not found (searched: %s) (hint: a name is looked up in "
                     "those folders; for the file in this folder say -p ./%s)", name, searched,
                     name);
        else
            rr_error("profile '%s' not found (searched: %s) (hint: 'rdmarun profiles' lists "
                     "the profiles; -p also takes a path to a file)", name, searched);
        free(searched);
        free(sibling);
        return RR_EX_NOINPUT;
    }
    /* The same file however it is spelled (./b.ini, ../x/b.ini, a link). */
    char *real = realpath(path, NULL);
    for (int i = 0; i < stack->depth; i++) {
        char *other = realpath(stack->paths[i], NULL);
        bool same = real && other ? strcmp(real, other) == 0 : strcmp(stack->paths[i], path) == 0;
        free(other);
        if (same) {
            free(real);
            struct strvec chain = {0};
            for (int j = i; j < stack->depth; j++)
                sv_push(&chain, stack->paths[j]);
            sv_push(&chain, path);
            char *text = sv_join(&chain, " -> ");
            rr_error("%s:%d: inheritance cycle: %s", from_file, from_line, text);
            free(text);
            sv_free(&chain);
            free(path);
            return RR_EX_CONFIG;
        }
    }
    /* Reached again through another parent (a diamond): read once, where
     * it was first reached, so that n files take n reads, not 4^depth. */
    for (size_t i = 0; real && i < stack->seen.n; i++)
        if (strcmp(stack->seen.v[i], real) == 0) {
            free(real);
            free(path);
            return 0;
        }
    if (stack->seen.n == INHERIT_MAX_FILES) {
        rr_error("%s:%d: profiles inherit from more than %d files", from_file, from_line,
                 INHERIT_MAX_FILES);
        free(real);
        free(path);
        return RR_EX_CONFIG;
    }
    if (real)
        sv_push(&stack->seen, real);
    free(real);
    if (stack->depth == INHERIT_MAX_DEPTH) {
        rr_error("%s:%d: profiles inherit more than %d levels deep", from_file, from_line,
                 INHERIT_MAX_DEPTH);
        free(path);
        return RR_EX_CONFIG;
    }
    struct file_state st;
    int rc = read_file(path, &st);
    stack->paths[stack->depth++] = path;
    for (size_t i = 0; rc == 0 && i < st.inherit.n; i++)
        rc = load_rec(st.inherit.v[i], dirs, out, stack, path, st.inherit_line);
    stack->depth--;
    /* A parent refused: this file's values are said now too, not after a fix. */
    for (size_t i = 0; rc && !st.errors && i < st.n; i++) {
        char *why = NULL;
        if (!entry_valid(&st.e[i], &why))
            value_error(&st.e[i], why);
        free(why);
    }
    if (rc == 0) {
        for (size_t i = 0; i < st.n; i++) {
            struct entry *e = &st.e[i];
            profile_put(out, e->section, e->key, e->value, e->kind, e->file, e->line);
        }
        sv_push(&out->files, path);
    }
    entries_free(st.e, st.n);
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

/* ---- overrides from the command line and the environment ---- */

static int put_checked(struct profile *p, const char *section, const char *key, const char *value,
                       enum origin_kind kind, const char *what)
{
    const struct sectiondef *sec = NULL;
    char *k = NULL, *why = NULL;
    if (!resolve_name(section, key, &sec, &k, &why)) {
        rr_error("%s: %s", what, why);
        free(why);
        return RR_EX_CONFIG;
    }
    if (!is_printable(value)) {
        rr_error("%s: value contains a control character", what);
        free(k);
        return RR_EX_CONFIG;
    }
    if (strlen(value) > PROFILE_MAX_LINE) {
        rr_error("%s: value is longer than the %d characters a profile line may have", what,
                 PROFILE_MAX_LINE);
        free(k);
        return RR_EX_CONFIG;
    }
    profile_put(p, sec->name, k, value, kind, NULL, 0);
    free(k);
    return 0;
}

int profile_apply_set(struct profile *p, const char *assignment)
{
    const char *dot = strchr(assignment, '.');
    const char *eq = strchr(assignment, '=');
    if (!dot || !eq || dot > eq || dot == assignment || eq == dot + 1) {
        rr_error("--set %.200s: expected section.key=value, for example --set ucx.RNDV_THRESH=16M",
                 assignment);
        return RR_EX_USAGE;
    }
    char *section = xstrndup(assignment, (size_t)(dot - assignment));
    char *key = xstrndup(dot + 1, (size_t)(eq - dot - 1));
    /* The value itself stays out of messages: it may be huge or hold control characters. */
    char *what = xasprintf("--set %.*s", (int)(eq - assignment), assignment);
    int rc = put_checked(p, section, key, eq + 1, ORIGIN_SET, what);
    free(section);
    free(key);
    free(what);
    return rc;
}

/* Whether an environment variable configures UCX or NCCL; when it does not,
 * the note the plan gives it (`from`: "the environment", "-x"). */
static bool env_configures(const char *section, const char *prefix, const char *key,
                           const char *from, struct strvec *passed)
{
    char *s = NULL;
    const char *ns = NULL;
    bool ucx = strcmp(section, "ucx") == 0;
    bool known = ucx ? ucx_config_known(key, &s)
               : strcmp(section, "nccl") == 0 ? schema_nccl_known(key, &ns) : true;
    const char *maybe = ucx ? s : ns;
    if (!known)
        sv_pushf(passed, "%s%s from %s configures nothing in %s%s: passed to the job "
                 "untouched%s%s%s%s", prefix, key, from, ucx ? "UCX " : "NCCL",
                 ucx ? ucx_config_version() : "", maybe ? " (did you mean " : "",
                 maybe ? prefix : "", maybe ? maybe : "", maybe ? "?)" : "");
    free(s);
    return known;
}

static int apply_vars(struct profile *p, char *const *envp, enum origin_kind kind)
{
    static const struct { const char *prefix, *section; } tools[] = {
        {"UCX_", "ucx"}, {"NCCL_", "nccl"}, {"OMPI_MCA_", "mpi"},
    };
    int rc = 0;
    for (; *envp; envp++) {
        const char *eq = strchr(*envp, '=');
        if (!eq)
            continue;
        for (size_t t = 0; t < sizeof(tools) / sizeof(*tools); t++) {
            size_t plen = strlen(tools[t].prefix);
            if (strncmp(*envp, tools[t].prefix, plen) != 0 || eq - *envp <= (long)plen)
                continue;
            char *key = xstrndup(*envp + plen, (size_t)(eq - *envp) - plen);
            /* The environment a job inherits is not a profile: a UCX_ or NCCL_
             * variable that is no configuration variable (UCX_ROOT, NCCL_HOME
             * from Spack and modules) passes through untouched, as it does
             * with plain mpirun. A real one is checked like a profile's. */
            bool env = kind == ORIGIN_ENV;
            if (!env_configures(tools[t].section, tools[t].prefix, key,
                                env ? "the environment" : "-x", &p->passed)) {
                free(key);
                continue;
            }
            char *what = xasprintf("%s %.*s", env ? "environment variable" : "-x",
                                   (int)(eq - *envp), *envp);
            int r = put_checked(p, tools[t].section, key, eq + 1, kind, what);
            if (r && !rc)
                rc = r;
            free(key);
            free(what);
        }
    }
    return rc;
}

int profile_apply_env(struct profile *p, char *const *envp)
{
    /* A copy: asking UCX (ucx_config.c) hides and restores the UCX_*
     * variables, which moves the entries of environ under the loop. */
    struct strvec vars = {0};
    for (; *envp; envp++)
        sv_push(&vars, *envp);
    int rc = vars.n ? apply_vars(p, vars.v, ORIGIN_ENV) : 0;
    sv_free(&vars);
    return rc;
}

int profile_check_x(struct profile *p, const struct strvec *assignments)
{
    struct profile x;
    memset(&x, 0, sizeof(x));
    struct strvec vars = {0};
    for (size_t i = 0; i < assignments->n; i++)
        if (strchr(assignments->v[i], '='))
            sv_push(&vars, assignments->v[i]);
    int rc = vars.n ? apply_vars(&x, vars.v, ORIGIN_X) : 0;
    if (!rc && x.n)
        rc = profile_validate(&x);
    sv_append(&p->passed, &x.passed);
    sv_free(&vars);
    profile_free(&x);
    return rc;
}

/* ---- value checks ---- */

static void value_error(const struct entry *e, const char *why)
{
    if (e->kind == ORIGIN_FILE)
        rr_error("%s:%d: [%s] %s = %s: %s", e->file, e->line, e->section, e->key, e->value, why);
    else {
        char *o = entry_origin(e);
        rr_error("%s: [%s] %s = %s: %s", o, e->section, e->key, e->value, why);
        free(o);
    }
}

/* A variable the plan sets from its own section, set in [env] (or --set
 * env.*): the job would get the [env] value while the plan showed the
 * section's. Why it belongs elsewhere, or NULL. A UCX_ or NCCL_ name the
 * library does not know (UCX_ROOT, a variable newer than rdmarun's list)
 * stays in [env]. */
static char *env_managed(const char *name)
{
    static const struct { const char *prefix, *section; } managed[] = {
        {"UCX_", "ucx"}, {"NCCL_", "nccl"}, {"OMPI_MCA_", "mpi"},
    };
    for (size_t i = 0; i < sizeof(managed) / sizeof(*managed); i++) {
        const char *rest = name + strlen(managed[i].prefix);
        if (!starts_with(name, managed[i].prefix) || !*rest)
            continue;
        char *suggestion = NULL;
        const char *nccl_suggestion;
        bool known = i == 0 ? ucx_config_known(rest, &suggestion)
                   : i == 1 ? schema_nccl_known(rest, &nccl_suggestion) : true;
        free(suggestion);
        if (known)
            return xasprintf("%s belongs in [%s] as %s = ..., where the plan checks it and shows "
                             "the value the job gets (in [env] it would override the plan "
                             "unseen)", name, managed[i].section, rest);
    }
    return NULL;
}

/* Whether an entry's value is one its key takes; else why not (*why). A UCX
 * value UCX writes otherwise is replaced with UCX's own spelling. */
static bool entry_valid(struct entry *e, char **why)
{
    const struct sectiondef *sec = schema_section(e->section);
    *why = NULL;
    if (str_ieq(e->value, "auto") && schema_resolvable(e->section, e->key))
        return true;
    if (sec->keyset == KEYS_FIXED)
        return schema_check_value(schema_key(sec, e->key), e->value, why);
    if (sec->keyset == KEYS_UCX) {
        char *fixed = NULL;
        if (!ucx_config_check(e->key, e->value, why, &fixed))
            return false;
        if (fixed) {
            free(e->value);
            e->value = fixed;
        }
        return true;
    }
    if (sec->keyset != KEYS_ENV && !*e->value) {
        *why = xstrdup("empty value");
        return false;
    }
    return sec->keyset != KEYS_ENV || !(*why = env_managed(e->key));
}

int profile_validate(struct profile *p)
{
    int errors = 0;
    for (size_t i = 0; i < p->n; i++) {
        char *why = NULL;
        if (!entry_valid(&p->e[i], &why)) {
            value_error(&p->e[i], why);
            errors++;
        }
        free(why);
    }
    return errors ? RR_EX_CONFIG : 0;
}

/* ---- listing ---- */

static int on_description(void *user, const char *section, const char *name, const char *value)
{
    if (str_ieq(section, "profile") && str_ieq(name, "description")) {
        free(*(char **)user);
        *(char **)user = xstrdup(value);
    }
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void profile_list(const struct strvec *dirs, struct profile_info **out, size_t *n)
{
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    ini_configure();
    for (size_t d = 0; d < dirs->n; d++) {
        DIR *dir = opendir(dirs->v[d]);
        if (!dir)
            continue;
        struct strvec names = {0};
        struct dirent *de;
        while ((de = readdir(dir))) {
            size_t len = strlen(de->d_name);
            if (len > 4 && strcmp(de->d_name + len - 4, ".ini") == 0)
                sv_push(&names, de->d_name);
        }
        closedir(dir);
        if (names.n)
            qsort(names.v, names.n, sizeof(char *), by_name);
        for (size_t i = 0; i < names.n; i++) {
            char *name = xstrndup(names.v[i], strlen(names.v[i]) - 4);
            bool shadowed = false;
            for (size_t j = 0; j < *n; j++)
                shadowed |= strcmp((*out)[j].name, name) == 0;
            GROW(*out, cap, *n + 1);
            struct profile_info *pi = &(*out)[(*n)++];
            pi->name = name;
            pi->path = xasprintf("%s/%s", dirs->v[d], names.v[i]);
            pi->description = NULL;
            pi->shadowed = shadowed;
            ini_parse(pi->path, on_description, &pi->description);
        }
        sv_free(&names);
    }
}

void profile_info_free(struct profile_info *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(list[i].name);
        free(list[i].path);
        free(list[i].description);
    }
    free(list);
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
