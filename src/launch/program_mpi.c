#include "launch/program_mpi.h"
#include "launch/launch.h"
#include "util/fs.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each family's libmpi sonames, as their builds name them: Open MPI 3.0 to
 * 5 install libmpi.so.40 (and its Fortran and C++ libraries beside it);
 * MPICH 3.1 and later libmpich.so.12 (with libmpicxx, libmpifort), which
 * Debian's MPICH 4.0 and 4.2 ship. */
static const struct { const char *prefix; int mpi; } sonames[] = {
    {"libmpi.so.40", MPI_OPENMPI},     {"libmpi_mpifh.so.40", MPI_OPENMPI},
    {"libmpi_usempif08.so.40", MPI_OPENMPI}, {"libmpi_cxx.so.40", MPI_OPENMPI},
    {"libmpich.so", MPI_MPICH},        {"libmpicxx.so", MPI_MPICH},
    {"libmpifort.so", MPI_MPICH},      {"libmpichf90.so", MPI_MPICH},
};

int mpi_of_library(const char *soname)
{
    for (size_t i = 0; i < sizeof(sonames) / sizeof(*sonames); i++)
        if (starts_with(soname, sonames[i].prefix))
            return sonames[i].mpi;
    return -1;
}

/* The first MPI library among the DT_NEEDED entries of the ELF file at fd. */
static int needed_mpi(int fd, char **lib)
{
    int mpi = -1;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    if (!e || elf_kind(e) != ELF_K_ELF) {
        elf_end(e);
        return -1;
    }
    for (Elf_Scn *scn = NULL; mpi < 0 && (scn = elf_nextscn(e, scn));) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC || !shdr.sh_entsize)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t n = data ? data->d_size / shdr.sh_entsize : 0;
        for (size_t i = 0; mpi < 0 && i < n; i++) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
                break;
            const char *name = dyn.d_tag == DT_NEEDED
                             ? elf_strptr(e, shdr.sh_link, (size_t)dyn.d_un.d_val) : NULL;
            if (name && (mpi = mpi_of_library(name)) >= 0 && lib)
                *lib = xstrdup(name);
        }
    }
    elf_end(e);
    return mpi;
}

int program_mpi(const char *program, char **lib)
{
    if (lib)
        *lib = NULL;
    if (!program || !*program || elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    char *path = launch_on_path(program);
    /* Never blocking on a FIFO, never a device: a regular file or nothing. */
    FILE *f = path ? open_input(path) : NULL;
    free(path);
    if (!f)
        return -1;
    int mpi = needed_mpi(fileno(f), lib);
    fclose(f);
    return mpi;
}
