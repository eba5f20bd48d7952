#include "profile/ucx_config.h"
#include <config.h>
#include "util/size.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
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

static struct {
    bool loaded;
    ucp_config_t *config;
    struct strvec vars;        /* variable names without UCX_ */
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

static void load(void)
{
    if (ucx.loaded)
        return;
    ucx.loaded = true;
    ucs_log_push_handler(capture_log);
    /* Reading the UCP configuration and querying the components loads every
     * installed transport module, which registers its configuration table. */
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
    if (ucp_config_read(NULL, NULL, &ucx.config) != UCS_OK)
        ucx.config = NULL;
    uct_component_h *components;
    unsigned ncomponents;
    if (uct_query_components(&components, &ncomponents) == UCS_OK)
        uct_release_component_list(components);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        ucs_config_parser_print_all_opts(f, "UCX_", UCS_CONFIG_PRINT_CONFIG |
                                         UCS_CONFIG_PRINT_HIDDEN, &ucs_config_global_list);
        fclose(f);
    }
    for (char *line = buf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!starts_with(line, "UCX_"))
            continue;
        /* "UCX_NAME=value", or "UCX_NAME (deprecated)=value" */
        char *name = xstrndup(line + 4, strcspn(line + 4, "= "));
        if (sv_find(&ucx.vars, name) < 0)
            sv_push(&ucx.vars, name);
        free(name);
    }
    free(buf);

    ucs_config_global_list_entry_t *entry;
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
    ucs_log_pop_handler();
    for (size_t i = 0; i < hidden.n; i++) {
        char *eq = strchr(hidden.v[i], '=');
        *eq = '\0';
        setenv(hidden.v[i], eq + 1, 1);
    }
    sv_free(&hidden);
}

const char *ucx_config_version(void) { return ucp_get_version_string(); }

bool ucx_config_known(const char *name, char **suggestion)
{
    load();
    *suggestion = NULL;
    if (sv_find(&ucx.vars, name) >= 0)
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

bool ucx_transport_known(const char *tl, char **suggestion)
{
    load();
    size_t naliases = sizeof(tl_aliases) / sizeof(*tl_aliases);
    *suggestion = NULL;
    if (sv_find(&ucx.transports, tl) >= 0)
        return true;
    for (size_t i = 0; i < naliases; i++)
        if (strcmp(tl_aliases[i], tl) == 0)
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

/* Parse one value into a scratch copy of `table`'s options. */
static ucs_status_t set_in_table(const ucs_config_global_list_entry_t *entry, const char *name,
                                 const char *value)
{
    void *opts = xcalloc(1, entry->size);
#ifdef HAVE_UCS_CONFIG_SET_VALUE_PREFIX
    /* No table prefix: the name is matched as written, as before the argument. */
    ucs_status_t st = ucs_config_parser_set_value(opts, entry->table, NULL, name, value);
#else
    ucs_status_t st = ucs_config_parser_set_value(opts, entry->table, name, value);
#endif
    ucs_config_parser_release_opts(opts, entry->table);
    free(opts);
    return st;
}

/* Ask the configuration table that owns UCX_<name> to parse the value: the
 * table whose prefix starts the name (RC_VERBS_, IB_, TCP_, or none for UCP
 * and UCS), under the field name as written or behind one of the table's
 * sub-table prefixes (UD_VERBS_ETH_DGID_CHECK is field ETH_DGID_CHECK of the
 * UD_ sub-table). ucp_config_modify alone would accept any transport
 * variable unchecked. */
static ucs_status_t set_in_owner(const char *name, const char *value)
{
    ucs_config_global_list_entry_t *entry;
    FOR_EACH_CONFIG_TABLE(entry) {
        const char *prefix = entry->prefix ? entry->prefix : "";
        if (!entry->table || !entry->size || !starts_with(name, prefix))
            continue;
        const char *field = name + strlen(prefix);
        ucs_status_t st = set_in_table(entry, field, value);
        for (ucs_config_field_t *f = entry->table; st == UCS_ERR_NO_ELEM && f->name; f++) {
            if (f->parser.read != ucs_config_sscanf_table || !*f->name)
                continue;
            char *sub = xasprintf("%s%s", f->name, field);
            st = set_in_table(entry, sub, value);
            free(sub);
        }
        if (st != UCS_ERR_NO_ELEM)
            return st;
    }
    return UCS_ERR_NO_ELEM;
}

static bool try_value(const char *name, const char *value, char **why)
{
    free(ucx.log);
    ucx.log = NULL;
    ucs_log_push_handler(capture_log);
    ucs_status_t st = set_in_owner(name, value);
    if (st == UCS_ERR_NO_ELEM)
        st = ucp_config_modify(ucx.config, name, value);
    ucs_log_pop_handler();
    if (st == UCS_OK)
        return true;
    *why = ucx.log ? xstrdup(ucx.log) : xasprintf("UCX rejects '%s' for UCX_%s: %s", value, name,
                                                  ucs_status_string(st));
    return false;
}

bool ucx_config_check(const char *name, const char *value, char **why, char **fixed)
{
    load();
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
