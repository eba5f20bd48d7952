/* The path test's judgement of its report (path_report.c): each failure
 * with its likely cause, and what a test that passed still shows (loss, a
 * link-local GID, a figure or setting far from the others). */
#include "preflight/path_report.h"
#include "facts/counters.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line names `name` as a word of its own: not inside another name
 * ("vm" is not in "prterun-vm-6569"); a domain may follow ("c.cluster"). */
static bool name_char(char c, const char *also)
{
    return c && (isalnum((unsigned char)c) || strchr(also, c));
}

static bool mentions(const char *line, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = line; len && (p = strstr(p, name)); p++)
        if (!name_char(p > line ? p[-1] : ' ', "-_.") && !name_char(p[len], "-_"))
            return true;
    return false;
}

/* A launcher's line that reports a problem (ssh's, mpirun's, PRRTE's,
 * srun's), not one that only names a node ("HNP daemon : ... on node a"). */
/* Lines the launcher prints about a node that say nothing wrong with it:
 * Open MPI's and PRRTE's rsh launcher (orte/mca/plm/rsh/plm_rsh_module.c,
 * prrte's plm_rsh_module.c, ssh_child's parent side) warns when setpgid
 * races the child's exec, "Ignore this error since the child is off and
 * running". */
static const char *const harmless[] = {"plm:rsh: Warning: setpgid(", NULL};

static bool says_trouble(const char *line)
{
    static const char *const words[] = {"ssh", "ould not", "annot", "nable", "lost",
                                        "efused", "timed out", "imed out", "o route",
                                        "not known", "denied", "Remote daemon", "error",
                                        "rror", "failed", "down", NULL};
    for (size_t i = 0; harmless[i]; i++)
        if (strstr(line, harmless[i]))
            return false;
    for (size_t i = 0; words[i]; i++)
        if (strstr(line, words[i]))
            return true;
    return false;
}

const struct path_same path_same_keys[] = {
    {"ll", "link layer"}, {"mtu", "MTU"}, {"netmtu", "netdev MTU"}, {"rate", "rate (Gb/s)"},
    {"gtype", "GID type"}, {"gidx", "GID index"}, {"vlan", "VLAN"}, {"driver", "driver"},
    {"fw", "firmware"}, {"board", "board"}, {"kernel", "kernel"}, {"rdmacore", "rdma-core"},
    {"ucx", "UCX"}, {"mpi", "MPI"}, {"memlock", "memlock (KiB)"}, {"libfabric", "libfabric"},
    {NULL, NULL}};

static bool differs(const struct path_report *r, int a, int b, const char *key)
{
    const char *x = path_node_value(r, a, key), *y = path_node_value(r, b, key);
    return x && y && strcmp(x, y) != 0;
}

/* Counters that grow when packets are lost or retried on the way: the
 * loss family of the counter table, and, for a driver's counter the table
 * does not know, a name that says so. */
static bool loss_counter(const char *name)
{
    static const char *const words[] = {"seq", "retry", "retrans", "timeout", "duplicate",
                                        "out_of", "nak", "discard", "rcv_err", NULL};
    enum counter_family fam = counter_family_of(name);
    for (size_t i = 0; fam == COUNTER_OTHER && words[i]; i++)
        if (strstr(name, words[i]))
            return true;
    return fam == COUNTER_LOSS;
}

/* "rxe0:1 on b counted completer_retry_err +12, rcvd_seq_err +3" or NULL. */
static char *loss_words(const struct path_report *r, int i)
{
    const struct strvec *c = &r->nodes[i].counters;
    char *s = NULL;
    for (size_t k = 0; k < c->n; k++) {
        if (!loss_counter(c->v[k]))
            continue;
        char *name = xstrndup(c->v[k], strcspn(c->v[k], "="));
        char *grown = s ? xasprintf("%s, %s +%s", s, name, strchr(c->v[k], '=') + 1)
                        : xasprintf("%s:%s on %s counted %s +%s", path_node_val(r, i, "dev"),
                                    path_node_val(r, i, "port"), path_node_val(r, i, "host"), name,
                                    strchr(c->v[k], '=') + 1);
        free(name);
        free(s);
        s = grown;
    }
    return s;
}

/* Growth of node i's counters that count loss, or packets. */
static long long grown(const struct path_report *r, int i, bool loss)
{
    const struct strvec *c = &r->nodes[i].counters;
    long long sum = 0;
    for (size_t k = 0; k < c->n; k++) {
        char *name = xstrndup(c->v[k], strcspn(c->v[k], "="));
        if (loss ? loss_counter(name) : strstr(name, "pkts") || strstr(name, "packets"))
            sum += atoll(strchr(c->v[k], '=') + 1);
        free(name);
    }
    return sum;
}

