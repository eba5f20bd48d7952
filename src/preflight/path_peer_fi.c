/* The path test over libfabric (path-peer --provider P): each node opens one
 * reliable-datagram endpoint (FI_EP_RDM) of the provider, as fabtests'
 * fi_pingpong and fi_rdm_tagged_bw do (util/shared.c: fi_getinfo, fi_fabric,
 * fi_domain, fi_cq_open, fi_av_open, fi_endpoint, fi_enable, fi_getname),
 * publishes fi_getname's address through PMIx, inserts every node's into its
 * address vector and, on each pair it sends on, sends tagged messages (what
 * Open MPI's OFI MTL and MPICH's ch4:ofi send):
 *  - a 4 KiB message whose bytes the receiver checks;
 *  - 100 ping-pongs of 8 bytes: the latency is half the round trip, as
 *    fi_pingpong reports it;
 *  - 32 messages of 32 KiB (past eager sizes: the provider's rendezvous),
 *    the first checked, acknowledged by the receiver: the bandwidth.
 * Every provider progresses at least when its completion queue is read
 * (FI_PROGRESS_MANUAL: tcp's rxm, shm), so one loop reads it and moves every
 * pair's state on, and the nodes' final fence is waited for while it does
 * (PMIx_Fence_nb). libfabric is opened with dlopen (util/fi_dl.h). */
#include "facts/facts.h"
#include "preflight/path_peer_parts.h"
#include "util/fi_dl.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define FI_WIRE_MAGIC 0x52444631u   /* "RDF1" */
/* Each end's slot: a sender's checked message at 0, its pings at PING_OFF,
 * the replies arriving at REPLY_OFF, its bandwidth messages at BW_OFF. A
 * receiver keeps RX_DEPTH receives posted, each arriving in its own BW_LEN
 * at RECV_OFF, and its replies go from 0; a sender has at most as many
 * bandwidth messages in flight (fabtests' bandwidth window; libfabric
 * 1.17's shm stalls on unexpected large messages beyond it). */
#define PING_OFF 8192
#define REPLY_OFF 12288
#define REPLY_LEN 64
#define RX_DEPTH 4
#define RECV_OFF (BW_OFF + BW_LEN)
#define FI_SLOT (RECV_OFF + RX_DEPTH * BW_LEN)
#define TX_OPS (2 * BW_ITERS)   /* a ring of send contexts, more than ever in flight */
/* A rendezvous reads the sender's buffer from the receiver (rxm over verbs:
 * an RDMA READ with the descriptor given): every access, not send and
 * receive alone. */
#define MR_ACCESS (FI_SEND | FI_RECV | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE)

struct fi_wire {
    uint32_t magic, usable, len;
    char name[256];
};

/* The messages of a pair; the sender's go with DIR_FWD, the receiver's
 * replies with DIR_BACK. */
enum { PH_CHECK, PH_PING, PH_PONG, PH_BW, PH_ACK };
enum { DIR_FWD = 0, DIR_BACK = 1 };

struct pair_op {
    struct fi_context2 ctx;   /* first: the completion's op_context is this op */
    int end, phase, k;   /* k: a receive's buffer */
    bool recv;
};

struct fi_end {
    int phase, count, posted, pending;   /* pending: a send that met FI_EAGAIN, or -1 */
    double t0, step_end, lat;
    bool done, failed;
    bool rx_pending[RX_DEPTH];           /* receives that met FI_EAGAIN */
    struct pair_op rx[RX_DEPTH], tx[TX_OPS];
    int tx_next;
};

struct fi_node {
    struct peer *p;
    const struct fi_api *fi;
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_ep *ep;
    struct fid_cq *cq;
    struct fid_av *av;
    struct fid_mr *mr;
    void *desc;
    struct fi_wire me;
    fi_addr_t *addr;          /* each node's, by rank; FI_ADDR_NOTAVAIL: none */
    struct fi_end *ends;
    int sending;              /* the end this node sends on now, -1 before the first */
    double heard;             /* when a completion last came */
};

static uint64_t tag_of(int edge, int dir, int phase)
{
    return (uint64_t)edge << 8 | (uint64_t)dir << 4 | (uint64_t)phase;
}

static unsigned char pattern(int edge, int which, size_t i)
{
    return (unsigned char)(edge * 31 + which * 101 + i * 7);
}

