/* The log families rdmarun reads evidence from, in the order a line is
 * offered to them. */
#include "evidence/internal.h"

const struct log_family log_families[] = {
    {"ucx", ucx_wanted, ucx_parse_line},
    {"nccl", nccl_wanted, nccl_parse_line},
    {"ompi", ompi_wanted, ompi_parse_line},
    {"impi", impi_wanted, impi_parse_line},
    {"ranks", ranks_wanted, ranks_parse_line},
    {"libfabric", libfabric_wanted, libfabric_parse_line},
    {"mvapich", mvapich_wanted, mvapich_parse_line},
    {"perftest", bench_wanted, bench_parse_line},
};
const size_t nlog_families = sizeof(log_families) / sizeof(*log_families);
