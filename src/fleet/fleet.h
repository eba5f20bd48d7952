/* The fleet's records as rdmarun report reads them (records.c) and
 * prints them (report.c): per node, per pair of nodes, and every dated
 * event for the plot. */
#ifndef RDMARUN_FLEET_H
#define RDMARUN_FLEET_H
#include "util/strmap.h"
#include "util/strvec.h"
#include <stdbool.h>
#include <stddef.h>

#define FLEET_MAX_FILES 100000   /* .json files read at most */
#define FLEET_MAX_DEPTH 8        /* folder levels */

enum { EV_CHECK_OK, EV_CHECK_FAILED, EV_RUN_OK, EV_RUN_FELL_BACK };

struct node_stat {
    char *name;
    long checks, failed, runs, fell_back, pair_failed;
    long silent;           /* path tests it did not answer (counted in pair_failed too) */
    long long last_failed, last_fell_back, last_silent;
    struct strvec codes;   /* each fault code once ... */
    long *code_n;          /* ... and how often */
    size_t code_cap;
    struct strmap code_index;   /* a code's place in codes */
};

struct pair_stat {
    char *a, *b;   /* a < b */
    long tested, failed;
    long long last_failed;
    char *step;    /* the step the last failure stopped at */
};

struct fleet_event {
    size_t node;   /* index in nodes */
    long long time;
    int kind;
};

struct fleet {
    struct node_stat *nodes;
    size_t n, cap;
    struct pair_stat *pairs;
    size_t npairs, pcap;
    struct fleet_event *ev;
    size_t nev, evcap;
    long files, records, skipped;
    long undated;   /* records whose time is before 2000 or after tomorrow: not dated */
    bool full;   /* more files than it reads */
    struct strmap node_index, pair_index;   /* a name's place in nodes, "A\nB"'s in pairs */
};

/* Every record under DIRS into F (zeroed first); 0, or RR_EX_NOINPUT when
 * a path cannot be read. */
int fleet_read(const struct strvec *dirs, struct fleet *f);
void fleet_free(struct fleet *f);

#endif
