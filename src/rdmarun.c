/* rdmarun: subcommand dispatch only. Each command (cmd/commands.c) is a
 * slice of the pipeline profile -> facts -> plan -> preflight -> launch ->
 * evidence -> verdict (docs/DESIGN.md). */
#include "cmd/commands.h"

int main(int argc, char **argv)
{
    int rc = cmd_wrapped(argc, argv);
    if (rc >= 0)
        return rc;
    struct cmdline cl;
    rc = cli_parse(argc, argv, &cl);
    cmd_output(&cl);
    if (!rc)
        rc = command_of(cl.command)->run(&cl);
    cli_free(&cl);
    return rc;
}
