/* The verdict drawn from the evidence's classes, and its words (its JSON:
 * verdict_json.c).
 * A path counts only when a line shows it between processes (an endpoint,
 * a channel, a btl to a peer, a connection); what a library selected or
 * opened says what would carry traffic between nodes, and decides a verdict
 * only where the log proves the job spans nodes (or stays on one). */
#include "evidence/internal.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

const char *const verdict_names[] = {"rdma", "fallback", "local", "unknown", "degraded", NULL};

const char *const unknown_reason_names[] = {
    "none", "no_evidence", "no_peer", "aborted_before_transport", "rdma_failed",
    "selected_only", "no_inter_node_lines", "no_data_lines", "unknown_network", NULL};

const char *verdict_name(enum verdict v)
{
    return verdict_names[v];
}

const char *path_kind_name(enum path_kind k)
{
    static const char *const names[] = {"self", "shared-memory", "rdma", "tcp", "unknown"};
    return names[k];
}

const char *path_scope_name(enum path_scope s)
{
    static const char *const names[] = {"unknown", "self", "intra-node", "inter-node"};
    return names[s];
}

/* One process whose endpoints are all to itself: ucx_info -e's endpoint is
 * the tool's worker connected to its own address (tools/info/proto_info.c,
 * print_ucp_info: ucp_ep_create with ucp_worker_get_address's address), so
 * none of its lanes reaches a peer, whatever transport it names. */
static bool only_self_dump(const struct evidence *ev)
{
    if (!ev->ucx_self_dump || ev->nprocs > 1 || ev->ranks > 1 || ev->listed_hosts)
        return false;
    for (size_t i = 0; i < ev->n; i++)
        if (ev->obs[i].scope == SCOPE_INTER || ev->obs[i].scope == SCOPE_INTRA)
            return false;
    return true;
}

/* What the classes hold, in the verdict's terms. */
struct seen {
    const struct observation *rdma;        /* a path to a peer over a fabric class */
    const struct observation *tcp_out;     /* over TCP, not known to stay on the node */
    const struct observation *tcp_in;      /* over TCP within the node */
    const struct observation *local;       /* a path to a peer within the node */
    const struct observation *self;        /* a process to itself */
    const struct observation *sel_tcp;     /* a library chose TCP (or no RDMA device) */
    const struct observation *sel_rdma;    /* a library chose a fabric */
    const struct observation *sel_other;   /* a library chose something else */
    const struct observation *other;       /* a path of a kind rdmarun cannot class */
    const struct observation *low_tier;    /* NCCL within a node below NVLink (SHM, NET) */
};

static const struct observation **slot_for(struct seen *s, const struct observation *o,
                                           bool self_dump)
{
    if (o->selected)
        return o->kind == PATH_TCP ? &s->sel_tcp : o->kind == PATH_RDMA ? &s->sel_rdma
                                                                        : &s->sel_other;
    if (o->kind == PATH_SELF || o->scope == SCOPE_SELF || self_dump)
        return &s->self;
    if (o->kind == PATH_UNKNOWN)
        return &s->other;
    /* An MPI library's endpoint within a node over a fabric (UCX's
     * intra-node cfg on rc_verbs when shared memory is off) is the path it
     * chose for those ranks, proven by the device's QPs: RDMA, said "within
     * one node" (fabric_only_within_node). A benchmark pointed at its own
     * host is net-intra (path_class_looped): it names no fabric choice,
     * only an address. */
    if (o->kind == PATH_RDMA)
        return &s->rdma;
    if (o->kind == PATH_TCP)
        return o->scope == SCOPE_INTRA ? &s->tcp_in : &s->tcp_out;
    return &s->local;
}

/* Paths within a node rest on their lowest tier (shared memory under
 * NVLink), whatever the order of the lines; fabric classes on the first in
 * the table's order: the class a verdict names never depends on the order
 * of the log. */
static bool rests_lower(const struct observation *o, const struct observation *than)
{
    int a = path_classes[o->cls].tier, b = path_classes[than->cls].tier;
    return a < b || (a == b && o->cls < than->cls);
}

