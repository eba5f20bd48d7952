#include "preflight/qp_loopback.h"
#include "facts/facts.h"
#include "util/xalloc.h"
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define BUF_SIZE (64 * 1024)
#define LAT_ITERS 200
#define BW_ITERS 64

struct qp_ctx {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_qp *qp[2];
    struct ibv_mr *mr[2];
    char *buf[2];
    struct ibv_port_attr port;
    union ibv_gid gid;
    int port_num, gid_index;
    double timeout_s;
    int depth;          /* work requests in flight: the send queue's and the CQ's room */
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *memlock_hint(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        return xasprintf("memlock limit is %llu KiB; set 'ulimit -l unlimited' or memlock in "
                         "/etc/security/limits.conf", (unsigned long long)rl.rlim_cur / 1024);
    return xstrdup("check the memory registration limits of this node");
}

static void fail(struct qp_result *r, const char *step, int err, char *hint)
{
    r->ok = false;
    r->message = xasprintf("%s failed: %s%s%s%s", step, err ? strerror(err) : "unknown error",
                           hint ? " (hint: " : "", hint ? hint : "", hint ? ")" : "");
    free(hint);
}


/* Wait for one completion; false on timeout or error status (r filled in). */
static bool wait_completion(struct qp_ctx *c, const char *what, struct qp_result *r)
{
    struct ibv_wc wc;
    double deadline = now() + c->timeout_s;
    for (;;) {
        int n = ibv_poll_cq(c->cq, 1, &wc);
        if (n < 0) {
            fail(r, "poll CQ", errno, NULL);
            return false;
        }
        if (n == 1)
            break;
        if (now() > deadline) {
            r->ok = false;
            r->message = xasprintf("%s: no completion within %.0f s (hint: the port is up but "
                                   "packets do not arrive: check the GID index (%d) and that "
                                   "the path MTU fits the port)", what, c->timeout_s,
                                   c->gid_index);
            return false;
        }
    }
    if (wc.status != IBV_WC_SUCCESS) {
        r->ok = false;
        r->message = xasprintf("%s completed with error: %s (hint: %s)", what,
                               ibv_wc_status_str(wc.status),
                               wc.status == IBV_WC_RETRY_EXC_ERR
                               ? "no answer from the peer QP: wrong GID index or route"
                               : "see the device's kernel log");
        return false;
    }
    return true;
}

static bool post_rdma(struct qp_ctx *c, enum ibv_wr_opcode op, int from, int to, size_t len,
                      size_t offset, const char *what, struct qp_result *r)
{
    struct ibv_sge sge = {.addr = (uintptr_t)(c->buf[from] + offset), .length = (uint32_t)len,
                          .lkey = c->mr[from]->lkey};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = op,
                             .send_flags = IBV_SEND_SIGNALED}, *bad;
    if (op != IBV_WR_SEND) {
        wr.wr.rdma.remote_addr = (uintptr_t)(c->buf[to] + offset);
        wr.wr.rdma.rkey = c->mr[to]->rkey;
    }
    int err = ibv_post_send(c->qp[from], &wr, &bad);
    if (err) {
        fail(r, what, err, NULL);
        return false;
    }
    return wait_completion(c, what, r);
}

