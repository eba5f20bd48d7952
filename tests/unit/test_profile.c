/* Unit tests of the profile stage's settings: the enums' words and the one
 * rule of precedence (option, then profile, then default) with origins;
 * profile_load_for_job's order (file, environment, --set). */
#include "profile/profile.h"
#include "profile/settings.h"
#include "tap.h"
#include <stdlib.h>

static void test_names(void)
{
    ok(name_index(verify_policy_names, "strict") == VERIFY_STRICT, "strict is VERIFY_STRICT");
    ok(name_index(bind_policy_names, "gpu-local") == BIND_GPU_LOCAL, "gpu-local");
    ok(name_index(expectation_names, "any") == EXPECT_ANY, "any");
    ok(name_index(launcher_names, "srun") == LAUNCHER_SRUN, "srun");
    ok(name_index(memory_policy_names, "bind") == MEMORY_BIND, "bind");
    ok(name_index(nic_choice_names, "nearest") == NICS_NEAREST, "nearest");
    ok(name_index(verify_policy_names, "Strict") == -1 && name_index(verify_policy_names, NULL) == -1,
       "other spellings are not words of the enum");
    /* The "a|b|c" lists the schema and the option table check against are the same words. */
    static const struct { const char *const *names; const char *list; } sets[] = {
        {verify_policy_names, VERIFY_POLICIES}, {expectation_names, EXPECTATIONS},
        {launcher_names, LAUNCHERS}, {bind_policy_names, BIND_POLICIES},
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

int main(void)
{
    test_names();
    test_precedence();
    test_load_for_job();
    return done_testing();
}
