#include "facts/counters.h"
#include "facts/facts.h"
#include "facts/internal.h"
#include "util/fs.h"
#include "util/proc.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const counter_family_names[] = {"traffic", "loss", "error", "receiver",
                                             "congestion", "link", "other", NULL};

/* What the kernel's drivers count (Documentation/ABI for counters/, the
 * mlx5 and rxe drivers for hw_counters/): one unit, and several. */
static const struct meaning {
    const char *name;
    enum counter_family family;
    const char *one, *many;
} meanings[] = {
    /* IB port counters (PMA), counters/ */
    {"port_xmit_data", COUNTER_TRAFFIC, "4-byte word sent", "4-byte words sent"},
    {"port_rcv_data", COUNTER_TRAFFIC, "4-byte word received", "4-byte words received"},
    {"port_xmit_packets", COUNTER_TRAFFIC, "packet sent", "packets sent"},
    {"port_rcv_packets", COUNTER_TRAFFIC, "packet received", "packets received"},
    {"unicast_xmit_packets", COUNTER_TRAFFIC, "unicast packet sent", "unicast packets sent"},
    {"unicast_rcv_packets", COUNTER_TRAFFIC, "unicast packet received", "unicast packets received"},
    {"multicast_xmit_packets", COUNTER_TRAFFIC, "multicast packet sent", "multicast packets sent"},
    {"multicast_rcv_packets", COUNTER_TRAFFIC, "multicast packet received",
     "multicast packets received"},
    {"port_xmit_discards", COUNTER_LOSS, "packet discarded on send", "packets discarded on send"},
    {"VL15_dropped", COUNTER_LOSS, "VL15 packet dropped", "VL15 packets dropped"},
    {"port_xmit_wait", COUNTER_CONGESTION, "tick waiting to send", "ticks waiting to send"},
    {"symbol_error", COUNTER_LINK, "symbol error", "symbol errors"},
    {"link_error_recovery", COUNTER_LINK, "link retraining", "link retrainings"},
    {"link_downed", COUNTER_LINK, "link down", "links down"},
    {"port_rcv_errors", COUNTER_LINK, "malformed packet received", "malformed packets received"},
    {"port_rcv_remote_physical_errors", COUNTER_LINK, "packet with a remote physical error",
     "packets with a remote physical error"},
    {"port_rcv_switch_relay_errors", COUNTER_LINK, "switch relay error", "switch relay errors"},
    {"local_link_integrity_errors", COUNTER_LINK, "link integrity error", "link integrity errors"},
    {"excessive_buffer_overrun_errors", COUNTER_LINK, "buffer overrun", "buffer overruns"},
    {"port_xmit_constraint_errors", COUNTER_LINK, "send constraint error", "send constraint errors"},
    {"port_rcv_constraint_errors", COUNTER_LINK, "receive constraint error",
     "receive constraint errors"},
    /* mlx5 hw_counters/ */
    {"rx_write_requests", COUNTER_TRAFFIC, "RDMA write received", "RDMA writes received"},
    {"rx_read_requests", COUNTER_TRAFFIC, "RDMA read received", "RDMA reads received"},
    {"rx_atomic_requests", COUNTER_TRAFFIC, "atomic received", "atomics received"},
    {"rx_dct_connect", COUNTER_TRAFFIC, "DCT connection", "DCT connections"},
    {"out_of_sequence", COUNTER_LOSS, "packet out of sequence", "packets out of sequence"},
    {"packet_seq_err", COUNTER_LOSS, "NAK sequence error", "NAK sequence errors"},
    {"implied_nak_seq_err", COUNTER_LOSS, "implied NAK sequence error",
     "implied NAK sequence errors"},
    {"local_ack_timeout_err", COUNTER_LOSS, "ACK timeout", "ACK timeouts"},
    {"duplicate_request", COUNTER_LOSS, "duplicate request", "duplicate requests"},
    {"roce_adp_retrans", COUNTER_LOSS, "adaptive retransmission", "adaptive retransmissions"},
    {"roce_adp_retrans_to", COUNTER_LOSS, "adaptive retransmission timeout",
     "adaptive retransmission timeouts"},
    {"roce_slow_restart", COUNTER_LOSS, "slow restart", "slow restarts"},
    {"roce_slow_restart_trans", COUNTER_LOSS, "slow restart transition",
     "slow restart transitions"},
    {"roce_slow_restart_cnps", COUNTER_CONGESTION, "CNP during slow restart",
     "CNPs during slow restart"},
    {"out_of_buffer", COUNTER_RECEIVER, "packet dropped for want of a receive buffer",
     "packets dropped for want of a receive buffer"},
    {"rnr_nak_retry_err", COUNTER_RECEIVER, "RNR NAK retry error", "RNR NAK retry errors"},
    {"req_cqe_error", COUNTER_ERROR, "requester completion error", "requester completion errors"},
    {"resp_cqe_error", COUNTER_ERROR, "responder completion error", "responder completion errors"},
    {"req_cqe_flush_error", COUNTER_ERROR, "flushed send", "flushed sends"},
    {"resp_cqe_flush_error", COUNTER_ERROR, "flushed receive", "flushed receives"},
    {"req_remote_invalid_request", COUNTER_ERROR, "invalid request at the remote end",
     "invalid requests at the remote end"},
    {"req_remote_access_errors", COUNTER_ERROR, "remote access error", "remote access errors"},
    {"resp_remote_access_errors", COUNTER_ERROR, "access error from a remote request",
     "access errors from remote requests"},
    {"resp_local_length_error", COUNTER_ERROR, "local length error", "local length errors"},
    {"rx_icrc_encapsulated", COUNTER_ERROR, "ICRC error", "ICRC errors"},
    {"np_cnp_sent", COUNTER_CONGESTION, "CNP sent", "CNPs sent"},
    {"np_ecn_marked_roce_packets", COUNTER_CONGESTION, "ECN-marked packet", "ECN-marked packets"},
    {"rp_cnp_handled", COUNTER_CONGESTION, "CNP handled", "CNPs handled"},
    {"rp_cnp_ignored", COUNTER_CONGESTION, "CNP ignored", "CNPs ignored"},
    /* rxe hw_counters/ */
    {"sent_pkts", COUNTER_TRAFFIC, "packet sent", "packets sent"},
    {"rcvd_pkts", COUNTER_TRAFFIC, "packet received", "packets received"},
    {"rdma_sends", COUNTER_TRAFFIC, "RDMA send", "RDMA sends"},
    {"rdma_recvs", COUNTER_TRAFFIC, "RDMA receive", "RDMA receives"},
    {"ack_deferred", COUNTER_TRAFFIC, "deferred ACK", "deferred ACKs"},
    {"out_of_seq_request", COUNTER_LOSS, "request out of sequence", "requests out of sequence"},
    {"rcvd_seq_err", COUNTER_LOSS, "sequence error NAK received", "sequence error NAKs received"},
    {"completer_retry_err", COUNTER_LOSS, "retransmission", "retransmissions"},
    {"retry_exceeded_err", COUNTER_ERROR, "retry limit exceeded", "retry limits exceeded"},
    {"retry_rnr_exceeded_err", COUNTER_ERROR, "RNR retry limit exceeded",
     "RNR retry limits exceeded"},
    {"send_err", COUNTER_ERROR, "send error", "send errors"},
    {"rcvd_rnr_err", COUNTER_RECEIVER, "RNR NAK received", "RNR NAKs received"},
    {"send_rnr_err", COUNTER_RECEIVER, "RNR NAK sent", "RNR NAKs sent"},
    /* EFA's port hw_counters (drivers/infiniband/hw/efa/efa_verbs.c,
     * efa_port_stats_descs: rdma_read_* since Linux 5.10, rdma_write_* 6.6,
     * retrans_* and the remote events 6.17) */
    {"tx_bytes", COUNTER_TRAFFIC, "byte sent", "bytes sent"},
    {"tx_pkts", COUNTER_TRAFFIC, "packet sent", "packets sent"},
    {"rx_bytes", COUNTER_TRAFFIC, "byte received", "bytes received"},
    {"rx_pkts", COUNTER_TRAFFIC, "packet received", "packets received"},
    {"rx_drops", COUNTER_LOSS, "packet dropped on receive", "packets dropped on receive"},
    {"send_bytes", COUNTER_TRAFFIC, "byte sent by SEND", "bytes sent by SEND"},
    {"send_wrs", COUNTER_TRAFFIC, "SEND", "SENDs"},
    {"recv_bytes", COUNTER_TRAFFIC, "byte received by RECV", "bytes received by RECV"},
    {"recv_wrs", COUNTER_TRAFFIC, "RECV", "RECVs"},
    {"rdma_read_wrs", COUNTER_TRAFFIC, "RDMA read", "RDMA reads"},
    {"rdma_read_bytes", COUNTER_TRAFFIC, "byte read", "bytes read"},
    {"rdma_read_resp_bytes", COUNTER_TRAFFIC, "byte read by a peer", "bytes read by peers"},
    {"rdma_write_wrs", COUNTER_TRAFFIC, "RDMA write", "RDMA writes"},
    {"rdma_write_bytes", COUNTER_TRAFFIC, "byte written", "bytes written"},
    {"rdma_write_recv_bytes", COUNTER_TRAFFIC, "byte written by a peer", "bytes written by peers"},
    {"rdma_read_wr_err", COUNTER_ERROR, "failed RDMA read", "failed RDMA reads"},
    {"rdma_write_wr_err", COUNTER_ERROR, "failed RDMA write", "failed RDMA writes"},
    {"retrans_bytes", COUNTER_LOSS, "byte retransmitted", "bytes retransmitted"},
    {"retrans_pkts", COUNTER_LOSS, "packet retransmitted", "packets retransmitted"},
    {"retrans_timeout_events", COUNTER_LOSS, "retransmission timeout",
     "retransmission timeouts"},
    {"unresponsive_remote_events", COUNTER_ERROR, "unresponsive remote",
     "unresponsive remotes"},
    {"impaired_remote_conn_events", COUNTER_LOSS, "impaired connection to a remote",
     "impaired connections to remotes"},
    /* Slingshot's Cassini telemetry and properties (cxi_counters_read) */
    {"hni_pcs_uncorrected_cw", COUNTER_LINK, "uncorrected FEC codeword",
     "uncorrected FEC codewords"},
    {"hni_llr_tx_replay_event", COUNTER_LINK, "link-level replay", "link-level replays"},
    {"pct_spt_timeouts", COUNTER_LOSS, "request timeout", "request timeouts"},
    {"pct_sct_timeouts", COUNTER_LOSS, "connection timeout", "connection timeouts"},
    {"pct_tct_timeouts", COUNTER_LOSS, "target timeout", "target timeouts"},
    {"pcie_uncorr_err", COUNTER_LINK, "uncorrectable PCIe error", "uncorrectable PCIe errors"},
    {"link_restarts", COUNTER_LINK, "link restart", "link restarts"},
};

