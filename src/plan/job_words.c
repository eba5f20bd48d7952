#include "plan/job_words.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <string.h>

/* Open MPI's spellings (without dashes) and what each asks for. */
static const struct { const char *name; enum job_word kind; int nargs; } words[] = {
    {"np", JW_NP, 1}, {"n", JW_NP, 1}, {"c", JW_NP, 1},
    {"N", JW_PPN, 1}, {"npernode", JW_PPN, 1},
    {"H", JW_HOSTS, 1}, {"host", JW_HOSTS, 1},
    {"hostfile", JW_HOSTFILE, 1}, {"machinefile", JW_HOSTFILE, 1},
    {"x", JW_ENV, 1}, {"mca", JW_MCA, 2}, {"gmca", JW_MCA, 2},
    {"bind-to", JW_BIND_TO, 1}, {"map-by", JW_MAP_BY, 1}, {"rank-by", JW_RANK_BY, 1},
    {"wdir", JW_WDIR, 1}, {"wd", JW_WDIR, 1},
    {"report-bindings", JW_REPORT_BINDINGS, 0},
    {"allow-run-as-root", JW_QUIET, 0}, {"oversubscribe", JW_QUIET, 0},
};

struct job_word_at job_word_next(const struct strvec *a, size_t *i)
{
    struct job_word_at w = {JW_OTHER, a->v[*i], NULL, NULL};
    const char *arg = a->v[*i];
    if (arg[0] != '-')
        return w;
    const char *name = arg + strspn(arg, "-");
    for (size_t k = 0; k < sizeof(words) / sizeof(*words); k++) {
        /* an option without its values is left as it is (OTHER) */
        if (strcmp(name, words[k].name) != 0 || *i + (size_t)words[k].nargs >= a->n)
            continue;
        w.kind = words[k].kind;
        if (words[k].nargs >= 1)
            w.value = a->v[++*i];
        if (words[k].nargs == 2)
            w.value2 = a->v[++*i];
        return w;
    }
    return w;
}

char *job_hosts_bare(const char *list, size_t *count)
{
    struct strvec names = {0}, bare = {0};
    sv_split(&names, list, ",");
    for (size_t k = 0; k < names.n; k++)
        sv_pushf(&bare, "%.*s", (int)strcspn(names.v[k], ":"), names.v[k]);
    char *joined = sv_join(&bare, ",");
    *count = bare.n;
    sv_free(&names);
    sv_free(&bare);
    return joined;
}

void job_word_other(struct plan *p, const char *launcher, const char *title, const char *hint,
                    const char *word, struct strvec *argv)
{
    if (word[0] == '-')
        plan_fail(p, RR_EX_USAGE, xasprintf("--launcher %s: %s is an mpirun option rdmarun "
                  "cannot give %s (hint: %s)", launcher, word, title, hint));
    else
        sv_push(argv, word);
}
