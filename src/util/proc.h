/* Running a program, or a function of ours, in a child process: the one
 * primitive behind every place rdmarun starts something (the launcher, the
 * health worker, scontrol, rdma res, compare's runs, gnuplot). argv arrays,
 * never a shell; a failed exec is reported to the parent with its errno;
 * waits have deadlines on the monotonic clock and wake when the child ends. */
#ifndef RDMARUN_UTIL_PROC_H
#define RDMARUN_UTIL_PROC_H
#include <stdbool.h>
#include <stddef.h>
#include <poll.h>
#include <sys/types.h>

enum proc_io {
    PROC_INHERIT,   /* rdmarun's own */
    PROC_PIPE,      /* a pipe whose read end the parent gets */
    PROC_NULL,      /* /dev/null */
    PROC_FILE,      /* a file, created or truncated (after chdir, when dir is set) */
};

struct proc_spec {
    char *const *argv;          /* the program; a name without '/' is looked up on PATH */
    const char *exec_path;      /* or run this file, with argv[0] as given */
    void (*fn)(void *arg);      /* instead of argv: run this in the child, then exit 0 */
    void *arg;
    enum proc_io out, err;
    const char *out_file, *err_file;   /* for PROC_FILE */
    bool err_to_out;            /* stderr goes wherever stdout goes */
    const char *dir;            /* the child's working directory, or NULL */
    bool die_with_parent;       /* the child gets SIGTERM if rdmarun dies */
    bool own_group;             /* its own process group: proc_kill signals all of it
                                 * (a helper's children are not left to init) */
    bool guard;                 /* started by a guard of ours, the reaper of all the
                                 * child leaves behind: when rdmarun dies, even by
                                 * kill -9, the child's whole tree ends (SIGTERM, then
                                 * SIGKILL PROC_GUARD_GRACE_S later); a signal sent to
                                 * the guard goes to the child's whole tree (SIGTERM,
                                 * too, followed by SIGKILL after the grace). p->pid
                                 * is the guard's, whose status is the child's */
};
#define PROC_GUARD_GRACE_S 2.0

struct proc {
    pid_t pid;
    int out, err;               /* read ends of PROC_PIPE, else -1 */
    int pidfd;                  /* wakes poll when the child ends; -1: not available */
    bool ended;                 /* reaped; status holds its wait status */
    bool group;                 /* leads its own process group (own_group) */
    int status;
};

/* The signals rdmarun passes on to a child, blocked from before its start
 * until its pid is where the handler finds it (none is lost, none kills
 * rdmarun meanwhile); children start with the mask of before. */
void proc_signals_hold(const int *sigs, size_t n);
void proc_signals_release(void);
/* poll, with the held signals let through while it waits (and only then:
 * a handler's flag read after it is never missed before the next wait). */
int proc_ppoll(struct pollfd *pf, nfds_t n, int ms);
/* Start it. 0, or -1 with errno (a failed exec's own errno: ENOENT, EACCES). */
int proc_start(const struct proc_spec *s, struct proc *p);
/* Wait for the child's end until `deadline` (proc_now() time; < 0: no limit).
 * true: it ended, *status is its wait status and p is done; false: still
 * running at the deadline. */
bool proc_wait(struct proc *p, double deadline, int *status);
/* Send sig (to its whole group with own_group). SIGKILL also reaps the
 * child, waiting PROC_KILL_REAP_S at most: a process stuck in the kernel
 * (state D) outlives SIGKILL, and is then left (p->ended stays false). */
#define PROC_KILL_REAP_S 5.0
void proc_kill(struct proc *p, int sig);
/* Run s to its end with stdout captured (and stderr with err_to_out), at
 * most `max` bytes kept, killed after timeout_s. Returns the wait status, or
 * -1 when it could not start (errno says why); *out is owned and
 * NUL-terminated; *timed_out says whether the deadline killed it. */
int proc_capture(const struct proc_spec *s, double timeout_s, size_t max, char **out,
                 bool *timed_out);
/* stdout of a program that must succeed (exit 0 within timeout_s), its
 * stderr discarded; NULL when it cannot run, fails or times out. */
char *proc_stdout(char *const *argv, double timeout_s, size_t max);
/* Become the reaper of orphans: processes our children leave behind (ranks
 * of a launcher killed by a signal) are re-parented to us, not to init. */
void proc_adopt_orphans(void);
/* Reap the adopted orphans that have ended, as they end (no zombie waits
 * for the job's end), never `keep` (the child a proc_wait is for): each
 * that ended before it, at least. */
void proc_reap_orphans(pid_t keep);
/* End the children left once the ones we waited for are gone (adopted
 * orphans): those that do not end by themselves within grace_s / 2 get
 * SIGTERM (and SIGCONT, for a stopped one), then SIGKILL after grace_s, and
 * are reaped as they end. Bounded: it returns within 2 * grace_s whatever
 * they do (a process stuck in the kernel is not waited for), *left (may be
 * NULL) saying how many were still there. Returns how many had to be
 * signalled. */
int proc_end_orphans(double grace_s, int *left);
/* Send sig to `root` and every process below it (children, theirs, ...),
 * as they are now: a job whose command does not pass signals on. */
void proc_signal_tree(pid_t root, int sig);
/* Seconds on the monotonic clock. */
double proc_now(void);
/* The status a shell would report: the exit status, or 128 + the signal. */
int proc_exit_code(int status);

#endif
