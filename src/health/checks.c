/* The health checks themselves (run in the worker process, see health.h).
 * Each check is a function that reports its problems; the facts are
 * gathered as the first check, so a sysfs read that hangs is cut at the
 * time limit like any other check. */
#include "preflight/preflight.h"
#include "preflight/qp_loopback.h"
#include "facts/facts.h"
#include "facts/check_keys.h"
#include "facts/lossless.h"
#include "facts/counters.h"
#include "facts/findings.h"
#include "health/fault_codes.h"
#include "health/health.h"
#include "health/kmsg.h"
#include "health/manifest.h"
#include "health/port_history.h"
#include "profile/schema.h"
#include "util/fs.h"
#include "util/proc.h"
#include "util/size.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <numa.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef RDMARUN_LOCALSTATEDIR
#define RDMARUN_LOCALSTATEDIR "/var"
#endif

/* Bounds of what one check run looks at, each said when reached. */
#define HEALTH_MAX_PORTS 64
#define HEALTH_MAX_HISTORY 256

struct hctx {
    const struct profile *cfg;
    const char *sysfs;        /* "/sys" or a recorded tree */
    struct health_scope scope;
    struct facts f;
    const char *check;        /* the running check */
    FILE *out;
    /* The ports the checks look at: those named by `devices`, else every port. */
    const struct rdma_device *dev[HEALTH_MAX_PORTS];
    const struct rdma_port *port[HEALTH_MAX_PORTS];
    size_t n;
    size_t left_out;          /* ports past HEALTH_MAX_PORTS: said, not looked at */
};

/* One line of the worker's report, "KIND NAME<TAB>[CODE<TAB>]TEXT", the
 * text kept on its line. */
static void report_line(struct hctx *h, const char *kind, const char *code, const char *fmt,
                        va_list ap)
{
    char *text = xvasprintf(fmt, ap);
    for (char *c = text; *c; c++)
        if (*c == '\n' || *c == '\t')
            *c = ' ';
    fprintf(h->out, "%s %s\t%s%s%s\n", kind, h->check, code ? code : "", code ? "\t" : "",
            text);
    fflush(h->out);
    free(text);
}

/* A problem the running check found, with its fault code (NULL: the
 * check's own, health/fault_codes.c). */
