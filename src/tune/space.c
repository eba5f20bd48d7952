/* The search space of rdmarun tune (space.h). The default takes every
 * value from the installed stack or the node, never from a list here: the
 * transports UCX and the node's devices have, UCX's own enumerations and
 * defaults, the ports, rdmarun's bind policies. What is field knowledge is
 * only which keys matter: the ones UCX's performance guides tune first. */
#include "tune/space.h"
#include "profile/schema.h"
#include "profile/settings.h"
#include "profile/ucx_config.h"
#include "util/conf_file.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

#define SPACE_MAX_BYTES (1 << 20)

/* Whether `value` is one a profile takes for [section] key; *why when not.
 * A UCX size it takes only in another spelling becomes that spelling. */
static bool value_ok(const char *section, const char *key, char **value, char **why)
{
    const struct sectiondef *sec = schema_section(section);
    if (!sec) {
        *why = xasprintf("[%s] is not a profile section", section);
        return false;
    }
    if (sec->keyset == KEYS_UCX) {
        char *fixed = NULL;
        if (!ucx_config_check(key, *value, why, &fixed))
            return false;
        if (fixed) {
            free(*value);
            *value = fixed;
        }
        return true;
    }
    if (sec->keyset == KEYS_FIXED) {
        const struct keydef *kd = schema_key(sec, key);
        if (!kd) {
            *why = xasprintf("[%s] has no key '%s'", section, key);
            return false;
        }
        return schema_check_value(kd, *value, why);
    }
    return true;
}

size_t tune_space_find(const struct tune_space *sp, const char *section, const char *key)
{
    for (size_t i = 0; i < sp->n; i++)
        if (strcmp(sp->keys[i].section, section) == 0 && strcmp(sp->keys[i].key, key) == 0)
            return i;
    return sp->n;
}

static struct tune_key *key_of(struct tune_space *sp, const char *section, const char *key)
{
    size_t i = tune_space_find(sp, section, key);
    return i < sp->n ? &sp->keys[i] : NULL;
}

static void key_clear(struct tune_key *k)
{
    sv_free(&k->values);
    free(k->section);
    free(k->key);
    free(k->from);
    free(k->requires);
    memset(k, 0, sizeof(*k));
}

static void key_drop(struct tune_space *sp, struct tune_key *k)
{
    key_clear(k);
    size_t i = (size_t)(k - sp->keys);
    memmove(k, k + 1, (sp->n - i - 1) * sizeof(*k));
    sp->n--;
}

/* A new key with the base's value (its unset value "" when the base sets
 * none); NULL when the space is full. */
static struct tune_key *key_new(struct tune_space *sp, const struct profile *base,
                                const char *section, const char *key, const char *from)
{
    struct tune_key *k = key_of(sp, section, key);
    if (k)
        key_drop(sp, k);
    if (sp->n == TUNE_MAX_KEYS)
        return NULL;
    k = &sp->keys[sp->n++];
    memset(k, 0, sizeof(*k));
    k->section = xstrdup(section);
    k->key = xstrdup(key);
    k->from = xstrdup(from);
    const char *v = profile_value(base, section, key);
    sv_push(&k->values, v ? v : "");
    return k;
}

/* Add a value unless it is there, or is what the base's unset value means
 * (`dflt`, the tool's default). */
static bool key_add(struct tune_key *k, const char *value, const char *dflt)
{
    if (sv_find(&k->values, value) >= 0)
        return true;
    if (!*k->values.v[0] && dflt && strcasecmp(value, dflt) == 0)
        return true;
    if (k->values.n == TUNE_MAX_VALUES)
        return false;
    sv_push(&k->values, value);
    return true;
}

/* A key with one value is nothing to search. */
static void key_done(struct tune_space *sp, struct tune_key *k)
{
    if (k && k->values.n < 2)
        key_drop(sp, k);
}

/* UCX_TLS: every non-empty set of the transport families this UCX knows and
 * this node can use - shared memory, TCP, and each RDMA family (rc, ud, dc)
 * some active port's device has - each with self (a rank's own messages).
 * On a shared-memory base (fabric shm: its runs must stay local) only the
 * sets with sm: one without sends between ranks of the node over TCP or a
 * NIC, which the base's verification leaves out (a run spent for nothing). */
