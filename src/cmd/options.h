/* The command line: rdmarun's own options, then mpirun's, then the program.
 * mpirun options are kept verbatim and in order; the ones that can override a
 * profile value are also noted so that the plan can let them win. */
#ifndef RDMARUN_CLI_H
#define RDMARUN_CLI_H
#include "util/strvec.h"
#include <stdbool.h>
#include <stdio.h>

enum command {
    CMD_RUN, CMD_PROFILES, CMD_PROFILES_SHOW, CMD_PROBE, CMD_VERIFY, CMD_CHECK, CMD_HELP,
    CMD_VERSION, CMD_RANK, CMD_COMPARE
};

struct cmdline {
    enum command command;
    char *profile;           /* -p/--profile; NULL = default */
    struct strvec sets;      /* --set section.key=value */
    bool dry_run, json;
    char *mpirun;            /* --mpirun PATH */
    char *launcher;          /* --launcher mpirun|srun, or NULL: the profile's */
    char *sysfs;             /* --sysfs DIR (recorded tree instead of /sys) */
    char *topology;          /* --topology FILE.xml (hwloc XML instead of this node) */
    char *facts;             /* --facts FILE.json (saved probe --json) */
    char *verify;            /* --verify off|warn|strict, or NULL: the profile's */
    char *evidence_dir;      /* --evidence-dir DIR */
    bool qp_test;            /* check --qp-test */
    char *device;            /* check --device DEV[:PORT] */
    char *gid_index;         /* check --gid-index N */
    char *show_name;         /* profiles show NAME */
    char *bind_policy;       /* --bind-policy, or NULL: the profile's */
    bool report;             /* --report: the placement of each rank */
    /* rdmarun rank (the per-rank helper), as the plan writes its command */
    char *memory, *nics, *fabric;   /* --memory, --nics, --fabric */
    bool net_devices, nccl_hca;     /* --net-devices, --nccl-hca: set them per rank */
    bool keep_cpus;                 /* --keep-cpus: Open MPI binds, cores are left alone */
    /* rdmarun check (health) */
    char *config, *scontrol, *node;  /* --config, --scontrol, --node */
    bool drain;                      /* --drain */
    /* rdmarun compare */
    char *np_list, *repeat, *warmup, *metric, *baseline, *output, *resume;

    struct strvec mpirun_args;  /* mpirun options exactly as given */
    struct strvec user_env;     /* names given with -x */
    struct strvec user_mca;     /* MCA names given with --mca/-mca/-gmca */
    struct strvec user_opts;    /* binding options given: map-by, bind-to, rank-by, report-bindings */
    struct strvec program;      /* PROGRAM ARGS... */
    long np, ppn;               /* -np N and -N N as given; -1 when not given */
    char *map_by;               /* --map-by as given, or NULL */
};

/* Returns 0, or an RR_EX_* status after printing the problem. */
int cli_parse(int argc, char **argv, struct cmdline *cl);
void cli_free(struct cmdline *cl);
void cli_usage(FILE *out);

#endif
