#include "cmd/options.h"
#include "plan/placement.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* Open MPI 4.1 mpirun options that take arguments ('mpirun --help all'). Any
 * other option is passed through as a flag; mpirun accepts one or two dashes. */
static const struct { const char *name; int nargs; } mpirun_opts[] = {
    {"am", 1}, {"app", 1}, {"bind-to", 1}, {"c", 1}, {"np", 1}, {"n", 1}, {"cf", 1},
    {"cartofile", 1}, {"cpu-list", 1}, {"cpu-set", 1}, {"cpus-per-proc", 1},
    {"cpus-per-rank", 1}, {"debugger", 1}, {"default-hostfile", 1}, {"gmca", 2}, {"H", 1},
    {"host", 1}, {"hnp", 1}, {"hostfile", 1}, {"launch-agent", 1}, {"machinefile", 1},
    {"map-by", 1}, {"max-restarts", 1}, {"max-vm-size", 1}, {"mca", 2}, {"N", 1},
    {"npernode", 1}, {"npersocket", 1}, {"ompi-server", 1}, {"output-filename", 1},
    {"path", 1}, {"personality", 1}, {"ppr", 1}, {"prefix", 1}, {"preload-files", 1},
    {"rank-by", 1}, {"report-events", 1}, {"report-pid", 1}, {"report-uri", 1}, {"rf", 1},
    {"rankfile", 1}, {"stdin", 1}, {"timeout", 1}, {"tune", 1}, {"wd", 1}, {"wdir", 1},
    {"x", 1}, {"xml-file", 1}, {"xterm", 1},
};

void cli_usage(FILE *out)
{
    fputs(
        "Usage: rdmarun [RDMARUN OPTIONS] [MPIRUN OPTIONS] PROGRAM [ARGS...]\n"
        "       rdmarun profiles [show NAME]\n"
        "       rdmarun probe [--json] [--topology FILE.xml] [--sysfs DIR] [--facts FILE.json]\n"
        "       rdmarun verify [--json] LOG_FILE_OR_DIR...\n"
        "       rdmarun check --qp-test [--device DEV[:PORT]] [--gid-index N]\n"
        "       rdmarun check [--config FILE] [--drain] [--node NAME] [--scontrol PATH]\n"
        "       rdmarun rank [HELPER OPTIONS] -- PROGRAM [ARGS...]   (started by mpirun)\n"
        "       rdmarun compare -p PROFILE[,PROFILE...] --np N[,N...] [--repeat R] [--warmup W]\n"
        "               [--metric REGEX] [--baseline PROFILE] [-o DIR] [MPIRUN OPTIONS]\n"
        "               -- PROGRAM [ARGS...]\n"
        "       rdmarun compare --resume DIR\n"
        "\n"
        "Runs PROGRAM with Open MPI's mpirun, tuned by a profile for the node's RDMA fabric,\n"
        "and shows where every setting came from.\n"
        "\n"
        "rdmarun options:\n"
        "  -p, --profile NAME|FILE  tuning profile (default: $RDMARUN_PROFILE, then auto)\n"
        "      --set SECTION.KEY=VALUE  override one profile value (repeatable)\n"
        "      --dry-run            print the command and the plan, run nothing\n"
        "      --json               with --dry-run, probe or profiles: machine-readable output\n"
        "      --mpirun PATH        the mpirun (or srun) to use (default: $RDMARUN_MPIRUN,\n"
        "                           $RDMARUN_SRUN, then PATH)\n"
        "      --launcher mpirun|srun  how ranks start (default: the profile's launcher);\n"
        "                           with srun, -np/-N/--bind-to/--map-by/-x/--mca are\n"
        "                           translated and other options go to srun (--opt=value)\n"
        "      --verify off|warn|strict  check the transports the job used (default: the\n"
        "                           profile's, else warn); strict stops a job on TCP\n"
        "      --bind-policy none|numa|nic-local|gpu-local  place each rank on cores,\n"
        "                           memory, NIC and GPU that belong together (default: the\n"
        "                           profile's [bind] policy, else none: Open MPI binds)\n"
        "      --report             print each rank's placement (with --dry-run: the table\n"
        "                           for the node's local ranks; -N or -np sets how many)\n"
        "      --evidence-dir DIR   where ranks write transport logs (default:\n"
        "                           ./rdmarun-evidence/HOST.PID.TIME)\n"
        "      --sysfs DIR          read RDMA devices from a recorded sysfs tree\n"
        "      --topology FILE.xml  take the node's topology from an hwloc XML file\n"
        "      --facts FILE.json    use saved facts ('rdmarun probe --json > FILE')\n"
        "  -h, --help               this help;  -V, --version  rdmarun's version\n"
        "\n"
        "mpirun options are passed on unchanged and in order; those that set what a profile\n"
        "sets win over it: -n/-np/-c N, -N N, -H/--host, --hostfile, --map-by, --bind-to,\n"
        "--rank-by, --report-bindings, -x VAR[=VALUE], --mca NAME VALUE, --oversubscribe,\n"
        "--allow-run-as-root, and any other Open MPI option. Use -- before PROGRAM if it\n"
        "starts with '-'.\n"
        "\n"
        "Environment: RDMARUN_PROFILE (default profile), RDMARUN_PROFILE_PATH (profile\n"
        "directories), RDMARUN_MPIRUN (the mpirun to use);\n"
        "UCX_*, NCCL_* and OMPI_MCA_* already set override the profile.\n"
        "See rdmarun(1) and rdmarun-profile(5).\n",
        out);
}