static void tls_values(struct tune_space *sp, const struct profile *base, const struct facts *f,
                       const char *from)
{
    const char *families[8];
    size_t n = 0;
    char *sugg = NULL;
    static const char *const local[] = {"sm", "tcp"};
    for (size_t i = 0; i < 2; i++) {
        if (ucx_transport_known(local[i], &sugg))
            families[n++] = local[i];
        free(sugg);
        sugg = NULL;   /* (a call that suggests nothing leaves it as it was) */
    }
    static const char *const rdma[] = {"rc", "ud", "dc"};
    for (size_t r = 0; r < 3; r++) {
        bool have = false;
        for (size_t d = 0; d < f->ndevs && !have; d++) {
            bool active = false;
            for (size_t p = 0; p < f->devs[d].nports; p++)
                active = active || port_is_active(&f->devs[d].ports[p]);
            for (char **t = f->devs[d].transports; active && t && *t && !have; t++)
                have = starts_with(*t, rdma[r]);
        }
        if (have && ucx_transport_known(rdma[r], &sugg))
            families[n++] = rdma[r];
        free(sugg);
        sugg = NULL;
    }
    const char *fabric = profile_value(base, "profile", "fabric");
    unsigned need = fabric && strcmp(fabric, "shm") == 0 && n && strcmp(families[0], "sm") == 0;
    struct tune_key *k = key_new(sp, base, "ucx", "TLS", from);
    for (unsigned mask = 1; k && mask < 1u << n; mask++) {
        if ((mask & need) != need)
            continue;
        struct strvec set = {0};
        for (size_t i = n; i-- > 0;)   /* RDMA first: the order UCX_TLS is written in */
            if (mask & 1u << i)
                sv_push(&set, families[i]);
        sv_push(&set, "self");
        char *v = sv_join(&set, ",");
        key_add(k, v, ucx_config_default("TLS"));
        free(v);
        sv_free(&set);
    }
    key_done(sp, k);
}

/* A threshold: powers of four from 1 KiB to 1 MiB around UCX's default
 * (auto: UCX's own choice), in byte order, as UCX reads them. */
static void size_values(struct tune_space *sp, const struct profile *base, const char *name,
                        const char *from)
{
    char *sugg = NULL;
    bool known = ucx_config_known(name, &sugg);
    free(sugg);
    if (!known)
        return;
    struct tune_key *k = key_new(sp, base, "ucx", name, from);
    const char *dflt = ucx_config_default(name);
    /* A threshold this UCX takes per side (RNDV_THRESH from UCX 1.17:
     * intra:SIZE,inter:SIZE, its parser says) is also tried on one side
     * alone, the other at auto. */
    char *sided = xstrdup("intra:1K,inter:auto"), *why = NULL;
    bool sides = value_ok("ucx", name, &sided, &why);
    free(sided);
    free(why);
    for (int side = 0; side < (sides ? 3 : 1); side++)
        for (unsigned long long b = 1024; k && b <= 1024 * 1024; b *= 4) {
            char size[16];
            snprintf(size, sizeof(size), b < 1024 * 1024 ? "%lluK" : "%lluM",
                     b < 1024 * 1024 ? b / 1024 : b >> 20);
            char *v = side == 0 ? xstrdup(size)
                    : xasprintf(side == 1 ? "intra:%s,inter:auto" : "intra:auto,inter:%s", size);
            why = NULL;
            if (value_ok("ucx", name, &v, &why))
                key_add(k, v, dflt);
            free(why);
            free(v);
        }
    if (k && dflt)
        key_add(k, dflt, dflt);
    key_done(sp, k);
}

/* An enumeration of UCX's, as its table lists it. */
static void enum_values(struct tune_space *sp, const struct profile *base, const char *name,
                        const char *from)
{
    struct strvec choices = {0};
    if (ucx_config_choices(name, &choices)) {
        struct tune_key *k = key_new(sp, base, "ucx", name, from);
        for (size_t i = 0; k && i < choices.n; i++)
            key_add(k, choices.v[i], ucx_config_default(name));
        key_done(sp, k);
    }
    sv_free(&choices);
}