static size_t buf_len(const struct peer *p)
{
    return (p->nends ? p->nends : 1) * FI_SLOT;
}

static char *fi_err(const struct fi_node *t, const char *call, int rc)
{
    return xasprintf("%s: %s", call, t->fi->strerror(rc < 0 ? -rc : rc));
}

/* The provider's domain and endpoint, opened and named. */
static char *open_endpoint(struct fi_node *t, const char **step)
{
    int rc;
    *step = "endpoint";
    if ((rc = t->fi->fabric(t->info->fabric_attr, &t->fabric, NULL)))
        return fi_err(t, "fi_fabric", rc);
    if ((rc = fi_domain(t->fabric, t->info, &t->domain, NULL)))
        return fi_err(t, "fi_domain", rc);
    struct fi_rdm rdm = {0};
    const char *call = NULL;
    rc = fi_rdm_open(t->domain, t->info, FI_CQ_FORMAT_TAGGED, &rdm, &call);
    t->ep = rdm.ep, t->cq = rdm.cq, t->av = rdm.av;
    if (rc)
        return fi_err(t, call, rc);
    *step = "memory";
    if ((t->info->domain_attr->mr_mode & FI_MR_LOCAL) &&
        (rc = fi_mr_reg(t->domain, t->p->buf, buf_len(t->p), MR_ACCESS, 0, 0, 0, &t->mr, NULL)))
        return fi_err(t, "fi_mr_reg", rc);
    t->desc = t->mr ? fi_mr_desc(t->mr) : NULL;
    *step = "endpoint";
    size_t namelen = sizeof(t->me.name);
    if ((rc = fi_getname(&t->ep->fid, t->me.name, &namelen)))
        return fi_err(t, "fi_getname", rc);
    t->me.len = (uint32_t)namelen;
    return NULL;
}

/* The provider asked for, the buffer, the endpoint: NULL, or why not. */
static char *open_node(struct fi_node *t, const char **step)
{
    *step = "provider";
    /* The test's universe is its nodes (fi_endpoint(3), FI_UNIVERSE_SIZE),
     * at least 16: rxm sizes its connection queues by it, 256 peers by
     * default, past what a small HCA's completion queue takes (rxe: 32767
     * entries); 2 leaves rxm no room for two nodes connecting at once
     * (ENOSPC). */
    char n[16];
    snprintf(n, sizeof(n), "%d", t->p->n > 16 ? t->p->n : 16);
    setenv("FI_UNIVERSE_SIZE", n, 0);
    if (!(t->fi = fi_api()))
        return xstrdup("libfabric.so.1 is not installed on this node (apt-get install "
                       "libfabric1)");
    int rc = fi_rdm_info(t->fi, t->p->o->provider, FI_TAGGED, &t->info);
    if (rc == -FI_ENODATA)
        return xasprintf("fi_getinfo: no '%s' provider with tagged RDM endpoints answers on "
                         "this node (-61, FI_ENODATA; hint: 'fi_info -l' lists its providers, "
                         "'rdmarun check --fi-pair %s' there)", t->p->o->provider,
                         t->p->o->provider);
    if (rc)
        return fi_err(t, "fi_getinfo", rc);
    *step = "memory";
    if (posix_memalign((void **)&t->p->buf, 4096, buf_len(t->p)))
        return xstrdup("out of memory");
    memset(t->p->buf, 0, buf_len(t->p));
    for (size_t i = 0; i < t->p->nends; i++)
        t->p->ends[i].buf = t->p->buf + i * FI_SLOT;
    return open_endpoint(t, step);
}

static const char *step_of(const struct qp_end *e, int phase)
{
    if (!e->sender)
        return "receive";
    return phase == PH_CHECK ? "first completion" : phase == PH_PING ? "latency" : "bandwidth";
}

/* The pair of end i failed at its step: said once, by the side that knows. */
static void end_fail(struct fi_node *t, int i, const char *step, const char *err)
{
    const struct qp_end *e = &t->p->ends[i];
    struct fi_end *s = &t->ends[i];
    if (s->done)
        return;
    s->done = s->failed = true;
    char *w = peer_word(step ? step : step_of(e, s->phase));
    if (e->sender)
        peer_record(t->p, "pair", "to=%d ok=0 step=%s err=%s", e->peer, w, err);
    else
        peer_record(t->p, "pair", "from=%d ok=0 step=%s err=%s", e->peer, w, err);
    free(w);
}