static int opt_nargs(const char *name)
{
    for (size_t i = 0; i < sizeof(mpirun_opts) / sizeof(*mpirun_opts); i++)
        if (strcmp(mpirun_opts[i].name, name) == 0)
            return mpirun_opts[i].nargs;
    return 0;
}

/* rdmarun's own option `name` (without dashes) taking a value, in either
 * "--name VALUE" or "--name=VALUE" form. */
static bool own_value(const char *arg, const char *longname, const char *shortname, int argc,
                      char **argv, int *i, char **out, int *rc)
{
    const char *v = NULL;
    size_t len = strlen(longname);
    if ((strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, longname, len) == 0 &&
         arg[2 + len] == '=')) {
        v = arg + 3 + len;
    } else if ((strncmp(arg, "--", 2) == 0 && strcmp(arg + 2, longname) == 0) ||
               (shortname && strcmp(arg, shortname) == 0)) {
        if (*i + 1 >= argc) {
            rr_error("option %s needs a value (hint: rdmarun --help)", arg);
            *rc = RR_EX_USAGE;
            return true;
        }
        v = argv[++*i];
    } else {
        return false;
    }
    free(*out);
    *out = xstrdup(v);
    return true;
}

/* The helper's flags (rdmarun rank). */
static bool rank_flag(const char *a, struct cmdline *cl)
{
    bool *flag = strcmp(a, "--net-devices") == 0 ? &cl->net_devices
               : strcmp(a, "--nccl-hca") == 0 ? &cl->nccl_hca
               : strcmp(a, "--keep-cpus") == 0 ? &cl->keep_cpus : NULL;
    if (flag)
        *flag = true;
    return flag != NULL;
}

/* VALUE must be one of "a|b|c". */
static bool one_of(const char *opt, const char *value, const char *choices)
{
    if (!value)
        return true;
    size_t n = strlen(value);
    for (const char *c = choices; *c; c += strcspn(c, "|"), c += *c == '|') {
        if (strncmp(c, value, n) == 0 && (c[n] == '|' || c[n] == '\0'))
            return true;
    }
    rr_error("%s %s: expected %s", opt, value, choices);
    return false;
}

static void note_override(struct cmdline *cl, const char *name, char **argv, int i)
{
    if (strcmp(name, "x") == 0) {
        char *var = xstrndup(argv[i + 1], strcspn(argv[i + 1], "="));
        sv_push(&cl->user_env, var);
        free(var);
    } else if (strcmp(name, "mca") == 0 || strcmp(name, "gmca") == 0) {
        sv_push(&cl->user_mca, argv[i + 1]);
    } else if (strcmp(name, "np") == 0 || strcmp(name, "n") == 0 || strcmp(name, "c") == 0) {
        cl->np = strtol(argv[i + 1], NULL, 10);
    } else if (strcmp(name, "N") == 0 || strcmp(name, "npernode") == 0) {
        cl->ppn = strtol(argv[i + 1], NULL, 10);
    }
    if (strcmp(name, "map-by") == 0) {
        free(cl->map_by);
        cl->map_by = xstrdup(argv[i + 1]);
    }
    if (strcmp(name, "map-by") == 0 || strcmp(name, "bind-to") == 0 ||
        strcmp(name, "rank-by") == 0 || strcmp(name, "report-bindings") == 0)
        sv_push(&cl->user_opts, name);
}

