#include "util/fi_dl.h"
#include <dlfcn.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const struct fi_api *fi_api(void)
{
    static struct fi_api api;
    static int state;   /* 0 not tried, 1 open, -1 absent */
    if (state)
        return state > 0 ? &api : NULL;
    state = -1;
    void *h = dlopen("libfabric.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return NULL;
    static const struct { const char *name; size_t offset; } syms[] = {
        {"fi_getinfo", offsetof(struct fi_api, getinfo)},
        {"fi_freeinfo", offsetof(struct fi_api, freeinfo)},
        {"fi_dupinfo", offsetof(struct fi_api, dupinfo)},
        {"fi_version", offsetof(struct fi_api, version)},
        {"fi_getparams", offsetof(struct fi_api, getparams)},
        {"fi_freeparams", offsetof(struct fi_api, freeparams)},
        {"fi_fabric", offsetof(struct fi_api, fabric)},
        {"fi_strerror", offsetof(struct fi_api, strerror)},
    };
    for (size_t i = 0; i < sizeof(syms) / sizeof(*syms); i++) {
        void *f = dlsym(h, syms[i].name);
        if (!f)
            return NULL;
        *(void **)((char *)&api + syms[i].offset) = f;
    }
    state = 1;
    return &api;
}

int fi_rdm_info(const struct fi_api *fi, const char *provider, uint64_t caps,
                struct fi_info **info)
{
    struct fi_info *hints = fi->dupinfo(NULL);
    if (!hints)
        return -FI_ENOMEM;
    hints->caps = caps;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;   /* the op contexts given are fi_context2s */
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
    hints->fabric_attr->prov_name = strdup(provider);
    int rc = fi->getinfo(fi->version(), NULL, NULL, 0, hints, info);
    fi->freeinfo(hints);
    return rc;
}

int fi_rdm_open(struct fid_domain *domain, struct fi_info *info, enum fi_cq_format format,
                struct fi_rdm *out, const char **call)
{
    struct fi_cq_attr cq = {.format = format, .wait_obj = FI_WAIT_NONE};
    struct fi_av_attr av = {.type = info->domain_attr->av_type != FI_AV_UNSPEC
                                        ? info->domain_attr->av_type : FI_AV_MAP};
    int rc;
    if ((rc = fi_cq_open(domain, &cq, &out->cq, NULL)))
        return *call = "fi_cq_open", rc;
    if ((rc = fi_av_open(domain, &av, &out->av, NULL)))
        return *call = "fi_av_open", rc;
    if ((rc = fi_endpoint(domain, info, &out->ep, NULL)))
        return *call = "fi_endpoint", rc;
    if ((rc = fi_ep_bind(out->ep, &out->av->fid, 0)) ||
        (rc = fi_ep_bind(out->ep, &out->cq->fid, FI_TRANSMIT | FI_RECV)))
        return *call = "fi_ep_bind", rc;
    if ((rc = fi_enable(out->ep)))
        return *call = "fi_enable", rc;
    return 0;
}
