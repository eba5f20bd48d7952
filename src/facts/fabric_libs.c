/* The fabric libraries of this node, asked the way their users ask them:
 * NCCL's version (ncclGetVersion of libnccl.so.2), the NCCL plugins on the
 * library path with the ABI versions they export and the name they give
 * NCCL (dlopen and dlsym, as NCCL's src/plugin/plugin_open.cc and net.cc do;
 * every plugin struct ncclNet_vN_t, ncclTuner_vN_t, ncclProfiler_vN_t starts
 * with `const char *name`), and the providers libfabric offers (fi_getinfo
 * with no hints, as fi_info does; libfabric opened by util/fi_dl.h, in the
 * child only). Loading a library runs its constructors
 * and a provider may wait on a wedged device: all of it runs in a child,
 * killed after FABRIC_LIBS_TIMEOUT_S, whose lines the parent reads. */
#include "facts/internal.h"
#include "util/fi_dl.h"
#include "util/proc.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FABRIC_LIBS_TIMEOUT_S 10.0
#define FABRIC_LIBS_MAX_OUTPUT (256 << 10)

/* Where plugins are installed besides LD_LIBRARY_PATH: the distributions'
 * library folders, aws-ofi-nccl's (/opt/amazon/ofi-nccl), Google's TCPX and
 * TCPXO installers' and the CUDA toolkit's. */
static const char *const plugin_dirs[] = {
    "/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
    "/usr/lib", "/opt/amazon/ofi-nccl/lib", "/opt/amazon/ofi-nccl/lib64",
    "/usr/local/tcpx/lib64", "/var/lib/tcpx/lib64", "/var/lib/tcpxo/lib64",
    "/usr/local/nvidia/lib64", "/usr/local/cuda/lib64",
};

/* The plugin kinds: file prefix, the symbol's stem, the highest version any
 * NCCL release asks for (NCCL 2.30: net v12, tuner v6, profiler v6). */
static const struct plugin_kind {
    const char *kind, *prefix, *symbol;
    int max;
    bool says_errors;   /* the row that reports its file's dlopen error */
} kinds[] = {
    {"net", "libnccl-net", "ncclNetPlugin_v", 12, true},
    {"collnet", "libnccl-net", "ncclCollNetPlugin_v", 12, false},
    {"tuner", "libnccl-tuner", "ncclTunerPlugin_v", 6, true},
    {"tuner", "libnccl-net", "ncclTunerPlugin_v", 6, false},   /* NCCL 2.21+: the net plugin's */
    {"profiler", "libnccl-profiler", "ncclProfiler_v", 6, true},
};

/* The name a plugin struct gives NCCL, printable and short, or "-". */
static void print_name(const void *sym)
{
    const char *name = sym ? *(const char *const *)sym : NULL;
    if (!name || strnlen(name, 64) == 64 || !is_printable(name) || strchr(name, '\t'))
        fputs("-", stdout);
    else
        fputs(name, stdout);
}

static void probe_plugin(const char *path, const char *file)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++) {
        if (!starts_with(file, kinds[k].prefix))
            continue;
        if (!h) {
            const char *e = dlerror();
            e = e ? e : "dlopen failed";
            if (kinds[k].says_errors)
                printf("plugin\t%s\t%s\t-\t-\t%.*s\n", kinds[k].kind, path,
                       (int)strcspn(e, "\t\n"), e);
            continue;
        }
        struct strvec abi = {0};
        const void *first = NULL;
        for (int v = kinds[k].max; v >= 1; v--) {
            char sym[64];
            snprintf(sym, sizeof(sym), "%s%d", kinds[k].symbol, v);
            const void *s = dlsym(h, sym);
            if (s && !first)
                first = s;
            if (s)
                sv_pushf(&abi, "v%d", v);
        }
        if (abi.n) {
            char *list = sv_join(&abi, ",");
            printf("plugin\t%s\t%s\t", kinds[k].kind, path);
            print_name(first);
            printf("\t%s\t-\n", list);
            free(list);
        }
        sv_free(&abi);
    }
}

static void scan_dir(const char *dir, struct strvec *seen)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *f = names[i]->d_name;
        char *path = xasprintf("%s/%s", dir, f), real[PATH_MAX];
        if (starts_with(f, "libnccl-") && strstr(f, ".so") && realpath(path, real) &&
            sv_find(seen, real) < 0) {
            sv_push(seen, real);
            probe_plugin(path, f);
        }
        free(path);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

