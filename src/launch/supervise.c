#include "launch/supervise.h"
#include "evidence/evidence.h"
#include "launch/launch.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/xalloc.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define WATCH_INTERVAL_MS 500
#define KILL_GRACE_S 10
#define ORPHAN_GRACE_S 2.0   /* s: orphaned ranks get SIGTERM, then SIGKILL */
#define MAX_COUNTERS 256
#define MIN_EVIDENCE_SPACE (1024 * 1024)   /* bytes: a job's UCX logs need some room */

static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2};

/* Port counters of the facts' ACTIVE ports: bytes sent (IB PMA counters,
 * in 4-byte words) or packets sent (software devices' hw_counters). */
static unsigned long long port_counter(const struct rdma_device *d, int port, bool *packets)
{
    char path[512];
    snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%d/counters/port_xmit_data",
             d->name, port);
    FILE *f = fopen(path, "r");
    *packets = false;
    if (!f) {
        snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%d/hw_counters/sent_pkts",
                 d->name, port);
        f = fopen(path, "r");
        *packets = true;
    }
    unsigned long long v = 0;
    if (f) {
        if (fscanf(f, "%llu", &v) != 1)
            v = 0;
        fclose(f);
    }
    return *packets ? v : v * 4;
}

struct port_count {
    unsigned long long value;
    bool packets;
};

static void counters(const struct facts *f, struct port_count *out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports && k < max; j++, k++)
            out[k].value = port_counter(&f->devs[i], f->devs[i].ports[j].num, &out[k].packets);
}

static char *counter_summary(const struct facts *f, const struct port_count *before,
                             const struct port_count *after, size_t max)
{
    struct strvec v = {0};
    size_t k = 0;
    for (size_t i = 0; i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports && k < max; j++, k++) {
            unsigned long long d = after[k].value - before[k].value;
            if (!d)
                continue;
            if (after[k].packets)
                sv_pushf(&v, "%s/%d sent %llu packets", f->devs[i].name,
                         f->devs[i].ports[j].num, d);
            else
                sv_pushf(&v, "%s/%d sent %.1f MiB", f->devs[i].name, f->devs[i].ports[j].num,
                         (double)d / 1048576.0);
        }
    char *s = v.n ? sv_join(&v, ", ") : NULL;
    sv_free(&v);
    return s;
}

static enum verdict read_verdict(const char *dir, struct evidence *ev)
{
    memset(ev, 0, sizeof(*ev));
    evidence_read(ev, dir);
    return evidence_verdict(ev);
}

