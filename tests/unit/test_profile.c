/* Unit tests of the profile stage's settings: the enums' words and the one
 * rule of precedence (option, then profile, then default) with origins;
 * profile_load_for_job's order (file, environment, --set). */
#include "profile/profile.h"
#include "profile/schema.h"
#include "profile/settings.h"
#include "tap.h"
#include "util/fs.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdlib.h>

static void test_names(void)
{
    ok(name_index(verify_policy_names, "strict") == VERIFY_STRICT, "strict is VERIFY_STRICT");
    ok(name_index(bind_policy_names, "gpu-local") == BIND_GPU_LOCAL, "gpu-local");
    ok(name_index(expectation_names, "any") == EXPECT_ANY, "any");
    ok(name_index(memory_policy_names, "bind") == MEMORY_BIND, "bind");
    ok(name_index(nic_choice_names, "nearest") == NICS_NEAREST, "nearest");
    ok(name_index(verify_policy_names, "Strict") == -1 && name_index(verify_policy_names, NULL) == -1,
       "other spellings are not words of the enum");
    /* The "a|b|c" lists the schema and the option table check against are the same words. */
    static const struct { const char *const *names; const char *list; } sets[] = {
        {verify_policy_names, VERIFY_POLICIES}, {expectation_names, EXPECTATIONS},
        {bind_policy_names, BIND_POLICIES},
        {memory_policy_names, MEMORY_POLICIES}, {nic_choice_names, NIC_CHOICES},
    };
    for (size_t i = 0; i < sizeof(sets) / sizeof(*sets); i++) {
        char joined[128] = "";
        for (size_t k = 0; sets[i].names[k]; k++) {
            strcat(joined, k ? "|" : "");
            strcat(joined, sets[i].names[k]);
        }
        is_str(joined, sets[i].list, "the names and the list %s agree", sets[i].list);
    }
}

static void test_precedence(void)
{
    struct profile p;
    memset(&p, 0, sizeof(p));
    struct setting s;
    setting_resolve(&s, verify_policy_names, NULL, "--verify", &p, "profile", "verify", VERIFY_WARN);
    ok(s.value == VERIFY_WARN, "nothing given: the default");
    is_str(s.origin, "default", "origin default");
    setting_free(&s);
    profile_put(&p, "profile", "verify", "strict", ORIGIN_FILE, "site.ini", 4);
    setting_resolve(&s, verify_policy_names, NULL, "--verify", &p, "profile", "verify", VERIFY_WARN);
    ok(s.value == VERIFY_STRICT, "the profile's value wins over the default");
    is_str(s.origin, "site.ini:4", "origin file:line");
    setting_free(&s);
    setting_resolve(&s, verify_policy_names, "off", "--verify", &p, "profile", "verify", VERIFY_WARN);
    ok(s.value == VERIFY_OFF, "the option wins over the profile");
    is_str(s.origin, "--verify", "origin the option");
    setting_free(&s);
    setting_resolve(&s, verify_policy_names, NULL, NULL, NULL, "profile", "verify", VERIFY_STRICT);
    ok(s.value == VERIFY_STRICT, "no profile at all: the default");
    setting_free(&s);
    profile_free(&p);
}

static void test_load_for_job(void)
{
    const char *src = getenv("RDMARUN_SRCDIR");
    struct strvec dirs = {0}, sets = {0};
    sv_pushf(&dirs, "%s/profiles", src && *src ? src : ".");
    sv_push(&sets, "ucx.RNDV_THRESH=16K");
    setenv("UCX_RNDV_THRESH", "32K", 1);
    setenv("UCX_TLS", "rc,self", 1);
    struct profile p;
    ok(profile_load_for_job("ib", &dirs, &sets, &p) == 0, "ib loads with the environment and --set");
    const struct entry *tls = profile_get(&p, "ucx", "TLS");
    const struct entry *rndv = profile_get(&p, "ucx", "RNDV_THRESH");
    ok(tls && tls->kind == ORIGIN_ENV && strcmp(tls->value, "rc,self") == 0,
       "UCX_TLS from the environment wins over the file");
    ok(rndv && rndv->kind == ORIGIN_SET, "--set wins over the environment");
    profile_free(&p);
    setenv("UCX_TLS", "no_such_transport", 1);
    ok(profile_load_for_job("ib", &dirs, NULL, &p) == 78, "a bad value in the environment: 78");
    profile_free(&p);
    unsetenv("UCX_TLS");
    unsetenv("UCX_RNDV_THRESH");
    sv_free(&dirs);
    sv_free(&sets);
}

