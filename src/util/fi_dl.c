#include "util/fi_dl.h"
#include <dlfcn.h>
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
