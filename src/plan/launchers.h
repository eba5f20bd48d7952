/* The launchers: each a file that turns a plan into its command (p->argv),
 * called by plan_build (plan.c) through one table indexed by enum launcher.
 * Adding a launcher is a file here, a row of that table and a word in
 * settings.c's launcher_names. */
#ifndef RDMARUN_LAUNCHERS_H
#define RDMARUN_LAUNCHERS_H
#include "plan/plan.h"

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