/* Whitespace runs as one space: troff's line breaks fall anywhere. */
static char *one_line(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++)
        if (!isspace((unsigned char)*r) || (w > s && w[-1] != ' '))
            *w++ = isspace((unsigned char)*r) ? ' ' : *r;
    *w = '\0';
    return s;
}

/* Whether `text` says "default VALUE" within 120 characters after one of
 * the places it names the key in bold (\fBflap\-count\fR). */
static bool man_says_default(const char *text, const char *key, const char *value)
{
    char troff[96] = "\\fB", *w = troff + 3;
    for (const char *k = key; *k && w < troff + sizeof(troff) - 8; k++) {
        if (*k == '-')
            *w++ = '\\';
        *w++ = *k;
    }
    strcpy(w, "\\fR");
    size_t vlen = strlen(value);
    for (const char *at = strstr(text, troff); at; at = strstr(at + 1, troff)) {
        const char *d = strstr(at, "default ");
        if (d && d - at < 120 + (long)strlen(troff) && strncmp(d + 8, value, vlen) == 0 &&
            !isalnum((unsigned char)d[8 + vlen]))
            return true;
    }
    return false;
}

/* The [check] keys' defaults stand once, in the key table: etc/check.ini
 * shows each health check's default as its value (commented or set), and
 * the man pages say the same default where they name the key. */
static void test_check_defaults(void)
{
    const char *src = tap_srcdir();
    char *path = xasprintf("%s/etc/check.ini", src);
    size_t len;
    char *ini = read_input(path, 1 << 20, &len);
    free(path);
    char *man = NULL;
    size_t mlen = 0;
    FILE *all = open_memstream(&man, &mlen);
    static const char *const pages[] = {"rdmarun-slurm.7.in", "rdmarun-profile.5.in",
                                        "rdmarun.1.in"};
    for (size_t i = 0; i < sizeof(pages) / sizeof(*pages); i++) {
        path = xasprintf("%s/man/%s", src, pages[i]);
        char *page = read_input(path, 1 << 22, &len);
        fprintf(all, "%s\n", page ? page : "");
        free(page);
        free(path);
    }
    fclose(all);
    ok(ini && mlen > 1000, "etc/check.ini and the man pages are read");
    one_line(man);
    const struct sectiondef *sec = schema_section("check");
    int defaults = 0;
    for (const struct keydef *kd = sec->keys; kd->name && ini; kd++) {
        if (!kd->dflt)
            continue;
        defaults++;
        char *line = xasprintf("\n%s = %s\n", kd->name, kd->dflt);
        char *commented = xasprintf("\n; %s = %s\n", kd->name, kd->dflt);
        char *named = xasprintf("%s = ", kd->name);
        bool listed = strstr(ini, line) || strstr(ini, commented);
        bool health = strncmp(kd->doc, "health check", 12) == 0;
        ok(listed || (!health && !strstr(ini, named)),
           "etc/check.ini: %s = %s, the table's default%s", kd->name, kd->dflt,
           health ? "" : " (where it names the key)");
        ok(man_says_default(man, kd->name, kd->dflt), "the man pages: %s, default %s",
           kd->name, kd->dflt);
        free(line);
        free(commented);
        free(named);
    }
    ok(defaults >= 10, "the table holds the [check] defaults (%d)", defaults);
    ok(!man_says_default("\\fBflap\\-count\\fR (default 30)", "flap-count", "3"),
       "a man page that says another default is caught");
    free(ini);
    free(man);
}

int main(void)
{
    test_check_defaults();
    test_names();
    test_precedence();
    test_load_for_job();
    return done_testing();
}
