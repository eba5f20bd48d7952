/* Open MPI's coll/tuned dynamic rules file (coll_tuned_dynamic_rules_filename),
 * the version-1 format every 4.1 and 5.0 release reads
 * (ompi/mca/coll/tuned/coll_tuned_dynamic_file.c): one collective, one
 * communicator-size block, a rule per message size from 0 up, for each
 * collective tuned. Open MPI drops
 * a file it cannot read without a word (its messages are compiled out of
 * release builds), so what is written is read back and checked here first. */
#ifndef RDMARUN_TUNE_COLL_RULES_H
#define RDMARUN_TUNE_COLL_RULES_H
#include <stdbool.h>
#include <stddef.h>

/* The id of the collective NAME (the NAME of coll/tuned's
 * coll_tuned_NAME_algorithm: "allreduce", "reduce_scatter_block"), as
 * COLLTYPE in ompi/mca/coll/base/coll_base_functions.h numbers it; -1 for a
 * name coll/tuned takes no rules for. */
int coll_id(const char *name);

struct coll_rule {
    unsigned long long from;   /* message size in bytes: this rule up to the next one's */
    long alg;                  /* the algorithm's number (0: Open MPI's fixed decision) */
    const char *why;           /* a comment, or NULL */
};

/* One collective's rules: from ascending, the first from 0. */
struct coll_block {
    const char *name;           /* coll_id's NAME */
    struct coll_rule *rules;
    size_t n;
};

/* The file's text: each collective's block (in ascending id order), a
 * comment line each rule. Caller frees. */
char *coll_rules_text(const char *header, const struct coll_block *blocks, size_t n);
#define COLL_COUNT 22   /* COLLTYPE's COLLCOUNT */

/* Whether text is a version-1 rules file Open MPI reads whole: counts that
 * match, collective ids below 22, each once, none of those coll/tuned cannot
 * take (5, 10, 16), each block's first rule at 0, sizes ascending,
 * algorithms from 0 to max_alg[id] (this Open MPI's highest for that
 * collective). false with *why (caller frees). */
bool coll_rules_check(const char *text, const long max_alg[COLL_COUNT], char **why);

#endif
