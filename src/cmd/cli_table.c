/* rdmarun's own options, one table (parsed in options.c, shown here by
 * --help and COMMAND --help, completed by the shells' completion), and the
 * help text around them. */
#include "cmd/options.h"
#include "cmd/commands.h"
#include "plan/launchers.h"
#include "profile/settings.h"
#include "util/options.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define C(field) offsetof(struct cmdline, field)
#define JOB (CMD_RUN | CMD_COMPARE | CMD_TUNE)
#define FACTS (CMD_RUN | CMD_PROBE | CMD_CHECK | CMD_COMPARE | CMD_TUNE | CMD_JUDGE)

/* rdmarun's own options: every row is parsed, shown in --help and freed from
 * here. Options of the per-rank helper are in plan/rank_args.c. */
const struct opt cli_options[] = {
    {"profile", "-p", JOB, OPT_VALUE, C(profile), NULL, "NAME|FILE",
     "tuning profile (default: $RDMARUN_PROFILE, then auto)"},
    {"set", NULL, JOB | CMD_PROFILES, OPT_LIST, C(sets), NULL, "SECTION.KEY=VALUE",
     "override one profile value (repeatable)"},
    {"csv", NULL, CMD_REPORT, OPT_FLAG, C(csv), NULL, NULL, "report: one CSV row per node"},
    {"plot", NULL, CMD_REPORT, OPT_FLAG, C(plot), NULL, NULL,
     "report: each node's days, one column a day"},
    {"verbose", "-v", CMD_PROFILES, OPT_FLAG, C(verbose), NULL, NULL,
     "profiles: each profile's file under its name"},
    {"verbose", NULL, CMD_RUN, OPT_FLAG, C(verbose), NULL, NULL,
     "say the plan's details before the job (settings of\nanother MPI left out); -v is the launcher's"},
    {"keys", NULL, CMD_PROFILES, OPT_FLAG, C(keys), NULL, NULL,
     "profiles: every SECTION.KEY --set takes, one a line\n(ucx.: the installed UCX's variables)"},
    {"dry-run", NULL, CMD_RUN, OPT_FLAG, C(dry_run), NULL, NULL,
     "print the command and the plan, run nothing"},
    {"json", NULL,
     CMD_RUN | CMD_PROBE | CMD_PROFILES | CMD_VERIFY | CMD_CHECK | CMD_REPORT | CMD_JUDGE,
     OPT_FLAG, C(json),
     NULL, NULL, "machine-readable output: of a run with --dry-run,\nprofiles, probe, verify, "
     "check (each fault's code), check --path-test,\njudge"},
    {"mpirun", NULL, JOB | CMD_CHECK, OPT_VALUE, C(mpirun), NULL, "PATH",
     "the mpirun (or srun, or Hydra's mpiexec) to use\n(default: $RDMARUN_MPIRUN, $RDMARUN_SRUN,\n"
     "$RDMARUN_MPIEXEC, then PATH)"},
    {"launcher", NULL, JOB | CMD_CHECK, OPT_VALUE, C(launcher), LAUNCHERS, NULL,
     "how ranks start (default: the profile's launcher, else\nhydra for an MPICH program, mpirun "
     "otherwise);\nwith srun and hydra, -np/-N/--bind-to/--map-by/-x are\ntranslated and other "
     "options go to srun (--opt=value)\nor Hydra's mpiexec;\nexec: COMMAND (torchrun, "
     "a UCX program) starts the\nprocesses, with the plan's variables in its environment"},
    {"mpi", NULL, JOB, OPT_VALUE, C(mpi), MPI_FAMILIES, NULL,
     "the MPI the program is linked with (default: the\nprofile's, else read from the program's "
     "libraries,\nelse openmpi); mpich and impi (Intel MPI) run\nHydra's mpiexec"},
    {"verify", NULL, JOB, OPT_VALUE, C(verify), VERIFY_POLICIES, NULL,
     "check the transports the job used (default: the\nprofile's, else warn); strict stops a job "
     "on TCP"},
    {"bind-policy", NULL, JOB, OPT_VALUE, C(bind_policy), BIND_POLICIES, NULL,
     "place each rank on cores, memory, NIC and GPU\ntogether (default: the profile's "
     "[bind] policy, else none:\nOpen MPI binds)"},
    {"threads", NULL, JOB, OPT_VALUE, C(threads), NULL, "N|auto",
     "OpenMP threads per placed rank (auto: one per core);\nthe helper sets OMP_NUM_THREADS, "
     "OMP_PLACES, OMP_PROC_BIND\n(default: the profile's [bind] threads, else none)"},
    {"report", NULL, CMD_RUN, OPT_FLAG, C(report), NULL, NULL,
     "print each rank's placement (with --dry-run: the table\nfor the node's local ranks; -N or "
     "-np sets how many)"},
    {"evidence-dir", NULL, CMD_RUN | CMD_COMPARE, OPT_VALUE, C(evidence_dir), NULL, "DIR",
     "where ranks write transport logs (default: a fresh\n./rdmarun-evidence/HOST.PID.TIME.XXXXXX)"},
    {"sysfs", NULL, FACTS, OPT_VALUE, C(sysfs), NULL, "DIR",
     "read RDMA devices from a recorded sysfs tree"},
    {"topology", NULL, FACTS, OPT_VALUE, C(topology), NULL, "FILE.xml",
     "take the node's topology from an hwloc XML file"},
    {"facts", NULL, FACTS, OPT_VALUE, C(facts), NULL, "FILE.json",
     "use saved facts ('rdmarun probe --json > FILE')"},
    {"expect", NULL, CMD_VERIFY, OPT_VALUE, C(expect), EXPECTATIONS, NULL,
     "verify: exit 0 when the verdict is what this expects"},
    {"qp-test", NULL, CMD_CHECK, OPT_FLAG, C(qp_test), NULL, NULL,
     "check: the verbs RC loopback on the node's ports"},
    {"fi-pair", NULL, CMD_CHECK, OPT_VALUE, C(fi_pair), NULL, "PROVIDER",
     "check: two libfabric RDM endpoints of PROVIDER\n(efa, cxi, opx, tcp, verbs;ofi_rxm) "
     "exchange a message"},
    {"path-test", NULL, CMD_CHECK, OPT_FLAG, C(path_test), NULL, NULL,
     "check: RDMA between the nodes the host options name\n(-H, --hostfile; in Slurm: the "
     "allocation), one\nprocess per node started by mpirun or srun"},
    {"provider", NULL, CMD_CHECK | CMD_PATH_PEER, OPT_VALUE, C(provider), NULL, "PROVIDER",
     "check --path-test: over libfabric's PROVIDER\n(tagged RDM endpoints: efa, cxi, opx, tcp, "
     "verbs;ofi_rxm),\nnot verbs RC"},
    {"all-pairs", NULL, CMD_CHECK | CMD_PATH_PEER, OPT_FLAG, C(all_pairs), NULL, NULL,
     "check --path-test: every pair of nodes, not a ring"},
    {"path-timeout", NULL, CMD_CHECK, OPT_VALUE, C(path_timeout), NULL, "S",
     "check --path-test: the whole test's deadline (default 30)"},
    {"step-timeout", NULL, CMD_PATH_PEER, OPT_VALUE, C(step_timeout), NULL, "S",
     "path-peer: each step's deadline"},
    {"device", NULL, CMD_CHECK | CMD_PATH_PEER, OPT_VALUE, C(device), NULL, "DEV[:PORT]",
     "check --qp-test, --path-test: only this device or port"},
    {"gid-index", NULL, CMD_CHECK | CMD_PATH_PEER, OPT_VALUE, C(gid_index), NULL, "N",
     "check --qp-test, --path-test: this GID index"},
    {"config", NULL, CMD_CHECK, OPT_VALUE, C(config), NULL, "FILE",
     "check: the site's [check] configuration"},
    {"drain", NULL, CMD_CHECK, OPT_FLAG, C(drain), NULL, NULL,
     "check: drain the node when unhealthy, resume it when\nrdmarun drained it and it is healthy; --path-test: drain\nthe nodes re-pairing finds bad"},
    {"node", NULL, CMD_CHECK | CMD_JUDGE, OPT_VALUE, C(node), NULL, "NAME|DESCRIPTION",
     "check --drain: the node's name;\njudge: the node a result ran on, as KEY=VALUE words:\n"
     "nics=8x400G kind=ib|roce|efa|cxi|opa|eth|soft pcie=5x16\ngpus=8xH100 nvlink=none|GEN "
     "nodes=N ppn=N gdr=yes|no\nnuma=local|remote mem=GB/s (and mtu=N,\npcie-trained=GENxWIDTH)"},
    {"scontrol", NULL, CMD_CHECK, OPT_VALUE, C(scontrol), NULL, "PATH",
     "check --drain: the scontrol to run"},
    {"manifest", NULL, CMD_CHECK, OPT_VALUE, C(manifest), NULL, "FILE",
     "check: compare the node with a good node's\n'rdmarun probe --json' (RDMARUN-MANIFEST-*)"},
    {"epilog", NULL, CMD_CHECK, OPT_FLAG, C(epilog), NULL, NULL,
     "check: in Slurm's Epilog, judge what the counters\ngrew during the job ($SLURM_JOB_ID) "
     "against its prolog's"},
    {"prometheus", NULL, CMD_CHECK, OPT_VALUE, C(prometheus), NULL, "FILE",
     "check: write the result for node_exporter's textfile\ncollector (FILE.prom, replaced whole)"},
    {"np", "-np", CMD_COMPARE, OPT_VALUE, C(np_list), NULL, "N[,N...]",
     "compare: the rank counts"},
    {"repeat", NULL, CMD_COMPARE | CMD_TUNE, OPT_VALUE, C(repeat), NULL, "R",
     "compare: measured runs per combination (default 5);\ntune: pairs of runs to validate "
     "with (default 10)"},
    {"warmup", NULL, CMD_COMPARE, OPT_VALUE, C(warmup), NULL, "W",
     "compare: runs left out first (default 1)"},
    {"metric", NULL, CMD_COMPARE | CMD_TUNE, OPT_VALUE, C(metric), NULL, "REGEX",
     "compare, tune: the figure (its last group; with two\ngroups the first is its bin, "
     "e.g. the message size;\ndefault: wall time)"},
    {"higher-is-better", NULL, CMD_COMPARE | CMD_TUNE, OPT_FLAG, C(higher), NULL, NULL,
     "compare, tune: more of the metric is better (a bandwidth,\nbusbw)"},
    {"baseline", NULL, CMD_COMPARE, OPT_VALUE, C(baseline), NULL, "PROFILE",
     "compare: the profile the others are measured against"},
    {"output", "-o", CMD_COMPARE | CMD_TUNE, OPT_VALUE, C(output), NULL, "DIR",
     "compare, tune: the results folder"},
    {"resume", NULL, CMD_COMPARE | CMD_TUNE, OPT_VALUE, C(resume), NULL, "DIR",
     "compare, tune: continue an interrupted one"},
    {"space", NULL, CMD_TUNE, OPT_VALUE, C(space), NULL, "FILE",
     "tune: the values to try ([SECTION] KEY = V1 | V2 ...;\ndefault: from the installed UCX "
     "and the node)"},
    {"validate", NULL, CMD_TUNE, OPT_VALUE, C(validate), NULL, "DIR",
     "tune: measure DIR/tuned.ini against its base again,\ninterleaved: speedup per bin, a plot"},
    {"no-validate", NULL, CMD_TUNE, OPT_FLAG, C(no_validate), NULL, NULL,
     "tune: no validation pass after the search"},
    {"benchmark", NULL, CMD_TUNE, OPT_VALUE, C(benchmark), "mpi|ucx", NULL,
     "tune: the built-in benchmark: mpi (ping-pong, allreduce,\nbcast; default) or ucx "
     "(ucx_perftest's tag_lat, tag_bw)"},
    {"budget", NULL, CMD_TUNE, OPT_VALUE, C(budget), NULL, "RUNS|TIME",
     "tune: at most this many runs, or this long (90s, 30m,\n2h; default 200 runs)"},
    {"color", NULL, JOB | CMD_PROBE | CMD_PROFILES | CMD_VERIFY | CMD_CHECK, OPT_VALUE, C(color),
     "auto|always|never", NULL,
     "colour FALLBACK, error: and warning: (default auto: on a\nterminal, unless NO_COLOR is set)"},
};
const size_t cli_noptions = sizeof(cli_options) / sizeof(*cli_options);