static void problem_as(struct hctx *h, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void problem_as(struct hctx *h, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_line(h, "fail", code ? code : fault_code_of_check(h->check), fmt, ap);
    va_end(ap);
}
#define problem(h, ...) problem_as(h, NULL, __VA_ARGS__)

/* What the running check could not look at: said, not failed. */
static void note(struct hctx *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct hctx *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_line(h, "note", NULL, fmt, ap);
    va_end(ap);
}

static const char *cfg(const struct hctx *h, const char *key)
{
    return profile_value(h->cfg, "check", key);
}

static void add_port(struct hctx *h, const struct rdma_device *d, const struct rdma_port *p)
{
    if (h->n < HEALTH_MAX_PORTS) {
        h->dev[h->n] = d;
        h->port[h->n++] = p;
    } else if (!h->left_out++) {
        note(h, "more than %d ports to check: the checks look at the first %d (hint: name "
             "those that matter with devices = DEV:PORT,...)", HEALTH_MAX_PORTS,
             HEALTH_MAX_PORTS);
    }
}

static void check_facts(struct hctx *h)
{
    struct facts_sources src = {.sysfs_root = h->sysfs[0] && strcmp(h->sysfs, "/sys") != 0
                                ? h->sysfs : NULL};
    if (facts_gather(&h->f, &src) != 0)
        problem(h, "cannot read the node's devices and topology");
    else if (src.sysfs_root)
        facts_read_host(&h->f, "/");   /* a recorded device tree; the limits are this node's */
}

/* Each problem a judgement of facts/check_keys.c found, as this check's
 * (with CODE, or the check's own when NULL). */
static void report_as(struct hctx *h, const char *code, struct strvec *problems)
{
    for (size_t i = 0; i < problems->n; i++)
        problem_as(h, code, "%s", problems->v[i]);
    sv_free(problems);
}
#define report(h, problems) report_as(h, NULL, problems)

/* A judge's problems (failed) and what it could not read (said, not failed). */
static void report_both(struct hctx *h, struct strvec *problems, struct strvec *unknown)
{
    report(h, problems);
    for (size_t i = 0; i < unknown->n; i++) {
        fprintf(h->out, "note %s\t%s unknown\n", h->check, unknown->v[i]);
        fflush(h->out);
    }
    sv_free(unknown);
}

static struct port_ref *refs(const struct hctx *h, struct port_ref *out)
{
    for (size_t i = 0; i < h->n; i++)
        out[i] = (struct port_ref){h->dev[i], h->port[i]};
    return out;
}

/* Every device and port `devices` names is present, and ACTIVE unless
 * port-state = any; without `devices`, every port of every device. */
static void check_devices(struct hctx *h)
{
    const char *want = cfg(h, "devices");
    bool any_state = cfg(h, "port-state") && strcmp(cfg(h, "port-state"), "any") == 0;
    struct strvec names = {0};
    if (want)
        sv_split(&names, want, ",");
    for (size_t i = 0; !want && i < h->f.ndevs; i++)
        sv_push(&names, h->f.devs[i].name);
    if (names.n == 0)
        problem(h, "no RDMA device on this node (hint: 'ibv_devices' lists them; check that the "
                "driver and ib_uverbs are loaded)");
    for (size_t i = 0; i < names.n; i++) {
        char *dev = names.v[i], *colon = strchr(dev, ':');
        int only = colon ? atoi(colon + 1) : 0;
        if (colon)
            *colon = '\0';
        const struct rdma_device *d = NULL;
        for (size_t k = 0; k < h->f.ndevs && !d; k++)
            if (strcmp(h->f.devs[k].name, dev) == 0)
                d = &h->f.devs[k];
        if (!d) {
            problem_as(h, "RDMARUN-DEVICE-ABSENT", "%s is absent (hint: 'ibv_devices' lists the "
                       "devices this node has; check the driver, the firmware and the PCIe "
                       "slot)", dev);
            continue;
        }
        bool found = false;
        for (size_t j = 0; j < d->nports; j++) {
            const struct rdma_port *p = &d->ports[j];
            if (only && p->num != only)
                continue;
            found = true;
            if (!any_state && !port_is_active(p)) {
                struct strvec v = {0};
                judge_port_state(&(struct port_ref){d, p}, &v);
                report_as(h, "RDMARUN-PORT-DOWN", &v);
                continue;
            }
            add_port(h, d, p);
        }
        if (!found)
            problem_as(h, "RDMARUN-DEVICE-ABSENT", "%s has no port %d", d->name, only);
    }
    sv_free(&names);
}

static void check_rate(struct hctx *h)
{
    struct strvec v = {0}, unknown = {0};
    struct port_ref r[HEALTH_MAX_PORTS];
    judge_rate(cfg(h, "min-rate"), refs(h, r), h->n, &v, &unknown);
    report_both(h, &v, &unknown);
}

static void check_mtu(struct hctx *h)
{
    struct strvec v = {0};
    struct port_ref r[HEALTH_MAX_PORTS];
    judge_mtu(cfg(h, "mtu"), refs(h, r), h->n, &v);
    report(h, &v);
}

static void check_pcie(struct hctx *h)
{
    struct strvec v = {0};
    struct port_ref r[HEALTH_MAX_PORTS];
    judge_pcie(refs(h, r), h->n, &v);
    report(h, &v);
}

static void check_memlock(struct hctx *h)
{
    struct strvec v = {0};
    judge_memlock(cfg(h, "memlock"), &h->f.limits, &v);
    report(h, &v);
}

static void check_hugepages(struct hctx *h)
{
    struct strvec v = {0};
    judge_hugepages(cfg(h, "hugepages"), &h->f.limits, &v);
    report(h, &v);
}

static void check_modules(struct hctx *h)
{
    struct strvec mods = {0};
    sv_split(&mods, cfg(h, "modules"), ",");
    for (size_t i = 0; i < mods.n; i++) {
        char *path = xasprintf("%s/module/%s", h->sysfs, mods.v[i]);
        if (access(path, F_OK) != 0)
            problem(h, "kernel module %s is not loaded (hint: modprobe %s)", mods.v[i], mods.v[i]);
        free(path);
    }
    sv_free(&mods);
}

bool health_counter_limits(const char *value, long long *limit, char **bad)
{
    for (int fam = 0; fam < COUNTER_FAMILIES; fam++)
        limit[fam] = fam == COUNTER_LINK || fam == COUNTER_LOSS || fam == COUNTER_ERROR ? 0 : -1;
    struct strvec items = {0};
    sv_split(&items, value ? value : "", ",");
    *bad = NULL;
    for (size_t i = 0; i < items.n && !*bad; i++) {
        const char *item = items.v[i], *colon = strchr(item, ':');
        int fam = -1;
        long n = -1;
        for (int k = 0; colon && k < COUNTER_FAMILIES && fam < 0; k++)
            if (strlen(counter_family_names[k]) == (size_t)(colon - item) &&
                strncmp(counter_family_names[k], item, (size_t)(colon - item)) == 0 &&
                k != COUNTER_TRAFFIC)
                fam = k;
        if (fam < 0 || !parse_long(colon + 1, 0, LONG_MAX, &n))
            *bad = xstrdup(item);
        else
            limit[fam] = n;
    }
    sv_free(&items);
    return !*bad;
}

/* The growth each counter family may have between two checks
 * ([check] KEY): validated when the configuration loaded (health.c), so a
 * mistake here is a configuration error, never a sick node. */
static bool counter_limits(struct hctx *h, const char *key, long long *limit)
{
    char *bad;
    if (health_counter_limits(cfg(h, key), limit, &bad))
        return true;
    problem_as(h, FAULT_CONFIG, "[check] %s: '%s' is not FAMILY:N (families: link, loss, error, "
               "receiver, congestion, other)", key, bad);
    free(bad);
    return false;
}

/* The folder of a file the checks keep between runs (the counter
 * baseline, the ports' history), made when missing and opened, so that the
 * file is read and replaced in it by name, never through a link: the
 * folder's fd (-1 when it cannot be opened) and the file's name (*base, to
 * free). */
static int state_dir_open(const char *path, char **base)
{
    char *a = xstrdup(path), *b = xstrdup(path), *where = NULL;
    /* made when missing, and opened through no symbolic link anywhere on
     * its way: root's state never lands where a link points */
    int dfd = open_no_links(dirname(a), O_RDONLY | O_DIRECTORY, 0, true, NULL, &where);
    *base = xstrdup(basename(b));
    free(a);
    free(b);
    free(where);
    return dfd;
}

/* A file of counters, "DEV PORT NAME VALUE" lines (the baseline, a job's
 * snapshot), read into each port's set: read only when it is this user's
 * regular file, never through a link. False when there is none. */
static bool counters_load(struct hctx *h, int dfd, const char *name, struct port_counters *then)
{
    size_t len, cap[HEALTH_MAX_PORTS] = {0};
    char *text = dfd >= 0 ? read_own_file_at(dfd, name, 16 << 20, &len) : NULL;
    if (!text)
        return false;
    char dev[64], cname[64];
    int port;
    long long old;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (sscanf(line, "%63s %d %63s %lld", dev, &port, cname, &old) != 4)
            continue;
        for (size_t i = 0; i < h->n; i++)
            if (strcmp(h->dev[i]->name, dev) == 0 && h->port[i]->num == port) {
                GROW(then[i].values, cap[i], then[i].names.n + 1);
                then[i].values[then[i].names.n] = old;
                sv_push(&then[i].names, cname);
            }
    }
    free(text);
    return true;
}

