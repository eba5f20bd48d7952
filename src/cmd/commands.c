/* The command table, and the two commands that are only words. */
#include "cmd/commands.h"
#include "launch/launch.h"
#include "util/msg.h"
#include <config.h>
#include <stdio.h>
#include <string.h>

const struct command_def commands[] = {
    {NULL, CMD_RUN, cmd_run, "[RDMARUN OPTIONS] [MPIRUN OPTIONS] PROGRAM [ARGS...]\n"
     "       rdmarun --launcher exec [RDMARUN OPTIONS] [--] COMMAND [ARGS...]",
     "Runs PROGRAM with mpirun (or srun, or COMMAND as its own launcher), tuned by a\n"
     "profile for the node's RDMA fabric, and shows where every setting came from.",
     NULL, NULL},
    {"profiles", CMD_PROFILES, cmd_profiles, "profiles [--json] [show NAME]\n       rdmarun profiles --keys",
     "Lists the tuning profiles on the search path, or shows one profile's merged\n"
     "values with where each came from.",
     "profiles [show NAME]", "list the tuning profiles, or show one's values"},
    {"probe", CMD_PROBE, cmd_probe,
     "probe [--json] [--topology FILE.xml] [--sysfs DIR] [--facts FILE.json]",
     "Shows what rdmarun finds on this node: RDMA devices and ports, topology, MPI\n"
     "and UCX, and what would make a job fall back to TCP.",
     "probe", "what rdmarun finds on this node"},
    {"verify", CMD_VERIFY, cmd_verify, "verify [--json] [--expect WHAT] LOG_FILE_OR_DIR...|-",
     "Reads a job's transport logs (an evidence directory) and says whether its ranks\n"
     "talked over RDMA, TCP or only within the node.",
     "verify LOG_OR_DIR...", "whether a job's ranks talked over RDMA or TCP"},
    {"check", CMD_CHECK, cmd_check,
     "check --qp-test [--device DEV[:PORT]] [--gid-index N]\n"
     "       rdmarun check --path-test [--json] [--all-pairs] [--path-timeout S] [--device DEV[:PORT]]\n"
     "               [--gid-index N] [--launcher mpirun|srun] [MPIRUN HOST OPTIONS]\n"
     "       rdmarun check [--config FILE] [--drain] [--node NAME] [--scontrol PATH]",
     "Checks the node's health, a verbs loopback on its ports (--qp-test) or RDMA\n"
     "between nodes (--path-test).",
     "check", "node health, --qp-test, --path-test between nodes"},
    {"rank", CMD_RANK, cmd_rank,
     "rank [HELPER OPTIONS] -- PROGRAM [ARGS...]   (started by mpirun, srun or torchrun)",
     "The per-rank helper the plan puts in front of each rank: places the rank on its\n"
     "cores, memory, NIC and GPU, then executes PROGRAM.",
     NULL, NULL},
    {"path-peer", CMD_PATH_PEER, cmd_path_peer,
     "path-peer [--all-pairs] [--device DEV[:PORT]] [--gid-index N]   (started by check "
     "--path-test)",
     "One node's process of 'rdmarun check --path-test'; not run by hand.",
     NULL, NULL},
    {"compare", CMD_COMPARE, cmd_compare,
     "compare -p PROFILE[,PROFILE...] --np N[,N...] [--repeat R] [--warmup W]\n"
     "               [--metric REGEX] [--baseline PROFILE] [-o DIR] [MPIRUN OPTIONS]\n"
     "               -- PROGRAM [ARGS...]\n"
     "       rdmarun compare --resume DIR",
     "Runs PROGRAM under each profile and rank count, repeated, and compares the\n"
     "runs' wall time (or a metric) against a baseline.",
     "compare", "run PROGRAM under several profiles, compare times"},
    {"tune", CMD_TUNE, cmd_tune,
     "tune -p BASE [--space FILE] [--budget RUNS|TIME] [-o DIR] [--benchmark mpi|ucx]\n"
     "               [--metric REGEX [--higher-is-better]] [MPIRUN OPTIONS]\n"
     "               [-- PROGRAM [ARGS...]]\n"
     "       rdmarun tune --resume DIR\n"
     "       rdmarun tune --validate DIR [--repeat PAIRS]",
     "Searches UCX settings and bind policies on top of profile BASE by measuring a\n"
     "benchmark (built in: ping-pong, allreduce and bcast over message sizes, or\n"
     "ucx_perftest's tag_lat and tag_bw), every run\n"
     "verified, and writes the profile that beats BASE, with each gain and its interval.",
     "tune", "find the settings that beat a profile, by measuring"},
    {"report", CMD_REPORT, cmd_report, "report [--json|--csv] [--plot] DIR_OR_FILE...",
     "Reads many runs' and checks' records (evidence folders' verdict.json, saved\n"
     "'check --json' and 'check --path-test --json') and prints the fleet: nodes whose\n"
     "checks failed or whose runs fell back to TCP, by count and last time, pairs whose\n"
     "path test failed, and the odd node out.",
     "report DIR_OR_FILE...", "the fleet: nodes and pairs from many records"},
    {"judge", CMD_JUDGE, cmd_judge,
     "judge [--json] [--facts FILE.json | --sysfs DIR --topology FILE.xml]\n"
     "               [--node DESCRIPTION] FILE...|-",
     "Reads benchmark results (nccl-tests, OSU, IMB, perftest, ucx_perftest, rdmarun's\n"
     "sweep) and holds each size to the speed of light of the node's links: normal,\n"
     "degraded or broken, the link that limits it, and why a result falls short.",
     "judge FILE...", "is this benchmark result normal for the node?"},
    {"help", CMD_HELP, cmd_help, "help [COMMAND|all]   (or COMMAND --help, --help [all], -h)",
     "Shows the help of rdmarun, of one command, or of every command and option.",
     NULL, NULL},
    {"version", CMD_VERSION, cmd_version, "version   (or --version, -V)",
     "Names rdmarun's version, the stack it was built against (hwloc, UCX, rdma-core,\n"
     "json-c, inih, PMIx) and the one it finds now, with Open MPI's mpirun and Slurm's\n"
     "srun on PATH, and says where they differ.",
     NULL, NULL},
};
const size_t ncommands = sizeof(commands) / sizeof(*commands);

int cmd_wrapped(int argc, char **argv)
{
    return launch_wrapped_passthrough(argc, argv);
}

void cmd_output(const struct cmdline *cl)
{
    msg_color(cl->color);
}

int cmd_help(const struct cmdline *cl)
{
    cli_usage(stdout, cl->help_for ? cl->help_for : CMD_RUN, cl->help_all);
    return 0;
}

