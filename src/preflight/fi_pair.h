/* The libfabric pair test (fi_pair.c): what the verbs QP loopback is for
 * UCX's fabrics, for the fabrics libfabric carries. */
#ifndef RDMARUN_FI_PAIR_H
#define RDMARUN_FI_PAIR_H

#define FI_PAIR_TIMEOUT_S 5.0

/* Two RDM endpoints of `provider` ("efa", "cxi", "tcp", "verbs;ofi_rxm")
 * exchange a message. 0 when they did; else 1. *message (owned) says what
 * happened, and on failure the step and libfabric's words. */
int fi_pair_test(const char *provider, char **message);

#endif
