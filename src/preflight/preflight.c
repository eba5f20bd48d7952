#include "preflight/preflight.h"
#include "preflight/fi_pair.h"
#include "preflight/path_test.h"
#include "preflight/qp_loopback.h"
#include "util/msg.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QP_TIMEOUT_S 5.0

size_t preflight_ports(const struct facts *f, const char *only, int gid_index,
                       struct plan_port *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < f->ndevs; i++) {
        const struct rdma_device *d = &f->devs[i];
        for (size_t j = 0; j < d->nports && n < max; j++) {
            const struct rdma_port *p = &d->ports[j];
            char name[80];
            snprintf(name, sizeof(name), "%s:%d", d->name, p->num);
            if (only ? strcmp(only, d->name) != 0 && strcmp(only, name) != 0 : !port_is_active(p))
                continue;
            plan_port_of(&out[n++], d, p, gid_index);
        }
    }
    return n;
}

int preflight_qp_test(const struct plan_port *ports, size_t n, const char *what, bool quiet)
{
    int failed = 0, tested = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ports[i].dev) {
            rr_error("no such device or port: %s (hint: 'rdmarun probe' shows the devices and "
                     "their ports)", ports[i].name);
            failed++;
            continue;
        }
        struct qp_result r;
        qp_test(ports[i].dev->name, ports[i].port->num, ports[i].gid_index, QP_TIMEOUT_S, &r);
        tested++;
        if (r.ok) {
            if (!quiet)
                printf("rdmarun: %s QP test %s\n", ports[i].name, r.message);
        } else {
            failed++;
            rr_error("%s QP test: %s", ports[i].name, r.message);
        }
        qp_result_free(&r);
    }
    if (tested == 0 && failed == 0) {
        rr_error("no %s to test (hint: 'rdmarun probe' shows the devices and their ports)", what);
        return RR_EX_UNAVAILABLE;
    }
    return failed ? RR_EX_UNAVAILABLE : 0;
}

/* The libfabric pair test of the job's provider, said either way. */
static int fi_pair_preflight(const struct plan *p)
{
    char *message = NULL;
    int rc = fi_pair_test(plan_fi_provider(p), &message);
    if (rc && p->verify.value == VERIFY_STRICT)
        rr_error("preflight libfabric pair test failed: %s: not starting the job (verify = "
                 "strict; [check] qp-test = no skips it)", message);
    else if (rc)
        rr_warn("preflight libfabric pair test failed: %s; starting the job anyway (verify = "
                "warn)", message);
    free(message);
    return rc && p->verify.value == VERIFY_STRICT ? RR_EX_UNAVAILABLE : 0;
}

int preflight_run(const struct plan *p)
{
    if (p->fi_pair_test && fi_pair_preflight(p))
        return RR_EX_UNAVAILABLE;
    if (!plan_verifies(p) || p->expect.value != EXPECT_RDMA)
        return 0;
    int rc = p->nports && p->qp_test ? preflight_qp_test(p->ports, p->nports, "port", true) : 0;
    if (rc && p->verify.value == VERIFY_STRICT) {
        rr_error("preflight QP test failed: not starting the job (verify = strict)");
        return rc;
    }
    if (rc)
        rr_warn("preflight QP test failed; starting the job anyway (verify = warn)");
    rc = p->path_test ? path_test_run(&p->path, true, false, NULL) : 0;
    if (rc && p->verify.value == VERIFY_STRICT) {
        rr_error("the path test between the job's nodes failed: not starting the job (verify = "
                 "strict; [check] path-test = no skips the test)");
        return rc;
    }
    if (rc)
        rr_warn("the path test between the job's nodes failed; starting the job anyway (verify "
                "= warn)");
    return 0;
}

int preflight_predict(const struct plan *p)
{
    if (!plan_verifies(p) || p->expect.value != EXPECT_RDMA || p->verify.value != VERIFY_STRICT)
        return 0;
    int rc = p->nports && p->qp_test ? preflight_qp_test(p->ports, p->nports, "port", true) : 0;
    if (rc)
        rr_error("preflight QP test failed: the job would not start (verify = strict)");
    return rc;
}
