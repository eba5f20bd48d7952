#include "launch/supervise.h"
#include "plan/launchers.h"
#include "evidence/evidence.h"
#include "evidence/stream.h"
#include "facts/counters.h"
#include "launch/evidence_dir.h"
#include "launch/launch.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define KILL_GRACE_S 10
#define QP_CENSUS_MAX_PIDS 256   /* processes whose QPs one sample reads (said when reached) */
#define ORPHAN_GRACE_S 2.0   /* s: orphaned ranks get SIGTERM, then SIGKILL */
#define MIN_EVIDENCE_SPACE (1024 * 1024)   /* bytes: a job's UCX logs need some room */

static volatile sig_atomic_t child_pid, pending_sig, to_tree;
/* The last signal that ends a job (SIGINT, SIGTERM, SIGHUP) passed on. */
static volatile sig_atomic_t ending_sig;

/* mpirun and srun pass a signal on to the ranks; a COMMAND of launcher exec
 * may not (a shell script's workers), so there the watch loop sends it to
 * COMMAND and every process below it at once (COMMAND first, and its
 * workers would no longer be below it). */
static void forward(int sig)
{
    int e = errno;
    if (child_pid > 0 && !to_tree)
        kill((pid_t)child_pid, sig);
    pending_sig = sig;
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
        ending_sig = sig;
    errno = e;
}

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2};

/* SIGCHLD only wakes the watch (proc_ppoll), which reaps adopted orphans. */
static void child_ended(int sig) { (void)sig; }

/* Every counter of every port of the node, read before and after the job;
 * a read that hangs (a wedged HCA's firmware) costs the verdict its
 * counters, never the job its start or its end. */
#define COUNTERS_TIMEOUT_S 5.0
static struct port_counters *read_all(const struct facts *f, size_t *n, bool *timed_out)
{
    struct port_counters *c = port_counters_read_all(f, f->sysfs_root, COUNTERS_TIMEOUT_S, n,
                                                     timed_out);
    if (*timed_out)
        rr_warn("reading the ports' counters did not finish within %g s (an HCA's firmware not "
                "answering? see dmesg); the verdict goes without them", COUNTERS_TIMEOUT_S);
    return c;
}

/* What the counters say about the job: the traffic, and what else grew in
 * words, or that nothing else did (NULL when the ports have no counters). */
static void counter_summary(const struct facts *f, const struct port_counters *before,
                            struct counter_growth *grown, char **traffic, char **trouble)
{
    size_t n;
    bool lost;
    struct port_counters *after = read_all(f, &n, &lost);
    struct strvec t = {0}, w = {0};
    bool any = false;
    size_t k = 0;
    for (size_t i = 0; i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports; j++, k++) {
            any |= after[k].names.n > 0;
            counters_growth(f->devs[i].name, f->devs[i].ports[j].num, &before[k], &after[k],
                            &grown[k]);
            port_counters_free(&after[k]);
            char *sent = counter_traffic_words(&grown[k]), *words = counter_growth_words(&grown[k]);
            if (sent)
                sv_push(&t, sent);
            if (words)
                sv_push(&w, words);
            free(sent);
            free(words);
        }
    free(after);
    if (w.n == 0 && any)
        sv_push(&w, "no loss, error or congestion counter grew");
    *traffic = t.n ? sv_join(&t, ", ") : NULL;
    *trouble = w.n ? sv_join(&w, "; ") : NULL;
    sv_free(&t);
    sv_free(&w);
}

/* The launcher's name for messages: argv[0], or the command `env VAR=VALUE...
 * [stdbuf -oL]` runs. */
static const char *launcher_word(const struct plan *p)
{
    size_t i = 0;
    if (strcmp(p->argv.v[0], PLAN_ENV_PATH) == 0)
        for (i = 1; i < p->argv.n - 1 && strchr(p->argv.v[i], '='); i++)
            ;
    if (i + 2 < p->argv.n && strcmp(p->argv.v[i], PLAN_STDBUF_PATH) == 0)
        i += 2;
    return p->argv.v[i];
}