/* NCCL itself: the library the dynamic loader finds, else the CUDA toolkit's. */
static void probe_nccl(void)
{
    static const char *const tries[] = {"libnccl.so.2", "/usr/local/cuda/lib64/libnccl.so.2"};
    for (size_t i = 0; i < sizeof(tries) / sizeof(*tries); i++) {
        void *h = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
        int (*get)(int *) = h ? (int (*)(int *))dlsym(h, "ncclGetVersion") : NULL;
        int code = 0;
        Dl_info where;
        if (get && get(&code) == 0 && code > 0) {
            /* NCCL_VERSION: X*10000+Y*100+Z since 2.9, X*1000+Y*100+Z before */
            int major = code >= 10000 ? code / 10000 : code / 1000;
            int minor = code >= 10000 ? code / 100 % 100 : code / 100 % 10;
            const char *file = dladdr((void *)get, &where) && where.dli_fname ? where.dli_fname
                                                                            : tries[i];
            printf("nccl\t%d.%d.%d\t%.*s\n", major, minor, code % 100,
                   (int)strcspn(file, "\t\n"), file);
            return;
        }
    }
}

static void probe_libfabric(void)
{
    const struct fi_api *fi = fi_api();
    struct fi_info *info = NULL, *hints = fi ? fi->dupinfo(NULL) : NULL;
    if (!hints) {
        printf("fi_version\t-\n");
        return;
    }
    hints->mode = ~0ULL;
    hints->domain_attr->mode = ~0ULL;
    /* every mode an application may handle, as fi_info's ~(FI_MR_BASIC |
     * FI_MR_SCALABLE), named without the two libfabric 2 deprecates */
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_RAW | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED |
                                  FI_MR_PROV_KEY | FI_MR_MMU_NOTIFY | FI_MR_RMA_EVENT |
                                  FI_MR_ENDPOINT | FI_MR_HMEM | FI_MR_COLLECTIVE;
    struct strvec seen = {0};
    /* the library's own API version and fi_info's hints (util/info.c), so
     * that the list is the one fi_info prints on libfabric 1.x and 2.x */
    if (fi->getinfo(fi->version(), NULL, NULL, 0, hints, &info) == 0)
        for (struct fi_info *i = info; i; i = i->next) {
            const char *prov = i->fabric_attr ? i->fabric_attr->prov_name : NULL;
            const char *dom = i->domain_attr ? i->domain_attr->name : NULL;
            char *line = xasprintf("%s\t%s", prov ? prov : "-", dom ? dom : "-");
            if (prov && sv_find(&seen, line) < 0 && !strchr(line, '\n')) {
                printf("fi\t%s\n", line);
                sv_push(&seen, line);
            }
            free(line);
        }
    fi->freeinfo(info);
    fi->freeinfo(hints);
    sv_free(&seen);
    uint32_t v = fi->version();
    printf("fi_version\t%u.%u\n", FI_MAJOR(v), FI_MINOR(v));
}

static void in_child(void *arg)
{
    (void)arg;
    struct strvec dirs = {0}, seen = {0};
    const char *ld = getenv("LD_LIBRARY_PATH");
    if (ld)
        sv_split(&dirs, ld, ":");
    for (size_t i = 0; i < sizeof(plugin_dirs) / sizeof(*plugin_dirs); i++)
        sv_push(&dirs, plugin_dirs[i]);
    probe_nccl();
    fflush(stdout);
    for (size_t i = 0; i < dirs.n; i++)
        if (dirs.v[i][0] == '/')
            scan_dir(dirs.v[i], &seen);
    fflush(stdout);
    probe_libfabric();
    fflush(stdout);
    sv_free(&dirs);
    sv_free(&seen);
}

static void add_plugin(struct facts *f, char **field)
{
    GROW(f->nccl_plugins, f->nccl_plugins_cap, f->nnccl_plugins + 1);
    struct nccl_plugin *p = &f->nccl_plugins[f->nnccl_plugins++];
    p->kind = xstrdup(field[1]);
    p->path = xstrdup(field[2]);
    p->name = strcmp(field[3], "-") ? xstrdup(field[3]) : NULL;
    p->abi = strcmp(field[4], "-") ? xstrdup(field[4]) : NULL;
    p->error = strcmp(field[5], "-") ? xstrdup(field[5]) : NULL;
}

