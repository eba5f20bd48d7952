#include "util/proc.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The signal mask children start with: rdmarun's own before
 * proc_signals_hold blocked the signals it passes on. */
static sigset_t start_mask;
static bool holding;

void proc_signals_hold(const int *sigs, size_t n)
{
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < n; i++)
        sigaddset(&block, sigs[i]);
    sigprocmask(SIG_BLOCK, &block, holding ? NULL : &start_mask);
    holding = true;
}

void proc_signals_release(void)
{
    if (holding)
        sigprocmask(SIG_SETMASK, &start_mask, NULL);
    holding = false;
}

int proc_ppoll(struct pollfd *pf, nfds_t n, int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    return ppoll(pf, n, ms < 0 ? NULL : &ts, holding ? &start_mask : NULL);
}

double proc_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int proc_exit_code(int status)
{
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/* In the child: fd `target` becomes what `io` says. */
static int child_io(enum proc_io io, const char *file, int pipe_w, int target)
{
    int fd = io == PROC_PIPE ? pipe_w
           : io == PROC_NULL ? open("/dev/null", O_WRONLY)
           : io == PROC_FILE ? open(file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644) : target;
    if (fd < 0)
        return -1;
    if (fd != target && dup2(fd, target) < 0)
        return -1;
    if (fd != target && fd != pipe_w)
        close(fd);
    return 0;
}

static void close_pair(int fd[2])
{
    for (int i = 0; i < 2; i++)
        if (fd[i] >= 0)
            close(fd[i]);
}

/* In the child: its output, then the program (or fn). Never returns. */
static void run_child(const struct proc_spec *s, const int out[2], const int err[2],
                      const int report[2])
{
    static const int reset[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof(reset) / sizeof(*reset); i++)
        signal(reset[i], SIG_DFL);   /* (a fn child keeps no handler of its parent's) */
    if (holding)   /* what the parent blocked around the start only */
        sigprocmask(SIG_SETMASK, &start_mask, NULL);
    int e = 0;
    if (s->dir && chdir(s->dir) != 0)
        e = errno;
    if (!e && child_io(s->out, s->out_file, out[1], STDOUT_FILENO) != 0)
        e = errno;
    if (!e && s->err_to_out && dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
        e = errno;
    if (!e && !s->err_to_out && child_io(s->err, s->err_file, err[1], STDERR_FILENO) != 0)
        e = errno;
    if (!e && s->fn) {
        close(report[1]);
        s->fn(s->arg);
        fflush(NULL);
        _exit(0);
    }
    if (!e) {
        if (s->exec_path)
            execv(s->exec_path, s->argv);
        else if (strchr(s->argv[0], '/'))
            execv(s->argv[0], s->argv);
        else
            execvp(s->argv[0], s->argv);
        e = errno;
    }
    /* Tell the parent why, then go. */
    ssize_t w = write(report[1], &e, sizeof(e));
    (void)w;
    _exit(127);
}

/* Every fd from `low` up closed (those /proc/self/fd lists). */
static void close_from(int low)
{
    DIR *d = opendir("/proc/self/fd");
    int self = d ? dirfd(d) : -1;
    for (struct dirent *e; d && (e = readdir(d));) {
        int fd = atoi(e->d_name);
        if (fd >= low && fd != self)
            close(fd);
    }
    if (d)
        closedir(d);
}

static volatile sig_atomic_t guard_sig;
static void guard_on(int sig) { guard_sig = sig; }

/* The job's status as the guard's own: its exit status, or its signal. */
static void exit_as(int status)
{
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, WTERMSIG(status));
        sigprocmask(SIG_UNBLOCK, &one, NULL);
        prctl(PR_SET_DUMPABLE, 0);   /* (no core of the guard for the job's) */
        kill(getpid(), WTERMSIG(status));
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

/* The guard's wait for its job: woken at once by the job's end (its pidfd)
 * or a signal (let through only while it waits: none is missed), never by
 * a timer but the kill's grace (a guard per helper must cost nothing). */
static void guard_wait(pid_t job, pid_t parent)
{
    sigset_t ours, during;
    sigemptyset(&ours);
    sigaddset(&ours, SIGINT);
    sigaddset(&ours, SIGTERM);
    sigaddset(&ours, SIGHUP);
    sigprocmask(SIG_BLOCK, &ours, &during);   /* during: the mask before */
    if (holding)
        during = start_mask;   /* (rdmarun's own, not what it held around the start) */
    sigdelset(&during, SIGINT);
    sigdelset(&during, SIGTERM);
    sigdelset(&during, SIGHUP);
    int pidfd = -1, status = 127 << 8;
#ifdef SYS_pidfd_open
    pidfd = job > 0 ? (int)syscall(SYS_pidfd_open, job, 0) : -1;
#endif
    double kill_at = -1;
    for (pid_t r = job < 0 ? -1 : 0; r == 0 || (r < 0 && errno == EINTR);) {
        int sig = guard_sig;
        guard_sig = 0;
        if (sig)
            proc_signal_tree(job, sig);
        /* rdmarun gone, or SIGTERM (a deadline): what is left at the grace's
         * end is killed */
        if (kill_at < 0 && (getppid() != parent || sig == SIGTERM))
            kill_at = proc_now() + PROC_GUARD_GRACE_S;
        if (kill_at >= 0 && proc_now() >= kill_at)
            proc_signal_tree(job, SIGKILL);
        r = waitpid(job, &status, WNOHANG);
        if (r != 0)
            continue;
        double left = kill_at >= 0 ? kill_at - proc_now() : -1;
        int ms = pidfd < 0 ? 20 : left < 0 ? -1 : (int)(left * 1000) + 1;
        struct pollfd pf = {pidfd, POLLIN, 0};
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
        ppoll(pidfd >= 0 ? &pf : NULL, pidfd >= 0, ms < 0 ? NULL : &ts, &during);
    }
    if (pidfd >= 0)
        close(pidfd);
    proc_end_orphans(getppid() != parent ? 0 : PROC_GUARD_GRACE_S, NULL);
    exit_as(status);
}

/* The guard (proc_spec.guard), in the first child: the reaper of the job
 * it starts and of all the job leaves behind. A signal (rdmarun's death
 * sends SIGTERM) goes to the job's whole tree; once rdmarun is gone, what
 * is still there PROC_GUARD_GRACE_S later is killed. When the job ends,
 * what it left is ended (proc_end_orphans) and the guard exits as it did. */
static void guard(const struct proc_spec *s, const int out[2], const int err[2],
                  const int report[2])
{
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    struct sigaction sa = {.sa_handler = guard_on};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    pid_t parent = getppid(), job = fork();
    if (job == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* the guard never dies before it */
        run_child(s, out, err, report);
    }
    /* The guard holds nothing of its parent's open: the pipes are the job's
     * (the parent sees their end, and the report of the exec, from the
     * job), and a lock (a results folder's flock) is the parent's alone. */
    close_from(3);
    guard_wait(job, parent);
}

/* In the parent after the fork: the child's ends of the pipes closed, and
 * whether its exec failed (its errno came down the report pipe, which an
 * exec closes): then the child is reaped, our ends closed, errno its. */
static bool exec_failed(pid_t pid, const int out[2], const int err[2], const int report[2])
{
    close(report[1]);
    int e = 0;
    ssize_t r;
    while ((r = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
        ;
    close(report[0]);
    if (out[1] >= 0)
        close(out[1]);
    if (err[1] >= 0)
        close(err[1]);
    if (r != (ssize_t)sizeof(e))
        return false;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    if (out[0] >= 0)
        close(out[0]);
    if (err[0] >= 0)
        close(err[0]);
    errno = e;
    return true;
}

int proc_start(const struct proc_spec *s, struct proc *p)
{
    int out[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1};
    p->pid = -1;
    p->out = p->err = p->pidfd = -1;
    p->group = false;
    p->ended = false;
    p->status = 0;
    if ((s->out == PROC_PIPE && pipe2(out, O_CLOEXEC) != 0) ||
        (s->err == PROC_PIPE && !s->err_to_out && pipe2(err, O_CLOEXEC) != 0) ||
        pipe2(report, O_CLOEXEC) != 0) {
        int e = errno;
        close_pair(out);
        close_pair(err);
        errno = e;
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close_pair(out);
        close_pair(err);
        close_pair(report);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        if (s->own_group)
            setpgid(0, 0);
        if (s->die_with_parent || s->guard) {
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (getppid() == 1)
                _exit(127);
        }
        if (s->guard)
            guard(s, out, err, report);
        run_child(s, out, err, report);
    }
    if (exec_failed(pid, out, err, report))
        return -1;
    p->pid = pid;
    p->group = s->own_group;
    if (s->own_group)
        setpgid(pid, pid);   /* as the child does: whichever runs first */
    p->out = out[0];
    p->err = err[0];
#ifdef SYS_pidfd_open
    p->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
    return 0;
}

static void proc_done(struct proc *p, int status)
{
    if (p->pidfd >= 0)
        close(p->pidfd);
    p->pidfd = -1;
    p->ended = true;
    p->status = status;
}

bool proc_wait(struct proc *p, double deadline, int *status)
{
    for (;;) {
        if (p->ended) {
            *status = p->status;
            return true;
        }
        int st = 0;
        pid_t r = waitpid(p->pid, &st, WNOHANG);
        if (r == p->pid || (r < 0 && errno != EINTR)) {
            proc_done(p, r < 0 ? 127 << 8 : st);   /* < 0: not ours to wait for any more */
            continue;
        }
        double left = deadline < 0 ? 1.0 : deadline - proc_now();
        if (left <= 0)
            return false;
        /* The pidfd wakes us when the child ends; without one, look again
         * every 10 ms. A signal (forwarded by the caller) only shortens it. */
        int ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;   /* (no int overflow) */
        struct pollfd pf = {p->pidfd, POLLIN, 0};
        poll(p->pidfd >= 0 ? &pf : NULL, p->pidfd >= 0, p->pidfd >= 0 || ms < 10 ? ms : 10);
    }
}

void proc_kill(struct proc *p, int sig)
{
    if (p->pid <= 0 || p->ended)
        return;
    if (p->group)
        kill(-p->pid, sig);
    kill(p->pid, sig);
    int status;
    if (sig == SIGKILL)
        proc_wait(p, proc_now() + PROC_KILL_REAP_S, &status);
}

int proc_capture(const struct proc_spec *s, double timeout_s, size_t max, char **out,
                 bool *timed_out)
{
    struct proc_spec spec = *s;
    spec.out = PROC_PIPE;
    spec.own_group = true;   /* a helper that times out goes with its children */
    spec.guard = true;       /* and so does one whose rdmarun is killed */
    struct proc p;
    *out = NULL;
    *timed_out = false;
    if (proc_start(&spec, &p) != 0)
        return -1;
    double deadline = proc_now() + timeout_s;
    size_t len = 0, cap = 4096;
    char *buf = xmalloc(cap);
    for (;;) {
        double left = deadline - proc_now();
        struct pollfd pf = {p.out, POLLIN, 0};
        int ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;   /* (no int overflow) */
        int ready = left > 0 ? poll(&pf, 1, ms) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            *timed_out = true;
            break;
        }
        if (len + 1024 > cap && cap < max + 1)
            buf = xrealloc(buf, cap *= 2);
        /* Past `max`, the rest is read and dropped, so the child never blocks. */
        char sink[4096];
        size_t room = len < max ? (cap - len - 1 < max - len ? cap - len - 1 : max - len) : 0;
        ssize_t r = room ? read(p.out, buf + len, room) : read(p.out, sink, sizeof(sink));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (room)
            len += (size_t)r;
    }
    buf[len] = '\0';
    close(p.out);
    int status = 0;
    if (*timed_out || !proc_wait(&p, deadline + 1.0, &status)) {
        *timed_out = true;
        proc_kill(&p, SIGKILL);
        status = p.status;
    }
    *out = buf;
    return status;
}

void proc_adopt_orphans(void)
{
    prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* The children of `parent` now, from /proc (the 4th field of
 * /proc/PID/stat is the parent). */
static int children_of(pid_t parent, pid_t *out, int max)
{
    DIR *d = opendir("/proc");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) && n < max;) {
        char path[300], buf[512];
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        size_t len = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
        if (f)
            fclose(f);
        buf[len] = '\0';
        const char *close = strrchr(buf, ')');   /* the command may hold spaces */
        int ppid = 0;
        char state = 0;
        if (close && sscanf(close + 1, " %c %d", &state, &ppid) == 2 && ppid == parent)
            out[n++] = (pid_t)atol(e->d_name);
    }
    if (d)
        closedir(d);
    return n;
}

static int our_children(pid_t *out, int max)
{
    return children_of(getpid(), out, max);
}

void proc_signal_tree(pid_t root, int sig)
{
    enum { MAX_TREE = 1024 };
    pid_t *tree = xcalloc(MAX_TREE, sizeof(*tree));
    int n = 1;
    tree[0] = root;
    for (int i = 0; i < n && n < MAX_TREE; i++)
        n += children_of(tree[i], tree + n, MAX_TREE - n);
    for (int i = 0; i < n; i++)
        kill(tree[i], sig);
    free(tree);
}

/* Reap those of kids[0..n) that have ended (never blocking: a child stuck
 * in the kernel must not hold rdmarun); returns how many of our children
 * are left, listed again in kids. */
static int reap_listed(pid_t *kids, int n, int max)
{
    for (int i = 0; i < n; i++)
        while (waitpid(kids[i], NULL, WNOHANG) < 0 && errno == EINTR)
            ;
    return our_children(kids, max);
}

/* Send sig to each of kids[0..n) not yet in sent: a child re-parented to
 * us later still gets it, none gets it twice. */
static void signal_new(const pid_t *kids, int n, pid_t *sent, int *nsent, int max, int sig)
{
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int j = 0; j < *nsent && !seen; j++)
            seen = sent[j] == kids[i];
        if (seen)
            continue;
        kill(kids[i], sig);
        /* A stopped process acts on no signal but SIGKILL until continued. */
        if (sig != SIGKILL)
            kill(kids[i], SIGCONT);
        if (*nsent < max)
            sent[(*nsent)++] = kids[i];
    }
}

