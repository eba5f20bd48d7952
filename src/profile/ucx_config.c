#include "profile/ucx_config.h"
#include <config.h>
#include "util/size.h"
#include "util/strmap.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>
#include <ucs/config/parser.h>
#include <ucs/debug/log_def.h>
#include <uct/api/uct.h>
#include <unistd.h>

extern char **environ;

/* UCX_TLS aliases are a static table inside libucp (ucp_tl_aliases) with no
 * API; these are UCX 1.13's. "all" is special. */
static const char *const tl_aliases[] = {
    "all", "mm", "sm", "shm", "ib", "ud_v", "ud_x", "ud", "rc_v", "rc_x", "rc",
    "dc", "dc_x", "ugni", "cuda", "rocm",
};

/* Walk UCX's list of configuration tables. (UCX's ucs_list_for_each macro
 * computes a member address through a null pointer, which UBSan reports.) */
#define FOR_EACH_CONFIG_TABLE(entry)                                                          \
    for (ucs_list_link_t *l_ = ucs_config_global_list.next;                                    \
         l_ != &ucs_config_global_list &&                                                      \
         ((entry) = (ucs_config_global_list_entry_t *)(void *)((char *)l_ -                    \
                    offsetof(ucs_config_global_list_entry_t, list)), 1);                       \
         l_ = l_->next)

/* The table that reads a variable, and the field's name within it. */
struct owner {
    const ucs_config_global_list_entry_t *entry;
    char *field;               /* "RC_IB_SL": sub-table prefixes, then the field */
};

static struct {
    int loaded;                /* 1: the first tables, 2: with the modules' (load) */
    ucp_config_t *config;
    struct strvec vars;        /* variable names without UCX_ */
    struct owner *owners;      /* one per name in vars */
    size_t owners_cap;
    struct strmap index;       /* vars by name: UCX 1.18 has thousands, each found many times */
    struct strvec transports;  /* transport names from the config tables */
    char *log;                 /* last message UCX logged while we asked it */
} ucx;

static ucs_log_func_rc_t capture_log(const char *file, unsigned line, const char *function,
                                     ucs_log_level_t level,
                                     const ucs_log_component_config_t *comp_conf,
                                     const char *message, va_list ap)
{
    (void)file, (void)line, (void)function, (void)comp_conf;
    if (level <= UCS_LOG_LEVEL_WARN) {
        free(ucx.log);
        if (vasprintf(&ucx.log, message, ap) < 0)
            ucx.log = NULL;
    }
    return UCS_LOG_FUNC_RC_STOP;
}

#define MAX_TABLE_DEPTH 8

static ssize_t var_find(const char *name)
{
    size_t i;
    return strmap_get(&ucx.index, name, &i) ? (ssize_t)i : -1;
}

static void var_add(const char *name, const ucs_config_global_list_entry_t *entry,
                    const char *field)
{
    if (var_find(name) >= 0)
        return;
    strmap_put(&ucx.index, name, ucx.vars.n);
    sv_push(&ucx.vars, name);
    GROW(ucx.owners, ucx.owners_cap, ucx.vars.n);
    ucx.owners[ucx.vars.n - 1] = (struct owner){entry, xstrdup(field)};
}

/* Every name UCX reads a field under, as ucs_config_apply_config_vars does:
 * the field's name behind the table's prefix and behind each sub-table
 * prefix on the way to it (UCX_RC_VERBS_SL, UCX_RC_SL and UCX_IB_SL are one
 * field of rc_verbs). Each name keeps the table it was found in and the name
 * ucs_config_parser_set_value finds the field by within it: the field's own
 * name at the top, else behind its innermost sub-table prefix. */
static void add_names(const ucs_config_global_list_entry_t *entry,
                      const ucs_config_field_t *fields, const char **chain, size_t depth)
{
    for (const ucs_config_field_t *f = fields; f->name; f++) {
        if (f->parser.read == ucs_config_sscanf_table) {
            if (depth < MAX_TABLE_DEPTH) {
                chain[depth] = f->name;
                add_names(entry, (const ucs_config_field_t *)f->parser.arg, chain, depth + 1);
            }
            continue;
        }
        char *field = xasprintf("%s%s", depth > 1 ? chain[depth - 1] : "", f->name);
        for (size_t i = 0; i < depth; i++) {
            char *name = xasprintf("%s%s", chain[i], f->name);
            var_add(name, entry, field);
            free(name);
        }
        free(field);
    }
}

