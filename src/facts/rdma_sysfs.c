/* RDMA devices and ports from sysfs (/sys/class/infiniband), the same source
 * ibv_devinfo and rdma-core's tools read. */
#include "../facts.h"
#include "../ucx_config.h"
#include "../util/text.h"
#include "../util/xalloc.h"
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* First line of a sysfs attribute, without the newline; NULL if absent. */
static char *read_attr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *read_attr(const char *fmt, ...)
{
    va_list ap;
    char *path = NULL;
    va_start(ap, fmt);
    int r = vasprintf(&path, fmt, ap);
    va_end(ap);
    if (r < 0)
        return NULL;
    FILE *f = fopen(path, "r");
    free(path);
    if (!f)
        return NULL;
    char buf[256];
    char *line = fgets(buf, sizeof(buf), f);
    fclose(f);
    if (!line)
        return NULL;
    return trim_dup(buf, strlen(buf));
}

/* "4: ACTIVE" -> "ACTIVE" */
static char *state_word(char *s)
{
    if (!s)
        return xstrdup("UNKNOWN");
    char *colon = strchr(s, ':');
    char *out = colon ? trim_dup(colon + 1, strlen(colon + 1)) : xstrdup(s);
    free(s);
    return out;
}

static int by_number(const struct dirent **a, const struct dirent **b)
{
    return atoi((*a)->d_name) - atoi((*b)->d_name);
}

static int not_dot(const struct dirent *d) { return d->d_name[0] != '.'; }

static bool gid_is_zero(const char *gid)
{
    return strspn(gid, "0:") == strlen(gid);
}

static void read_gids(struct rdma_port *port, const char *portdir)
{
    char *dir = xasprintf("%s/gids", portdir);
    struct dirent **names;
    int n = scandir(dir, &names, not_dot, by_number);
    free(dir);
    size_t cap = 0;
    for (int i = 0; i < n; i++) {
        const char *idx = names[i]->d_name;
        char *gid = read_attr("%s/gids/%s", portdir, idx);
        if (gid && !gid_is_zero(gid)) {
            GROW(port->gids, cap, port->ngids + 1);
            struct gid_entry *g = &port->gids[port->ngids++];
            g->index = atoi(idx);
            g->gid = gid;
            g->type = read_attr("%s/gid_attrs/types/%s", portdir, idx);
            g->ndev = read_attr("%s/gid_attrs/ndevs/%s", portdir, idx);
            gid = NULL;
        }
        free(gid);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

/* The kernel driver behind a device: DRIVER= in device/uevent (a plain file,
 * so recorded trees keep it), else the device/driver link. */
static char *driver_of(const char *devdir, const char *name)
{
    char *path = xasprintf("%s/device/uevent", devdir);
    FILE *f = fopen(path, "r");
    free(path);
    char line[256];
    while (f && fgets(line, sizeof(line), f)) {
        if (starts_with(line, "DRIVER=")) {
            fclose(f);
            return trim_dup(line + 7, strlen(line + 7));
        }
    }
    if (f)
        fclose(f);
    char *link = xasprintf("%s/device/driver", devdir);
    char target[PATH_MAX];
    ssize_t len = readlink(link, target, sizeof(target) - 1);
    free(link);
    if (len > 0) {
        target[len] = '\0';
        const char *base = strrchr(target, '/');
        return xstrdup(base ? base + 1 : target);
    }
    /* Software devices have no device behind them. */
    if (starts_with(name, "rxe"))
        return xstrdup("rdma_rxe");
    if (starts_with(name, "siw"))
        return xstrdup("siw");
    return xstrdup("unknown");
}

static void read_device(struct rdma_device *d, const char *classdir, const char *name)
{
    char *devdir = xasprintf("%s/%s", classdir, name);
    d->name = xstrdup(name);
    d->driver = driver_of(devdir, name);
    char *portsdir = xasprintf("%s/ports", devdir);
    struct dirent **names;
    int n = scandir(portsdir, &names, not_dot, by_number);
    d->ports = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*d->ports));
    for (int i = 0; i < n; i++) {
        struct rdma_port *p = &d->ports[d->nports++];
        char *portdir = xasprintf("%s/%s", portsdir, names[i]->d_name);
        p->num = atoi(names[i]->d_name);
        p->state = state_word(read_attr("%s/state", portdir));
        p->phys_state = state_word(read_attr("%s/phys_state", portdir));
        p->link_layer = read_attr("%s/link_layer", portdir);
        if (!p->link_layer)
            p->link_layer = xstrdup("InfiniBand"); /* kernels before link_layer existed */
        p->rate = read_attr("%s/rate", portdir);
        read_gids(p, portdir);
        free(portdir);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    free(portsdir);
    free(devdir);
}

void facts_gather(struct facts *f, const char *sysfs_root)
{
    memset(f, 0, sizeof(*f));
    f->source = xstrdup(sysfs_root);
    f->ucx_version = xstrdup(ucx_config_version());
    char *classdir = xasprintf("%s/class/infiniband", sysfs_root);
    struct dirent **names;
    int n = scandir(classdir, &names, not_dot, alphasort);
    if (n > 0) {
        f->devs = xcalloc((size_t)n, sizeof(*f->devs));
        for (int i = 0; i < n; i++)
            read_device(&f->devs[f->ndevs++], classdir, names[i]->d_name);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    if (n >= 0)
        free(names);
    free(classdir);
}

void facts_free(struct facts *f)
{
    for (size_t i = 0; i < f->ndevs; i++) {
        struct rdma_device *d = &f->devs[i];
        for (size_t j = 0; j < d->nports; j++) {
            struct rdma_port *p = &d->ports[j];
            for (size_t k = 0; k < p->ngids; k++) {
                free(p->gids[k].gid);
                free(p->gids[k].type);
                free(p->gids[k].ndev);
            }
            free(p->gids);
            free(p->state);
            free(p->phys_state);
            free(p->link_layer);
            free(p->rate);
        }
        free(d->ports);
        free(d->name);
        free(d->driver);
    }
    free(f->devs);
    free(f->source);
    free(f->ucx_version);
    memset(f, 0, sizeof(*f));
}

bool port_is_active(const struct rdma_port *p) { return strcmp(p->state, "ACTIVE") == 0; }