static bool connect_qps(struct qp_ctx *c, struct qp_result *r)
{
    bool eth = c->port.link_layer == IBV_LINK_LAYER_ETHERNET;
    for (int i = 0; i < 2; i++) {
        struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .pkey_index = 0,
                                .port_num = (uint8_t)c->port_num,
                                .qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
                                                   IBV_ACCESS_REMOTE_READ |
                                                   IBV_ACCESS_LOCAL_WRITE};
        int err = ibv_modify_qp(c->qp[i], &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                                IBV_QP_ACCESS_FLAGS);
        if (err) {
            fail(r, "modify QP to INIT", err, NULL);
            return false;
        }
    }
    for (int i = 0; i < 2; i++) {
        struct ibv_qp_attr a = {
            .qp_state = IBV_QPS_RTR, .path_mtu = c->port.active_mtu,
            .dest_qp_num = c->qp[1 - i]->qp_num, .rq_psn = 0, .max_dest_rd_atomic = 1,
            .min_rnr_timer = 12,
            .ah_attr = {.dlid = c->port.lid, .port_num = (uint8_t)c->port_num},
        };
        if (eth || c->gid_index >= 0) {
            a.ah_attr.is_global = 1;
            a.ah_attr.grh.dgid = c->gid;
            a.ah_attr.grh.sgid_index = (uint8_t)(c->gid_index < 0 ? 0 : c->gid_index);
            a.ah_attr.grh.hop_limit = 1;
        }
        int err = ibv_modify_qp(c->qp[i], &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                                IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                                IBV_QP_MIN_RNR_TIMER);
        if (err) {
            fail(r, "modify QP to RTR", err,
                 xasprintf("GID index %d of port %d, path MTU %d (the port's active MTU)",
                           c->gid_index, c->port_num, mtu_bytes(c->port.active_mtu)));
            return false;
        }
        struct ibv_qp_attr s = {.qp_state = IBV_QPS_RTS, .timeout = 14, .retry_cnt = 7,
                                .rnr_retry = 7, .sq_psn = 0, .max_rd_atomic = 1};
        err = ibv_modify_qp(c->qp[i], &s, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                            IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
        if (err) {
            fail(r, "modify QP to RTS", err, NULL);
            return false;
        }
    }
    return true;
}

static bool check_pattern(struct qp_ctx *c, int side, size_t off, size_t len, unsigned seed,
                          const char *what, struct qp_result *r)
{
    for (size_t i = 0; i < len; i++) {
        if ((unsigned char)c->buf[side][off + i] != (unsigned char)(seed + i * 7)) {
            r->ok = false;
            r->message = xasprintf("%s: data differs at byte %zu (the transfer completed but "
                                   "carried the wrong bytes)", what, i);
            return false;
        }
    }
    return true;
}

static void fill(struct qp_ctx *c, int side, size_t off, size_t len, unsigned seed)
{
    for (size_t i = 0; i < len; i++)
        c->buf[side][off + i] = (char)(seed + i * 7);
}

static bool exercise(struct qp_ctx *c, struct qp_result *r)
{
    const size_t chunk = 4096;
    /* SEND/RECV: qp 0 sends its first 4 KiB into qp 1's buffer at 8 KiB. */
    fill(c, 0, 0, chunk, 11);
    struct ibv_sge rsge = {.addr = (uintptr_t)(c->buf[1] + 2 * chunk), .length = chunk,
                           .lkey = c->mr[1]->lkey};
    struct ibv_recv_wr rwr = {.sg_list = &rsge, .num_sge = 1}, *rbad;
    int err = ibv_post_recv(c->qp[1], &rwr, &rbad);
    if (err) {
        fail(r, "post RECV", err, NULL);
        return false;
    }
    if (!post_rdma(c, IBV_WR_SEND, 0, 1, chunk, 0, "SEND", r) ||
        !wait_completion(c, "RECV", r) ||
        !check_pattern(c, 1, 2 * chunk, chunk, 11, "SEND/RECV", r))
        return false;
    /* RDMA WRITE: qp 0's bytes at 16 KiB into qp 1's buffer at 16 KiB. */
    fill(c, 0, 4 * chunk, chunk, 23);
    if (!post_rdma(c, IBV_WR_RDMA_WRITE, 0, 1, chunk, 4 * chunk, "RDMA WRITE", r) ||
        !check_pattern(c, 1, 4 * chunk, chunk, 23, "RDMA WRITE", r))
        return false;
    /* RDMA READ: qp 0 reads qp 1's bytes at 32 KiB. */
    fill(c, 1, 8 * chunk, chunk, 37);
    memset(c->buf[0] + 8 * chunk, 0, chunk);
    if (!post_rdma(c, IBV_WR_RDMA_READ, 0, 1, chunk, 8 * chunk, "RDMA READ", r) ||
        !check_pattern(c, 0, 8 * chunk, chunk, 37, "RDMA READ", r))
        return false;
    /* Figures: 8-byte writes one at a time, then 64 KiB writes. */
    double t0 = now();
    for (int i = 0; i < LAT_ITERS; i++)
        if (!post_rdma(c, IBV_WR_RDMA_WRITE, 0, 1, 8, 0, "RDMA WRITE (latency)", r))
            return false;
    r->latency_us = (now() - t0) / LAT_ITERS * 1e6;
    t0 = now();
    for (int i = 0; i < BW_ITERS; i++)
        if (!post_rdma(c, IBV_WR_RDMA_WRITE, 0, 1, BUF_SIZE, 0, "RDMA WRITE (bandwidth)", r))
            return false;
    r->bw_mbps = (double)BUF_SIZE * BW_ITERS / (now() - t0) / 1e6;
    return true;
}

