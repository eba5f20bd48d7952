/* LIBEXECDIR/rdmarun/path-peer: the path test's node process
 * (path_peer.c), a program of its own so that PMIx and its libraries
 * (libevent, munge) are loaded by the path test alone, never by every
 * rdmarun and every rank's helper. `rdmarun path-peer` checks its options
 * and runs it:  path-peer DEVICE|- GID_INDEX ALL_PAIRS(0|1) STEP_SECONDS;
 * `path-peer --version` prints the PMIx it runs with (rdmarun version). */
#include "preflight/path_peer.h"
#include "util/msg.h"
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        const char *v = PMIx_Get_version();
        printf("%s\n", v ? v : "PMIx (no version)");
        return 0;
    }
    char *end1 = NULL, *end2 = NULL;
    long gid = argc == 5 ? strtol(argv[2], &end1, 10) : 0;
    double step = argc == 5 ? strtod(argv[4], &end2) : 0;
    if (argc != 5 || *end1 || gid < -1 || gid > 0xffff || (strcmp(argv[3], "0") != 0 &&
        strcmp(argv[3], "1") != 0) || *end2 || !(step > 0)) {
        rr_error("path-peer is started by 'rdmarun path-peer', which 'rdmarun check "
                 "--path-test' and a multi-node job's preflight run (hint: rdmarun check "
                 "--path-test)");
        return RR_EX_USAGE;
    }
    struct path_peer_opts o = {strcmp(argv[1], "-") == 0 ? NULL : argv[1], (int)gid,
                               argv[3][0] == '1', step};
    return path_peer_main(&o);
}
