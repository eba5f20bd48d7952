/* Unit tests of the command line: the command table, rdmarun's options
 * (scopes, choices, values in both spellings), mpirun's options kept in
 * order with what they override, and --help showing every option of both
 * tables. */
#include "cmd/job_hosts.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "tap.h"
#include "util/msg.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int parse(struct cmdline *cl, const char *line)
{
    char buf[1024], *argv[64];
    int argc = 0;
    snprintf(buf, sizeof(buf), "rdmarun %s", line);
    for (char *w = strtok(buf, " "); w && argc < 63; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    return cli_parse(argc, argv, cl);
}

static void test_commands(void)
{
    static const struct { const char *word; enum command id; } words[] = {
        {"profiles", CMD_PROFILES}, {"probe", CMD_PROBE}, {"verify", CMD_VERIFY},
        {"check", CMD_CHECK}, {"rank", CMD_RANK}, {"compare", CMD_COMPARE},
    };
    for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
        const struct command_def *c = command_named(words[i].word);
        ok(c && c->id == words[i].id && c->run && c->usage, "'%s' is in the command table",
           words[i].word);
    }
    /* Issue 35: `rdmarun help [CMD]` and `rdmarun version` work as words (a
     * new user types them); "run" is the default, not a word. */
    ok(command_named("help") && command_named("help")->id == CMD_HELP &&
       command_named("version") && command_named("version")->id == CMD_VERSION &&
       command_named("run") == NULL, "help and version are words, run is not");
    ok(command_of(CMD_RUN)->run == cmd_run && command_of(CMD_HELP)->run == cmd_help,
       "every command id has its handler");
}

static void test_options(void)
{
    struct cmdline cl;
    ok(parse(&cl, "-p roce --verify=strict --set ucx.TLS=rc --set mpi.pml=ucx -np 4 "
                  "-x UCX_IB_SL=3 --mca btl ^tcp --map-by numa ./app a b") == 0,
       "a job's command line parses");
    ok(cl.command == CMD_RUN, "the default command is run");
    is_str(cl.profile, "roce", "-p");
    is_str(cl.verify, "strict", "--verify=strict");
    ok(cl.sets.n == 2, "--set twice");
    ok(cl.job.np == 4 && cl.job.ppn == -1, "-np 4 noted");
    ok(sv_find(&cl.job.user_env, "UCX_IB_SL") >= 0 && sv_find(&cl.job.user_mca, "btl") >= 0 &&
       sv_find(&cl.job.user_opts, "map-by") >= 0, "-x, --mca and --map-by noted as overrides");
    is_str(cl.job.map_by, "numa", "--map-by's value");
    ok(cl.job.mpirun_args.n == 9 && strcmp(cl.job.mpirun_args.v[0], "-np") == 0 &&
       strcmp(cl.job.mpirun_args.v[8], "numa") == 0, "mpirun's options kept verbatim, in order");
    ok(cl.job.program.n == 3 && strcmp(cl.job.program.v[2], "b") == 0, "the program and its arguments");
    cli_free(&cl);

    ok(parse(&cl, "--verify sometimes ./app") == RR_EX_USAGE, "a value outside the choices: 64");
    cli_free(&cl);

    /* Process counts: whole numbers >= 1, as mpirun needs them. */
    static const char *const bad_counts[] = {"-np abc ./a", "-np -5 ./a", "-n 0 ./a",
                                             "-c 2x ./a", "-N 1.5 ./a", "-npernode '' ./a",
                                             "-np 1 ./a : -np zero ./b"};
    for (size_t i = 0; i < sizeof(bad_counts) / sizeof(*bad_counts); i++) {
        ok(parse(&cl, bad_counts[i]) == RR_EX_USAGE, "%s: status 64", bad_counts[i]);
        cli_free(&cl);
    }

    /* MPMD: every context keeps its own options and program. */
    ok(parse(&cl, "-np 2 ./a x : -np 1 -x A=1 ./b y : --host h -np 3 ./c") == 0 &&
       cl.job.program.n == 2 && strcmp(cl.job.program.v[0], "./a") == 0 &&
       cl.job.ncontexts == 2 && cl.job.contexts[0].args.n == 4 &&
       strcmp(cl.job.contexts[0].program.v[0], "./b") == 0 &&
       cl.job.contexts[0].program.n == 2 && strcmp(cl.job.contexts[1].args.v[0], "--host") == 0 &&
       strcmp(cl.job.contexts[1].program.v[0], "./c") == 0,
       "a : b : c: three app contexts, each with its options and program");
    ok(cl.job.np == 6, "the job's -np is the sum of the contexts' (6, got %ld)", cl.job.np);
    cli_free(&cl);
    ok(parse(&cl, "-np 1 ./a : -np 1") == RR_EX_USAGE, "a context without a program: 64");
    cli_free(&cl);
    ok(parse(&cl, "--app jobs.txt") == 0 && cl.job.appfile && strcmp(cl.job.appfile, "jobs.txt") == 0,
       "--app FILE needs no program on the command line");
    cli_free(&cl);
    ok(parse(&cl, "probe --qp-test") == RR_EX_USAGE, "an option of another command: 64");
    cli_free(&cl);
    ok(parse(&cl, "check --qp-test --device mlx5_0:1 --gid-index 3") == 0 && cl.qp_test &&
       strcmp(cl.device, "mlx5_0:1") == 0, "check's options");
    cli_free(&cl);
    ok(parse(&cl, "rank --bind-policy nic-local --net-devices --record -- ./app") == 0 &&
       cl.command == CMD_RANK && cl.rank.net_devices && cl.rank.record &&
       strcmp(cl.rank.bind_policy, "nic-local") == 0,
       "the helper's options go to its own struct");
    cli_free(&cl);
    ok(parse(&cl, "rank --memory sideways -- ./app") == RR_EX_USAGE, "the helper's choices too");
    cli_free(&cl);
    ok(parse(&cl, "compare -p a,b -np 1,2 -o out -- ./app") == 0 && strcmp(cl.np_list, "1,2") == 0 &&
       strcmp(cl.output, "out") == 0 && cl.job.mpirun_args.n == 0,
       "compare's -np is its own, not mpirun's");
    cli_free(&cl);
    ok(parse(&cl, "profiles show roce") == 0 && strcmp(cl.show_name, "roce") == 0,
       "profiles show NAME");
    cli_free(&cl);
    ok(parse(&cl, "verify --expect tcp a.log") == 0 && strcmp(cl.expect, "tcp") == 0 &&
       cl.job.program.n == 1, "verify --expect and its files");
    cli_free(&cl);
    ok(parse(&cl, "-np 2") == RR_EX_USAGE, "no program: 64");
    cli_free(&cl);
    ok(parse(&cl, "-np") == RR_EX_USAGE, "an mpirun option without its value: 64");
    cli_free(&cl);
    ok(parse(&cl, "--dry-run --help ./app") == 0 && cl.command == CMD_HELP, "--help anywhere");
    ok(cl.help_for == CMD_RUN && !cl.help_all, "--help: the global help");
    cli_free(&cl);
    ok(parse(&cl, "probe --json --help") == 0 && cl.command == CMD_HELP &&
       cl.help_for == CMD_PROBE, "probe --help: probe's help");
    cli_free(&cl);
    ok(parse(&cl, "--help all") == 0 && cl.help_for == CMD_RUN && cl.help_all, "--help all");
    cli_free(&cl);
    ok(parse(&cl, "verify --color=always a.log") == 0 && strcmp(cl.color, "always") == 0,
       "--color=always");
    cli_free(&cl);
    ok(parse(&cl, "--color=sometimes ./app") == RR_EX_USAGE, "--color's choices");
    cli_free(&cl);
}

