/* The plan: everything needed to run, each value with where it came from and
 * why. plan_build is a pure function of its request (profiles, facts, what
 * the command line said of the job): it reads no file and no environment, so
 * plans are golden-tested from recorded facts. */
#ifndef RDMARUN_PLAN_H
#define RDMARUN_PLAN_H
#include "facts/facts.h"
#include "plan/path.h"
#include "plan/placement.h"
#include "plan/ports.h"
#include "profile/profile.h"
#include "profile/settings.h"

enum item_kind { ITEM_ENV, ITEM_MCA, ITEM_OPTION };

/* Who set an item: the origin text says it for people, this for code. */
enum item_source {
    SOURCE_PROFILE,    /* a profile file, the environment or --set */
    SOURCE_AUTO,       /* `auto`, resolved from the facts */
    SOURCE_RULE,       /* a rule of rules.c */
    SOURCE_EVIDENCE,   /* the log settings rdmarun reads its evidence through */
    SOURCE_PLAN,       /* the plan itself (binding for the per-rank helper, --report) */
};

struct plan_item {
    enum item_kind kind;
    enum item_source source;
    char *name;        /* UCX_TLS, pml, --map-by */
    char *value;       /* NULL: unresolved, nothing is set */
    char *origin;      /* roce.ini:12, --set, environment, auto, rule:<id> */
    char *reason;      /* why this value (auto and rules), or NULL */
    bool overridden;   /* the command line sets it instead */
};

/* An MPMD app context after the first (`: -np 2 b`), or a line of an
 * appfile (--app FILE): its own mpirun options and program. */
struct app_context {
    struct strvec args;         /* its mpirun options, as given */
    struct strvec program;      /* PROGRAM ARGS... */
};

/* What the command line says about the job itself (cmd/options.c fills it). */
struct job_args {
    struct strvec mpirun_args;  /* mpirun options exactly as given */
    struct strvec user_env;     /* names given with -x */
    struct strvec user_mca;     /* MCA names given with --mca/-mca/-gmca */
    struct strvec user_opts;    /* binding options given: map-by, bind-to, rank-by, report-bindings */
    struct strvec program;      /* PROGRAM ARGS... */
    long np, ppn;               /* -np N and -N N as given (summed over the app
                                   contexts); -1 when not given */
    char *map_by;               /* --map-by as given, or NULL */
    struct app_context *contexts;   /* the app contexts after the first */
    size_t ncontexts, ncontexts_cap;
    char *appfile;              /* --app FILE: its lines are the contexts, and the
                                   plan writes them, completed, to `app` */
};

struct plan_request {
    const struct profile *profile;      /* the one asked for */
    /* For a profile with fabric = auto: the profiles it may choose, by name. */
    const struct profile *const *candidates;
    size_t ncandidates;
    const struct facts *facts;
    const struct job_args *job;
    /* rdmarun's own options as given, or NULL: the profile's, else the default */
    const char *verify, *launcher, *bind_policy, *mpi;
    /* The MPI the job's program is linked with (launch/program_mpi.c): enum
     * mpi_family, or -1 when it names none; and that library's name. */
    int program_mpi;
    const char *program_mpi_lib;
    /* The MPI the drop-in wrapper's name implies (mpiexec.hydra: MPICH), for
     * a program whose libraries name none; -1: none. */
    int wrapped_mpi;
    bool report;                        /* --report: each rank's placement */
    bool verbose;                       /* --verbose: the plan's details before the job */
    const char *threads;                /* --threads as given, or NULL: the profile's */
    const char *sysfs;                  /* --sysfs, handed on to the per-rank helper */
    /* Each launcher found, by enum launcher, or NULL (the bare name);
     * mpirun's found on PATH: the command names it "mpirun". */
    const char *found[MAX_LAUNCHERS];
    bool mpirun_on_path;
    bool stdbuf;                        /* PLAN_STDBUF_PATH is there (launcher exec) */
    const char *mpi_library;            /* "Open MPI 4.1.4", or NULL: unknown */
    const char *evidence_dir;           /* where ranks log their transports */
    const char *output_word;            /* a random word for Hydra's output labels, or NULL */
    const char *impi_debug;             /* I_MPI_DEBUG in rdmarun's environment, or NULL */
    bool evidence_made;                 /* it exists, made for this job (evidence_dir.c) */
    bool evidence_prune;                /* made from a template: older runs beside it pruned */
    const char *self;                   /* rdmarun's path, for the per-rank helper */
    const char *app_path;               /* --app: where the completed appfile goes */
    const struct strvec *hosts;         /* the nodes the job names (-H, hostfiles), or NULL */
    long alloc_nodes;                   /* the Slurm allocation's nodes, or -1 (0: none) */
};

/* A port the job uses, as preflight and the rules need it. */
struct plan_port {
    char name[80];                      /* "mlx5_0:1" as UCX_NET_DEVICES names it */
    const struct rdma_device *dev;      /* in the facts; NULL: not on this node */
    const struct rdma_port *port;
    int gid_index;                      /* the job's GID index; -1: none set */
};

