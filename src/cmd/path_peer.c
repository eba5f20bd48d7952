/* rdmarun path-peer: one node's process of the path test (preflight/
 * path_peer.c), started by the launcher that `rdmarun check --path-test` or
 * a multi-node job's preflight runs. */
#include "cmd/commands.h"
#include "preflight/path_peer.h"
#include "plan/path.h"
#include "util/msg.h"
#include "util/text.h"
#include <stdlib.h>

int cmd_path_peer(const struct cmdline *cl)
{
    long gid = -1;
    if (cl->gid_index && !parse_long(cl->gid_index, 0, 255, &gid)) {
        rr_error("--gid-index %s: expected a GID table index from 0 to 255", cl->gid_index);
        return RR_EX_USAGE;
    }
    char *end = NULL;
    double step = cl->step_timeout ? strtod(cl->step_timeout, &end) : PATH_STEP_S;
    if (cl->step_timeout && (*end || step <= 0 || step > 600)) {
        rr_error("--step-timeout %s: expected seconds, above 0 and at most 600",
                 cl->step_timeout);
        return RR_EX_USAGE;
    }
    struct path_peer_opts o = {cl->device, (int)gid, cl->all_pairs, step};
    return path_peer_main(&o);
}