static void next_step(struct fi_node *t, int i, int phase)
{
    t->ends[i].phase = phase;
    t->ends[i].count = t->ends[i].posted = 0;
    t->ends[i].t0 = proc_now();
    t->ends[i].step_end = t->ends[i].t0 + t->p->o->step_s;
}

/* One send of end i's phase; FI_EAGAIN leaves it to the loop. */
static void post_send(struct fi_node *t, int i, int phase)
{
    const struct qp_end *e = &t->p->ends[i];
    struct fi_end *s = &t->ends[i];
    size_t off = !e->sender ? 0 : phase == PH_CHECK ? 0 : phase == PH_PING ? PING_OFF : BW_OFF;
    size_t len = phase == PH_CHECK ? CHECK_LEN : phase == PH_BW ? BW_LEN : 8;
    struct pair_op *op = &s->tx[s->tx_next % TX_OPS];
    *op = (struct pair_op){.end = i, .phase = phase};
    ssize_t rc = fi_tsend(t->ep, e->buf + off, len, t->desc, t->addr[e->peer],
                          tag_of(e->edge, e->sender ? DIR_FWD : DIR_BACK, phase), op);
    s->pending = rc == -FI_EAGAIN ? phase : -1;
    if (rc == 0) {
        s->tx_next++;
        s->posted += phase == PH_BW;
        s->done |= phase == PH_ACK;   /* (its completion is read by the loop, or the fence's) */
    } else if (rc != -FI_EAGAIN) {
        char *err = fi_err(t, "fi_tsend", (int)rc);
        end_fail(t, i, NULL, err);
        free(err);
    }
}

/* End i's receive k: a sender's replies (k 0 only), a receiver's messages. */
static void post_recv(struct fi_node *t, int i, int k)
{
    const struct qp_end *e = &t->p->ends[i];
    struct fi_end *s = &t->ends[i];
    s->rx[k] = (struct pair_op){.end = i, .k = k, .recv = true};
    ssize_t rc = fi_trecv(t->ep, e->buf + (e->sender ? REPLY_OFF : RECV_OFF + (size_t)k * BW_LEN),
                          e->sender ? REPLY_LEN : BW_LEN, t->desc, FI_ADDR_UNSPEC,
                          tag_of(e->edge, e->sender ? DIR_BACK : DIR_FWD, 0), 0xf, &s->rx[k]);
    s->rx_pending[k] = rc == -FI_EAGAIN;
    if (rc && rc != -FI_EAGAIN) {
        char *err = fi_err(t, "fi_trecv", (int)rc);
        end_fail(t, i, NULL, err);
        free(err);
    }
}

/* A received message's bytes against what its sender wrote. */
static bool bytes_right(struct fi_node *t, int i, int k, int which, size_t len, size_t got)
{
    const struct qp_end *e = &t->p->ends[i];
    const unsigned char *b = (const unsigned char *)e->buf + RECV_OFF + (size_t)k * BW_LEN;
    size_t bad = got == len ? len : 0;
    for (size_t at = 0; at < len && bad == len; at++)
        if (b[at] != pattern(e->edge, which, at))
            bad = at;
    if (bad == len)
        return true;
    char *err = got != len ? xasprintf("a message of %zu bytes arrived as %zu", len, got)
                           : xasprintf("the %zu-byte message arrived with other bytes (first at "
                                       "byte %zu)", len, bad);
    end_fail(t, i, "data", err);
    free(err);
    return false;
}

/* A sender's reply: a pong (the next ping, or the bandwidth step), the ack
 * (the pair's figures). */
static void sender_got(struct fi_node *t, int i, int phase)
{
    struct fi_end *s = &t->ends[i];
    s->step_end = proc_now() + t->p->o->step_s;   /* every wait has the step's deadline */
    if (phase == PH_PONG && s->phase == PH_PING) {
        if (++s->count < LAT_ITERS) {
            post_send(t, i, PH_PING);
        } else {
            s->lat = (proc_now() - s->t0) / LAT_ITERS / 2 * 1e6;
            next_step(t, i, PH_BW);
        }
    } else if (phase == PH_ACK && s->phase == PH_BW && s->posted == BW_ITERS) {
        double bw = (double)BW_LEN * BW_ITERS / (proc_now() - s->t0) / 1e6;
        peer_record(t->p, "pair", "to=%d ok=1 lat=%.2f bw=%.2f", t->p->ends[i].peer, s->lat, bw);
        s->done = true;
    }
}

