/* The launcher's options, from the launcher itself. Open MPI 4.1's
 * `mpirun --help all` lists every option with its <argN> words; Open MPI 5's
 * mpirun lists none (its --help points at the man page), and PRRTE's
 * prterun beside it prints them as a table; srun --help lists srun's, a
 * value as --name=VALUE. Running the launcher costs 50-100 ms, so the list
 * is kept per binary in the user's runtime folder (util/fs.c). */
#include "launch/launcher_options.h"
#include "launch/launch.h"
#include "util/file_cache.h"
#include "util/text.h"
#include "util/proc.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HELP_MAX (1 << 20)
#define HELP_TIMEOUT_S 10.0
#define CACHE_MAX (1 << 20)

/* The fallback, only when the launcher cannot be asked (and added to Open
 * MPI 5's and srun's lists, which leave these out): the Open MPI options
 * rdmarun reads itself (note_override in cmd/options.c) or translates for
 * srun (plan/argv_srun.c), and those the tests and job scripts use most. */
static const struct { const char *name; int nargs; } fallback[] = {
    {"np", 1}, {"n", 1}, {"c", 1}, {"N", 1}, {"npernode", 1}, {"H", 1}, {"host", 1},
    {"hostfile", 1}, {"machinefile", 1}, {"app", 1}, {"x", 1}, {"mca", 2}, {"gmca", 2},
    {"map-by", 1}, {"bind-to", 1}, {"rank-by", 1}, {"report-bindings", 0},
    {"oversubscribe", 0}, {"allow-run-as-root", 0}, {"tag-output", 0}, {"timeout", 1},
    {"wdir", 1}, {"wd", 1}, {"output-filename", 1}, {"prefix", 1}, {"am", 1}, {"tune", 1},
};

static void add(struct launcher_opts *o, const char *name, size_t len, int nargs)
{
    char *n = xstrndup(name, len);
    if (*n && sv_find(&o->names, n) < 0) {
        GROW(o->nargs, o->cap, o->names.n + 1);
        o->nargs[o->names.n] = nargs;
        sv_push(&o->names, n);
    }
    free(n);
}

static bool name_char(char c) { return isalnum((unsigned char)c) || c == '-' || c == '_'; }

/* One name as a help spells it ("--np", "-c,", "--account=name",
 * "--compress[=library]"): added with nargs; false when it is no name. */
static bool add_spelled(struct launcher_opts *o, const char *s, size_t len, int nargs)
{
    while (len && *s == '-')
        s++, len--;
    size_t n = 0;
    while (n < len && name_char(s[n]))
        n++;
    if (!n || !isalnum((unsigned char)s[0]))
        return false;
    add(o, s, n, nargs);
    return true;
}

/* Open MPI 4's, srun's and Hydra's lines: the names (separated by '|',
 * ", " or Hydra's '/'), then Open MPI's <argN> or Hydra's {value} words;
 * srun's value is after '=' in its name. */
static size_t parse_line(const char *line, size_t len, struct launcher_opts *o)
{
    char *l = xstrndup(line, len);
    struct strvec tok = {0};
    sv_split(&tok, l, " \t");
    free(l);
    size_t names = 0, nargs = 0;
    bool eq = false;
    while (names < tok.n && tok.v[names][0] == '-') {
        const char *t = tok.v[names++];
        const char *e = strchr(t, '=');
        eq |= e && e[-1] != '[';
        if (t[strlen(t) - 1] != ',')
            break;
    }
    for (size_t i = names; i < tok.n && (tok.v[i][0] == '<' || tok.v[i][0] == '{'); i++)
        nargs++;
    size_t added = 0;
    for (size_t i = 0; i < names; i++)
        for (const char *p = tok.v[i]; *p; ) {
            size_t n = strcspn(p, "|,/");
            added += add_spelled(o, p, n, (int)nargs + eq);
            p += n + (p[n] != '\0');
        }
    sv_free(&tok);
    return added;
}

/* One cell of PRRTE's first column, its lines joined (a name cut after a
 * '-' continues on the next line): "-c" | "--np <num>", spellings of one
 * option that take the same words. */
static size_t parse_cell(const char *cell, struct launcher_opts *o)
{
    int nargs = 0;
    for (const char *a = cell; *a; a++)
        nargs += *a == '<';
    size_t added = 0;
    for (const char *q = strchr(cell, '"'); q; q = strchr(q, '"')) {
        const char *end = strchr(q + 1, '"');
        if (!end)
            break;
        if (q[1] == '-')
            added += add_spelled(o, q + 1, strcspn(q + 1, " \""), nargs);
        q = end + 1;
    }
    return added;
}

