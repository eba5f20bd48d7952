/* libfabric, opened with dlopen in the child processes that ask it, never
 * linked into rdmarun: a libfabric.so.1 loaded in rdmarun would be the one
 * every later dlopen of the same soname gets, and MPI libraries that bring
 * their own (MPICH's and Intel MPI's wheels) would fail to load in the
 * children that ask them their version (missing symbol versions). The
 * functions of libfabric's ABI rdmarun calls (rdma/fabric.h); the rest are
 * inline calls through the objects' ops. */
#ifndef RDMARUN_FI_DL_H
#define RDMARUN_FI_DL_H
#include <rdma/fabric.h>
#include <rdma/fi_eq.h>

struct fi_api {
    int (*getinfo)(uint32_t version, const char *node, const char *service, uint64_t flags,
                   const struct fi_info *hints, struct fi_info **info);
    void (*freeinfo)(struct fi_info *info);
    struct fi_info *(*dupinfo)(const struct fi_info *info);
    uint32_t (*version)(void);
    int (*getparams)(struct fi_param **params, int *count);
    void (*freeparams)(struct fi_param *params);
    int (*fabric)(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context);
    const char *(*strerror)(int errnum);
};

/* libfabric.so.1's functions, opened once (in a child only); NULL when it
 * is not installed or lacks one of them. */
const struct fi_api *fi_api(void);
/* The first fi_info of PROVIDER with reliable-datagram endpoints (FI_EP_RDM)
 * and CAPS, asked as fabtests ask it (the memory registration modes an
 * application handles: local, virtual addresses, allocated, provider keys;
 * fi_context2 op contexts). 0, or libfabric's negative error (-FI_ENODATA:
 * no such provider answers here). */
int fi_rdm_info(const struct fi_api *fi, const char *provider, uint64_t caps,
                struct fi_info **info);
/* An endpoint with the queue and address vector it is bound to. */
struct fi_rdm {
    struct fid_ep *ep;
    struct fid_cq *cq;
    struct fid_av *av;
};
/* An RDM endpoint with its own completion queue (FORMAT, for transmits and
 * receives, polled) and address vector, bound and enabled on DOMAIN. 0, or
 * libfabric's error with *call naming the call that failed; what was
 * opened is in OUT either way (closed by the caller, or with the process). */
int fi_rdm_open(struct fid_domain *domain, struct fi_info *info, enum fi_cq_format format,
                struct fi_rdm *out, const char **call);

#endif
