/* Unit tests of the launch stage that run no job: the per-rank helper's
 * view of its rank under each launcher's variables, and finding the real
 * mpirun past rdmarun's own drop-in wrapper. (Jobs themselves are tested in
 * tests/integration with real Open MPI.) */
#include "launch/launch.h"
#include "plan/launchers.h"
#include "launch/launcher_options.h"
#include "util/fs.h"
#include "launch/rank.h"
#include "tap.h"
#include "util/xalloc.h"
#include <sched.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const vars[] = {
    "RDMARUN_LOCAL_RANK", "RDMARUN_LOCAL_SIZE", "RDMARUN_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
    "OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_RANK", "MPI_LOCALRANKID", "MPI_LOCALNRANKS",
    "PMI_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_SIZE", "MV2_COMM_WORLD_RANK",
    "SLURM_LOCALID", "SLURM_NODEID", "SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE",
    "SLURM_PROCID",
};

static void clear(void)
{
    for (size_t i = 0; i < sizeof(vars) / sizeof(*vars); i++)
        unsetenv(vars[i]);
}

static void test_ranks(void)
{
    long local = -1, size = -1, rank = -1;
    clear();
    ok(rank_from_launcher(&local, &size, &rank) == NULL, "no launcher's variables: none");
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
    setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1);
    setenv("OMPI_COMM_WORLD_RANK", "9", 1);
    const char *from = rank_from_launcher(&local, &size, &rank);
    is_str(from, "OMPI_COMM_WORLD_LOCAL_RANK", "Open MPI's variables");
    ok(local == 1 && size == 4 && rank == 9, "local 1 of 4, rank 9");
    clear();
    setenv("SLURM_LOCALID", "1", 1);
    setenv("SLURM_NODEID", "2", 1);
    setenv("SLURM_STEP_TASKS_PER_NODE", "4(x2),2", 1);
    setenv("SLURM_PROCID", "9", 1);
    from = rank_from_launcher(&local, &size, &rank);
    is_str(from, "SLURM_LOCALID", "Slurm's variables");
    ok(local == 1 && size == 2 && rank == 9, "node 2 of 4(x2),2 has 2 tasks (got %ld)", size);
    setenv("SLURM_NODEID", "1", 1);
    rank_from_launcher(&local, &size, &rank);
    ok(size == 4, "node 1 of 4(x2),2 has 4 tasks");
    setenv("SLURM_NODEID", "7", 1);
    ok(rank_from_launcher(&local, &size, &rank) == NULL, "a node past the list: none");
    clear();
    setenv("MPI_LOCALRANKID", "0", 1);
    setenv("MPI_LOCALNRANKS", "2", 1);
    ok(rank_from_launcher(&local, &size, &rank) && rank == 0, "MPICH without PMI_RANK: rank = local");
    setenv("MPI_LOCALNRANKS", "two", 1);
    ok(rank_from_launcher(&local, &size, &rank) == NULL, "a size that is not a number: none");
    clear();
}

static void test_find(void)
{
    char dir[] = "/tmp/rdmarun-launch.XXXXXX";
    ok(mkdtemp(dir) != NULL, "a PATH directory");
    char *wrapper = xasprintf("%s/w/mpirun", dir), *real = xasprintf("%s/r/mpirun", dir);
    char *wdir = xasprintf("%s/w", dir), *rdir = xasprintf("%s/r", dir);
    mkdir(wdir, 0755);
    mkdir(rdir, 0755);
    FILE *f = fopen(wrapper, "w");
    fputs("#!/bin/sh\n# rdmarun-mpirun-wrapper\nexec rdmarun \"$@\"\n", f);
    fclose(f);
    f = fopen(real, "w");
    fputs("#!/bin/sh\necho real\n", f);
    fclose(f);
    chmod(wrapper, 0755);
    chmod(real, 0755);
    char *path = xasprintf("%s:%s", wdir, rdir);
    char *old = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
    setenv("PATH", path, 1);
    unsetenv("RDMARUN_MPIRUN");
    bool on_path = false;
    char *found = launch_find(launcher_of(LAUNCHER_MPIRUN), NULL, NULL, &on_path);
    is_str(found, real, "the wrapper first on PATH is skipped for the real mpirun");
    ok(!on_path, "past the wrapper: named by its path, since the bare name finds the wrapper");
    free(found);
    found = launch_find(launcher_of(LAUNCHER_MPIRUN), "/opt/x/mpirun", NULL, &on_path);
    is_str(found, "/opt/x/mpirun", "--mpirun wins");
    ok(!on_path, "--mpirun is not found on PATH: used as given");
    free(found);
    setenv("RDMARUN_MPIRUN", "/opt/y/mpirun", 1);
    found = launch_find(launcher_of(LAUNCHER_MPIRUN), NULL, NULL, &on_path);
    is_str(found, "/opt/y/mpirun", "then RDMARUN_MPIRUN");
    free(found);
    unsetenv("RDMARUN_MPIRUN");
    setenv("PATH", wdir, 1);
    found = launch_find(launcher_of(LAUNCHER_MPIRUN), NULL, NULL, &on_path);
    ok(found == NULL, "only the wrapper on PATH: not found");
    free(found);
    if (old)
        setenv("PATH", old, 1);
    free(old);
    unlink(wrapper);
    unlink(real);
    rmdir(wdir);
    rmdir(rdir);
    rmdir(dir);
    free(path);
    free(wrapper);
    free(real);
    free(wdir);
    free(rdir);
}

