/* LIBEXECDIR/rdmarun/mpi-cvars: asks an MPICH-ABI library (libmpich.so.12,
 * and Intel MPI's libmpi.so.12) through its own tool interface, MPI_T, what
 * control variables it has and whether it takes given values. MPICH reads
 * its MPIR_CVAR_* variables from the environment in MPI_T_init_thread
 * (MPIR_T_cvar_init) and fails on a value it cannot parse ("Invalid
 * MPIR_CVAR_X value (bogus)"), but ignores a name it does not have: so
 * rdmarun checks names against the list and values by MPICH's own parser,
 * never a hand list. A program of its own: loading MPICH (and its UCX,
 * hwloc, libfabric) is the check's cost, not every rdmarun's.
 *   mpi-cvars LIBRARY                  "library PATH", then "cvar NAME" lines
 *   mpi-cvars LIBRARY NAME=VALUE...    "library PATH", then "ok" or "error TEXT"
 * The library is opened by the name given, as the ranks' loader finds it
 * (LD_LIBRARY_PATH). Exit 0; 2 when the library cannot be used. */
#include <dlfcn.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MPICH's own prefixes for its control variables (mpir_cvars.c reads all three). */
static const char *const prefixes[] = {"MPIR_CVAR_", "MPICH_", "MPIR_PARAM_"};

extern char **environ;

/* Only the values asked about: the caller's own MPICH variables would be
 * judged too, and a list would fail on a bad one. */
static void clear_cvars(void)
{
    for (size_t i = 0; environ[i];) {
        const char *e = environ[i];
        bool ours = false;
        for (size_t k = 0; k < sizeof(prefixes) / sizeof(*prefixes); k++)
            ours = ours || strncmp(e, prefixes[k], strlen(prefixes[k])) == 0;
        if (!ours) {
            i++;
            continue;
        }
        const char *eq = strchr(e, '=');
        char name[256];
        size_t n = eq ? (size_t)(eq - e) : strlen(e);
        if (n >= sizeof(name)) {
            i++;
            continue;
        }
        memcpy(name, e, n);
        name[n] = '\0';
        unsetenv(name);   /* environ shrinks: i stays */
    }
}

/* One line of text: no tab, newline or other control character. */
static void print_clean(const char *s)
{
    for (; *s; s++)
        putchar((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
}

/* The MPI tool interface's functions of the library, by dlsym. */
struct mpi_t {
    int (*init)(int, int *);
    int (*count)(int *);
    int (*info)(int, char *, int *, int *, MPI_Datatype *, MPI_T_enum *, char *, int *, int *,
                int *);
    int (*error_string)(int, char *, int *);
};

static bool mpi_t_of(void *lib, struct mpi_t *t)
{
    t->init = (int (*)(int, int *))dlsym(lib, "MPI_T_init_thread");
    t->count = (int (*)(int *))dlsym(lib, "MPI_T_cvar_get_num");
    t->info = (int (*)(int, char *, int *, int *, MPI_Datatype *, MPI_T_enum *, char *, int *,
                       int *, int *))dlsym(lib, "MPI_T_cvar_get_info");
    t->error_string = (int (*)(int, char *, int *))dlsym(lib, "MPI_Error_string");
    return t->init && t->count && t->info && t->error_string;
}

/* "error\tTEXT": why MPI_T_init_thread failed, in the library's words. */
static void say_init_error(const struct mpi_t *t, int rc)
{
    char text[MPI_MAX_ERROR_STRING + 1] = "";
    int len = 0;
    if (t->error_string(rc, text, &len) != MPI_SUCCESS || len <= 0)
        snprintf(text, sizeof(text), "MPI_T_init_thread failed (error %d)", rc);
    text[len > 0 && len <= MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING] = '\0';
    printf("error\t");
    print_clean(text);
    putchar('\n');
}

/* "cvar\tNAME" for each control variable the library has. */
static void list_cvars(const struct mpi_t *t)
{
    int n = 0;
    if (t->count(&n) != MPI_SUCCESS)
        n = 0;
    for (int i = 0; i < n; i++) {
        char name[256];
        int name_len = sizeof(name), verbosity, binding, scope, desc_len = 0;
        MPI_Datatype type;
        MPI_T_enum enumtype;
        if (t->info(i, name, &name_len, &verbosity, &type, &enumtype, NULL, &desc_len, &binding,
                    &scope) != MPI_SUCCESS)
            continue;
        name[sizeof(name) - 1] = '\0';
        printf("cvar\t");
        print_clean(name);
        putchar('\n');
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "mpi-cvars: run by rdmarun for MPICH jobs: mpi-cvars LIBRARY "
                        "[NAME=VALUE...]\n");
        return 64;
    }
    clear_cvars();
    for (int i = 2; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i]) {
            fprintf(stderr, "mpi-cvars: '%s' is not NAME=VALUE\n", argv[i]);
            return 64;
        }
        *eq = '\0';
        setenv(argv[i], eq + 1, 1);
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("unusable\t");
        print_clean(dlerror());
        putchar('\n');
        return 2;
    }
    struct mpi_t t;
    if (!mpi_t_of(lib, &t)) {
        printf("unusable\t%s has no MPI tool interface (MPI_T)\n", argv[1]);
        return 2;
    }
    Dl_info where;
    printf("library\t");
    print_clean(dladdr((void *)t.init, &where) && where.dli_fname ? where.dli_fname : argv[1]);
    putchar('\n');
    int provided;
    int rc = t.init(MPI_THREAD_SINGLE, &provided);
    if (rc != MPI_SUCCESS)
        say_init_error(&t, rc);
    else if (argc > 2)
        printf("ok\n");
    else
        list_cvars(&t);
    return 0;
}
