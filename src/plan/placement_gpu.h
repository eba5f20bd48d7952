/* The GPU variables of a rank's placement (placement_gpu.c): which
 * vendor made each GPU, its index in PCI order among its vendor's, and the
 * visible-devices variable that gives a rank its own. */
#ifndef RDMARUN_PLACEMENT_GPU_H
#define RDMARUN_PLACEMENT_GPU_H
#include "plan/placement.h"
#include <stdbool.h>

/* CUDA_VISIBLE_DEVICES (with CUDA_DEVICE_ORDER=PCI_BUS_ID),
 * ROCR_VISIBLE_DEVICES or ZE_AFFINITY_MASK for local rank `local` into
 * rp->env; by_local: every GPU visible, the rank's own at its local rank's
 * index (torchrun's workers pick theirs by LOCAL_RANK). */
void placement_gpu_env(const struct facts *f, struct rank_place *rp, int local, bool by_local);

/* For a rank with a GPU and one port (all[cur]): the port nearest its GPU
 * (PIX before PXB ... SYS, nccl's path classes), among those as near the
 * rank's cores as all[cur], the least used (load) of equals; cur when none
 * is nearer. So each GPU's traffic leaves through its own NIC (an EFA
 * device, a Cassini NIC or an HCA per GPU), not the one the rank's cores
 * happened to get first. */
struct port_ref;
size_t gpu_port_choice(const struct facts *f, const struct rank_place *rp,
                       const struct port_ref *all, size_t nall, const int *load, size_t cur);

#endif