size_t ompi_info_enumerators(const char *text, const char *param, struct strvec *out,
                             struct strvec *codes)
{
    char *prefix = xasprintf(":param:%s:enumerator:value:", param);
    size_t n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *at = memmem(line, len, prefix, strlen(prefix));
        if (starts_with(line, "mca:") && at) {
            const char *num = at + strlen(prefix);
            const char *colon = memchr(num, ':', len - (size_t)(num - line));
            if (colon && colon > num && colon + 1 < line + len) {
                char *name = xstrndup(colon + 1, len - (size_t)(colon + 1 - line));
                char *code = xstrndup(num, (size_t)(colon - num));
                if (is_printable(name) && !strchr(name, ' ') && sv_find(out, name) < 0 &&
                    strspn(code, "0123456789") == strlen(code) && strlen(code) < 6) {
                    sv_push(out, name);
                    if (codes)
                        sv_push(codes, code);
                    n++;
                }
                free(code);
                free(name);
            }
        }
        line = end ? end + 1 : NULL;
    }
    free(prefix);
    return n;
}

/* Open MPI's algorithms (coll/tuned) for each collective of colls, as the
 * ompi_info on PATH lists them; 'ignore' is its default (the fixed decision
 * rules). A forced algorithm applies only with coll_tuned_use_dynamic_rules. */
static void coll_values(struct tune_space *sp, const struct profile *base, const char *colls)
{
    char *argv[] = {"ompi_info", "--param", "coll", "tuned", "--level", "9", "--parsable", NULL};
    char *text = proc_stdout(argv, 10, 1 << 20);
    struct strvec names = {0};
    sv_split(&names, colls, " ");
    for (size_t c = 0; text && c < names.n; c++) {
        struct strvec algs = {0};
        char *param = xasprintf("coll_tuned_%s_algorithm", names.v[c]);
        if (ompi_info_enumerators(text, param, &algs, NULL) > 1) {
            struct tune_key *k = key_new(sp, base, "mpi", param,
                                         "the installed Open MPI's ompi_info");
            for (size_t i = 0; k && i < algs.n; i++)
                key_add(k, algs.v[i], algs.v[0]);
            if (k)
                k->requires = xstrdup("mpi.coll_tuned_use_dynamic_rules=1");
            key_done(sp, k);
        }
        sv_free(&algs);
        free(param);
    }
    sv_free(&names);
    free(text);
}

/* UCX_NET_DEVICES on a multi-rail node, after the base's own (auto: each
 * rank's nearest ports): every set of the active ports (each alone, each
 * pair, ..., all) when there are 4 or fewer; with more, each port alone,
 * the ports of each NUMA node, and all of them. */
static void rail_values(struct tune_space *sp, const struct profile *base, const struct facts *f,
                        const char *from)
{
    struct strvec ports = {0};
    int numa[TUNE_MAX_VALUES];
    for (size_t d = 0; d < f->ndevs; d++)
        for (size_t p = 0; p < f->devs[d].nports && ports.n < TUNE_MAX_VALUES; p++)
            if (port_is_active(&f->devs[d].ports[p])) {
                numa[ports.n] = f->devs[d].numa_node;
                sv_pushf(&ports, "%s:%d", f->devs[d].name, f->devs[d].ports[p].num);
            }
    struct tune_key *k = key_new(sp, base, "ucx", "NET_DEVICES", from);
    struct strvec set = {0};
    if (ports.n <= 4) {
        for (unsigned mask = 1; k && mask < 1u << ports.n; mask++) {
            for (size_t i = 0; i < ports.n; i++)
                if (mask & 1u << i)
                    sv_push(&set, ports.v[i]);
            char *v = sv_join(&set, ",");
            key_add(k, v, "all");
            free(v);
            sv_free(&set);
        }
    } else {
        for (size_t i = 0; k && i < ports.n; i++)
            key_add(k, ports.v[i], "all");
        for (size_t i = 0; k && i < ports.n; i++) {
            bool first = true;   /* each NUMA node once, at its first port */
            for (size_t j = 0; j < i; j++)
                first = first && numa[j] != numa[i];
            for (size_t j = i; first && numa[i] >= 0 && j < ports.n; j++)
                if (numa[j] == numa[i])
                    sv_push(&set, ports.v[j]);
            char *v = set.n > 1 && set.n < ports.n ? sv_join(&set, ",") : NULL;
            if (v)
                key_add(k, v, "all");
            free(v);
            sv_free(&set);
        }
        char *all = sv_join(&ports, ",");
        key_add(k, all, "all");
        free(all);
    }
    sv_free(&ports);
    key_done(sp, k);
}