/* A job's own GPU list (Slurm's --gpus) is kept; a whole node's is not a
 * restriction. */
static void test_devices_restricted(void)
{
    ok(!rank_devices_restricted("0,1,2,3", 4), "0,1,2,3 of 4: the whole node, rdmarun chooses");
    ok(!rank_devices_restricted("3,1,0,2", 4), "any order of all 4: the whole node");
    ok(rank_devices_restricted("2,3", 4), "2,3 of 4: the job's, kept");
    ok(rank_devices_restricted("0,0,1,2", 4), "an index twice: kept as it is");
    ok(rank_devices_restricted("0,1,2,3,4", 4), "an index past the node's GPUs: kept");
    ok(rank_devices_restricted("GPU-8f5c2d1e-0b9a-4e5f-9a61-2b7c1f0e3d44", 1), "a UUID: kept");
    ok(rank_devices_restricted("MIG-GPU-1/0/0", 1), "a MIG instance: kept");
    ok(rank_devices_restricted("", 2), "empty (no GPU at all): kept");
    ok(rank_devices_restricted("0", 0), "GPUs the facts do not show: kept");
    ok(rank_devices_restricted("0,1,", 2) == false, "a trailing comma: still the whole node");
}

/* Masks past glibc's fixed 1024 CPUs: the set is sized by the highest PU,
 * whether or not this machine has it. */
static void test_cpu_set(void)
{
    size_t size = 0;
    cpu_set_t *m = rank_cpu_set("0,1023-1024,2047", &size);
    ok(m != NULL && size >= CPU_ALLOC_SIZE(2048), "PUs up to 2047: a set of %zu bytes", size);
    ok(m && CPU_COUNT_S(size, m) == 4, "all four PUs in it (%d)", m ? CPU_COUNT_S(size, m) : -1);
    ok(m && CPU_ISSET_S(0, size, m) && CPU_ISSET_S(1023, size, m) && CPU_ISSET_S(1024, size, m) &&
       CPU_ISSET_S(2047, size, m) && !CPU_ISSET_S(1, size, m), "PU 1024 and 2047 are set");
    if (m)
        CPU_FREE(m);
    m = rank_cpu_set("3", &size);
    ok(m && CPU_COUNT_S(size, m) == 1 && CPU_ISSET_S(3, size, m), "one PU");
    if (m)
        CPU_FREE(m);
    ok(rank_cpu_set("", &size) == NULL && rank_cpu_set("2-x", &size) == NULL &&
       rank_cpu_set("0-70000", &size) == NULL, "no PU, junk, past MAX_PUS: none");
    /* A PU this process may use with one the machine lacks: the kernel
     * takes the set. */
    cpu_set_t *before = CPU_ALLOC(CPU_SETSIZE * 4);
    size_t bsize = CPU_ALLOC_SIZE(CPU_SETSIZE * 4);
    int mine = 0;
    bool got = before && sched_getaffinity(0, bsize, before) == 0;
    while (got && mine < CPU_SETSIZE * 4 - 1 && !CPU_ISSET_S(mine, bsize, before))
        mine++;
    char *pus = xasprintf("%d,%d", mine, CPU_SETSIZE * 4 + 5);
    ok(rank_bind_cpus(pus) == 0, "binding to %s succeeds", pus);
    if (got)
        sched_setaffinity(0, bsize, before);
    CPU_FREE(before);
    free(pus);
}

/* The launchers' own lists, as recorded in tests/data/launcher-help (its
 * README names the commands and versions). */
static char *recorded(const char *name)
{
    const char *src = getenv("RDMARUN_SRCDIR");
    char *path = xasprintf("%s/tests/data/launcher-help/%s", src ? src : ".", name);
    char *text = read_input(path, 1 << 20, NULL);
    ok(text != NULL, "%s is there", name);
    free(path);
    return text;
}

