/* The job's own evidence directory, on the launch node only: the supervisor
 * writes it (the ranks' reports come to it through the launcher's output).
 * Its parent, when rdmarun creates it (./rdmarun-evidence), is group-writable
 * and sticky, so a teammate's job in the same working directory makes its own
 * directory beside ours and neither can remove the other's. */
#ifndef RDMARUN_EVIDENCE_DIR_H
#define RDMARUN_EVIDENCE_DIR_H
#include <stdbool.h>

/* Make it, fresh: in a directory that already exists (--evidence-dir given
 * again), rdmarun's files of the earlier job are removed first. dry: only
 * see whether it could be made. 0, or -1 with errno. */
int evidence_dir_make(const char *dir, bool dry);
/* The warning when it cannot be made (the job runs; the verdict is kept in
 * memory). */
void evidence_dir_warn(const char *dir, int err);

#endif