struct plan {
    char *profile;       /* name asked for */
    char *chosen;        /* the profile whose values are used (differs for auto) */
    char *fabric;
    char *mpi_library, *ucx_version;  /* the stack planned for; NULL: unknown */
    struct setting verify;    /* enum verify_policy */
    struct setting expect;    /* enum expectation */
    struct setting launcher;  /* enum launcher */
    struct setting mpi;       /* enum mpi_family: the program's MPI, its vocabulary */
    struct setting bind;      /* enum bind_policy */
    struct setting memory;    /* enum memory_policy: [bind] memory of placed ranks */
    struct setting nics;      /* enum nic_choice: [bind] nics of placed ranks */
    char *threads;            /* OpenMP threads per placed rank: "auto", "N"; NULL: none set */
    char *threads_origin;
    bool smt;                 /* [bind] smt: threads = auto counts hardware threads */
    char *evidence_dir;  /* where the ranks' logs go; NULL when verify is off */
    bool evidence_made;  /* it exists, made for this job: the supervisor writes it */
    bool evidence_prune; /* and prunes the older run directories beside it (evidence_dir_prune) */
    /* The nodes the job's processes run on when the command line or the
     * allocation says (-H, a hostfile, a Slurm allocation: distinct names);
     * -1 when nothing does (mpirun may still read a default hostfile). */
    long job_nodes;
    bool evidence_files; /* the ranks write their reports there (their output goes to
                            files): read when the job ends, not live */
    /* Hydra's mpiexec labels every piece of output it forwards with this and
     * the rank (-prepend-pattern LABEL%r]): the supervisor joins each rank's
     * pieces into lines (evidence/demux.c). NULL: not labelled. */
    char *output_label;
    bool output_rank_prefix; /* the job asked for -l: its lines get "[RANK] " back */
    struct strvec files;     /* profile files the values come from */
    struct plan_item *items;
    size_t n, cap;
    bool qp_test;            /* [check] qp-test: the RC loopback before launch (default yes) */
    /* [check] qp-test on a fabric libfabric carries: the libfabric pair
     * test of its provider before launch */
    bool fi_pair_test;
    bool path_test;          /* the path test between the job's nodes runs before it */
    struct path_plan path;   /* its command, when path_test */
    struct plan_port ports[MAX_PORTS];   /* UCX_NET_DEVICES, as ports; none when unset */
    size_t nports;
    struct strvec notes;     /* things the user should know */
    struct strvec details;   /* and what only --dry-run and --verbose say (a setting of
                                another MPI's left out) */
    struct strvec errors;    /* reasons the plan cannot run */
    int status;              /* RR_EX_* for the first error, 0 if none */
    struct strvec argv;      /* the command to exec */
    char *exec_path;         /* the file to exec it from, when argv[0] is a bare name */
    char *app_path;          /* --app: the completed appfile argv names, or NULL */
    struct strvec app_lines; /* its lines, for the run to write */
    struct placement *placement;  /* the helper's choice on this node's facts, for
                                     the ranks per node given (-N, else -np); or NULL */
};

void plan_build(const struct plan_request *rq, struct plan *out);
/* A reason the plan cannot run (msg is owned); the first one's status is the plan's. */
void plan_fail(struct plan *p, int status, char *msg);
/* The program that runs commands with variables set: `env VAR=VALUE... COMMAND`. */
#define PLAN_ENV_PATH "/usr/bin/env"
/* coreutils' stdbuf, which launcher exec runs COMMAND under: every process
 * below it writes its stdout a line at a time (argv_exec.c). */
#define PLAN_STDBUF_PATH "/usr/bin/stdbuf"
/* --threads / [bind] threads as a count: -1 auto, 0 none (or NULL), -2 not one. */
int threads_value(const char *v);
void job_contexts_free(struct job_args *job);
/* A port as preflight tests it: gid_index >= 0 is used, else the routable
 * RoCE v2 GID on Ethernet, none on InfiniBand. */
void plan_port_of(struct plan_port *pp, const struct rdma_device *d, const struct rdma_port *port,
                  int gid_index);
void plan_free(struct plan *p);
/* Whether the per-rank helper sets environment variable `name` for each
 * rank: an `auto` value the command line does not override (items.c). */
bool plan_per_rank(const struct plan *p, const char *name);
/* Whether the helper sets the fabric's own per-rank NIC variable (ports.h,
 * rank_var): rdmarun places the ranks and the job sets no value of its own. */
bool plan_fabric_nics(const struct plan *p);
/* The libfabric provider of the job's fabric (efa, cxi, opx), which the
 * pair test checks before launch; NULL: a fabric of no provider. */
const char *plan_fi_provider(const struct plan *p);
/* Whether placement gives Cray MPICH its USER NIC mapping (an MPICH job on
 * Slingshot, no mapping or other policy of the user's). */
bool plan_cray_nic_mapping(const struct plan *p);
/* One item's strings (an item that leaves the plan). */
void plan_item_free(struct plan_item *it);
const struct plan_item *plan_find(const struct plan *p, enum item_kind kind, const char *name);
/* verify = strict: the libraries' fail-closed switches the node's facts
 * make safe (strict.c). */
void plan_strict_switches(struct plan *p, const struct facts *f);
/* Settings harmful on the plan's fabric (harmful.c): strict stops the job
 * (status 78), else a warning. */
void plan_harmful_settings(struct plan *p, const struct facts *f);
/* What the fabric needs beside its NICs (fabric_libs.c): its libfabric
 * provider, NCCL's plugin for it, TCPX's RxDM. */
void plan_fabric_libs(struct plan *p, const struct facts *f);
/* Whether the plan verifies the job (verify is not off). */
bool plan_verifies(const struct plan *p);

/* Output (plan_print.c). */
void plan_print_text(const struct plan *p, FILE *out, bool detail);
void plan_print_json(const struct plan *p, FILE *out);

#endif