/* The device opened, its port ACTIVE, with a GID where it needs one. */
static bool open_port(struct qp_ctx *c, const char *device, struct qp_result *r)
{
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    struct ibv_device *dev = NULL;
    for (int i = 0; list && i < n; i++)
        if (strcmp(ibv_get_device_name(list[i]), device) == 0)
            dev = list[i];
    if (!dev) {
        r->ok = false;
        r->message = xasprintf("open device failed: %s is not among the %d devices libibverbs "
                               "sees (hint: 'ibv_devices'; in a container, pass "
                               "/dev/infiniband through)", device, n);
        if (list)
            ibv_free_device_list(list);
        return false;
    }
    c->ctx = ibv_open_device(dev);
    ibv_free_device_list(list);
    if (!c->ctx) {
        fail(r, "open device", errno, xstrdup("check access to /dev/infiniband/uverbs*"));
        return false;
    }
    if (ibv_query_port(c->ctx, (uint8_t)c->port_num, &c->port)) {
        fail(r, "query port", errno, NULL);
        return false;
    }
    if (c->port.state != IBV_PORT_ACTIVE) {
        r->ok = false;
        r->message = xasprintf("port %d of %s is %s, not ACTIVE (hint: check the link and the "
                               "subnet manager; 'ibstat %s %d')", c->port_num, device,
                               ibv_port_state_str(c->port.state), device, c->port_num);
        return false;
    }
    if (c->port.link_layer == IBV_LINK_LAYER_ETHERNET && c->gid_index < 0) {
        r->ok = false;
        r->message = xasprintf("%s port %d is Ethernet (RoCE) and no GID index was given or "
                               "found (hint: give the port a routable IP address)", device,
                               c->port_num);
        return false;
    }
    if (c->gid_index >= 0 && ibv_query_gid(c->ctx, (uint8_t)c->port_num, c->gid_index, &c->gid)) {
        fail(r, "query GID", errno, xasprintf("GID index %d may not exist", c->gid_index));
        return false;
    }
    return true;
}

