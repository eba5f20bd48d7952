/* LIBEXECDIR/rdmarun/path-peer: the path test's node process
 * (path_peer.c), a program of its own so that PMIx and its libraries
 * (libevent, munge) are loaded by the path test alone, never by every
 * rdmarun and every rank's helper. `rdmarun path-peer` checks its options
 * and runs it:  path-peer DEVICE|- GID_INDEX ALL_PAIRS(0|1) STEP_SECONDS;
 * `path-peer --version` prints the PMIx it runs with (rdmarun version).
 * PMIx is joined here; the verbs test (path_peer.c) or the libfabric one
 * (path_peer_fi.c) runs the node's part. */
#include "preflight/path_peer.h"
#include "preflight/path_peer_parts.h"
#include "util/msg.h"
#include "util/proc.h"
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int path_peer_main(const struct path_peer_opts *o)
{
    struct peer p = {.o = o, .t0 = proc_now()};
    pmix_status_t rc = PMIx_Init(&p.me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        rr_error("path-peer: PMIx_Init: %s (hint: 'rdmarun path-peer' is started by 'rdmarun "
                 "check --path-test' through mpirun or srun --mpi=pmix)", PMIx_Error_string(rc));
        return RR_EX_USAGE;
    }
    p.rank = (int)p.me.rank;
    p.n = peer_job_size(&p.me);
    if (p.n < 1) {
        rr_error("path-peer: PMIx does not say how many processes the job has");
        PMIx_Finalize(NULL, 0);
        return RR_EX_SOFTWARE;
    }
    peer_make_ends(&p);
    if (o->provider)
        peer_fi_run(&p);
    else
        peer_verbs_run(&p);
    PMIx_Finalize(NULL, 0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        const char *v = PMIx_Get_version();
        printf("%s\n", v ? v : "PMIx (no version)");
        return 0;
    }
    char *end1 = NULL, *end2 = NULL;
    long gid = argc == 6 ? strtol(argv[2], &end1, 10) : 0;
    double step = argc == 6 ? strtod(argv[4], &end2) : 0;
    if (argc != 6 || *end1 || gid < -1 || gid > 0xffff || (strcmp(argv[3], "0") != 0 &&
        strcmp(argv[3], "1") != 0) || *end2 || !(step > 0)) {
        rr_error("path-peer is started by 'rdmarun path-peer', which 'rdmarun check "
                 "--path-test' and a multi-node job's preflight run (hint: rdmarun check "
                 "--path-test)");
        return RR_EX_USAGE;
    }
    struct path_peer_opts o = {strcmp(argv[1], "-") == 0 ? NULL : argv[1], (int)gid,
                               argv[3][0] == '1', step,
                               strcmp(argv[5], "-") == 0 ? NULL : argv[5]};
    return path_peer_main(&o);
}