static struct seen seen_in(const struct evidence *ev)
{
    struct seen s = {0};
    bool self_dump = only_self_dump(ev);
    for (size_t i = 0; i < ev->n; i++) {
        const struct observation *o = &ev->obs[i];
        const struct observation **slot = slot_for(&s, o, self_dump && o->scope != SCOPE_SELF);
        if (!*slot || (slot == &s.local && rests_lower(o, *slot)) ||
            (slot == &s.rdma && o->cls < (*slot)->cls))
            *slot = o;
        int tier = path_classes[o->cls].tier;
        if (!o->selected && tier && tier < path_classes[PC_NVLINK].tier &&
            strcmp(o->family, "nccl") == 0 && !s.low_tier && o->cls != PC_PCIE_P2P)
            s.low_tier = o;
    }
    return s;
}

/* The nodes the log proves: what NCCL counted, or a rank listing's hosts. */
static long nodes_of(const struct evidence *ev)
{
    long listed = ev->listed_hosts ? 2 : ev->listed_host ? 1 : 0;
    return ev->nodes > listed ? ev->nodes : listed;
}

/* A verdict, why there is none, and the path class it rests on. */
struct judged {
    enum verdict v;
    enum unknown_reason why;
    enum path_class cls;
};

static struct judged none_because(enum unknown_reason why)
{
    return (struct judged){VERDICT_UNKNOWN, why, PC_UNKNOWN};
}

/* What paths within one node rest on: TCP there, else the first local
 * class, else shared memory (a library's shm fabric, a one-node job). */
static enum path_class local_class(const struct seen *s)
{
    const struct observation *o = s->tcp_in ? s->tcp_in : s->local ? s->local : s->tcp_out;
    return !o ? PC_SHM : o->kind == PATH_TCP ? PC_TCP : o->cls;
}

/* A node's GPUs that NCCL's graph joins over NVLink, and a channel between
 * them on shared memory or through the NIC: a tier lost within the node. */
static struct judged tiered(const struct evidence *ev, const struct seen *s, enum verdict v,
                            enum path_class cls)
{
    if (ev->nccl_nvlink && s->low_tier)
        return (struct judged){VERDICT_DEGRADED, WHY_NONE, s->low_tier->cls};
    return (struct judged){v, WHY_NONE, cls};
}

/* The truth table (rdmarun(1), VERIFY):
 * - TCP between processes not known to share a node: FALLBACK; so is TCP
 *   chosen for the paths between nodes when no path shows where traffic
 *   went, unless the log shows one node or one rank;
 * - a fabric class on a path to a peer (or chosen, in a job the log puts
 *   on several nodes): RDMA, named by its class;
 * - a fabric chosen and failing before data moved (a QP's first request
 *   included): no verdict;
 * - a path between nodes over a network rdmarun cannot class: no verdict,
 *   never local (a class that crosses nodes is never local);
 * - paths within one node: LOCAL, or DEGRADED below the tier NCCL's graph
 *   shows; a job the log spreads over nodes with only such paths: no verdict;
 * - a process to itself (ucx_info's endpoint included) is never a peer. */
static struct judged judge(const struct evidence *ev)
{
    struct seen s = seen_in(ev);
    long nodes = nodes_of(ev);
    bool one_node = nodes == 1, many_nodes = nodes > 1;
    bool peers = s.local || s.tcp_in || s.tcp_out || s.rdma || s.other || ev->ranks > 1 ||
                 ev->nprocs > 1;
    bool alone = !peers && (ev->ranks == 1 || s.self);
    bool chose_tcp = s.sel_tcp || ev->nccl_no_device;
    bool paths = s.rdma || s.tcp_out || s.tcp_in || s.local || s.other;
    /* The job's own command line or allocation names one node: a library's
     * choice for paths between nodes carries nothing. Never used against a
     * path a line shows (a default hostfile may still spread the ranks). */
    bool planned_one = ev->planned_nodes == 1 && nodes <= 1;
    struct judged fallback = {VERDICT_FALLBACK, WHY_NONE, PC_TCP};
    if (s.tcp_out && !one_node)
        return fallback;
    /* TCP chosen decides where paths do not: none shown, or the job spans
     * nodes and none of them is RDMA */
    if (chose_tcp && !s.rdma && !one_node && !planned_one && !alone &&
        (many_nodes || !paths))
        return fallback;
    /* RDMA chosen for the paths between nodes of a job the log puts on
     * several: the only way its ranks reach each other across nodes. */
    if (s.rdma || (s.sel_rdma && many_nodes && !ev->failure))
        return tiered(ev, &s, VERDICT_RDMA, (s.rdma ? s.rdma : s.sel_rdma)->cls);
    if (ev->failure)
        return none_because(WHY_RDMA_FAILED);
    /* an unclassed network between nodes: never a local verdict */
    if (s.other)
        return none_because(WHY_UNKNOWN_NETWORK);
    bool chose = chose_tcp || s.sel_rdma || s.sel_other;
    if (s.local || s.tcp_in || s.tcp_out || (one_node && peers) || (planned_one && chose && !alone))
        return many_nodes ? none_because(WHY_NO_INTER_NODE)
                          : tiered(ev, &s, VERDICT_LOCAL, local_class(&s));
    if (ev->error)
        return none_because(WHY_ABORTED);
    if (alone || (one_node && !peers))
        return none_because(WHY_NO_PEER);
    if (s.sel_rdma || s.sel_other)
        return none_because(WHY_SELECTED_ONLY);
    return none_because(ev->n || ev->reports ? WHY_NO_DATA_LINES : WHY_NO_EVIDENCE);
}