size_t launcher_options_parse(const char *help, struct launcher_opts *o)
{
    size_t added = 0, split = 0;
    char *cell = NULL;
    for (const char *p = help; *p; ) {
        size_t len = strcspn(p, "\n");
        if (*p == '+' && len > 1 && p[1] == '-') {   /* a table's border: the cell ends */
            const char *second = memchr(p + 1, '+', len - 1);
            split = second ? (size_t)(second - p) : 0;
            if (cell)
                added += parse_cell(cell, o);
            free(cell);
            cell = NULL;
        } else if (*p == '|' && split > 1 && len > split) {
            char *piece = trim_dup(p + 1, split - 1);
            char *joined = !cell ? xstrdup(piece)
                         : xasprintf("%s%s%s", cell, *cell && cell[strlen(cell) - 1] == '-'
                                     ? "" : " ", piece);
            free(cell);
            free(piece);
            cell = joined;
        } else if (*p != '|') {
            size_t skip = strspn(p, " \t");
            if (skip < len && p[skip] == '-')
                added += parse_line(p + skip, len - skip, o);
        }
        p += len + (p[len] == '\n');
    }
    free(cell);
    return added;
}

/* Hydra's options that its mpiexec -h prints without their {value}, and
 * the aliases it does not print, with the words each takes, as Hydra's own
 * option table reads them (MPICH 4.0.2 src/pm/hydra/ui/mpich/utils.c
 * 1795-1885; 4.2.3 src/pm/hydra/mpiexec/options.c 1629-1727). An unbraced
 * name the help lists and this table does not is a flag (0). */
static const struct { const char *name; int nargs; } hydra_table[] = {
    {"launcher", 1}, {"launcher-exec", 1}, {"rmk", 1}, {"topolib", 1}, {"bind-to", 1},
    {"map-by", 1}, {"membind", 1}, {"demux", 1}, {"iface", 1}, {"ppn", 1},
    {"prepend-pattern", 1}, {"outfile-pattern", 1}, {"errfile-pattern", 1},
    {"nameserver", 1}, {"order-nodes", 1}, {"localhost", 1}, {"usize", 1},
    {"gpus-per-proc", 1}, {"memory-alloc-kinds", 1},
    /* not in the help */
    {"hostfile", 1}, {"machinefile", 1}, {"machine", 1}, {"machines", 1},
    {"machinelist", 1}, {"host", 1}, {"hostlist", 1}, {"output-from", 1}, {"outfile", 1},
    {"errfile", 1}, {"bootstrap", 1}, {"bootstrap-exec", 1}, {"binding", 1}, {"g", 1},
    {"rankmap", 1}, {"gpu-subdevs-per-proc", 1}, {"l", 0}, {"v", 0}, {"debug", 0},
    {"version", 0}, {"enable-auto-cleanup", 0}, {"enable-hostname-propagation", 0},
};

static void hydra_values(struct launcher_opts *o)
{
    for (size_t i = 0; i < sizeof(hydra_table) / sizeof(*hydra_table); i++) {
        int k = sv_find(&o->names, hydra_table[i].name);
        if (k >= 0)
            o->nargs[k] = hydra_table[i].nargs;
        else
            add(o, hydra_table[i].name, strlen(hydra_table[i].name), hydra_table[i].nargs);
    }
}

static void add_fallback(struct launcher_opts *o)
{
    for (size_t i = 0; i < sizeof(fallback) / sizeof(*fallback); i++)
        add(o, fallback[i].name, strlen(fallback[i].name), fallback[i].nargs);
}

/* "mpirun (Open MPI) 4.1.4" (orterun says OpenRTE) -> "mpirun 4.1.4". */
static char *label_of(const char *name, const char *help)
{
    const char *v = help ? strstr(help, "(Open MPI) ") : NULL;
    v = v ? v : help ? strstr(help, "(OpenRTE) ") : NULL;
    if (!v || v - help > 200)
        return xstrdup(name);
    v = strchr(v, ')') + 2;
    return xasprintf("%s %.*s", name, (int)strcspn(v, " \n"), v);
}

static char *ask(const char *path, const char *a1, const char *a2, const char *a3)
{
    char *argv[] = {(char *)path, (char *)a1, (char *)a2, (char *)a3, NULL};
    return proc_stdout(argv, HELP_TIMEOUT_S, HELP_MAX);
}

/* Asks the launcher (by the name it was found as: Open MPI's orterun, which
 * /usr/bin/mpirun links to, names itself by it). Open MPI refuses --help as
 * root unless allowed. */
