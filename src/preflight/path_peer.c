#include "preflight/path_peer.h"
#include "facts/counters.h"
#include "facts/facts.h"
#include "plan/plan.h"
#include "preflight/path_report.h"
#include "preflight/preflight.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/proc.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <infiniband/verbs.h>
#include <netinet/in.h>
#include <pmix.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "preflight/path_peer_parts.h"

static bool wait_cq(struct ibv_cq *cq, int want, double step_s, struct ibv_wc *wcs,
                    const char **why)
{
    double deadline = proc_now() + step_s;
    int got = 0;
    while (got < want) {
        int k = ibv_poll_cq(cq, want - got, wcs + got);
        if (k < 0) {
            *why = "polling the completion queue failed";
            return false;
        }
        for (int i = got; i < got + k; i++)
            if (wcs[i].status != IBV_WC_SUCCESS) {
                *why = ibv_wc_status_str(wcs[i].status);
                return false;
            }
        got += k;
        if (got < want && proc_now() > deadline) {
            *why = NULL;
            return false;
        }
    }
    return true;
}

static int find_port(struct peer *p, const struct facts *f)
{
    struct plan_port ports[MAX_PORTS];
    size_t n = preflight_ports(f, p->o->device, p->o->gid_index, ports, MAX_PORTS);
    if (n == 0 && !p->o->device && f->ndevs > 0 && f->devs[0].nports > 0) {
        plan_port_of(&ports[0], &f->devs[0], &f->devs[0].ports[0], p->o->gid_index);
        n = 1;   /* none ACTIVE: the first, to say which and how it is */
    }
    if (n == 0 || !ports[0].dev) {
        char *h = peer_word(f->hostname), *ips = peer_all_ipv4();
        peer_record(p, "node", "host=%s ips=%s", h, ips);
        free(h);
        free(ips);
        if (p->o->device)
            peer_record(p, "fail", "step=port err=no device or port %s on this node (hint: "
                        "'rdmarun probe' there)", p->o->device);
        else
            peer_record(p, "fail", "step=port err=no RDMA device on this node (ibv_devices lists "
                        "none; hint: the driver module, /dev/infiniband in a container)");
        return -1;
    }
    p->port = ports[0];
    return 0;
}

/* The device opened and its port ACTIVE, with a GID where it needs one. */
static bool open_device(struct peer *p, const char **step, char **err)
{
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    for (int i = 0; list && i < n && !p->ctx; i++)
        if (strcmp(ibv_get_device_name(list[i]), p->port.dev->name) == 0)
            p->ctx = ibv_open_device(list[i]);
    if (list)
        ibv_free_device_list(list);
    *step = "open device";
    if (!p->ctx) {
        *err = xasprintf("%s cannot be opened: %s", p->port.dev->name, strerror(errno));
        return false;
    }
    *step = "port";
    if (ibv_query_port(p->ctx, (uint8_t)p->port.port->num, &p->attr)) {
        *err = xasprintf("ibv_query_port: %s", strerror(errno));
        return false;
    }
    if (p->attr.state != IBV_PORT_ACTIVE) {
        *err = xasprintf("port %d of %s is %s, not ACTIVE", p->port.port->num, p->port.dev->name,
                         ibv_port_state_str(p->attr.state));
        return false;
    }
    *step = "GID";
    static const union ibv_gid none;
    if (p->port.gid_index >= 0 &&
        (ibv_query_gid(p->ctx, (uint8_t)p->port.port->num, p->port.gid_index, &p->gid) ||
         memcmp(&p->gid, &none, sizeof(none)) == 0)) {
        *err = xasprintf("GID index %d cannot be read or is empty on %s port %d (hint: 'rdmarun "
                         "probe' lists the GIDs; show_gids)", p->port.gid_index,
                         p->port.dev->name, p->port.port->num);
        return false;
    }
    if (p->attr.link_layer == IBV_LINK_LAYER_ETHERNET && p->port.gid_index < 0) {
        *err = xstrdup("an Ethernet (RoCE) port with no routable GID (hint: an IP address on its "
                       "netdev)");
        return false;
    }
    return true;
}

