/* What rdmarun tune searches: keys of a profile, each with the values to try.
 * By default from the installed stack and the node (tune/space.c says which
 * keys and why); a --space file narrows or extends it. */
#ifndef RDMARUN_TUNE_SPACE_H
#define RDMARUN_TUNE_SPACE_H
#include "facts/facts.h"
#include "profile/profile.h"
#include "tune/search.h"
#include "util/strvec.h"
#include <stdio.h>

struct tune_key {
    char *section, *key;    /* "ucx", "RNDV_THRESH" */
    struct strvec values;   /* the values to try: the base's first ("" when the base
                             * sets none: the tool's own default), then the others in
                             * their own order */
    char *from;             /* where the values came from: "the installed UCX 1.13.1",
                             * "space.ini:4" */
    char *requires;         /* SECTION.KEY=VALUE a value other than the base's needs too
                             * (coll_tuned_use_dynamic_rules=1 for an algorithm), or NULL */
};

struct tune_space {
    struct tune_key keys[TUNE_MAX_KEYS];
    size_t n;
};

/* The default space for profile `base` on the node `f`: UCX_TLS subsets of
 * the transports this UCX and this node have, the rendezvous and zero-copy
 * thresholds, UCX's own rendezvous schemes, rails on a multi-rail node, the
 * bind policies that apply and, when Open MPI's mpirun starts the ranks,
 * the algorithms of the collectives `colls` ("allreduce bcast"; NULL: none)
 * as its ompi_info lists them. */
void tune_space_default(struct tune_space *sp, const struct profile *base, const struct facts *f,
                        const char *colls);
/* The names of an Open MPI MCA parameter's enumerator in `ompi_info
 * --parsable` output ("mca:coll:tuned:param:NAME:enumerator:value:4:ring"),
 * in order, appended to out, and their numbers to codes (unless NULL); how
 * many. */
size_t ompi_info_enumerators(const char *text, const char *param, struct strvec *out,
                             struct strvec *codes);
/* A --space file (INI: [SECTION] KEY = V1 | V2 | ...; [tune] defaults = no
 * to search only the file's keys): its keys replace the default's values
 * for them. Every value is checked as a profile value is. An RR_EX_ status
 * after saying what is wrong, with file:line. */
int tune_space_read(struct tune_space *sp, const char *path, const struct profile *base,
                    const struct facts *f, const char *colls);
/* The index of [section] key in the space, or sp->n when it has none. */
size_t tune_space_find(const struct tune_space *sp, const char *section, const char *key);
/* The --set word of key k at value v ("ucx.RNDV_THRESH=64K"), or NULL for
 * the base's unset value. Caller frees. */
char *tune_space_set(const struct tune_space *sp, size_t k, unsigned v);
/* One line a key: "ucx.RNDV_THRESH: 1K 4K [auto] ... (the installed UCX 1.13.1)". */
void tune_space_print(const struct tune_space *sp, FILE *out);
void tune_space_free(struct tune_space *sp);

#endif
