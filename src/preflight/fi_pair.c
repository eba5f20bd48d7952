/* The libfabric pair test: two reliable-datagram endpoints (FI_EP_RDM) of
 * one provider exchange a message each way, as fabtests' fi_pingpong
 * does (util/pingpong.c: fi_getinfo with FI_MSG, fi_fabric, fi_domain,
 * fi_cq_open, fi_av_open, fi_endpoint, fi_ep_bind, fi_enable, fi_getname,
 * fi_av_insert, fi_recv, fi_send, fi_cq_read), here in one process so no
 * socket carries the names: both endpoints are progressed by one loop, which
 * tcp's rxm and shm need. It runs in a child (libfabric is never loaded in
 * rdmarun: util/fi_dl.h) that prints one line, "ok DOMAIN" or "fail STEP:
 * WHY", and is killed past its time. */
#include "preflight/fi_pair.h"
#include "util/fi_dl.h"
#include "util/proc.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAYLOAD "rdmarun pair test"

struct side {
    struct fid_ep *ep;
    struct fid_cq *cq;
    struct fid_av *av;
    struct fid_mr *mr;
    char name[256], buf[64];
    size_t len;
    fi_addr_t peer;
    struct fi_context2 ctx;   /* its operation's (providers with FI_CONTEXT mode use it) */
};

struct pair {
    const struct fi_api *fi;
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct side a, b;
    double deadline;
};

static int fail(const struct pair *t, const char *step, int rc)
{
    printf("fail %s: %s\n", step, t->fi->strerror(rc < 0 ? -rc : rc));
    return 1;
}

static int open_side(struct pair *t, struct side *s)
{
    struct fi_rdm rdm = {0};
    const char *call = NULL;
    int rc = fi_rdm_open(t->domain, t->info, FI_CQ_FORMAT_CONTEXT, &rdm, &call);
    s->ep = rdm.ep, s->cq = rdm.cq, s->av = rdm.av;
    if (rc)
        return fail(t, call, rc);
    /* a provider asking for registered buffers (FI_MR_LOCAL: efa, verbs) */
    if ((t->info->domain_attr->mr_mode & FI_MR_LOCAL) &&
        (rc = fi_mr_reg(t->domain, s->buf, sizeof(s->buf), FI_SEND | FI_RECV, 0, 0, 0, &s->mr,
                        NULL)))
        return fail(t, "fi_mr_reg", rc);
    s->len = sizeof(s->name);
    if ((rc = fi_getname(&s->ep->fid, s->name, &s->len)))
        return fail(t, "fi_getname", rc);
    return 0;
}

/* Progress both sides until each CQ has given one completion. */
static int complete(struct pair *t)
{
    bool done_a = false, done_b = false;
    while (!done_a || !done_b) {
        struct fid_cq *cqs[2] = {t->a.cq, t->b.cq};
        for (int k = 0; k < 2; k++) {
            struct fi_cq_entry e;
            ssize_t r = fi_cq_read(cqs[k], &e, 1);
            if (r == 1)
                *(k ? &done_b : &done_a) = true;
            else if (r == -FI_EAVAIL) {
                struct fi_cq_err_entry err = {0};
                fi_cq_readerr(cqs[k], &err, 0);
                return fail(t, k ? "the receive's completion" : "the send's completion",
                            err.err);
            } else if (r != -FI_EAGAIN)
                return fail(t, "fi_cq_read", (int)r);
        }
        if (proc_now() > t->deadline) {
            printf("fail no completion in time: the %s never completed\n",
                   !done_a ? "send" : "receive");
            return 1;
        }
    }
    return 0;
}

static int exchange(struct pair *t)
{
    if (open_side(t, &t->a) || open_side(t, &t->b))
        return 1;
    if (fi_av_insert(t->a.av, t->b.name, 1, &t->a.peer, 0, NULL) != 1 ||
        fi_av_insert(t->b.av, t->a.name, 1, &t->b.peer, 0, NULL) != 1) {
        printf("fail fi_av_insert: the peer's address was not taken\n");
        return 1;
    }
    snprintf(t->a.buf, sizeof(t->a.buf), "%s", PAYLOAD);
    int rc = (int)fi_recv(t->b.ep, t->b.buf, sizeof(t->b.buf),
                          t->b.mr ? fi_mr_desc(t->b.mr) : NULL, FI_ADDR_UNSPEC, &t->b.ctx);
    if (rc)
        return fail(t, "fi_recv", rc);
    ssize_t r;
    while ((r = fi_send(t->a.ep, t->a.buf, sizeof(PAYLOAD), t->a.mr ? fi_mr_desc(t->a.mr) : NULL,
                        t->a.peer, &t->a.ctx)) == -FI_EAGAIN && proc_now() < t->deadline) {
        struct fi_cq_entry e;
        (void)fi_cq_read(t->a.cq, &e, 0);   /* progress: rxm and shm need it */
        (void)fi_cq_read(t->b.cq, &e, 0);
    }
    if (r)
        return fail(t, "fi_send", (int)r);
    if (complete(t))
        return 1;
    if (strcmp(t->b.buf, PAYLOAD) != 0) {
        printf("fail the message arrived changed\n");
        return 1;
    }
    printf("ok %s\n", t->info->domain_attr->name ? t->info->domain_attr->name : "-");
    return 0;
}

static void pair_child(void *arg)
{
    const char *provider = arg;
    setenv("FI_UNIVERSE_SIZE", "16", 0);   /* rxm's queues fit a small HCA (path_peer_fi.c) */
    struct pair t = {.fi = fi_api(), .deadline = proc_now() + FI_PAIR_TIMEOUT_S};
    if (!t.fi) {
        printf("fail libfabric.so.1: not installed (apt-get install libfabric1)\n");
        return;
    }
    int rc = fi_rdm_info(t.fi, provider, FI_MSG, &t.info);
    if (rc == -FI_ENODATA)
        printf("fail fi_getinfo: no '%s' provider with RDM endpoints answers here (-61, "
               "FI_ENODATA; 'fi_info -l' lists this node's)\n", provider);
    else if (rc)
        fail(&t, "fi_getinfo", rc);
    if (rc)
        return;
    if ((rc = t.fi->fabric(t.info->fabric_attr, &t.fabric, NULL)))
        fail(&t, "fi_fabric", rc);
    else if ((rc = fi_domain(t.fabric, t.info, &t.domain, NULL)))
        fail(&t, "fi_domain", rc);
    else
        exchange(&t);
    fflush(stdout);
    _exit(0);   /* the provider's objects go with the process */
}

int fi_pair_test(const char *provider, char **message)
{
    struct proc_spec s = {.fn = pair_child, .arg = (void *)provider, .out = PROC_PIPE,
                          .err = PROC_NULL, .die_with_parent = true, .own_group = true};
    char *out = NULL;
    bool timed_out = false;
    int st = proc_capture(&s, FI_PAIR_TIMEOUT_S + 2, 4096, &out, &timed_out);
    out = out ? out : xstrdup("");
    out[strcspn(out, "\n")] = '\0';
    bool ok = st == 0 && !timed_out && strncmp(out, "ok ", 3) == 0 && is_printable(out);
    if (ok)
        *message = xasprintf("%s: an RDM endpoint pair exchanged a message on %s", provider,
                             out + 3);
    else if (timed_out)
        *message = xasprintf("%s: no answer in %.0f s (a provider waiting on its device)",
                             provider, FI_PAIR_TIMEOUT_S + 2);
    else
        *message = xasprintf("%s: %s", provider, *out && is_printable(out) ? out + 5
                             : "the test's process ended without a word");
    free(out);
    return ok ? 0 : 1;
}