/* End i's RC QP, in INIT, with the SEND it will receive posted (a
 * receiver's). */
static bool open_end(struct peer *p, size_t i, int depth, char **err)
{
    struct qp_end *e = &p->ends[i];
    if (!(e->cq = ibv_create_cq(p->ctx, depth, NULL, NULL, 0))) {
        *err = xasprintf("ibv_create_cq: %s", strerror(errno));
        return false;
    }
    struct ibv_qp_init_attr a = {.send_cq = e->cq, .recv_cq = p->rcq, .qp_type = IBV_QPT_RC,
                                 .cap = {.max_send_wr = (uint32_t)depth, .max_recv_wr = 2,
                                         .max_send_sge = 1, .max_recv_sge = 1}};
    e->buf = p->buf + i * SLOT;
    struct ibv_qp_attr init = {.qp_state = IBV_QPS_INIT, .port_num = (uint8_t)p->port.port->num,
                               .qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
                                                  IBV_ACCESS_LOCAL_WRITE};
    if (!(e->qp = ibv_create_qp(p->pd, &a)) ||
        ibv_modify_qp(e->qp, &init, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                      IBV_QP_ACCESS_FLAGS)) {
        *err = xasprintf("creating an RC QP: %s", strerror(errno));
        return false;
    }
    if (!e->sender) {   /* the SEND it will receive, posted before anyone sends */
        struct ibv_sge sge = {.addr = (uintptr_t)e->buf, .length = CHECK_LEN,
                              .lkey = p->mr->lkey};
        struct ibv_recv_wr wr = {.wr_id = i, .sg_list = &sge, .num_sge = 1}, *bad;
        if (ibv_post_recv(e->qp, &wr, &bad)) {
            *err = xasprintf("ibv_post_recv: %s", strerror(errno));
            return false;
        }
    }
    return true;
}

static bool open_port(struct peer *p, const char **step, char **err)
{
    if (!open_device(p, step, err))
        return false;
    *step = "memory";
    size_t len = (p->nends ? p->nends : 1) * SLOT;
    if (posix_memalign((void **)&p->buf, 4096, len)) {
        *err = xstrdup("out of memory");
        return false;
    }
    memset(p->buf, 0, len);
    if (!(p->pd = ibv_alloc_pd(p->ctx)) ||
        !(p->mr = ibv_reg_mr(p->pd, p->buf, len, IBV_ACCESS_LOCAL_WRITE |
                             IBV_ACCESS_REMOTE_WRITE))) {
        *err = xasprintf("registering %zu bytes: %s (hint: the memlock limit, 'ulimit -l')", len,
                         strerror(errno));
        return false;
    }
    *step = "QP";
    if (!(p->rcq = ibv_create_cq(p->ctx, (int)p->nends + 1, NULL, NULL, 0))) {
        *err = xasprintf("ibv_create_cq: %s", strerror(errno));
        return false;
    }
    for (size_t i = 0; i < p->nends; i++)
        if (!open_end(p, i, BW_ITERS + 8, err))
            return false;
    return true;
}

static void *blob_of(const struct peer *p, size_t *len)
{
    *len = sizeof(struct wire_head) + p->nends * sizeof(struct wire_qp);
    char *b = xcalloc(1, *len);
    struct wire_head h = {.magic = WIRE_MAGIC, .nqp = p->usable ? (uint32_t)p->nends : 0,
                          .usable = p->usable,
                          .global = p->port.gid_index >= 0, .mtu = (uint8_t)p->attr.active_mtu,
                          .lid = p->attr.lid};
    memcpy(h.gid, p->gid.raw, 16);
    memcpy(b, &h, sizeof(h));
    for (size_t i = 0; p->usable && i < p->nends; i++) {
        struct wire_qp q = {.edge = (uint32_t)p->ends[i].edge, .sender = p->ends[i].sender,
                            .qpn = p->ends[i].qp->qp_num, .rkey = p->mr->rkey,
                            .addr = (uintptr_t)p->ends[i].buf};
        memcpy(b + sizeof(h) + i * sizeof(q), &q, sizeof(q));
    }
    return b;
}

