#include "plan/rank_args.h"
#include "profile/settings.h"
#include <stddef.h>

#define R(field) offsetof(struct rank_args, field)

const struct opt rank_options[] = {
    {"bind-policy", NULL, 1, OPT_VALUE, R(bind_policy), BIND_POLICIES, NULL,
     "how to place this rank (default numa)"},
    {"memory", NULL, 1, OPT_VALUE, R(memory), MEMORY_POLICIES, NULL,
     "memory policy on the rank's NUMA node (default prefer)"},
    {"nics", NULL, 1, OPT_VALUE, R(nics), NIC_CHOICES, NULL,
     "one port per rank, spread, or every nearest port"},
    {"fabric", NULL, 1, OPT_VALUE, R(fabric), "ib|roce|pvrdma|rdma|efa|cxi|opa", NULL,
     "whose ports the rank may use"},
    {"net-devices", NULL, 1, OPT_FLAG, R(net_devices), NULL, NULL,
     "set UCX_NET_DEVICES to the rank's port"},
    {"nccl-hca", NULL, 1, OPT_FLAG, R(nccl_hca), NULL, NULL, "set NCCL_IB_HCA to the rank's port"},
    {"fabric-nics", NULL, 1, OPT_FLAG, R(fabric_nics), NULL, NULL,
     "set the fabric's own NIC variable (FI_EFA_IFACE, FI_CXI_DEVICE_NAME,\nFI_OPX_HFI_SELECT) "
     "to the rank's NICs"},
    {"nic-mapping", NULL, 1, OPT_FLAG, R(nic_mapping), NULL, NULL,
     "with --fabric-nics: Cray MPICH's MPICH_OFI_NIC_POLICY=USER and\nMPICH_OFI_NIC_MAPPING "
     "for every rank instead"},
    {"keep-cpus", NULL, 1, OPT_FLAG, R(keep_cpus), NULL, NULL,
     "leave the binding to Open MPI (--bind-to was given)"},
    {"report", NULL, 1, OPT_FLAG, R(report), NULL, NULL, "print the rank's placement"},
    {"sysfs", NULL, 1, OPT_VALUE, R(sysfs), NULL, "DIR", "read devices from a recorded tree"},
    {"record", NULL, 1, OPT_FLAG, R(record), NULL, NULL,
     "tell the supervisor the rank's placement (for placement.txt)"},
    {"threads", NULL, 1, OPT_VALUE, R(threads), NULL, "N|auto",
     "set OMP_NUM_THREADS, OMP_PLACES, OMP_PROC_BIND for N threads\n(auto: one per core)"},
    {"smt", NULL, 1, OPT_FLAG, R(smt), NULL, NULL, "threads on every hardware thread"},
};
const size_t nrank_options = sizeof(rank_options) / sizeof(*rank_options);

void rank_args_write(const struct rank_args *a, struct strvec *argv)
{
    opt_write(rank_options, nrank_options, 1, a, argv);
}

void rank_args_free(struct rank_args *a)
{
    opt_free(rank_options, nrank_options, a);
}