int supervise(const struct plan *p, const struct facts *f)
{
    if (make_dirs(p->evidence_dir) != 0 || access(p->evidence_dir, W_OK) != 0) {
        rr_error("cannot write the evidence directory %s: %s (hint: --evidence-dir DIR, or "
                 "--verify off to run without verification)", p->evidence_dir, strerror(errno));
        return RR_EX_CANTCREAT;
    }
    /* A full disk would only show as "no evidence": say so first. */
    struct statvfs vfs;
    if (statvfs(p->evidence_dir, &vfs) == 0 &&
        (unsigned long long)vfs.f_bavail * vfs.f_frsize < MIN_EVIDENCE_SPACE)
        rr_warn("the evidence directory %s has only %llu KiB free: the ranks' transport logs "
                "may not fit, and the verdict may find no evidence (hint: --evidence-dir on a "
                "file system with space)", p->evidence_dir,
                (unsigned long long)vfs.f_bavail * vfs.f_frsize / 1024);
    struct port_count before[MAX_COUNTERS] = {{0}}, after[MAX_COUNTERS] = {{0}};
    counters(f, before, MAX_COUNTERS);
    bool strict = p->verify.value == VERIFY_STRICT;
    bool want_rdma = p->expect.value == EXPECT_RDMA;

    /* If rdmarun itself is killed (SIGKILL, OOM), mpirun must not run on
     * unsupervised: it gets SIGTERM and takes the ranks down with it. */
    struct proc_spec spec = {.argv = p->argv.v, .die_with_parent = true};
    /* Ranks of a launcher that dies by a signal come to us, not to init,
     * and are ended with it (Open MPI 5's prte leaves them running). */
    proc_adopt_orphans();
    struct proc job;
    if (proc_start(&spec, &job) != 0)
        return launch_failed(p->argv.v[0], errno);
    child_pid = job.pid;
    struct sigaction sa = {.sa_handler = forward};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
        sigaction(forwarded[i], &sa, NULL);

    int status = 0, max_rts = -1;
    bool stopped = false;
    double stop_time = 0, next = proc_now();
    /* A tick every WATCH_INTERVAL_MS; the wait ends early when the job does. */
    for (long tick = 0; !proc_wait(&job, next += WATCH_INTERVAL_MS / 1000.0, &status); tick++) {
        if (strict && want_rdma && !stopped && tick % 2 == 1) {
            struct evidence ev;
            if (read_verdict(p->evidence_dir, &ev) == VERDICT_FALLBACK) {
                char *s = verdict_summary(&ev, VERDICT_FALLBACK);
                rr_error("%s: stopping the job (verify = strict; hint: --verify warn lets it "
                         "run)", s);
                free(s);
                proc_kill(&job, SIGTERM);
                stopped = true;
                stop_time = proc_now();
            }
            evidence_free(&ev);
        }
        /* The kernel's QP table, every 2 s while RDMA is expected. */
        if (want_rdma && tick % 4 == 3) {
            long pids[256];
            size_t npids = evidence_dir_pids(p->evidence_dir, pids, 256);
            int rts = npids ? rdma_res_count_rts(pids, npids) : -1;
            if (rts > max_rts)
                max_rts = rts;
        }
        if (stopped && proc_now() - stop_time > KILL_GRACE_S)
            proc_kill(&job, SIGKILL);
    }
    child_pid = 0;
    int orphans = proc_end_orphans(ORPHAN_GRACE_S);
    if (orphans)
        rr_note("%d process%s of the job outlived %s; ended them", orphans,
                orphans == 1 ? "" : "es", p->argv.v[0]);
    counters(f, after, MAX_COUNTERS);

    struct evidence ev;
    enum verdict v = read_verdict(p->evidence_dir, &ev);
    char *summary = verdict_summary(&ev, v);
    const struct plan_item *pml = plan_find(p, ITEM_MCA, "pml");
    if (v == VERDICT_UNKNOWN && (!pml || !pml->value || strcmp(pml->value, "ucx") != 0)) {
        char *more = xasprintf("%s; Open MPI's pml is not forced to ucx ([mpi] pml), so it may "
                               "have used ob1, which reports no transport", summary);
        free(summary);
        summary = more;
    }
    if (v == VERDICT_FALLBACK && p->expect.value == EXPECT_TCP) {
        free(summary);
        summary = xstrdup("TCP, as the profile intends (verify: the job did not use RDMA)");
    }
    char *moved = counter_summary(f, before, after, MAX_COUNTERS);
    if (max_rts >= 0) {
        char *with = xasprintf("%s%s%d RC QP%s of the ranks in RTS (rdma res)", moved ? moved : "",
                               moved ? ", " : "", max_rts, max_rts == 1 ? "" : "s");
        free(moved);
        moved = with;
    }
    bool expected = verdict_meets(v, (enum expectation)p->expect.value);
    fprintf(stderr, "rdmarun: %s%s%s%s%s%s\n", expected ? "" : "warning: ", summary,
            moved ? "; " : "", moved ? moved : "", expected ? "" : "; the profile expects ",
            expected ? "" : expectation_names[p->expect.value]);
    char *path = xasprintf("%s/verdict.json", p->evidence_dir);
    FILE *out = fopen(path, "w");
    if (out)
        evidence_print_json(&ev, v, out);
    if (!out || ferror(out) | (fclose(out) != 0))
        rr_warn("cannot write %s: %s (the verdict above stands)", path, strerror(errno));
    free(path);
    free(summary);
    free(moved);
    evidence_free(&ev);

    int rc = proc_exit_code(status);
    if (strict && want_rdma) {
        if (v == VERDICT_FALLBACK && (rc == 0 || stopped))
            rc = RR_EX_FALLBACK;
        else if (v == VERDICT_UNKNOWN && rc == 0)
            rc = RR_EX_NO_EVIDENCE;
    }
    return rc;
}
