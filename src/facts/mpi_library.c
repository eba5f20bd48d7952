/* Which MPI library and which rdma-core this node has: asked of the
 * libraries themselves (MPI_Get_library_version, libibverbs' file name),
 * never of a package manager. */
#include "facts/facts.h"
#include "util/file_cache.h"
#include "util/proc.h"
#include "util/xalloc.h"
#include <dlfcn.h>
#include <infiniband/verbs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MPI_Get_library_version may be called before MPI_Init (MPI-3): ask the
 * MPI library the job's ranks load (libmpi.so.40: Open MPI 3 to 5;
 * libmpich.so.12: MPICH). */
#define MPI_LIBRARY_TIMEOUT_S 10
static char *mpi_library_here(const char *soname);

/* In a child of rdmarun: the library's version on stdout. */
static void print_mpi_library(void *soname)
{
    char *v = mpi_library_here(soname);
    if (v)
        fputs(v, stdout);
    free(v);
}

/* Asks the library in a child of rdmarun's own: see facts_mpi_library. */
static char *mpi_library_asked(const char *soname)
{
    /* dlopen runs the library's constructors and pulls its dependencies
     * in (MPICH's UCX and libfabric): never in rdmarun itself, but in a
     * child of its own that prints the version and ends. */
    struct proc_spec spec = {.fn = print_mpi_library, .arg = (void *)soname, .err = PROC_NULL};
    char *out = NULL;
    bool timed_out;
    int st = proc_capture(&spec, MPI_LIBRARY_TIMEOUT_S, 8192, &out, &timed_out);
    if (st != 0 || timed_out || !out || !*out) {
        free(out);
        return NULL;
    }
    return out;
}

/* A library named by its path is asked once per build of it (file_cache:
 * Open MPI 5's libmpi takes 200 ms to load, every dry run); a bare soname
 * (dlopen's search) is asked each time. */
char *facts_mpi_library(const char *soname)
{
    char *real = strchr(soname, '/') ? realpath(soname, NULL) : NULL;
    struct file_cache c;
    if (!file_cache_open(&c, "mpi-library", real)) {
        free(real);
        return mpi_library_asked(soname);
    }
    char *v = file_cache_get(&c, 8192);
    if (!v || !*v) {
        free(v);
        v = mpi_library_asked(real);
        if (v)
            file_cache_put(&c, v);
    }
    file_cache_close(&c);
    free(real);
    return v;
}

static char *mpi_library_here(const char *soname)
{
    void *h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (!h)
        return NULL;
    int (*get)(char *, int *) = (int (*)(char *, int *))dlsym(h, "MPI_Get_library_version");
    char buf[8192] = "";
    int len = 0;
    char *out = NULL;
    if (get && get(buf, &len) == 0) {
        /* "Open MPI v4.1.4, package: ..." -> "Open MPI 4.1.4";
         * "MPICH Version:\t4.0.2\nMPICH Release date: ..." -> "MPICH 4.0.2" */
        buf[strcspn(buf, ",\n")] = '\0';
        char *tag = strstr(buf, " Version:");
        if (tag) {
            char *v = tag + strlen(" Version:");
            v += strspn(v, " \t");
            memmove(tag + 1, v, strlen(v) + 1);
        }
        char *v = strstr(buf, " v");
        if (v && v[2] >= '0' && v[2] <= '9')
            memmove(v + 1, v + 2, strlen(v + 2) + 1);
        out = buf[0] ? xstrdup(buf) : NULL;
    }
    dlclose(h);
    return out;
}

/* libibverbs.so.1.14.44.0 is rdma-core 44: its library version's third
 * number is the rdma-core release it was built in. */
char *facts_rdma_core(void)
{
    Dl_info info;
    char *real = NULL, *out = NULL;
    if (dladdr((void *)ibv_get_device_list, &info) && info.dli_fname &&
        (real = realpath(info.dli_fname, NULL))) {
        unsigned a, b, c;
        const char *so = strstr(real, ".so.");
        if (so && sscanf(so + 4, "%u.%u.%u", &a, &b, &c) == 3)
            out = xasprintf("%u", c);
    }
    free(real);
    return out;
}