/* The other end of my QP e from its node's published blob. */
static bool remote_end(const struct peer *p, const struct qp_end *e, struct wire_head *h,
                       struct wire_qp *q, char **err)
{
    pmix_value_t *v = peer_blob(p, e->peer, sizeof(*h), err);
    if (!v)
        return false;
    memcpy(h, v->data.bo.bytes, sizeof(*h));
    bool found = false;
    for (uint32_t i = 0; h->magic == WIRE_MAGIC && i < h->nqp && !found; i++) {
        if (v->data.bo.size < sizeof(*h) + (i + 1) * sizeof(*q))
            break;
        memcpy(q, v->data.bo.bytes + sizeof(*h) + i * sizeof(*q), sizeof(*q));
        found = q->edge == (uint32_t)e->edge && q->sender == !e->sender;
    }
    PMIX_VALUE_RELEASE(v);
    if (!found)
        *err = xstrdup(h->magic == WIRE_MAGIC && !h->usable
                       ? "the other end has no usable port"
                       : "the other end published no QP for this pair");
    return found;
}

static bool connect_end(const struct peer *p, struct qp_end *e, const char **step, char **err)
{
    struct wire_head h;
    struct wire_qp q;
    *step = "exchange";
    if (!remote_end(p, e, &h, &q, err))
        return false;
    struct ibv_qp_attr a = {
        .qp_state = IBV_QPS_RTR, .path_mtu = p->attr.active_mtu, .dest_qp_num = q.qpn,
        .rq_psn = 0, .max_dest_rd_atomic = 1, .min_rnr_timer = 12,
        .ah_attr = {.dlid = h.lid, .port_num = (uint8_t)p->port.port->num},
    };
    if (h.global || p->port.gid_index >= 0) {
        a.ah_attr.is_global = 1;
        memcpy(a.ah_attr.grh.dgid.raw, h.gid, 16);
        a.ah_attr.grh.sgid_index = (uint8_t)(p->port.gid_index < 0 ? 0 : p->port.gid_index);
        a.ah_attr.grh.hop_limit = 64;
    }
    *step = "INIT->RTR";
    int rc = ibv_modify_qp(e->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                           IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                           IBV_QP_MIN_RNR_TIMER);
    if (rc) {
        char dgid[INET6_ADDRSTRLEN] = "?";
        inet_ntop(AF_INET6, h.gid, dgid, sizeof(dgid));
        *err = xasprintf("%s (GID index %d, path MTU %d, to GID %s QP %u)", strerror(rc),
                         p->port.gid_index, mtu_bytes(p->attr.active_mtu), dgid, q.qpn);
        return false;
    }
    /* 14: 67 ms per try, 7 tries: a dead path fails within about 0.5 s. */
    struct ibv_qp_attr s = {.qp_state = IBV_QPS_RTS, .timeout = 14, .retry_cnt = 7,
                            .rnr_retry = 7, .sq_psn = 0, .max_rd_atomic = 1};
    *step = "RTR->RTS";
    rc = ibv_modify_qp(e->qp, &s, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                       IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
    if (rc) {
        *err = xasprintf("%s", strerror(rc));
        return false;
    }
    e->connected = true;
    e->raddr = q.addr;
    e->rkey = q.rkey;
    return true;
}

static unsigned char pattern(int edge, int which, size_t i)
{
    return (unsigned char)(edge * 31 + which * 101 + i * 7);
}

static bool post_write(const struct peer *p, const struct qp_end *e, size_t off, size_t len,
                       enum ibv_wr_opcode op, bool signaled)
{
    struct ibv_sge sge = {.addr = (uintptr_t)(e->buf + off), .length = (uint32_t)len,
                          .lkey = p->mr->lkey};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = op,
                             .send_flags = signaled ? IBV_SEND_SIGNALED : 0}, *bad;
    if (op == IBV_WR_RDMA_WRITE) {
        wr.wr.rdma.remote_addr = e->raddr + off;
        wr.wr.rdma.rkey = e->rkey;
    }
    return ibv_post_send(e->qp, &wr, &bad) == 0;
}

