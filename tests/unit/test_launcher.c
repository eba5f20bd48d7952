/* The launcher table (plan/launchers.h). The built-in rows against the
 * profile schema's words and each other; then a launcher added as one row,
 * in this test only ("dummy", whose program is dummy-run), which every
 * consumer then knows from its row alone: the plan's setting, command,
 * output stream and path-test note, the dry run's text and JSON, the finder
 * and its override variable, the not-found message, and the per-rank
 * helper's local rank. */
#include "facts/facts.h"
#include "launch/launch.h"
#include "launch/rank.h"
#include "plan/launchers.h"
#include "plan/plan.h"
#include "profile/profile.h"
#include "tap.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int dummy_kind = -1;

/* dummy-run --tasks=N --env=NAME=VALUE... PROGRAM ARGS */
static void dummy_argv(struct plan *p, const struct plan_request *rq)
{
    sv_push(&p->argv, rq->found[dummy_kind] ? rq->found[dummy_kind] : "dummy-run");
    sv_pushf(&p->argv, "--tasks=%ld", rq->job->np);
    for (size_t i = 0; i < p->n; i++)
        if (p->items[i].kind == ITEM_ENV && p->items[i].value && !p->items[i].overridden)
            sv_pushf(&p->argv, "--env=%s=%s", p->items[i].name, p->items[i].value);
    sv_append(&p->argv, &rq->job->program);
}

static const struct launcher_desc dummy = {
    .word = "dummy", .title = "the dummy launcher (dummy-run)", .argv = dummy_argv,
    .programs = {"dummy-run"}, .path_var = "RDMARUN_DUMMY",
    .install_hint = "it lives in test_launcher.c", .help = LAUNCHER_MPIRUN, .mpich_abi = -1,
    .pipes = true, .path_test = -1,
    .local_rank = {{"DUMMY_LOCAL_RANK", "DUMMY_LOCAL_SIZE", "DUMMY_RANK"}},
};

static void test_builtin_rows(void)
{
    /* The schema's list (profile/settings.h) is the table's words. */
    char joined[256] = "";
    for (int k = 0; k < launcher_count(); k++) {
        strcat(joined, k ? "|" : "");
        strcat(joined, launcher_of(k)->word);
    }
    is_str(joined, LAUNCHERS, "the table's words are the schema's LAUNCHERS, in enum order");
    is_str(launcher_of(LAUNCHER_PALS)->word, "pals", "a row sits at its enum's index");
    ok(launcher_of(-1) == NULL && launcher_of(launcher_count()) == NULL, "no row past the table");
    int bad = 0;
    for (int k = 0; k < launcher_count(); k++) {
        const struct launcher_desc *l = launcher_of(k);
        bool findable = l->programs[0] != NULL;
        /* a program to find has a variable naming it and an install hint;
         * COMMAND as the launcher has neither */
        bad += !l->argv || findable != !l->command_is_launcher ||
               (findable && (!l->path_var || !l->install_hint)) ||
               launcher_of(l->help)->help != l->help;
    }
    ok(bad == 0, "every row has its command, a finder or COMMAND, and a launcher whose help "
       "lists its words (%d rows wrong)", bad);
    ok(launcher_add(&(struct launcher_desc){.word = "srun", .argv = dummy_argv}) == -1,
       "a row cannot take a built-in word");
}

/* The dummy's plan for 2 ranks of ./app under the roce profile on the
 * recorded rxe node, with two hosts (-H a,b). */
static void test_dummy_plan(void)
{
    struct facts f = {0};
    struct profile p;
    char *sysfs = xasprintf("%s/tests/data/sysfs/rxe", tap_srcdir());
    char *topo = xasprintf("%s/tests/data/topology/2pkg-2numa.xml", tap_srcdir());
    struct facts_sources fs = {.sysfs_root = sysfs, .topology = topo};
    struct strvec dirs = {0}, hosts = {0};
    sv_pushf(&dirs, "%s/profiles", tap_srcdir());
    sv_push(&hosts, "a");
    sv_push(&hosts, "b");
    ok(facts_gather(&f, &fs) == 0 && profile_load_for_job("roce", &dirs, NULL, &p) == 0,
       "rxe node and roce profile load");
    struct job_args job = {.np = 2, .ppn = -1};
    sv_push(&job.program, "./app");
    struct plan_request rq = {.profile = &p, .facts = &f, .job = &job, .launcher = "dummy",
                              .program_mpi = -1, .wrapped_mpi = -1, .evidence_dir = "/EV",
                              .self = "/bin/rdmarun", .hosts = &hosts};
    rq.found[dummy_kind] = "/opt/dummy/bin/dummy-run";
    struct plan pl;
    plan_build(&rq, &pl);
    ok(pl.status == 0 && pl.launcher.value == dummy_kind, "the plan takes --launcher dummy");
    is_str(pl.argv.n ? pl.argv.v[0] : NULL, "/opt/dummy/bin/dummy-run",
           "its command is the row's, with the launcher found");
    ok(sv_find(&pl.argv, "--tasks=2") >= 0 && sv_find(&pl.argv, "./app") >= 0,
       "the row's argv builder turns the job into its words");
    ok(sv_find(&pl.argv, "--env=UCX_LOG_FILE=stderr") >= 0,
       "its output comes through pipes: UCX reports on stderr");
    bool noted = false;
    for (size_t i = 0; i < pl.notes.n; i++)
        noted |= strstr(pl.notes.v[i], "launcher dummy: no path test") != NULL;
    ok(noted, "no path test before the job, said with the row's word");
    char *text;
    size_t len;
    FILE *m = open_memstream(&text, &len);
    plan_print_json(&pl, m);
    fclose(m);
    ok(strstr(text, "\"launcher\": \"dummy\"") || strstr(text, "\"launcher\":\"dummy\""),
       "the dry run's JSON names it");
    free(text);
    plan_free(&pl);
    sv_free(&job.program);
    sv_free(&hosts);
    sv_free(&dirs);
    profile_free(&p);
    facts_free(&f);
    free(sysfs);
    free(topo);
}

