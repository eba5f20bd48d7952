/* Unit tests of compare's statistics and scaling arithmetic on known inputs. */
#include "compare/compare.h"
#include "compare/runs.h"
#include "compare/stats.h"
#include "facts/facts.h"
#include "tap.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define near(a, b) (fabs((a) - (b)) < 1e-9)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    static char buf[4096];
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

/* runs.csv is appended to, never rewritten: a header once, a line a run,
 * a torn last line cut before the next. */
static void test_runs_file(void)
{
    char dir[] = "/tmp/rdmarun-runs.XXXXXX";
    if (!mkdtemp(dir))
        return;
    char path[64];
    snprintf(path, sizeof(path), "%s/runs.csv", dir);
    struct run r = {.index = 0, .profile = "shm", .np = 2, .wall = 1.5, .metric = NAN,
                    .verdict = "local", .expect = "local", .included = true};
    int fd = runs_open(path);
    ok(fd >= 0 && runs_append(fd, &r) == 0, "a new runs.csv, one run appended");
    close(fd);
    const char *line0 = "0,0,measure,shm,2,1.500000,0,local,local,,1,\n";
    char want[512];
    snprintf(want, sizeof(want), "%s%s", RUNS_CSV_HEADER, line0);
    is_str(slurp(path), want, "the header and the run's line");
    FILE *f = fopen(path, "a");
    fputs("1,0,meas", f);   /* cut short as it was written */
    fclose(f);
    struct run *rows;
    size_t nrows;
    ok(runs_read(path, &rows, &nrows) == 0 && nrows == 1 && rows[0].index == 0 &&
       rows[0].included, "read back: the torn line is not a run");
    free(rows);
    fd = runs_open(path);
    r.index = 1, r.metric = 2.25, r.included = false;
    snprintf(r.bin, sizeof(r.bin), "size=8,\"x\"\n\x1b");   /* an output's own bytes */
    ok(fd >= 0 && runs_append(fd, &r) == 0, "opened again, the next run appended");
    close(fd);
    snprintf(want, sizeof(want), "%s%s1,0,measure,shm,2,1.500000,0,local,local,2.25,0,"
             "size=8__x___\n", RUNS_CSV_HEADER, line0);
    is_str(slurp(path), want, "the torn line cut, the header not written again, the bin's "
           "comma, quotes and control bytes as _");
    ok(runs_read(path, &rows, &nrows) == 0 && nrows == 2 && !strcmp(rows[1].bin, "size=8__x___") &&
       !rows[0].bin[0], "both read back, the bin with them");
    free(rows);
    unlink(path);
    rmdir(dir);
}

/* A runs.csv line that is not whole, in range and in order stops the
 * reading (65), whatever follows it. */
static void test_runs_tampered(void)
{
    char dir[] = "/tmp/rdmarun-test-runs-XXXXXX";
    if (!mkdtemp(dir))
        return;
    char path[64];
    snprintf(path, sizeof(path), "%s/runs.csv", dir);
    const char *good = "0,0,measure,shm,2,1.500000,0,local,local,,1\n";
    const char *bad[] = {
        "garbage\n",                                          /* then a good row */
        "999999,0,measure,shm,2,1.500000,0,local,local,,1\n", /* out of order */
        "-7,0,measure,shm,2,1.500000,0,local,local,,1\n",
        "1,0,measure,shm,2,1e308,0,local,local,,1\n",         /* wall past 1e9 s */
        "1,0,measure,shm,2,1.5,0,local,local,-1e308,1\n",     /* metric past 1e18 */
        "1,0,measure,shm,2,1.5,0,local,local,inf,1\n",
        "1,0,measure,shm,2, 1.5,0,local,local,,1\n",          /* a blank */
        "1,0,measure,shm,0,1.5,0,local,local,,1\n",           /* 0 ranks */
        "1,0,measure,shm,2,1.5,300,local,local,,1\n",         /* status past 255 */
        "1,0,measure,shm,2,1.5,0,local,local,,2\n",           /* included 2 */
        "1,0,measured,shm,2,1.5,0,local,local,,1\n",
        "1,0,measure,shm,2,0x10,0,local,local,,1\n",
        "1,0,measure,,2,1.5,0,local,local,,1\n",              /* no profile */
        "1,0,measure,shm,2,1.5,0,local,local,,1,bin,extra\n",
        "1,0,measure,shm,2,1.5,0,local,local,,1,a bin of 64 bytes: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        FILE *f = fopen(path, "w");
        fprintf(f, "%s%s%s%s", RUNS_CSV_HEADER, good, bad[i],
                "2,0,measure,shm,2,1.500000,0,local,local,,1\n");
        fclose(f);
        struct run *rows;
        size_t n = 99;
        int rc = runs_read(path, &rows, &n);
        ok(rc == 65 && n == 1, "runs.csv line 3 '%.*s' stops the reading: 65 (got %d, %zu rows)",
           (int)strcspn(bad[i], "\n"), bad[i], rc, n);
        free(rows);
    }
    unlink(path);
    rmdir(dir);
}