/* In a test that passed, a retry now and then is not worth a warning (an
 * ACK late under load); more than 1% of the packets is, or 10 retries where
 * no packet counter says how many went. */
static bool noticeable_loss(const struct path_report *r, int i)
{
    long long lost = grown(r, i, true), packets = grown(r, i, false);
    return packets ? lost * 100 > packets : lost >= 10;
}

static bool link_local(const char *gid)
{
    return gid && strncmp(gid, "fe80:", 5) == 0;
}

/* What is left when nothing the ends said explains a failed pair. */
static char *no_answer(const struct path_report *r, int a)
{
    const char *prov = path_node_value(r, a, "prov");
    if (prov)
        return xasprintf("no answer from the other end over libfabric's %s (hint: 'rdmarun check "
                         "--fi-pair %s' on each node, 'fi_info -p %s' there; the fabric's route "
                         "and, for tcp, firewalls)", prov, prov, prov);
    return xstrdup("no answer from the other end (hint: its route, firewalls (RoCE v2 is UDP "
                   "port 4791), the subnet manager and the partition key on InfiniBand)");
}

/* The likely cause of a failed pair from what both ends said, with a hint. */
static char *pair_cause(const struct path_report *r, int a, int b)
{
    int ends[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        const char *st = path_node_value(r, ends[k], "state");
        if (st && strcmp(st, "ACTIVE") != 0)
            return xasprintf("port DOWN: %s:%s on %s is %s (hint: 'ibv_devinfo -d %s' there; check "
                             "the cable, the switch port, 'ip link' of its netdev)",
                             path_node_val(r, ends[k], "dev"), path_node_val(r, ends[k], "port"),
                             path_node_val(r, ends[k], "host"), st, path_node_val(r, ends[k], "dev"));
    }
    if (differs(r, a, b, "ll"))
        return xasprintf("link layers differ: %s on %s, %s on %s (InfiniBand and Ethernet ports "
                         "do not reach each other)", path_node_val(r, a, "ll"), path_node_val(r, a, "host"),
                         path_node_val(r, b, "ll"), path_node_val(r, b, "host"));
    if (differs(r, a, b, "mtu"))
        return xasprintf("MTU differs: %s on %s (netdev %s), %s on %s (netdev %s); packets the "
                         "larger end sends are dropped (hint: the same MTU on every node's netdev "
                         "and switch port, or UCX_IB_PATH_MTU / NCCL_IB_MTU at the smaller)",
                         path_node_val(r, a, "mtu"), path_node_val(r, a, "host"), path_node_val(r, a, "netmtu"),
                         path_node_val(r, b, "mtu"), path_node_val(r, b, "host"), path_node_val(r, b, "netmtu"));
    if (differs(r, a, b, "gtype"))
        return xasprintf("GID types differ: %s on %s, %s on %s (hint: the same RoCE v2 GID index "
                         "on every node: UCX_IB_GID_INDEX, NCCL_IB_GID_INDEX)", path_node_val(r, a, "gtype"),
                         path_node_val(r, a, "host"), path_node_val(r, b, "gtype"), path_node_val(r, b, "host"));
    for (int k = 0; k < 2; k++)
        if (link_local(path_node_value(r, ends[k], "gid")))
            return xasprintf("GID index %s on %s is link-local (%s): it does not route beyond "
                             "one Ethernet segment (hint: the IPv4 RoCE v2 GID; 'show_gids')",
                             path_node_val(r, ends[k], "gidx"), path_node_val(r, ends[k], "host"),
                             path_node_val(r, ends[k], "gid"));
    for (int k = 0; k < 2; k++)
        if (strcmp(path_node_val(r, ends[k], "gtype"), "RoCE_v1") == 0)
            return xasprintf("%s uses a RoCE v1 GID (index %s): v1 does not cross an IP router "
                             "(hint: a RoCE v2 GID index)", path_node_val(r, ends[k], "host"),
                             path_node_val(r, ends[k], "gidx"));
    if (differs(r, a, b, "subnet"))
        return xasprintf("different subnets: %s on %s, %s on %s (RoCE v2 needs a route between "
                         "them; hint: the GID of an address in the job's subnet)",
                         path_node_val(r, a, "subnet"), path_node_val(r, a, "host"), path_node_val(r, b, "subnet"),
                         path_node_val(r, b, "host"));
    if (differs(r, a, b, "vlan"))
        return xasprintf("VLANs differ: %s on %s, %s on %s (hint: the GID of the same VLAN's "
                         "netdev on both)", path_node_val(r, a, "vlan"), path_node_val(r, a, "host"),
                         path_node_val(r, b, "vlan"), path_node_val(r, b, "host"));
    for (int k = 0; k < 2; k++) {
        char *loss = loss_words(r, ends[k]);
        if (loss) {
            char *s = xasprintf("packet loss: %s during the test (hint: PFC/ECN on the NIC and "
                                "the switch, cabling, 'ethtool -S')", loss);
            free(loss);
            return s;
        }
    }
    return no_answer(r, a);
}

