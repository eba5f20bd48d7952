/* Unit tests of the file helpers that write in shared places (util/fs.c):
 * every step an attacker could get between - a symlink or FIFO planted
 * where a file is about to be made or read, a folder of someone else's. */
#include "tap.h"
#include "util/conf_file.h"
#include "util/file_cache.h"
#include "util/fs.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char buf[256] = "";
    if (f) {
        size_t n = fread(buf, 1, sizeof(buf) - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return xstrdup(buf);
}

static void test_create_new_file(const char *tmp)
{
    char *victim = xasprintf("%s/victim", tmp), *link = xasprintf("%s/verdict.json", tmp);
    FILE *v = fopen(victim, "w");
    fputs("precious", v);
    fclose(v);
    /* the symlink appears between the directory's creation and the file's */
    ok(symlink(victim, link) == 0, "a symlink planted as verdict.json");
    errno = 0;
    FILE *f = create_new_file(tmp, "verdict.json");
    ok(!f && errno == EEXIST, "create_new_file refuses it (EEXIST, not written through)");
    char *got = slurp(victim);
    is_str(got, "precious", "its target is untouched");
    free(got);
    f = create_new_file(tmp, "ucx.log");
    ok(f != NULL, "a new name is made");
    struct stat st;
    char *made = xasprintf("%s/ucx.log", tmp);
    ok(f && stat(made, &st) == 0 && (st.st_mode & 0777) == 0600, "mode 0600");
    if (f)
        fclose(f);
    ok(!create_new_file(tmp, "ucx.log") && errno == EEXIST, "and never opened twice");
    free(made);
    free(victim);
    free(link);
}

/* A run folder swapped for a link while the job runs: files made through
 * the folder's fd land in the folder it opened, never at the link's target;
 * by path, the link is refused. */
static void test_create_new_file_at(const char *tmp)
{
    char *run = xasprintf("%s/run", tmp), *moved = xasprintf("%s/moved", tmp);
    char *elsewhere = xasprintf("%s/elsewhere", tmp);
    ok(mkdir(run, 0700) == 0 && mkdir(elsewhere, 0700) == 0, "a run folder and another");
    int dfd = open(run, O_RDONLY | O_DIRECTORY);
    ok(rename(run, moved) == 0 && symlink(elsewhere, run) == 0,
       "the run folder moved away and a link to the other planted in its place");
    FILE *f = create_new_file_at(dfd, "verdict.json");
    ok(f != NULL, "create_new_file_at makes the file through the folder's fd");
    if (f)
        fclose(f);
    char *in_moved = xasprintf("%s/verdict.json", moved);
    char *in_other = xasprintf("%s/verdict.json", elsewhere);
    struct stat st;
    ok(stat(in_moved, &st) == 0 && stat(in_other, &st) != 0,
       "in the folder it opened, nothing at the link's target");
    errno = 0;
    ok(!create_new_file(run, "ucx.log") && errno == ENOTDIR,
       "by path, a folder that is a link is refused (ENOTDIR under O_NOFOLLOW)");
    ok(stat(in_other, &st) != 0, "and nothing was made through it");
    close(dfd);
    free(in_moved);
    free(in_other);
    free(run);
    free(moved);
    free(elsewhere);
}

static void test_read_own_file(const char *tmp)
{
    int dfd = open(tmp, O_RDONLY | O_DIRECTORY);
    char *fifo = xasprintf("%s/fifo", tmp);
    ok(mkfifo(fifo, 0600) == 0, "a FIFO where a file is read");
    errno = 0;
    ok(!read_own_file_at(dfd, "fifo", 1024, NULL) && errno == EPERM,
       "read_own_file_at refuses it at once (EPERM), never waiting for a writer");
    ok(symlinkat("ucx.log", dfd, "link") == 0, "a symlink to a file of ours");
    ok(!read_own_file_at(dfd, "link", 1024, NULL), "is not followed");
    ok(replace_file_at(dfd, "data", "0123456789", 10) == 0, "replace_file_at writes a file");
    size_t len = 0;
    char *got = read_own_file_at(dfd, "data", 10, &len);
    ok(got && len == 10 && strcmp(got, "0123456789") == 0, "read back whole at its cap");
    free(got);
    errno = 0;
    ok(!read_own_file_at(dfd, "data", 9, NULL) && errno == EFBIG,
       "one byte over the cap is refused (EFBIG)");
    /* replacing through a planted symlink replaces the link, not its target */
    ok(symlinkat("victim", dfd, "cache") == 0 && replace_file_at(dfd, "cache", "new", 3) == 0,
       "replace_file_at over a planted symlink");
    char *victim = xasprintf("%s/victim", tmp);
    got = slurp(victim);
    is_str(got, "precious", "the symlink's target is untouched");
    free(got);
    struct stat st;
    ok(fstatat(dfd, "cache", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode),
       "the name is now a regular file");
    free(victim);
    free(fifo);
    close(dfd);
}

static void test_private_dir(const char *tmp)
{
    char *d = xasprintf("%s/private", tmp);
    int fd = private_dir_open(d);
    struct stat st;
    ok(fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 0777) == 0700,
       "private_dir_open makes a missing folder 0700");
    if (fd >= 0)
        close(fd);
    chmod(d, 0755);
    errno = 0;
    ok(private_dir_open(d) < 0 && errno == EPERM, "a folder others may read is refused (EPERM)");
    char *l = xasprintf("%s/private-link", tmp);
    chmod(d, 0700);
    ok(symlink(d, l) == 0 && private_dir_open(l) < 0, "a symlink to it is not followed");
    free(l);
    free(d);
}

