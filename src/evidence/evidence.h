/* Evidence: what actually carried a job's traffic, read from the logs the
 * ranks wrote (UCX, NCCL), one parser per log family. The verdict is a pure
 * function of the evidence. */
#ifndef RDMARUN_EVIDENCE_H
#define RDMARUN_EVIDENCE_H
#include "profile/settings.h"
#include "facts/counters.h"
#include "evidence/path_class.h"
#include "util/hashtab.h"
#include "util/strvec.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum path_scope { SCOPE_UNKNOWN, SCOPE_SELF, SCOPE_INTRA, SCOPE_INTER };

/* A class of evidence: one transport configuration (family, peer scope,
 * path, lanes) as any number of processes reported it. The evidence keeps
 * classes and counts, never a line or a process each: memory grows with the
 * distinct classes and hosts, not with the job. The first process that
 * reported a class is kept in full, the next two by name. */
struct observation {
    char *family;            /* "ucx", "nccl", "ompi", "impi" */
    enum path_scope scope;
    enum path_class cls;     /* path_class.h */
    enum path_kind kind;     /* the class's */
    bool selected;           /* a library's choice (NCCL's network, a libfabric
                              * provider), not a path between two processes */
    char *transports;        /* data lanes, "rc_verbs/rxe0:1 tcp/eth0" */
    char *host;              /* the first process: NULL when the line does not say */
    long pid;                /* -1 when unknown */
    char *line;              /* its line, trimmed */
    char *where;             /* file:line */
    unsigned long long count;   /* lines that reported it */
    unsigned long long procs;   /* distinct processes that reported it */
    unsigned long hosts;        /* distinct hosts */
    struct { char *host; long pid; char *where; } also[2];   /* the next processes */
    unsigned nalso;
};

/* A host that reported evidence, and its processes. */
struct ev_host;
/* The processes of one host that reported one class. */
struct ev_pair;
/* A UCX protocol table being read, per process (rows of many processes'
 * tables interleave in mpirun's output). */
struct ev_table;

/* Why there is no verdict (verdict.json's reason_code). */
enum unknown_reason {
    WHY_NONE,                 /* there is a verdict */
    WHY_NO_EVIDENCE,          /* no transport report at all */
    WHY_NO_PEER,              /* one process, a communicator of one rank, self only */
    WHY_ABORTED,              /* the job failed before any peer transport was chosen */
    WHY_RDMA_FAILED,          /* RDMA was chosen and then failed before data moved */
    WHY_SELECTED_ONLY,        /* a library chose a transport; no line shows it used */
    WHY_NO_INTER_NODE,        /* the job spans nodes, the log shows paths within one */
    WHY_NO_DATA_LINES,        /* reports name no transport that carries data */
    WHY_UNKNOWN_NETWORK,      /* traffic between nodes over a network rdmarun cannot class */
};
extern const char *const unknown_reason_names[];

/* The most log families (internal.h's table) a build may have. */
#define EVIDENCE_MAX_FAMILIES 16

