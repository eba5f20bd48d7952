/* One measured job (measure.h), shared by compare and tune. */
#include "compare/measure.h"
#include "compare/plan_file.h"
#include "evidence/evidence.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <math.h>
#include <strings.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;
static volatile pid_t child;

static void on_signal(int sig)
{
    int e = errno;
    interrupted = 1;
    if (child > 0)
        kill(child, sig);
    errno = e;
}

void measure_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

bool measure_interrupted(void) { return interrupted; }

/* Run argv with output to `log` until `deadline` (proc_now() time; < 0:
 * none), then SIGTERM to its whole tree (SIGKILL after the guard's grace);
 * its wait status, or -1 when it cannot start. */
static int run_child(char *const *argv, const char *log, double deadline, double *seconds)
{
    /* guard: a comparison or a tune killed outright (kill -9) leaves no run
     * going behind it, nor anything the run started, writing where --resume
     * will run again; Ctrl-C reaches the run's whole tree. */
    struct proc_spec spec = {.argv = argv, .out = PROC_FILE, .out_file = log,
                             .err_to_out = true, .guard = true};
    static const int passed[] = {SIGINT, SIGTERM};
    struct proc p;
    double t0 = proc_now();
    *seconds = 0;
    proc_signals_hold(passed, 2);
    int started = proc_start(&spec, &p);
    if (started == 0)
        child = p.pid;
    proc_signals_release();
    if (started != 0)
        return -1;
    int status = 0;
    if (!proc_wait(&p, deadline, &status)) {
        proc_kill(&p, SIGTERM);
        if (!proc_wait(&p, proc_now() + PROC_GUARD_GRACE_S + 1, &status))
            proc_kill(&p, SIGKILL);
        status = p.status;
    }
    child = 0;
    *seconds = proc_now() - t0;
    return status;
}

void measure_run(char *const *argv, const char *log, const char *evdir, const char *expect,
                 double deadline, struct measured *m)
{
    memset(m, 0, sizeof(*m));
    int st = run_child(argv, log, deadline, &m->wall);
    m->timed_out = deadline >= 0 && proc_now() >= deadline;
    m->status = st < 0 ? -1 : proc_exit_code(st);
    struct evidence ev;
    memset(&ev, 0, sizeof(ev));
    if (access(evdir, F_OK) == 0)   /* none: --verify off, or the job never started */
        evidence_read(&ev, evdir);
    snprintf(m->verdict, sizeof(m->verdict), "%s", verdict_name(evidence_verdict(&ev)));
    int e = expect ? name_index(expectation_names, expect) : -1;
    /* one rank has no peer: nothing to prove, as for a job script */
    m->met = e >= 0 && evidence_meets(&ev, (enum expectation)e);
    evidence_free(&ev);
}

char *measure_plan(const struct strvec *argv, const char *path, const char *what, int *status)
{
    struct strvec dry = {0};
    sv_push(&dry, argv->v[0]);
    sv_push(&dry, "--dry-run");
    sv_push(&dry, "--json");
    for (size_t i = 1; i < argv->n; i++)
        sv_push(&dry, argv->v[i]);
    double t;
    int st = run_child(dry.v, path, -1, &t);
    sv_free(&dry);
    char *expect = plan_file_string(path, "expect");
    *status = 0;
    if (st == 0 && expect)
        return expect;
    free(expect);
    /* The reason and the status a job of it would have had. */
    struct strvec why = {0};
    plan_file_errors(path, &why);
    for (size_t i = 0; i < why.n; i++)
        rr_error("%s: %s", what, why.v[i]);
    if (!why.n)
        rr_error("%s: the plan cannot be made (see %s)", what, path);
    sv_free(&why);
    *status = st > 0 && proc_exit_code(st) ? proc_exit_code(st) : RR_EX_CONFIG;
    return NULL;
}

/* Where a regex refers back to a group (\1 to \9, outside a bracket
 * expression): its offset, or -1. glibc's regcomp takes them in an ERE too,
 * and a backreference makes matching exponential in the line's length. */
static long backreference_at(const char *regex)
{
    bool bracket = false;
    for (const char *p = regex; *p; p++) {
        if (bracket) {
            const char *end = *p == '[' && strchr(":.=", p[1]) && p[1] ? strstr(p + 2, "]") : NULL;
            if (end)   /* [:class:], [.coll.], [=equiv=] */
                p = end;
            else if (*p == ']' && p[-1] != '[' && !(p[-1] == '^' && p[-2] == '['))
                bracket = false;
        } else if (*p == '[')
            bracket = true;
        else if (*p == '\\' && p[1]) {
            if (p[1] >= '1' && p[1] <= '9')
                return p - regex;
            p++;
        }
    }
    return -1;
}

