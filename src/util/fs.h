#ifndef RDMARUN_UTIL_FS_H
#define RDMARUN_UTIL_FS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
/* mkdir -p: every missing folder of `path` (mode 0755). 0, or -1 with errno. */
int make_dirs(const char *path);
/* The folder PATH is in: "a/b/" and "a/b" give "a", "b" and "" give ".",
 * "/b" gives "/". Caller frees. */
char *path_parent(const char *path);
/* First line of a sysfs or procfs attribute (open_input's rules), trimmed;
 * NULL if absent or empty, (errno EILSEQ) when it holds a control
 * character or a byte past ASCII, which the kernel never writes there, and
 * (EFBIG) when it is longer than an attribute's page, never cut. */
#define FIRST_LINE_MAX 4096
char *read_first_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The source tree an uninstalled rdmarun runs from: the build writes its
 * path into rdmarun-tree beside the binary (never installed), relative to
 * that folder ("." in a tree built where it was configured), so that a
 * build tree copied or moved elsewhere reads its own tree, not the
 * original's. NULL for an installed rdmarun. */
char *source_tree_of_self(void);
/* An installed folder as seen from where the binary is now: `path` (a
 * compiled-in absolute path, e.g. DATADIR/rdmarun/profiles) reached from
 * the binary's folder the way it is from `bindir` (the compiled-in
 * BINDIR: /usr/local/bin -> ../share/rdmarun/profiles), resolved. NULL
 * when that folder does not exist (the caller falls back to `path`). */
char *installed_path_of_self(const char *bindir, const char *path);
/* A program rdmarun runs from its own installation: an uninstalled
 * rdmarun's `tree_path` beside it in its build tree (examples/mpi_pingpong,
 * libexec/path-peer); an installed one's LIBEXECDIR/rdmarun/BASENAME,
 * wherever the installation was moved. */
char *helper_path(const char *tree_path);
/* A private folder of this user's: created 0700 if missing, opened without
 * following a symlink, refused (-1, errno EPERM) when another user owns it
 * or anyone else may write or read it. A directory fd (O_CLOEXEC), or -1
 * with errno. */
int private_dir_open(const char *path);
/* A folder rdmarun may make a folder of its own in (a run's evidence, a
 * tune's results): one no one else may write, or a sticky one (/tmp) of
 * root's or this user's, where no one else can rename or remove what is
 * made; never through a final symlink of someone else's. 0, or -1 with
 * errno (EPERM: others could swap what is made there; EACCES: not
 * writable). */
int safe_parent_dir(const char *dir);
/* PATH opened with no symbolic link in any component (each opened in the
 * one before with O_NOFOLLOW, from /): flags for the last (O_NOFOLLOW
 * added), mode when it creates; missing folders made (0755) with
 * make_dirs, the last too when flags hold O_DIRECTORY. Each folder on the way passes dir_ok (NULL: any; parent: it
 * holds the last component) before anything is opened in it. An fd, or
 * -1 with errno (ELOOP: a link; EPERM: a folder dir_ok refused) and
 * *where, the path up to where it stopped (caller frees). */
int open_no_links(const char *path, int flags, mode_t mode, bool make_dirs,
                  bool (*dir_ok)(const struct stat *st, bool parent), char **where);
/* This user's folder for what rdmarun keeps between runs of one boot (the
 * topology cache, the launcher's options): $XDG_RUNTIME_DIR/rdmarun (a
 * per-boot tmpfs), else /tmp/rdmarun-UID (as tmux keeps its sockets: a batch
 * job rarely has XDG_RUNTIME_DIR). Only its name: open it with
 * private_dir_open. Caller frees. */
char *user_runtime_dir(void);
/* A regular file of this user's inside dirfd, read whole: never through a
 * symlink, never blocking on a FIFO, at most `max` bytes (a longer file is
 * refused, errno EFBIG). NUL-terminated; NULL with errno. */
char *read_own_file_at(int dirfd, const char *name, size_t max, size_t *len);
/* Replaces dirfd/name with `len` bytes atomically: written to a fresh
 * O_EXCL|O_NOFOLLOW file (0600) and renamed over the name, so a reader
 * sees the old file or the new one, and a planted symlink is replaced,
 * never written through. 0, or -1 with errno. */
int replace_file_at(int dirfd, const char *name, const void *buf, size_t len);
/* The same with MODE (replace_file_at: 0600), for files others read. */
int replace_file_mode_at(int dirfd, const char *name, const void *buf, size_t len, mode_t mode);
/* An input rdmarun was told to read (a profile, facts, a log, a hostfile,
 * a sysfs attribute): opened without blocking (a FIFO with no writer must
 * not hang a prolog), and only when it is a regular file; a directory is
 * EISDIR, a FIFO, device or socket EINVAL (input_strerror words it). NULL
 * with errno. */
FILE *open_input(const char *path);
/* A stream to read to its end: what open_input takes, a pipe or FIFO (with
 * no writer, that end is at once: opening never waits for one), or "-" for
 * stdin. */
FILE *open_stream(const char *path);
/* strerror, with open_input's EINVAL said as what it means. */
const char *input_strerror(int err);
/* A whole input (open_input's rules), NUL-terminated: at most `max` bytes,
 * counted as read (a file that grows, /dev/zero), else EFBIG. NULL with
 * errno. */
char *read_input(const char *path, size_t max, size_t *len);
/* replace_file_at in the folder DIR. 0, or -1 with errno. */
int replace_file_in(const char *dir, const char *name, const void *buf, size_t len);
int replace_file_mode_in(const char *dir, const char *name, const void *buf, size_t len,
                         mode_t mode);
/* replace_file_mode_in, only where nothing is or over a regular file of
 * this user's: never over a link, a device, a FIFO, a folder or another
 * user's file (-1, errno EPERM). */
int replace_own_file_mode_in(const char *dir, const char *name, const void *buf, size_t len,
                             mode_t mode);
/* What a stat's mode is, in words: "regular file", "symbolic link",
 * "character device", ... */
const char *file_kind(mode_t mode);
/* A new file NAME in DIR, for writing: made by this call (O_EXCL, 0600),
 * never through a symlink (DIR itself included), and only in a directory of
 * this user's. NULL with errno (EEXIST: a file of that name is there
 * already). _at: in the directory open as dfd (a folder held for a job's
 * life, which no rename or link can change under it). */
FILE *create_new_file(const char *dir, const char *name);
FILE *create_new_file_at(int dfd, const char *name);
/* All of buf to fd, through short writes and EINTR. 0, or -1 with errno. */
int write_all(int fd, const void *buf, size_t len);
/* A record of steps, a line each, that an interruption at any moment leaves
 * whole (runs.csv, the tune journal): opened to append, created with
 * `header` (NULL: none) when new or empty, a last line without its newline
 * (cut short as it was written) cut off; never through a symlink. An fd,
 * or -1 with errno. */
int line_log_open(const char *path, const char *header);
/* One line, in one write, fsync'd. 0, or -1 with errno. */
int line_log_append(int fd, const char *line, size_t len);
#endif