/* The ports' counters now, written whole over NAME in DFD (made O_EXCL
 * beside it and renamed: never through a link someone planted). */
static bool counters_save(struct hctx *h, int dfd, const char *name)
{
    struct strvec lines = {0};
    for (size_t i = 0; i < h->n; i++)
        for (size_t k = 0; k < h->port[i]->counters.names.n; k++)
            sv_pushf(&lines, "%s %d %s %lld\n", h->dev[i]->name, h->port[i]->num,
                     h->port[i]->counters.names.v[k], h->port[i]->counters.values[k]);
    char *text = sv_join(&lines, "");
    bool ok = dfd >= 0 && replace_file_at(dfd, name, text, strlen(text)) == 0;
    free(text);
    sv_free(&lines);
    return ok;
}

#define JOB_SNAPSHOT_DAYS 7   /* a job's prolog snapshot whose epilog never ran */

/* Job snapshots ("BASE.job-ID") older than a week: their job's epilog never
 * ran (the node went down), so nothing will read them. */
static void counters_prune(int dfd, const char *base)
{
    int fd = dup(dfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    char *prefix = xasprintf("%s.job-", base);
    time_t old = time(NULL) - JOB_SNAPSHOT_DAYS * 86400;
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 &&
            fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid() && st.st_mtime < old)
            unlinkat(dfd, e->d_name, 0);
    }
    free(prefix);
    closedir(d);
}

/* Counters must not grow past their family's limit between two checks:
 * every counter of each port (counters/, hw_counters/) is kept in a
 * baseline file (root's, in root mode), rewritten after each check. A
 * Slurm prolog also keeps them for its job ("BASE.job-ID"), and the job's
 * epilog (--epilog) judges what grew during the job against that, with
 * epilog-counter-limits, and removes it. */