struct evidence {
    const char *run;            /* verify of many runs: the run's name, for its JSON */
    struct observation *obs;    /* the classes */
    size_t n, cap;
    struct hashtab class_index; /* class number + 1 by class */
    bool classes_full;          /* past MAX_CLASSES: new lanes merged per (scope, path) */
    struct ev_host *hosts;
    size_t nhosts, hosts_cap;
    struct hashtab host_index;  /* host number + 1 by name */
    bool hosts_full;            /* past MAX_HOSTS: the rest counted as one host */
    struct hashtab pairs;       /* struct ev_pair by (host, class) */
    bool pairs_full;            /* a class's process count is then a lower bound */
    struct hashtab tables;      /* struct ev_table by (host, pid) */
    unsigned long long nprocs;  /* distinct processes (host, pid) that reported */
    unsigned long long lines;   /* lines read */
    unsigned long long reports; /* of them, UCX or NCCL log lines (live: any level) */
    unsigned files;             /* files read */
    bool nccl_no_device;        /* "NET/IB : No device found" */
    char *nccl_no_device_proc;  /* its first line's "process PID on HOST", when it says */
    /* GPUDirect RDMA on NCCL's network channels: "via NET/IB/0/GDRDMA" and
     * channels without it, staged through host memory; whether NCCL found a
     * GDR-capable NIC ("GPU Direct RDMA Enabled for HCA"), and its first
     * line turning GDR off for a GPU ("... Disabled for GPU ... (distance
     * 7 > 4)"). */
    unsigned long nccl_gdr_channels, nccl_staged_channels;
    bool nccl_gdr_capable;
    /* NCCL's graph joins a node's GPUs over NVLink ("type NVL/..." in
     * graph/search.cc's "Pattern %d, crossNic %d, nChannels %d, ..."): its
     * P2P channels are NVLink, and SHM or NET within the node is a lower
     * tier; the first such line. */
    bool nccl_nvlink;
    char *nccl_nvlink_line;
    /* ucx_info -e's endpoint dump (the tool connected to itself). */
    bool ucx_self_dump;
    char *nccl_gdr_off;
    /* Each log family's own parser state (what it has read so far of a
     * benchmark's ends, a help message, a fabtests table), by its index in
     * log_families: made at its first use (evidence_family_state), freed
     * with the evidence. As hwloc's backends keep their backend_data. */
    void *family_state[EVIDENCE_MAX_FAMILIES];
    /* RDMA selected and then failed (NCCL's "Call to ibv_create_qp failed";
     * Open MPI's pml mismatch): no data moved over it. The first such line
     * and where. */
    char *failure, *failure_where;
    /* RDMA that carried sends and then failed (a completion with error on a
     * QP sending to a remote LID or GID, "Transport retry count exceeded"):
     * data moved over it first. */
    char *fault, *fault_where;
    /* A completion's error line whose QP line has not come yet (ucx.c): a
     * fault when it never comes. */
    char *synd, *synd_where;
    /* An error that ends a job (UCX ERROR, MPI_Init or NCCL init failing):
     * with no path between processes, the job aborted before any was chosen. */
    char *error, *error_where;
    /* A process that UCX itself ended (a failed assertion, "Fatal:", a caught
     * signal), whatever the paths were: "process 2382 on n1: ib_device.c:210
     * Assertion ... failed". The job's own output keeps UCX's backtrace. */
    char *abort, *abort_where;
    long nodes;                 /* the most nodes a log says the job spans (NCCL nNodes) */
    long ranks;                 /* the most ranks a communicator says it has (NCCL nRanks) */
    long planned_nodes;         /* the nodes the job's command line or allocation names
                                 * (the supervisor's plan); 0: not told */
    char *listed_host;          /* the first host a rank listing names (ranks.c) */
    bool listed_hosts;          /* and another one: the job spans nodes */
    int tcp_share;              /* percent of a protocol's traffic on TCP, when a table says */
    struct strvec versions;     /* "UCX 1.13.1", "NCCL 2.18.3+cuda12.2", as the logs say */
    /* What the run expected (the plan's expect and its reason), written into
     * verdict.json so that verify and report judge the run by it later;
     * borrowed, NULL when not told. */
    const char *expect, *expect_reason;
    /* The launch node's port counters that grew during the job (borrowed:
     * the supervisor owns them), for verdict.json. */
    const struct counter_growth *counters;
    size_t ncounters;
};

/* The line after what launchers, rank labels and log exporters put in front
 * of it: Open MPI's "[1,26]<stdout>:", "[155] ", srun's "0: ", an exported
 * log's "  | 2025-05-16T16:39:55.218-07:00 | ", a date glued to the line. */
const char *line_body(const char *line);
/* Parse one log line (any family); `host`/`pid` are defaults from the file
 * name, used when the line has no prefix. Returns whether it was evidence. */
bool evidence_parse_line(struct evidence *ev, const char *line, const char *where,
                         const char *host, long pid);
/* Read a file or every file under a directory, streaming line by line (any
 * size, bounded memory: identical observations are counted, not stored
 * again). Returns 0 or an RR_EX_* status. */
int evidence_read(struct evidence *ev, const char *path);
void evidence_free(struct evidence *ev);
/* The file in every directory rdmarun makes for a job (launch/evidence_dir.c):
 * a run directory, HOST.PID.TIME.XXXXXX. */
