/* Which MPI a program is linked with, from its own ELF file: the MPI
 * library among the shared libraries it names (DT_NEEDED), as the dynamic
 * linker will load them. Read with elfutils' libelf. */
#ifndef RDMARUN_PROGRAM_MPI_H
#define RDMARUN_PROGRAM_MPI_H
#include "profile/settings.h"

/* The MPI family of `program` (a path, or a name looked up on PATH):
 * MPI_OPENMPI (libmpi.so.40, Open MPI 3 to 5), MPI_MPICH (libmpich.so.12:
 * MPICH and its derivatives), or -1 when it names neither (a script, a
 * program without MPI, one linked statically, one that cannot be read). *lib,
 * when not NULL, gets the library's name (caller frees), or NULL. */
int program_mpi(const char *program, char **lib);
/* The same for a library name alone ("libmpich.so.12"): -1 for any other. */
int mpi_of_library(const char *soname);

#endif
