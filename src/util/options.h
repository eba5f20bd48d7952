/* Option tables: one row per option says its spelling, which commands take
 * it, where its value goes and its help; parsing, --help and writing an
 * argv back (the per-rank helper's command) are all driven by the table, so
 * an option is added in one place. */
#ifndef RDMARUN_UTIL_OPTIONS_H
#define RDMARUN_UTIL_OPTIONS_H
#include "util/strvec.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_type {
    OPT_FLAG,    /* bool */
    OPT_VALUE,   /* char *: --name VALUE or --name=VALUE */
    OPT_LIST,    /* struct strvec: repeatable --name VALUE */
};

struct opt {
    const char *name;      /* long name without "--" */
    const char *alias;     /* another spelling with its dashes ("-p"), or NULL */
    unsigned scope;        /* bit mask: the commands that take it (the table's owner says) */
    enum opt_type type;
    size_t offset;         /* of its field in the table's struct */
    const char *choices;   /* "a|b|c": the only values taken; NULL: any */
    const char *metavar;   /* the value's name in --help */
    const char *help;      /* one line or more; "\n" breaks it */
};

/* If argv[*i] is an option of the table in `scope`, store it into base and
 * return 1, with *i on its last word; 0 when it is not one; -1 after an error
 * message (a missing value, a value outside its choices). */
int opt_parse(const struct opt *table, size_t n, unsigned scope, void *base, int argc,
              char **argv, int *i);
/* Append the options of `scope` that are set in base, as --name [VALUE]. */
void opt_write(const struct opt *table, size_t n, unsigned scope, const void *base,
               struct strvec *argv);
/* The options of `scope`, one help entry each, but those of `shown` (a
 * section printed before). */
void opt_help(const struct opt *table, size_t n, unsigned scope, unsigned shown, FILE *out);
/* One option's help entry; brief: only its first line, cut before an
 * unclosed parenthesis and a trailing ';' or ','. */
void opt_help_one(const struct opt *o, bool brief, FILE *out);
/* Free the values the table's fields hold in base. */
void opt_free(const struct opt *table, size_t n, void *base);

#endif
