/* Open MPI's appfile (--app FILE): one app context per line, its words
 * split at white space, '#' to the end of a line a comment (as orterun and
 * prte read it: no quoting). */
#ifndef RDMARUN_CMD_APPFILE_H
#define RDMARUN_CMD_APPFILE_H
#include "plan/plan.h"

/* Each non-empty line of `text` becomes one of job's contexts. `name` is
 * the file's, for errors (NAME:LINE). Returns 0 or RR_EX_DATAERR. */
int appfile_parse(const char *text, const char *name, struct job_args *job);
/* Read and parse the file job->appfile names: 0 or an RR_EX_* status. */
int appfile_read(struct job_args *job);

#endif
