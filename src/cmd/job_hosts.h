/* The nodes a job names: -H/--host lists and the hosts of --hostfile,
 * --machinefile and --default-hostfile (Open MPI's format: a host, then
 * slots=N and the like, or Hydra's HOST:N; # starts a comment) or, without
 * any, of the hostfile the launcher's environment names (Open MPI's
 * default hostfile, Hydra's host file: the Kubeflow MPI operator's
 * launcher pod), and the size of the Slurm
 * allocation it runs in. For the path test: which nodes must answer. */
#ifndef RDMARUN_JOB_HOSTS_H
#define RDMARUN_JOB_HOSTS_H
#include "util/strvec.h"
#include <stdbool.h>

/* Adds the hosts named to out, each once, by name (slots dropped,
 * localhost as this node's name). 0, or RR_EX_NOINPUT after saying which
 * hostfile cannot be read, RR_EX_DATAERR for one with a line past 64 KiB
 * or past 256 MiB in all (the dry run's status too: the real run's). */
int job_hosts(const struct strvec *mpirun_args, struct strvec *out);
/* SLURM_JOB_NUM_NODES (or SLURM_NNODES) inside an allocation, else -1. */
long slurm_alloc_nodes(void);
/* The nodes the job's options name, else its Slurm allocation's, else 1
 * (this one): for the speed of light of compare's and tune's figures. A
 * hostfile that cannot be read is the run's to report: one node here. */
int job_node_count(const struct strvec *mpirun_args);

#endif