static void check_counters(struct hctx *h)
{
    const char *path = cfg(h, "baseline") ? cfg(h, "baseline")
                     : RDMARUN_LOCALSTATEDIR "/lib/rdmarun/counters.baseline";
    bool epilog = h->scope.epilog && h->scope.job;
    const char *limits = epilog && cfg(h, "epilog-counter-limits") ? "epilog-counter-limits"
                                                                    : "counter-limits";
    long long limit[COUNTER_FAMILIES];
    if (!counter_limits(h, limits, limit))
        return;
    char *base;
    int dfd = state_dir_open(path, &base);
    char *snapshot = h->scope.job ? xasprintf("%s.job-%s", base, h->scope.job) : NULL;
    struct port_counters then[HEALTH_MAX_PORTS];
    memset(then, 0, sizeof(then));
    bool had = counters_load(h, dfd, epilog ? snapshot : base, then);
    if (epilog && !had) {
        fprintf(h->out, "note %s\tno counters from job %s's prolog in %s.job-%s (the prolog ran "
                "without 'counters = yes', or as another user): what grew during the job is "
                "unknown\n", h->check, h->scope.job, path, h->scope.job);
        fflush(h->out);
    }
    char *since = epilog ? xasprintf("during job %s", h->scope.job)
                         : xstrdup("since the last check");
    for (size_t i = 0; i < h->n; i++) {
        struct counter_growth g;
        counters_growth(h->dev[i]->name, h->port[i]->num, &then[i], &h->port[i]->counters, &g);
        /* Said, not failed: a counter at its top has stopped, so its growth
         * from here on is unseen (what it counted so far is history). */
        for (size_t k = 0; k < g.saturated.n; k++) {
            fprintf(h->out, "note %s\t%s port %d %s is saturated (counts no more until reset: "
                    "'perfquery -R'); its growth is unknown\n", h->check, h->dev[i]->name,
                    h->port[i]->num, g.saturated.v[k]);
            fflush(h->out);
        }
        for (int fam = COUNTER_LOSS; had && fam < COUNTER_FAMILIES; fam++) {
            long long grew = counter_growth_sum(&g, fam);
            if (limit[fam] < 0 || grew <= limit[fam])
                continue;
            struct strvec which = {0};
            for (size_t k = 0; k < g.names.n; k++)
                if ((int)counter_family_of(g.names.v[k]) == fam)
                    sv_pushf(&which, "%s grew by %lld", g.names.v[k], g.deltas[k]);
            char *list = sv_join(&which, ", ");
            char code[64];   /* RDMARUN-COUNTERS-LOSS ... */
            snprintf(code, sizeof(code), "RDMARUN-COUNTERS-%s", counter_family_names[fam]);
            for (char *c = code; *c; c++)
                *c = (char)toupper((unsigned char)*c);
            problem_as(h, code, "%s port %d %s %s (%s counters: %lld, the limit is %lld; hint: "
                       "'perfquery' or the switch's port counters; a cable going bad)",
                       h->dev[i]->name, h->port[i]->num, list, since,
                       counter_family_names[fam], grew, limit[fam]);
            free(list);
            sv_free(&which);
        }
        counter_growth_free(&g);
        port_counters_free(&then[i]);
    }
    free(since);
    if (!counters_save(h, dfd, base) ||
        (h->scope.job && !epilog && !counters_save(h, dfd, snapshot)))
        problem_as(h, "RDMARUN-COUNTERS-BASELINE", "cannot write the counter baseline %s: %s "
                   "(hint: [check] baseline = a file in a folder only root can write)", path,
                   strerror(errno));
    if (dfd >= 0 && epilog)
        unlinkat(dfd, snapshot, 0);
    else if (dfd >= 0 && h->scope.job)
        counters_prune(dfd, base);
    if (dfd >= 0)
        close(dfd);
    free(snapshot);
    free(base);
}

/* A [check] number of seconds or a count, else its default in the key
 * table (profile/schema.c), else 0: off. */
static long long cfg_count(const struct hctx *h, const char *key)
{
    long v;
    if (parse_long(cfg(h, key), 1, LONG_MAX, &v))   /* validated on load */
        return v;
    const char *dflt = schema_value(NULL, "check", key);
    return dflt && parse_long(dflt, 1, LONG_MAX, &v) ? v : 0;
}

/* Flaps and drops (health/port_history.c): each port's first time seen
 * down and its link_downed readings, kept in a state file between checks
 * (root's, in root mode: read only when it is this user's regular file,
 * replaced whole). Every port of the named devices, down ones too. */
