/* Unit tests of the shared helpers: sizes, suggestions, quoting, versions,
 * JSON, string vectors, integers, the option-table engine and the process
 * primitive. */
#include "tap.h"
#include "util/csv.h"
#include "util/json.h"
#include "util/options.h"
#include "util/proc.h"
#include "util/size.h"
#include "util/strvec.h"
#include "util/table.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_sizes(void)
{
    static const struct { const char *in; uint64_t want; } good[] = {
        {"8388608", 8388608}, {"8M", 8388608}, {"8m", 8388608}, {"8MiB", 8388608},
        {"8mb", 8388608}, {"8MB", 8388608}, {"8k", 8192}, {"8KiB", 8192}, {"1g", 1073741824},
        {"1GiB", 1073741824}, {"2t", 2199023255552ULL}, {"0", 0}, {"17b", 17},
        {"16383P", 0} /* placeholder, not used */,
    };
    for (size_t i = 0; i + 1 < sizeof(good) / sizeof(*good); i++) {
        uint64_t v = 1;
        ok(parse_size(good[i].in, &v) && v == good[i].want, "size %s = %llu", good[i].in,
           (unsigned long long)good[i].want);
    }
    static const char *const bad[] = {
        "", "M", "eight", "8 M", "8MM", "-1", "1.5M", "8Mi", "8iB", "99999999999999999999",
        "17179869184G" /* 2^64 bytes */, "8x",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        uint64_t v = 12345;
        ok(!parse_size(bad[i], &v) && v == 12345, "not a size: '%s'", bad[i]);
    }
    uint64_t v;
    ok(parse_size("16777215T", &v) && v == 16777215ULL << 40, "largest T that fits");
    ok(!parse_size("16777216T", &v), "2^64 bytes overflows");
}

static void test_suggest(void)
{
    const char *const sections[] = {"profile", "ucx", "nccl", "mpi", "bind", "env", "check"};
    is_str(suggest("ucxx", sections, 7), "ucx", "ucxx -> ucx");
    is_str(suggest("Profil", sections, 7), "profile", "case-insensitive");
    is_str(suggest("completely-different", sections, 7), NULL, "no wild guesses");
    ok(edit_distance("kitten", "sitting") == 3, "edit distance kitten/sitting = 3");
}

