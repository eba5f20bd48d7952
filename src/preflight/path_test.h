/* The path test from the launch node: run the plan's launcher with one peer
 * per node (plan/path.h), within its total deadline, read the peers'
 * records from its output (the launcher's own messages are shown as they
 * are), and say what they add up to (path_report.h). */
#ifndef RDMARUN_PATH_TEST_H
#define RDMARUN_PATH_TEST_H
#include "plan/path.h"
#include "util/strvec.h"
#include <stdbool.h>

/* 0 when every pair passed (warnings aside), RR_EX_PATH when a pair or node
 * failed, RR_EX_NOTFOUND when the launcher cannot be run. quiet: the
 * summary, failures and warnings only (before a job); else every pair too;
 * json: all of it as one JSON document on stdout instead. When a path
 * failed, each of its nodes is tested again with a node that passed every
 * path, and a node that fails there too is the bad side: added to BAD
 * (may be NULL) as "NODE<TAB>why". */
int path_test_run(const struct path_plan *pp, bool quiet, bool json, struct strvec *bad);

#endif
