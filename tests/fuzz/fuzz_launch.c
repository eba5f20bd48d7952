/* libFuzzer target: what rdmarun reads to start a job. The input is both a
 * launcher's help (launcher_options_parse: Open MPI's --help all, PRRTE's
 * table, srun's --help, Hydra's mpiexec -h) and a program file whose MPI is
 * read from its ELF dynamic section (program_mpi, libelf). */
#define _GNU_SOURCE
#include "launch/launcher_options.h"
#include "launch/program_mpi.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    struct launcher_opts o;
    memset(&o, 0, sizeof(o));
    launcher_options_parse(text, &o);
    for (size_t i = 0; i < o.names.n; i++)
        if (launcher_option_nargs(&o, o.names.v[i]) < 0)
            abort();   /* a listed name is an option */
    launcher_options_free(&o);
    free(text);

    int fd = memfd_create("program", 0);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) == (ssize_t)size) {
        char path[64], *lib = NULL, *file = NULL;
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        int mpi = program_mpi(path, &lib, &file);
        /* the family is the named library's (libmpi.so.12 not Intel's: MPICH) */
        if ((mpi >= 0) != (lib != NULL) ||
            (lib && mpi_of_library(lib) != mpi &&
             !(mpi_of_library(lib) == MPI_IMPI && mpi == MPI_MPICH)))
            abort();
        free(lib);
        free(file);
    }
    close(fd);
    return 0;
}