/* The names and transports of every configuration table UCX has
 * registered so far (var_add keeps a name's first table, as before). */
static void add_tables(void)
{
    ucs_config_global_list_entry_t *entry;
    FOR_EACH_CONFIG_TABLE(entry) {
        if (entry->table) {
            const char *chain[MAX_TABLE_DEPTH] = {entry->prefix ? entry->prefix : ""};
            add_names(entry, entry->table, chain, 1);
        }
    }
    FOR_EACH_CONFIG_TABLE(entry) {
        const char *suffix = " transport";
        size_t n = entry->name ? strlen(entry->name) : 0;
        if (n > strlen(suffix) && strcmp(entry->name + n - strlen(suffix), suffix) == 0)
        {
            char *tl = xstrndup(entry->name, n - strlen(suffix));
            if (sv_find(&ucx.transports, tl) < 0)
                sv_push(&ucx.transports, tl);
            free(tl);
        }
    }
}

/* UCX's tables in two steps. Reading the UCP configuration registers the
 * tables of libucs, libuct and libucp (UCX_TLS, UCX_RNDV_THRESH, the sm and
 * self transports); querying the components then loads every installed
 * transport module (ib with libmlx5, rdmacm, cma, ...), each registering its
 * own, which costs a job's start about a millisecond. So the modules are
 * loaded only when a name is not among the first tables: tables are only
 * ever added, after the ones before them, so a name found early is found
 * in the same table as after a full load, and every miss is asked again
 * after it. */
static void load(bool modules)
{
    if (ucx.loaded == 2 || (ucx.loaded == 1 && !modules))
        return;
    ucs_log_push_handler(capture_log);
    /* UCX parses UCX_* from the environment here and fails on a bad one;
     * hide them so that this is UCX's default configuration. rdmarun checks
     * the environment's values one by one, like a profile's. */
    struct strvec hidden = {0};
    for (char **e = environ; *e; e++)
        if (starts_with(*e, "UCX_"))
            sv_push(&hidden, *e);
    for (size_t i = 0; i < hidden.n; i++) {
        char *name = xstrndup(hidden.v[i], strcspn(hidden.v[i], "="));
        unsetenv(name);
        free(name);
    }
    if (!ucx.loaded && ucp_config_read(NULL, NULL, &ucx.config) != UCS_OK)
        ucx.config = NULL;
    if (modules) {
        uct_component_h *components;
        unsigned ncomponents;
        if (uct_query_components(&components, &ncomponents) == UCS_OK)
            uct_release_component_list(components);
    }
    ucx.loaded = modules ? 2 : 1;
    add_tables();
    ucs_log_pop_handler();
    for (size_t i = 0; i < hidden.n; i++) {
        char *eq = strchr(hidden.v[i], '=');
        *eq = '\0';
        setenv(hidden.v[i], eq + 1, 1);
    }
    sv_free(&hidden);
}

/* UCX_<name>'s index in ucx.vars, the modules loaded first when needed. */
static ssize_t var_lookup(const char *name)
{
    load(false);
    ssize_t i = var_find(name);
    if (i < 0 && ucx.loaded < 2) {
        load(true);
        i = var_find(name);
    }
    return i;
}

const char *ucx_config_version(void) { return ucp_get_version_string(); }

const struct strvec *ucx_config_names(void)
{
    load(true);
    return &ucx.vars;
}

bool ucx_config_known(const char *name, char **suggestion)
{
    *suggestion = NULL;
    if (var_lookup(name) >= 0)
        return true;
    const char *s = suggest(name, (const char *const *)ucx.vars.v, ucx.vars.n);
    if (!s) {
        /* Renamed variables keep a word of the old name: offer one sharing the
         * longest '_'-separated word, such as SOCKADDR_CM_ENABLE -> SOCKADDR_TLS_PRIORITY. */
        struct strvec words = {0};
        sv_split(&words, name, "_");
        size_t best = 0;
        for (size_t i = 0; i < ucx.vars.n; i++) {
            for (size_t w = 0; w < words.n; w++) {
                size_t len = strlen(words.v[w]);
                if (len > best && len >= 5 && strstr(ucx.vars.v[i], words.v[w])) {
                    best = len;
                    s = ucx.vars.v[i];
                }
            }
        }
        sv_free(&words);
    }
    if (s)
        *suggestion = xstrdup(s);
    return false;
}

