/* rdmarun check (without --qp-test alone): the node health check. Loads the
 * site configuration (root mode: only a root-owned file that only root can
 * write), runs the checks in a worker process, holds each check and the
 * whole run to a time limit, prints one line per failed check and a
 * summary, and with --drain drains or resumes the node through scontrol. */
#include "health/fault_codes.h"
#include "health/health.h"
#include "profile/settings.h"
#include "facts/counters.h"
#include "util/fs.h"
#include "util/json.h"
#include "slurm/drain.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <errno.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


struct result {
    char *name;
    struct strvec problems;
    struct strvec codes;      /* each problem's fault code (health/fault_codes.c) */
    struct strvec notes;      /* what it could not read: said, not failed */
    struct strvec measured;   /* what it measured (loopback bandwidth): said */
    bool ended;
};

static void add_problem(struct result *r, const char *code, const char *text)
{
    sv_push(&r->codes, code);
    sv_push(&r->problems, text);
}

/* Root mode reads nothing a user could have written: the file, each
 * folder on its way from /, owned by root and writable by no one else (a
 * sticky folder of root's, /tmp, may be on the way but not hold it), and
 * no symbolic link anywhere: opened once, component by component, so that
 * nothing checked can be swapped before it is read (open_no_links). */
static bool root_dir_ok(const struct stat *st, bool parent)
{
    return st->st_uid == 0 && (!(st->st_mode & 022) || (!parent && (st->st_mode & S_ISVTX)));
}

static int refused_for_root(const char *what, const struct stat *st)
{
    rr_error("%s is %s: as root, rdmarun check only reads a configuration that only root can "
             "change, through folders only root can change and no link (hint: chown root:root "
             "%s && chmod go-w %s)", what, st && st->st_uid != 0 ? "not owned by root"
             : st ? "writable by others than root" : "a symbolic link", what, what);
    return RR_EX_CONFIG;
}

static int safe_for_root(const char *path)
{
    char *where = NULL;
    int fd = open_no_links(path, O_RDONLY | O_NONBLOCK, 0, false, root_dir_ok, &where), rc = 0;
    struct stat st;
    if (fd < 0 && errno == EPERM)
        rc = refused_for_root(where, stat(where, &st) == 0 ? &st : NULL);
    else if (fd < 0 && errno == ELOOP)
        rc = refused_for_root(where, NULL);
    else if (fd < 0) {
        rr_error("cannot read %s: %s", where ? where : path, strerror(errno));
        rc = RR_EX_NOINPUT;
    } else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
               (st.st_mode & 022))
        rc = refused_for_root(path, &st);
    if (fd >= 0)
        close(fd);
    free(where);
    return rc;
}

/* What the schema's types cannot say of [check] values: counter limits
 * that are FAMILY:N, a manifest that is there to read. A mistake is a
 * configuration error (78, with its place), never a sick node to drain. */
static int check_values(const struct profile *cfg)
{
    static const char *const limits[] = {"counter-limits", "epilog-counter-limits"};
    for (size_t i = 0; i < 2; i++) {
        const struct entry *e = profile_get(cfg, "check", limits[i]);
        long long limit[COUNTER_FAMILIES];
        char *bad = NULL;
        if (e && !health_counter_limits(e->value, limit, &bad)) {
            char *where = entry_origin(e);
            rr_error("%s: [check] %s: '%s' is not FAMILY:N (families: link, loss, error, "
                     "receiver, congestion, other; N a whole number from 0)", where, limits[i],
                     bad);
            free(where);
            free(bad);
            return RR_EX_CONFIG;
        }
    }
    const struct entry *m = profile_get(cfg, "check", "manifest");
    if (m && access(m->value, R_OK) != 0) {
        char *where = entry_origin(m);
        rr_error("%s: [check] manifest %s: %s: a configuration mistake, not a sick node (hint: "
                 "rdmarun probe --json on a good node, saved there)", where, m->value,
                 strerror(errno));
        free(where);
        return RR_EX_CONFIG;
    }
    return 0;
}

static int load_config_file(const char *path, struct profile *cfg, bool root);