static void take_line(struct facts *f, const char *line)
{
    /* a file name or dlerror's words with control bytes never reach a
     * terminal: the line is left out (tabs separate the fields) */
    for (const char *c = line; *c; c++)
        if ((unsigned char)*c < 0x20 && *c != '\t')
            return;
    if (strchr(line, 0x7f))
        return;
    struct strvec field = {0};
    sv_split(&field, line, "\t");
    if (field.n == 3 && strcmp(field.v[0], "nccl") == 0 && !f->nccl_version) {
        f->nccl_version = xstrdup(field.v[1]);
        f->nccl_library = xstrdup(field.v[2]);
    } else if (field.n == 6 && strcmp(field.v[0], "plugin") == 0) {
        add_plugin(f, field.v);
    } else if (field.n == 3 && strcmp(field.v[0], "fi") == 0) {
        char *entry = xasprintf("%s %s", field.v[1], field.v[2]);
        list_add(&f->fi_providers, entry);
        free(entry);
    } else if (field.n == 2 && strcmp(field.v[0], "fi_version") == 0 && !f->fi_version &&
               strcmp(field.v[1], "-") != 0) {
        f->fi_version = xstrdup(field.v[1]);
    }
    sv_free(&field);
}

char *facts_fi_provider_names(const struct facts *f)
{
    struct strvec names = {0};
    for (char **p = f->fi_providers; p && *p; p++) {
        char *name = xstrndup(*p, strcspn(*p, " "));
        if (sv_find(&names, name) < 0)
            sv_push(&names, name);
        free(name);
    }
    char *list = names.n ? sv_join(&names, ", ") : NULL;
    sv_free(&names);
    return list;
}

void facts_read_fabric_libs(struct facts *f)
{
    struct proc_spec s = {.fn = in_child, .out = PROC_PIPE, .err = PROC_NULL,
                          .die_with_parent = true, .own_group = true};
    char *out = NULL;
    bool timed_out = false;
    proc_capture(&s, FABRIC_LIBS_TIMEOUT_S, FABRIC_LIBS_MAX_OUTPUT, &out, &timed_out);
    f->fabric_libs_timed_out = timed_out;
    if (!f->fi_providers)
        f->fi_providers = xcalloc(1, sizeof(*f->fi_providers));
    for (char *line = out, *end; line && *line; line = end) {
        end = line + strcspn(line, "\n");
        char *one = xstrndup(line, (size_t)(end - line));
        take_line(f, one);
        free(one);
        if (*end)
            end++;
    }
    free(out);
}

/* The plugin ABI versions each NCCL release asks for, newest first (its
 * src/plugin/net.cc, tuner.cc, profiler.cc dlsym strings at each tag):
 * from release FROM on, net/collnet NET_HI..NET_LO, tuner TUNER_HI..TUNER_LO,
 * profiler PROF_HI..PROF_LO (0: none). */
static const struct abi_row {
    int from;   /* major * 100 + minor: 2.19 is 219 */
    int net_hi, net_lo, tuner_hi, tuner_lo, prof_hi, prof_lo;
} abi_rows[] = {
    {204, 2, 2, 0, 0, 0, 0},     {206, 3, 3, 0, 0, 0, 0},     {208, 4, 4, 0, 0, 0, 0},
    {212, 5, 4, 0, 0, 0, 0},     {213, 6, 4, 0, 0, 0, 0},     {219, 7, 5, 1, 1, 0, 0},
    {220, 8, 5, 1, 1, 0, 0},     {221, 8, 5, 2, 2, 0, 0},     {222, 8, 5, 3, 2, 0, 0},
    {223, 8, 5, 3, 2, 1, 1},     {224, 9, 5, 4, 2, 2, 1},     {226, 10, 6, 4, 2, 3, 1},
    {227, 10, 6, 4, 2, 4, 1},    {228, 11, 6, 5, 2, 5, 1},    {229, 11, 6, 5, 2, 6, 1},
    {230, 12, 6, 6, 2, 6, 1},
};

int nccl_plugin_abi_used(const char *nccl_version, const char *kind, const char *abi, int *lo,
                         int *hi)
{
    int major = 0, minor = 0;
    *lo = *hi = 0;
    if (!nccl_version || sscanf(nccl_version, "%d.%d", &major, &minor) != 2 || !abi)
        return -1;
    const struct abi_row *row = NULL;
    for (size_t i = 0; i < sizeof(abi_rows) / sizeof(*abi_rows); i++)
        if (major * 100 + minor >= abi_rows[i].from)
            row = &abi_rows[i];
    if (!row)
        return -1;
    bool net = strcmp(kind, "net") == 0 || strcmp(kind, "collnet") == 0;
    *hi = net ? row->net_hi : strcmp(kind, "tuner") == 0 ? row->tuner_hi : row->prof_hi;
    *lo = net ? row->net_lo : strcmp(kind, "tuner") == 0 ? row->tuner_lo : row->prof_lo;
    for (const char *v = strchr(abi, 'v'); v; v = strchr(v + 1, 'v')) {
        int n = atoi(v + 1);
        if (n >= *lo && n <= *hi)
            return n;   /* newest first: the first NCCL takes */
    }
    return 0;
}