static void test_quote(void)
{
    struct { const char *in, *want; } cases[] = {
        {"plain", "plain"}, {"UCX_TLS=rc,sm", "UCX_TLS=rc,sm"}, {"two words", "'two words'"},
        {"it's", "'it'\\''s'"}, {"", "''"}, {"^openib", "'^openib'"}, {"$HOME", "'$HOME'"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char *q = shell_quote(cases[i].in);
        is_str(q, cases[i].want, "shell_quote(%s)", cases[i].in);
        free(q);
    }
}

static void test_versions(void)
{
    ok(version_cmp("1.13.1", "1.19") < 0, "1.13.1 < 1.19");
    ok(version_cmp("1.19", "1.19.0") == 0, "1.19 == 1.19.0");
    ok(version_cmp("1.19.1", "1.19") > 0, "1.19.1 > 1.19");
    ok(version_cmp("1.9", "1.13") < 0, "1.9 < 1.13 (numeric, not text)");
    ok(version_cmp("2.0", "1.99.9") > 0, "2.0 > 1.99.9");
}

static void test_json(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct json j;
    json_init(&j, f);
    json_begin_object(&j, NULL);
    json_string(&j, "s", "a\"b\\c\nd\x01");
    json_int(&j, "i", -5);
    json_bool(&j, "b", true);
    json_null(&j, "n");
    json_begin_array(&j, "empty");
    json_end_array(&j);
    json_begin_array(&j, "a");
    json_string(&j, NULL, "x");
    json_string(&j, NULL, NULL);
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
    fclose(f);
    is_str(buf, "{\n  \"s\": \"a\\\"b\\\\c\\nd\\u0001\",\n  \"i\": -5,\n  \"b\": true,\n"
                "  \"n\": null,\n  \"empty\": [],\n  \"a\": [\n    \"x\",\n    null\n  ]\n}\n",
           "JSON writer escapes, nests and indents");
    free(buf);

    /* Bytes from logs and host names: well-formed UTF-8 passes as it is;
     * every byte that starts no well-formed sequence (RFC 3629 section 4:
     * a stray continuation, an overlong form, a surrogate, a cut sequence,
     * 0xF5 and up) becomes U+FFFD, so that JSON readers take it. */
    f = open_memstream(&buf, &len);
    json_init(&j, f);
    json_string(&j, NULL, "\xc3\xa9|\xe4\xb8\xad|\xf0\x9f\x98\x80|\xff|\x80|\xc0\xaf|"
                          "\xed\xa0\x80|\xf5\x80\x80\x80|\xe2\x82");
    fclose(f);
#define R "\xef\xbf\xbd"   /* U+FFFD */
    is_str(buf, "\"\xc3\xa9|\xe4\xb8\xad|\xf0\x9f\x98\x80|" R "|" R "|" R R "|" R R R "|" R R R R "|" R R
                "\"",
           "JSON strings keep well-formed UTF-8 and write U+FFFD for each byte of the rest");
#undef R
    free(buf);
}

static void test_strvec(void)
{
    struct strvec v = {0};
    sv_split(&v, " mlx5_0:1, ,mlx5_1:1 ,", ",");
    ok(v.n == 2, "split drops empty items");
    is_str(v.v[0], "mlx5_0:1", "split trims");
    ok(v.v[v.n] == NULL, "vector stays NULL-terminated");
    char *j = sv_join(&v, ",");
    is_str(j, "mlx5_0:1,mlx5_1:1", "join");
    free(j);
    ok(sv_find(&v, "mlx5_1:1") == 1 && sv_find(&v, "x") == -1, "find");
    sv_free(&v);
    j = sv_join(&v, ", ");
    is_str(j, "", "join of none is empty");
    free(j);
    sv_push(&v, "a");
    sv_push(&v, "bc");
    sv_push(&v, "");
    sv_push(&v, "d");
    j = sv_join(&v, ", ");
    is_str(j, "a, bc, , d", "join puts a separator between items, empty ones too");
    free(j);
    sv_free(&v);
}

static void test_bool(void)
{
    bool b;
    ok(parse_bool("Yes", &b) && b, "Yes is true");
    ok(parse_bool("off", &b) && !b, "off is false");
    ok(!parse_bool("maybe", &b), "maybe is not a boolean");
}

static void test_parse_long(void)
{
    long v = 5;
    ok(parse_long("42", 0, 100, &v) && v == 42, "42 in 0..100");
    v = 5;
    ok(!parse_long("101", 0, 100, &v) && v == 5, "101 is out of 0..100, value untouched");
    ok(!parse_long("-1", 0, 100, &v), "-1 below 0");
    ok(!parse_long("4x", 0, 100, &v) && !parse_long("", 0, 100, &v) &&
       !parse_long(" 4", 0, 100, &v) && !parse_long(NULL, 0, 100, &v), "junk, empty, blank, NULL");
    ok(!parse_long("99999999999999999999", 0, 1L << 40, &v), "overflow");
}

/* A table over a struct of its own, as the command line and the helper use it. */
struct demo {
    bool flag;
    char *value, *choice;
    struct strvec list;
};
#define D(f) offsetof(struct demo, f)
static const struct opt demo_opts[] = {
    {"flag", "-f", 1, OPT_FLAG, D(flag), NULL, NULL, "a flag"},
    {"value", NULL, 1, OPT_VALUE, D(value), NULL, "V", "a value"},
    {"choice", NULL, 2, OPT_VALUE, D(choice), "a|bb|c", NULL, "one of three\nsecond line"},
    {"list", NULL, 1, OPT_LIST, D(list), NULL, "X", "repeatable"},
};

static int parse_words(struct demo *d, unsigned scope, char **argv, int argc)
{
    int rc = 1;
    for (int i = 0; i < argc && rc == 1; i++)
        rc = opt_parse(demo_opts, 4, scope, d, argc, argv, &i);
    return rc;
}

static void test_options(void)
{
    struct demo d;
    memset(&d, 0, sizeof(d));
    char *words[] = {"-f", "--value", "x", "--choice=bb", "--list", "1", "--list=2"};
    ok(parse_words(&d, 3, words, 7) == 1, "every form parses: alias, --name V, --name=V");
    ok(d.flag, "the flag is set");
    is_str(d.value, "x", "--value x");
    is_str(d.choice, "bb", "--choice=bb");
    ok(d.list.n == 2 && strcmp(d.list.v[1], "2") == 0, "--list twice");
    struct strvec argv = {0};
    opt_write(demo_opts, 4, 3, &d, &argv);
    char *line = sv_join(&argv, " ");
    is_str(line, "--flag --value x --choice bb --list 1 --list 2", "written back in table order");
    free(line);
    struct demo back;
    memset(&back, 0, sizeof(back));
    ok(parse_words(&back, 3, argv.v, (int)argv.n) == 1 && back.flag &&
       strcmp(back.value, "x") == 0 && back.list.n == 2, "what is written parses back the same");
    opt_free(demo_opts, 4, &back);
    sv_free(&argv);
    char *other[] = {"--choice", "a"};
    int i = 0;
    ok(opt_parse(demo_opts, 4, 1, &d, 2, other, &i) == 0, "an option outside the scope is not taken");
    char *bad[] = {"--choice", "b"};
    i = 0;
    ok(opt_parse(demo_opts, 4, 2, &d, 2, bad, &i) == -1, "a value outside the choices is refused");
    char *missing[] = {"--value"};
    i = 0;
    ok(opt_parse(demo_opts, 4, 1, &d, 1, missing, &i) == -1, "a missing value is refused");
    char *prefix[] = {"--val", "x"};
    i = 0;
    ok(opt_parse(demo_opts, 4, 1, &d, 2, prefix, &i) == 0, "a prefix of a name is not the option");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    opt_help(demo_opts, 4, 3, 2, out);
    fclose(out);
    ok(strstr(buf, "-f, --flag") && strstr(buf, "--value V") && !strstr(buf, "--choice"),
       "help shows the scope's options, not those already shown");
    free(buf);
    /* brief: the first line only, complete in itself. */
    static const struct opt cut[] = {
        {"launcher", NULL, 1, OPT_VALUE, 0, "a|b", NULL, "how ranks start (default: the\nprofile's)"},
        {"mode", NULL, 1, OPT_FLAG, 0, NULL, NULL, "one thing;\nthen more"},
        {"whole", NULL, 1, OPT_FLAG, 0, NULL, NULL, "a line (in parentheses) whole"},
    };
    buf = NULL;
    out = open_memstream(&buf, &len);
    for (size_t k = 0; k < 3; k++)
        opt_help_one(&cut[k], true, out);
    fclose(out);
    is_str(buf, "      --launcher a|b       how ranks start\n"
                "      --mode               one thing\n"
                "      --whole              a line (in parentheses) whole\n",
           "brief help: cut before an unclosed parenthesis and a trailing ';', one line each");
    free(buf);
    opt_free(demo_opts, 4, &d);
    ok(d.value == NULL && d.list.n == 0, "opt_free clears the fields");
}

static void child_writes(void *arg)
{
    fprintf(stderr, "from the child: %s\n", (const char *)arg);
}

static void test_proc(void)
{
    char *out = NULL;
    bool late;
    char *const echo[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
    struct proc_spec s = {.argv = echo, .err_to_out = true};
    int st = proc_capture(&s, scaled(5), 1024, &out, &late);
    ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 3 && !late, "exit status 3 comes back");
    is_str(out, "out\nerr\n", "stdout and stderr captured together");
    free(out);
    char *const big[] = {"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x", NULL};
    s = (struct proc_spec){.argv = big};
    st = proc_capture(&s, scaled(5), 1000, &out, &late);
    ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && strlen(out) == 1000,
       "output past the limit is read and dropped (kept %zu bytes)", strlen(out));
    free(out);
    char *const nowhere[] = {"/nonexistent/prog", NULL};
    s = (struct proc_spec){.argv = nowhere};
    struct proc p;
    errno = 0;
    ok(proc_start(&s, &p) == -1 && errno == ENOENT, "a program that does not exist: -1, ENOENT");
    char *const slow[] = {"sleep", "10", NULL};
    s = (struct proc_spec){.argv = slow};
    double t0 = proc_now();
    st = proc_capture(&s, 0.3, 1024, &out, &late);
    double took = proc_now() - t0;
    ok(late && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the deadline kills it");
    ok(took < scaled(3), "and it does not wait for the program (%.2f s)", took);
    free(out);
    /* proc_wait returns at the deadline while the child runs, and at once when it ends. */
    ok(proc_start(&s, &p) == 0, "sleep starts");
    ok(!proc_wait(&p, proc_now() + 0.1, &st), "still running at a near deadline");
    proc_kill(&p, SIGTERM);
    t0 = proc_now();
    ok(proc_wait(&p, proc_now() + scaled(5), &st) && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
       "SIGTERM ends it and the wait sees it");
    ok(proc_now() - t0 < scaled(1), "the wait wakes when the child ends (%.3f s)", proc_now() - t0);
    ok(proc_exit_code(st) == 128 + SIGTERM, "a signal's exit code is 128 + N");
    ok(proc_start(&s, &p) == 0, "sleep starts again");
    proc_kill(&p, SIGKILL);
    ok(proc_wait(&p, -1, &st) && WIFSIGNALED(st), "after SIGKILL the wait returns at once");
    /* A function of ours in the child, with its stderr on a pipe. */
    s = (struct proc_spec){.fn = child_writes, .arg = "hello", .err = PROC_PIPE};
    ok(proc_start(&s, &p) == 0 && p.err >= 0, "a function runs in a child, stderr piped");
    char buf[128] = "";
    ssize_t n = read(p.err, buf, sizeof(buf) - 1);
    buf[n > 0 ? n : 0] = '\0';
    close(p.err);
    is_str(buf, "from the child: hello\n", "what it wrote arrives on the pipe");
    ok(proc_wait(&p, -1, &st) && WIFEXITED(st) && WEXITSTATUS(st) == 0, "and it exits 0");
    /* The child's working directory and a file for its output. */
    char dir[] = "/tmp/rdmarun-proc.XXXXXX";
    ok(mkdtemp(dir) != NULL, "a temporary directory");
    char *const pwd[] = {"pwd", NULL};
    s = (struct proc_spec){.argv = pwd, .dir = dir, .out = PROC_FILE, .out_file = "pwd.txt"};
    ok(proc_start(&s, &p) == 0 && proc_wait(&p, -1, &st) && WIFEXITED(st), "pwd runs in it");
    char *path = xasprintf("%s/pwd.txt", dir);
    FILE *f = fopen(path, "r");
    char got[256] = "";
    ok(f && fgets(got, sizeof(got), f), "its output went to the file, relative to the directory");
    if (f)
        fclose(f);
    got[strcspn(got, "\n")] = '\0';
    is_str(got, dir, "the child ran in the directory");
    unlink(path);
    rmdir(dir);
    free(path);
}

/* Children for proc_end_orphans: each says on stdout that it is ready (its
 * signal dispositions set, its own child started), then waits for signals. */
static void deaf_child(void *arg)
{
    (void)arg;
    signal(SIGTERM, SIG_IGN);
    if (write(STDOUT_FILENO, "r\n", 2) != 2)
        _exit(1);
    for (;;)
        pause();
}

/* A child that ignores SIGTERM and leaves a grandchild that does too: once
 * the child is killed, the grandchild is re-parented to us, after the
 * children were listed. It writes the grandchild's pid. */
static void deaf_parent(void *arg)
{
    (void)arg;
    /* Inherited by the grandchild; SIGHUP too, which the kernel sends a
     * stopped process whose process group its parent's death orphans. */
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    pid_t g = fork();
    if (g == 0) {
        for (;;)
            pause();
    }
    printf("%ld\n", (long)g);
    fflush(stdout);
    for (;;)
        pause();
}

/* Start fn in a child and wait until it reports ready: its first line. */
static pid_t start_ready(void (*fn)(void *), long *said)
{
    struct proc_spec s = {.fn = fn, .out = PROC_PIPE};
    struct proc p;
    if (proc_start(&s, &p) != 0)
        return -1;
    char buf[64] = "";
    ssize_t n = read(p.out, buf, sizeof(buf) - 1);   /* blocks until it is ready */
    buf[n > 0 ? n : 0] = '\0';
    close(p.out);
    if (p.pidfd >= 0)
        close(p.pidfd);
    if (said)
        *said = atol(buf);
    return p.pid;
}

static bool gone(pid_t pid)
{
    return kill(pid, 0) != 0 && errno == ESRCH;
}

/* proc_end_orphans is bounded whatever the children do: ignore SIGTERM, be
 * stopped, leave an orphan of their own behind. Run last: it makes the test
 * a subreaper. */
static void test_end_orphans(void)
{
    /* A hang fails the test instead of holding make check. */
    alarm(60);
    const double grace = 0.4;
    int left = -1;
    char *const quick[] = {"true", NULL};
    struct proc_spec s = {.argv = quick};
    struct proc p;
    ok(proc_start(&s, &p) == 0, "a child that ends by itself starts");
    if (p.pidfd >= 0)
        close(p.pidfd);
    ok(proc_end_orphans(grace, &left) == 0 && left == 0,
       "a child that ends within the grace is reaped, not signalled");
    proc_adopt_orphans();
    pid_t deaf = start_ready(deaf_child, NULL);
    pid_t stopped = start_ready(deaf_child, NULL);
    long grand = 0;
    pid_t parent = start_ready(deaf_parent, &grand);
    ok(deaf > 0 && stopped > 0 && parent > 0 && grand > 0,
       "children that ignore SIGTERM started, one with a grandchild (%ld)", grand);
    int st;
    kill(stopped, SIGSTOP);
    ok(waitpid(stopped, &st, WUNTRACED) == stopped && WIFSTOPPED(st), "one child is stopped");
    kill((pid_t)grand, SIGSTOP);
    double t0 = proc_now();
    int n = proc_end_orphans(grace, &left);
    double took = proc_now() - t0;
    ok(took < 2 * grace + 0.3, "returns within its bound of 2 x %.1f s (%.2f s)", grace, took);
    ok(n == 4 && left == 0, "all four signalled (%d), none left (%d)", n, left);
    ok(gone(deaf) && gone(stopped) && gone(parent) && gone((pid_t)grand),
       "and all four are gone, reaped");
    alarm(0);
}

/* Whether a pid is gone (or a zombie no one has reaped yet). */
static bool pid_gone(long pid)
{
    char path[64], buf[256];
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')');
    return paren && (paren[2] == 'Z' || paren[2] == 'X');
}