static int load_config(const char *given, struct profile *cfg)
{
    bool root = geteuid() == 0;
    struct stat st;
    if (stat(given, &st) == 0 && S_ISDIR(st.st_mode)) {
        rr_error("--config %s is a folder: --config takes the configuration file (hint: "
                 "--config %s/check.ini)", given, given);
        return RR_EX_NOINPUT;
    }
    if (access(given, R_OK) != 0) {
        rr_error("cannot read the site check configuration %s: %s (hint: write its [check] "
                 "section, see rdmarun-slurm(7); or give --config FILE)", given, strerror(errno));
        return RR_EX_NOINPUT;
    }
    /* --config takes a path: "check.ini" is the file here, never a profile
     * name looked up elsewhere */
    char *path = strchr(given, '/') ? xstrdup(given) : xasprintf("./%s", given);
    int rc = load_config_file(path, cfg, root);
    free(path);
    return rc;
}

static int load_config_file(const char *path, struct profile *cfg, bool root)
{
    if (root && safe_for_root(path))
        return RR_EX_CONFIG;
    /* Parents only from the configuration's own folder. */
    char *copy = xstrdup(path);
    struct strvec dirs = {0};
    sv_push(&dirs, dirname(copy));
    free(copy);
    int rc = profile_load(path, &dirs, cfg);
    sv_free(&dirs);
    for (size_t i = 0; !rc && root && i < cfg->files.n; i++)
        rc = safe_for_root(cfg->files.v[i]);
    if (!rc)
        rc = profile_validate(cfg);
    if (!rc)
        rc = check_values(cfg);
    return rc;
}

/* The checks' results, as their lines name them: as many as there are. */
struct results {
    struct result *v;
    size_t n, cap;
};

static struct result *result_for(struct results *rs, const char *name)
{
    for (size_t i = 0; i < rs->n; i++)
        if (strcmp(rs->v[i].name, name) == 0)
            return &rs->v[i];
    GROW(rs->v, rs->cap, rs->n + 1);
    memset(&rs->v[rs->n], 0, sizeof(*rs->v));
    rs->v[rs->n].name = xstrdup(name);
    return &rs->v[rs->n++];
}

/* The worker's report, read as it comes. */
struct report {
    struct results *rs;
    struct result *current;   /* the check that began and has not ended */
    double began;             /* when it began */
};

/* One line of the worker's report. */
static void report_line(struct report *rp, char *line)
{
    if (strncmp(line, "begin ", 6) == 0) {
        rp->current = result_for(rp->rs, line + 6);
        rp->began = proc_now();
    } else if (strncmp(line, "end ", 4) == 0 && rp->current) {
        rp->current->ended = true;
        rp->current = NULL;
    } else if (strncmp(line, "fail ", 5) == 0) {   /* fail NAME<TAB>CODE<TAB>TEXT */
        char *tab = strchr(line + 5, '\t'), *tab2 = tab ? strchr(tab + 1, '\t') : NULL;
        if (tab2) {
            *tab = *tab2 = '\0';
            add_problem(result_for(rp->rs, line + 5), tab + 1, tab2 + 1);
        }
    } else if (strncmp(line, "note ", 5) == 0 || strncmp(line, "info ", 5) == 0) {
        char *tab = strchr(line + 5, '\t');
        if (tab) {
            *tab = '\0';
            struct result *r = result_for(rp->rs, line + 5);
            sv_push(line[0] == 'n' ? &r->notes : &r->measured, tab + 1);
        }
    } else if (rp->current && line[0]) {
        /* What a check printed itself (the QP test's reason). */
        const char *text = strncmp(line, "rdmarun: error: ", 16) == 0 ? line + 16 : line;
        add_problem(rp->current, fault_code_of_check(rp->current->name), text);
    }
}

/* Every whole line in buf[0..*len) reported, the rest kept; a line longer
 * than WORKER_LINE_MAX is reported cut there. */
