/* Sizes as HPC users write them: 8388608, 8k, 8K, 8KB, 8KiB, 8m, 8M, 8MiB, 1g...
 * Every multiplier is binary (k = 1024), as in UCX and Open MPI. */
#ifndef RDMARUN_SIZE_H
#define RDMARUN_SIZE_H
#include <stdbool.h>
#include <stdint.h>

/* Returns false (and leaves *out alone) when `s` is not a size or overflows. */
bool parse_size(const char *s, uint64_t *out);

#endif