/* The field a table reads under `name` (add_names' field: the innermost
 * sub-table prefix, then the field's own name). */
static const ucs_config_field_t *field_named(const ucs_config_field_t *fields,
                                             const char *prefix, const char *name, int depth)
{
    size_t n = strlen(prefix);
    for (const ucs_config_field_t *f = fields; f->name; f++) {
        if (f->parser.read == ucs_config_sscanf_table) {
            const ucs_config_field_t *in = depth < MAX_TABLE_DEPTH
                ? field_named((const ucs_config_field_t *)f->parser.arg, f->name, name, depth + 1)
                : NULL;
            if (in)
                return in;
        } else if (strncmp(name, prefix, n) == 0 && strcmp(name + n, f->name) == 0) {
            return f;
        }
    }
    return NULL;
}

static const ucs_config_field_t *field_of(const char *name)
{
    ssize_t i = var_lookup(name);
    return i < 0 ? NULL : field_named(ucx.owners[i].entry->table, "", ucx.owners[i].field, 1);
}

const char *ucx_config_default(const char *name)
{
    const ucs_config_field_t *f = field_of(name);
    return f ? f->dfl_value : NULL;
}

bool ucx_config_choices(const char *name, struct strvec *out)
{
    const ucs_config_field_t *f = field_of(name);
    if (f && f->parser.read == ucs_config_sscanf_enum) {
        for (const char *const *v = f->parser.arg; *v; v++)
            sv_push(out, *v);
        return true;
    }
    if (f && f->parser.read == ucs_config_sscanf_bool) {
        sv_push(out, "y");
        sv_push(out, "n");
        return true;
    }
    return false;
}

bool ucx_transport_known(const char *tl, char **suggestion)
{
    size_t naliases = sizeof(tl_aliases) / sizeof(*tl_aliases);
    *suggestion = NULL;
    for (size_t i = 0; i < naliases; i++)
        if (strcmp(tl_aliases[i], tl) == 0)
            return true;
    load(false);
    if (sv_find(&ucx.transports, tl) < 0)
        load(true);
    if (sv_find(&ucx.transports, tl) >= 0)
        return true;
    struct strvec all = {0};
    sv_append(&all, &ucx.transports);
    for (size_t i = 0; i < naliases; i++)
        sv_push(&all, tl_aliases[i]);
    const char *s = suggest(tl, (const char *const *)all.v, all.n);
    if (s)
        *suggestion = xstrdup(s);
    sv_free(&all);
    return false;
}

static bool check_tls(const char *value, char **why)
{
    struct strvec items = {0};
    sv_split(&items, value[0] == '^' ? value + 1 : value, ",");
    bool ok = items.n > 0;
    if (!ok)
        *why = xstrdup("UCX_TLS names no transport");
    for (size_t i = 0; ok && i < items.n; i++) {
        char *tl = xstrndup(items.v[i], strcspn(items.v[i], ":"));
        const char *qual = items.v[i] + strlen(tl);
        char *s = NULL;
        if (*qual && strcmp(qual, ":aux") != 0) {
            *why = xasprintf("'%s': the only qualifier UCX_TLS takes is ':aux'", items.v[i]);
            ok = false;
        } else if (!ucx_transport_known(tl, &s)) {
            char *list = sv_join(&ucx.transports, ", ");
            *why = xasprintf("UCX %s has no transport or alias '%s'%s%s%s (transports: %s; "
                             "aliases such as sm, ib, rc, ud, dc also work)",
                             ucx_config_version(), tl, s ? " (did you mean '" : "",
                             s ? s : "", s ? "'?)" : "", list);
            free(list);
            ok = false;
        }
        free(s);
        free(tl);
    }
    sv_free(&items);
    return ok;
}