/* What the supervisor watches while the job runs. */
struct watch {
    const struct plan *plan;
    struct proc job;
    struct evidence ev;
    struct evidence_logs logs;
    struct evidence_stream out, err;
    bool strict_rdma, stopped;
    bool census_said;         /* the QP census's bound was said */
    bool tree;                  /* launcher exec: signals reach COMMAND's whole tree */
    bool take_ucx, take_nccl;   /* rdmarun set the log levels */
    double stop_time;
    int max_rts;
    struct strvec was_broken, stuck;   /* QPs in ERR/SQE/SQD: last sample, two in a row */
    char host[256];
};

#define HOLD_MS 20           /* an incomplete line waits this long for its end */
#define RES_INTERVAL_S 2.0   /* the kernel's QP table, while RDMA is expected */
#define DRAIN_S 2.0          /* output still coming after the launcher ended */

static void stop_on_fallback(struct watch *w)
{
    if (!w->strict_rdma || w->stopped || evidence_verdict(&w->ev) != VERDICT_FALLBACK)
        return;
    /* "FALLBACK: ..." is its own label (in red): no "error:" before it */
    char *s = verdict_summary(&w->ev, VERDICT_FALLBACK), *painted = msg_paint_verdict(stderr, s);
    fprintf(stderr, "rdmarun: %s: stopping the job (verify = strict; hint: --verify warn lets "
            "it run)\n", painted);
    free(painted);
    free(s);
    if (w->tree)
        proc_signal_tree(w->job.pid, SIGTERM);
    proc_kill(&w->job, SIGTERM);
    w->stopped = true;
    w->stop_time = proc_now();
}