/* What each family means for the job, after its counts. */
static const char *const advice[] = {
    [COUNTER_LOSS] = "the fabric drops packets (check PFC/ECN on the switch and the NIC)",
    [COUNTER_ERROR] = "work requests failed (the job's own messages say which)",
    [COUNTER_RECEIVER] = "receivers had no buffer posted (RNR)",
    [COUNTER_CONGESTION] = "congestion control slowed the senders (expected in small numbers "
                           "under load)",
    [COUNTER_LINK] = "the link is noisy or retrained (check the cable and transceiver; "
                     "'ibdiagnet', 'ethtool -S')",
    [COUNTER_OTHER] = "counters rdmarun does not know",
};

static const struct meaning *meaning_of(const char *name)
{
    for (size_t i = 0; i < sizeof(meanings) / sizeof(*meanings); i++)
        if (strcmp(meanings[i].name, name) == 0)
            return &meanings[i];
    return NULL;
}

enum counter_family counter_family_of(const char *name)
{
    const struct meaning *m = meaning_of(name);
    return m ? m->family : COUNTER_OTHER;
}

/* The counters whose growth is a fault of its own, not only of its family. */
static const struct { const char *name, *code; } own_codes[] = {
    {"rdma_read_wr_err", "RDMARUN-EFA-WR-ERROR"},
    {"rdma_write_wr_err", "RDMARUN-EFA-WR-ERROR"},
    {"retrans_timeout_events", "RDMARUN-EFA-RETRANS-TIMEOUT"},
    {"unresponsive_remote_events", "RDMARUN-EFA-UNRESPONSIVE-REMOTE"},
    {"impaired_remote_conn_events", "RDMARUN-EFA-IMPAIRED-REMOTE"},
    {"hni_pcs_uncorrected_cw", "RDMARUN-CXI-UNCORRECTED-CW"},
    {"pcie_uncorr_err", "RDMARUN-CXI-PCIE-ERRORS"},
    {"link_restarts", "RDMARUN-CXI-LINK-FLAPS"},
};