/* util/file_cache: an answer kept per build of a file, keyed by its identity. */
static void test_file_cache(const char *tmp)
{
    char *run = xasprintf("%s/runtime", tmp), *bin = xasprintf("%s/prog", tmp);
    setenv("XDG_RUNTIME_DIR", run, 1);
    mkdir(run, 0700);
    FILE *f = fopen(bin, "w");
    fputs("v1", f);
    fclose(f);
    struct file_cache c;
    ok(!file_cache_open(&c, "test", NULL), "no path (realpath failed): no cache");
    ok(file_cache_open(&c, "test", bin) && !file_cache_get(&c, 4096), "a first ask: nothing kept");
    file_cache_put(&c, "answer 1\n");
    char *v = file_cache_get(&c, 4096);
    ok(v && strcmp(v, "answer 1\n") == 0, "kept, and read back whole");
    free(v);
    char *file = xasprintf("%s/rdmarun/%s", run, c.file);
    file_cache_close(&c);
    f = fopen(bin, "a");
    fputs(" and v2", f);   /* another build: another size */
    fclose(f);
    ok(file_cache_open(&c, "test", bin) && !(v = file_cache_get(&c, 4096)),
       "another build of the file: the old answer is not read");
    free(v);
    file_cache_put(&c, "answer 2");
    unlink(file);
    ok(mkfifo(file, 0600) == 0 && !file_cache_get(&c, 4096), "a FIFO in its place: no answer, no block");
    unlink(file);
    f = fopen(file, "w");
    fputs("not the key\nanswer 3", f);
    fclose(f);
    ok(!file_cache_get(&c, 4096), "a file that starts with another key: no answer");
    file_cache_close(&c);
    unsetenv("XDG_RUNTIME_DIR");
    free(file);
    free(bin);
    free(run);
}

/* util/conf_file: what conf_put writes, conf_file_read gives back as it was. */
static int take_pair(void *user, const char *name, const char *value, const char *where)
{
    (void)where;
    struct strvec *pairs = user;
    sv_pushf(pairs, "%s=%s", name, value);
    return 0;
}

static void test_conf_file(const char *tmp)
{
    static const char *const values[] = {
        "a ; b", " leading", "trailing ", "100%", "%3B", "tab\there", "line\nbreak", "#x", "[s]",
        "k=v:w", "", "\xc3\xa9t\xc3\xa9", "^((pingpong|allreduce) size=[0-9]+) .*(latency_us)=([0-9.]+)",
    };
    size_t n = sizeof(values) / sizeof(*values);
    char *path = xasprintf("%s/x.conf", tmp);
    FILE *f = fopen(path, "w");
    conf_begin(f, "test");
    for (size_t i = 0; i < n; i++)
        conf_put(f, "arg", values[i]);
    fclose(f);
    struct strvec got = {0};
    int rc = conf_file_read(path, "test", take_pair, &got);
    bool same = rc == 0 && got.n == n;
    for (size_t i = 0; same && i < n; i++)
        same = strncmp(got.v[i], "arg=", 4) == 0 && strcmp(got.v[i] + 4, values[i]) == 0;
    ok(same, "%zu values with ';', '%%', spaces at the ends, a tab, a newline: read back as written", n);
    sv_free(&got);
    f = fopen(path, "w");
    fputs("program=./a 100%\narg=x ; comment\n", f);   /* as rdmarun wrote it before format 2 */
    fclose(f);
    rc = conf_file_read(path, "test", take_pair, &got);
    ok(rc == 0 && got.n == 2 && strcmp(got.v[0], "program=./a 100%") == 0 && strcmp(got.v[1], "arg=x") == 0,
       "a file without the format line: values as they stand (inih's comment cut)");
    sv_free(&got);
    f = fopen(path, "w");
    fputs("format=2\narg=%zz\n", f);
    fclose(f);
    ok(conf_file_read(path, "test", take_pair, &got) == 65, "a malformed %%XX: 65");
    sv_free(&got);
    f = fopen(path, "w");
    fprintf(f, "format=2\narg=%0*d\n", INI_LINE_MAX + 10, 0);
    fclose(f);
    ok(conf_file_read(path, "test", take_pair, &got) == 65 && got.n == 0,
       "a line longer than inih reads whole: refused (65), not cut in two");
    sv_free(&got);
    f = fopen(path, "w");
    fwrite("format=2\narg=a\0b\n", 1, 17, f);
    fclose(f);
    ok(conf_file_read(path, "test", take_pair, &got) == 65, "a NUL byte: refused (65)");
    sv_free(&got);
    free(path);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

int main(void)
{
    char tmpl[] = "/tmp/rdmarun-test-fs.XXXXXX";
    char *tmp = mkdtemp(tmpl);
    if (!tmp)
        return 1;
    test_create_new_file(tmp);
    test_create_new_file_at(tmp);
    test_read_own_file(tmp);
    test_private_dir(tmp);
    test_file_cache(tmp);
    test_conf_file(tmp);
    if (nftw(tmp, remove_one, 8, FTW_DEPTH | FTW_PHYS) != 0)
        printf("# could not remove %s\n", tmp);
    return done_testing();
}