/* Whether we have any child at all, ended or not: one waitid (WNOWAIT
 * reaps nothing), so the usual end - the launcher took its ranks with it -
 * costs no walk through /proc, which on a node of thousands of processes
 * takes milliseconds. */
static bool have_children(void)
{
    siginfo_t si;
    int r;
    while ((r = waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT)) < 0 && errno == EINTR)
        ;
    return r == 0 || errno != ECHILD;
}

void proc_reap_orphans(pid_t keep)
{
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof(si));
        /* a look first (WNOWAIT): `keep`, the launcher, is left for its wait */
        if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0 ||
            si.si_pid == keep)
            return;
        waitpid(si.si_pid, NULL, WNOHANG);
    }
}

int proc_end_orphans(double grace_s, int *left)
{
    enum { MAX_KIDS = 256 };
    pid_t kids[MAX_KIDS], termed[MAX_KIDS], killed[MAX_KIDS];
    int nterm = 0, nkill = 0;
    /* Ranks still exiting after their launcher did are given grace_s / 2 to
     * end by themselves first: they were not left running. Then SIGTERM
     * until grace_s later, then SIGKILL and grace_s / 2 to see them go.
     * Every wait polls, so the call returns by 2 * grace_s whatever they do. */
    double t0 = proc_now(), settle = t0 + grace_s / 2, term_end = settle + grace_s,
           end = term_end + grace_s / 2;
    int n = have_children() ? our_children(kids, MAX_KIDS) : 0;
    for (double now = t0; n > 0; now = proc_now()) {
        if (now >= end)
            break;
        if (now >= term_end)
            signal_new(kids, n, killed, &nkill, MAX_KIDS, SIGKILL);
        else if (now >= settle)
            signal_new(kids, n, termed, &nterm, MAX_KIDS, SIGTERM);
        poll(NULL, 0, 10);
        n = reap_listed(kids, n, MAX_KIDS);
    }
    /* Each process once, whether it needed SIGTERM, SIGKILL or both. */
    int signalled = nterm;
    for (int i = 0; i < nkill; i++) {
        bool termed_too = false;
        for (int j = 0; j < nterm && !termed_too; j++)
            termed_too = termed[j] == killed[i];
        signalled += !termed_too;
    }
    if (left)
        *left = n;
    return signalled;
}

char *proc_stdout(char *const *argv, double timeout_s, size_t max)
{
    struct proc_spec spec = {.argv = argv, .err = PROC_NULL};
    char *out;
    bool timed_out;
    int status = proc_capture(&spec, timeout_s, max, &out, &timed_out);
    if (status < 0 || timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(out);
        return NULL;
    }
    return out;
}