static void check_flaps(struct hctx *h)
{
    const char *path = cfg(h, "state") ? cfg(h, "state")
                     : RDMARUN_LOCALSTATEDIR "/lib/rdmarun/port-state";
    struct flap_rules r = {cfg_count(h, "flap-window"), cfg_count(h, "drop-after"),
                           (long)cfg_count(h, "flap-count")};
    char *base;
    int dfd = state_dir_open(path, &base);
    size_t len, n = 0;
    char *text = dfd >= 0 ? read_own_file_at(dfd, base, 4 << 20, &len) : NULL;
    static struct port_history hist[HEALTH_MAX_HISTORY];
    n = port_history_parse(text, hist, HEALTH_MAX_HISTORY);
    if (n == HEALTH_MAX_HISTORY)
        note(h, "the ports' history %s holds %d entries, the most kept: ports past them are "
             "not followed (hint: name the ports with devices = DEV:PORT,...)", path,
             HEALTH_MAX_HISTORY);
    free(text);
    struct strvec names = {0};
    if (cfg(h, "devices"))
        sv_split(&names, cfg(h, "devices"), ",");
    for (size_t i = 0; i < names.n; i++)
        names.v[i][strcspn(names.v[i], ":")] = '\0';
    long long now = (long long)time(NULL);
    for (size_t i = 0; i < h->f.ndevs; i++) {
        const struct rdma_device *d = &h->f.devs[i];
        if ((names.n && sv_find(&names, d->name) < 0) || strlen(d->name) >= sizeof(hist->dev) ||
            d->name[strcspn(d->name, " \t\n")])
            continue;   /* a name the state file's lines cannot carry */
        for (size_t j = 0; j < d->nports; j++) {
            const struct rdma_port *p = &d->ports[j];
            size_t k = 0;
            while (k < n && !(hist[k].port == p->num && strcmp(hist[k].dev, d->name) == 0))
                k++;
            if (k == n) {
                if (n == HEALTH_MAX_HISTORY)
                    continue;   /* (said above) */
                memset(&hist[n], 0, sizeof(hist[n]));
                snprintf(hist[n].dev, sizeof(hist[n].dev), "%s", d->name);
                hist[n++].port = p->num;
            }
            int at = sv_find(&p->counters.names, "link_downed");
            long long downed = at >= 0 ? p->counters.values[at] : -1;
            long flaps;
            long long down_for;
            port_history_update(&hist[k], now, port_link_up(p), downed, &r, &flaps, &down_for);
            char *how = downed >= 0 ? xasprintf("link_downed now %lld", downed)
                                    : xstrdup("seen down by the checks: it has no link_downed");
            if (flaps >= r.count)
                problem_as(h, "RDMARUN-FLAP", "%s port %d went down %ld times in the last %lld s "
                           "(%s; %ld or more make a flap; hint: reseat or replace the cable or "
                           "transceiver, and check the switch port's log)", d->name, p->num,
                           flaps, r.window_s, how, r.count);
            free(how);
            if (down_for >= r.drop_after_s)
                problem_as(h, "RDMARUN-PORT-DROPPED", "%s port %d has been down for %lld s "
                           "(since the check at Unix time %lld), %lld s or more: dropped, not a "
                           "transient (hint: the cable, the switch port, the subnet manager)",
                           d->name, p->num, down_for, hist[k].down_since, r.drop_after_s);
        }
    }
    sv_free(&names);
    char *out = port_history_text(hist, n);
    if (dfd < 0 || replace_file_at(dfd, base, out, strlen(out)) != 0)
        problem_as(h, "RDMARUN-STATE", "cannot keep the ports' history in %s: %s (hint: [check] "
                   "state = a file in a folder only root can write)", path, strerror(errno));
    if (dfd >= 0)
        close(dfd);
    free(out);
    free(base);
}

/* What the kernel said about the checked devices within kmsg-window
 * (health/kmsg.c): per device and event, how often and the last words. */
struct kmsg_seen {
    long count[HEALTH_MAX_PORTS][KMSG_EVENTS];
    unsigned long long last_usec[HEALTH_MAX_PORTS][KMSG_EVENTS];
    char last[HEALTH_MAX_PORTS][KMSG_EVENTS][256];
};

static void kmsg_take(struct hctx *h, const struct kmsg_record *r, unsigned long long now_us,
                      unsigned long long window_us, struct kmsg_seen *seen)
{
    enum kmsg_event ev = kmsg_classify(r);
    if (ev == KMSG_NONE || r->usec > now_us || now_us - r->usec > window_us)
        return;
    for (size_t i = 0; i < h->n; i++) {
        const struct rdma_device *d = h->dev[i];
        bool mine = r->pci[0] && d->pci_busid && strcasecmp(d->pci_busid, r->pci) == 0;
        for (char **n = d->netdevs; !mine && n && *n && r->netdev[0]; n++)
            mine = strcmp(*n, r->netdev) == 0;
        if (!mine)
            continue;
        size_t k = 0;   /* the device's first port stands for it */
        while (h->dev[k] != d)
            k++;
        seen->count[k][ev]++;
        seen->last_usec[k][ev] = r->usec;
        snprintf(seen->last[k][ev], sizeof(seen->last[k][ev]), "%.255s", r->text);
        return;
    }
}

/* The kernel's log: a recorded tree's "kmsg" (a `cat /dev/kmsg`), else
 * /dev/kmsg itself, one record per read, to its end (EAGAIN), past records
 * overwritten meanwhile (EPIPE); at most 1,000,000 records. False when it
 * cannot be read (said by the caller). */