int cli_parse(int argc, char **argv, struct cmdline *cl)
{
    memset(cl, 0, sizeof(*cl));
    cl->np = cl->ppn = -1;
    int i = 1, rc = 0;
    if (i < argc && strcmp(argv[i], "profiles") == 0) {
        cl->command = CMD_PROFILES;
        i++;
    } else if (i < argc && strcmp(argv[i], "probe") == 0) {
        cl->command = CMD_PROBE;
        i++;
    } else if (i < argc && strcmp(argv[i], "verify") == 0) {
        cl->command = CMD_VERIFY;
        i++;
    } else if (i < argc && strcmp(argv[i], "check") == 0) {
        cl->command = CMD_CHECK;
        i++;
    } else if (i < argc && strcmp(argv[i], "rank") == 0) {
        cl->command = CMD_RANK;
        i++;
    } else if (i < argc && strcmp(argv[i], "compare") == 0) {
        cl->command = CMD_COMPARE;
        i++;
    }
    for (; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0') {
            if (cl->command != CMD_PROFILES && cl->command != CMD_VERIFY)
                break;
            sv_push(&cl->program, a);   /* 'profiles' words, 'verify' paths */
            continue;
        }
        char *set = NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            cl->command = CMD_HELP;
            return 0;
        }
        if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
            cl->command = CMD_VERSION;
            return 0;
        }
        if (strcmp(a, "--dry-run") == 0) {
            cl->dry_run = true;
            continue;
        }
        if (strcmp(a, "--json") == 0) {
            cl->json = true;
            continue;
        }
        if (strcmp(a, "--qp-test") == 0 && cl->command == CMD_CHECK) {
            cl->qp_test = true;
            continue;
        }
        if (strcmp(a, "--report") == 0 && (cl->command == CMD_RUN || cl->command == CMD_RANK)) {
            cl->report = true;
            continue;
        }
        if (cl->command == CMD_RANK && rank_flag(a, cl))
            continue;
        if (cl->command == CMD_CHECK && strcmp(a, "--drain") == 0) {
            cl->drain = true;
            continue;
        }
        if (cl->command == CMD_CHECK &&
            (own_value(a, "config", NULL, argc, argv, &i, &cl->config, &rc) ||
             own_value(a, "scontrol", NULL, argc, argv, &i, &cl->scontrol, &rc) ||
             own_value(a, "node", NULL, argc, argv, &i, &cl->node, &rc)))
            continue;
        if (cl->command == CMD_COMPARE &&
            (own_value(a, "np", "-np", argc, argv, &i, &cl->np_list, &rc) ||
             own_value(a, "repeat", NULL, argc, argv, &i, &cl->repeat, &rc) ||
             own_value(a, "warmup", NULL, argc, argv, &i, &cl->warmup, &rc) ||
             own_value(a, "metric", NULL, argc, argv, &i, &cl->metric, &rc) ||
             own_value(a, "baseline", NULL, argc, argv, &i, &cl->baseline, &rc) ||
             own_value(a, "output", "-o", argc, argv, &i, &cl->output, &rc) ||
             own_value(a, "resume", NULL, argc, argv, &i, &cl->resume, &rc)))
            continue;
        if (cl->command == CMD_RANK &&
            (own_value(a, "memory", NULL, argc, argv, &i, &cl->memory, &rc) ||
             own_value(a, "nics", NULL, argc, argv, &i, &cl->nics, &rc) ||
             own_value(a, "fabric", NULL, argc, argv, &i, &cl->fabric, &rc)))
            continue;
        if (own_value(a, "profile", "-p", argc, argv, &i, &cl->profile, &rc) ||
            own_value(a, "mpirun", NULL, argc, argv, &i, &cl->mpirun, &rc) ||
            own_value(a, "sysfs", NULL, argc, argv, &i, &cl->sysfs, &rc) ||
            own_value(a, "topology", NULL, argc, argv, &i, &cl->topology, &rc) ||
            own_value(a, "facts", NULL, argc, argv, &i, &cl->facts, &rc) ||
            own_value(a, "verify", NULL, argc, argv, &i, &cl->verify, &rc) ||
            own_value(a, "evidence-dir", NULL, argc, argv, &i, &cl->evidence_dir, &rc) ||
            own_value(a, "device", NULL, argc, argv, &i, &cl->device, &rc) ||
            own_value(a, "gid-index", NULL, argc, argv, &i, &cl->gid_index, &rc) ||
            own_value(a, "bind-policy", NULL, argc, argv, &i, &cl->bind_policy, &rc) ||
            own_value(a, "launcher", NULL, argc, argv, &i, &cl->launcher, &rc))
            continue;
        if (own_value(a, "set", NULL, argc, argv, &i, &set, &rc)) {
            if (set)
                sv_push(&cl->sets, set);
            free(set);
            continue;
        }
        if (cl->command != CMD_RUN && cl->command != CMD_COMPARE) {
            rr_error("unknown option %s for '%s' (hint: rdmarun --help)", a,
                     cl->command == CMD_PROBE ? "probe" : cl->command == CMD_CHECK ? "check"
                     : cl->command == CMD_RANK ? "rank"
                     : cl->command == CMD_VERIFY ? "verify" : "profiles");
            return RR_EX_USAGE;
        }
        /* An mpirun option: kept verbatim with its arguments. */
        const char *name = a + (a[1] == '-' ? 2 : 1);
        int nargs = opt_nargs(name);
        if (i + nargs >= argc) {
            rr_error("mpirun option %s needs %d argument%s", a, nargs, nargs > 1 ? "s" : "");
            return RR_EX_USAGE;
        }
        note_override(cl, name, argv, i);
        for (int k = 0; k <= nargs; k++)
            sv_push(&cl->mpirun_args, argv[i + k]);
        i += nargs;
    }
    if (rc)
        return rc;
    for (; i < argc; i++)
        sv_push(&cl->program, argv[i]);
    if (cl->command == CMD_PROFILES && cl->program.n > 0) {
        if (strcmp(cl->program.v[0], "show") != 0 || cl->program.n != 2) {
            rr_error("usage: rdmarun profiles [--json] | rdmarun profiles show [--json] NAME");
            return RR_EX_USAGE;
        }
        cl->command = CMD_PROFILES_SHOW;
        cl->show_name = xstrdup(cl->program.v[1]);
        sv_free(&cl->program);
    }
    if ((cl->command == CMD_RUN || cl->command == CMD_RANK ||
         (cl->command == CMD_COMPARE && !cl->resume)) && cl->program.n == 0) {
        rr_error("no program to run (hint: rdmarun [options] PROGRAM [ARGS]; rdmarun --help)");
        return RR_EX_USAGE;
    }
    if (cl->command == CMD_VERIFY && cl->program.n == 0) {
        rr_error("'verify' needs log files or directories (hint: rdmarun verify "
                 "rdmarun-evidence/JOB)");
        return RR_EX_USAGE;
    }
    if (!one_of("--verify", cl->verify, "off|warn|strict") ||
        !one_of("--bind-policy", cl->bind_policy, BIND_POLICIES) ||
        !one_of("--memory", cl->memory, "prefer|bind|none") ||
        !one_of("--launcher", cl->launcher, "mpirun|srun") ||
        !one_of("--nics", cl->nics, "one|nearest") ||
        !one_of("--fabric", cl->fabric, "ib|roce|pvrdma|rdma"))
        return RR_EX_USAGE;
    if (cl->command != CMD_RUN && cl->command != CMD_VERIFY && cl->command != CMD_RANK &&
        cl->command != CMD_COMPARE && cl->program.n > 0) {
        rr_error("unexpected argument '%s' (hint: rdmarun --help)", cl->program.v[0]);
        return RR_EX_USAGE;
    }
    return 0;
}

void cli_free(struct cmdline *cl)
{
    free(cl->profile);
    free(cl->mpirun);
    free(cl->sysfs);
    free(cl->topology);
    free(cl->facts);
    free(cl->map_by);
    free(cl->verify);
    free(cl->evidence_dir);
    free(cl->device);
    free(cl->gid_index);
    free(cl->show_name);
    free(cl->bind_policy);
    free(cl->launcher);
    free(cl->memory);
    free(cl->nics);
    free(cl->fabric);
    free(cl->config);
    free(cl->scontrol);
    free(cl->node);
    free(cl->np_list);
    free(cl->repeat);
    free(cl->warmup);
    free(cl->metric);
    free(cl->baseline);
    free(cl->output);
    free(cl->resume);
    sv_free(&cl->sets);
    sv_free(&cl->mpirun_args);
    sv_free(&cl->user_env);
    sv_free(&cl->user_mca);
    sv_free(&cl->user_opts);
    sv_free(&cl->program);
}