static const char mpirun_text[] =
    "mpirun options are passed on unchanged and in order; those that set what a profile\n"
    "sets win over it: -n/-np/-c N, -N N, -H/--host, --hostfile, --map-by, --bind-to,\n"
    "--rank-by, --report-bindings, -x VAR[=VALUE], --mca NAME VALUE, --oversubscribe,\n"
    "--allow-run-as-root, and any other option the launcher lists (mpirun --help all,\n"
    "srun --help); any other word is refused before anything starts. Use -- before\n"
    "PROGRAM if it starts with '-'.\n";

static const char env_text[] =
    "Environment: RDMARUN_PROFILE (default profile), RDMARUN_PROFILE_PATH (profile\n"
    "directories), RDMARUN_MPIRUN and RDMARUN_SRUN (the launcher to use),\n"
    "RDMARUN_EVIDENCE_DIR (where evidence directories go), NO_COLOR (no colour);\n"
    "UCX_*, NCCL_* and OMPI_MCA_* already set override the profile.\n";

/* The options named, in this order, each with the first line of its help. */
static void help_named(FILE *out, const char *const *names)
{
    for (; *names; names++)
        for (size_t k = 0; k < cli_noptions; k++)
            if (strcmp(cli_options[k].name, *names) == 0)
                opt_help_one(&cli_options[k], true, out);
}