#define WORKER_LINE_MAX 65536
static void report_lines(struct report *rp, char *buf, size_t *len)
{
    size_t start = 0;
    for (size_t i = 0; i < *len; i++)
        if (buf[i] == '\n' || i - start == WORKER_LINE_MAX) {
            char keep = buf[i];
            buf[i] = '\0';
            report_line(rp, buf + start);
            buf[i] = keep;
            start = i + (keep == '\n');
        }
    memmove(buf, buf + start, *len - start);
    *len -= start;
}

/* The check that ran out of time: it, or the start when none had begun. */
static void timed_out(struct report *rp, double check_limit, double total_limit, bool check)
{
    struct result *r = rp->current ? rp->current : result_for(rp->rs, "start");
    char *text = xasprintf("did not finish within %g s (%s time limit); stopped",
                           check ? check_limit : total_limit,
                           check ? "the check's" : "the whole run's");
    add_problem(r, FAULT_TIMEOUT, text);
    free(text);
}

/* Read the worker's report until it ends or a limit is reached: read()
 * into a line buffer, so that what a check wrote before it hung is seen
 * (stdio would hold it, and blame the hang on the check before). */
static void supervise_worker(struct proc *worker, double check_limit, double total_limit,
                             struct results *rs)
{
    int fd = worker->err;
    double start = proc_now();
    struct report rp = {.rs = rs, .began = start};
    char *buf = xmalloc(WORKER_LINE_MAX + 4096 + 1);
    size_t len = 0;
    for (;;) {
        double left_check = rp.began + check_limit - proc_now(),
               left_total = start + total_limit - proc_now();
        double left = left_check < left_total ? left_check : left_total;
        struct pollfd p = {fd, POLLIN, 0};
        int ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;
        int ready = left > 0 ? poll(&p, 1, ms) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            timed_out(&rp, check_limit, total_limit, left_check <= left_total);
            proc_kill(worker, SIGKILL);
            break;
        }
        ssize_t r = read(fd, buf + len, WORKER_LINE_MAX + 4096 - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;   /* the worker is done */
        len += (size_t)r;
        report_lines(&rp, buf, &len);
    }
    if (len) {   /* a last line without its newline */
        buf[len] = '\0';
        report_line(&rp, buf);
    }
    free(buf);
    close(fd);
    int status;
    if (!proc_wait(worker, proc_now() + PROC_KILL_REAP_S, &status))
        rr_warn("the check's process %ld could not be stopped (stuck in the kernel, state D?): "
                "left running; the node's verdict stands", (long)worker->pid);
}

struct worker_args {
    const struct profile *cfg;
    struct health_scope scope;
};

static void run_checks(void *arg)
{
    const struct worker_args *wa = arg;
    health_checks(wa->cfg, &wa->scope, stderr);
}

/* --json: the node's verdict, each check's problems with their codes and
 * what it could not read, and the codes once each. */