/* A receiver's message: checked, answered (pong, ack). */
static void receiver_got(struct fi_node *t, int i, int k, int phase, size_t len)
{
    struct fi_end *s = &t->ends[i];
    s->step_end = proc_now() + t->p->o->step_s;
    if (phase == PH_CHECK && bytes_right(t, i, k, 0, CHECK_LEN, len))
        t->p->ends[i].received = true;
    else if (phase == PH_PING)
        post_send(t, i, PH_PONG);
    else if (phase == PH_BW && (++s->count > 1 || bytes_right(t, i, k, 1, BW_LEN, len)) &&
             s->count == BW_ITERS)
        post_send(t, i, PH_ACK);
}

static void completed(struct fi_node *t, const struct fi_cq_tagged_entry *c)
{
    const struct pair_op *op = c->op_context;
    if (!op || op->end < 0 || (size_t)op->end >= t->p->nends || t->ends[op->end].done)
        return;
    int i = op->end;
    if (!op->recv) {
        if (op->phase == PH_CHECK && t->ends[i].phase == PH_CHECK)
            next_step(t, i, PH_PING), post_send(t, i, PH_PING);
        if (op->phase == PH_BW) {   /* the window moves, and its wait's deadline */
            t->ends[i].count++;
            t->ends[i].step_end = proc_now() + t->p->o->step_s;
        }
        return;
    }
    if (t->p->ends[i].sender)
        sender_got(t, i, (int)(c->tag & 0xf));
    else
        receiver_got(t, i, op->k, (int)(c->tag & 0xf), c->len);
    if (!t->ends[i].done && !(t->ends[i].count == BW_ITERS && !t->p->ends[i].sender))
        post_recv(t, i, op->k);
}

/* Reads the completion queue once (the provider progresses): each
 * completion moves its pair on; an error fails the pair it belongs to. */
static void progress(struct fi_node *t)
{
    struct fi_cq_tagged_entry c[16];
    ssize_t k = fi_cq_read(t->cq, c, 16);
    if (k > 0)
        t->heard = proc_now();
    for (ssize_t j = 0; j < k; j++)
        completed(t, &c[j]);
    if (k != -FI_EAVAIL)
        return;
    struct fi_cq_err_entry err = {0};
    if (fi_cq_readerr(t->cq, &err, 0) != 1)
        return;
    const struct pair_op *op = err.op_context;
    char buf[256];
    const char *detail = fi_cq_strerror(t->cq, err.prov_errno, err.err_data, buf, sizeof(buf));
    char *why = xasprintf("completion with error: %s%s%s%s", t->fi->strerror(err.err),
                          detail && is_printable(detail) ? " (" : "",
                          detail && is_printable(detail) ? detail : "",
                          detail && is_printable(detail) ? ")" : "");
    if (op && op->end >= 0 && (size_t)op->end < t->p->nends)
        end_fail(t, op->end, NULL, why);
    free(why);
}

/* Sends and receives of end i that met FI_EAGAIN tried again, and the
 * bandwidth step's messages posted within the window. */
static void retry_posts(struct fi_node *t, int i)
{
    struct fi_end *s = &t->ends[i];
    if (!s->done && s->pending >= 0)
        post_send(t, i, s->pending);
    while (!s->done && s->pending < 0 && t->p->ends[i].sender && s->phase == PH_BW &&
           s->posted < BW_ITERS && s->posted - s->count < RX_DEPTH)
        post_send(t, i, PH_BW);
    for (int k = 0; k < RX_DEPTH; k++)
        if (!s->done && s->rx_pending[k])
            post_recv(t, i, k);
}

/* A sender past its step's deadline; a receiver when the node has heard
 * nothing for a step (its sender may be busy with its other pairs). */
static void check_deadline(struct fi_node *t, int i, double now)
{
    const struct fi_end *s = &t->ends[i];
    bool sender = t->p->ends[i].sender;
    if (s->done || now <= s->step_end || (!sender && now <= t->heard + t->p->o->step_s))
        return;
    char *err = sender ? xasprintf("no completion within %.1f s", t->p->o->step_s)
                       : xasprintf("no message arrived within %.1f s", t->p->o->step_s);
    end_fail(t, i, NULL, err);
    free(err);
}

