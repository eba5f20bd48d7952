#include "cmd/options.h"
#include "cmd/commands.h"
#include "profile/settings.h"
#include "util/msg.h"
#include "util/options.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define C(field) offsetof(struct cmdline, field)
#define JOB (CMD_RUN | CMD_COMPARE)
#define FACTS (CMD_RUN | CMD_PROBE | CMD_CHECK | CMD_COMPARE)

/* rdmarun's own options: every row is parsed, shown in --help and freed from
 * here. Options of the per-rank helper are in plan/rank_args.c. */
static const struct opt options[] = {
    {"profile", "-p", JOB, OPT_VALUE, C(profile), NULL, "NAME|FILE",
     "tuning profile (default: $RDMARUN_PROFILE, then auto)"},
    {"set", NULL, JOB | CMD_PROFILES, OPT_LIST, C(sets), NULL, "SECTION.KEY=VALUE",
     "override one profile value (repeatable)"},
    {"keys", NULL, CMD_PROFILES, OPT_FLAG, C(keys), NULL, NULL,
     "profiles: every SECTION.KEY --set takes, one a line\n(ucx.: the installed UCX's variables)"},
    {"dry-run", NULL, CMD_RUN, OPT_FLAG, C(dry_run), NULL, NULL,
     "print the command and the plan, run nothing"},
    {"json", NULL, CMD_RUN | CMD_PROBE | CMD_PROFILES | CMD_VERIFY | CMD_CHECK, OPT_FLAG, C(json),
     NULL, NULL, "machine-readable output: of a run with --dry-run,\nprofiles, probe, verify, "
     "check --path-test"},
    {"mpirun", NULL, JOB | CMD_CHECK, OPT_VALUE, C(mpirun), NULL, "PATH",
     "the mpirun (or srun) to use (default: $RDMARUN_MPIRUN,\n$RDMARUN_SRUN, then PATH)"},
    {"launcher", NULL, JOB | CMD_CHECK, OPT_VALUE, C(launcher), LAUNCHERS, NULL,
     "how ranks start (default: the profile's launcher);\nwith srun, -np/-N/--bind-to/--map-by/-x/"
     "--mca are\ntranslated and other options go to srun (--opt=value);\nexec: COMMAND (torchrun, "
     "a UCX program) starts the\nprocesses, with the plan's variables in its environment"},
    {"verify", NULL, JOB, OPT_VALUE, C(verify), VERIFY_POLICIES, NULL,
     "check the transports the job used (default: the\nprofile's, else warn); strict stops a job "
     "on TCP"},
    {"bind-policy", NULL, JOB, OPT_VALUE, C(bind_policy), BIND_POLICIES, NULL,
     "place each rank on cores, memory, NIC and GPU together\n(default: the profile's "
     "[bind] policy, else none:\nOpen MPI binds)"},
    {"threads", NULL, JOB, OPT_VALUE, C(threads), NULL, "N|auto",
     "OpenMP threads per placed rank (auto: one per core);\nthe helper sets OMP_NUM_THREADS, "
     "OMP_PLACES, OMP_PROC_BIND\n(default: the profile's [bind] threads, else none)"},
    {"report", NULL, CMD_RUN, OPT_FLAG, C(report), NULL, NULL,
     "print each rank's placement (with --dry-run: the table\nfor the node's local ranks; -N or "
     "-np sets how many)"},
    {"evidence-dir", NULL, JOB, OPT_VALUE, C(evidence_dir), NULL, "DIR",
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
    {"path-test", NULL, CMD_CHECK, OPT_FLAG, C(path_test), NULL, NULL,
     "check: RDMA between the nodes the host options name\n(-H, --hostfile; in Slurm: the "
     "allocation), one\nprocess per node started by mpirun or srun"},
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
     "check: drain the node when unhealthy, resume it when\nrdmarun drained it and it is healthy"},
    {"node", NULL, CMD_CHECK, OPT_VALUE, C(node), NULL, "NAME", "check --drain: the node's name"},
    {"scontrol", NULL, CMD_CHECK, OPT_VALUE, C(scontrol), NULL, "PATH",
     "check --drain: the scontrol to run"},
    {"np", "-np", CMD_COMPARE, OPT_VALUE, C(np_list), NULL, "N[,N...]",
     "compare: the rank counts"},
    {"repeat", NULL, CMD_COMPARE, OPT_VALUE, C(repeat), NULL, "R",
     "compare: measured runs per combination (default 5)"},
    {"warmup", NULL, CMD_COMPARE, OPT_VALUE, C(warmup), NULL, "W",
     "compare: runs left out first (default 1)"},
    {"metric", NULL, CMD_COMPARE, OPT_VALUE, C(metric), NULL, "REGEX",
     "compare: the value to compare (default: wall time)"},
    {"higher-is-better", NULL, CMD_COMPARE, OPT_FLAG, C(higher), NULL, NULL,
     "compare: more of the metric is better (a bandwidth, busbw)"},
    {"baseline", NULL, CMD_COMPARE, OPT_VALUE, C(baseline), NULL, "PROFILE",
     "compare: the profile the others are measured against"},
    {"output", "-o", CMD_COMPARE, OPT_VALUE, C(output), NULL, "DIR", "compare: the results folder"},
    {"resume", NULL, CMD_COMPARE, OPT_VALUE, C(resume), NULL, "DIR",
     "compare: continue an interrupted comparison"},
    {"color", NULL, JOB | CMD_PROBE | CMD_PROFILES | CMD_VERIFY | CMD_CHECK, OPT_VALUE, C(color),
     "auto|always|never", NULL,
     "colour FALLBACK, error: and warning: (default auto: on a\nterminal, unless NO_COLOR is set)"},
};
#define NOPTIONS (sizeof(options) / sizeof(*options))