static bool kmsg_read(struct hctx *h, unsigned long long window_us, struct kmsg_seen *seen)
{
    struct kmsg_record r;
    bool bad;
    if (strcmp(h->sysfs, "/sys") != 0) {
        char *path = xasprintf("%s/kmsg", h->sysfs);
        size_t len;
        char *text = read_input(path, 64 << 20, &len);
        free(path);
        if (!text)
            return false;
        unsigned long long now = 0;   /* a recording's "now" is its last record */
        for (const char *p = text; kmsg_next(&p, text + len, &r, &bad) || bad;)
            if (!bad && r.usec > now)
                now = r.usec;
        for (const char *p = text; kmsg_next(&p, text + len, &r, &bad) || bad;)
            if (!bad)
                kmsg_take(h, &r, now, window_us, seen);
        free(text);
        return true;
    }
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);   /* the records' clock: time since boot */
    unsigned long long now = (unsigned long long)ts.tv_sec * 1000000 +
                             (unsigned long long)ts.tv_nsec / 1000;
    char buf[8192];
    for (long i = 0; i < 1000000; i++) {
        ssize_t n = read(fd, buf, sizeof(buf) - 1);
        if (n < 0 && (errno == EPIPE || errno == EINTR))
            continue;
        if (n <= 0)
            break;   /* EAGAIN: the end */
        const char *p = buf;
        if (kmsg_next(&p, buf + n, &r, &bad))
            kmsg_take(h, &r, now, window_us, seen);
    }
    close(fd);
    return true;
}

/* Events the kernel logged about the checked devices within kmsg-window
 * seconds (default a day): a PCIe link limited below its capability,
 * firmware commands that failed or timed out, firmware health lost, a
 * transceiver's error or temperature, and flap-count link downs of one of
 * the device's interfaces. Only the kernel's own records count. */
static void check_kmsg(struct hctx *h)
{
    long long window = cfg_count(h, "kmsg-window");
    long flaps = (long)cfg_count(h, "flap-count");
    static struct kmsg_seen seen;
    memset(&seen, 0, sizeof(seen));
    if (!kmsg_read(h, (unsigned long long)window * 1000000, &seen)) {
        fprintf(h->out, "note %s\tthe kernel's log (%s) unknown: %s%s\n", h->check,
                strcmp(h->sysfs, "/sys") ? "the recording's kmsg" : "/dev/kmsg", strerror(errno),
                errno == EPERM || errno == EACCES ? " (kernel.dmesg_restrict: run as root)" : "");
        fflush(h->out);
        return;
    }
    static const struct {
        const char *code, *what, *hint;
    } events[KMSG_EVENTS] = {
        [KMSG_PCIE] = {"RDMARUN-KMSG-PCIE", "its PCIe link limited below its capability",
                       "reseat the card; check the slot's width and speed in the BIOS"},
        [KMSG_FW_COMMAND] = {"RDMARUN-KMSG-FIRMWARE", "firmware commands failed or timed out",
                             "the syndrome is in the firmware's release notes; update the "
                             "firmware (mlxfwmanager), or reset the device"},
        [KMSG_HEALTH] = {"RDMARUN-KMSG-HEALTH", "its firmware stopped answering (health lost)",
                         "'devlink health show'; a reset or reboot, and replace the card if "
                         "it recurs"},
        [KMSG_MODULE] = {"RDMARUN-KMSG-MODULE", "its transceiver or cable reported an error",
                         "reseat or replace the cable or transceiver"},
        [KMSG_TEMPERATURE] = {"RDMARUN-KMSG-TEMPERATURE", "a module or sensor ran too hot",
                              "airflow and fans; the transceiver"},
        [KMSG_LINK_DOWN] = {"RDMARUN-KMSG-LINK-FLAP", "its link went down",
                            "reseat or replace the cable; the switch port's log"},
    };
    for (size_t k = 0; k < h->n; k++)
        for (int ev = KMSG_PCIE; ev < KMSG_EVENTS; ev++) {
            long n = seen.count[k][ev];
            if (n == 0 || (ev == KMSG_LINK_DOWN && n < flaps))
                continue;
            char *words = term_safe(seen.last[k][ev], strlen(seen.last[k][ev]), 256);
            problem_as(h, events[ev].code, "%s: the kernel logged %s %ld time%s in the last "
                       "%lld s, last at %.1f s after boot: '%s' (hint: %s)", h->dev[k]->name,
                       events[ev].what, n, n == 1 ? "" : "s", window,
                       (double)seen.last_usec[k][ev] / 1e6, words, events[ev].hint);
            free(words);
        }
}

/* The node against the manifest (health/manifest.c): the facts of a good
 * node of its kind, read with probe --json's checks. */
