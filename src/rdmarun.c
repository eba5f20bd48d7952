/* rdmarun: subcommand dispatch only. Each command is a slice of the pipeline
 * profile -> facts -> plan -> preflight -> launch -> evidence -> verdict
 * (docs/DESIGN.md). */
#include "cmd/options.h"
#include "cmd/commands.h"
#include "util/strvec.h"
#include <config.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    struct cmdline cl;
    int rc = cli_parse(argc, argv, &cl);
    if (rc) {
        cli_free(&cl);
        return rc;
    }
    struct strvec dirs = {0};
    profile_search_path(&dirs);
    switch (cl.command) {
    case CMD_HELP:
        cli_usage(stdout);
        break;
    case CMD_VERSION:
        printf("rdmarun %s\n", PACKAGE_VERSION);
        break;
    case CMD_PROFILES:
        rc = cmd_profiles(&cl, &dirs);
        break;
    case CMD_PROFILES_SHOW:
        rc = cmd_profiles_show(&cl, &dirs);
        break;
    case CMD_CHECK:
        rc = cmd_check(&cl);
        break;
    case CMD_VERIFY:
        rc = cmd_verify(&cl);
        break;
    case CMD_PROBE:
        rc = cmd_probe(&cl);
        break;
    case CMD_COMPARE:
        rc = cmd_compare(&cl);
        break;
    case CMD_RANK:
        rc = cmd_rank(&cl);
        break;
    case CMD_RUN:
        rc = cmd_run(&cl, &dirs);
        break;
    }
    sv_free(&dirs);
    cli_free(&cl);
    return rc;
}
