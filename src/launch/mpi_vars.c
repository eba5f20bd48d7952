/* The MPI's own variables, checked by the program's own MPI before the job
 * starts, with the profile line they came from:
 * - MPICH's control variables (MPIR_CVAR_*), through the mpi-cvars helper
 *   (mpi_cvars_main.c: MPICH's tool interface, MPI_T). MPICH reads them in
 *   MPI_Init and fails there on a value it cannot parse, but silently
 *   ignores a name it does not have: both are caught.
 * - Intel MPI's I_MPI_* variables, by name, against the list of Intel's own
 *   impi_info beside the library (Intel parses the values only in MPI_Init;
 *   a name it lacks it ignores). */
#include "launch/launch.h"
#include "launch/mpi_vars.h"
#include "launch/program_mpi.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CVAR_PREFIX "MPIR_CVAR_"
#define HELPER_TIMEOUT_S 30.0
#define HELPER_MAX (1 << 20)

extern char **environ;

/* What the helper said: its lines "WORD\tTEXT". */
struct answer {
    char *library;        /* the file the loader chose */
    char *unusable;       /* why the library cannot be asked, or NULL */
    char *error;          /* MPICH's refusal of the values, or NULL */
    struct strvec cvars;  /* the names it has */
};

static void ask(const char *helper, const char *library, const struct strvec *values,
                struct answer *a)
{
    memset(a, 0, sizeof(*a));
    struct strvec argv = {0};
    sv_push(&argv, helper);
    sv_push(&argv, library);
    for (size_t i = 0; values && i < values->n; i++)
        sv_push(&argv, values->v[i]);
    struct proc_spec spec = {.argv = argv.v, .err = PROC_NULL, .own_group = true};
    char *out = NULL;
    bool timed_out = false;
    int status = proc_capture(&spec, HELPER_TIMEOUT_S, HELPER_MAX, &out, &timed_out);
    sv_free(&argv);
    if (status < 0 || timed_out) {
        a->unusable = xstrdup(timed_out ? "it did not answer in 30 s" : "it cannot run");
        free(out);
        return;
    }
    struct strvec lines = {0};
    sv_split(&lines, out ? out : "", "\n");
    free(out);
    for (size_t i = 0; i < lines.n; i++) {
        char *tab = strchr(lines.v[i], '\t');
        const char *text = tab ? tab + 1 : "";
        if (tab)
            *tab = '\0';
        if (strcmp(lines.v[i], "library") == 0 && !a->library)
            a->library = xstrdup(text);
        else if (strcmp(lines.v[i], "unusable") == 0 && !a->unusable)
            a->unusable = xstrdup(text);
        else if (strcmp(lines.v[i], "error") == 0 && !a->error)
            a->error = xstrdup(text);
        else if (strcmp(lines.v[i], "cvar") == 0)
            sv_push(&a->cvars, text);
    }
    sv_free(&lines);
    if (!a->unusable && !a->library)
        a->unusable = xstrdup("it gave no answer");
}

static void answer_free(struct answer *a)
{
    free(a->library);
    free(a->unusable);
    free(a->error);
    sv_free(&a->cvars);
}

/* The job's variables of this PREFIX: the plan's, then the environment's
 * (Hydra passes it to every rank), each with where it came from. */
static void job_vars(const struct plan *p, const char *prefix, struct strvec *values,
                     struct strvec *origins)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        if (it->kind == ITEM_ENV && !it->overridden && it->value &&
            starts_with(it->name, prefix)) {
            sv_pushf(values, "%s=%s", it->name, it->value);
            sv_push(origins, it->origin);
        }
    }
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!starts_with(*e, prefix) || !eq)
            continue;
        bool planned = false;
        for (size_t i = 0; i < values->n && !planned; i++)
            planned = strncmp(values->v[i], *e, (size_t)(eq - *e) + 1) == 0;
        if (!planned) {
            sv_push(values, *e);
            sv_push(origins, "environment");
        }
    }
}

/* Each of VALUES' names must be in NAMES: else the plan fails, with the
 * closest one. Whether all were. */
static bool names_known(struct plan *p, const struct strvec *values,
                        const struct strvec *origins, const struct strvec *names,
                        const char *who, const char *kind, const char *hint)
{
    bool all = true;
    for (size_t i = 0; i < values->n; i++) {
        char *name = xstrndup(values->v[i], strcspn(values->v[i], "="));
        if (sv_find(names, name) < 0) {
            const char *s = suggest(name, (const char *const *)names->v, names->n);
            plan_fail(p, RR_EX_CONFIG, xasprintf("%s has no %s %s (%s): it would ignore "
                      "it%s%s%s (hint: %s lists them)", who, kind, name, origins->v[i],
                      s ? " (did you mean " : "", s ? s : "", s ? "?)" : "", hint));
            all = false;
        }
        free(name);
    }
    return all;
}

