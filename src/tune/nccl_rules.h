/* The CSV of NCCL's example tuner plugin (plugins/tuner/example/plugin.c in
 * NCCL's source; the file NCCL_TUNER_CONFIG_FILE names):
 *   collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]
 * a rule a line, the first that matches a call (min_bytes <= bytes <=
 * max_bytes, its nodes and ranks or -1 for any) wins. The plugin reads a
 * line with fgets into 256 bytes, skips one starting '#' or empty, takes 8
 * to 10 comma-separated fields and turns a name it does not know into
 * allreduce, ring or simple without a word; so what is written is checked
 * here first, as with Open MPI's rules (coll_rules.h). */
#ifndef RDMARUN_TUNE_NCCL_RULES_H
#define RDMARUN_TUNE_NCCL_RULES_H
#include <stdbool.h>
#include <stddef.h>

struct nccl_rule {
    const char *coll;                  /* the plugin's name: allreduce, broadcast, ... */
    unsigned long long min, max;       /* bytes, both included */
    const char *algo, *proto;          /* the plugin's names: ring, ll128 */
    const char *why;                   /* a comment line before it, or NULL */
};

/* The plugin's name of an NCCL_ALGO / NCCL_PROTO value naming one
 * algorithm or protocol ("Ring" -> "ring", "CollnetDirect" ->
 * "collnet_direct", "LL128" -> "ll128"), or NULL (a list, an exclusion,
 * a name the plugin lacks). */
const char *nccl_csv_algo(const char *value);
const char *nccl_csv_proto(const char *value);
/* Whether name is a collective of the plugin's (allreduce, broadcast,
 * reduce, allgather, reducescatter). */
bool nccl_csv_coll(const char *name);
/* The file's text: header comment lines, then the rules. Caller frees. */
char *nccl_rules_text(const char *header, const struct nccl_rule *rules, size_t n);
/* Whether text is a file the plugin reads as written: every line shorter
 * than 256 bytes, each not a comment 8 to 10 fields of names it knows and
 * whole decimal numbers (channels, nodes and ranks >= -1), min <= max, and
 * no rule hidden by an earlier one of the same collective. false with *why
 * (caller frees). */
bool nccl_rules_check(const char *text, char **why);

#endif