static void test_launcher_help(void)
{
    struct launcher_opts o = {0};
    char *t = recorded("openmpi-4.1.4-mpirun-help-all.txt");
    size_t n = t ? launcher_options_parse(t, &o) : 0;
    ok(n >= 100, "Open MPI 4.1.4's --help all: %zu names", n);
    ok(launcher_option_nargs(&o, "mca") == 2 && launcher_option_nargs(&o, "gmca") == 2,
       "--mca and --gmca take two words (<arg0> <arg1>)");
    ok(launcher_option_nargs(&o, "np") == 1 && launcher_option_nargs(&o, "c") == 1 &&
       launcher_option_nargs(&o, "n") == 1 && launcher_option_nargs(&o, "N") == 1,
       "-c|-np|--np, -n, -N take one");
    ok(launcher_option_nargs(&o, "x") == 1 && launcher_option_nargs(&o, "H") == 1 &&
       launcher_option_nargs(&o, "host") == 1 && launcher_option_nargs(&o, "hostfile") == 1,
       "-x, -H|-host|--host, --hostfile take one");
    ok(launcher_option_nargs(&o, "oversubscribe") == 0 &&
       launcher_option_nargs(&o, "allow-run-as-root") == 0 &&
       launcher_option_nargs(&o, "tag-output") == 0 && launcher_option_nargs(&o, "bycore") == 0,
       "flags take none");
    ok(launcher_option_nargs(&o, "map-by") == 1 && launcher_option_nargs(&o, "bind-to") == 1 &&
       launcher_option_nargs(&o, "cpus-per-proc") == 1, "--map-by, --bind-to, --cpus-per-proc: one");
    ok(launcher_option_nargs(&o, "dry-run") < 0 && launcher_option_nargs(&o, "expect") < 0 &&
       launcher_option_nargs(&o, "arg0") < 0 && launcher_option_nargs(&o, "default") < 0,
       "no word of a description is an option");
    launcher_options_free(&o);
    free(t);

    t = recorded("openmpi-5.0.7-mpirun-help.txt");
    ok(t && launcher_options_parse(t, &o) == 0, "Open MPI 5's mpirun --help names no option");
    launcher_options_free(&o);
    free(t);
    t = recorded("openmpi-5.0.7-prterun-help.txt");
    n = t ? launcher_options_parse(t, &o) : 0;
    ok(n >= 50, "PRRTE 3.0.8's table (Open MPI 5.0.7's prterun --help): %zu names", n);
    ok(launcher_option_nargs(&o, "np") == 1 && launcher_option_nargs(&o, "c") == 1 &&
       launcher_option_nargs(&o, "n") == 1, "\"-c\" | \"--np <num>\": one word");
    ok(launcher_option_nargs(&o, "npernode") == 1 && launcher_option_nargs(&o, "host") == 1,
       "a cell cut over two lines: \"--npernode\" / \"<num>\"");
    ok(launcher_option_nargs(&o, "allow-run-as-root") == 0 &&
       launcher_option_nargs(&o, "report-state-on-timeout") == 0,
       "a name cut after '-' continues on the next line (--allow-run-as-root)");
    ok(launcher_option_nargs(&o, "pmixmca") == 2 && launcher_option_nargs(&o, "prtemca") == 2,
       "--pmixmca <key> <value>: two words");
    ok(launcher_option_nargs(&o, "x") == 1 && launcher_option_nargs(&o, "map-by") == 1 &&
       launcher_option_nargs(&o, "display") == 1, "-x, --map-by, --display: one");
    ok(launcher_option_nargs(&o, "PMIx_Init") < 0 && launcher_option_nargs(&o, "rank") < 0 &&
       launcher_option_nargs(&o, "all") < 0, "quoted words of the descriptions are no options");
    launcher_options_free(&o);
    free(t);

    t = recorded("openmpi-5.0.7-mpirun-help-all.txt");
    ok(t && launcher_options_parse(t, &o) == 0, "Open MPI 5's mpirun --help all: no option");
    launcher_options_free(&o);
    free(t);
    t = recorded("openmpi-5.0.7-mpirun-help-mca.txt");
    ok(launcher_help_nargs(t) == 2, "Open MPI 5's mpirun --help mca: Syntax: --mca <arg0> <arg1>");
    free(t);
    t = recorded("openmpi-5.0.7-mpirun-help-display-map.txt");
    ok(launcher_help_nargs(t) == 0, "--help display-map: an option of mpirun's own, a flag");
    free(t);
    t = recorded("openmpi-5.0.7-mpirun-help-dryrun.txt");
    ok(launcher_help_nargs(t) == -1, "--help dryrun: 'Help was requested for an unknown option'");
    free(t);

    t = recorded("srun-22.05.8-help.txt");
    n = t ? launcher_options_parse(t, &o) : 0;
    ok(n >= 100, "srun 22.05.8's --help: %zu names", n);
    ok(launcher_option_nargs(&o, "partition") == 1 && launcher_option_nargs(&o, "p") == 1 &&
       launcher_option_nargs(&o, "account") == 1 && launcher_option_nargs(&o, "A") == 1,
       "-p, --partition=partition: a value, as its own word or after '='");
    ok(launcher_option_nargs(&o, "exclusive") == 0 && launcher_option_nargs(&o, "compress") == 0,
       "--exclusive[=user|mcs], --compress[=library]: the value only after '='");
    ok(launcher_option_nargs(&o, "mpi") == 1 && launcher_option_nargs(&o, "ntasks") == 1,
       "--mpi=type, -n, --ntasks=ntasks");
    launcher_options_free(&o);
    free(t);
}

