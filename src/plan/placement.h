/* Placement: the cores, memory, NIC and GPU each local rank of a node gets.
 * Pure like the plan: computed from the node's facts alone, so the per-rank
 * helper (`rdmarun rank`, which decides on its own node's facts) and the dry
 * run (`--dry-run --report` on saved or recorded facts) agree, and mappings
 * are golden-tested from recorded machines. */
#ifndef RDMARUN_PLACEMENT_H
#define RDMARUN_PLACEMENT_H
#include "facts/facts.h"
#include "profile/settings.h"
#include "util/json.h"
#include "util/strvec.h"
#include <stdbool.h>
#include <stdio.h>

/* The most ranks on one node that rdmarun places. */
#define MAX_LOCAL_RANKS 4096

struct placement_request {
    enum bind_policy policy;   /* numa, nic-local, gpu-local */
    const char *fabric;   /* whose ports a rank may use; NULL or not RDMA: none */
    enum nic_choice nics; /* one (spread ranks over the nearest ports) or nearest (all) */
    enum memory_policy memory;  /* reported, applied by the helper */
    bool set_ucx;         /* UCX_NET_DEVICES per rank */
    bool set_nccl;        /* NCCL_IB_HCA per rank */
    bool set_fabric;      /* the fabric's own per-rank NIC variable (its row's rank_var) */
    bool nic_mapping;     /* instead of it, Cray MPICH's MPICH_OFI_NIC_POLICY=USER and
                             MPICH_OFI_NIC_MAPPING for every rank (fabric_nic_mapping) */
    int local_size;       /* ranks on this node */
    int threads;          /* OpenMP threads per rank: 0 none set, -1 one per core (or PU) */
    bool smt;             /* places are hardware threads, not cores */
    bool gpus_by_local_rank;   /* workers pick their GPU by local rank (torchrun's
                                  LOCAL_RANK): they see every GPU, theirs at that index */
};

struct rank_place {
    char *numa;           /* OS indexes of the rank's NUMA nodes, "0" or "0-3"; NULL: not placed */
    int *numa_os;         /* the same, one by one */
    size_t nnuma;
    char *pus;            /* its PUs (OS indexes, as taskset prints), "8-47" */
    int ncores;
    bool shared;          /* more ranks than cores there: cores are shared */
    char *nics;           /* "mlx5_0:1" (a list with nics = nearest); NULL: none */
    bool nic_local;
    const struct gpu **gpus;   /* in the facts' order */
    size_t ngpus;
    bool gpu_local;       /* every one of them is on the rank's NUMA nodes */
    const char *gpu_nic_path;  /* PCIe path from its first GPU to its NIC: PIX ... SYS; NULL */
    struct strvec env;    /* NAME=VALUE the helper sets for this rank */
};

struct placement {
    enum bind_policy policy;
    enum memory_policy memory;
    int local_size;
    struct rank_place *ranks;   /* local_size of them */
    struct strvec notes;
};

void placement_build(const struct facts *f, const struct placement_request *rq,
                     struct placement *out);
void placement_free(struct placement *p);
/* How many of the facts' GPUs a visible-devices variable
 * (CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES, ZE_AFFINITY_MASK) chooses
 * among; -1: not such a variable. */
long placement_devices_of(const struct facts *f, const char *var);
/* The memory policy a rank gets: prefer for one NUMA node becomes
 * interleave over several. */
const char *placement_memory(const struct placement *p, const struct rank_place *rp);

/* Output (placement_print.c). */
void placement_print_table(const struct placement *p, const char *host, FILE *out);
void placement_json(const struct placement *p, struct json *j);
/* One rank's line, as the helper reports it (like --report-bindings). */
char *placement_rank_line(const struct placement *p, int local_rank, const char *host,
                          long rank);

#endif