/* As the sender: the checked transfers, then the figures. */
static void send_pair(const struct peer *p, struct qp_end *e)
{
    struct ibv_wc wc[BW_ITERS];
    const char *why = NULL, *step = "first completion";
    for (size_t i = 0; i < CHECK_LEN; i++) {
        e->buf[i] = (char)pattern(e->edge, 0, i);
        e->buf[CHECK_LEN + i] = (char)pattern(e->edge, 1, i);
    }
    double t0;
    /* The RDMA WRITE first: RC delivers in order, so when the SEND has
     * arrived the written bytes are there for the receiver to check. */
    if (!post_write(p, e, CHECK_LEN, CHECK_LEN, IBV_WR_RDMA_WRITE, true) ||
        !post_write(p, e, 0, CHECK_LEN, IBV_WR_SEND, true))
        goto posted;
    if (!wait_cq(e->cq, 2, p->o->step_s, wc, &why))
        goto failed;
    step = "latency";
    t0 = proc_now();
    for (int i = 0; i < LAT_ITERS; i++)
        if (!post_write(p, e, BW_OFF, 8, IBV_WR_RDMA_WRITE, true))
            goto posted;
        else if (!wait_cq(e->cq, 1, p->o->step_s, wc, &why))
            goto failed;
    double lat = (proc_now() - t0) / LAT_ITERS * 1e6;
    step = "bandwidth";
    t0 = proc_now();
    for (int i = 0; i < BW_ITERS; i++)
        if (!post_write(p, e, BW_OFF, BW_LEN, IBV_WR_RDMA_WRITE, true))
            goto posted;
    if (!wait_cq(e->cq, BW_ITERS, p->o->step_s, wc, &why))
        goto failed;
    double bw = (double)BW_LEN * BW_ITERS / (proc_now() - t0) / 1e6;
    peer_record(p, "pair", "to=%d ok=1 lat=%.2f bw=%.2f", e->peer, lat, bw);
    return;
posted:
    peer_say_pair_failure(p, e->peer, step, "ibv_post_send failed (the QP is in error)");
    return;
failed: {
    char *err = why ? xasprintf("completion with error: %s", why)
                    : xasprintf("no completion within %.1f s", p->o->step_s);
    peer_say_pair_failure(p, e->peer, step, err);
    free(err);
}
}

/* As the receiver: the SENDs that arrived, and the bytes of both transfers. */
static void receive_pairs(const struct peer *p)
{
    double deadline = proc_now() + p->o->step_s;
    size_t want = 0, got = 0;
    for (size_t i = 0; i < p->nends; i++)
        want += !p->ends[i].sender && p->ends[i].connected;
    while (got < want && proc_now() < deadline) {
        struct ibv_wc wc;
        int k = ibv_poll_cq(p->rcq, 1, &wc);
        if (k <= 0 || wc.wr_id >= p->nends)
            continue;
        struct qp_end *e = &p->ends[wc.wr_id];
        got++;
        e->received = true;
        if (wc.status != IBV_WC_SUCCESS) {
            peer_record(p, "pair", "from=%d ok=0 step=receive err=completion with error: %s",
                        e->peer, ibv_wc_status_str(wc.status));
            continue;
        }
        for (int which = 0; which < 2; which++)
            for (size_t i = 0; i < CHECK_LEN; i++)
                if ((unsigned char)e->buf[which * CHECK_LEN + i] != pattern(e->edge, which, i)) {
                    peer_record(p, "pair", "from=%d ok=0 step=data err=the %s arrived with other "
                           "bytes (first at byte %zu)", e->peer,
                           which ? "RDMA WRITE" : "SEND", i);
                    which = 2;
                    break;
                }
    }
    for (size_t i = 0; i < p->nends; i++)
        if (!p->ends[i].sender && p->ends[i].connected && !p->ends[i].received)
            peer_record(p, "pair", "from=%d ok=0 step=receive err=no SEND arrived within %.1f s",
                   p->ends[i].peer, p->o->step_s);
}

