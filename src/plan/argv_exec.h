#ifndef RDMARUN_ARGV_EXEC_H
#define RDMARUN_ARGV_EXEC_H
#include "plan/plan.h"

/* launcher = exec: p->argv becomes `env VAR=VALUE... stdbuf -oL COMMAND
 * ARGS` from the plan's variables (stdbuf when the job is verified and it
 * is there); its MCA parameters and mpirun options are dropped. Of the
 * job's mpirun-style options -np/-N (the placement shown) and -x
 * VAR=VALUE (the environment) are taken; any other is refused (64). */
void exec_argv(struct plan *p, const struct job_args *job, bool stdbuf);

#endif
