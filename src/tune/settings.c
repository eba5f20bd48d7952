/* A tune's settings (tune.h): kept in DIR/tune.conf for --resume, read
 * back and checked against the journal's identity; the built-in benchmark. */
#include "tune/tune.h"
#include "tune/session.h"
#include "launch/launch.h"
#include "util/conf_file.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <config.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the built-in benchmark ---- */

char *tune_builtin_benchmark(bool ucx)
{
    char *perftest = ucx ? launch_on_path("ucx_perftest") : NULL;
    if (ucx && !perftest) {
        rr_error("tune: --benchmark ucx runs UCX's ucx_perftest, which is not on PATH (hint: "
                 "install UCX's tools: Debian's ucx-utils, RHEL's ucx)");
        return NULL;
    }
    free(perftest);
    char *path = helper_path(ucx ? "libexec/ucx-pair" : "examples/mpi_pingpong");
    if (path && access(path, X_OK) != 0) {
        rr_error("tune: the built-in benchmark %s is not there (%s) (hint: %s; or give your "
                 "own: rdmarun tune -p PROFILE --metric REGEX -- PROGRAM)", path, strerror(errno),
                 ucx ? "reinstall rdmarun" : "build it with 'make examples', which needs Open "
                 "MPI's mpicc");
        free(path);
        path = NULL;
    }
    return path;
}

/* ---- settings, kept in DIR/tune.conf for --resume ---- */

/* The settings as tune.conf holds them (util/conf_file). Caller frees. */
static char *settings_text(const struct tune *t, size_t *len)
{
    char *text;
    FILE *f = xmemstream_open(&text, len);
    conf_begin(f, "rdmarun tune settings; 'rdmarun tune --resume DIR' reads them");
    conf_put(f, "base", t->base);
    conf_putf(f, "budget_runs", "%ld", t->budget_runs);
    conf_putf(f, "budget_s", "%.3f", t->budget_s);
    if (t->metric)
        conf_put(f, "metric", t->metric);
    conf_put(f, "better", t->higher ? "higher" : "lower");
    for (size_t i = 0; i < t->args.n; i++)
        conf_put(f, "arg", t->args.v[i]);
    for (size_t i = 0; i < t->program.n; i++)
        conf_put(f, "program", t->program.v[i]);
    for (size_t k = 0; k < t->space.n; k++) {
        const struct tune_key *key = &t->space.keys[k];
        conf_putf(f, "key", "%s.%s", key->section, key->key);
        conf_put(f, "from", key->from);
        if (key->requires)
            conf_put(f, "requires", key->requires);
        for (size_t v = 0; v < key->values.n; v++)
            conf_put(f, "value", key->values.v[v]);
    }
    xmemstream_close(f);
    return text;
}

