/* Open MPI's coll/tuned dynamic rules file (coll_tuned_dynamic_rules_filename),
 * the version-1 format every 4.1 and 5.0 release reads
 * (ompi/mca/coll/tuned/coll_tuned_dynamic_file.c): one collective, one
 * communicator-size block, a rule per message size from 0 up. Open MPI drops
 * a file it cannot read without a word (its messages are compiled out of
 * release builds), so what is written is read back and checked here first. */
#ifndef RDMARUN_TUNE_COLL_RULES_H
#define RDMARUN_TUNE_COLL_RULES_H
#include <stdbool.h>
#include <stddef.h>

#define COLL_ALLREDUCE 2   /* COLLTYPE in ompi/mca/coll/base/coll_base_functions.h */

struct coll_rule {
    unsigned long long from;   /* message size in bytes: this rule up to the next one's */
    long alg;                  /* the algorithm's number (0: Open MPI's fixed decision) */
    const char *why;           /* a comment, or NULL */
};

/* The file's text: collective colid, its rules (from ascending, the first
 * from 0), a comment line each. Caller frees. */
char *coll_rules_text(const char *header, int colid, const struct coll_rule *rules, size_t n);
/* Whether text is a version-1 rules file Open MPI reads whole: counts that
 * match, collective ids below 22 and none of those coll/tuned cannot take
 * (5, 10, 16), each block's first rule at 0, sizes ascending, algorithms
 * from 0 to max_alg. false with *why (caller frees). */
bool coll_rules_check(const char *text, long max_alg, char **why);

#endif