static void usage_lines(FILE *out, const struct command_def *c, bool first)
{
    fprintf(out, "%s rdmarun %s\n", first ? "Usage:" : "      ", c->usage);
}

/* The grouped help of `rdmarun --help`: the common options first. */
static void global_help(FILE *out)
{
    static const char *const common[] = {"profile", "set", "dry-run", "launcher", "color", NULL};
    static const char *const placement[] = {"bind-policy", "threads", "report", NULL};
    static const char *const verify[] = {"verify", "evidence-dir", NULL};
    usage_lines(out, &commands[0], true);
    fprintf(out, "       rdmarun COMMAND [OPTIONS]   (rdmarun COMMAND --help: its own options)\n\n"
                 "%s\n\nCommon options:\n", commands[0].summary);
    help_named(out, common);
    fputs("\nPlacement:\n", out);
    help_named(out, placement);
    fputs("\nVerifying the transports:\n", out);
    help_named(out, verify);
    fputs("\nCommands:\n", out);
    for (size_t k = 0; k < ncommands; k++)   /* every command a person runs */
        if (commands[k].words)
            fprintf(out, "  %-24s %s\n", commands[k].words, commands[k].brief);
    fputs("  -h, --help [all]         this help; all: every option, the helpers' too\n"
          "  -V, --version            rdmarun's version and the stack it runs on\n"
          "\nmpirun's own options (-np, -H, --map-by, -x, --mca, ...) pass on unchanged;\n"
          "other words are refused. See rdmarun(1) and rdmarun-profile(5).\n",
          out);
}

