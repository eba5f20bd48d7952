#ifndef RDMARUN_COMPARE_PLAN_FILE_H
#define RDMARUN_COMPARE_PLAN_FILE_H
/* A top-level string of a plan saved as JSON; NULL when absent or unreadable. */
char *plan_file_string(const char *path, const char *key);
#endif
