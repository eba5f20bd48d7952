/* Shared by the log parsers. */
#ifndef RDMARUN_EVIDENCE_INTERNAL_H
#define RDMARUN_EVIDENCE_INTERNAL_H
#include "evidence/evidence.h"
#include "evidence/pidset.h"
#include "util/strvec.h"
#include <stdint.h>

/* Host and pid from a line's own prefix ("[ts] [host:pid:tid]" for UCX,
 * "host:pid:tid [rank] NCCL" for NCCL), else the defaults. */
struct line_origin {
    char *host;
    long pid;
};
void line_origin(const char *line, const char *host, long pid, struct line_origin *o);
/* Note that RDMA was chosen and then failed (the first one is kept). */
void evidence_failed(struct evidence *ev, const char *line, const char *where);
/* Note that RDMA carried sends and then failed (the first one is kept). */
void evidence_fault(struct evidence *ev, const char *line, const char *where);
/* Hold a completion's error line until its QP line says whether data moved
 * (the latest is held). */
void evidence_synd(struct evidence *ev, const char *line, const char *where);
/* Note an error that ends the job (the first one is kept). */
void evidence_error(struct evidence *ev, const char *line, const char *where);
/* Note a process UCX itself ended (the first one is kept). */
void evidence_abort(struct evidence *ev, const char *line, const char *where);
/* UCX's own end of a process in a line's body: its message, or NULL (ucx.c). */
const char *ucx_fatal_message(const char *body);
/* Note the version a log names, once: "UCX 1.13.1". */
void evidence_version(struct evidence *ev, const char *family, const char *version, size_t len);
/* Record that a process used a path to a peer, or count it again. */
void evidence_add(struct evidence *ev, const char *family, const char *host, long pid,
                  enum path_scope scope, enum path_class cls, const char *transports,
                  const char *line, const char *where);
/* "process 4242 on c11" ("a process on c11" without a pid), for reports. */
char *evidence_process_words(const char *host, long pid);
/* The fault a transfer met (a completion's error line that no QP line
 * followed is one too), and *where it was said; NULL when none. */
const char *evidence_fault_of(const struct evidence *ev, const char **where);
/* Record a library's choice of transport (no peer named): what would carry
 * the traffic between nodes, not proof that it did. */
void evidence_selected(struct evidence *ev, const char *family, const char *host, long pid,
                       enum path_class cls, const char *what, const char *line,
                       const char *where);

struct ev_host {
    char *name;              /* NULL: lines that did not say */
    struct pidset procs;
};
/* The key of an entry of tally.c's open-addressed arrays: a host's number
 * + 1 (0: a free slot) and a class number + 1 or a pid. */
struct ev_slot {
    uint32_t host;
    long key;
};
struct ev_pair {
    struct ev_slot at;       /* (host, class) */
    struct pidset procs;
};
struct ev_table {
    struct ev_slot at;       /* (host, pid) */
    enum path_scope scope;   /* the header's */
    bool rows;               /* rows read since the header */
};
/* This process's open protocol table, made when `create`; NULL when none. */
struct ev_table *evidence_table(struct evidence *ev, const char *host, long pid, bool create);
/* Free what tally.c keeps (evidence_free's part). */
void evidence_tally_free(struct evidence *ev);
/* The process's table ended (its closing border). */
void evidence_table_end(struct evidence *ev, const char *host, long pid);

/* A log family: one file of parsers (ucx.c, nccl.c) and one row in
 * families.c. Adding a family is adding both. */
struct log_family {
    const char *name;   /* also the start of its log files' names: NAME.HOST.PID.log */
    /* Cheap: whether the line may hold this family's evidence (most lines
     * of a large log are skipped on this alone). */
    bool (*wanted)(const char *line);
    /* Record what the line says; whether it was evidence. host and pid are
     * the defaults from the file's name. */
    bool (*parse)(struct evidence *ev, const char *line, const char *where, const char *host,
                  long pid);
    /* The live filter (stream.c) offers a job's line to it as another
     * family's report: not UCX and NCCL (their own levels decide), not a
     * pasted benchmark's (a job's own lines of numbers are not reports). */
    bool live_other;
    /* The family's parser state, kept in its own file: made zeroed (NULL:
     * the family keeps none), and freed with what it holds. */
    void *(*state_new)(void);
    void (*state_free)(void *state);
};
extern const struct log_family log_families[];
extern const size_t nlog_families;
/* The families, in log_families' order. */
enum log_family_id { FAMILY_UCX, FAMILY_NCCL, FAMILY_OMPI, FAMILY_IMPI, FAMILY_RANKS,
                     FAMILY_LIBFABRIC, FAMILY_MVAPICH, FAMILY_PSM3, FAMILY_MPICH,
                     FAMILY_PERFTEST };
/* Family id's parser state in ev (zeroed at its first use). */
void *evidence_family_state(struct evidence *ev, enum log_family_id id);
/* Every family's state freed (evidence_free). */
void evidence_family_state_free(struct evidence *ev);

/* A libfabric provider's class ("efa", "tcp;ofi_rxm" tcp, "shm"). */
enum path_class provider_class(const char *prov, size_t len);

/* The families' parser states (state_new, state_free in log_families). */
void *nccl_state_new(void);
void *ompi_state_new(void);
void *impi_state_new(void);
void impi_state_free(void *state);
void *libfabric_state_new(void);
void libfabric_state_free(void *state);
void *bench_state_new(void);

bool ucx_wanted(const char *line);
bool ucx_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                    long pid);
bool nccl_wanted(const char *line);
bool nccl_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid);
bool ompi_wanted(const char *line);
bool ompi_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid);
bool ranks_wanted(const char *line);
bool ranks_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                      long pid);
/* A listing places a rank on this host (ranks.c). */
void evidence_rank_host(struct evidence *ev, const char *host);
bool libfabric_wanted(const char *line);
bool libfabric_parse_line(struct evidence *ev, const char *line, const char *where,
                          const char *host, long pid);
bool mvapich_wanted(const char *line);
bool mvapich_parse_line(struct evidence *ev, const char *line, const char *where,
                        const char *host, long pid);
bool bench_wanted(const char *line);
bool bench_parse_line(struct evidence *ev, const char *line, const char *where,
                      const char *host, long pid);
bool psm3_wanted(const char *line);
bool psm3_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid);
bool mpich_wanted(const char *line);
bool mpich_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                      long pid);
bool impi_wanted(const char *line);
bool impi_parse_line(struct evidence *ev, const char *line, const char *where, const char *host,
                     long pid);

#endif
