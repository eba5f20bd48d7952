/* rdmarun path-peer: one node's process of the path test, started by the
 * launcher that `rdmarun check --path-test` or a multi-node job's preflight
 * runs. Its options are checked here; the node's part runs in the
 * path-peer program beside rdmarun (preflight/path_peer_main.c), which
 * alone links PMIx. */
#include "cmd/commands.h"
#include "plan/path.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/strvec.h"
#include "util/text.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    if (cl->provider && !cli_provider_ok("--provider", cl->provider))
        return RR_EX_USAGE;
    char *helper = helper_path("libexec/path-peer");
    struct strvec argv = {0};
    sv_push(&argv, helper);
    sv_push(&argv, cl->device ? cl->device : "-");
    sv_pushf(&argv, "%ld", gid);
    sv_push(&argv, cl->all_pairs ? "1" : "0");
    sv_pushf(&argv, "%.17g", step);
    sv_push(&argv, cl->provider ? cl->provider : "-");
    fflush(stdout);
    execv(helper, argv.v);
    int err = errno;
    rr_error("path-peer: cannot run %s: %s (hint: it is installed with rdmarun, in "
             "LIBEXECDIR/rdmarun; in a build tree 'make' builds it)", helper, strerror(err));
    int rc = err == ENOENT || err == EACCES ? RR_EX_NOTFOUND : RR_EX_OSERR;
    sv_free(&argv);
    free(helper);
    return rc;
}