const char *counter_fault_code(const char *name)
{
    for (size_t i = 0; i < sizeof(own_codes) / sizeof(*own_codes); i++)
        if (strcmp(own_codes[i].name, name) == 0)
            return own_codes[i].code;
    return NULL;
}

/* The IB PMA counters narrower than 64 bits, as the kernel reads them
 * (drivers/infiniband/core/sysfs.c, PORT_PMA_ATTR): each stops at
 * 2^bits - 1. The traffic counters are 64 bits wide on HCAs with extended
 * counters, and growth in traffic is never a fault. */
static const struct { const char *name; int bits; } pma_widths[] = {
    {"symbol_error", 16}, {"link_error_recovery", 8}, {"link_downed", 8},
    {"port_rcv_errors", 16}, {"port_rcv_remote_physical_errors", 16},
    {"port_rcv_switch_relay_errors", 16}, {"port_xmit_discards", 16},
    {"port_xmit_constraint_errors", 8}, {"port_rcv_constraint_errors", 8},
    {"local_link_integrity_errors", 4}, {"excessive_buffer_overrun_errors", 4},
    {"VL15_dropped", 16}, {"port_xmit_wait", 32},
};

bool counter_saturated(const char *name, long long value)
{
    if (strcmp(name, "link_restarts") == 0)   /* Cassini keeps the last ten restarts */
        return value >= 10;
    for (size_t i = 0; i < sizeof(pma_widths) / sizeof(*pma_widths); i++)
        if (strcmp(pma_widths[i].name, name) == 0)
            return value >= (1LL << pma_widths[i].bits) - 1;
    return false;
}