static void ask_launcher(const char *path, const char *real, const char *name,
                         enum launcher kind, struct launcher_opts *o)
{
    bool root = geteuid() == 0, ompi = kind == LAUNCHER_MPIRUN;
    char *help = kind == LAUNCHER_HYDRA ? ask(path, "-h", NULL, NULL)
               : !ompi ? ask(path, "--help", NULL, NULL)
               : root ? ask(path, "--allow-run-as-root", "--help", "all")
               : ask(path, "--help", "all", NULL);
    o->label = label_of(name, help);
    size_t n = help ? launcher_options_parse(help, o) : 0;
    if (ompi && help && n < 10) {
        /* Open MPI 5: its mpirun names no option; PRRTE's prterun beside it
         * does, in a table. Only for a launcher whose short help says it is
         * Open MPI's ("mpirun (Open MPI) 5.0.7", its version too): any other
         * program in /usr/bin has prterun beside it as well. */
        char *brief = root ? ask(path, "--allow-run-as-root", "--help", NULL)
                           : ask(path, "--help", NULL, NULL);
        char *dir = xstrndup(real, (size_t)(strrchr(real, '/') - real));
        char *prterun = xasprintf("%s/prterun", dir);
        char *table = brief && strstr(brief, "(Open MPI)") && access(prterun, X_OK) == 0
                    ? ask(prterun, "--help", NULL, NULL) : NULL;
        n = table ? launcher_options_parse(table, o) : 0;
        if (n >= 10) {
            o->per_option = xstrdup(path);
            free(o->label);
            o->label = label_of(name, brief);
        }
        free(brief);
        free(table);
        free(prterun);
        free(dir);
    }
    free(help);
    if (kind == LAUNCHER_HYDRA && n >= 10)
        hydra_values(o);
    o->asked = n >= 10;
    if (!o->asked) {   /* no list worth the name: not what rdmarun knows to ask */
        sv_free(&o->names);
        o->names = (struct strvec){0};
    }
    add_fallback(o);
}

/* The cache's answer (file_cache): the label, then "NAME NARGS" lines. */
static bool from_cache(const struct file_cache *c, struct launcher_opts *o)
{
    char *text = file_cache_get(c, CACHE_MAX);
    if (!text)
        return false;
    struct strvec lines = {0};
    sv_split(&lines, text, "\n");
    free(text);
    bool ok = lines.n >= 1;
    if (ok) {
        o->label = xstrdup(lines.v[0]);
        for (size_t i = 1; i < lines.n; i++) {
            if (starts_with(lines.v[i], "!per-option ")) {
                o->per_option = xstrdup(lines.v[i] + strlen("!per-option "));
                continue;
            }
            char *sp = strchr(lines.v[i], ' ');
            if (sp)
                add(o, lines.v[i], (size_t)(sp - lines.v[i]), atoi(sp + 1));
        }
        o->asked = true;
    }
    sv_free(&lines);
    return ok;
}

static void to_cache(const struct file_cache *c, const struct launcher_opts *o)
{
    struct strvec lines = {0};
    sv_push(&lines, o->label);
    if (o->per_option)
        sv_pushf(&lines, "!per-option %s", o->per_option);
    for (size_t i = 0; i < o->names.n; i++)
        sv_pushf(&lines, "%s %d", o->names.v[i], o->nargs[i]);
    sv_push(&lines, "");
    char *text = sv_join(&lines, "\n");
    file_cache_put(c, text);
    free(text);
    sv_free(&lines);
}

void launcher_options_of(const char *path, enum launcher kind, struct launcher_opts *o)
{
    memset(o, 0, sizeof(*o));
    char *found = path ? launch_on_path(path) : NULL;   /* --mpirun mpirun: PATH's */
    char *real = found ? realpath(found, NULL) : NULL;
    const char *name = kind == LAUNCHER_SRUN ? "srun" : kind == LAUNCHER_HYDRA ? "mpiexec"
                     : "mpirun";
    char *cache_kind = xasprintf("launcher-options-%s", name);
    struct file_cache c;
    if (!file_cache_open(&c, cache_kind, real)) {
        o->label = xstrdup(name);
        add_fallback(o);
    } else {
        if (!from_cache(&c, o)) {
            ask_launcher(found, real, name, kind, o);
            if (o->asked)
                to_cache(&c, o);
        }
        file_cache_close(&c);
    }
    free(cache_kind);
    free(real);
    free(found);
}

int launcher_help_nargs(const char *help)
{
    if (!help || !*help || strstr(help, "Help was requested for an unknown option"))
        return -1;
    const char *syntax = strstr(help, "Syntax: ");
    int n = 0;
    for (const char *p = syntax; p && *p && *p != '\n'; p++)
        n += *p == '<';
    return n;
}

int launcher_option_nargs(struct launcher_opts *o, const char *name)
{
    int i = sv_find(&o->names, name);
    if (i >= 0 || !o->per_option || !*name || strspn(name, "abcdefghijklmnopqrstuvwxyz"
                                                     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") !=
                                                 strlen(name))
        return i < 0 ? -1 : o->nargs[i];
    char *help = geteuid() == 0 ? ask(o->per_option, "--allow-run-as-root", "--help", name)
                                : ask(o->per_option, "--help", name, NULL);
    int n = launcher_help_nargs(help);
    free(help);
    if (n >= 0)
        add(o, name, strlen(name), n);
    return n;
}

void launcher_options_free(struct launcher_opts *o)
{
    sv_free(&o->names);
    free(o->nargs);
    free(o->label);
    free(o->per_option);
    memset(o, 0, sizeof(*o));
}
