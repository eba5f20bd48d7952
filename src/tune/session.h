/* A tune's run, shared by the files it is split into: session.c (the
 * samples and the run), settings.c, result.c and per_size.c. */
#ifndef RDMARUN_TUNE_SESSION_H
#define RDMARUN_TUNE_SESSION_H
#include "tune/tune.h"
#include "tune/journal.h"
#include "tune/search.h"
#include "util/strvec.h"
#include <regex.h>

#define TUNE_MIN_GAIN 0.02
#define TUNE_ACCEPT_ROUNDS 5

struct session {
    struct tune *t;
    char *self, *expect;
    struct journal_record *old;   /* the journal so far: replayed, not run */
    size_t nold, next;            /* next: the sample the search asks for next */
    int fd;                       /* the journal, to append */
    regex_t re;
    struct strvec bins;           /* the bins, as the base's first run printed them */
    double spent, t0;             /* seconds of runs (replayed ones too); when this run began */
    bool budget_cut;              /* the budget's end stopped a run */
    size_t discarded;
    int error;                    /* why the search was stopped, when it was not the budget */
    unsigned current[TUNE_MAX_KEYS];
    char *note[TUNE_MAX_KEYS];    /* per key: the move that set its value */
    int first;                    /* the status a failed first run of the base gives the tune */
    char *rules;                  /* DIR/coll-rules.txt's absolute path, when one was written */
    char *rules_colls;            /* the collectives it has rules for: "allreduce, bcast" */
    bool rules_key[TUNE_MAX_KEYS]; /* the keys the rules stand for (forced, they would win) */
    char *nccl_rules;             /* DIR/nccl-tuner.csv's absolute path, when one was written */
    char *nccl_plugin;            /* NCCL's example tuner plugin found here, or NULL */
    bool nccl_keys[TUNE_MAX_KEYS]; /* [nccl] ALGO and PROTO: the rules stand for them */
    struct strvec rules_notes;    /* a line per rule: its bin and gain */
};

/* settings.c: DIR/tune.conf written (replaced, never through a link). */
int tune_save_settings(const struct tune *t);
/* settings.c: a configuration as the journal keys it ("0,1"), and as
 * --set words ("ucx.TLS=rc,self ..."). Caller frees. */
char *tune_config_of(const struct tune *t, const unsigned *choice);
char *tune_settings_of(const struct tune *t, const unsigned *choice);
/* result.c: the search's callback when a key moves to a better value; the
 * tuned profile (DIR/tuned.ini) and the summary, each 0 or an RR_EX_ status. */
void tune_moved(const struct tune_search *s, const unsigned *choice,
                const struct paired_gain *gain);
int tune_write_profile(const struct session *x, const struct tune_search *s,
                       const struct facts *f, bool interrupted);
int tune_write_summary(const struct session *x, const struct tune_search *s,
                       const struct facts *f);
/* per_size.c: the per-size rules of Open MPI's tuned collectives and of
 * NCCL's tuner, from the samples of each message size. */
void tune_per_size_rules(struct session *x, struct tune_search *s);
void tune_per_size_nccl(struct session *x, struct tune_search *s);

#endif