const char *counter_words(const char *name)
{
    const struct meaning *m = meaning_of(name);
    return m ? m->many : name;
}

/* By name: readdir's order is the file system's, and probe, saved facts and
 * their goldens should not depend on it. */
static const struct port_counters *sorting;
static int by_name(const void *a, const void *b)
{
    return strcmp(sorting->names.v[*(const size_t *)a], sorting->names.v[*(const size_t *)b]);
}

static void sort_by_name(struct port_counters *c)
{
    size_t n = c->names.n;
    if (n < 2)
        return;
    size_t *order = xcalloc(n, sizeof(*order));
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    sorting = c;
    qsort(order, n, sizeof(*order), by_name);
    struct port_counters sorted = {0};
    sorted.values = xcalloc(n, sizeof(*sorted.values));
    for (size_t i = 0; i < n; i++) {
        sv_push(&sorted.names, c->names.v[order[i]]);
        sorted.values[i] = c->values[order[i]];
    }
    port_counters_free(c);
    *c = sorted;
    free(order);
}

static void add_counter(struct port_counters *out, size_t *cap, const char *name, long long n)
{
    GROW(out->values, *cap, out->names.n + 1);
    out->values[out->names.n] = n;
    sv_push(&out->names, name);
}

/* A whole count at the start of FILE ("12" or telemetry's "12@1716912345.1"),
 * or -1. */
