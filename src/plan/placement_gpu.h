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

#endif
