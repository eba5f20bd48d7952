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
    if (!cli_gid_index(cl->gid_index, &gid))
        return RR_EX_USAGE;
    double step = PATH_STEP_S;
    if (cl->step_timeout && !parse_seconds(cl->step_timeout, 600, &step)) {
        rr_error("--step-timeout %s: expected seconds, above 0 and at most 600",
                 cl->step_timeout);
        return RR_EX_USAGE;
    }
    struct path_peer_opts o = {cl->device, (int)gid, cl->all_pairs, step};
    return path_peer_main(&o);
}