/* A result's median against the speed of light on the recorded ib-mlx5
 * node (an EDR port: 100 Gb/s x 8/8 x 4096 / (4096 + 26) = 12.421 GB/s,
 * IB's floor 1 us): a 1 MiB ping-pong's one-way time is 1 + 1048576 /
 * 12421.2 = 85.418 us between two nodes; one rank is on one node (shared
 * memory: no figure); runs whose last bins differ have none. */
static void test_light(void)
{
    char sysfs[4096];
    snprintf(sysfs, sizeof(sysfs), "%s/tests/data/sysfs/ib-mlx5", tap_srcdir());
    struct facts f;
    struct facts_sources src = {.sysfs_root = sysfs};
    ok(facts_gather(&f, &src) == 0, "the recorded ib-mlx5 node");
    struct compare c = {.nnp = 2, .np = {1, 2}, .repeat = 1, .metric = "x", .baseline = "ib",
                        .facts = &f, .nodes = 2};
    sv_push(&c.profiles, "ib");
    sv_push(&c.labels, "ib");
    struct run runs[] = {
        {.index = 0, .profile = "ib", .np = 1, .metric = 170, .included = true,
         .bin = "pingpong size=1048576"},
        {.index = 1, .profile = "ib", .np = 2, .metric = 90, .included = true,
         .bin = "pingpong size=1048576"},
    };
    struct result res[2];
    ok(compare_summarize(&c, runs, 2, res) == 2, "two results");
    ok(fabs(res[1].light - 85.418 / 90) < 0.001 && strstr(res[1].light_limit, "100 Gb/s ib"),
       "2 ranks on 2 nodes, 90 us: %.4f of light (%s)", res[1].light, res[1].light_limit);
    ok(isnan(res[0].light) && strstr(res[0].light_limit, "shared memory"),
       "1 rank: none (%s)", res[0].light_limit);
    c.nodes = 1;
    compare_summarize(&c, runs, 2, res);
    ok(isnan(res[1].light), "2 ranks, the job naming one node: none (%s)", res[1].light_limit);
    c.nodes = 2;
    snprintf(runs[1].bin, sizeof(runs[1].bin), "allreduce size=8");
    compare_summarize(&c, runs, 2, res);
    ok(isnan(res[1].light), "a collective's time: none (%s)", res[1].light_limit);
    sv_free(&c.profiles);
    sv_free(&c.labels);
    facts_free(&f);
}

int main(void)
{
    test_light();
    test_runs_file();
    test_runs_tampered();
    double odd[] = {5, 1, 3};
    struct sample_stats s;
    stats_of(odd, 3, &s);
    ok(s.n == 3 && near(s.median, 3) && near(s.min, 1) && near(s.max, 5) && near(s.mean, 3),
       "median, min, max, mean of 5 1 3");
    ok(near(s.cv, 2.0 / 3.0), "cv of 5 1 3: sample sd 2 / mean 3 (got %g)", s.cv);
    double even[] = {4, 1, 2, 3};
    stats_of(even, 4, &s);
    ok(near(s.median, 2.5), "median of an even count is the mean of the middle two");
    double one[] = {7};
    stats_of(one, 1, &s);
    ok(near(s.median, 7) && s.cv == 0, "one sample: cv 0");
    stats_of(NULL, 0, &s);
    ok(s.n == 0 && s.median == 0, "no samples: zeros");
    double same[] = {2, 2, 2, 2};
    stats_of(same, 4, &s);
    ok(s.cv == 0, "equal samples: cv 0");

    /* Strong scaling: 100 s on 1 rank, 30 s on 4: S = 3.33, E = 83%. */
    ok(near(speedup(100, 30, false), 100.0 / 30), "speedup 100/30");
    ok(near(efficiency(100, 1, 30, 4, false), 100.0 / 30 / 4), "efficiency on 4 ranks from 1");
    /* A bandwidth: 1000 MB/s on 1 rank, 3000 on 4: speedup 3, efficiency 0.75. */
    ok(near(speedup(1000, 3000, true), 3), "higher is better: speedup 3000/1000 = 3");
    ok(near(efficiency(1000, 1, 3000, 4, true), 0.75), "higher is better: efficiency 0.75");
    ok(near(speedup(2000, 1000, true), 0.5), "higher is better: half the bandwidth is 0.5");
    ok(speedup(0, 5, true) == 0, "higher is better, no base value: 0, not inf");
    /* From 2 ranks (n0 = 2): 50 s -> 20 s on 8: S = 2.5, E = 2.5 * 2 / 8 = 62.5%. */
    ok(near(efficiency(50, 2, 20, 8, false), 0.625), "efficiency from n0 = 2");
    ok(near(efficiency(10, 1, 10, 1, false), 1), "the base point has efficiency 1");
    ok(speedup(10, 0, false) == 0 && efficiency(10, 1, 10, 0, false) == 0, "no time or no ranks: 0, not inf");
    return done_testing();
}
