/* The command table, and the two commands that are only words. */
#include "cmd/commands.h"
#include "launch/launch.h"
#include <config.h>
#include <stdio.h>
#include <string.h>

const struct command_def commands[] = {
    {NULL, CMD_RUN, cmd_run, "[RDMARUN OPTIONS] [MPIRUN OPTIONS] PROGRAM [ARGS...]\n"
     "       rdmarun --launcher exec [RDMARUN OPTIONS] [--] COMMAND [ARGS...]"},
    {"profiles", CMD_PROFILES, cmd_profiles, "profiles [--json] [show NAME]"},
    {"probe", CMD_PROBE, cmd_probe,
     "probe [--json] [--topology FILE.xml] [--sysfs DIR] [--facts FILE.json]"},
    {"verify", CMD_VERIFY, cmd_verify, "verify [--json] [--expect WHAT] LOG_FILE_OR_DIR...|-"},
    {"check", CMD_CHECK, cmd_check,
     "check --qp-test [--device DEV[:PORT]] [--gid-index N]\n"
     "       rdmarun check --path-test [--json] [--all-pairs] [--path-timeout S] [--device DEV[:PORT]]\n"
     "               [--gid-index N] [--launcher mpirun|srun] [MPIRUN HOST OPTIONS]\n"
     "       rdmarun check [--config FILE] [--drain] [--node NAME] [--scontrol PATH]"},
    {"rank", CMD_RANK, cmd_rank,
     "rank [HELPER OPTIONS] -- PROGRAM [ARGS...]   (started by mpirun, srun or torchrun)"},
    {"path-peer", CMD_PATH_PEER, cmd_path_peer,
     "path-peer [--all-pairs] [--device DEV[:PORT]] [--gid-index N]   (started by check "
     "--path-test)"},
    {"compare", CMD_COMPARE, cmd_compare,
     "compare -p PROFILE[,PROFILE...] --np N[,N...] [--repeat R] [--warmup W]\n"
     "               [--metric REGEX] [--baseline PROFILE] [-o DIR] [MPIRUN OPTIONS]\n"
     "               -- PROGRAM [ARGS...]\n"
     "       rdmarun compare --resume DIR"},
    {"help", CMD_HELP, cmd_help, NULL},
    {"version", CMD_VERSION, cmd_version, NULL},
};
const size_t ncommands = sizeof(commands) / sizeof(*commands);

int cmd_wrapped(int argc, char **argv)
{
    return launch_wrapped_passthrough(argc, argv);
}

const struct command_def *command_named(const char *word)
{
    for (size_t i = 0; i < ncommands; i++)
        if (commands[i].name && strcmp(commands[i].name, word) == 0)
            return &commands[i];
    return NULL;
}

const struct command_def *command_of(enum command id)
{
    for (size_t i = 0; i < ncommands; i++)
        if (commands[i].id == id)
            return &commands[i];
    return &commands[0];
}

int cmd_help(const struct cmdline *cl)
{
    if (cl->show_name)   /* rdmarun help CMD */
        return cli_usage_of(cl->show_name, stdout);
    cli_usage(stdout);
    return 0;
}

int cmd_version(const struct cmdline *cl)
{
    (void)cl;
    printf("rdmarun %s\n", PACKAGE_VERSION);
    return 0;
}