/* Every option of both tables appears in --help all. */
static void test_help(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    cli_usage(out, CMD_RUN, true);
    fclose(out);
    static const char *const names[] = {
        "--profile", "--set", "--dry-run", "--json", "--mpirun", "--launcher", "--verify",
        "--bind-policy", "--report", "--evidence-dir", "--sysfs", "--topology", "--facts",
        "--expect", "--qp-test", "--device", "--gid-index", "--config", "--drain", "--node",
        "--scontrol", "--np", "--repeat", "--warmup", "--metric", "--baseline", "--output",
        "--resume", "--memory", "--nics", "--fabric", "--net-devices", "--nccl-hca",
        "--keep-cpus", "--record", "--threads", "--color", "--path-test", "--all-pairs",
        "--path-timeout", "--step-timeout", "--higher-is-better", "--smt",
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
        ok(strstr(buf, names[i]) != NULL, "--help shows %s", names[i]);
    for (size_t i = 0; i < ncommands; i++)
        if (commands[i].usage)
            ok(strstr(buf, commands[i].usage) != NULL, "--help shows the usage of '%s'",
               commands[i].name ? commands[i].name : "run");
    free(buf);
}

/* The hosts a job names: each once, by name, whatever the slots and
 * repeats; localhost is this node's name; a hostfile line longer than a
 * buffer (a long comment) stays one line. */
static void test_job_hosts(void)
{
    char self[256] = "localhost", path[] = "/tmp/rdmarun-test-hosts-XXXXXX";
    gethostname(self, sizeof(self) - 1);
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return;
    fputs("c slots=2\n# ", f);
    for (int i = 0; i < 5000; i++)
        fputs("tail ", f);   /* a 25,000-byte comment: no host in its tail */
    fputs("\nd:4\na\n", f);
    fclose(f);
    struct strvec args = {0}, hosts = {0};
    const char *words[] = {"-np", "4", "-H", "a,b:4,a", "--host", "localhost,b", "--hostfile",
                           path, NULL};
    for (size_t i = 0; words[i]; i++)
        sv_push(&args, words[i]);
    int rc = job_hosts(&args, &hosts);
    char *all = sv_join(&hosts, " ");
    char *want = xasprintf("a b %s c d", self);
    is_str(all, want, "hosts: each once, by name, localhost as this node (rc %d)", rc);
    free(all);
    free(want);
    sv_free(&hosts);
    sv_free(&args);
    unlink(path);
}

int main(void)
{
    test_job_hosts();
    test_commands();
    test_options();
    test_help();
    return done_testing();
}