/* Whether end i waits for its peer to connect first: when the peer sends to
 * this node too (a ring of two, all pairs), the lower rank connects and the
 * higher waits for its first message. rxm over verbs (libfabric 1.17)
 * refuses one of two connections made at once ("Connection refused", -28)
 * and the messages queued on it never leave. */
static bool waits_for_peer(const struct fi_node *t, int i)
{
    const struct qp_end *e = &t->p->ends[i];
    if (t->p->rank <= e->peer)
        return false;
    for (size_t j = 0; j < t->p->nends; j++)
        if (!t->p->ends[j].sender && t->p->ends[j].peer == e->peer)
            return !t->p->ends[j].received && !t->ends[j].done;
    return false;
}

/* The next of this node's pairs to send on, one at a time as the verbs test
 * does (the figures are the pair's, not shared with the node's others). */
static void start_next_sender(struct fi_node *t)
{
    if (t->sending >= 0 && !t->ends[t->sending].done)
        return;
    for (int i = t->sending + 1; i < (int)t->p->nends; i++) {
        const struct qp_end *e = &t->p->ends[i];
        if (!e->sender || t->ends[i].done)
            continue;
        if (waits_for_peer(t, i))
            return;
        t->sending = i;
        for (size_t k = 0; k < CHECK_LEN; k++)
            e->buf[k] = (char)pattern(e->edge, 0, k);
        for (size_t k = 0; k < BW_LEN; k++)
            e->buf[BW_OFF + k] = (char)pattern(e->edge, 1, k);
        next_step(t, i, PH_CHECK);
        post_send(t, i, PH_CHECK);
        return;
    }
}

/* Every pair moved on; false once all are done. */
static bool move_on(struct fi_node *t)
{
    bool busy = false;
    double now = proc_now();
    start_next_sender(t);
    for (size_t i = 0; i < t->p->nends; i++) {
        retry_posts(t, (int)i);
        if (!t->p->ends[i].sender || (int)i == t->sending)
            check_deadline(t, (int)i, now);
        busy |= !t->ends[i].done;
    }
    return busy;
}

/* Each end's peer in the address vector, from its node's blob; a pair whose
 * other node has no endpoint is said by its sender. */
static void resolve(struct fi_node *t)
{
    t->addr = xcalloc((size_t)t->p->n, sizeof(*t->addr));
    for (int r = 0; r < t->p->n; r++)
        t->addr[r] = FI_ADDR_NOTAVAIL;
    for (size_t i = 0; i < t->p->nends; i++) {
        int peer = t->p->ends[i].peer;
        char *err = NULL;
        if (t->addr[peer] == FI_ADDR_NOTAVAIL) {
            pmix_value_t *v = peer_blob(t->p, peer, sizeof(struct fi_wire), &err);
            struct fi_wire w = {0};
            if (v)
                memcpy(&w, v->data.bo.bytes, sizeof(w));
            if (v && (w.magic != FI_WIRE_MAGIC || !w.usable || w.len > sizeof(w.name)))
                err = xstrdup("the other end has no usable endpoint");
            else if (v && fi_av_insert(t->av, w.name, 1, &t->addr[peer], 0, NULL) != 1)
                err = xstrdup("fi_av_insert: the other end's address was not taken");
            if (v)
                PMIX_VALUE_RELEASE(v);
        }
        if (!err && t->addr[peer] == FI_ADDR_NOTAVAIL)
            err = xstrdup("the other end has no usable endpoint");
        if (err)
            end_fail(t, (int)i, "connect", err);
        free(err);
    }
}

/* Every pair started, then moved on until each is done or past its step. */
static void test_pairs(struct fi_node *t)
{
    t->ends = xcalloc(t->p->nends, sizeof(*t->ends));
    t->sending = -1;
    t->heard = proc_now();
    for (size_t i = 0; i < t->p->nends; i++) {
        t->ends[i].pending = -1;
        next_step(t, (int)i, PH_CHECK);
    }
    resolve(t);
    for (size_t i = 0; i < t->p->nends; i++)
        for (int k = 0; !t->ends[i].done && k < (t->p->ends[i].sender ? 1 : RX_DEPTH); k++)
            post_recv(t, (int)i, k);
    while (move_on(t))
        progress(t);
}