/* The finder: the row's variable, else its program on PATH; the message
 * when it is neither. */
static void test_dummy_found(void)
{
    char dir[] = "/tmp/rdmarun-launcher-XXXXXX";
    ok(mkdtemp(dir) != NULL, "a PATH folder");
    char *prog = xasprintf("%s/dummy-run", dir);
    FILE *f = fopen(prog, "w");
    ok(f && fputs("#!/bin/sh\n", f) >= 0 && fclose(f) == 0 && chmod(prog, 0755) == 0,
       "dummy-run in it");
    char *old_path = xstrdup(getenv("PATH") ? getenv("PATH") : "");
    const struct launcher_desc *row = launcher_of(dummy_kind);
    bool on_path;
    setenv("PATH", dir, 1);
    unsetenv("RDMARUN_DUMMY");
    char *found = launch_find(row, NULL, NULL, &on_path);
    is_str(found, prog, "found on PATH by the row's program name");
    ok(on_path, "and said to be on PATH");
    free(found);
    setenv("RDMARUN_DUMMY", "/elsewhere/dummy-run", 1);
    found = launch_find(row, NULL, NULL, &on_path);
    is_str(found, "/elsewhere/dummy-run", "the row's variable names its path instead");
    free(found);
    found = launch_find(row, "/given/dummy-run", NULL, &on_path);
    is_str(found, "/given/dummy-run", "--mpirun comes first");
    free(found);
    unsetenv("RDMARUN_DUMMY");
    setenv("PATH", "/nonexistent", 1);
    found = launch_find(row, NULL, NULL, &on_path);
    ok(found == NULL, "nothing found where it is not");
    char *said;
    msg_capture(&said);
    int rc = launch_not_found(row);
    msg_capture(NULL);
    ok(rc == RR_EX_NOTFOUND && said &&
       strstr(said, "the dummy launcher (dummy-run) not found on PATH (hint: it lives in "
                    "test_launcher.c, or give its path with --mpirun or RDMARUN_DUMMY)"),
       "not found: the row's title, install hint and variable (%s)", said ? said : "nothing");
    free(said);
    setenv("PATH", old_path, 1);
    free(old_path);
    unlink(prog);
    rmdir(dir);
    free(prog);
}

/* The per-rank helper reads the dummy's variables; srun's, inherited by
 * anything below its tasks, only after every other launcher's. */
static void test_dummy_rank(void)
{
    static const char *const vars[] = {
        "RDMARUN_LOCAL_RANK", "RDMARUN_LOCAL_SIZE", "RDMARUN_RANK", "LOCAL_RANK",
        "LOCAL_WORLD_SIZE", "RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
        "MV2_COMM_WORLD_LOCAL_RANK", "PALS_LOCAL_RANKID", "PMI_LOCAL_RANK", "FLUX_TASK_LOCAL_ID",
    };
    for (size_t i = 0; i < sizeof(vars) / sizeof(*vars); i++)
        unsetenv(vars[i]);
    setenv("SLURM_LOCALID", "0", 1);
    setenv("SLURM_NODEID", "0", 1);
    setenv("SLURM_TASKS_PER_NODE", "4", 1);
    setenv("DUMMY_LOCAL_RANK", "1", 1);
    setenv("DUMMY_LOCAL_SIZE", "2", 1);
    setenv("DUMMY_RANK", "3", 1);
    long local = -1, size = -1, rank = -1;
    is_str(rank_from_launcher(&local, &size, &rank), "DUMMY_LOCAL_RANK",
           "the dummy's local rank is read, before srun's inherited SLURM_LOCALID");
    ok(local == 1 && size == 2 && rank == 3, "local rank 1 of 2, rank 3 (got %ld of %ld, %ld)",
       local, size, rank);
    unsetenv("DUMMY_LOCAL_SIZE");
    is_str(rank_from_launcher(&local, &size, &rank), "SLURM_LOCALID",
           "without its size, the next launcher's: srun's, sized from SLURM_TASKS_PER_NODE");
    ok(local == 0 && size == 4, "local rank 0 of 4 (got %ld of %ld)", local, size);
}

int main(void)
{
    test_builtin_rows();
    dummy_kind = launcher_add(&dummy);
    ok(dummy_kind == LAUNCHER_PALS + 1, "the dummy launcher is added as one row (kind %d)",
       dummy_kind);
    ok(launcher_add(&dummy) == -1, "its word once");
    test_dummy_plan();
    test_dummy_found();
    test_dummy_rank();
    return done_testing();
}