/* Hydra's mpiexec -h (MPICH 4.0.2, 4.2.1): "-genv {name} {value}",
 * "-n/-np {value}"; the words of the options it prints without braces come
 * from Hydra's option table (launcher_options.c), so the installed mpiexec
 * is asked as a run asks it. Expected words: Hydra's handlers (4.0.2
 * ui/mpich/utils.c: genv_fn takes NAME VALUE, np_fn one, ppn_fn one,
 * verbose_fn none). */
static void test_hydra_help(void)
{
    static const char *const files[] = {"mpich-4.0.2-mpiexec-help.txt",
                                        "mpich-4.2.1-mpiexec-help.txt"};
    for (size_t f = 0; f < 2; f++) {
        struct launcher_opts o = {0};
        char *t = recorded(files[f]);
        size_t n = t ? launcher_options_parse(t, &o) : 0;
        ok(n >= 40, "%s: %zu names", files[f], n);
        ok(launcher_option_nargs(&o, "genv") == 2 && launcher_option_nargs(&o, "env") == 2,
           "%s: -genv, -env {name} {value}: two words", files[f]);
        ok(launcher_option_nargs(&o, "n") == 1 && launcher_option_nargs(&o, "np") == 1 &&
           launcher_option_nargs(&o, "f") == 1 && launcher_option_nargs(&o, "hosts") == 1 &&
           launcher_option_nargs(&o, "genvlist") == 1,
           "%s: -n/-np {value}, -f, -hosts, -genvlist: one", files[f]);
        ok(launcher_option_nargs(&o, "genvnone") == 0 && launcher_option_nargs(&o, "enable-x") == 0 &&
           launcher_option_nargs(&o, "disable-x") == 0,
           "%s: -genvnone, -enable-x/-disable-x: none", files[f]);
        ok(launcher_option_nargs(&o, "exec_name") < 0 && launcher_option_nargs(&o, "name") < 0,
           "%s: '{exec_name} {args}' and the braces' words are no options", files[f]);
        launcher_options_free(&o);
        free(t);
    }
    const char *mpiexec = "/usr/bin/mpiexec.mpich";
    if (access(mpiexec, X_OK) != 0) {
        printf("ok %d - Hydra's unbraced options, as a run reads them # SKIP MPICH is not "
               "installed\n", ++tap_n);
        return;
    }
    struct launcher_opts o = {0};
    launcher_options_of(mpiexec, LAUNCHER_HYDRA, &o);
    ok(o.asked, "the installed Hydra is asked (%s)", o.label);
    ok(launcher_option_nargs(&o, "ppn") == 1 && launcher_option_nargs(&o, "bind-to") == 1 &&
       launcher_option_nargs(&o, "launcher") == 1 && launcher_option_nargs(&o, "iface") == 1,
       "-ppn, -bind-to, -launcher, -iface (unbraced in the help) take one word");
    ok(launcher_option_nargs(&o, "verbose") == 0 && launcher_option_nargs(&o, "prepend-rank") == 0 &&
       launcher_option_nargs(&o, "l") == 0, "-verbose, -prepend-rank, -l take none");
    ok(launcher_option_nargs(&o, "machinefile") == 1 && launcher_option_nargs(&o, "bootstrap") == 1,
       "aliases the help does not print (-machinefile, -bootstrap) are known, one word");
    launcher_options_free(&o);
}

int main(void)
{
    test_launcher_help();
    test_hydra_help();
    test_ranks();
    test_find();
    test_devices_restricted();
    test_cpu_set();
    return done_testing();
}