/* This node's record: what it tests with, and what is compared across nodes. */
static void say_node(const struct fi_node *t)
{
    char host[256] = "?";
    gethostname(host, sizeof(host) - 1);
    struct utsname u;
    uname(&u);
    struct rlimit lim;
    char *memlock = getrlimit(RLIMIT_MEMLOCK, &lim) != 0 ? xstrdup("?")
                    : lim.rlim_cur == RLIM_INFINITY ? xstrdup("unlimited")
                    : xasprintf("%llu", (unsigned long long)lim.rlim_cur / 1024);
    const struct fi_info *in = t->info;
    char *h = peer_word(host), *ips = peer_all_ipv4(), *prov = peer_word(t->p->o->provider);
    char *dom = peer_word(in && in->domain_attr ? in->domain_attr->name : NULL);
    char *fab = peer_word(in && in->fabric_attr ? in->fabric_attr->name : NULL);
    char *mpi_name = facts_mpi_library("libmpi.so.40"), *mpi = peer_word(mpi_name);
    uint32_t v = t->fi ? t->fi->version() : 0;
    peer_record(t->p, "node", "host=%s ips=%s prov=%s dev=%s fabric=%s libfabric=%u.%u "
                "kernel=%s mpi=%s memlock=%s", h, ips, prov, dom, fab, FI_MAJOR(v), FI_MINOR(v),
                u.release, mpi, memlock);
    free(h), free(ips), free(prov), free(dom), free(fab), free(mpi_name), free(mpi);
    free(memlock);
}

static volatile int fence_done;

static void fence_cb(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
    fence_done = 1;
}

/* The nodes' last fence, the completion queue read while it lasts: another
 * node's last messages need this one's progress. */
static bool final_fence(struct fi_node *t)
{
    fence_done = 0;
    if (PMIx_Fence_nb(NULL, 0, NULL, 0, fence_cb, NULL) != PMIX_SUCCESS)
        return false;
    double deadline = proc_now() + t->p->o->step_s * 2 + 1;
    while (!fence_done && proc_now() < deadline) {
        if (t->me.usable)   /* (an endpoint that failed to enable is not read) */
            progress(t);
        struct timespec pause = {0, 100000};
        nanosleep(&pause, NULL);
    }
    if (!fence_done)
        peer_record(t->p, "fail", "step=exchange err=PMIx_Fence: a node did not finish within "
                    "%.0f s", t->p->o->step_s * 2 + 1);
    return fence_done;
}

static void close_node(struct fi_node *t)
{
    struct fid *objs[] = {t->ep ? &t->ep->fid : NULL, t->mr ? &t->mr->fid : NULL,
                          t->av ? &t->av->fid : NULL, t->cq ? &t->cq->fid : NULL,
                          t->domain ? &t->domain->fid : NULL,
                          t->fabric ? &t->fabric->fid : NULL};
    for (size_t i = 0; i < sizeof(objs) / sizeof(*objs); i++)
        if (objs[i])
            fi_close(objs[i]);
    if (t->info)
        t->fi->freeinfo(t->info);
    free(t->addr);
    free(t->ends);
    free(t->p->buf);
    free(t->p->ends);
    free(t->p->edges);
}

void peer_fi_run(struct peer *p)
{
    struct fi_node t = {.p = p};
    const char *step = NULL;
    char *err = open_node(&t, &step);
    t.me.magic = FI_WIRE_MAGIC;
    t.me.usable = !err;
    say_node(&t);
    if (err)
        peer_say_failure(p, step, err);
    free(err);
    struct fi_wire *blob = xmalloc(sizeof(*blob));
    *blob = t.me;
    bool joined = peer_publish(p, blob, sizeof(*blob));
    if (joined && t.me.usable)
        test_pairs(&t);
    peer_record(p, "done", "took=%.3f", proc_now() - p->t0);
    /* Closed only once every node has left its completion queue: a provider
     * that reads a peer's disconnect while progressing (rxm over verbs,
     * libfabric 1.17) crashes on an endpoint closed under it. */
    if (joined && final_fence(&t))
        peer_fence(p);
    close_node(&t);
}