enum verdict evidence_verdict(const struct evidence *ev)
{
    return judge(ev).v;
}

enum unknown_reason evidence_why(const struct evidence *ev)
{
    return judge(ev).why;
}

enum path_class evidence_class(const struct evidence *ev)
{
    return judge(ev).cls;
}

#define CLASS(c) (1u << (c))
/* The classes between nodes each expectation accepts (rdma: every fabric
 * class that is not TCP by design; local: none, any: all). */
static const unsigned expected_classes[] = {
    [EXPECT_RDMA] = CLASS(PC_RDMA) | CLASS(PC_EFA) | CLASS(PC_CXI) | CLASS(PC_OPX),
    [EXPECT_TCP] = CLASS(PC_TCP),
    [EXPECT_LOCAL] = 0,
    [EXPECT_ANY] = ~0u,
    [EXPECT_EFA] = CLASS(PC_EFA),
    [EXPECT_CXI] = CLASS(PC_CXI),
    [EXPECT_OPX] = CLASS(PC_OPX),
    [EXPECT_GPUDIRECT_TCP] = CLASS(PC_GPUDIRECT_TCP),
};

bool verdict_meets(enum verdict v, enum path_class c, enum expectation e)
{
    if (e == EXPECT_ANY)
        return true;
    switch (v) {
    case VERDICT_LOCAL:   /* a job within one node never needs the network */
        return true;
    case VERDICT_RDMA:
    case VERDICT_FALLBACK:
        return (expected_classes[e] & CLASS(c)) != 0;
    case VERDICT_DEGRADED:
    case VERDICT_UNKNOWN:
        break;
    }
    return false;
}

bool evidence_meets(const struct evidence *ev, enum expectation e)
{
    struct judged j = judge(ev);
    return verdict_meets(j.v, j.cls, e) || j.why == WHY_NO_PEER;
}

int verdict_status(enum verdict v)
{
    static const int status[] = {0, RR_EX_FALLBACK, RR_EX_LOCAL, RR_EX_NO_EVIDENCE,
                                 RR_EX_DEGRADED};
    return status[v];
}

/* The fault a transfer met: a completion's error line that no QP line
 * followed is one too. */
const char *evidence_fault_of(const struct evidence *ev, const char **where)
{
    *where = ev->fault ? ev->fault_where : ev->synd_where;
    return ev->fault ? ev->fault : ev->synd;
}

/* The distinct lanes of the paths between processes of one kind
 * ("rc_verbs/rxe0:1 ..."), only those within one node when intra is set. */
static char *transports_in(const struct evidence *ev, enum path_kind kind, bool intra)
{
    struct strvec v = {0};
    for (size_t i = 0; i < ev->n; i++) {
        const struct observation *o = &ev->obs[i];
        if (o->kind != kind || o->selected || (intra && o->scope != SCOPE_INTRA))
            continue;
        struct strvec items = {0};
        /* UCX lists its lanes with blanks between; a NCCL network's name
         * may hold one ("NET/AWS Libfabric/0") */
        if (strcmp(o->family, "ucx") == 0)
            sv_split(&items, o->transports, " ");
        else
            sv_push(&items, o->transports);
        for (size_t k = 0; k < items.n && v.n < 64; k++)
            if (sv_find(&v, items.v[k]) < 0)
                sv_push(&v, items.v[k]);
        sv_free(&items);
    }
    char *s = v.n ? sv_join(&v, " ") : xstrdup("none");
    sv_free(&v);
    return s;
}