static void add(struct path_finding **out, size_t *n, size_t *cap, enum path_level level,
                char *text)
{
    GROW(*out, *cap, *n + 1);
    (*out)[(*n)++] = (struct path_finding){level, text};
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const struct path_report *r, bool latency)
{
    double *v = xcalloc(r->npairs + 1, sizeof(*v));
    size_t n = 0;
    for (size_t i = 0; i < r->npairs; i++)
        if (r->pairs[i].ok)
            v[n++] = latency ? r->pairs[i].lat_us : r->pairs[i].bw_mbps;
    qsort(v, n, sizeof(*v), cmp_double);
    double m = n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
    free(v);
    return m;
}

/* Pairs at more than twice the median latency or under half its bandwidth:
 * with three or more good pairs there is a median to stand out from. */
static void outliers(const struct path_report *r, struct path_finding **out, size_t *n,
                     size_t *cap)
{
    size_t good = 0;
    for (size_t i = 0; i < r->npairs; i++)
        good += r->pairs[i].ok;
    if (good < 3)
        return;
    double lat = median(r, true), bw = median(r, false);
    for (size_t i = 0; i < r->npairs; i++) {
        const struct path_pair *p = &r->pairs[i];
        if (!p->ok || !(p->lat_us > 2 * lat || p->bw_mbps < bw / 2))
            continue;
        char *a = path_node_name(r, p->from), *b = path_node_name(r, p->to);
        add(out, n, cap, PATH_WARN,
            xasprintf("slow path %s -> %s: latency %.1f us (median %.1f), bandwidth %.1f MB/s "
                      "(median %.1f)", a, b, p->lat_us, lat, p->bw_mbps, bw));
        free(a);
        free(b);
    }
}

/* Facts that should match on every node: with a majority, each node that
 * differs is named; without one, the key's values are listed. */
static void odd_ones(const struct path_report *r, struct path_finding **out, size_t *n,
                     size_t *cap)
{
    for (size_t k = 0; path_same_keys[k].key; k++) {
        const char *key = path_same_keys[k].key, *label = path_same_keys[k].label, *common = NULL;
        const char **vals = xcalloc((size_t)r->n + 1, sizeof(*vals));
        int best_count = 0, known = 0;
        for (int i = 0; i < r->n; i++)
            if ((vals[known] = path_node_value(r, i, key)))
                known++;
        qsort(vals, (size_t)known, sizeof(*vals), str_ptr_cmp);
        for (int i = 0, run = 1; i < known; i++, run++) {
            if (i + 1 < known && strcmp(vals[i], vals[i + 1]) == 0)
                continue;
            if (run > best_count)
                best_count = run, common = vals[i];
            run = 0;
        }
        bool same = known == 0 || strcmp(vals[0], vals[known - 1]) == 0;
        free(vals);
        if (same || known < 2)
            continue;
        bool majority = 2 * best_count > known;
        char *list = NULL;
        for (int i = 0; i < r->n; i++) {
            const char *v = path_node_value(r, i, key);
            if (!v || (majority && strcmp(v, common) == 0))
                continue;
            if (majority) {
                add(out, n, cap, PATH_WARN,
                    xasprintf("odd node out: %s has %s %s where the %d other%s %s",
                              path_node_val(r, i, "host"), label, v, best_count,
                              best_count > 1 ? "s have" : " has", common));
                continue;
            }
            char *s = xasprintf("%s%s%s %s", list ? list : "", list ? ", " : "",
                                path_node_val(r, i, "host"), v);
            free(list);
            list = s;
        }
        if (list)
            add(out, n, cap, PATH_WARN, xasprintf("%s differs between nodes: %s", label, list));
        free(list);
    }
}

/* The nodes that never answered: each named with the launcher's message
 * about it, or together. */