/* Parse one value into a scratch copy of `table`'s options, filled with
 * the defaults first: UCX prints a field's old value before it parses the
 * new one, and a string field left NULL crashes it (UCX_LOG_FILE). */
static ucs_status_t set_in_table(const ucs_config_global_list_entry_t *entry, const char *name,
                                 const char *value, char **readback)
{
    void *opts = xcalloc(1, entry->size);
    ucs_status_t def = ucs_config_parser_set_default_values(opts, entry->table);
    if (def != UCS_OK) {
        ucs_config_parser_release_opts(opts, entry->table);
        free(opts);
        return def;
    }
#ifdef HAVE_UCS_CONFIG_SET_VALUE_PREFIX
    /* No table prefix: the name is matched as written, as before the argument. */
    ucs_status_t st = ucs_config_parser_set_value(opts, entry->table, NULL, name, value);
#else
    ucs_status_t st = ucs_config_parser_set_value(opts, entry->table, name, value);
#endif
    /* What UCX stored, as UCX prints it back: "-5" read by an unsigned
     * parser comes back as 18446744073709551611. The buffer holds the whole
     * value: UCX's ucs_config_sprintf_array writes past a buffer shorter
     * than the list it prints (70 device names crashed a dry run in UCX
     * 1.13's ucs_config_sprintf_string). */
    size_t cap = 2 * strlen(value) + 256;
    char *buf = xcalloc(1, cap);
    if (st == UCS_OK && readback &&
        ucs_config_parser_get_value(opts, entry->table, name, buf, cap) == UCS_OK)
        *readback = xstrdup(buf);
    free(buf);
    ucs_config_parser_release_opts(opts, entry->table);
    free(opts);
    return st;
}

/* Ask the configuration table that reads UCX_<name> to parse the value,
 * under the field's path within it (ucp_config_modify alone would accept any
 * transport variable unchecked). */
static ucs_status_t set_in_owner(const char *name, const char *value, char **readback)
{
    ssize_t i = var_lookup(name);
    if (i < 0 || !ucx.owners[i].entry->size)
        return UCS_ERR_NO_ELEM;
    return set_in_table(ucx.owners[i].entry, ucx.owners[i].field, value, readback);
}

/* "-5", " -1K": a value below zero, as written. */
static bool negative(const char *value)
{
    const char *v = value + strspn(value, " \t");
    return v[0] == '-' && isdigit((unsigned char)v[1]);
}

static bool try_value(const char *name, const char *value, char **why)
{
    free(ucx.log);
    ucx.log = NULL;
    ucs_log_push_handler(capture_log);
    char *readback = NULL;
    ucs_status_t st = set_in_owner(name, value, &readback);
    if (st == UCS_ERR_NO_ELEM)
        st = ucp_config_modify(ucx.config, name, value);
    ucs_log_pop_handler();
    if (st == UCS_OK && negative(value) && readback && !negative(readback) &&
        strcmp(readback, value) != 0) {
        *why = xasprintf("UCX reads UCX_%s as a number of 0 or more: '%s' would become %s", name,
                         value, readback);
        free(readback);
        return false;
    }
    free(readback);
    if (st == UCS_OK)
        return true;
    *why = ucx.log ? xstrdup(ucx.log) : xasprintf("UCX rejects '%s' for UCX_%s: %s", value, name,
                                                  ucs_status_string(st));
    return false;
}

bool ucx_config_check(const char *name, const char *value, char **why, char **fixed)
{
    load(false);
    *why = NULL;
    *fixed = NULL;
    if (!ucx.config) {
        *why = xstrdup("UCX could not read its configuration (ucp_config_read failed)");
        return false;
    }
    if (strcmp(name, "TLS") == 0 && !check_tls(value, why))
        return false;
    if (try_value(name, value, why))
        return true;
    uint64_t bytes;
    if (parse_size(value, &bytes)) {
        char *asbytes = xasprintf("%" PRIu64, bytes);
        char *why2 = NULL;
        if (try_value(name, asbytes, &why2)) {
            free(*why);
            *why = NULL;
            *fixed = asbytes;
            return true;
        }
        free(why2);
        free(asbytes);
    }
    return false;
}