bool metric_compile(regex_t *re, const char *regex, const char *option)
{
    long at = backreference_at(regex);
    if (at >= 0) {
        rr_error("%s '%s' refers back to a group (\\%c at offset %ld): a backreference can make "
                 "matching a line take exponential time, so rdmarun does not take one (hint: "
                 "match the text itself)", option, regex, regex[at + 1], at);
        return false;
    }
    int e = regcomp(re, regex, REG_EXTENDED);
    if (!e)
        return true;
    char why[128];
    regerror(e, re, why, sizeof(why));
    rr_error("%s '%s' is not a regular expression: %s", option, regex, why);
    regfree(re);
    return false;
}

#define METRIC_GROUPS 10

/* One line of f into buf (at most cap bytes, NUL-terminated, without its
 * newline); *cut when it was longer (its rest is read past). Its length,
 * or -1 at the end. */
static long read_line_capped(FILE *f, char *buf, size_t cap, bool *cut)
{
    if (!fgets(buf, (int)cap + 1, f))
        return -1;
    size_t len = strlen(buf);   /* (a NUL in the line ends it here) */
    *cut = false;
    if (len && buf[len - 1] == '\n')
        buf[--len] = '\0';
    else if (!feof(f)) {
        int c;
        while ((c = getc(f)) != EOF && c != '\n')
            *cut = true;
    }
    return (long)len;
}

void metric_read(const regex_t *re, const char *log,
                 void (*found)(void *ctx, const char *bin, double value), void *ctx)
{
    FILE *f = open_input(log);
    char *line = xmalloc(METRIC_LINE_MAX + 1);
    size_t ngroups = re->re_nsub < METRIC_GROUPS ? re->re_nsub : METRIC_GROUPS - 1;
    bool cut, said = false;
    for (long n = 1; f && read_line_capped(f, line, METRIC_LINE_MAX, &cut) >= 0; n++) {
        if (cut && !said) {
            rr_warn("%s:%ld: a line longer than %d bytes: the metric is read in its first %d "
                    "bytes only", log, n, METRIC_LINE_MAX, METRIC_LINE_MAX);
            said = true;
        }
        regmatch_t m[METRIC_GROUPS];
        if (regexec(re, line, ngroups + 1, m, 0) != 0)
            continue;
        regmatch_t *g = &m[0];
        for (size_t i = ngroups; i >= 1; i--)
            if (m[i].rm_so >= 0 && (ngroups < 2 || i > 1)) {
                g = &m[i];
                break;
            }
        char num[64], bin[256] = "";
        snprintf(num, sizeof(num), "%.*s", (int)(g->rm_eo - g->rm_so), line + g->rm_so);
        if (ngroups >= 2 && m[1].rm_so >= 0)
            snprintf(bin, sizeof(bin), "%.*s", (int)(m[1].rm_eo - m[1].rm_so), line + m[1].rm_so);
        char *end;
        double v = strtod(num, &end);
        if (end != num && isfinite(v) && fabs(v) <= METRIC_MAX)
            found(ctx, bin, v);
    }
    free(line);
    if (f)
        fclose(f);
}

/* The words that name why a run failed, most telling first. */
static const char *const failure_words[] = {
    "rdmarun: error: ",     /* rdmarun's own refusal or failure */
    "not enough slots",     /* Open MPI: more ranks than the hosts' slots (cores) */
    "exited with non-zero status",   /* mpirun's and prterun's word on a rank's status */
    NULL,                   /* (not any "error": Open MPI 5 logs PMIx errors that are not why) */
};

/* Whether hay holds needle, whatever the case. */
static bool holds_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return true;
    return false;
}

char *measure_failure(const char *log)
{
    char *found = NULL;
    int rank = -1;   /* the index in failure_words of what was found */
    FILE *f = open_input(log);
    char *line = xmalloc(METRIC_LINE_MAX + 1);
    bool cut;
    for (long n = 0; f && n < 100000 && rank != 0 &&
                     read_line_capped(f, line, METRIC_LINE_MAX, &cut) >= 0; n++)
        for (int k = 0; failure_words[k] && (rank < 0 || k < rank); k++)
            if (holds_ci(line, failure_words[k])) {
                free(found);
                const char *s = line + strspn(line, " \t");
                found = term_safe(s, strlen(s), 200);
                rank = k;
                break;
            }
    free(line);
    if (f)
        fclose(f);
    return found;
}
