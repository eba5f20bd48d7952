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
#include "health/check_ctx.h"
#include "health/health.h"
#include "health/kmsg.h"
#include "health/manifest.h"
#include "health/port_history.h"
#include "model/model.h"
#include "profile/settings.h"
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
void hc_problem_as(struct hctx *h, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_line(h, "fail", code ? code : fault_code_of_check(h->check), fmt, ap);
    va_end(ap);
}

/* What the running check could not look at: said, not failed. */
void hc_note(struct hctx *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_line(h, "note", NULL, fmt, ap);
    va_end(ap);
}

const char *hc_cfg(const struct hctx *h, const char *key)
{
    return profile_value(h->cfg, "check", key);
}

/* A [check] number of seconds or a count, else its default in the key
 * table (profile/schema.c), else 0: off. */
long long hc_cfg_count(const struct hctx *h, const char *key)
{
    long v;
    if (parse_long(hc_cfg(h, key), 1, LONG_MAX, &v))   /* validated on load */
        return v;
    const char *dflt = schema_value(NULL, "check", key);
    return dflt && parse_long(dflt, 1, LONG_MAX, &v) ? v : 0;
}

static void add_port(struct hctx *h, const struct rdma_device *d, const struct rdma_port *p)
{
    if (h->n < HEALTH_MAX_PORTS) {
        h->dev[h->n] = d;
        h->port[h->n++] = p;
    } else if (!h->left_out++) {
        hc_note(h, "more than %d ports to check: the checks look at the first %d (hint: name "
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
        hc_problem_as(h, code, "%s", problems->v[i]);
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
    const char *want = hc_cfg(h, "devices");
    bool any_state = hc_cfg(h, "port-state") && strcmp(hc_cfg(h, "port-state"), "any") == 0;
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
            hc_problem_as(h, "RDMARUN-DEVICE-ABSENT", "%s is absent (hint: 'ibv_devices' lists the "
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
            hc_problem_as(h, "RDMARUN-DEVICE-ABSENT", "%s has no port %d", d->name, only);
    }
    sv_free(&names);
}

static void check_rate(struct hctx *h)
{
    struct strvec v = {0}, unknown = {0};
    struct port_ref r[HEALTH_MAX_PORTS];
    judge_rate(hc_cfg(h, "min-rate"), refs(h, r), h->n, &v, &unknown);
    report_both(h, &v, &unknown);
}

static void check_mtu(struct hctx *h)
{
    struct strvec v = {0};
    struct port_ref r[HEALTH_MAX_PORTS];
    judge_mtu(hc_cfg(h, "mtu"), refs(h, r), h->n, &v);
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
    judge_memlock(hc_cfg(h, "memlock"), &h->f.limits, &v);
    report(h, &v);
}

static void check_hugepages(struct hctx *h)
{
    struct strvec v = {0};
    judge_hugepages(hc_cfg(h, "hugepages"), &h->f.limits, &v);
    report(h, &v);
}

static void check_modules(struct hctx *h)
{
    struct strvec mods = {0};
    sv_split(&mods, hc_cfg(h, "modules"), ",");
    for (size_t i = 0; i < mods.n; i++) {
        char *path = xasprintf("%s/module/%s", h->sysfs, mods.v[i]);
        if (access(path, F_OK) != 0)
            problem(h, "kernel module %s is not loaded (hint: modprobe %s)", mods.v[i], mods.v[i]);
        free(path);
    }
    sv_free(&mods);
}

/* The node against the manifest (health/manifest.c): the facts of a good
 * node of its kind, read with probe --json's checks. */
static void check_manifest(struct hctx *h)
{
    struct facts want;
    struct facts_sources src = {.facts_file = hc_cfg(h, "manifest")};
    if (facts_gather(&want, &src) != 0) {   /* said on stderr: this check's */
        facts_free(&want);
        return;
    }
    struct strvec codes = {0}, problems = {0};
    manifest_compare(&want, &h->f, &codes, &problems);
    for (size_t i = 0; i < problems.n; i++)
        hc_problem_as(h, codes.v[i], "%s", problems.v[i]);
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

/* The speed-of-light model's figure for port i's loopback (qp_loopback.c:
 * 64 KiB RDMA WRITEs, 64 in flight), Gb/s, and what limits it; 0 with the
 * reason in limit where the model has none (software RDMA). */
static double loopback_model_gbps(const struct hctx *h, size_t i, char *limit, size_t n)
{
    struct node_model m;
    node_model_init(&m);
    node_model_port(&m, h->dev[i], h->port[i]);
    m.nics = m.nodes = 1;
    struct bench b = {.op = OP_BW, .scope = SCOPE_LOOPBACK, .window = 64};
    node_model_assume(&m, &b);
    struct sol_figure e;
    model_expect(&m, &b, 64 * 1024, &e);
    node_model_free(&m);
    snprintf(limit, n, "%s", e.limit);
    return e.none ? 0 : e.gbs * 8;
}

/* Port i's loopback result, read from its child to the end, held to the
 * floor: min_gbps, or percent of the model's figure (of the port's rate
 * where the model has none). */
static void loopback_result(struct hctx *h, size_t i, struct proc *proc, long long min_gbps,
                            long long percent)
{
    char buf[1024];
    size_t len = 0;
    ssize_t got;
    while (len < sizeof(buf) - 1 &&
           (got = read(proc->out, buf + len, sizeof(buf) - 1 - len)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break;
        len += (size_t)got;
    }
    buf[len] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    close(proc->out);
    int status;
    proc_wait(proc, proc_now() + 5, &status);
    const char *dev = h->dev[i]->name;
    int port = h->port[i]->num;
    double gbps = 0;
    if (strncmp(buf, "ok ", 3) != 0 || (gbps = atof(buf + 3)) <= 0) {
        hc_problem_as(h, "RDMARUN-LOOPBACK", "%s port %d: the loopback test failed: %s", dev,
                   port, strncmp(buf, "error ", 6) == 0 ? buf + 6
                                                        : "it ended without a result");
        return;
    }
    double want = (double)min_gbps;
    char limit[160];
    double model = loopback_model_gbps(h, i, limit, sizeof(limit));
    double base = model > 0 ? model : h->port[i]->rate_gbps;   /* 0: unknown rate */
    if (base * (double)percent / 100 > want)
        want = base * (double)percent / 100;
    if (model > 0)
        measured(h, "%s port %d: loopback RDMA WRITE at %.2f Gb/s (NUMA %d), %.0f%% of the "
                 "speed of light's %.2f Gb/s (%s)", dev, port, gbps, h->dev[i]->numa_node,
                 gbps / model * 100, model, limit);
    else
        measured(h, "%s port %d: loopback RDMA WRITE at %.2f Gb/s (NUMA %d; %s)", dev, port,
                 gbps, h->dev[i]->numa_node, limit);
    if (gbps < want)
        hc_problem_as(h, "RDMARUN-LOOPBACK-BW", "%s port %d: loopback RDMA WRITE at %.2f Gb/s, "
                   "below the %.2f Gb/s required (hint: PCIe width and speed, the NIC's "
                   "NUMA node, its firmware; 'ib_write_bw' to compare)", dev, port, gbps, want);
}

/* Loopback RDMA WRITE bandwidth of every port, all at once (as a job
 * loads them), held to min-loopback-gbps or min-loopback-percent of the
 * port's rate. */
static void check_loopback(struct hctx *h)
{
    double seconds = (double)hc_cfg_count(h, "loopback-seconds");
    long long min_gbps = hc_cfg_count(h, "min-loopback-gbps");
    long long percent = hc_cfg_count(h, "min-loopback-percent");
    struct loopback_job jobs[HEALTH_MAX_PORTS];
    struct proc procs[HEALTH_MAX_PORTS];
    bool started[HEALTH_MAX_PORTS] = {false};
    for (size_t i = 0; i < h->n; i++) {
        char name[128];
        snprintf(name, sizeof(name), "%s:%d", h->dev[i]->name, h->port[i]->num);
        if (preflight_ports(&h->f, name, -1, &jobs[i].port, 1) != 1) {
            hc_problem_as(h, "RDMARUN-LOOPBACK", "%s: no port to test", name);
            continue;
        }
        jobs[i].numa = h->dev[i]->numa_node;
        jobs[i].seconds = seconds;
        struct proc_spec spec = {.fn = loopback_child, .arg = &jobs[i], .out = PROC_PIPE,
                                 .err = PROC_NULL, .own_group = true};
        started[i] = proc_start(&spec, &procs[i]) == 0;
        if (!started[i])
            hc_problem_as(h, "RDMARUN-LOOPBACK", "%s: cannot start the test: %s", name,
                       strerror(errno));
    }
    for (size_t i = 0; i < h->n; i++)
        if (started[i])
            loopback_result(h, i, &procs[i], min_gbps, percent);
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
            hc_problem_as(h, FAULT_CONFIG, "[%s] %s = %s, IB_SL = %s: not a traffic class 0-255 and "
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
    judge_governor(hc_cfg(h, "governor"), &h->f.cpu, NULL, &v, &unknown);
    report_both(h, &v, &unknown);
}

static void check_idle(struct hctx *h)
{
    struct strvec v = {0}, unknown = {0};
    judge_idle(hc_cfg(h, "max-idle-latency"), &h->f.cpu, NULL, &v, &unknown);
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
        const char *v = checks[i].key ? hc_cfg(&h, checks[i].key) : NULL;
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
