/* 'rdmarun check': node checks before a job (and, later, in Slurm prologs).
 * For now the live verbs RC loopback on the node's ports. */
#include "preflight/preflight.h"
#include "preflight/qp_loopback.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QP_TIMEOUT_S 5.0

int check_qp_ports(const struct facts *f, const char *only, const char *gid_override, bool quiet)
{
    int tested = 0, failed = 0;
    for (size_t i = 0; i < f->ndevs; i++) {
        const struct rdma_device *d = &f->devs[i];
        for (size_t j = 0; j < d->nports; j++) {
            const struct rdma_port *p = &d->ports[j];
            char name[128];
            snprintf(name, sizeof(name), "%s:%d", d->name, p->num);
            if (only ? strcmp(only, d->name) != 0 && strcmp(only, name) != 0 : !port_is_active(p))
                continue;
            int gid = -1;
            const struct gid_entry *g = port_best_gid(p);
            if (gid_override)
                gid = atoi(gid_override);
            else if (strcmp(p->link_layer, "Ethernet") == 0 && g)
                gid = g->index;
            struct qp_result r;
            qp_test(d->name, p->num, gid, QP_TIMEOUT_S, &r);
            tested++;
            if (r.ok) {
                if (!quiet)
                    printf("rdmarun: %s QP test %s\n", name, r.message);
            } else {
                failed++;
                rr_error("%s QP test: %s", name, r.message);
            }
            qp_result_free(&r);
        }
    }
    if (tested == 0) {
        rr_error("no %s to test (hint: 'rdmarun probe' shows the devices and their ports)",
                 only ? "such device or port" : "ACTIVE RDMA port");
        return RR_EX_UNAVAILABLE;
    }
    return failed ? RR_EX_UNAVAILABLE : 0;
}
