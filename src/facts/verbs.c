/* What only the verbs API tells: MTUs, and the firmware version where sysfs
 * has none. Only for this node's own devices. */
#include "config.h"
#include "facts/internal.h"
#include "util/xalloc.h"
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdlib.h>
#include <string.h>

int mtu_bytes(int m)
{
    return m >= IBV_MTU_256 && m <= IBV_MTU_4096 ? 128 << m : 0;
}

/* NCCL's own test (net_ib): a dma-buf registration with fd -1 fails with
 * EOPNOTSUPP or EPROTONOSUPPORT where the kernel or driver has no dma-buf
 * MRs, with EBADF where it has. */
static int dmabuf_supported(struct ibv_context *ctx)
{
#ifdef HAVE_IBV_REG_DMABUF_MR
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    if (!pd)
        return -1;
    errno = 0;
    struct ibv_mr *mr = ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0);
    int yes = mr || (errno != EOPNOTSUPP && errno != EPROTONOSUPPORT);
    if (mr)
        ibv_dereg_mr(mr);
    ibv_dealloc_pd(pd);
    return yes;
#else
    (void)ctx;
    return 0;   /* rdma-core before 34 has no dma-buf MRs */
#endif
}

void facts_read_verbs(struct facts *f)
{
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    for (int i = 0; list && i < n; i++) {
        const char *name = ibv_get_device_name(list[i]);
        struct rdma_device *d = NULL;
        for (size_t k = 0; k < f->ndevs && !d; k++)
            if (strcmp(f->devs[k].name, name) == 0)
                d = &f->devs[k];
        if (!d)
            continue;
        struct ibv_context *ctx = ibv_open_device(list[i]);
        if (!ctx)
            continue;   /* no access to /dev/infiniband: the host facts say so */
        struct ibv_device_attr attr;
        if (ibv_query_device(ctx, &attr) == 0 && !d->fw_ver && attr.fw_ver[0])
            d->fw_ver = xstrdup(attr.fw_ver);
        for (size_t j = 0; j < d->nports; j++) {
            struct ibv_port_attr pa;
            if (ibv_query_port(ctx, (uint8_t)d->ports[j].num, &pa) != 0)
                continue;
            d->ports[j].active_mtu = mtu_bytes(pa.active_mtu);
            d->ports[j].max_mtu = mtu_bytes(pa.max_mtu);
        }
        d->dmabuf = dmabuf_supported(ctx);
        ibv_close_device(ctx);
    }
    if (list)
        ibv_free_device_list(list);
}
