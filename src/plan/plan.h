/* The plan: everything needed to run, each value with where it came from and
 * why. plan_build is a pure function of (profiles, facts, command line): it
 * reads no file and no environment, so plans are golden-tested from
 * recorded facts. */
#ifndef RDMARUN_PLAN_H
#define RDMARUN_PLAN_H
#include "cmd/options.h"
#include "facts/facts.h"
#include "plan/placement.h"
#include "profile/profile.h"

enum item_kind { ITEM_ENV, ITEM_MCA, ITEM_OPTION };

struct plan_item {
    enum item_kind kind;
    char *name;        /* UCX_TLS, pml, --map-by */
    char *value;       /* NULL: unresolved, nothing is set */
    char *origin;      /* roce.ini:12, --set, environment, auto, rule:<id> */
    char *reason;      /* why this value (auto and rules), or NULL */
    bool overridden;   /* the command line sets it instead */
};

struct plan_input {
    const struct profile *profile;      /* the one asked for */
    /* For a profile with fabric = auto: the profiles it may choose, by name. */
    const struct profile *const *candidates;
    size_t ncandidates;
    const struct facts *facts;
    const struct cmdline *cmd;
    const char *launcher;               /* "mpirun" or "srun" */
    const char *mpirun;                 /* the launcher's path */
    const char *evidence_dir;           /* where ranks log their transports */
    const char *self;                   /* rdmarun's path, for the per-rank helper */
};

struct plan {
    char *profile;       /* name asked for */
    char *chosen;        /* the profile whose values are used (differs for auto) */
    char *fabric;
    char *policy;        /* verify: off, warn, strict */
    char *expect;        /* what the job should run on: rdma, tcp, local, any */
    char *evidence_dir;  /* NULL when policy is off */
    struct strvec files;     /* profile files the values come from */
    struct plan_item *items;
    size_t n, cap;
    struct strvec notes;     /* things the user should know */
    struct strvec errors;    /* reasons the plan cannot run */
    int status;              /* RR_EX_* for the first error, 0 if none */
    struct strvec argv;      /* the command to exec */
    char *launcher;          /* mpirun or srun */
    char *bind_policy;       /* none, or how the per-rank helper places ranks */
    struct placement *placement;  /* the helper's choice on this node's facts, for
                                     the ranks per node given (-N, else -np); or NULL */
};

void plan_build(const struct plan_input *in, struct plan *out);
void plan_free(struct plan *p);
const struct plan_item *plan_find(const struct plan *p, enum item_kind kind, const char *name);

/* Output (plan_print.c). */
void plan_print_text(const struct plan *p, FILE *out);
void plan_print_json(const struct plan *p, FILE *out);

#endif
