#include "profile/profile.h"
#include "profile/profile_parts.h"
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

bool profile_is_file(const char *path)
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
        if (profile_is_file(path))
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

void profile_entries_free(struct entry *e, size_t n)
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
    profile_entries_free(p->e, p->n);
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
bool profile_resolve_name(const char *section, const char *key, const struct sectiondef **sec_out,
                         char **key_out, char **why)
{
    const struct sectiondef *sec = schema_section(section);
    *key_out = NULL;
    if (!sec) {
        const char *names[32];
        struct strvec all = {0};
        for (size_t i = 0; i < schema_nsections && i < 32; i++)
            sv_push(&all, names[i] = schema_sections[i].name);
        const char *s = suggest(section, names, schema_nsections);
        char *list = sv_join(&all, ", ");
        *why = s ? xasprintf("unknown section [%s] (did you mean [%s]?)", section, s)
                 : xasprintf("unknown section [%s] (sections: %s)", section, list);
        free(list);
        sv_free(&all);
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
    char *near = NULL;
    if (!schema_var_known(sec, k, &near)) {
        char *what = sec->keyset == KEYS_UCX
                   ? xasprintf("UCX %s has no configuration variable", ucx_config_version())
                   : xasprintf("unknown %s variable", sec->library);
        *why = xasprintf("%s %s%s in [%s]%s%s%s%s (hint: %s)", what, sec->prefix, k, sec->name,
                         near ? " (did you mean " : "", near ? sec->prefix : "",
                         near ? near : "", near ? "?)" : "", sec->hint);
        free(what);
        free(near);
        free(k);
        return false;
    }
    *key_out = k;
    return true;
}

/* ---- overrides from the command line and the environment ---- */

static int put_checked(struct profile *p, const char *section, const char *key, const char *value,
                       enum origin_kind kind, const char *what)
{
    const struct sectiondef *sec = NULL;
    char *k = NULL, *why = NULL;
    if (!profile_resolve_name(section, key, &sec, &k, &why)) {
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

/* Whether an environment variable configures its library; when it does
 * not, the note the plan gives it (`from`: "the environment", "-x"). */
static bool env_configures(const struct sectiondef *sec, const char *key, const char *from,
                           struct strvec *passed)
{
    char *maybe = NULL;
    bool known = schema_var_known(sec, key, &maybe);
    bool ucx = sec->keyset == KEYS_UCX;
    if (!known)
        sv_pushf(passed, "%s%s from %s configures nothing in %s%s%s: passed to the job "
                 "untouched%s%s%s%s", sec->prefix, key, from, sec->library, ucx ? " " : "",
                 ucx ? ucx_config_version() : "", maybe ? " (did you mean " : "",
                 maybe ? sec->prefix : "", maybe ? maybe : "", maybe ? "?)" : "");
    free(maybe);
    return known;
}

static int apply_vars(struct profile *p, char *const *envp, enum origin_kind kind)
{
    int rc = 0;
    for (; *envp; envp++) {
        const char *eq = strchr(*envp, '='), *rest = NULL;
        if (!eq)
            continue;
        char *name = xstrndup(*envp, (size_t)(eq - *envp));
        const struct sectiondef *sec = schema_section_of_var(name, &rest);
        if (!sec || !sec->from_env) {
            free(name);
            continue;
        }
        /* The environment a job inherits is not a profile: a UCX_ or NCCL_
         * variable that is no configuration variable (UCX_ROOT, NCCL_HOME
         * from Spack and modules) passes through untouched, as it does
         * with plain mpirun. A real one is checked like a profile's. */
        bool env = kind == ORIGIN_ENV;
        if (env_configures(sec, rest, env ? "the environment" : "-x", &p->passed)) {
            char *what = xasprintf("%s %s", env ? "environment variable" : "-x", name);
            int r = put_checked(p, sec->name, rest, eq + 1, kind, what);
            if (r && !rc)
                rc = r;
            free(what);
        }
        free(name);
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

void profile_value_error(const struct entry *e, const char *why)
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
    const char *rest = NULL;
    const struct sectiondef *sec = schema_section_of_var(name, &rest);
    if (!sec || !sec->from_env)
        return NULL;
    char *suggestion = NULL;
    bool known = schema_var_known(sec, rest, &suggestion);
    free(suggestion);
    if (!known)
        return NULL;
    return xasprintf("%s belongs in [%s] as %s = ..., where the plan checks it and shows "
                     "the value the job gets (in [env] it would override the plan unseen)",
                     name, sec->name, rest);
}

/* Whether an entry's value is one its key takes; else why not (*why). A UCX
 * value UCX writes otherwise is replaced with UCX's own spelling. */
bool profile_entry_valid(struct entry *e, char **why)
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
        if (!profile_entry_valid(&p->e[i], &why)) {
            profile_value_error(&p->e[i], why);
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
