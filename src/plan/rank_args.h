/* The per-rank helper's command line, `rdmarun rank OPTIONS -- PROGRAM`:
 * the plan writes it (what it decided for every rank), `rdmarun rank` reads
 * it, both from the one table in rank_args.c. */
#ifndef RDMARUN_RANK_ARGS_H
#define RDMARUN_RANK_ARGS_H
#include "util/options.h"

struct rank_args {
    char *bind_policy;    /* numa, nic-local, gpu-local */
    char *memory, *nics;  /* [bind] memory and nics */
    char *fabric;         /* whose ports a rank may use; NULL: none */
    char *sysfs;          /* a recorded tree instead of /sys (tests) */
    bool net_devices;     /* set UCX_NET_DEVICES per rank */
    bool nccl_hca;
    bool fabric_nics;        /* set the fabric's own NIC variable per rank */
    bool nic_mapping;        /* instead, Cray MPICH's USER NIC mapping */
    bool keep_cpus;       /* Open MPI binds (--bind-to given): leave cores alone */
    bool report;          /* print each rank's placement */
    bool record;          /* tag it on stderr for the supervisor's placement.txt */
    char *threads;        /* OpenMP threads: N or auto; NULL: none set */
    bool smt;             /* auto counts hardware threads */
};

extern const struct opt rank_options[];
extern const size_t nrank_options;

void rank_args_write(const struct rank_args *a, struct strvec *argv);
void rank_args_free(struct rank_args *a);

#endif