void tune_space_default(struct tune_space *sp, const struct profile *base, const struct facts *f,
                        const char *colls)
{
    memset(sp, 0, sizeof(*sp));
    char *ucx = xasprintf("the installed UCX %s and this node", ucx_config_version());
    tls_values(sp, base, f, ucx);
    free(ucx);
    ucx = xasprintf("the installed UCX %s", ucx_config_version());
    size_values(sp, base, "RNDV_THRESH", ucx);
    size_values(sp, base, "ZCOPY_THRESH", ucx);
    enum_values(sp, base, "RNDV_SCHEME", ucx);
    /* Rails: one to as many active ports as the node has (UCX uses at most 4). */
    size_t active = 0;
    for (size_t d = 0; d < f->ndevs; d++)
        for (size_t p = 0; p < f->devs[d].nports; p++)
            active += port_is_active(&f->devs[d].ports[p]);
    char *sugg = NULL;
    if (active > 1 && ucx_config_known("MAX_RNDV_RAILS", &sugg)) {
        struct tune_key *k = key_new(sp, base, "ucx", "MAX_RNDV_RAILS", ucx);
        for (size_t r = 1; k && r <= active && r <= 4; r++) {
            char v[8];
            snprintf(v, sizeof(v), "%zu", r);
            key_add(k, v, ucx_config_default("MAX_RNDV_RAILS"));
        }
        key_done(sp, k);
    }
    free(sugg);
    if (active > 1)
        rail_values(sp, base, f, ucx);
    free(ucx);
    /* rdmarun's bind policies that can apply here: NIC-local with an RDMA
     * device, GPU-local with a GPU. */
    struct tune_key *k = key_new(sp, base, "bind", "policy", "rdmarun's bind policies");
    struct strvec policies = {0};
    sv_split(&policies, BIND_POLICIES, "|");
    for (size_t i = 0; k && i < policies.n; i++) {
        const char *p = policies.v[i];
        if ((strcmp(p, "nic-local") == 0 && !f->ndevs) ||
            (strcmp(p, "gpu-local") == 0 && !f->ngpus))
            continue;
        key_add(k, p, "none");
    }
    sv_free(&policies);
    key_done(sp, k);
    if (colls)
        coll_values(sp, base, colls);
}

/* ---- --space FILE ---- */

struct space_read {
    struct tune_space *sp;
    const struct profile *base;
    const char *path;
    struct strvec seen;       /* SECTION.KEY of the file, to replace the default's */
    struct tune_space file;
    bool only;                /* [tune] defaults = no */
    int errors;
    struct ini_text text;     /* inih's reader: text.line is the line being parsed */
};

/* The values to try of key k, each checked as the key takes it. */
static void key_values(struct space_read *r, struct tune_key *k, const char *section,
                       const char *key, const struct strvec *values)
{
    int line = r->text.line;
    for (size_t i = 0; i < values->n; i++) {
        char *v = xstrdup(values->v[i]), *why = NULL;
        if (!value_ok(section, key, &v, &why)) {
            rr_error("%s:%d: [%s] %s = %s: %s", r->path, line, section, key, values->v[i], why);
            r->errors++;
        } else if (!key_add(k, v, NULL)) {
            rr_error("%s:%d: [%s] %s: more than %d values to try", r->path, line, section,
                     key, TUNE_MAX_VALUES);
            r->errors++;
            free(v);
            break;
        }
        free(why);
        free(v);
    }
}

