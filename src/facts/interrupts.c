/* Each RDMA device's MSI-X interrupts (device/msi_irqs/N in sysfs) and the
 * CPUs they are delivered to (/proc/irq/N/smp_affinity_list): ranks that
 * share cores with the NIC's completion interrupts lose time to them, and
 * interrupts on another NUMA node cross the socket link. */
#include "facts/internal.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int is_number(const struct dirent *d)
{
    return d->d_name[0] >= '0' && d->d_name[0] <= '9';
}

void facts_read_irqs(struct facts *f, const char *sysfs, const char *proc)
{
    for (size_t i = 0; i < f->ndevs; i++) {
        struct rdma_device *d = &f->devs[i];
        char *dir = xasprintf("%s/class/infiniband/%s/device/msi_irqs", sysfs, d->name);
        struct dirent **names;
        int n = scandir(dir, &names, is_number, dirent_by_number);
        free(dir);
        for (int k = 0; k < n; k++) {
            char *cpus = read_first_line("%s/irq/%s/smp_affinity_list", proc, names[k]->d_name);
            if (cpus) {
                char *e = xasprintf("%s:%s", names[k]->d_name, cpus);
                list_add(&d->irqs, e);
                free(e);
            }
            free(cpus);
            free(names[k]);
        }
        if (n >= 0)
            free(names);
    }
}
