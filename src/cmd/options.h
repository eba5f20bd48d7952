/* The command line: the subcommand, rdmarun's own options (one table in
 * options.c drives parsing and --help), then mpirun's options, kept
 * verbatim and in order, then the program. */
#ifndef RDMARUN_OPTIONS_H
#define RDMARUN_OPTIONS_H
#include "plan/plan.h"
#include "plan/rank_args.h"
#include "util/strvec.h"
#include <stdbool.h>
#include <stdio.h>

/* Bits, so that an option row names every command that takes it. */
enum command {
    CMD_RUN = 1 << 0, CMD_PROFILES = 1 << 1, CMD_PROBE = 1 << 2, CMD_VERIFY = 1 << 3,
    CMD_CHECK = 1 << 4, CMD_RANK = 1 << 5, CMD_COMPARE = 1 << 6, CMD_HELP = 1 << 7,
    CMD_VERSION = 1 << 8, CMD_PATH_PEER = 1 << 9, CMD_TUNE = 1 << 10, CMD_REPORT = 1 << 11,
    CMD_JUDGE = 1 << 12,
};

struct cmdline {
    enum command command;
    enum command help_for;   /* --help: the command it was given to (0: none) */
    bool help_all;           /* --help all */
    char *color;             /* --color auto|always|never */
    char *profile;           /* -p/--profile; NULL = default */
    struct strvec sets;      /* --set section.key=value */
    bool dry_run, json;
    bool verbose;            /* profiles -v: each profile's file */
    char *mpirun;            /* --mpirun PATH */
    char *launcher;          /* --launcher LAUNCHERS (settings.h), or NULL: the profile's */
    char *mpi;               /* --mpi openmpi|mpich, or NULL: the profile's, else the program's */
    char *sysfs;             /* --sysfs DIR (recorded tree instead of /sys) */
    char *topology;          /* --topology FILE.xml (hwloc XML instead of this node) */
    char *facts;             /* --facts FILE.json (saved probe --json) */
    char *verify;            /* --verify off|warn|strict, or NULL: the profile's */
    char *expect;            /* verify --expect: judge the verdict against it */
    char *evidence_dir;      /* --evidence-dir DIR */
    char *bind_policy;       /* --bind-policy, or NULL: the profile's */
    char *threads;           /* --threads N|auto, or NULL: the profile's [bind] threads */
    bool report;             /* --report: the placement of each rank */
    /* rdmarun check */
    bool qp_test;                    /* --qp-test */
    char *fi_pair;                   /* --fi-pair PROVIDER */
    char *provider;                  /* check --path-test, path-peer --provider PROVIDER */
    bool path_test, all_pairs;       /* --path-test, --all-pairs */
    char *path_timeout, *step_timeout;   /* --path-timeout S; path-peer --step-timeout S */
    char *device, *gid_index;        /* --device DEV[:PORT], --gid-index N */
    char *config, *scontrol, *node;  /* --config, --scontrol, --node (judge: a description) */
    char *prometheus;        /* check --prometheus FILE: node-exporter's textfile */
    char *manifest;          /* check --manifest FILE: a good node's probe --json */
    bool epilog;             /* check --epilog: counters during the job, against its prolog's */
    bool drain;                      /* --drain */
    /* rdmarun compare */
    char *np_list, *repeat, *warmup, *metric, *baseline, *output, *resume;
    bool higher;             /* --higher-is-better */
    /* rdmarun tune */
    char *space, *budget;    /* --space FILE, --budget N|TIME */
    char *benchmark;         /* tune --benchmark mpi|ucx */
    char *validate;          /* --validate DIR */
    bool no_validate;        /* --no-validate */
    bool keys;               /* profiles --keys */
    bool csv, plot;          /* report --csv, --plot */
    /* rdmarun profiles show NAME */
    char *show_name;

    struct rank_args rank;   /* rdmarun rank: the helper's options (plan/rank_args.c) */
    struct job_args job;     /* mpirun's options and the program */
};

/* Returns 0, or an RR_EX_* status after printing the problem. */
int cli_parse(int argc, char **argv, struct cmdline *cl);
/* words.c: rdmarun's own options after the program (run: a warning, and
 * asked on a terminal or refused under --verify strict; compare and tune:
 * refused); 0 or RR_EX_USAGE, said. */
int cli_program_words(const struct cmdline *cl);
/* words.c: --sysfs, --topology or --facts on a real run: refused (add
 * --dry-run); 0 or RR_EX_USAGE, said. */
int cli_recorded_node(const struct cmdline *cl);
/* words.c: "-np2" as "-np 2" in out (a count option of mpirun's with its
 * number glued on); false for any other word. */
bool cli_glued_count(const char *word, char *out, size_t n);
/* words.c: the command a first word nearly spells ('prob'), when it is no
 * program on PATH: a usage error (true, said). */
bool cli_near_command(const char *word);
void cli_free(struct cmdline *cl);
/* One app context's words (an MPMD part after ":", or an appfile's line)
 * into c; the words used, or -1 after saying why. */
int cli_parse_context(struct job_args *job, char **words, int n, struct app_context *c);
/* The options of a run that a command which runs jobs itself (tune) gives
 * each of them: every run option set on its command line but -p and
 * --evidence-dir, which it sets per run. */
void cli_job_options(const struct cmdline *cl, struct strvec *argv);
/* --gid-index's value (NULL: -1, none given); false after saying why. */
bool cli_gid_index(const char *value, long *out);
/* A libfabric provider name as fi_info -p takes it ("verbs;ofi_rxm"):
 * letters, digits, '_', '-', ';', at most 64; else said (OPTION names it). */
bool cli_provider_ok(const char *option, const char *value);
/* --help, rdmarun help [CMD]: for CMD_RUN the grouped global help (all: the usage of every
 * command, then every option of the tables); for another command its usage,
 * what it does and its options. */
void cli_usage(FILE *out, enum command command, bool all);

/* rdmarun's own options (cli_table.c): every row is parsed, shown in
 * --help and freed from there. */
struct opt;
extern const struct opt cli_options[];
extern const size_t cli_noptions;

#endif