static long long count_in(const char *file)
{
    char *v = read_first_line("%s", file), *end = NULL;
    errno = 0;
    long long n = v ? strtoll(v, &end, 10) : -1;
    if (!v || end == v || (*end && *end != '@') || errno || n < 0)
        n = -1;
    free(v);
    return n;
}

/* A Cassini NIC's counters: telemetry items of both Cassini generations
 * (cass_telem.c; cassini-telemetry-sysfs-defs.h, c1telem_attrs and
 * c2telem_attrs: "VALUE@SECS.NSECS"), the PCIe uncorrectable errors
 * (cass_sysfs.c, properties/pcie_uncorr_err) and the link's restarts, the
 * non-zero times of link_restarts/time_0..9 (its last ten: saturated at 10). */
static void cxi_counters_read(const char *devdir, struct port_counters *out, size_t *cap)
{
    static const char *const telemetry[] = {
        "hni_pcs_uncorrected_cw", "hni_llr_tx_replay_event", "pct_spt_timeouts",
        "pct_sct_timeouts", "pct_tct_timeouts",
    };
    for (size_t i = 0; i < sizeof(telemetry) / sizeof(*telemetry); i++) {
        char *f = xasprintf("%s/device/telemetry/%s", devdir, telemetry[i]);
        long long n = count_in(f);
        if (n >= 0)
            add_counter(out, cap, telemetry[i], n);
        free(f);
    }
    char *f = xasprintf("%s/device/properties/pcie_uncorr_err", devdir);
    long long n = count_in(f);
    if (n >= 0)
        add_counter(out, cap, "pcie_uncorr_err", n);
    free(f);
    long long restarts = -1;
    for (int t = 0; t < 10; t++) {
        char *time = xasprintf("%s/device/link_restarts/time_%d", devdir, t);
        long long v = count_in(time);
        free(time);
        if (v >= 0)
            restarts = (restarts < 0 ? 0 : restarts) + (v > 0);
    }
    if (restarts >= 0)
        add_counter(out, cap, "link_restarts", restarts);
}

void port_counters_read(const char *sysfs_root, const char *dev, int port,
                        struct port_counters *out)
{
    static const char *const dirs[] = {"counters", "hw_counters"};
    memset(out, 0, sizeof(*out));
    size_t cap = 0;
    char *cxi = xasprintf("%s/class/cxi/%s", sysfs_root ? sysfs_root : "/sys", dev);
    bool is_cxi = access(cxi, F_OK) == 0;
    if (is_cxi)
        cxi_counters_read(cxi, out, &cap);
    free(cxi);
    if (is_cxi) {
        sort_by_name(out);
        return;
    }
    for (int k = 0; k < 2; k++) {
        char *dir = xasprintf("%s/class/infiniband/%s/ports/%d/%s",
                              sysfs_root ? sysfs_root : "/sys", dev, port, dirs[k]);
        DIR *dh = opendir(dir);
        struct dirent *e;
        while (dh && (e = readdir(dh))) {
            /* lifespan is hw_counters' refresh period, not a count */
            if (e->d_name[0] == '.' || strcmp(e->d_name, "lifespan") == 0)
                continue;
            char *v = read_first_line("%s/%s", dir, e->d_name);
            char *end = NULL;
            errno = 0;
            long long n = v ? strtoll(v, &end, 10) : 0;
            /* only a whole count: junk, a negative or one past 64 bits is
             * unknown, not a value to take growth from */
            if (v && end != v && !*end && !errno && n >= 0)
                add_counter(out, &cap, e->d_name, n);
            free(v);
        }
        if (dh)
            closedir(dh);
        free(dir);
    }
    sort_by_name(out);
}

