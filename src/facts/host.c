/* Host limits that stand in RDMA's way: locked memory, huge pages, kernel
 * modules, access to /dev/infiniband (the container case). */
#include "facts/internal.h"
#include "util/fs.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static bool module_loaded(const char *root, const char *name)
{
    char *path = xasprintf("%s/sys/module/%s", root, name);
    bool yes = access(path, F_OK) == 0;
    free(path);
    return yes;
}

static void read_meminfo(struct host_limits *l, const char *root)
{
    char *path = xasprintf("%s/proc/meminfo", root);
    FILE *f = open_input(path);
    free(path);
    char line[256];
    while (f && fgets(line, sizeof(line), f)) {
        long long v;
        if (sscanf(line, "HugePages_Total: %lld", &v) == 1)
            l->hugepages_total = v;
        else if (sscanf(line, "HugePages_Free: %lld", &v) == 1)
            l->hugepages_free = v;
        else if (sscanf(line, "Hugepagesize: %lld kB", &v) == 1)
            l->hugepage_kb = v;
    }
    if (f)
        fclose(f);
}

static void read_uverbs(struct host_limits *l, const char *root)
{
    char *dir = xasprintf("%s/dev/infiniband", root);
    DIR *d = opendir(dir);
    l->uverbs_devices = 0;
    l->uverbs_accessible = true;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (!starts_with(de->d_name, "uverbs"))
            continue;
        l->uverbs_devices++;
        char *path = xasprintf("%s/%s", dir, de->d_name);
        if (access(path, R_OK | W_OK) != 0)
            l->uverbs_accessible = false;
        free(path);
    }
    if (d)
        closedir(d);
    free(dir);
}

static void read_ipoib(struct facts *f, const char *root)
{
    char *dir = xasprintf("%s/sys/class/net", root);
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char *type = read_first_line("%s/%s/type", dir, de->d_name);
        bool ipoib = type && strcmp(type, "32") == 0;   /* ARPHRD_INFINIBAND */
        free(type);
        size_t i;
        for (i = 0; i < f->nnetifs; i++)
            if (strcmp(f->netifs[i].name, de->d_name) == 0)
                break;
        if (i == f->nnetifs) {
            f->netifs = xrealloc(f->netifs, (f->nnetifs + 1) * sizeof(*f->netifs));
            f->netifs[f->nnetifs++].name = xstrdup(de->d_name);
        }
        f->netifs[i].ipoib = ipoib;
    }
    if (d)
        closedir(d);
    free(dir);
}

void facts_read_host(struct facts *f, const char *root)
{
    struct host_limits *l = &f->limits;
    struct rlimit rl;
    l->memlock_soft = l->memlock_hard = -2;
    if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
        l->memlock_soft = rl.rlim_cur == RLIM_INFINITY ? -1 : (long long)rl.rlim_cur;
        l->memlock_hard = rl.rlim_max == RLIM_INFINITY ? -1 : (long long)rl.rlim_max;
    }
    l->hugepages_total = l->hugepages_free = l->hugepage_kb = -1;
    read_meminfo(l, root);
    l->modules_known = true;
    l->mod_ib_uverbs = module_loaded(root, "ib_uverbs");
    /* what NCCL looks for: nvidia_peermem, or the legacy nv_peer_mem's peer-memory client */
    char *nv_mem = xasprintf("%s/sys/kernel/mm/memory_peers/nv_mem/version", root);
    char *nv_mem_nc = xasprintf("%s/sys/kernel/mm/memory_peers/nv_mem_nc/version", root);
    l->mod_nvidia_peermem = module_loaded(root, "nvidia_peermem") || access(nv_mem, F_OK) == 0 ||
                            access(nv_mem_nc, F_OK) == 0;
    free(nv_mem);
    free(nv_mem_nc);
    l->mod_rdma_rxe = module_loaded(root, "rdma_rxe");
    l->mod_vmw_pvrdma = module_loaded(root, "vmw_pvrdma");
    read_uverbs(l, root);
    read_ipoib(f, root);
}
