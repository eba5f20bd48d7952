/* The launchers: what rdmarun knows of each is one row of the launcher
 * table (launcher.c), as lstopo's backends are one struct of methods each:
 * its word, the file that turns a plan into its command (argv_*.c), how it
 * is found and installed, how its ranks' output comes back, and the
 * variables that tell its ranks their local rank. Every stage asks the row.
 * Adding a launcher is a file here, a row of the table and its word in
 * settings.h's LAUNCHERS (the profile schema's list, which test_launcher
 * holds to the table). */
#ifndef RDMARUN_LAUNCHERS_H
#define RDMARUN_LAUNCHERS_H
#include "plan/plan.h"

/* One launcher's row. */
struct launcher_desc {
    const char *word;          /* [profile] launcher, --launcher */
    const char *title;         /* as messages name it: "Hydra's mpiexec (...)" */
    void (*argv)(struct plan *p, const struct plan_request *rq);
    /* Finding it: the programs looked for on PATH, in order (none: COMMAND
     * is the launcher), first beside the program's MPI library where
     * beside_mpi; one found on PATH counts only when its real path has
     * real_path_has; the variable that names its path instead; the hint
     * when it is not there. */
    const char *programs[3];
    bool beside_mpi;
    const char *real_path_has, *path_var, *install_hint;
    /* Whose help lists the options of its job words (mpirun's words are
     * what exec, Flux and PALS are told, translated by the plan). */
    enum launcher help;
    /* The MPI family it alone starts (Open MPI's mpirun, Hydra for MPICH's
     * ABI), -1: any; and the hint when the program's MPI is the other. */
    int mpich_abi;
    const char *other_mpi_hint;
    bool pipes;                /* the ranks' output reaches rdmarun through pipes, not a pty */
    bool command_is_launcher;  /* COMMAND starts the workers (exec): one rdmarun per node */
    /* Who starts the path test's peers between nodes: LAUNCHER_MPIRUN or
     * LAUNCHER_SRUN; -1: none (one rdmarun per node, or Flux's and PALS's
     * jobs, tested with 'rdmarun check --path-test'). */
    int path_test;
    /* The variables its ranks are told their local rank, local size and
     * rank by; a size of "SLURM_TASKS_PER_NODE" is read from that list by
     * the node's index. Inherited ones (srun's reach every process started
     * below its tasks) are read after every other launcher's. */
    const char *local_rank[2][3];
    bool rank_vars_inherited;
};

/* The row of launcher `kind` (enum launcher, or a row added), or NULL. */
const struct launcher_desc *launcher_of(int kind);
/* How many rows; their words in order, NULL-terminated (setting_resolve's). */
int launcher_count(void);
const char *const *launcher_words(void);
/* A row added after the built-in ones (the unit tests' dummy launcher):
 * its kind, or -1 when the table is full or the word is taken. */
int launcher_add(const struct launcher_desc *row);

/* Open MPI's mpirun (argv_mpirun.c): -x, --mca, every app context, --app. */
void mpirun_argv(struct plan *p, const struct plan_request *rq);
/* MPICH's Hydra mpiexec (argv_hydra.c): -genv; Open MPI's options translated. */
void hydra_argv(struct plan *p, const struct plan_request *rq);
/* srun (argv_srun.c): `env VAR=VALUE... srun ...`, Open MPI's options translated,
 * untranslatable ones noted. */
void srun_argv(struct plan *p, const struct plan_request *rq);
/* launcher = exec (argv_exec.c): `env VAR=VALUE... stdbuf -oL COMMAND ARGS`
 * from the plan's variables (stdbuf when the job is verified and it is
 * there); its MCA parameters and mpirun options are dropped. Of the job's
 * mpirun-style options -np/-N (the placement shown) and -x VAR=VALUE (the
 * environment) are taken; any other is refused (64). */
void exec_argv(struct plan *p, const struct plan_request *rq);
/* Flux's flux run (argv_flux.c): --env=, Open MPI's options in Flux's words. */
void flux_argv(struct plan *p, const struct plan_request *rq);
/* PBS Pro / HPE Cray PALS's mpiexec (argv_pals.c): --env, --ppn, --cpu-bind. */
void pals_argv(struct plan *p, const struct plan_request *rq);

/* Shared by them (plan.c): `rdmarun rank OPTIONS --` in front of each rank
 * when a bind policy places ranks, and the helper's options alone. */
void plan_helper_argv(struct plan *p, const struct plan_request *rq, struct strvec *argv);
void plan_helper_options(const struct plan *p, const struct plan_request *rq,
                         struct strvec *argv);
/* A new item of the plan (origin and reason owned by it). */
void plan_add_item(struct plan *p, enum item_kind kind, enum item_source source,
                   const char *name, const char *value, char *origin, char *reason);

#endif