#define EVIDENCE_DIR_MARK ".rdmarun-evidence"
/* The logs rdmarun writes in a run directory (ucx.log, nccl.log) and the
 * ranks' own (ucx.HOST.PID.log, nccl.HOST.PID.log): all a run directory's
 * files that are read. */
bool evidence_log_name(const char *name);
/* What a run directory's verdict.json says the run expected, set as
 * ev->expect and ev->expect_reason (owned by *expect and *why, freed by the
 * caller); nothing when it does not say. */
void evidence_recorded_expect(const char *dir, struct evidence *ev, char **expect, char **why);
/* Whether a directory is a run directory (holds the mark). */
bool evidence_is_run_dir(const char *path);

/* NCCL's GPUDirect use in words ("NCCL: 8 of 8 network channels use
 * GPUDirect RDMA"), and the warning when GDR was possible but channels were
 * staged through host memory; NULL when no NCCL channel was seen. */
char *nccl_gdr_words(const struct evidence *ev);

/* rdma: the paths between nodes went over a fabric class (named by
 * evidence_class: rdma, efa, cxi, opx, gpudirect-tcp); degraded: NCCL moved
 * data within a node below the tier its own graph shows (shared memory or
 * the NIC where NVLink joins the GPUs). */
enum verdict { VERDICT_RDMA, VERDICT_FALLBACK, VERDICT_LOCAL, VERDICT_UNKNOWN,
               VERDICT_DEGRADED };
/* "rdma", "fallback", "local", "unknown", "degraded" (NULL-terminated), and one of them. */
extern const char *const verdict_names[];
const char *verdict_name(enum verdict v);
enum verdict evidence_verdict(const struct evidence *ev);
/* Why the verdict is unknown (WHY_NONE when it is not). */
enum unknown_reason evidence_why(const struct evidence *ev);
/* The path class the verdict rests on (PC_UNKNOWN without one). */
enum path_class evidence_class(const struct evidence *ev);
/* Whether a verdict resting on class c is what a profile expects: the one
 * judgement the supervisor, compare, verify and report all use. A network
 * expectation (rdma, efa, cxi, opx, gpudirect-tcp, tcp) is met by its own
 * classes between nodes, or by local only (a job within one node never
 * needs the network); local: local only; any: every verdict. No evidence
 * and a degraded tier never meet rdma, tcp or local: an unproven path is
 * not the path expected. */
bool verdict_meets(enum verdict v, enum path_class c, enum expectation e);
/* `rdmarun verify`'s status for a verdict: 0, 80, 81, 82 or 84. */
int verdict_status(enum verdict v);
/* verdict_meets for this evidence: a job without a peer (one process) has
 * nothing to prove and meets every expectation. */
bool evidence_meets(const struct evidence *ev, enum expectation e);
const char *path_kind_name(enum path_kind k);
const char *path_scope_name(enum path_scope s);

/* These processes' QPs as the kernel lists them ('rdma -j res show qp'). */
struct qp_census {
    int rts;               /* RC QPs in RTS; -1 when the kernel cannot be asked */
    struct strvec broken;  /* "rxe0/1 RC QP 17 (pid 4242, app) in ERR": ERR, SQE, SQD */
};
void rdma_res_census(const long *pids, size_t npids, struct qp_census *out);
/* The same from the command's JSON output (NULL: none). */
void rdma_res_parse(const char *json, const long *pids, size_t npids, struct qp_census *out);
/* The pids of the processes on `host` that reported evidence; returns how
 * many, at most max. */
size_t evidence_pids_on(const struct evidence *ev, const char *host, long *pids, size_t max);
/* Files rdmarun writes beside the logs in an evidence directory, which
 * reading a directory skips: verdict.json, placement.txt. */
bool evidence_own_file(const char *name);

/* Why there is no verdict, for people (verify's JSON "reason"). */
char *evidence_reason(const struct evidence *ev);
/* One line for people: "RDMA verified: ..." or "FALLBACK: ...". TCP that
 * meets the evidence's expect (ev->expect: tcp or any) is "TCP, as
 * intended (expect tcp: REASON): ..." or "TCP, as allowed (expect any:
 * ...)", never a FALLBACK. */
char *verdict_summary(const struct evidence *ev, enum verdict v);
void evidence_print_json(const struct evidence *ev, enum verdict v, FILE *out);

#endif
