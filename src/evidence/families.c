/* The log families rdmarun reads evidence from, in the order a line is
 * offered to them (enum log_family_id), and their parser states. */
#include "evidence/internal.h"

const struct log_family log_families[] = {
    [FAMILY_UCX] = {"ucx", ucx_wanted, ucx_parse_line, false, NULL, NULL},
    [FAMILY_NCCL] = {"nccl", nccl_wanted, nccl_parse_line, false, nccl_state_new, NULL},
    [FAMILY_OMPI] = {"ompi", ompi_wanted, ompi_parse_line, true, ompi_state_new, NULL},
    [FAMILY_IMPI] = {"impi", impi_wanted, impi_parse_line, true, impi_state_new, impi_state_free},
    [FAMILY_RANKS] = {"ranks", ranks_wanted, ranks_parse_line, true, NULL, NULL},
    [FAMILY_LIBFABRIC] = {"libfabric", libfabric_wanted, libfabric_parse_line, true,
                          libfabric_state_new, libfabric_state_free},
    [FAMILY_MVAPICH] = {"mvapich", mvapich_wanted, mvapich_parse_line, true, NULL, NULL},
    [FAMILY_PSM3] = {"psm3", psm3_wanted, psm3_parse_line, true, NULL, NULL},
    [FAMILY_MPICH] = {"mpich", mpich_wanted, mpich_parse_line, true, NULL, NULL},
    [FAMILY_PERFTEST] = {"perftest", bench_wanted, bench_parse_line, false, bench_state_new, NULL},
};
const size_t nlog_families = sizeof(log_families) / sizeof(*log_families);
_Static_assert(sizeof(log_families) / sizeof(*log_families) <= EVIDENCE_MAX_FAMILIES,
               "EVIDENCE_MAX_FAMILIES holds every family's state");