static void check_manifest(struct hctx *h)
{
    struct facts want;
    struct facts_sources src = {.facts_file = cfg(h, "manifest")};
    if (facts_gather(&want, &src) != 0) {   /* said on stderr: this check's */
        facts_free(&want);
        return;
    }
    struct strvec codes = {0}, problems = {0};
    manifest_compare(&want, &h->f, &codes, &problems);
    for (size_t i = 0; i < problems.n; i++)
        problem_as(h, codes.v[i], "%s", problems.v[i]);
    sv_free(&codes);
    sv_free(&problems);
    facts_free(&want);
}

/* What a check measured: said, not failed ("info NAME<TAB>TEXT"). */
static void measured(struct hctx *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void measured(struct hctx *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_line(h, "info", NULL, fmt, ap);
    va_end(ap);
}

/* One port's loopback bandwidth, in a child pinned to the NIC's NUMA node
 * (its CPUs and memory, as a rank placed by it would run): "ok GBPS" or
 * "error WHY" on stdout. */
struct loopback_job {
    struct plan_port port;
    int numa;
    double seconds;
};

static void loopback_child(void *arg)
{
    const struct loopback_job *j = arg;
    if (j->numa >= 0 && numa_available() >= 0) {
        numa_run_on_node(j->numa);
        numa_set_preferred(j->numa);
    }
    struct qp_result r;
    qp_bandwidth(j->port.dev->name, j->port.port->num, j->port.gid_index, j->seconds, 5.0, &r);
    if (r.ok)
        printf("ok %.6f\n", r.bw_mbps * 8 / 1000);
    else
        printf("error %s\n", r.message ? r.message : "unknown");
    fflush(stdout);
    qp_result_free(&r);
}

/* Loopback RDMA WRITE bandwidth of every port, all at once (as a job
 * loads them), held to min-loopback-gbps or min-loopback-percent of the
 * port's rate. */
static void check_loopback(struct hctx *h)
{
    double seconds = (double)cfg_count(h, "loopback-seconds");
    long long min_gbps = cfg_count(h, "min-loopback-gbps");
    long long percent = cfg_count(h, "min-loopback-percent");
    struct loopback_job jobs[HEALTH_MAX_PORTS];
    struct proc procs[HEALTH_MAX_PORTS];
    bool started[HEALTH_MAX_PORTS] = {false};
    for (size_t i = 0; i < h->n; i++) {
        char name[128];
        snprintf(name, sizeof(name), "%s:%d", h->dev[i]->name, h->port[i]->num);
        if (preflight_ports(&h->f, name, -1, &jobs[i].port, 1) != 1) {
            problem_as(h, "RDMARUN-LOOPBACK", "%s: no port to test", name);
            continue;
        }
        jobs[i].numa = h->dev[i]->numa_node;
        jobs[i].seconds = seconds;
        struct proc_spec spec = {.fn = loopback_child, .arg = &jobs[i], .out = PROC_PIPE,
                                 .err = PROC_NULL, .own_group = true};
        started[i] = proc_start(&spec, &procs[i]) == 0;
        if (!started[i])
            problem_as(h, "RDMARUN-LOOPBACK", "%s: cannot start the test: %s", name,
                       strerror(errno));
    }
    for (size_t i = 0; i < h->n; i++) {
        if (!started[i])
            continue;
        char buf[1024];
        size_t len = 0;
        ssize_t got;
        while (len < sizeof(buf) - 1 &&
               (got = read(procs[i].out, buf + len, sizeof(buf) - 1 - len)) != 0) {
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                break;
            len += (size_t)got;
        }
        buf[len] = '\0';
        buf[strcspn(buf, "\n")] = '\0';
        close(procs[i].out);
        int status;
        proc_wait(&procs[i], proc_now() + 5, &status);
        const char *dev = h->dev[i]->name;
        int port = h->port[i]->num;
        double gbps = 0;
        if (strncmp(buf, "ok ", 3) != 0 || (gbps = atof(buf + 3)) <= 0) {
            problem_as(h, "RDMARUN-LOOPBACK", "%s port %d: the loopback test failed: %s", dev,
                       port, strncmp(buf, "error ", 6) == 0 ? buf + 6
                                                            : "it ended without a result");
            continue;
        }
        double want = (double)min_gbps;
        double share = h->port[i]->rate_gbps * (double)percent / 100;   /* 0: unknown rate */
        if (share > want)
            want = share;
        measured(h, "%s port %d: loopback RDMA WRITE at %.2f Gb/s (NUMA %d)", dev, port, gbps,
                 h->dev[i]->numa_node);
        if (gbps < want)
            problem_as(h, "RDMARUN-LOOPBACK-BW", "%s port %d: loopback RDMA WRITE at %.2f Gb/s, "
                       "below the %.2f Gb/s required (hint: PCIe width and speed, the NIC's "
                       "NUMA node, its firmware; 'ib_write_bw' to compare)", dev, port, gbps, want);
    }
}

/* The class of the RoCE traffic the site's profile sends: UCX's, and
 * NCCL's when the check profile has an [nccl] section. */
static void check_lossless(struct hctx *h)
{
    struct strvec v = {0}, unknown = {0};
    struct port_ref r[HEALTH_MAX_PORTS];
    refs(h, r);
    for (int nccl = 0; nccl < 2; nccl++) {
        const char *sec = nccl ? "nccl" : "ucx";
        const char *tc = profile_value(h->cfg, sec, nccl ? "IB_TC" : "IB_TRAFFIC_CLASS");
        const char *sl = profile_value(h->cfg, sec, "IB_SL");
        if (nccl && !tc && !sl && !profile_value(h->cfg, "nccl", "IB_HCA"))
            continue;
        struct roce_class c;
        if (!roce_class_of(nccl, tc, sl, &c)) {
            problem_as(h, FAULT_CONFIG, "[%s] %s = %s, IB_SL = %s: not a traffic class 0-255 and "
                       "a service level 0-7", sec, nccl ? "IB_TC" : "IB_TRAFFIC_CLASS",
                       tc ? tc : "auto", sl ? sl : "auto");
            continue;
        }
        struct strvec again = {0};   /* NCCL's unknowns are UCX's */
        judge_lossless(r, h->n, &c, &v, nccl ? &again : &unknown);
        sv_free(&again);
    }
    report_both(h, &v, &unknown);
}

static void check_irqs(struct hctx *h)
{
    struct strvec v = {0}, unknown = {0};
    struct port_ref r[HEALTH_MAX_PORTS];
    judge_irqs(refs(h, r), h->n, NULL, &v, &unknown);
    report_both(h, &v, &unknown);
}

static void check_governor(struct hctx *h)
{
    struct strvec v = {0}, unknown = {0};
    judge_governor(cfg(h, "governor"), &h->f.cpu, NULL, &v, &unknown);
    report_both(h, &v, &unknown);
}

static void check_idle(struct hctx *h)
{
    struct strvec v = {0}, unknown = {0};
    judge_idle(cfg(h, "max-idle-latency"), &h->f.cpu, NULL, &v, &unknown);
    report_both(h, &v, &unknown);
}

static void check_gpudirect(struct hctx *h)
{
    struct strvec v = {0}, unknown = {0};
    judge_gpudirect(&h->f, &v, &unknown);
    report_both(h, &v, &unknown);
}

static void check_qp(struct hctx *h)
{
    for (size_t i = 0; i < h->n; i++) {
        char name[128];
        snprintf(name, sizeof(name), "%s:%d", h->dev[i]->name, h->port[i]->num);
        /* The reason goes to stderr, which the supervisor reads as this check's. */
        struct plan_port port[1];
        size_t n = preflight_ports(&h->f, name, -1, port, 1);
        if (preflight_qp_test(port, n, "such port", true) != 0)
            problem(h, "the RC loopback failed on %s", name);
    }
}

void health_checks(const struct profile *cfg_profile, const struct health_scope *scope, FILE *out)
{
    struct hctx h;
    memset(&h, 0, sizeof(h));
    h.cfg = cfg_profile;
    h.scope = *scope;
    h.sysfs = scope->sysfs ? scope->sysfs : "/sys";
    h.out = out;
    bool on = false;
    static const struct {
        const char *name, *key;   /* key: the [check] setting that turns it on; NULL: always */
        void (*run)(struct hctx *);
    } checks[] = {
        {"facts", NULL, check_facts},       {"devices", NULL, check_devices},
        {"rate", "min-rate", check_rate},   {"mtu", "mtu", check_mtu},
        {"pcie", "pcie-at-capability", check_pcie}, {"memlock", "memlock", check_memlock},
        {"hugepages", "hugepages", check_hugepages}, {"modules", "modules", check_modules},
        {"manifest", "manifest", check_manifest},
        {"counters", "counters", check_counters},   {"flaps", "flaps", check_flaps},
        {"kmsg", "kmsg", check_kmsg},
        {"lossless", "lossless", check_lossless},
        {"irq-affinity", "irq-affinity", check_irqs}, {"governor", "governor", check_governor},
        {"idle-states", "max-idle-latency", check_idle},
        {"gpudirect", "gpudirect", check_gpudirect}, {"qp", "qp-test", check_qp},
        {"loopback", "loopback", check_loopback},
    };
    for (size_t i = 0; i < sizeof(checks) / sizeof(*checks); i++) {
        const char *v = checks[i].key ? cfg(&h, checks[i].key) : NULL;
        if (checks[i].key && (!v || (parse_bool(v, &on) && !on)))
            continue;   /* not asked for */
        h.check = checks[i].name;
        fprintf(out, "begin %s\n", h.check);
        fflush(out);
        checks[i].run(&h);
        fprintf(out, "end %s\n", h.check);
        fflush(out);
    }
    facts_free(&h.f);
}