static const char *plural(unsigned long long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* How many processes a class covers, when more than its first: "; 3 of 100001
 * processes on 2 hosts (also process 12 on c02, ...)". */
static char *spread_words(const struct evidence *ev, const struct observation *o)
{
    if (ev->nprocs <= 1)
        return xstrdup("");
    FILE *m;
    char *buf;
    size_t len;
    m = xmemstream_open(&buf, &len);
    fprintf(m, "; %s%llu of %s%llu processes on %lu host%s", ev->pairs_full ? "at least " : "",
            o->procs, ev->hosts_full ? "at least " : "", ev->nprocs, o->hosts,
            plural(o->hosts, "", "s"));
    for (unsigned k = 0; k < o->nalso; k++) {
        char *p = evidence_process_words(o->also[k].host, o->also[k].pid);
        fprintf(m, "%s%s (%s)", k ? ", " : " (also ", p, o->also[k].where);
        free(p);
    }
    if (o->nalso)
        fprintf(m, "%s)", o->procs > o->nalso + 1 ? ", ..." : "");
    xmemstream_close(m);
    return buf;
}

static char *reason_words(const struct evidence *ev, enum unknown_reason why)
{
    struct seen s = seen_in(ev);
    switch (why) {
    case WHY_RDMA_FAILED:
        return xasprintf("no verdict: %s was chosen and then failed, so no data moved over it: "
                         "%s (%s)", s.sel_rdma ? path_classes[s.sel_rdma->cls].label : "RDMA",
                         ev->failure, ev->failure_where);
    case WHY_NO_INTER_NODE:
        return xasprintf("no verdict: the job spans %ld nodes but the log shows only paths "
                         "within a node (hint: NCCL_DEBUG_SUBSYS=INIT,NET prints the network "
                         "channels)", ev->nodes);
    case WHY_ABORTED:
        return xasprintf("no verdict: the job failed before any process chose a path to "
                         "another: %s (%s)", ev->error, ev->error_where);
    case WHY_NO_PEER:
        return xasprintf("no verdict: no peer: %llu process%s with %s, so nothing crossed a "
                         "network or shared memory", ev->nprocs, plural(ev->nprocs, "", "es"),
                         ev->ranks == 1 ? "a communicator of one rank"
                         : ev->ucx_self_dump ? "only paths to itself (ucx_info -e connects the "
                                               "tool to its own worker)"
                                             : "only paths to itself");
    case WHY_SELECTED_ONLY: {
        const struct observation *o = s.sel_rdma ? s.sel_rdma : s.sel_other;
        char *who = evidence_process_words(o->host, o->pid);
        char *out = xasprintf("no verdict: %s selected %s (%s, %s), but no line shows data "
                              "moving between processes over it (hint: UCX_LOG_LEVEL=info and "
                              "NCCL_DEBUG=INFO name each peer's path)", o->family, o->transports,
                              who, o->where);
        free(who);
        return out;
    }
    case WHY_UNKNOWN_NETWORK: {
        char *who = evidence_process_words(s.other->host, s.other->pid);
        char *out = xasprintf("no verdict: %s carried traffic between nodes (%s, %s), over a "
                              "network rdmarun cannot class as RDMA or TCP (hint: the plugin's "
                              "provider line, NCCL_DEBUG_SUBSYS=INIT,NET)", s.other->transports,
                              who, s.other->where);
        free(who);
        return out;
    }
    case WHY_NO_DATA_LINES:
        return xasprintf("no verdict: %llu transport report%s in %llu lines name no path "
                         "between processes", ev->reports, plural(ev->reports, "", "s"),
                         ev->lines);
    case WHY_NO_EVIDENCE:
    case WHY_NONE:
        break;
    }
    return xasprintf("no transport evidence in %llu lines of %u file%s (hint: UCX logs at "
                     "UCX_LOG_LEVEL=info, NCCL at NCCL_DEBUG=INFO)", ev->lines, ev->files,
                     plural(ev->files, "", "s"));
}

char *evidence_reason(const struct evidence *ev)
{
    struct judged j = judge(ev);
    return reason_words(ev, j.why == WHY_NONE ? WHY_NO_EVIDENCE : j.why);
}

/* head: "FALLBACK", or what a run that expected TCP calls it. */
static char *fallback_words(const struct evidence *ev, const struct seen *s, const char *head)
{
    char *rdma = transports_in(ev, PATH_RDMA, false), *out;
    const struct observation *o = s->tcp_out ? s->tcp_out : s->sel_tcp;
    if (!o) {
        out = xasprintf("%s: %s%sNCCL found no RDMA device (NET/IB : No device found) "
                        "and uses sockets between nodes", head, ev->nccl_no_device_proc
                        ? ev->nccl_no_device_proc : "", ev->nccl_no_device_proc ? ": " : "");
        free(rdma);
        return out;
    }
    char *who = evidence_process_words(o->host, o->pid), *spread = spread_words(ev, o);
    if (!s->tcp_out) {
        char nodes[64] = "nothing in the log shows the job on one node";
        if (nodes_of(ev) > 1)
            snprintf(nodes, sizeof(nodes), "the job spans %s%ld nodes",
                     ev->nodes > 1 ? "" : "at least ", nodes_of(ev));
        out = xasprintf("%s: %s selected %s for traffic between nodes (%s, %s), and %s%s",
                        head, o->family, o->transports, who, o->where, nodes, spread);
    } else {
        char *tcp = transports_in(ev, PATH_TCP, false);
        if (s->rdma) {
            char share[80] = "";
            if (ev->tcp_share > 0)
                snprintf(share, sizeof(share), " (%d%% of one protocol's, as UCX's table says)",
                         ev->tcp_share);
            out = xasprintf("%s: %s used %s (%s) beside RDMA lanes %s: part of the "
                            "traffic goes over TCP%s%s", head, who, tcp, o->where, rdma, share, spread);
        } else {
            out = xasprintf("%s: %s used %s (%s)%s", head, who, tcp, o->where, spread);
        }
        free(tcp);
    }
    free(who);
    free(spread);
    free(rdma);
    return out;
}

/* "2 processes", "1 process of 16 ranks" (a log that says more ranks than
 * reported: rank 0's lines only, as MPI libraries print their reports). */
static char *process_count(const struct evidence *ev)
{
    unsigned long long n = ev->nprocs;
    char ranks[48] = "";
    if (ev->ranks > 0 && (unsigned long long)ev->ranks > n)
        snprintf(ranks, sizeof(ranks), " of %ld ranks", ev->ranks);
    return xasprintf("%s%llu process%s%s", ev->hosts_full ? "at least " : "", n,
                     plural(n, "", "es"), ranks);
}

/* Every path over a fabric connects processes of one node (UCX's
 * "intra-node cfg#" lines): the NIC's loopback carried the data, which the
 * verdict says rather than letting "verified" read as between nodes. */
static bool fabric_only_within_node(const struct evidence *ev)
{
    bool any = false;
    for (size_t i = 0; i < ev->n; i++) {
        const struct observation *o = &ev->obs[i];
        if (o->kind != PATH_RDMA || o->selected)
            continue;
        if (o->scope != SCOPE_INTRA)
            return false;
        any = true;
    }
    return any && nodes_of(ev) <= 1;
}

/* "RDMA verified: ..." (its class's words: "EFA (SRD) verified", "GPUDirect-TCPX
 * verified"), or what was chosen for a job the log puts on several nodes. */
static char *fabric_words(const struct evidence *ev, const struct seen *s, const char *procs)
{
    const char *label = path_classes[evidence_class(ev)].label;
    if (!s->rdma)
        return xasprintf("%s: %s selected %s (%s) and the log puts the ranks on %ld nodes, so it "
                         "carried the traffic between them; no TCP lanes (no line names each "
                         "peer's path)", label, s->sel_rdma->family, s->sel_rdma->transports,
                         s->sel_rdma->where, nodes_of(ev));
    char *rdma = transports_in(ev, PATH_RDMA, false), *gdr = nccl_gdr_words(ev);
    const char *fault_where, *fault_line = evidence_fault_of(ev, &fault_where);
    char *fault = fault_line ? xasprintf("; then a transfer over %s failed: %s (%s)", label,
                                         fault_line, fault_where) : NULL;
    char *failed = ev->failure ? xasprintf("; RDMA failed elsewhere before carrying data: "
                                           "%s (%s)", ev->failure, ev->failure_where) : NULL;
    char *out = xasprintf("%s verified: %s%s, lanes %s, no TCP lanes%s%s%s%s", label, procs,
                          fabric_only_within_node(ev) ? " within one node (through the NIC)"
                                                      : "",
                          rdma, gdr ? "; " : "", gdr ? gdr : "", fault ? fault : "",
                          failed ? failed : "");
    free(rdma);
    free(gdr);
    free(fault);
    free(failed);
    return out;
}

static char *local_words(const struct evidence *ev, const struct seen *s, const char *procs)
{
    /* UCX 1.14+ says when TCP (or RDMA) connects ranks of one node: never
     * call that shared memory (a log that puts every rank on one node: all
     * its TCP stays there). */
    char *tcp_in = transports_in(ev, PATH_TCP, nodes_of(ev) != 1);
    char *local = transports_in(ev, PATH_LOCAL, false), *out;
    const struct observation *chose = s->sel_tcp ? s->sel_tcp : s->sel_rdma ? s->sel_rdma
                                                                             : s->sel_other;
    /* A library that chose shared memory for a one-node job (Intel MPI's
     * shm fabric) says what carried it; a network choice, what would. */
    char *would = !chose ? xstrdup("")
                : chose->kind == PATH_LOCAL
                    ? xasprintf("; %s used its %s", chose->family, chose->transports)
                    : xasprintf("; %s's %s is what would carry traffic between nodes",
                                chose->family, chose->transports);
    if (strcmp(tcp_in, "none") != 0)
        out = xasprintf("local only: %s within one node, over TCP (%s), not shared memory; "
                        "no path left the node", procs, tcp_in);
    else if (strcmp(local, "none") != 0)
        out = xasprintf("local only: %s on %s (%s), no path left the node%s", procs,
                        s->local->cls == PC_SHM ? "shared memory"
                                                : path_classes[s->local->cls].label,
                        local, would);
    else
        out = xasprintf("local only: %s, all on one node as %s says%s", procs,
                        nodes_of(ev) == 1 ? "the log" : "the job's command line or allocation",
                        would);
    free(tcp_in);
    free(local);
    free(would);
    return out;
}

static char *degraded_words(const struct evidence *ev, const struct seen *s, const char *procs)
{
    char *who = evidence_process_words(s->low_tier->host, s->low_tier->pid);
    char *out = xasprintf("DEGRADED: %s: NCCL moved data between GPUs of one node over %s (%s, "
                          "%s, %s) although its graph joins them over NVLink (%s) (hint: "
                          "NCCL_P2P_LEVEL, NCCL_P2P_DISABLE and nvidia-smi topo -m; "
                          "NCCL_SHM_DISABLE=1 makes NCCL fail instead)", procs,
                          path_classes[s->low_tier->cls].label, s->low_tier->transports, who,
                          s->low_tier->where, ev->nccl_nvlink_line ? ev->nccl_nvlink_line : "");
    free(who);
    return out;
}

static char *summary_headed(const struct evidence *ev, enum verdict v, const char *fallback_head)
{
    struct seen s = seen_in(ev);
    char *procs = process_count(ev);
    char *out = NULL;
    switch (v) {
    case VERDICT_RDMA:
        out = fabric_words(ev, &s, procs);
        break;
    case VERDICT_FALLBACK:
        out = fallback_words(ev, &s, fallback_head);
        break;
    case VERDICT_LOCAL:
        out = local_words(ev, &s, procs);
        break;
    case VERDICT_DEGRADED:
        out = degraded_words(ev, &s, procs);
        break;
    case VERDICT_UNKNOWN:
        out = evidence_reason(ev);
        break;
    }
    free(procs);
    /* A verdict on the paths stands; a process UCX ended, or that crashed,
     * is said beside it (unknown verdicts name it as the error that ended
     * the job). */
    if (ev->abort && v != VERDICT_UNKNOWN) {
        char *with = xasprintf("%s; then %s (%s)", out, ev->abort, ev->abort_where);
        free(out);
        out = with;
    }
    /* It quotes hosts, lanes and lines of logs from anywhere: shown, never
     * sent to the terminal as escape sequences. */
    char *safe = term_safe(out, strlen(out), 8192);
    free(out);
    return safe;
}

char *verdict_summary(const struct evidence *ev, enum verdict v)
{
    int e = ev->expect ? name_index(expectation_names, ev->expect) : -1;
    if (v != VERDICT_FALLBACK || e < 0 || !evidence_meets(ev, (enum expectation)e))
        return summary_headed(ev, v, "FALLBACK");
    /* TCP that the run meant (expect tcp), or allowed (expect any): said as
     * TCP, never as a fallback. */
    const char *why = ev->expect_reason;
    char *head = xasprintf("TCP, as %s (expect %s%s%s)", e == EXPECT_TCP ? "intended" : "allowed",
                           ev->expect, why && *why ? ": " : "", why ? why : "");
    char *out = summary_headed(ev, v, head);
    free(head);
    return out;
}