static bool setup(struct qp_ctx *c, const char *device, struct qp_result *r)
{
    if (!open_port(c, device, r))
        return false;
    if (!(c->pd = ibv_alloc_pd(c->ctx))) {
        fail(r, "ibv_alloc_pd", errno, NULL);
        return false;
    }
    for (int i = 0; i < 2; i++) {
        if (posix_memalign((void **)&c->buf[i], 4096, BUF_SIZE)) {
            fail(r, "allocate buffers", ENOMEM, NULL);
            return false;
        }
        memset(c->buf[i], 0, BUF_SIZE);
        c->mr[i] = ibv_reg_mr(c->pd, c->buf[i], BUF_SIZE, IBV_ACCESS_LOCAL_WRITE |
                              IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
        if (!c->mr[i]) {
            int err = errno;
            fail(r, "ibv_reg_mr", err, err == ENOMEM || err == EPERM ? memlock_hint() : NULL);
            return false;
        }
    }
    if (!(c->cq = ibv_create_cq(c->ctx, 2 * c->depth + 32, NULL, NULL, 0))) {
        fail(r, "ibv_create_cq", errno, NULL);
        return false;
    }
    for (int i = 0; i < 2; i++) {
        struct ibv_qp_init_attr a = {.send_cq = c->cq, .recv_cq = c->cq, .qp_type = IBV_QPT_RC,
                                     .cap = {.max_send_wr = (uint32_t)c->depth,
                                             .max_recv_wr = 16,
                                             .max_send_sge = 1, .max_recv_sge = 1}};
        if (!(c->qp[i] = ibv_create_qp(c->pd, &a))) {
            fail(r, "ibv_create_qp", errno, NULL);
            return false;
        }
    }
    return true;
}

static void teardown(struct qp_ctx *c)
{
    for (int i = 0; i < 2; i++) {
        if (c->qp[i])
            ibv_destroy_qp(c->qp[i]);
        if (c->mr[i])
            ibv_dereg_mr(c->mr[i]);
        free(c->buf[i]);
    }
    if (c->cq)
        ibv_destroy_cq(c->cq);
    if (c->pd)
        ibv_dealloc_pd(c->pd);
    if (c->ctx)
        ibv_close_device(c->ctx);
}

void qp_test(const char *device, int port, int gid_index, double timeout_s, struct qp_result *r)
{
    struct qp_ctx c = {.port_num = port, .gid_index = gid_index, .timeout_s = timeout_s,
                       .depth = 16};
    memset(r, 0, sizeof(*r));
    if (setup(&c, device, r) && connect_qps(&c, r) && exercise(&c, r)) {
        r->ok = true;
        r->message = xasprintf("passed: RC QPs %u and %u in RTS, RDMA WRITE, RDMA READ and "
                               "SEND/RECV verified; latency %.1f us, bandwidth %.1f MB/s",
                               c.qp[0]->qp_num, c.qp[1]->qp_num, r->latency_us, r->bw_mbps);
    }
    teardown(&c);
}

/* RDMA WRITEs of BUF_SIZE from QP 0 to QP 1, BW_DEPTH in flight, as
 * ib_write_bw keeps its queue full, for `seconds`. */
#define BW_DEPTH 64
static bool stream_writes(struct qp_ctx *c, double seconds, struct qp_result *r)
{
    struct ibv_sge sge = {.addr = (uintptr_t)c->buf[0], .length = BUF_SIZE,
                          .lkey = c->mr[0]->lkey};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
                             .send_flags = IBV_SEND_SIGNALED}, *bad;
    wr.wr.rdma.remote_addr = (uintptr_t)c->buf[1];
    wr.wr.rdma.rkey = c->mr[1]->rkey;
    double t0 = now(), end = t0 + seconds, last = t0;
    unsigned long long done = 0;
    int inflight = 0;
    for (;;) {
        bool more = now() < end;
        while (more && inflight < c->depth) {
            int err = ibv_post_send(c->qp[0], &wr, &bad);
            if (err) {
                fail(r, "RDMA WRITE (loopback bandwidth)", err, NULL);
                return false;
            }
            inflight++;
        }
        if (!inflight)
            break;
        struct ibv_wc wc[16];
        int n = ibv_poll_cq(c->cq, 16, wc);
        if (n < 0) {
            fail(r, "poll CQ", EIO, NULL);
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (wc[i].status != IBV_WC_SUCCESS) {
                r->ok = false;
                r->message = xasprintf("RDMA WRITE (loopback bandwidth) failed: %s",
                                       ibv_wc_status_str(wc[i].status));
                return false;
            }
            inflight--;
            done++;
        }
        if (n)
            last = now();
        else if (now() - last > c->timeout_s) {
            fail(r, "RDMA WRITE (loopback bandwidth)", ETIMEDOUT,
                 xstrdup("no completion: the port stopped answering"));
            return false;
        }
    }
    double elapsed = now() - t0;
    r->bw_mbps = elapsed > 0 ? (double)BUF_SIZE * (double)done / elapsed / 1e6 : 0;
    return true;
}

void qp_bandwidth(const char *device, int port, int gid_index, double seconds, double timeout_s,
                  struct qp_result *r)
{
    struct qp_ctx c = {.port_num = port, .gid_index = gid_index, .timeout_s = timeout_s,
                       .depth = BW_DEPTH};
    memset(r, 0, sizeof(*r));
    if (setup(&c, device, r) && connect_qps(&c, r) && stream_writes(&c, seconds, r)) {
        r->ok = true;
        r->message = xasprintf("%.2f Gb/s of %d KiB RDMA WRITEs, %d in flight, for %.1f s",
                               r->bw_mbps * 8 / 1000, BUF_SIZE / 1024, BW_DEPTH, seconds);
    }
    teardown(&c);
}

void qp_result_free(struct qp_result *r)
{
    free(r->message);
    r->message = NULL;
}
