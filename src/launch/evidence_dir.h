/* The job's own evidence directory, on the launch node only: the supervisor
 * writes it (the ranks' reports come to it through the launcher's output).
 * rdmarun runs as every user of a cluster and as root in prologs, so the
 * directory is one no one else could have made or named beforehand, and
 * nothing in it is written through a symlink or over someone's file. */
#ifndef RDMARUN_EVIDENCE_DIR_H
#define RDMARUN_EVIDENCE_DIR_H
#include <stdbool.h>

/* The default run directory's name under ROOT: HOST.PID.TIME.XXXXXX (the
 * suffix mkdtemp's). */
char *evidence_dir_template(const char *root);
/* Makes the job's directory and returns its path, or NULL with errno.
 * exact (--evidence-dir DIR): DIR is made (0700) when missing; an existing
 * DIR of this user's that is empty or holds only an earlier rdmarun job's
 * files is used (those files removed); any other existing DIR gets a fresh
 * run directory inside it, so no one's file is ever removed or replaced.
 * Otherwise `dir` is a template (evidence_dir_template): its root is made
 * when missing (group-writable and sticky: a teammate's job in the same
 * working directory makes its own directory beside ours and neither can
 * remove the other's), and the run directory is made with mkdtemp. A
 * directory others may write without the sticky bit, or another user's, is
 * refused (EPERM). */
char *evidence_dir_make(const char *dir, bool exact);
/* The directory evidence_dir_make made or took, open (O_NOFOLLOW) for the
 * process's life; -1 before. */
int evidence_dir_fd(void);
/* After a template's run directory `made` is made: this user's oldest run
 * directories beside it beyond RDMARUN_EVIDENCE_KEEP (default 20, 0: keep
 * all) are removed. The supervisor does it once the job has started, so
 * that it is not in the job's start time. */
void evidence_dir_prune(const char *made);
/* Whether it could be made (the dry run's prediction). 0, or -1 with errno. */
int evidence_dir_check(const char *dir, bool exact);
/* The warning when it cannot be made (the job runs; the verdict is kept in
 * memory). */
void evidence_dir_warn(const char *dir, int err);

#endif
