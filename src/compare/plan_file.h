#ifndef RDMARUN_COMPARE_PLAN_FILE_H
#define RDMARUN_COMPARE_PLAN_FILE_H
/* A top-level string of a plan saved as JSON; NULL when absent or unreadable. */
char *plan_file_string(const char *path, const char *key);
#include "util/strvec.h"
/* Why a plan could not be made: its "errors" when the file is a plan, else
 * the "error: " lines rdmarun wrote there instead. */
void plan_file_errors(const char *path, struct strvec *out);
#endif