/* rdmarun --help all: every command's usage and every option. */
static void all_help(FILE *out)
{
    for (size_t i = 0; i < ncommands; i++)
        if (commands[i].usage)
            usage_lines(out, &commands[i], i == 0);
    fprintf(out, "\n%s\n\nOptions of a run:\n", commands[0].summary);
    opt_help(cli_options, cli_noptions, CMD_RUN, 0, out);
    fputs("  -h, --help [all]         this help; all: every option, the helpers' too\n"
          "  -V, --version            rdmarun's version and the stack it runs on\n"
          "\nprofiles, probe, verify, check, compare, tune, report and path-peer options:\n", out);
    opt_help(cli_options, cli_noptions, ~(unsigned)CMD_RUN, CMD_RUN, out);
    fputs("\nthe per-rank helper (rdmarun rank, which the plan puts in front of each rank):\n",
          out);
    opt_help(rank_options, nrank_options, 1, 0, out);
    fprintf(out, "\n%s\n%sSee rdmarun(1) and rdmarun-profile(5).\n", mpirun_text, env_text);
}

/* rdmarun COMMAND --help: its usage, what it does and its options only. */
static void command_help(FILE *out, const struct command_def *c)
{
    usage_lines(out, c, true);
    fprintf(out, "\n%s\n\nOptions:\n", c->summary);
    if (c->id == CMD_RANK)
        opt_help(rank_options, nrank_options, 1, 0, out);
    else
        opt_help(cli_options, cli_noptions, c->id, 0, out);
    fputs("  -h, --help               this help\n", out);
    if (c->id & (CMD_COMPARE | CMD_CHECK | CMD_TUNE))
        fprintf(out, "\n%s", c->id & (CMD_COMPARE | CMD_TUNE) ? mpirun_text
                : "Host options (-H, --hostfile, -np, ...) go to mpirun or srun.\n");
    fprintf(out, "\nSee rdmarun(1).\n");
}

void cli_usage(FILE *out, enum command command, bool all)
{
    if (all)
        all_help(out);
    else if (command == CMD_RUN)
        global_help(out);
    else
        command_help(out, command_of(command));
}

/* The commands' table (commands.c) looked up: here, beside the option
 * table, so that the command line's reading calls nothing of the file
 * whose table names every command. */
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