static void health_json(const struct result *res, size_t nres, const char *node,
                        const char *config, size_t failed, FILE *out)
{
    struct json j;
    json_init(&j, out);
    json_begin_object(&j, NULL);
    json_string(&j, "node", node);
    json_bool(&j, "healthy", failed == 0);
    json_string(&j, "config", config);
    json_int(&j, "time", (int64_t)time(NULL));   /* Unix time, for rdmarun report */
    struct strvec codes = {0};
    json_begin_array(&j, "checks");
    for (size_t i = 0; i < nres; i++) {
        /* reading the facts is a step before the checks, not one: listed
         * when it failed, as the text counts it */
        if (strcmp(res[i].name, "facts") == 0 && !res[i].problems.n)
            continue;
        json_begin_object(&j, NULL);
        json_string(&j, "name", res[i].name);
        json_bool(&j, "passed", res[i].problems.n == 0);
        json_begin_array(&j, "problems");
        for (size_t k = 0; k < res[i].problems.n; k++) {
            json_begin_object(&j, NULL);
            json_string(&j, "code", res[i].codes.v[k]);
            json_string(&j, "text", res[i].problems.v[k]);
            json_end_object(&j);
            if (sv_find(&codes, res[i].codes.v[k]) < 0)
                sv_push(&codes, res[i].codes.v[k]);
        }
        json_end_array(&j);
        json_begin_array(&j, "unknown");
        for (size_t k = 0; k < res[i].notes.n; k++)
            json_string(&j, NULL, res[i].notes.v[k]);
        json_end_array(&j);
        json_begin_array(&j, "measured");
        for (size_t k = 0; k < res[i].measured.n; k++)
            json_string(&j, NULL, res[i].measured.v[k]);
        json_end_array(&j);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_begin_array(&j, "codes");
    for (size_t k = 0; k < codes.n; k++)
        json_string(&j, NULL, codes.v[k]);
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
    sv_free(&codes);
}

/* A label value as Prometheus' text format reads it: \\, \" and \\n escaped. */
static void prom_label(struct strvec *out, const char *s)
{
    char *v = xmalloc(2 * strlen(s) + 1), *e = v;
    for (; *s; s++) {
        if (*s == '\\' || *s == '"' || *s == '\n')
            *e++ = '\\';
        *e++ = *s == '\n' ? 'n' : *s;
    }
    *e = '\0';
    sv_push(out, v);
    free(v);
}

/* --prometheus: node_exporter's textfile collector format (metric names in
 * its style: rdmarun_check_*; node_exporter adds the instance), written to
 * a temporary file beside FILE and renamed over it, so that a scrape never
 * reads half a file; 0644, as node_exporter runs as another user. */
/* rdmarun_check_faults: each check's problems, by fault code. */
static void prom_faults(struct strvec *t, const struct result *res, size_t nres)
{
    sv_push(t, "# HELP rdmarun_check_faults Problems the check found, by check and fault "
            "code (rdmarun-slurm(7)).");
    sv_push(t, "# TYPE rdmarun_check_faults gauge");
    for (size_t i = 0; i < nres; i++) {
        struct strvec seen = {0};
        for (size_t k = 0; k < res[i].codes.n; k++) {
            if (sv_find(&seen, res[i].codes.v[k]) >= 0)
                continue;
            sv_push(&seen, res[i].codes.v[k]);
            size_t n = 0;
            for (size_t m = 0; m < res[i].codes.n; m++)
                n += strcmp(res[i].codes.v[m], res[i].codes.v[k]) == 0;
            struct strvec l = {0};
            prom_label(&l, res[i].name);
            prom_label(&l, res[i].codes.v[k]);
            sv_pushf(t, "rdmarun_check_faults{check=\"%s\",code=\"%s\"} %zu", l.v[0], l.v[1], n);
            sv_free(&l);
        }
        sv_free(&seen);
    }
}

/* node_exporter's textfile: the check's health, each check, its faults,
 * its duration and its time. */
static char *prometheus_text(const struct result *res, size_t nres, size_t failed,
                             double seconds)
{
    struct strvec t = {0};
    sv_push(&t, "# HELP rdmarun_check_healthy Whether rdmarun check found the node healthy.");
    sv_push(&t, "# TYPE rdmarun_check_healthy gauge");
    sv_pushf(&t, "rdmarun_check_healthy %d", failed == 0);
    sv_push(&t, "# HELP rdmarun_check_passed Whether each check of the site's configuration "
            "passed.");
    sv_push(&t, "# TYPE rdmarun_check_passed gauge");
    for (size_t i = 0; i < nres; i++) {
        struct strvec name = {0};
        prom_label(&name, res[i].name);
        sv_pushf(&t, "rdmarun_check_passed{check=\"%s\"} %d", name.v[0],
                 res[i].problems.n == 0 && res[i].ended);
        sv_free(&name);
    }
    prom_faults(&t, res, nres);
    sv_push(&t, "# HELP rdmarun_check_duration_seconds How long the whole check took.");
    sv_push(&t, "# TYPE rdmarun_check_duration_seconds gauge");
    sv_pushf(&t, "rdmarun_check_duration_seconds %.3f", seconds);
    sv_push(&t, "# HELP rdmarun_check_timestamp_seconds When the check ended (Unix time).");
    sv_push(&t, "# TYPE rdmarun_check_timestamp_seconds gauge");
    sv_pushf(&t, "rdmarun_check_timestamp_seconds %ld", (long)time(NULL));
    sv_push(&t, "");
    char *text = sv_join(&t, "\n");
    sv_free(&t);
    return text;
}

static int write_prometheus(const char *file, const struct result *res, size_t nres, size_t failed,
                            double seconds)
{
    char *text = prometheus_text(res, nres, failed, seconds);
    char *a = xstrdup(file), *b = xstrdup(file);
    const char *dir = dirname(a), *base = basename(b);
    int rc = 0;
    struct stat st;
    if (replace_own_file_mode_in(dir, base, text, strlen(text), 0644) != 0) {
        if (errno == EPERM && lstat(file, &st) == 0)
            rr_error("--prometheus %s: it is a %s%s, which rdmarun never replaces: it writes "
                     "only a new file or one of its own (hint: a file in node_exporter's "
                     "--collector.textfile.directory)", file, file_kind(st.st_mode),
                     S_ISREG(st.st_mode) ? " of another user's" : "");
        else
            rr_error("cannot write %s: %s (hint: a folder root can write, node_exporter's "
                     "--collector.textfile.directory)", file, strerror(errno));
        rc = RR_EX_CANTCREAT;
    }
    free(a);
    free(b);
    free(text);
    return rc;
}

static const char *node_name(const struct health_request *cl, char *buf, size_t len)
{
    if (cl->node)
        return cl->node;
    const char *env = getenv("SLURMD_NODENAME");
    if (env && *env)
        return env;
    if (gethostname(buf, len - 1) != 0)
        snprintf(buf, len, "localhost");
    buf[len - 1] = '\0';
    buf[strcspn(buf, ".")] = '\0';
    return buf;
}

/* The configuration with the command line's overrides (--manifest,
 * --epilog); *job the Slurm job's id, or NULL. 0, or the status after
 * saying why: a configuration mistake is not a sick node (66, 64, 78),
 * never UNHEALTHY and never a drain, which would take every node out. */
static int load_request(const struct health_request *cl, const char *path, struct profile *cfg,
                        const char **job)
{
    memset(cfg, 0, sizeof(*cfg));
    int rc = load_config(path, cfg);
    if (rc)
        return rc;
    if (cl->manifest && access(cl->manifest, R_OK) != 0) {
        rr_error("--manifest %s: %s (a configuration mistake, not a sick node)", cl->manifest,
                 strerror(errno));
        return RR_EX_NOINPUT;
    }
    if (cl->manifest)
        profile_put(cfg, "check", "manifest", cl->manifest, ORIGIN_SET, NULL, 0);
    /* A Slurm prolog keeps the counters for its job; --epilog judges what
     * grew during the job, so it compares counters whatever the file says. */
    *job = getenv("SLURM_JOB_ID");
    if (*job && (!**job || strspn(*job, "0123456789") != strlen(*job) || strlen(*job) > 20))
        *job = NULL;   /* not a job id: no file name is made of it */
    if (cl->epilog && !*job) {
        rr_error("check --epilog: SLURM_JOB_ID is not a job id (%s): the epilog compares the "
                 "job's counters with those its prolog kept (hint: run it as Slurm's Epilog, "
                 "or set SLURM_JOB_ID)", getenv("SLURM_JOB_ID") ? "not digits" : "not set");
        return RR_EX_USAGE;
    }
    if (cl->epilog)
        profile_put(cfg, "check", "counters", "yes", ORIGIN_SET, NULL, 0);
    return 0;
}

/* Each result's notes and failures said (not under --json); how many
 * failed and passed, and the drain reason: the first failure, its code
 * first. */
static size_t tell_results(const struct health_request *cl, struct result *res, size_t nres,
                           size_t *passed, char **first)
{
    size_t failed = 0;
    for (size_t i = 0; i < nres; i++) {
        for (size_t k = 0; !cl->json && k < res[i].notes.n; k++)
            printf("rdmarun: check %s: %s\n", res[i].name, res[i].notes.v[k]);
        for (size_t k = 0; !cl->json && k < res[i].measured.n; k++)
            printf("rdmarun: check %s: %s\n", res[i].name, res[i].measured.v[k]);
        if (!res[i].problems.n && res[i].ended) {
            *passed += strcmp(res[i].name, "facts") != 0;   /* reading facts is not a check */
            continue;
        }
        if (!res[i].problems.n)
            add_problem(&res[i], fault_code_of_check(res[i].name), "ended without a result");
        failed++;
        struct strvec coded = {0};
        for (size_t k = 0; k < res[i].problems.n; k++)
            sv_pushf(&coded, "%s: %s", res[i].codes.v[k], res[i].problems.v[k]);
        char *all = sv_join(&coded, "; ");
        if (!cl->json)
            printf("rdmarun: check %s FAILED: %s\n", res[i].name, all);
        if (!*first)
            *first = xstrdup(all);
        free(all);
        sv_free(&coded);
    }
    return failed;
}

/* --drain: the node drained with the first failure, or resumed when this
 * check had drained it. Under --json, stdout holds the JSON alone: what the
 * drain says goes to stderr. */
static int drain_or_resume(const struct health_request *cl, const char *node, size_t failed,
                           const char *first)
{
    int saved = cl->json ? dup(STDOUT_FILENO) : -1;
    if (saved >= 0)
        dup2(STDERR_FILENO, STDOUT_FILENO);
    int drc = failed ? slurm_drain(cl->scontrol, node, first)
                     : slurm_resume_ours(cl->scontrol, node);
    if (saved >= 0) {
        fflush(stdout);
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    return drc;
}

static void free_results(struct result *res, size_t nres)
{
    for (size_t i = 0; i < nres; i++) {
        free(res[i].name);
        sv_free(&res[i].problems);
        sv_free(&res[i].codes);
        sv_free(&res[i].notes);
        sv_free(&res[i].measured);
    }
    free(res);
}

int health_main(const struct health_request *cl)
{
    const char *path = cl->config ? cl->config : HEALTH_CONFIG;
    struct profile cfg;
    const char *job = NULL;
    int rc = load_request(cl, path, &cfg, &job);
    if (rc) {
        profile_free(&cfg);
        return rc;
    }
    /* validated on load; their defaults in the key table (profile/schema.c) */
    double total = atof(schema_value(&cfg, "check", "timeout"));
    double each = atof(schema_value(&cfg, "check", "check-timeout"));

    /* The worker writes its report on its stderr, which also carries what
     * a check prints itself (the QP test's reason). */
    struct worker_args wa = {&cfg, {cl->sysfs, job, cl->epilog}};
    struct proc_spec spec = {.fn = run_checks, .arg = &wa, .err = PROC_PIPE};
    struct proc worker;
    double t0 = proc_now();
    if (proc_start(&spec, &worker) != 0) {
        rr_error("cannot start the health check worker: %s", strerror(errno));
        profile_free(&cfg);
        return RR_EX_OSERR;
    }
    struct results rs = {0};
    supervise_worker(&worker, each, total, &rs);
    char host[256];
    const char *node = node_name(cl, host, sizeof(host));
    size_t passed = 0;
    char *first = NULL;
    size_t failed = tell_results(cl, rs.v, rs.n, &passed, &first);
    if (cl->json)
        health_json(rs.v, rs.n, node, path, failed, stdout);
    else if (failed)
        printf("rdmarun: node %s is UNHEALTHY: %zu of %zu check%s failed (%s)\n", node,
               failed, failed + passed, failed + passed == 1 ? "" : "s", path);
    else
        printf("rdmarun: node %s is healthy: %zu check%s passed (%s)\n", node, passed,
               passed == 1 ? "" : "s", path);
    fflush(stdout);
    rc = failed ? RR_EX_UNAVAILABLE : 0;
    if (cl->prometheus) {
        int prc = write_prometheus(cl->prometheus, rs.v, rs.n, failed, proc_now() - t0);
        if (prc && !rc)
            rc = prc;
    }
    if (cl->drain) {
        int drc = drain_or_resume(cl, node, failed, first);
        if (drc && !rc)
            rc = drc;
    }
    free(first);
    free_results(rs.v, rs.n);
    profile_free(&cfg);
    return rc;
}