static void mpich_cvars_check(struct plan *p, const char *library)
{
    struct strvec values = {0}, origins = {0};
    job_vars(p, CVAR_PREFIX, &values, &origins);
    if (!values.n) {
        sv_free(&values);
        sv_free(&origins);
        return;
    }
    const char *lib = library ? library : "libmpich.so.12";
    char *helper = helper_path("libexec/mpi-cvars");
    struct answer a = {0};
    if (access(helper, X_OK) != 0) {
        sv_pushf(&p->notes, "MPICH's control variables (%s ...) are not checked: this rdmarun "
                 "was built without MPICH's headers (libmpich-dev), so it has no %s",
                 values.v[0], helper);
        goto out;
    }
    ask(helper, lib, NULL, &a);
    if (a.unusable) {
        sv_pushf(&p->notes, "MPICH's control variables (%s ...) are not checked: %s cannot "
                 "be asked: %s", values.v[0], lib, a.unusable);
        goto out;
    }
    char *who = xasprintf("MPICH (%s)", a.library);
    bool known = names_known(p, &values, &origins, &a.cvars, who, "control variable",
                             "mpivars");
    free(who);
    if (!known)
        goto out;
    answer_free(&a);
    ask(helper, lib, &values, &a);
    if (a.error) {
        /* MPICH's message names the variable it refused. */
        size_t which = values.n;
        for (size_t i = 0; i < values.n && which == values.n; i++) {
            char *name = xstrndup(values.v[i], strcspn(values.v[i], "="));
            if (strstr(a.error, name))
                which = i;
            free(name);
        }
        plan_fail(p, RR_EX_CONFIG,
                  which < values.n
                      ? xasprintf("MPICH (%s) refuses %s (%s): %s", a.library, values.v[which],
                                  origins.v[which], a.error)
                      : xasprintf("MPICH (%s) refuses the job's control variables: %s",
                                  a.library, a.error));
    } else if (a.unusable) {
        sv_pushf(&p->notes, "MPICH's control variables are not checked: %s", a.unusable);
    }
out:
    answer_free(&a);
    free(helper);
    sv_free(&values);
    sv_free(&origins);
}

/* A variable's name alone on an impi_info line: "I_MPI_NAME" (-a, before
 * its description) or "| I_MPI_NAME   | DEFAULT | TYPE |" (-e's table). */
static void impi_name_of(const char *line, struct strvec *names)
{
    const char *l = line + strspn(line, "| ");
    if (!starts_with(l, "I_MPI_"))
        return;
    size_t n = strspn(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    const char *after = l + n + strspn(l + n, " ");
    if ((*after == '\0' || *after == '|') && n < 128) {
        char *name = xstrndup(l, n);
        if (sv_find(names, name) < 0)
            sv_push(names, name);
        free(name);
    }
}

/* Intel's impi_info beside the library: -a describes the documented
 * variables, -e lists the expert ones too. It has no RUNPATH: it finds
 * libmpi.so.12 through LD_LIBRARY_PATH, the library's own folder. */
static bool impi_names(const char *library, struct strvec *names, char **why)
{
    char *tool = mpi_tool_beside(library, "impi_info");
    if (!tool) {
        *why = xasprintf("Intel's impi_info is not beside %s", library);
        return false;
    }
    char *dir = xstrdup(library), *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    char *ld = xasprintf("LD_LIBRARY_PATH=%s", dir);
    for (int k = 0; k < 2 && !*why; k++) {
        char *argv[] = {PLAN_ENV_PATH, ld, tool, k ? "-e" : "-a", NULL};
        char *out = proc_stdout(argv, HELPER_TIMEOUT_S, HELPER_MAX);
        if (!out) {
            *why = xasprintf("%s %s cannot run", tool, argv[3]);
            break;
        }
        struct strvec lines = {0};
        sv_split(&lines, out, "\n");
        for (size_t i = 0; i < lines.n; i++)
            impi_name_of(lines.v[i], names);
        sv_free(&lines);
        free(out);
    }
    if (!*why && !names->n)
        *why = xasprintf("%s listed no I_MPI_ variable", tool);
    free(ld);
    free(tool);
    free(dir);
    return !*why;
}

static void impi_vars_check(struct plan *p, const char *library)
{
    struct strvec values = {0}, origins = {0}, names = {0};
    job_vars(p, "I_MPI_", &values, &origins);
    char *why = NULL;
    if (!values.n) {
        /* nothing to check */
    } else if (!library || !strchr(library, '/')) {
        sv_pushf(&p->notes, "Intel MPI's variables (%s ...) are not checked: the program's "
                 "libmpi.so.12 was not found", values.v[0]);
    } else if (!impi_names(library, &names, &why)) {
        sv_pushf(&p->notes, "Intel MPI's variables (%s ...) are not checked: %s", values.v[0],
                 why);
    } else {
        char *who = xasprintf("Intel MPI (%s)", library);
        names_known(p, &values, &origins, &names, who, "variable", "impi_info -a");
        free(who);
    }
    free(why);
    sv_free(&values);
    sv_free(&origins);
    sv_free(&names);
}

void mpi_vars_check(struct plan *p, const char *library)
{
    if (MPI_MPICH_ABI(p->mpi.value))
        mpich_cvars_check(p, library);
    if (p->mpi.value == MPI_IMPI)
        impi_vars_check(p, library);
}
