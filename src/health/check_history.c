/* The health checks that hold a node to its past (checks.c runs them):
 * counters against the last check's (and a job's prolog), the ports'
 * flaps and drops kept in a state file between checks, and the kernel's
 * log over its window. */
#include "facts/findings.h"
#include "health/fault_codes.h"
#include "health/check_ctx.h"
#include "health/kmsg.h"
#include "health/port_history.h"
#include "util/fs.h"
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
    if (health_counter_limits(hc_cfg(h, key), limit, &bad))
        return true;
    hc_problem_as(h, FAULT_CONFIG, "[check] %s: '%s' is not FAMILY:N (families: link, loss, error, "
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
/* Where to look next, by the kind of NIC. */
static const char *growth_hint(const struct rdma_device *d, const struct rdma_port *p)
{
    const char *kind = port_kind(d, p);
    return strcmp(kind, "efa") == 0
               ? "'rdma statistic show' per port; retransmission timeouts and unresponsive or "
                 "impaired remotes point at the peers' instances or the network between them"
           : strcmp(kind, "cxi") == 0
               ? "'cxi_stat -m' and the switch's port; uncorrected codewords and link "
                 "restarts are a cable or optics going bad"
               : "'perfquery' or the switch's port counters; a cable going bad";
}

/* Family FAM's growth on port i past its limit: a problem for each fault
 * code among its counters (one of their own, else the family's), in the
 * order they grew. */
static void family_problems(struct hctx *h, size_t i, const struct counter_growth *g, int fam,
                            long long grew, long long limit, const char *since)
{
    char family_code[64];   /* RDMARUN-COUNTERS-LOSS ... */
    snprintf(family_code, sizeof(family_code), "RDMARUN-COUNTERS-%s", counter_family_names[fam]);
    for (char *c = family_code; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    struct strvec codes = {0};
    for (size_t k = 0; k < g->names.n; k++) {
        const char *own = counter_fault_code(g->names.v[k]);
        if ((int)counter_family_of(g->names.v[k]) == fam && sv_find(&codes, own ? own : family_code) < 0)
            sv_push(&codes, own ? own : family_code);
    }
    for (size_t c = 0; c < codes.n; c++) {
        struct strvec which = {0};
        for (size_t k = 0; k < g->names.n; k++) {
            const char *own = counter_fault_code(g->names.v[k]);
            if ((int)counter_family_of(g->names.v[k]) == fam &&
                strcmp(own ? own : family_code, codes.v[c]) == 0)
                sv_pushf(&which, "%s grew by %lld", g->names.v[k], g->deltas[k]);
        }
        char *list = sv_join(&which, ", ");
        hc_problem_as(h, codes.v[c], "%s port %d %s %s (%s counters: %lld, the limit is %lld; "
                      "hint: %s)", h->dev[i]->name, h->port[i]->num, list, since,
                      counter_family_names[fam], grew, limit, growth_hint(h->dev[i], h->port[i]));
        free(list);
        sv_free(&which);
    }
    sv_free(&codes);
}

/* Port i's counters that grew past their family's limit since `then`
 * (had: there was a `then`), each family a problem of its own; a
 * saturated counter said. */
static void port_growth(struct hctx *h, size_t i, const struct port_counters *then, bool had,
                        const long long limit[COUNTER_FAMILIES], const char *since)
{
    struct counter_growth g;
    counters_growth(h->dev[i]->name, h->port[i]->num, then, &h->port[i]->counters, &g);
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
        if (limit[fam] >= 0 && grew > limit[fam])
            family_problems(h, i, &g, fam, grew, limit[fam], since);
    }
    counter_growth_free(&g);
}

void check_counters(struct hctx *h)
{
    const char *path = hc_cfg(h, "baseline") ? hc_cfg(h, "baseline")
                     : RDMARUN_LOCALSTATEDIR "/lib/rdmarun/counters.baseline";
    bool epilog = h->scope.epilog && h->scope.job;
    const char *limits = epilog && hc_cfg(h, "epilog-counter-limits") ? "epilog-counter-limits"
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
        port_growth(h, i, &then[i], had, limit, since);
        port_counters_free(&then[i]);
    }
    free(since);
    if (!counters_save(h, dfd, base) ||
        (h->scope.job && !epilog && !counters_save(h, dfd, snapshot)))
        hc_problem_as(h, "RDMARUN-COUNTERS-BASELINE", "cannot write the counter baseline %s: %s "
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

/* Flaps and drops (health/port_history.c): each port's first time seen
 * down and its link_downed readings, kept in a state file between checks
 * (root's, in root mode: read only when it is this user's regular file,
 * replaced whole). Every port of the named devices, down ones too. */
/* Port p of device d's history (k: its entry) updated with this check:
 * a flap (down often in the window) or a drop (down too long) said. */
static void port_flaps(struct hctx *h, const struct rdma_device *d, const struct rdma_port *p,
                       struct port_history *hist, const struct flap_rules *r, long long now)
{
    int at = sv_find(&p->counters.names, "link_downed");
    long long downed = at >= 0 ? p->counters.values[at] : -1;
    long flaps;
    long long down_for;
    port_history_update(hist, now, port_link_up(p), downed, r, &flaps, &down_for);
    char *how = downed >= 0 ? xasprintf("link_downed now %lld", downed)
                            : xstrdup("seen down by the checks: it has no link_downed");
    if (flaps >= r->count)
        hc_problem_as(h, "RDMARUN-FLAP", "%s port %d went down %ld times in the last %lld s "
                   "(%s; %ld or more make a flap; hint: reseat or replace the cable or "
                   "transceiver, and check the switch port's log)", d->name, p->num,
                   flaps, r->window_s, how, r->count);
    free(how);
    if (down_for >= r->drop_after_s)
        hc_problem_as(h, "RDMARUN-PORT-DROPPED", "%s port %d has been down for %lld s "
                   "(since the check at Unix time %lld), %lld s or more: dropped, not a "
                   "transient (hint: the cable, the switch port, the subnet manager)",
                   d->name, p->num, down_for, hist->down_since, r->drop_after_s);
}

/* Port `num` of device `dev`'s entry in hist (n entries, one more made
 * when there is room); NULL when the history is full. */
static struct port_history *history_of(struct port_history *hist, size_t *n, const char *dev,
                                       int num)
{
    for (size_t k = 0; k < *n; k++)
        if (hist[k].port == num && strcmp(hist[k].dev, dev) == 0)
            return &hist[k];
    if (*n == HEALTH_MAX_HISTORY)
        return NULL;
    struct port_history *e = &hist[(*n)++];
    memset(e, 0, sizeof(*e));
    snprintf(e->dev, sizeof(e->dev), "%s", dev);
    e->port = num;
    return e;
}

void check_flaps(struct hctx *h)
{
    const char *path = hc_cfg(h, "state") ? hc_cfg(h, "state")
                     : RDMARUN_LOCALSTATEDIR "/lib/rdmarun/port-state";
    struct flap_rules r = {hc_cfg_count(h, "flap-window"), hc_cfg_count(h, "drop-after"),
                           (long)hc_cfg_count(h, "flap-count")};
    char *base;
    int dfd = state_dir_open(path, &base);
    size_t len, n = 0;
    char *text = dfd >= 0 ? read_own_file_at(dfd, base, 4 << 20, &len) : NULL;
    static struct port_history hist[HEALTH_MAX_HISTORY];
    n = port_history_parse(text, hist, HEALTH_MAX_HISTORY);
    if (n == HEALTH_MAX_HISTORY)
        hc_note(h, "the ports' history %s holds %d entries, the most kept: ports past them are "
             "not followed (hint: name the ports with devices = DEV:PORT,...)", path,
             HEALTH_MAX_HISTORY);
    free(text);
    struct strvec names = {0};
    if (hc_cfg(h, "devices"))
        sv_split(&names, hc_cfg(h, "devices"), ",");
    for (size_t i = 0; i < names.n; i++)
        names.v[i][strcspn(names.v[i], ":")] = '\0';
    long long now = (long long)time(NULL);
    for (size_t i = 0; i < h->f.ndevs; i++) {
        const struct rdma_device *d = &h->f.devs[i];
        if ((names.n && sv_find(&names, d->name) < 0) || strlen(d->name) >= sizeof(hist->dev) ||
            d->name[strcspn(d->name, " \t\n")])
            continue;   /* a name the state file's lines cannot carry */
        for (size_t j = 0; j < d->nports; j++) {
            struct port_history *e = history_of(hist, &n, d->name, d->ports[j].num);
            if (e)   /* (a full history is said above) */
                port_flaps(h, d, &d->ports[j], e, &r, now);
        }
    }
    sv_free(&names);
    char *out = port_history_text(hist, n);
    if (dfd < 0 || replace_file_at(dfd, base, out, strlen(out)) != 0)
        hc_problem_as(h, "RDMARUN-STATE", "cannot keep the ports' history in %s: %s (hint: [check] "
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
void check_kmsg(struct hctx *h)
{
    long long window = hc_cfg_count(h, "kmsg-window");
    long flaps = (long)hc_cfg_count(h, "flap-count");
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
            hc_problem_as(h, events[ev].code, "%s: the kernel logged %s %ld time%s in the last "
                       "%lld s, last at %.1f s after boot: '%s' (hint: %s)", h->dev[k]->name,
                       events[ev].what, n, n == 1 ? "" : "s", window,
                       (double)seen.last_usec[k][ev] / 1e6, words, events[ev].hint);
            free(words);
        }
}
