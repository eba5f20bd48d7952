/* Gathering facts from their sources, in order: sysfs (this node's or a
 * recorded tree), an hwloc XML or this node's topology, the host's limits,
 * modules, CPUs, interrupts, GPUs' PCI paths, UCX's transports; or a saved
 * facts file. Each source is a file of its own (facts/internal.h); the
 * shared helpers they all use are facts.c's. */
#include "facts/internal.h"
#include "util/msg.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The node's configuration around the devices; a recorded tree keeps
 * procfs, dcb's answers and the files outside sysfs under recorded/. */
static void read_node_config(struct facts *f, const char *sysfs_root, bool live)
{
    const char *sys = sysfs_root ? sysfs_root : "/sys";
    char *dcb = sysfs_root ? xasprintf("%s/recorded", sys) : NULL;
    char *proc = sysfs_root ? xasprintf("%s/recorded/proc", sys) : xstrdup("/proc");
    facts_read_lossless(f, sys, dcb);
    facts_read_irqs(f, sys, proc);
    facts_read_cpu_state(f, sys);
    facts_read_gpu_pci(f, sys);
    facts_read_counters(f, sysfs_root);
    facts_read_modules(f, sys, live);
    facts_read_cloud(f, sys, dcb ? dcb : "/", live);
    free(dcb);
    free(proc);
}

int facts_gather(struct facts *f, const struct facts_sources *src)
{
    memset(f, 0, sizeof(*f));
    f->format_version = FACTS_FORMAT_VERSION;
    if (src->facts_file)
        return facts_load_json(f, src->facts_file);
    bool live = !src->sysfs_root && !src->topology;
    struct strvec from = {0};
    if (src->topology)
        sv_pushf(&from, "topology %s", src->topology);
    if (src->sysfs_root)
        sv_pushf(&from, "sysfs %s", src->sysfs_root);
    f->source = from.n ? sv_join(&from, ", ") : xstrdup("this node");
    f->sysfs_root = src->sysfs_root ? xstrdup(src->sysfs_root) : NULL;
    sv_free(&from);

    /* Devices first from sysfs (this node's or a recorded tree); an hwloc
     * XML then adds placement, and devices of its own when sysfs has none. */
    if (src->sysfs_root || !src->topology) {
        facts_read_sysfs(f, src->sysfs_root ? src->sysfs_root : "/sys");
        facts_read_cxi(f, src->sysfs_root ? src->sysfs_root : "/sys");
    }
    int rc = facts_read_topology(f, src->topology);
    if (rc)
        return rc;
    if ((live || src->sysfs_root) && !src->placement_only)
        read_node_config(f, src->sysfs_root, live);
    if (live && !src->placement_only) {
        facts_read_verbs(f);
        if (src->fabric_libs)
            facts_read_fabric_libs(f);
        facts_read_host(f, "/");
        char host[256];
        if (gethostname(host, sizeof(host)) == 0) {
            host[sizeof(host) - 1] = '\0';
            f->hostname = xstrdup(host);
        }
    } else {
        f->limits.memlock_soft = f->limits.memlock_hard = -2;
        f->limits.hugepages_total = f->limits.hugepages_free = f->limits.hugepage_kb = -1;
        f->limits.uverbs_devices = -1;
    }
    if (!src->placement_only)
        facts_read_ucx(f);
    return 0;
}
