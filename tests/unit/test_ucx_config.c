/* UCX's own validation, asked of the installed UCX. */
#include "tap.h"
#include "profile/ucx_config.h"
#include <stdlib.h>

int main(void)
{
    char *s = NULL, *why = NULL, *fixed = NULL;

    ok(ucx_config_known("TLS", &s), "UCX_TLS exists");
    ok(ucx_config_known("RNDV_THRESH", &s), "UCX_RNDV_THRESH exists");
    ok(ucx_config_known("IB_GID_INDEX", &s), "UCX_IB_GID_INDEX exists (from the ib module)");
    ok(ucx_config_known("UD_VERBS_ETH_DGID_CHECK", &s), "a hidden-by-default module variable exists");
    ok(!ucx_config_known("SOCKADDR_CM_ENABLE", &s) && s,
       "UCX_SOCKADDR_CM_ENABLE is gone in this UCX, with a suggestion (%s)", s ? s : "none");
    free(s);
    ok(!ucx_config_known("RNDV_TRESH", &s), "typo is unknown");
    is_str(s, "RNDV_THRESH", "typo gets the right suggestion");
    free(s);

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