/* The reading child: "PORT<TAB>NAME<TAB>VALUE" lines, PORT counting the
 * facts' ports in order. */
struct read_job {
    const struct facts *f;
    const char *root;
};

static void read_in_child(void *arg)
{
    const struct read_job *j = arg;
    size_t k = 0;
    for (size_t i = 0; i < j->f->ndevs; i++)
        for (size_t p = 0; p < j->f->devs[i].nports; p++, k++) {
            struct port_counters c;
            port_counters_read(j->root, j->f->devs[i].name, j->f->devs[i].ports[p].num, &c);
            for (size_t n = 0; n < c.names.n; n++)
                if (strcspn(c.names.v[n], " \t\n") == strlen(c.names.v[n]))
                    printf("%zu\t%s\t%lld\n", k, c.names.v[n], c.values[n]);
            port_counters_free(&c);
        }
}

/* Room for 64 ports of 200 counters, with their names. */
#define COUNTERS_MAX_OUTPUT (4 << 20)

struct port_counters *port_counters_read_all(const struct facts *f, const char *sysfs_root,
                                             double timeout_s, size_t *n, bool *timed_out)
{
    size_t k = 0;
    for (size_t i = 0; i < f->ndevs; i++)
        k += f->devs[i].nports;
    struct port_counters *c = xcalloc(k ? k : 1, sizeof(*c));
    *n = k;
    *timed_out = false;
    if (!k)
        return c;   /* no port: no child to start */
    struct read_job job = {f, sysfs_root};
    struct proc_spec spec = {.fn = read_in_child, .arg = &job, .out = PROC_PIPE,
                             .err = PROC_NULL, .own_group = true};
    char *out = NULL;
    int status = proc_capture(&spec, timeout_s, COUNTERS_MAX_OUTPUT, &out, timed_out);
    size_t cap[k];
    memset(cap, 0, sizeof(cap));
    for (char *line = status == 0 && !*timed_out ? out : NULL, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *tab1 = strchr(line, '\t'), *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
        if (!tab2)
            continue;
        *tab1 = *tab2 = '\0';
        size_t port = strtoul(line, NULL, 10);
        if (port >= k)
            continue;
        GROW(c[port].values, cap[port], c[port].names.n + 1);
        c[port].values[c[port].names.n] = strtoll(tab2 + 1, NULL, 10);
        sv_push(&c[port].names, tab1 + 1);
    }
    free(out);
    return c;
}

void facts_read_counters(struct facts *f, const char *sysfs_root)
{
    size_t n;
    struct port_counters *all = port_counters_read_all(f, sysfs_root, COUNTERS_TIMEOUT_S, &n,
                                                       &f->counters_timed_out);
    size_t k = 0;
    for (size_t i = 0; i < f->ndevs; i++)
        for (size_t p = 0; p < f->devs[i].nports && k < n; p++, k++) {
            port_counters_free(&f->devs[i].ports[p].counters);
            f->devs[i].ports[p].counters = all[k];   /* moved */
        }
    free(all);
}

void port_counters_free(struct port_counters *c)
{
    sv_free(&c->names);
    free(c->values);
    memset(c, 0, sizeof(*c));
}