static const struct { const char *name; int nargs; } mpirun_opts[] = {
    {"am", 1}, {"app", 1}, {"bind-to", 1}, {"c", 1}, {"np", 1}, {"n", 1}, {"cf", 1},
    {"cartofile", 1}, {"cpu-list", 1}, {"cpu-set", 1}, {"cpus-per-proc", 1},
    {"cpus-per-rank", 1}, {"debugger", 1}, {"default-hostfile", 1}, {"gmca", 2}, {"H", 1},
    {"host", 1}, {"hnp", 1}, {"hostfile", 1}, {"launch-agent", 1}, {"machinefile", 1},
    {"map-by", 1}, {"max-restarts", 1}, {"max-vm-size", 1}, {"mca", 2}, {"N", 1},
    {"npernode", 1}, {"npersocket", 1}, {"ompi-server", 1}, {"output", 1}, {"output-filename", 1},
    {"path", 1}, {"personality", 1}, {"ppr", 1}, {"prefix", 1}, {"preload-files", 1},
    {"rank-by", 1}, {"report-events", 1}, {"report-pid", 1}, {"report-uri", 1}, {"rf", 1},
    {"rankfile", 1}, {"stdin", 1}, {"timeout", 1}, {"tune", 1}, {"wd", 1}, {"wdir", 1},
    {"x", 1}, {"xml-file", 1}, {"xterm", 1},
};

static const char mpirun_text[] =
    "mpirun options are passed on unchanged and in order; those that set what a profile\n"
    "sets win over it: -n/-np/-c N, -N N, -H/--host, --hostfile, --map-by, --bind-to,\n"
    "--rank-by, --report-bindings, -x VAR[=VALUE], --mca NAME VALUE, --oversubscribe,\n"
    "--allow-run-as-root, and any other Open MPI option. Use -- before PROGRAM if it\n"
    "starts with '-'.\n";

static const char env_text[] =
    "Environment: RDMARUN_PROFILE (default profile), RDMARUN_PROFILE_PATH (profile\n"
    "directories), RDMARUN_MPIRUN and RDMARUN_SRUN (the launcher to use),\n"
    "RDMARUN_EVIDENCE_DIR (where evidence directories go), NO_COLOR (no colour);\n"
    "UCX_*, NCCL_* and OMPI_MCA_* already set override the profile.\n";

/* The options named, in this order, each with the first line of its help. */
static void help_named(FILE *out, const char *const *names)
{
    for (; *names; names++)
        for (size_t k = 0; k < NOPTIONS; k++)
            if (strcmp(options[k].name, *names) == 0)
                opt_help_one(&options[k], true, out);
}

static void usage_lines(FILE *out, const struct command_def *c, bool first)
{
    fprintf(out, "%s rdmarun %s\n", first ? "Usage:" : "      ", c->usage);
}

