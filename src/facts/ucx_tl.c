/* UCX transports per device, as 'ucx_info -d' lists them, through UCT's API. */
#include "facts/internal.h"
#include "profile/ucx_config.h"
#include "util/xalloc.h"
#include <stdbool.h>
#include <string.h>
#include <uct/api/uct.h>

static void add_transport(struct facts *f, const char *dev, const char *tl)
{
    /* UCX names IB devices dev:port (mlx5_0:1). */
    size_t len = strcspn(dev, ":");
    for (size_t i = 0; i < f->ndevs; i++) {
        struct rdma_device *d = &f->devs[i];
        if (strlen(d->name) != len || strncmp(d->name, dev, len) != 0)
            continue;
        for (size_t k = 0; d->transports && d->transports[k]; k++)
            if (strcmp(d->transports[k], tl) == 0)
                return;
        list_add(&d->transports, tl);
    }
}

static bool is_rdma_device(const struct facts *f, const char *name)
{
    for (size_t i = 0; i < f->ndevs; i++)
        if (strcmp(f->devs[i].name, name) == 0)
            return true;
    return false;
}

void facts_read_ucx(struct facts *f)
{
    if (!f->ucx_version)
        f->ucx_version = xstrdup(ucx_config_version());
    uct_component_h *components;
    unsigned ncomponents;
    if (!f->ndevs)
        return;   /* transports are listed per RDMA device */
    if (uct_query_components(&components, &ncomponents) != UCS_OK)
        return;
    for (unsigned c = 0; c < ncomponents; c++) {
        uct_component_attr_t cattr = {.field_mask = UCT_COMPONENT_ATTR_FIELD_NAME |
                                                    UCT_COMPONENT_ATTR_FIELD_MD_RESOURCE_COUNT};
        if (uct_component_query(components[c], &cattr) != UCS_OK)
            continue;
        uct_md_resource_desc_t mds[cattr.md_resource_count ? cattr.md_resource_count : 1];
        cattr.field_mask = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCES;
        cattr.md_resources = mds;
        if (uct_component_query(components[c], &cattr) != UCS_OK)
            continue;
        for (unsigned m = 0; m < cattr.md_resource_count; m++) {
            /* UCX names a verbs memory domain after its device (mlx5_0,
             * rxe0); the others (tcp, sysv, posix, cma, ...) hold no RDMA
             * device's transports, and opening tcp's walks every network
             * interface. */
            if (!is_rdma_device(f, mds[m].md_name))
                continue;
            uct_md_config_t *config;
            uct_md_h md;
            if (uct_md_config_read(components[c], NULL, NULL, &config) != UCS_OK)
                continue;
            ucs_status_t st = uct_md_open(components[c], mds[m].md_name, config, &md);
            uct_config_release(config);
            if (st != UCS_OK)
                continue;
            uct_tl_resource_desc_t *tls;
            unsigned ntls;
            if (uct_md_query_tl_resources(md, &tls, &ntls) == UCS_OK) {
                for (unsigned k = 0; k < ntls; k++)
                    add_transport(f, tls[k].dev_name, tls[k].tl_name);
                uct_release_tl_resource_list(tls);
            }
            uct_md_close(md);
        }
    }
    uct_release_component_list(components);
}