/* A helper (scontrol) that times out goes with its own children: they are
 * in its process group, which proc_kill signals whole. */
static void test_capture_group(void)
{
    char *const argv[] = {"sh", "-c", "sleep 1000 & echo $!; wait", NULL};
    struct proc_spec s = {.argv = argv};
    char *out = NULL;
    bool timed_out = false;
    double t0 = proc_now();
    proc_capture(&s, 0.5, 4096, &out, &timed_out);
    long child = out ? strtol(out, NULL, 10) : 0;
    ok(timed_out && child > 0, "a helper that never ends is cut at its limit (its child %ld)", child);
    bool gone = false;
    for (double end = proc_now() + 5; !gone && proc_now() < end;) {
        gone = child > 0 && pid_gone(child);
        if (!gone)
            usleep(10000);
    }
    ok(gone, "and its child, in its process group, is killed with it (not left to init)");
    ok(proc_now() - t0 < 10, "all within its bounds (%.2f s)", proc_now() - t0);
    if (!gone && child > 0)
        kill((pid_t)child, SIGKILL);
    free(out);
}

/* Terminal text: escape sequences, newlines, C1 controls and bytes that are
 * no UTF-8 are shown, never sent; UTF-8 passes; long text is cut. */
static void test_term_safe(void)
{
    const char in[] = "a\x1b[31mb\nc\td\xc2\x9b" "e\xff\xc3\xa9";
    char *got = term_safe(in, sizeof(in) - 1, 100);
    is_str(got, "a\\x1b[31mb\\nc\\td\\xc2\\x9be\\xff\xc3\xa9",
           "ESC, newline, tab, 8-bit CSI (C2 9B), a stray byte escaped; e-acute kept");
    free(got);
    got = term_safe("AAAAAAAAAA", 10, 4);
    is_str(got, "AAAA... (10 bytes)", "cut past its limit, with the length");
    free(got);
}

