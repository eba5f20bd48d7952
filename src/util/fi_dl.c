#include "util/fi_dl.h"
#include <dlfcn.h>
#include <stddef.h>

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