/* Read what is there on one of the launcher's pipes. */
static void drain(struct watch *w, int *fd, struct evidence_stream *s)
{
    char buf[STREAM_BUF];
    ssize_t r = read(*fd, buf, sizeof(buf));
    if (r < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (r <= 0) {
        stream_end(s);
        close(*fd);
        *fd = -1;
        return;
    }
    if (stream_feed(s, buf, (size_t)r))
        stop_on_fallback(w);
}

/* How long the watch may sleep: until the QP-table sample, the kill grace
 * or the end of the drain (-1: until something happens). */
static int wake_ms(const struct watch *w, bool ended, bool want_rdma, double next_res,
                   double drain_until)
{
    double now = proc_now(), wake = -1;
    if (!ended && w->job.pidfd < 0)
        wake = now + 0.01;
    if (!ended && want_rdma)
        wake = wake < 0 || next_res < wake ? next_res : wake;
    if (w->stopped && !ended && (wake < 0 || w->stop_time + KILL_GRACE_S < wake))
        wake = w->stop_time + KILL_GRACE_S;
    if (ended && (wake < 0 || drain_until < wake))
        wake = drain_until;
    int ms = wake < 0 ? -1 : wake <= now ? 0 : (int)((wake - now) * 1000) + 1;
    if (stream_holding(&w->out) || stream_holding(&w->err))
        ms = ms < 0 || ms > HOLD_MS ? HOLD_MS : ms;
    return ms;
}

/* The launcher ended: ranks a killed launcher left hold the pipes open, so
 * they are ended, and what is left is read until the drain's end. */
static double launcher_ended(const struct watch *w)
{
    child_pid = 0;
    int left = 0, orphans = proc_end_orphans(ORPHAN_GRACE_S, &left);
    if (orphans)
        rr_note("%d process%s of the job outlived %s; ended them", orphans,
                orphans == 1 ? "" : "es", launcher_word(w->plan));
    if (left)
        rr_warn("%d process%s of the job did not end even after SIGKILL (stuck in the "
                "kernel: see their state in ps); left behind", left, left == 1 ? "" : "es");
    return proc_now() + DRAIN_S;
}

/* One sample of the ranks' queue pairs in the kernel's table. */
static void sample_qps(struct watch *w)
{
    long pids[QP_CENSUS_MAX_PIDS];
    size_t npids = evidence_pids_on(&w->ev, w->host, pids, QP_CENSUS_MAX_PIDS);
    if (npids == QP_CENSUS_MAX_PIDS && !w->census_said) {
        rr_note("more than %d of the job's processes on this node named: the QP census "
                "reads the queue pairs of the first %d", QP_CENSUS_MAX_PIDS, QP_CENSUS_MAX_PIDS);
        w->census_said = true;
    }
    struct qp_census c = {.rts = -1};
    if (npids)
        rdma_res_census(pids, npids, &c);
    if (c.rts > w->max_rts)
        w->max_rts = c.rts;
    /* A QP goes through ERR as UCX closes it; one seen in error in two
     * samples in a row is stuck there. */
    for (size_t i = 0; i < c.broken.n; i++)
        if (sv_find(&w->was_broken, c.broken.v[i]) >= 0 && sv_find(&w->stuck, c.broken.v[i]) < 0)
            sv_push(&w->stuck, c.broken.v[i]);
    sv_free(&w->was_broken);
    w->was_broken = c.broken;
}

/* Read what the poll found ready; flush what is held when nothing was. */
static void read_ready(struct watch *w, const struct pollfd *pf, int n, int ready)
{
    if (ready == 0) {
        stream_flush(&w->out);
        stream_flush(&w->err);
    }
    for (int k = 0; k < n && ready > 0; k++) {
        if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        if (pf[k].fd == w->job.out)
            drain(w, &w->job.out, &w->out);
        else if (pf[k].fd == w->job.err)
            drain(w, &w->job.err, &w->err);
    }
}

/* Until the launcher has ended and its output is read: wake on output, on
 * the launcher's end (pidfd), on the QP-table sample and the kill grace;
 * nothing else costs time. */
static void watch_job(struct watch *w, bool want_rdma, int *status)
{
    double next_res = proc_now() + RES_INTERVAL_S, drain_until = -1;
    bool ended = false;
    while (w->job.out >= 0 || w->job.err >= 0 || !ended) {
        /* The signals are held but in proc_ppoll: none comes between the
         * read and the clear, none is missed before the wait. */
        int sig = pending_sig;
        pending_sig = 0;
        if (sig && w->tree && !ended)
            proc_signal_tree(w->job.pid, sig);
        proc_reap_orphans(w->job.pid);   /* woken by SIGCHLD too */
        struct pollfd pf[3];
        int n = 0;
        if (w->job.out >= 0)
            pf[n++] = (struct pollfd){w->job.out, POLLIN, 0};
        if (w->job.err >= 0)
            pf[n++] = (struct pollfd){w->job.err, POLLIN, 0};
        if (!ended && w->job.pidfd >= 0)
            pf[n++] = (struct pollfd){w->job.pidfd, POLLIN, 0};
        int ready = proc_ppoll(pf, (nfds_t)n, wake_ms(w, ended, want_rdma, next_res,
                                                      drain_until));
        if (ready < 0 && errno != EINTR)
            break;
        read_ready(w, pf, n, ready);
        double now = proc_now();
        if (!ended && proc_wait(&w->job, 0, status)) {
            ended = true;
            drain_until = launcher_ended(w);
        } else if (ended && now >= drain_until) {
            break;
        }
        if (!ended && want_rdma && now >= next_res) {
            sample_qps(w);
            next_res = proc_now() + RES_INTERVAL_S;
        }
        if (w->stopped && !ended && now - w->stop_time > KILL_GRACE_S)
            proc_kill(&w->job, SIGKILL);
    }
    stream_end(&w->out);
    stream_end(&w->err);
    if (w->job.out >= 0)
        close(w->job.out);
    if (w->job.err >= 0)
        close(w->job.err);
    w->job.out = w->job.err = -1;
}

/* The pml the user chose for Open MPI, when not ucx: --mca/--gmca pml X
 * (on mpirun's command line), -x OMPI_MCA_pml=X, OMPI_MCA_pml=X (srun's
 * environment, or rdmarun's own). NULL when none, or ucx; else how it was
 * given, for the verdict's words. Caller frees. */
static char *user_pml(const struct plan *p)
{
    /* The environment's first: the plan passes its value on as --mca pml. */
    const char *env = getenv("OMPI_MCA_pml");
    if (env && *env)
        return strcmp(env, "ucx") != 0 ? xasprintf("OMPI_MCA_pml=%s in the environment", env)
                                       : NULL;
    char *how = NULL;
    const struct strvec *a = &p->argv;
    for (size_t i = 0; i < a->n && !how; i++) {
        const char *w = a->v[i], *v = NULL;
        bool mca = !strcmp(w, "--mca") || !strcmp(w, "-mca") || !strcmp(w, "--gmca") ||
                   !strcmp(w, "-gmca");
        if (mca && i + 2 < a->n && !strcmp(a->v[i + 1], "pml"))
            v = a->v[i + 2];
        else if ((!strcmp(w, "-x") || !strcmp(w, "--x")) && i + 1 < a->n &&
                 !strncmp(a->v[i + 1], "OMPI_MCA_pml=", 13))
            v = a->v[i + 1] + 13;
        else if (!strncmp(w, "OMPI_MCA_pml=", 13))
            v = w + 13;
        if (v && strcmp(v, "ucx") != 0)
            how = mca ? xasprintf("%s pml %s", w, v)
                : w[0] == '-' ? xasprintf("%s OMPI_MCA_pml=%s", w, v)
                : xasprintf("OMPI_MCA_pml=%s", v);
        else if (v)
            return NULL;   /* ucx: its reports are the verdict's */
    }
    return how;
}

/* The closing line's verdict: the evidence's words, or, where there is no
 * verdict, why in the job's terms (it ended first, the user's pml, not a
 * program that reports a transport). */
static char *job_summary(const struct plan *p, const struct watch *w, const struct evidence *ev,
                         enum verdict v, int rc)
{
    char *summary = verdict_summary(ev, v);
    const struct plan_item *pml = plan_find(p, ITEM_MCA, "pml");
    char *chosen = NULL;
    if (v == VERDICT_UNKNOWN && rc) {
        free(summary);
        char *said = ev->abort ? term_safe(ev->abort, strlen(ev->abort), 1024) : NULL;
        summary = xasprintf("no verdict: the job ended (status %d) before any %s reported a "
                            "transport (%s)", rc, w->tree ? "process" : "rank",
                            said ? said : "the messages above say why");
        free(said);
    } else if (v == VERDICT_UNKNOWN && !w->tree && (chosen = user_pml(p))) {
        /* An MPI program all the same: on the pml the user chose, which
         * (ob1 with its BTLs, cm) says nothing of the transport it uses. */
        free(summary);
        summary = xasprintf("no verdict: an MPI program on the pml you chose (%s), which reports "
                            "no transport; rdmarun sees the transport through pml ucx (hint: "
                            "leave pml to the profile, or --verify off)", chosen);
    } else if (v == VERDICT_UNKNOWN && !ev->reports && (w->take_ucx || w->take_nccl)) {
        /* Nothing of UCX or NCCL at all: not a question of log levels. */
        free(summary);
        summary = xstrdup(w->tree ? "no verdict: no process of COMMAND reported a transport (not "
                                   "a program that uses UCX or NCCL)"
                                 : "no verdict: no rank reported a transport (not an MPI "
                                   "program, or not one that uses UCX or NCCL)");
    } else if (v == VERDICT_UNKNOWN && !w->tree && p->mpi.value == MPI_OPENMPI &&
               (!pml || !pml->value || strcmp(pml->value, "ucx") != 0)) {
        char *more = xasprintf("%s; Open MPI's pml is not forced to ucx ([mpi] pml), so it may "
                               "have used ob1, which reports no transport", summary);
        free(summary);
        summary = more;
    }
    free(chosen);
    return summary;
}

/* verdict.json in the run directory (with the run's expectation). */
static void write_verdict(const struct evidence_logs *logs, const struct evidence *ev,
                          enum verdict v)
{
    char *path = xasprintf("%s/verdict.json", logs->dir);
    FILE *out = logs->dfd >= 0 ? create_new_file_at(logs->dfd, "verdict.json")
                               : create_new_file(logs->dir, "verdict.json");
    if (out)
        evidence_print_json(ev, v, out);
    if (!out || ferror(out) | (fclose(out) != 0))
        rr_warn("cannot write %s: %s (the verdict above stands)", path, strerror(errno));
    free(path);
}

/* The ranks' QPs the kernel listed, after the counters' words (moved, owned). */
static char *qp_words(char *moved, int max_rts, const struct strvec *stuck)
{
    if (max_rts >= 0) {
        char *with = xasprintf("%s%s%d RC QP%s of the ranks in RTS (rdma res)", moved ? moved : "",
                               moved ? ", " : "", max_rts, max_rts == 1 ? "" : "s");
        free(moved);
        moved = with;
    }
    if (stuck->n) {
        size_t shown = stuck->n < 4 ? stuck->n : 4;
        struct strvec first = {0};
        for (size_t i = 0; i < shown; i++)
            sv_push(&first, stuck->v[i]);
        char *list = sv_join(&first, ", ");
        char *with = xasprintf("%s%s%zu QP%s of the ranks stayed in an error state (rdma res): "
                               "%s%s", moved ? moved : "", moved ? ", " : "", stuck->n,
                               stuck->n == 1 ? "" : "s", list, shown < stuck->n ? ", ..." : "");
        free(list);
        sv_free(&first);
        free(moved);
        moved = with;
    }
    return moved;
}

/* The watch set up from the plan: its evidence folder (a full disk said
 * first: it would only show as lost evidence), the flags the plan gives,
 * the two streams the launcher's output is read through. */
static void watch_init(struct watch *w, const struct plan *p)
{
    memset(w, 0, sizeof(*w));
    w->plan = p;
    w->max_rts = -1;
    gethostname(w->host, sizeof(w->host) - 1);
    if (p->evidence_made) {   /* made by cmd/run.c before the plan named it */
        w->logs.dir = p->evidence_dir;
        w->logs.dfd = evidence_dir_fd();
        struct statvfs vfs;
        if (statvfs(p->evidence_dir, &vfs) == 0 &&
            (unsigned long long)vfs.f_bavail * vfs.f_frsize < MIN_EVIDENCE_SPACE)
            rr_warn("the evidence directory %s has only %llu KiB free: the ranks' transport "
                    "reports may not fit (the verdict does not depend on them; hint: "
                    "--evidence-dir on a file system with space)", p->evidence_dir,
                    (unsigned long long)vfs.f_bavail * vfs.f_frsize / 1024);
    }
    w->strict_rdma = p->verify.value == VERIFY_STRICT && expects_fabric(p->expect.value);
    w->tree = launcher_of(p->launcher.value)->command_is_launcher;
    to_tree = w->tree;
    const struct plan_item *lvl = plan_find(p, ITEM_ENV, "UCX_LOG_LEVEL");
    const struct plan_item *nccl = plan_find(p, ITEM_ENV, "NCCL_DEBUG");
    const struct plan_item *impi = plan_find(p, ITEM_ENV, "I_MPI_DEBUG");
    w->take_ucx = lvl && lvl->source == SOURCE_EVIDENCE;
    w->take_nccl = nccl && nccl->source == SOURCE_EVIDENCE;
    w->ev.planned_nodes = p->job_nodes > 0 ? p->job_nodes : 0;
    w->ev.expect = expectation_names[p->expect.value];   /* into verdict.json, and the words */
    w->ev.expect_reason = p->expect.origin;
    w->out = (struct evidence_stream){.ev = &w->ev, .logs = &w->logs, .out = STDOUT_FILENO,
                                      .take_ucx = w->take_ucx, .take_nccl = w->take_nccl,
                                      .take_mpi = impi && impi->source == SOURCE_EVIDENCE};
    w->out.label = p->output_label;
    w->out.rank_prefix = p->output_rank_prefix;
    w->err = w->out;
    w->err.out = STDERR_FILENO;
}

/* The launcher started with the signals held from before the start to the
 * job's end but while the watch waits (proc_ppoll): a signal before the
 * launcher's pid is known is passed on once it is, none kills rdmarun
 * meanwhile. 0, or launch_failed's status. */
static int start_job(struct watch *w, const struct plan *p)
{
    /* If rdmarun itself is killed (SIGKILL, OOM), mpirun must not run on
     * unsupervised: it gets SIGTERM and takes the ranks down with it. */
    struct proc_spec spec = {.argv = p->argv.v, .die_with_parent = true, .out = PROC_PIPE,
                             .err = PROC_PIPE, .exec_path = p->exec_path};
    /* Ranks of a launcher that dies by a signal come to us, not to init,
     * and are ended with it (Open MPI 5's prte leaves them running). */
    proc_adopt_orphans();
    size_t nfwd = sizeof(forwarded) / sizeof(*forwarded);
    static const int chld[] = {SIGCHLD};
    proc_signals_hold(forwarded, nfwd);
    proc_signals_hold(chld, 1);
    struct sigaction sa = {.sa_handler = forward}, sc = {.sa_handler = child_ended};
    sigemptyset(&sa.sa_mask);
    sigemptyset(&sc.sa_mask);
    for (size_t i = 0; i < nfwd; i++)
        sigaction(forwarded[i], &sa, NULL);
    sigaction(SIGCHLD, &sc, NULL);
    if (proc_start(&spec, &w->job) != 0) {
        int e = errno;
        signal(SIGCHLD, SIG_DFL);
        proc_signals_release();
        return launch_failed(launcher_of(p->launcher.value), p->argv.v[0], e);
    }
    child_pid = w->job.pid;
    if (pending_sig && !to_tree)   /* (none can come yet: held) */
        kill(w->job.pid, pending_sig);
    return 0;
}

/* A job a signal ended has status 128+N, whatever its launcher makes of
 * it: Hydra's mpiexec ends its ranks on SIGTERM and exits 0, or 15, or a
 * rank's status. A job cut short (a time limit, Ctrl-C) never reports
 * success. As a shell reports it. */
static int signalled_status(int rc, bool stopped)
{
    if (!ending_sig || stopped || rc == 128 + ending_sig)
        return rc;
    rr_warn("the launcher exited %d after rdmarun passed it %s: the job was cut short, status "
            "%d", rc, ending_sig == SIGINT ? "SIGINT" : ending_sig == SIGHUP ? "SIGHUP"
                                                                          : "SIGTERM",
            128 + ending_sig);
    return 128 + ending_sig;
}

/* The closing line: the verdict, what the counters and the QP table add,
 * and, when the run did not meet the profile's expectation, a warning (an
 * error when strict makes it the status). Whether it fails the job. */
static bool closing_line(const struct plan *p, const struct watch *w, const struct evidence *ev,
                         enum verdict v, int rc, const char *summary, const char *moved,
                         const char *trouble)
{
    bool want_rdma = expects_fabric(p->expect.value);
    bool expected = evidence_meets(ev, (enum expectation)p->expect.value);
    /* Under strict a verdict that sets the status (80, 82) is an error. */
    bool fails = p->verify.value == VERIFY_STRICT && want_rdma &&
                 ((v == VERDICT_FALLBACK && (rc == 0 || w->stopped)) ||
                  (!expected && v == VERDICT_UNKNOWN && rc == 0));
    const char *level = fails ? "error: " : !expected ? "warning: " : "";
    /* A job strict stopped had its fallback reported then, as the error it
     * was: the closing line does not say it again, only what came after. */
    if (w->stopped && v == VERDICT_FALLBACK) {
        summary = "the job was stopped on the fallback reported above (verify = strict)";
        level = "";
    }
    bool warn = *level != '\0';
    bool labeled = strncmp(summary, "FALLBACK", 8) == 0;   /* its own label: no error: before */
    /* One rdmarun per node (srun rdmarun --launcher exec): each verdict
     * says whose it is. */
    char *painted = msg_paint_verdict(stderr, summary);
    fprintf(stderr, "rdmarun: %s%s%s%s%s%s%s%s%s%s\n",
            !warn || labeled ? "" : fails ? msg_error_word(stderr) : msg_warning_word(stderr),
            w->tree ? w->host : "", w->tree ? ": " : "", painted,
            moved ? "; " : "", moved ? moved : "", trouble ? "; " : "", trouble ? trouble : "",
            warn ? "; the profile expects " : "",
            warn ? expectation_names[p->expect.value] : "");
    free(painted);
    return fails;
}

int supervise(const struct plan *p, const struct facts *f)
{
    static struct watch w;   /* its stream buffers are large */
    watch_init(&w, p);
    size_t nports;
    bool counters_lost;   /* then not read again after the job: once is said */
    struct port_counters *before = read_all(f, &nports, &counters_lost);
    int rc = start_job(&w, p);
    if (rc) {
        for (size_t i = 0; i < nports; i++)
            port_counters_free(&before[i]);
        free(before);
        return rc;
    }
    if (p->evidence_prune)
        evidence_dir_prune(p->evidence_dir);   /* while the job starts */
    /* Our stdout/stderr closed (| head) ends us as it would end mpirun. */
    int status = 0;
    watch_job(&w, expects_fabric(p->expect.value), &status);
    child_pid = 0;
    signal(SIGCHLD, SIG_DFL);   /* (a handler would make later reads EINTR) */
    proc_signals_release();
    struct evidence ev = w.ev;
    evidence_logs_close(&w.logs);
    if (p->evidence_files && w.logs.dir)
        evidence_read(&ev, p->evidence_dir);   /* the ranks' own files, beside our logs */
    enum verdict v = evidence_verdict(&ev);
    rc = signalled_status(proc_exit_code(status), w.stopped);
    char *summary = job_summary(p, &w, &ev, v, rc);
    struct counter_growth *grown = xcalloc(nports ? nports : 1, sizeof(*grown));
    char *moved = NULL, *trouble = NULL;
    if (!counters_lost)
        counter_summary(f, before, grown, &moved, &trouble);
    ev.counters = grown;
    ev.ncounters = nports;
    moved = qp_words(moved, w.max_rts, &w.stuck);
    sv_free(&w.was_broken);
    sv_free(&w.stuck);
    bool fails = closing_line(p, &w, &ev, v, rc, summary, moved, trouble);
    if (w.logs.dir && !w.logs.failed)
        write_verdict(&w.logs, &ev, v);
    free(summary);
    free(moved);
    free(trouble);
    for (size_t i = 0; i < nports; i++) {
        port_counters_free(&before[i]);
        counter_growth_free(&grown[i]);
    }
    free(before);
    free(grown);
    evidence_free(&ev);
    if (fails)
        rc = v == VERDICT_FALLBACK ? RR_EX_FALLBACK : RR_EX_NO_EVIDENCE;
    return rc;
}