/* RFC 4180: quotes only where a field needs them, its quotes doubled. */
static void test_csv(void)
{
    char *text;
    size_t len;
    FILE *f = xmemstream_open(&text, &len);
    csv_field(f, "shm", false);
    csv_field(f, "./a,b.ini", false);
    csv_field(f, "say \"hi\"", false);
    csv_field(f, "two\nlines", false);
    csv_field(f, " padded", false);
    csv_field(f, "", true);
    xmemstream_close(f);
    is_str(text, "shm,\"./a,b.ini\",\"say \"\"hi\"\"\",\"two\nlines\",\" padded\",\n",
           "CSV fields: plain, a comma, quotes doubled, a line break, a blank at the edge, empty");
    free(text);
}

/* util/table: one set of columns and rows, three backends. */
static void put_obj(struct json *j, const char *key, const void *arg)
{
    json_begin_object(j, key);
    json_int(j, "n", *(const int *)arg);
    json_end_object(j);
}

static char *table_as(enum table_format fmt)
{
    static const struct table_col cols[] = {
        {.name = "name", .width = -6, .type = TT_STR},
        {.name = "rate", .head = "RATE", .width = 6, .type = TT_NUM, .text_fmt = "%.1f%%",
         .text_scale = 100, .data_fmt = "%.2f"},
        {.name = "note", .type = TT_STR, .show = TS_TEXT, .gap = "  "},
        {.name = "ok", .type = TT_BOOL, .show = TS_DATA},
        {.name = "extra", .type = TT_JSON, .show = TS_JSON},
        {.name = "why", .type = TT_STR, .show = TS_JSON, .omit_none = true},
    };
    static const int seven = 7;
    const struct table_cell rows[2][6] = {
        {{.s = "a,\"b\""}, {.d = 0.5}, {.s = "half"}, {.i = 1}, {.put = put_obj, .arg = &seven},
         {.s = "because"}},
        {{.s = "c"}, {.none = true}, {.s = "none"}, {.i = 0}, {.put = put_obj, .arg = &seven},
         {.s = NULL}},
    };
    char *text;
    size_t len;
    FILE *f = xmemstream_open(&text, &len);
    struct json j;
    json_init(&j, f);
    if (fmt == TABLE_JSON)
        json_begin_object(&j, NULL);
    struct table t = {.format = fmt, .out = f, .json = &j, .json_key = "rows", .cols = cols,
                      .ncols = 6};
    table_begin(&t);
    table_row(&t, rows[0]);
    table_row(&t, rows[1]);
    table_end(&t);
    if (fmt == TABLE_JSON)
        json_end_object(&j);
    xmemstream_close(f);
    return text;
}

