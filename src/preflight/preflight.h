/* Node checks before a job: the live verbs RC loopback (preflight). */
#ifndef RDMARUN_CHECK_H
#define RDMARUN_CHECK_H
#include "facts/facts.h"
#include <stdbool.h>

/* QP test on every ACTIVE port, or on `only` (DEV or DEV:PORT). The GID index
 * is the routable RoCE v2 one on Ethernet unless `gid` says otherwise.
 * Returns 0 when all pass, RR_EX_UNAVAILABLE otherwise. */
int check_qp_ports(const struct facts *f, const char *only, const char *gid, bool quiet);

#endif
