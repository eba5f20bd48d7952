/* The job's mpirun-style words (Open MPI's options, as job scripts give
 * them), each read as what it asks for, so that a launcher's file turns
 * that into its own words (srun, flux, PALS). */
#ifndef RDMARUN_JOB_WORDS_H
#define RDMARUN_JOB_WORDS_H
#include "plan/plan.h"
#include "util/strvec.h"

enum job_word {
    JW_OTHER,            /* an option none of the below: the launcher's own, or a word */
    JW_NP,               /* -np/-n/-c N: ranks in all */
    JW_PPN,              /* -N/--npernode N: ranks per node */
    JW_HOSTS,            /* -H/--host LIST */
    JW_HOSTFILE,         /* --hostfile/--machinefile FILE */
    JW_ENV,              /* -x VAR=VALUE (value: the assignment) or -x VAR */
    JW_MCA,              /* --mca/--gmca NAME VALUE */
    JW_BIND_TO,          /* --bind-to KIND */
    JW_MAP_BY,           /* --map-by KIND */
    JW_RANK_BY,          /* --rank-by KIND */
    JW_WDIR,             /* --wdir/--wd DIR */
    JW_REPORT_BINDINGS,  /* --report-bindings */
    JW_QUIET,            /* --allow-run-as-root, --oversubscribe: mpirun's own, nothing to do */
};

struct job_word_at {
    enum job_word kind;
    const char *word;    /* the option as given ("-np") */
    const char *value;   /* its value; NULL: none */
    const char *value2;  /* --mca's value (value is its name) */
};

/* The word at a->v[*i], and *i moved past its values. */
struct job_word_at job_word_next(const struct strvec *a, size_t *i);
/* -H's list without Open MPI's ":slots" ("a:2,b" -> "a,b"); *count: its
 * hosts. Caller frees. */
char *job_hosts_bare(const char *list, size_t *count);
/* A word no translation took (JW_OTHER), for LAUNCHER (its --launcher
 * word and its TITLE): an option is refused (64) with HINT, the words it
 * has; any other word goes onto argv as it is. */
void job_word_other(struct plan *p, const char *launcher, const char *title, const char *hint,
                    const char *word, struct strvec *argv);

#endif