/* The grouped help of `rdmarun --help`: the common options first. */
static void global_help(FILE *out)
{
    static const char *const common[] = {"profile", "set", "dry-run", "mpirun", "launcher", NULL};
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
    fputs("\nCommands:\n"
          "  profiles [show NAME]     list the tuning profiles, or show one's values\n"
          "  probe                    what rdmarun finds on this node\n"
          "  verify LOG_OR_DIR...     whether a job's ranks talked over RDMA or TCP\n"
          "  check                    node health, --qp-test, --path-test between nodes\n"
          "  compare                  run PROGRAM under several profiles, compare times\n",
          out);
    fputs("\n  -h, --help [all]         this help; all: every option, the helpers' too\n"
          "  -V, --version            rdmarun's version and the stack it runs on\n"
          "\nmpirun options (-np, -H, --map-by, -x, --mca, ...) are passed on unchanged.\n"
          "See rdmarun(1) and rdmarun-profile(5).\n",
          out);
}

/* rdmarun --help all: every command's usage and every option. */
static void all_help(FILE *out)
{
    for (size_t i = 0; i < ncommands; i++)
        if (commands[i].usage)
            usage_lines(out, &commands[i], i == 0);
    fprintf(out, "\n%s\n\nOptions of a run:\n", commands[0].summary);
    opt_help(options, NOPTIONS, CMD_RUN, 0, out);
    fputs("  -h, --help [all]         this help; all: every option, the helpers' too\n"
          "  -V, --version            rdmarun's version and the stack it runs on\n"
          "\nprofiles, probe, verify, check, compare and path-peer options:\n", out);
    opt_help(options, NOPTIONS, ~(unsigned)CMD_RUN, CMD_RUN, out);
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
        opt_help(options, NOPTIONS, c->id, 0, out);
    fputs("  -h, --help               this help\n", out);
    if (c->id & (CMD_COMPARE | CMD_CHECK))
        fprintf(out, "\n%s", c->id == CMD_COMPARE ? mpirun_text
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

bool cli_gid_index(const char *value, long *out)
{
    *out = -1;
    if (!value || parse_long(value, 0, 255, out))
        return true;
    rr_error("--gid-index %s: expected a GID table index from 0 to 255", value);
    return false;
}

static int opt_nargs(const char *name)
{
    for (size_t i = 0; i < sizeof(mpirun_opts) / sizeof(*mpirun_opts); i++)
        if (strcmp(mpirun_opts[i].name, name) == 0)
            return mpirun_opts[i].nargs;
    return 0;
}

/* -np/-n/-c and -N/-npernode take a count of processes: a whole number >= 1,
 * as mpirun needs (rdmarun would plan for a count mpirun refuses). */
#define MAX_PROCESSES (1L << 30)   /* past any machine; mpirun's counts are ints */

static bool process_count(const char *option, const char *value, long *out)
{
    if (parse_long(value, 1, MAX_PROCESSES, out))
        return true;
    rr_error("%s needs a number of processes (a whole number from 1 to %ld), not '%s'", option,
             MAX_PROCESSES, value);
    return false;
}

/* What an mpirun option says that the plan needs; false on a bad value. */
static bool note_override(struct job_args *job, const char *name, char **argv, int i)
{
    if ((strcmp(name, "np") == 0 || strcmp(name, "n") == 0 || strcmp(name, "c") == 0) &&
        !process_count(argv[i], argv[i + 1], &job->np))
        return false;
    if ((strcmp(name, "N") == 0 || strcmp(name, "npernode") == 0) &&
        !process_count(argv[i], argv[i + 1], &job->ppn))
        return false;
    if (strcmp(name, "app") == 0) {
        free(job->appfile);
        job->appfile = xstrdup(argv[i + 1]);
    }
    if (strcmp(name, "x") == 0) {
        char *var = xstrndup(argv[i + 1], strcspn(argv[i + 1], "="));
        sv_push(&job->user_env, var);
        free(var);
    } else if (strcmp(name, "mca") == 0 || strcmp(name, "gmca") == 0) {
        sv_push(&job->user_mca, argv[i + 1]);
    }
    if (strcmp(name, "map-by") == 0) {
        free(job->map_by);
        job->map_by = xstrdup(argv[i + 1]);
    }
    if (strcmp(name, "map-by") == 0 || strcmp(name, "bind-to") == 0 ||
        strcmp(name, "rank-by") == 0 || strcmp(name, "report-bindings") == 0)
        sv_push(&job->user_opts, name);
    return true;
}

/* One app context's words: its mpirun options, then PROGRAM ARGS up to the
 * next ":" (or the end). Its -np adds to the job's. Returns the words used,
 * or -1 on an error (said). */
int cli_parse_context(struct job_args *job, char **words, int n, struct app_context *c)
{
    memset(c, 0, sizeof(*c));
    long np = job->np;
    job->np = -1;
    int i = 0;
    for (; i < n && words[i][0] == '-' && words[i][1] && strcmp(words[i], "--") != 0; i++) {
        const char *name = words[i] + (words[i][1] == '-' ? 2 : 1);
        int nargs = opt_nargs(name);
        if (i + nargs >= n) {
            rr_error("mpirun option %s needs %d argument%s", words[i], nargs, nargs > 1 ? "s" : "");
            return -1;
        }
        if (!note_override(job, name, words, i))
            return -1;
        for (int k = 0; k <= nargs; k++)
            sv_push(&c->args, words[i + k]);
        i += nargs;
    }
    if (i < n && strcmp(words[i], "--") == 0)
        i++;
    for (; i < n && strcmp(words[i], ":") != 0; i++)
        sv_push(&c->program, words[i]);
    if (c->program.n == 0) {
        rr_error("an app context has no program (hint: rdmarun -np 1 a : -np 1 b)");
        return -1;
    }
    job->np = np >= 0 && job->np >= 0 ? np + job->np : np >= 0 ? np : job->np;
    return i;
}

/* PROGRAM ARGS [: [OPTIONS] PROGRAM ARGS]...: the first context's program
 * stays in job->program, the others become job->contexts. */
static int split_contexts(struct job_args *job)
{
    struct strvec all = job->program;
    memset(&job->program, 0, sizeof(job->program));
    size_t i = 0;
    for (; i < all.n && strcmp(all.v[i], ":") != 0; i++)
        sv_push(&job->program, all.v[i]);
    int rc = 0;
    while (rc == 0 && i < all.n) {
        i++;   /* the ":" */
        GROW(job->contexts, job->ncontexts_cap, job->ncontexts + 1);
        int used = cli_parse_context(job, all.v + i, (int)(all.n - i), &job->contexts[job->ncontexts]);
        if (used < 0) {
            sv_free(&job->contexts[job->ncontexts].args);
            sv_free(&job->contexts[job->ncontexts].program);
            rc = RR_EX_USAGE;
            break;
        }
        job->ncontexts++;
        i += (size_t)used;
    }
    sv_free(&all);
    return rc;
}

/* One of rdmarun's own options, of the helper's (rdmarun rank) or of
 * either table's: 1 when taken, 0 when not one of them, -1 on an error. */
static int own_option(struct cmdline *cl, int argc, char **argv, int *i)
{
    int r = 0;
    if (cl->command == CMD_RANK)
        r = opt_parse(rank_options, nrank_options, 1, &cl->rank, argc, argv, i);
    return r ? r : opt_parse(options, NOPTIONS, cl->command, cl, argc, argv, i);
}

/* launcher exec: the plan gives the helper its options in the environment,
 * for the workers COMMAND starts as `rdmarun rank -- PROGRAM`; options on
 * the helper's own command line win over them. */
static int rank_env_options(struct cmdline *cl)
{
    const char *env = getenv("RDMARUN_RANK_OPTIONS");
    struct strvec words = {0}, all = {0};
    if (env)
        sv_split(&all, env, " ");
    for (size_t i = 0; i < all.n; i++)
        if (*all.v[i])
            sv_push(&words, all.v[i]);
    int rc = 0;
    for (int i = 0; i < (int)words.n && !rc; i++) {
        int r = opt_parse(rank_options, nrank_options, 1, &cl->rank, (int)words.n, words.v, &i);
        if (r == 0)
            rr_error("RDMARUN_RANK_OPTIONS: '%s' is not an option of 'rdmarun rank' (the plan "
                     "of another rdmarun version set it? hint: unset RDMARUN_RANK_OPTIONS)",
                     words.v[i]);
        rc = r <= 0 ? RR_EX_USAGE : 0;
    }
    sv_free(&words);
    sv_free(&all);
    return rc;
}

int cli_parse(int argc, char **argv, struct cmdline *cl)
{
    memset(cl, 0, sizeof(*cl));
    cl->job.np = cl->job.ppn = -1;
    cl->command = CMD_RUN;
    int i = 1;
    const struct command_def *named = i < argc ? command_named(argv[i]) : NULL;
    if (named) {
        cl->command = named->id;
        i++;
    }
    if (cl->command == CMD_RANK && rank_env_options(cl) != 0)
        return RR_EX_USAGE;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0') {
            if (cl->command != CMD_PROFILES && cl->command != CMD_VERIFY)
                break;
            sv_push(&cl->job.program, a);   /* 'profiles' words, 'verify' paths */
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            cl->help_for = cl->command;
            cl->help_all = i + 1 < argc && strcmp(argv[i + 1], "all") == 0;
            cl->command = CMD_HELP;
            return 0;
        }
        if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
            cl->command = CMD_VERSION;
            return 0;
        }
        int taken = own_option(cl, argc, argv, &i);
        if (taken < 0)
            return RR_EX_USAGE;
        if (taken)
            continue;
        if (!(cl->command & (CMD_RUN | CMD_COMPARE | CMD_CHECK))) {
            rr_error("unknown option %s for '%s' (hint: rdmarun --help)", a,
                     command_of(cl->command)->name);
            return RR_EX_USAGE;
        }
        /* An mpirun option: kept verbatim with its arguments. */
        const char *name = a + (a[1] == '-' ? 2 : 1);
        int nargs = opt_nargs(name);
        if (i + nargs >= argc) {
            rr_error("mpirun option %s needs %d argument%s", a, nargs, nargs > 1 ? "s" : "");
            return RR_EX_USAGE;
        }
        if (!note_override(&cl->job, name, argv, i))
            return RR_EX_USAGE;
        for (int k = 0; k <= nargs; k++)
            sv_push(&cl->job.mpirun_args, argv[i + k]);
        i += nargs;
    }
    for (; i < argc; i++)
        sv_push(&cl->job.program, argv[i]);
    if (cl->command == CMD_RUN && split_contexts(&cl->job) != 0)
        return RR_EX_USAGE;
    struct strvec *words = &cl->job.program;
    if (cl->command == CMD_PROFILES && words->n > 0) {
        if (strcmp(words->v[0], "show") != 0 || words->n != 2) {
            rr_error("usage: rdmarun profiles [--json] | rdmarun profiles show [--json] NAME");
            return RR_EX_USAGE;
        }
        cl->show_name = xstrdup(words->v[1]);
        sv_free(words);
    }
    if ((cl->command & (CMD_RUN | CMD_RANK) || (cl->command == CMD_COMPARE && !cl->resume)) &&
        words->n == 0 && !(cl->job.appfile && cl->command & CMD_RUN)) {
        rr_error("no program to run (hint: rdmarun [options] PROGRAM [ARGS]; rdmarun --help)");
        return RR_EX_USAGE;
    }
    if (cl->command == CMD_VERIFY && words->n == 0) {
        rr_error("'verify' needs log files or directories (hint: rdmarun verify "
                 "rdmarun-evidence/JOB)");
        return RR_EX_USAGE;
    }
    if (!(cl->command & (CMD_RUN | CMD_VERIFY | CMD_RANK | CMD_COMPARE)) && words->n > 0) {
        rr_error("unexpected argument '%s' (hint: rdmarun --help)", words->v[0]);
        return RR_EX_USAGE;
    }
    return 0;
}

void cli_free(struct cmdline *cl)
{
    opt_free(options, NOPTIONS, cl);
    rank_args_free(&cl->rank);
    free(cl->show_name);
    free(cl->job.map_by);
    sv_free(&cl->job.mpirun_args);
    sv_free(&cl->job.user_env);
    sv_free(&cl->job.user_mca);
    sv_free(&cl->job.user_opts);
    sv_free(&cl->job.program);
    free(cl->job.appfile);
    job_contexts_free(&cl->job);
}