/* What grew on the port since `before`, "name=delta ...". */
static void counters_grown(const struct peer *p, const struct port_counters *before)
{
    struct port_counters now;
    struct counter_growth g;
    port_counters_read(NULL, p->port.dev->name, p->port.port->num, &now);
    counters_growth(p->port.dev->name, p->port.port->num, before, &now, &g);
    struct strvec out = {0};
    for (size_t i = 0; i < g.names.n; i++)
        sv_pushf(&out, "%s=%lld", g.names.v[i], g.deltas[i]);
    char *joined = sv_join(&out, " ");
    peer_record(p, "counters", "%s", joined ? joined : "");
    free(joined);
    sv_free(&out);
    counter_growth_free(&g);
    port_counters_free(&now);
}

static void peer_free(struct peer *p)
{
    for (size_t i = 0; i < p->nends; i++) {
        if (p->ends[i].qp)
            ibv_destroy_qp(p->ends[i].qp);
        if (p->ends[i].cq)
            ibv_destroy_cq(p->ends[i].cq);
    }
    if (p->rcq)
        ibv_destroy_cq(p->rcq);
    if (p->mr)
        ibv_dereg_mr(p->mr);
    if (p->pd)
        ibv_dealloc_pd(p->pd);
    if (p->ctx)
        ibv_close_device(p->ctx);
    free(p->buf);
    free(p->ends);
    free(p->edges);
}

/* This node's QP ends: one on each edge it is an end of, the sender's
 * first. */
void peer_make_ends(struct peer *p)
{
    p->nedges = path_edges(p->n, p->o->all_pairs, &p->edges);
    p->ends = xcalloc(2 * p->nedges, sizeof(*p->ends));
    for (size_t i = 0; i < p->nedges; i++)
        for (int s = 1; s >= 0; s--)
            if ((s ? p->edges[i].from : p->edges[i].to) == p->rank)
                p->ends[p->nends++] = (struct qp_end){.edge = (int)i, .sender = s == 1,
                                                      .peer = s ? p->edges[i].to
                                                                : p->edges[i].from};
}

/* The node's port opened and said, its counters read before the test. */
static void prepare(struct peer *p, struct facts *f, struct port_counters *c0)
{
    const char *step = NULL;
    char *err = NULL;
    struct facts_sources src = {0};
    if (facts_gather(f, &src) != 0) {
        peer_record(p, "fail", "step=facts err=this node's facts cannot be read");
        return;
    }
    if (find_port(p, f) != 0)
        return;
    p->usable = open_port(p, &step, &err);
    peer_say_node(p, f);
    if (!p->usable)
        peer_say_failure(p, step, err);
    else
        port_counters_read(NULL, p->port.dev->name, p->port.port->num, c0);
    free(err);
}

/* Each end connected; once every receiver is ready, the pairs tested. */
static void test_pairs(struct peer *p, const struct port_counters *c0)
{
    for (size_t i = 0; i < p->nends; i++) {
        const char *step = NULL;
        char *err = NULL;
        if (!connect_end(p, &p->ends[i], &step, &err) && p->ends[i].sender)
            peer_say_pair_failure(p, p->ends[i].peer, step, err);
        free(err);
    }
    /* Every receiver is ready before anyone sends. */
    if (!peer_fence(p))
        return;
    for (size_t i = 0; i < p->nends; i++)
        if (p->ends[i].sender && p->ends[i].connected)
            send_pair(p, &p->ends[i]);
    receive_pairs(p);
    counters_grown(p, c0);
}

/* The verbs test: RC QPs on this node's port, their addresses exchanged. */
void peer_verbs_run(struct peer *p)
{
    struct facts f = {0};   /* kept to the end: p->port points into it */
    struct port_counters c0 = {0};
    prepare(p, &f, &c0);
    size_t len;
    void *blob = blob_of(p, &len);
    bool joined = peer_publish(p, blob, len);
    if (joined && p->usable)
        test_pairs(p, &c0);
    else if (joined)
        peer_fence(p);   /* (as the usable nodes' fence before sending) */
    peer_record(p, "done", "took=%.3f", proc_now() - p->t0);
    if (joined)
        peer_fence(p);   /* the QPs stay until every node is done with them */
    port_counters_free(&c0);
    peer_free(p);
    facts_free(&f);
}

