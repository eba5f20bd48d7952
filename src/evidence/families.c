/* The log families rdmarun reads evidence from, in the order a line is
 * offered to them. */
#include "evidence/internal.h"

const struct log_family log_families[] = {
    {"ucx", ucx_wanted, ucx_parse_line, false},
    {"nccl", nccl_wanted, nccl_parse_line, false},
    {"ompi", ompi_wanted, ompi_parse_line, true},
    {"impi", impi_wanted, impi_parse_line, true},
    {"ranks", ranks_wanted, ranks_parse_line, true},
    {"libfabric", libfabric_wanted, libfabric_parse_line, true},
    {"mvapich", mvapich_wanted, mvapich_parse_line, true},
    {"psm3", psm3_wanted, psm3_parse_line, true},
    {"mpich", mpich_wanted, mpich_parse_line, true},
    {"perftest", bench_wanted, bench_parse_line, false},
};
const size_t nlog_families = sizeof(log_families) / sizeof(*log_families);
