#include "launch/program_mpi.h"
#include "launch/launch.h"
#include "util/fs.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each family's libmpi sonames, as their builds name them: Open MPI 3.0 to
 * 5 install libmpi.so.40 (and its Fortran and C++ libraries beside it);
 * MPICH 3.1 and later libmpich.so.12 (with libmpicxx, libmpifort), which
 * Debian's MPICH 4.0 and 4.2 ship; Intel MPI libmpi.so.12 (MPICH's ABI,
 * with the same libmpifort.so.12: a library that two MPIs share decides
 * only when nothing else does). */
static const struct { const char *prefix; int mpi; bool shared; } sonames[] = {
    {"libmpi.so.40", MPI_OPENMPI, false},     {"libmpi_mpifh.so.40", MPI_OPENMPI, false},
    {"libmpi_usempif08.so.40", MPI_OPENMPI, false}, {"libmpi_cxx.so.40", MPI_OPENMPI, false},
    {"libmpich.so", MPI_MPICH, false},        {"libmpicxx.so", MPI_MPICH, false},
    {"libmpichf90.so", MPI_MPICH, false},     {"libmpi.so.12", MPI_IMPI, false},
    {"libmpifort.so", MPI_MPICH, true},
};

static int soname_index(const char *soname)
{
    for (size_t i = 0; i < sizeof(sonames) / sizeof(*sonames); i++)
        if (starts_with(soname, sonames[i].prefix))
            return (int)i;
    return -1;
}

int mpi_of_library(const char *soname)
{
    int i = soname_index(soname);
    return i < 0 ? -1 : sonames[i].mpi;
}

/* Where the dynamic linker finds SONAME for a program with this RUNPATH (or
 * RPATH), in ld.so's order: RPATH (when there is no RUNPATH), then
 * LD_LIBRARY_PATH, then RUNPATH, then the system's directories ($ORIGIN is
 * the program's folder). ld.so.cache's extra folders are not read: a
 * library only there is not found, and the program's MPI stays as its
 * soname says. NULL when none is there. */
static char *find_library(const char *soname, const char *rpath, const char *runpath,
                          const char *origin)
{
    static const char *const system_dirs = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
                                           "/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:"
                                           "/lib64:/usr/lib64:/lib:/usr/lib";
    const char *ld = getenv("LD_LIBRARY_PATH");
    const char *order[] = {runpath ? NULL : rpath, ld, runpath, system_dirs};
    for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++) {
        if (!order[k])
            continue;
        struct strvec dirs = {0};
        sv_split(&dirs, order[k], ":");
        char *found = NULL;
        for (size_t i = 0; i < dirs.n && !found; i++) {
            const char *d = dirs.v[i];
            char *dir = starts_with(d, "$ORIGIN") ? xasprintf("%s%s", origin, d + 7)
                      : starts_with(d, "${ORIGIN}") ? xasprintf("%s%s", origin, d + 9)
                      : xstrdup(d);
            char *cand = xasprintf("%s/%s", dir, soname);
            FILE *f = open_input(cand);   /* a regular file (through links), readable */
            if (f) {
                fclose(f);
                found = realpath(cand, NULL);
            }
            free(cand);
            free(dir);
        }
        sv_free(&dirs);
        if (found)
            return found;
    }
    return NULL;
}

char *library_path(const char *soname)
{
    return find_library(soname, NULL, NULL, "");
}

/* libmpi.so.12 is Intel MPI's when Intel's own tool is beside it
 * (I_MPI_ROOT/lib/libmpi.so.12 and I_MPI_ROOT/bin/impi_info: oneAPI and
 * the impi-rt wheel); another MPICH-ABI library under that name (MPICH 5,
 * MVAPICH2) speaks MPICH's vocabulary. */
static bool intel_mpi_at(const char *libpath)
{
    char *tool = mpi_tool_beside(libpath, "impi_info");
    bool intel = tool != NULL;
    free(tool);
    return intel;
}

/* The MPI library among the DT_NEEDED entries of the ELF file at fd (a
 * family's own library before one that two MPIs share), its soname, and
 * the file the dynamic linker would load for it. */
static int needed_mpi(int fd, const char *origin, char **lib, char **path)
{
    int best = -1;
    char *rpath = NULL, *runpath = NULL, *best_name = NULL;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    if (!e || elf_kind(e) != ELF_K_ELF) {
        elf_end(e);
        return -1;
    }
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC || !shdr.sh_entsize)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t n = data ? data->d_size / shdr.sh_entsize : 0;
        for (size_t i = 0; i < n; i++) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
                break;
            if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RPATH && dyn.d_tag != DT_RUNPATH)
                continue;
            const char *name = elf_strptr(e, shdr.sh_link, (size_t)dyn.d_un.d_val);
            if (!name)
                continue;
            if (dyn.d_tag == DT_RPATH && !rpath)
                rpath = xstrdup(name);
            else if (dyn.d_tag == DT_RUNPATH && !runpath)
                runpath = xstrdup(name);
            else if (dyn.d_tag == DT_NEEDED) {
                int k = soname_index(name);
                if (k >= 0 && (best < 0 || (sonames[best].shared && !sonames[k].shared))) {
                    best = k;
                    free(best_name);
                    best_name = xstrdup(name);
                }
            }
        }
    }
    elf_end(e);
    int mpi = best < 0 ? -1 : sonames[best].mpi;
    char *found = best_name ? find_library(best_name, rpath, runpath, origin) : NULL;
    if (mpi == MPI_IMPI && !(found && intel_mpi_at(found)))
        mpi = MPI_MPICH;   /* libmpi.so.12 of another MPICH: MVAPICH2, or none found */
    if (lib)
        *lib = best_name;
    else
        free(best_name);
    if (path)
        *path = found;
    else
        free(found);
    free(rpath);
    free(runpath);
    return mpi;
}

int program_mpi(const char *program, char **lib, char **path)
{
    if (lib)
        *lib = NULL;
    if (path)
        *path = NULL;
    if (!program || !*program || elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    char *file = launch_on_path(program);
    /* Never blocking on a FIFO, never a device: a regular file or nothing. */
    FILE *f = file ? open_input(file) : NULL;
    char *real = f ? realpath(file, NULL) : NULL;
    free(file);
    if (!f) {
        free(real);
        return -1;
    }
    char *origin = real ? xstrdup(real) : xstrdup(".");
    char *slash = strrchr(origin, '/');
    if (slash)
        *slash = '\0';
    int mpi = needed_mpi(fileno(f), origin, lib, path);
    fclose(f);
    free(origin);
    free(real);
    return mpi;
}