int tune_save_settings(const struct tune *t)
{
    size_t len;
    char *text = settings_text(t, &len);
    int rc = 0;
    if (replace_file_at(t->out.fd, "tune.conf", text, len) != 0) {
        rr_error("tune: cannot write %s/tune.conf: %s", t->out.path, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    free(text);
    return rc;
}

uint64_t tune_identity(const struct tune *t)
{
    size_t len;
    char *text = settings_text(t, &len);
    uint64_t h = fnv1a(FNV1A_INIT, text, len);
    free(text);
    /* the base as its runs get it: merged with its parents (a budget is
     * not the base's; only what a run is given is part of it) */
    struct strvec dirs = {0};
    struct profile p;
    profile_search_path(&dirs);
    if (profile_load(t->base, &dirs, &p) == 0) {
        FILE *f = xmemstream_open(&text, &len);
        profile_write(&p, f);
        xmemstream_close(f);
        h = fnv1a(h, text, len);
        free(text);
        profile_free(&p);
    }
    sv_free(&dirs);
    return h;
}

/* One setting of tune.conf into t (conf_setting). */
static int tune_setting(void *user, const char *name, const char *v, const char *where)
{
    struct tune *t = user;
    struct tune_key *key = t->space.n ? &t->space.keys[t->space.n - 1] : NULL;
    char *end = NULL;
    if (strcmp(name, "base") == 0 && !t->base)
        t->base = xstrdup(v);
    else if (strcmp(name, "budget_runs") == 0)
        t->budget_runs = strtol(v, &end, 10);
    else if (strcmp(name, "budget_s") == 0)
        t->budget_s = strtod(v, &end);
    else if (strcmp(name, "metric") == 0 && !t->metric)
        t->metric = xstrdup(v);
    else if (strcmp(name, "better") == 0 && (!strcmp(v, "higher") || !strcmp(v, "lower")))
        t->higher = strcmp(v, "higher") == 0;
    else if (strcmp(name, "arg") == 0)
        sv_push(&t->args, v);
    else if (strcmp(name, "program") == 0)
        sv_push(&t->program, v);
    else if (strcmp(name, "key") == 0 && strchr(v, '.') && t->space.n < TUNE_MAX_KEYS) {
        key = &t->space.keys[t->space.n++];
        memset(key, 0, sizeof(*key));
        key->section = xstrndup(v, strcspn(v, "."));
        key->key = xstrdup(strchr(v, '.') + 1);
    } else if (strcmp(name, "from") == 0 && key && !key->from)
        key->from = xstrdup(v);
    else if (strcmp(name, "requires") == 0 && key && !key->requires && strchr(v, '.') &&
             strchr(v, '='))
        key->requires = xstrdup(v);
    else if (strcmp(name, "value") == 0 && key)
        sv_push(&key->values, v);
    else
        end = (char *)name;   /* not a setting */
    if (end && *end) {
        rr_error("%s: %s: not a setting of rdmarun tune (hint: the file is written by rdmarun "
                 "tune; do not edit it)", where, name);
        return RR_EX_DATAERR;
    }
    return 0;
}

int tune_load(struct tune *t, const char *dir, const char *who)
{
    int opened = results_dir_resume(&t->out, dir, "tune", who);
    if (opened)
        return opened;
    char *path = xasprintf("%s/tune.conf", dir);
    int rc = conf_file_read(path, "the folder of an earlier 'rdmarun tune -o DIR'", tune_setting, t);
    bool complete = t->base && t->program.n && t->space.n;
    for (size_t k = 0; k < t->space.n; k++)
        complete = complete && t->space.keys[k].values.n >= 2 && t->space.keys[k].from;
    if (!rc && !complete) {
        rr_error("%s is incomplete (hint: start the tune again)", path);
        rc = RR_EX_DATAERR;
    }
    free(path);
    return rc;
}

void tune_free(struct tune *t)
{
    results_dir_close(&t->out);
    free(t->base);
    free(t->space_file);
    free(t->metric);
    sv_free(&t->args);
    sv_free(&t->program);
    tune_space_free(&t->space);
}

char *tune_config_of(const struct tune *t, const unsigned *choice)
{
    struct strvec parts = {0};
    for (size_t k = 0; k < t->space.n; k++)
        sv_pushf(&parts, "%u", choice[k]);
    char *s = sv_join(&parts, ",");
    sv_free(&parts);
    return s;
}

/* "ucx.RNDV_THRESH=64K ucx.TLS=tcp,self", or "the base's values". */
char *tune_settings_of(const struct tune *t, const unsigned *choice)
{
    struct strvec parts = {0};
    for (size_t k = 0; k < t->space.n; k++)
        if (choice[k]) {
            const struct tune_key *key = &t->space.keys[k];
            const char *v = key->values.v[choice[k]];
            sv_pushf(&parts, "%s.%s=%s", key->section, key->key, *v ? v : "(unset)");
        }
    char *s = parts.n ? sv_join(&parts, " ") : xstrdup("the base's values");
    sv_free(&parts);
    return s;
}