void counters_growth(const char *dev, int port, const struct port_counters *before,
                     const struct port_counters *after, struct counter_growth *out)
{
    memset(out, 0, sizeof(*out));
    out->port = xasprintf("%s/%d", dev, port);
    out->deltas = xcalloc(after->names.n ? after->names.n : 1, sizeof(*out->deltas));
    for (size_t i = 0; i < after->names.n; i++) {
        if (counter_saturated(after->names.v[i], after->values[i]))
            sv_push(&out->saturated, after->names.v[i]);
        long b = sv_find(&before->names, after->names.v[i]);
        long long d = after->values[i] - (b >= 0 ? before->values[b] : 0);
        if (b < 0 || d <= 0)
            continue;   /* new since, unchanged, or reset */
        out->deltas[out->names.n] = d;
        sv_push(&out->names, after->names.v[i]);
    }
}

void counter_growth_free(struct counter_growth *g)
{
    free(g->port);
    sv_free(&g->names);
    sv_free(&g->saturated);
    free(g->deltas);
    memset(g, 0, sizeof(*g));
}

long long counter_growth_sum(const struct counter_growth *g, enum counter_family family)
{
    long long sum = 0;
    for (size_t i = 0; i < g->names.n; i++)
        if (counter_family_of(g->names.v[i]) == family)
            sum += g->deltas[i];
    return sum;
}

/* 1240 as "1,240". */
static char *grouped(long long n)
{
    char digits[32], out[48];
    snprintf(digits, sizeof(digits), "%lld", n);
    size_t len = strlen(digits), k = 0;
    for (size_t i = 0; i < len; i++) {
        if (i && (len - i) % 3 == 0 && digits[i - 1] != '-')
            out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = '\0';
    return xstrdup(out);
}

/* "a, b and c". */
static char *and_list(const struct strvec *v)
{
    char *s = xstrdup(v->v[0]);
    for (size_t i = 1; i < v->n; i++) {
        char *more = xasprintf("%s%s%s", s, i + 1 == v->n ? " and " : ", ", v->v[i]);
        free(s);
        s = more;
    }
    return s;
}

char *counter_growth_words(const struct counter_growth *g)
{
    struct strvec clauses = {0};
    /* In the table's order, then unknown counters in the reading's: the
     * same growth gives the same words, whatever order readdir gave. */
    for (int fam = COUNTER_LOSS; fam < COUNTER_FAMILIES; fam++) {
        struct strvec counts = {0};
        for (size_t m = 0; fam != COUNTER_OTHER && m < sizeof(meanings) / sizeof(*meanings); m++) {
            int k = sv_find(&g->names, meanings[m].name);
            if (k < 0 || (int)meanings[m].family != fam)
                continue;
            char *n = grouped(g->deltas[k]);
            sv_pushf(&counts, "%s %s", n, g->deltas[k] == 1 ? meanings[m].one : meanings[m].many);
            free(n);
        }
        for (size_t i = 0; fam == COUNTER_OTHER && i < g->names.n; i++) {
            if (meaning_of(g->names.v[i]))
                continue;
            char *n = grouped(g->deltas[i]);
            sv_pushf(&counts, "%s +%s", g->names.v[i], n);
            free(n);
        }
        if (counts.n) {
            char *list = and_list(&counts);
            sv_pushf(&clauses, "%s: %s", list, advice[fam]);
            free(list);
        }
        sv_free(&counts);
    }
    char *s = NULL;
    if (clauses.n) {
        char *all = sv_join(&clauses, "; ");
        s = xasprintf("%s: %s", g->port, all);
        free(all);
    }
    sv_free(&clauses);
    return s;
}

char *counter_traffic_words(const struct counter_growth *g)
{
    long data = sv_find(&g->names, "port_xmit_data");
    if (data >= 0)   /* the PMA counts 4-byte words */
        return xasprintf("%s sent %.1f MiB", g->port, (double)g->deltas[data] * 4 / 1048576.0);
    static const char *const packets[] = {"sent_pkts", "port_xmit_packets", NULL};
    for (size_t i = 0; packets[i]; i++) {
        long k = sv_find(&g->names, packets[i]);
        if (k >= 0)
            return xasprintf("%s sent %lld packets", g->port, g->deltas[k]);
    }
    return NULL;
}
