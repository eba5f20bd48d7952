/* The RDMA stack's kernel modules and their versions, so that a node can be
 * held to a good node's (the health check's manifest): an out-of-tree
 * stack (MLNX_OFED, a vendor's driver) names its version in
 * /sys/module/NAME/version, a module built out of its tree has a
 * srcversion, and an in-tree module is the kernel's own, whose release
 * says which. */
#include "facts/internal.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The modules of the RDMA stack and what runs on it: verbs' core, the
 * drivers of the devices rdmarun knows, IPoIB, GPUDirect's. */
static const char *const stack[] = {
    "ib_core", "ib_uverbs", "ib_cm", "iw_cm", "rdma_cm", "rdma_ucm", "ib_ipoib", "ib_umad",
    "mlx5_core", "mlx5_ib", "mlx4_core", "mlx4_ib", "rdma_rxe", "siw", "vmw_pvrdma",
    "irdma", "bnxt_re", "efa", "hfi1", "qedr", "hns_roce_hw_v2", "ionic_rdma",
    "nvidia", "nvidia_peermem", "nv_peer_mem", "mlx_compat", NULL,
};

void facts_read_modules(struct facts *f, const char *sys, bool live)
{
    list_free(f->module_versions);
    f->module_versions = xcalloc(1, sizeof(char *));
    for (size_t i = 0; stack[i]; i++) {
        char *dir = xasprintf("%s/module/%s", sys, stack[i]);
        bool loaded = access(dir, F_OK) == 0;
        free(dir);
        if (!loaded)
            continue;
        char *v = read_first_line("%s/module/%s/version", sys, stack[i]);
        char *src = v ? NULL : read_first_line("%s/module/%s/srcversion", sys, stack[i]);
        /* What sysfs holds is a version's words: no spaces, printable. */
        char *word = v ? v : src;
        if (word && (strlen(word) > 64 || word[strcspn(word, " \t")]))
            word = NULL;
        char *item = word ? xasprintf("%s %s%s", stack[i], v ? "" : "srcversion ", word)
                          : xasprintf("%s in-tree", stack[i]);
        list_add(&f->module_versions, item);
        free(item);
        free(v);
        free(src);
    }
    struct utsname u;
    if (live && uname(&u) == 0) {
        free(f->kernel);
        f->kernel = xstrdup(u.release);
    }
}
