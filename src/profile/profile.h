/* Tuning profiles: INI files read with inih, merged through inheritance, with
 * the origin of every value kept so that a plan can say where it came from. */
#ifndef RDMARUN_PROFILE_H
#define RDMARUN_PROFILE_H
#include "util/strvec.h"
#include <stdbool.h>
#include <stdio.h>

enum origin_kind {
    ORIGIN_DEFAULT, /* built into rdmarun */
    ORIGIN_FILE,    /* a profile file, with its line */
    ORIGIN_ENV,     /* UCX_*, NCCL_*, OMPI_MCA_* already in rdmarun's environment */
    ORIGIN_SET,     /* --set section.key=value */
    ORIGIN_X,       /* mpirun's -x NAME=VALUE on the command line (checked, not applied) */
};

struct entry {
    char *section;      /* canonical section name */
    char *key;          /* canonical key (see schema_canonical_key) */
    char *value;
    enum origin_kind kind;
    char *file;         /* ORIGIN_FILE: path as found */
    int line;
};

struct profile {
    char *name;            /* as asked for (-p NAME or PATH) */
    char *path;            /* the top file */
    struct strvec files;   /* every file read, parents first */
    struct entry *e;
    size_t n, cap;
    /* UCX_/NCCL_ variables of the environment that configure nothing there
     * (UCX_ROOT), passed through untouched: a note each, with a suggestion. */
    struct strvec passed;
};

/* Directories searched for NAME.ini, in order (see rdmarun-profile(5)). */
void profile_search_path(struct strvec *dirs);
/* Path of profile `name` ("roce" or a path to a file), or NULL. Caller frees. */
char *profile_find(const char *name, const struct strvec *dirs);

/* Load and merge a profile and its parents. Prints every problem with its
 * file:line and returns an RR_EX_* status (0 when loaded). */
int profile_load(const char *name, const struct strvec *dirs, struct profile *out);
void profile_free(struct profile *p);

const struct entry *profile_get(const struct profile *p, const char *section, const char *key);
const char *profile_value(const struct profile *p, const char *section, const char *key);
/* Set or replace a value; a replaced value keeps its position. */
void profile_put(struct profile *p, const char *section, const char *key, const char *value,
                 enum origin_kind kind, const char *file, int line);
/* --set section.key=value. Returns an RR_EX_* status. */
int profile_apply_set(struct profile *p, const char *assignment);
/* Tool variables already in the environment override the profile, as they
 * would have without rdmarun. Returns an RR_EX_* status. */
int profile_apply_env(struct profile *p, char *const *envp);
/* mpirun's own -x NAME=VALUE assignments, checked as the environment is (a
 * bad value of a real UCX or NCCL variable is an error; one that configures
 * nothing gets a note in p->passed); they stay mpirun's: nothing is added
 * to p. Returns an RR_EX_* status. */
int profile_check_x(struct profile *p, const struct strvec *assignments);
/* Type checks of every value (files, environment, --set) and UCX's own check
 * of the [ucx] section; a size UCX cannot read as written (8MiB) becomes its
 * byte count. Returns an RR_EX_* status. */
int profile_validate(struct profile *p);
/* What a job or a command uses: load, then the environment, then --set
 * (sets), then validate. Returns an RR_EX_* status. */
int profile_load_for_job(const char *name, const struct strvec *dirs, const struct strvec *sets,
                         struct profile *p);

/* "roce.ini:12", "--set", "environment", "default". Caller frees. */
char *entry_origin(const struct entry *e);
/* The merged profile as a profile file ('rdmarun profiles show'): every value
 * not built in, by section, each with its origin as a comment. Read back, it
 * gives the same values. */
void profile_write(const struct profile *p, FILE *out);

/* One line per profile found on the search path, for 'rdmarun profiles'. */
struct profile_info {
    char *name, *path, *description;
    bool shadowed;   /* an earlier directory has a profile of the same name */
};
void profile_list(const struct strvec *dirs, struct profile_info **out, size_t *n);
void profile_info_free(struct profile_info *list, size_t n);

#endif