static void test_table(void)
{
    char *text = table_as(TABLE_TEXT);
    is_str(text, "name     RATE  note\na,\"b\"   50.0%  half\nc           -  none\n",
           "table, text: aligned, its own header and format, a missing figure '-'");
    free(text);
    text = table_as(TABLE_CSV);
    is_str(text, "name,rate,ok\n\"a,\"\"b\"\"\",0.50,yes\nc,,no\n",
           "table, CSV: the data columns, quoted as RFC 4180 says, a missing figure empty");
    free(text);
    text = table_as(TABLE_JSON);
    is_str(text, "{\n  \"rows\": [\n    {\n      \"name\": \"a,\\\"b\\\"\",\n      \"rate\": 0.5,\n"
                 "      \"ok\": true,\n      \"extra\": {\n        \"n\": 7\n      },\n"
                 "      \"why\": \"because\"\n    },\n    {\n      \"name\": \"c\",\n"
                 "      \"rate\": null,\n      \"ok\": false,\n      \"extra\": {\n"
                 "        \"n\": 7\n      }\n    }\n  ]\n}",
           "table, JSON: an array of objects, null for a missing figure, an omitted key left out");
    free(text);
}

int main(void)
{
    test_sizes();
    test_suggest();
    test_quote();
    test_versions();
    test_json();
    test_strvec();
    test_bool();
    test_parse_long();
    test_options();
    test_proc();
    test_end_orphans();
    test_capture_group();
    test_term_safe();
    test_csv();
    test_table();
    return done_testing();
}
