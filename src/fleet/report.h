/* rdmarun report: the fleet view of many jobs' and checks' records, read
 * from folders: each run's verdict.json (an evidence folder), each
 * `rdmarun check --json` and `check --path-test --json` saved as a .json
 * file. Per node: checks and how many failed, with their fault codes and
 * the last time; runs and how many fell back to TCP; pairs of nodes whose
 * path test failed; the odd node out (one failing far more often than the
 * rest); and a plot of each node's days. */
#ifndef RDMARUN_FLEET_REPORT_H
#define RDMARUN_FLEET_REPORT_H
#include "util/strvec.h"
#include <stdbool.h>
#include <stdio.h>

enum report_format { REPORT_TABLE, REPORT_CSV, REPORT_JSON };

/* Reads every record under DIRS (files or folders; links never followed,
 * at most 8 levels down and 100,000 files) and prints the view. Returns 0,
 * or RR_EX_NOINPUT when a folder cannot be read or holds no record. */
int fleet_report(const struct strvec *dirs, enum report_format fmt, bool plot, FILE *out);

#endif
