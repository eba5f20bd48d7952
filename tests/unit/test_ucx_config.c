/* UCX's own validation, asked of the installed UCX. */
#include "tap.h"
#include "profile/ucx_config.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether a library whose path contains `part` is mapped in this process. */
static bool mapped(const char *part)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    bool found = false;
    while (f && !found && fgets(line, sizeof(line), f))
        found = strstr(line, part) != NULL;
    if (f)
        fclose(f);
    return found;
}

int main(void)
{
    char *s = NULL, *why = NULL, *fixed = NULL;

    ok(ucx_config_known("TLS", &s), "UCX_TLS exists");
    ok(ucx_config_known("RNDV_THRESH", &s), "UCX_RNDV_THRESH exists");
    ok(ucx_transport_known("sm", &s) && ucx_transport_known("self", &s),
       "sm (an alias) and self (libuct's own) are transports UCX_TLS takes");
    /* UCX's transport modules (libuct_ib.so with libmlx5, ...) cost a job's
     * start a millisecond: names of libucp's and libuct's own tables are
     * found without them (ucx_config.c, load). */
    ok(!mapped("/libuct_"), "no UCX transport module is loaded for UCX_TLS, UCX_RNDV_THRESH");
    ok(ucx_config_known("IB_GID_INDEX", &s), "UCX_IB_GID_INDEX exists (from the ib module)");
    ok(mapped("/libuct_"), "a module's name loads the modules (%s)",
       mapped("/libuct_ib") ? "libuct_ib mapped" : "libuct_ib is not installed");
    ok(ucx_config_known("UD_VERBS_ETH_DGID_CHECK", &s), "a hidden-by-default module variable exists");
    ok(!ucx_config_known("SOCKADDR_CM_ENABLE", &s) && s,
       "UCX_SOCKADDR_CM_ENABLE is gone in this UCX, with a suggestion (%s)", s ? s : "none");
    free(s);
    ok(!ucx_config_known("RNDV_TRESH", &s), "typo is unknown");
    is_str(s, "RNDV_THRESH", "typo gets the right suggestion");
    free(s);

    /* Names a table inherits (ucs_config_apply_config_vars reads a field behind
     * each sub-table prefix on its way): the IB_ fields of every IB transport,
     * the RC_ fields of rc_verbs and rc_mlx5, UD_, MM_ (posix, sysv), with their
     * values checked by the table that owns them. */
    static const struct { const char *name, *good, *bad; } inherited[] = {
        {"IB_SL", "3", "banana"},           {"IB_TRAFFIC_CLASS", "0", "banana"},
        {"IB_PKEY", "0x7fff", "banana"},    {"IB_SEG_SIZE", "8k", "banana"},
        {"IB_TX_QUEUE_LEN", "256", "banana"},
        {"RC_TIMEOUT", "10s", "banana"},    {"RC_RETRY_COUNT", "7", "banana"},
        {"RC_RNR_RETRY_COUNT", "7", "banana"}, {"RC_TX_QUEUE_LEN", "256", "banana"},
        {"RC_VERBS_TIMEOUT", "5s", "banana"}, {"UD_TIMEOUT", "5s", "banana"},
        {"MM_FIFO_SIZE", "64", "banana"},   {"SYSV_FIFO_SIZE", "64", "banana"},
    };
    for (size_t i = 0; i < sizeof(inherited) / sizeof(*inherited); i++) {
        ok(ucx_config_known(inherited[i].name, &s), "UCX_%s is a name UCX reads", inherited[i].name);
        free(s);
        s = NULL;
        ok(ucx_config_check(inherited[i].name, inherited[i].good, &why, &fixed),
           "UCX_%s=%s is accepted", inherited[i].name, inherited[i].good);
        free(fixed);
        fixed = NULL;
        ok(!ucx_config_check(inherited[i].name, inherited[i].bad, &why, &fixed) && why &&
           strstr(why, "Invalid value"), "UCX_%s=%s is refused by its table: %s",
           inherited[i].name, inherited[i].bad, why ? why : "");
        free(why);
        why = NULL;
    }
    ok(!ucx_config_known("IB_SLL", &s), "a typo of an inherited name is unknown");
    is_str(s, "IB_SL", "with the inherited name as its suggestion");
    free(s);
    s = NULL;

    ok(ucx_config_check("RNDV_THRESH", "8k", &why, &fixed) && !fixed, "8k is a UCX size");
    ok(!ucx_config_check("RNDV_THRESH", "eight", &why, &fixed), "eight is not");
    ok(why && strstr(why, "Invalid value for RNDV_THRESH"), "UCX's own reason: %s", why ? why : "");
    free(why);
    ok(ucx_config_check("RNDV_THRESH", "8MiB", &why, &fixed), "8MiB accepted");
    is_str(fixed, "8388608", "8MiB becomes bytes, which UCX reads");
    free(fixed);
    fixed = NULL;
    ok(!ucx_config_check("UD_VERBS_ETH_DGID_CHECK", "perhaps", &why, &fixed), "bad boolean");
    free(why);

    ok(ucx_config_check("TLS", "rc_verbs,ud_verbs:aux,sm,self", &why, &fixed), "transports and aliases");
    ok(ucx_config_check("TLS", "^tcp", &why, &fixed), "exclusion");
    ok(!ucx_config_check("TLS", "rc_verbs,tcpp", &why, &fixed), "unknown transport");
    ok(why && strstr(why, "did you mean 'tcp'"), "with a suggestion: %s", why ? why : "");
    free(why);
    ok(!ucx_config_check("TLS", "tcp:fast", &why, &fixed), "only :aux qualifies a transport");
    free(why);
    ok(!ucx_config_check("TLS", " , ", &why, &fixed), "an empty list");
    free(why);
    return done_testing();
}
