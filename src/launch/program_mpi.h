/* Which MPI a program is linked with, from its own ELF file: the MPI
 * library among the shared libraries it names (DT_NEEDED), as the dynamic
 * linker will load them. Read with elfutils' libelf. */
#ifndef RDMARUN_PROGRAM_MPI_H
#define RDMARUN_PROGRAM_MPI_H
#include "profile/settings.h"

/* The MPI family of `program` (a path, or a name looked up on PATH):
 * MPI_OPENMPI (libmpi.so.40, Open MPI 3 to 5), MPI_MPICH (libmpich.so.12:
 * MPICH and its derivatives), MPI_IMPI (libmpi.so.12 with Intel's
 * impi_info beside it), or -1 when it names none (a script, a program
 * without MPI, one linked statically, one that cannot be read). *lib, when
 * not NULL, gets the library's name (caller frees), or NULL; *path the
 * file the dynamic linker would load for it, or NULL when not found. */
int program_mpi(const char *program, char **lib, char **path);
/* The file the dynamic linker would load for `soname` by dlopen from a
 * program without RPATH/RUNPATH (LD_LIBRARY_PATH, then the system's
 * folders; not ld.so.cache's extra ones), as a real path; NULL when none
 * is there. Caller frees. */
char *library_path(const char *soname);
/* The same for a library name alone ("libmpich.so.12"; libmpi.so.12 is
 * MPI_IMPI): -1 for any other. */
int mpi_of_library(const char *soname);

#endif