static void judge_unheard(const struct path_report *r, const struct strvec *hosts,
                          struct path_finding **out, size_t *n, size_t *cap)
{
    /* A node the launcher's messages name is named with them; mpirun starts
     * no process until every node's daemon is up, so the others wait. */
    struct strvec silent = {0}, unheard = {0};
    path_silent_hosts(r, hosts, &unheard);
    for (size_t i = 0; i < unheard.n; i++) {
        const char *line = NULL, *h = unheard.v[i];
        /* a name is looked for without its domain too (ssh says "nosuch:"
         * of nosuch.example.org); an address as it is */
        char *name = strspn(h, "0123456789.") == strlen(h) ? xstrdup(h)
                                                           : xstrndup(h, strcspn(h, "."));
        for (size_t k = 0; k < r->said.n && !line; k++)
            if (mentions(r->said.v[k], name) && says_trouble(r->said.v[k]))
                line = r->said.v[k];
        free(name);
        if (line)
            add(out, n, cap, PATH_FAIL,
                xasprintf("%s did not answer: the launcher says \"%s\"", h, line));
        else
            sv_push(&silent, h);
    }
    if (silent.n) {
        char *list = sv_join(&silent, ", ");
        add(out, n, cap, PATH_FAIL,
            *n ? xasprintf("no peer started on %s either: the launcher starts none until it "
                           "reaches every node", list)
               : xasprintf("%s did not answer: no peer process started or reported there (hint: "
                           "the launcher's messages above; is the node up, and rdmarun installed "
                           "there?)", list));
        free(list);
    }
    sv_free(&silent);
    sv_free(&unheard);
    if (r->n == 0 && *n == 0)
        add(out, n, cap, PATH_FAIL,
            xstrdup("no node answered: the launcher started no peer process (its messages are "
                    "above)"));
}

/* Each node that failed on its own, or did not finish. */
static void judge_nodes(const struct path_report *r, const struct strvec *hosts,
                        struct path_finding **out, size_t *n, size_t *cap)
{
    for (int i = 0; i < r->n; i++) {
        const struct path_node *nd = &r->nodes[i];
        char *name = path_node_name(r, i);
        if (!nd->seen && !(hosts && hosts->n))
            add(out, n, cap, PATH_FAIL, xasprintf("node %d of %d did not answer", i, r->n));
        else if (nd->fail_step)
            add(out, n, cap, PATH_FAIL, xasprintf("%s: %s: %s", name, nd->fail_step,
                                                   nd->fail_err ? nd->fail_err : "failed"));
        else if (nd->seen && !nd->done)
            add(out, n, cap, PATH_FAIL,
                xasprintf("%s did not finish the test within its deadline", name));
        free(name);
    }
}

/* Each path that failed between nodes that answered, with its likely cause. */
static void judge_pairs(const struct path_report *r, struct path_finding **out, size_t *n,
                        size_t *cap)
{
    for (size_t i = 0; i < r->npairs; i++) {
        const struct path_pair *p = &r->pairs[i];
        if (p->ok || !r->nodes[p->from].seen || !r->nodes[p->to].seen ||
            (!p->seen && (r->nodes[p->from].fail_step || r->nodes[p->to].fail_step)))
            continue;   /* a node that failed on its own is said once, above */
        char *a = path_node_name(r, p->from), *b = path_node_name(r, p->to);
        char *cause = pair_cause(r, p->from, p->to);
        if (p->seen)
            add(out, n, cap, PATH_FAIL, xasprintf("path %s -> %s failed at %s: %s; likely "
                                                   "cause: %s", a, b, p->step ? p->step : "?",
                                                   p->err ? p->err : "?", cause));
        else
            add(out, n, cap, PATH_FAIL, xasprintf("path %s -> %s: no result; likely cause: %s",
                                                   a, b, cause));
        free(a);
        free(b);
        free(cause);
    }
}

/* What a test that passed still shows: packet loss, a link-local GID. */
static void judge_warnings(const struct path_report *r, struct path_finding **out, size_t *n,
                           size_t *cap)
{
    bool failed = *n > 0;
    for (int i = 0; !failed && i < r->n; i++) {
        char *loss = noticeable_loss(r, i) ? loss_words(r, i) : NULL;
        if (loss)
            add(out, n, cap, PATH_WARN,
                xasprintf("packet loss: %s during the path test, which passed (hint: PFC/ECN on "
                          "the NIC and the switch)", loss));
        free(loss);
    }
    for (int i = 0; i < r->n; i++)
        if (link_local(path_node_value(r, i, "gid")) && strcmp(path_node_val(r, i, "ll"), "Ethernet") == 0)
            add(out, n, cap, PATH_WARN,
                xasprintf("%s uses GID index %s, a link-local address (%s): RoCE v2 with it does "
                          "not cross an IP router (hint: the IPv4 RoCE v2 GID)", path_node_val(r, i, "host"),
                          path_node_val(r, i, "gidx"), path_node_val(r, i, "gid")));
}

size_t path_judge(const struct path_report *r, const struct strvec *hosts,
                  struct path_finding **out)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    judge_unheard(r, hosts, out, &n, &cap);
    judge_nodes(r, hosts, out, &n, &cap);
    judge_pairs(r, out, &n, &cap);
    judge_warnings(r, out, &n, &cap);
    outliers(r, out, &n, &cap);
    odd_ones(r, out, &n, &cap);
    return n;
}

void path_findings_free(struct path_finding *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(f[i].text);
    free(f);
}