static int on_space_value(void *user, const char *section, const char *name, const char *value)
{
    struct space_read *r = user;
    int line = r->text.line;
    if (!name)
        return 1;
    if (strcmp(section, "tune") == 0) {
        if (strcmp(name, "defaults") == 0 &&
            (strcmp(value, "no") == 0 || strcmp(value, "yes") == 0)) {
            r->only = strcmp(value, "no") == 0;
            return 1;
        }
        rr_error("%s:%d: [tune] takes only 'defaults = yes|no'", r->path, line);
        r->errors++;
        return 1;
    }
    const struct sectiondef *sec = schema_section(section);
    char *why = NULL, *key = sec ? schema_canonical_key(sec, name, &why) : NULL;
    if (!key) {
        rr_error("%s:%d: [%s] %s: %s", r->path, line, section, name,
                 why ? why : "not a profile section");
        free(why);
        r->errors++;
        return 1;
    }
    char *sugg = NULL;
    if (sec->keyset == KEYS_UCX && !ucx_config_known(key, &sugg)) {
        rr_error("%s:%d: [ucx] %s: UCX %s has no variable UCX_%s%s%s%s", r->path, line, name,
                 ucx_config_version(), key, sugg ? " (did you mean " : "", sugg ? sugg : "",
                 sugg ? "?)" : "");
        free(sugg);
        free(key);
        r->errors++;
        return 1;
    }
    char *from = xasprintf("%s:%d", r->path, line);
    struct tune_key *k = key_new(&r->file, r->base, sec->name, key, from);
    free(from);
    if (k && sec->keyset == KEYS_MCA && starts_with(key, "coll_tuned_") &&
        ends_with(key, "_algorithm"))
        k->requires = xstrdup("mpi.coll_tuned_use_dynamic_rules=1");
    struct strvec values = {0};
    sv_split(&values, value, "|");
    if (k)
        key_values(r, k, sec->name, key, &values);
    if (!k) {
        rr_error("%s:%d: more than %d keys to search", r->path, line, TUNE_MAX_KEYS);
        r->errors++;
    } else if (!values.n) {
        rr_error("%s:%d: [%s] %s has no value to try (hint: KEY = V1 | V2 | ...)", r->path, line,
                 sec->name, key);
        r->errors++;
    }
    sv_free(&values);
    free(key);
    return 1;
}

int tune_space_read(struct tune_space *sp, const char *path, const struct profile *base,
                    const struct facts *f, const char *colls)
{
    size_t len;
    char *text = read_input(path, SPACE_MAX_BYTES, &len);
    if (!text) {
        rr_error("cannot read the search space %s: %s", path, input_strerror(errno));
        return RR_EX_NOINPUT;
    }
    struct space_read r = {.sp = sp, .base = base, .path = path};
    ini_configure();
    ini_text_init(&r.text, text, len);
    int bad = ini_parse_stream(ini_text_line, &r.text, on_space_value, &r);
    free(text);
    if (r.text.bad_line) {
        rr_error("%s:%d: %s", path, r.text.bad_line, r.text.why);
        r.errors++;
    } else if (bad > 0) {
        rr_error("%s:%d: malformed line (expected '[section]' or 'KEY = V1 | V2 | ...')", path,
                 bad);
        r.errors++;
    }
    if (!r.errors) {
        if (r.only)
            tune_space_free(sp);
        else
            tune_space_default(sp, base, f, colls);
        /* The file's keys replace the default's, and come last. */
        for (size_t i = 0; i < r.file.n; i++) {
            struct tune_key *k = &r.file.keys[i];
            struct tune_key *old = key_of(sp, k->section, k->key);
            if (old)
                key_drop(sp, old);
            if (k->values.n < 2)
                continue;   /* only the base's value: not searched */
            if (sp->n == TUNE_MAX_KEYS) {
                rr_error("%s: more than %d keys to search", path, TUNE_MAX_KEYS);
                r.errors++;
                break;
            }
            sp->keys[sp->n++] = *k;
            memset(k, 0, sizeof(*k));
        }
    }
    for (size_t i = 0; i < r.file.n; i++)
        key_clear(&r.file.keys[i]);
    return r.errors ? RR_EX_CONFIG : 0;
}

char *tune_space_set(const struct tune_space *sp, size_t k, unsigned v)
{
    const struct tune_key *key = &sp->keys[k];
    const char *value = key->values.v[v];
    if (!*value)
        return NULL;
    return xasprintf("%s.%s=%s", key->section, key->key, value);
}

void tune_space_print(const struct tune_space *sp, FILE *out)
{
    for (size_t i = 0; i < sp->n; i++) {
        const struct tune_key *k = &sp->keys[i];
        fprintf(out, "  %s.%s:", k->section, k->key);
        for (size_t v = 0; v < k->values.n; v++)
            fprintf(out, v == 0 ? " [%s]" : " %s",
                    *k->values.v[v] ? k->values.v[v] : "(unset)");
        fprintf(out, "  (%s)\n", k->from);
    }
}

void tune_space_free(struct tune_space *sp)
{
    for (size_t i = 0; i < sp->n; i++)
        key_clear(&sp->keys[i]);
    memset(sp, 0, sizeof(*sp));
}
