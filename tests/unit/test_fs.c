/* Unit tests of the file helpers that write in shared places (util/fs.c):
 * every step an attacker could get between - a symlink or FIFO planted
 * where a file is about to be made or read, a folder of someone else's. */
#include "tap.h"
#include "util/file_cache.h"
#include "util/fs.h"
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
    if (nftw(tmp, remove_one, 8, FTW_DEPTH | FTW_PHYS) != 0)
        printf("# could not remove %s\n", tmp);
    return done_testing();
}
