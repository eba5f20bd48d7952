/* NCCL's example tuner plugin's CSV (nccl_rules.h). */
#include "tune/nccl_rules.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 255   /* the plugin's fgets into char[256] */
#define MAX_RULES 1024

/* NCCL_ALGO's and NCCL_PROTO's names (NCCL's ncclAlgoStr, ncclProtoStr,
 * which it compares without case) and the plugin's for each. */
static const char *const algos[][2] = {
    {"Tree", "tree"}, {"Ring", "ring"}, {"CollnetDirect", "collnet_direct"},
    {"CollnetChain", "collnet_chain"}, {"NVLS", "nvls"}, {"NVLSTree", "nvls_tree"}, {"PAT", "pat"},
};
static const char *const protos[][2] = {{"LL", "ll"}, {"LL128", "ll128"}, {"Simple", "simple"}};
static const char *const colls[] = {"broadcast", "reduce", "allgather", "reducescatter",
                                    "allreduce"};

#define N(a) (sizeof(a) / sizeof(*(a)))

static const char *csv_name(const char *const (*table)[2], size_t n, const char *value)
{
    for (size_t i = 0; value && i < n; i++)
        if (str_ieq(value, table[i][0]) || strcmp(value, table[i][1]) == 0)
            return table[i][1];
    return NULL;
}

const char *nccl_csv_algo(const char *value)
{
    return csv_name(algos, N(algos), value);
}

const char *nccl_csv_proto(const char *value)
{
    return csv_name(protos, N(protos), value);
}

bool nccl_csv_coll(const char *name)
{
    for (size_t i = 0; i < N(colls); i++)
        if (strcmp(name, colls[i]) == 0)
            return true;
    return false;
}

char *nccl_rules_text(const char *header, const struct nccl_rule *rules, size_t n)
{
    char *text;
    size_t len;
    FILE *m = xmemstream_open(&text, &len);
    fprintf(m, "# %s\n# collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks\n",
            header);
    for (size_t i = 0; i < n; i++) {
        if (rules[i].why)
            fprintf(m, "# %s\n", rules[i].why);
        /* Channels -1: NCCL's own count; nodes and ranks -1: any. */
        fprintf(m, "%s,%llu,%llu,%s,%s,-1,-1,-1\n", rules[i].coll, rules[i].min, rules[i].max,
                rules[i].algo, rules[i].proto);
    }
    xmemstream_close(m);
    return text;
}

/* A whole decimal number of the plugin's fields (strtoull/atoi read a
 * prefix and ignore the rest: anything else would be read as something
 * else), at least lo. */
static bool number(const char *s, long long lo, unsigned long long *out)
{
    const char *p = s + (*s == '-');
    if (!*p || strspn(p, "0123456789") != strlen(p))
        return false;
    errno = 0;
    if (*s == '-') {
        long long v = strtoll(s, NULL, 10);
        if (errno || v < lo || v < -1)
            return false;
        *out = (unsigned long long)v;
        return true;
    }
    *out = strtoull(s, NULL, 10);
    return !errno;
}

struct row {
    char coll[16];
    unsigned long long min, max, nodes, ranks, pipe, reg;
};

/* One rule's line (not a comment) into r: 8 to 10 fields without blanks,
 * each as the plugin reads it. NULL, or why not (caller frees). */
static char *parse_row(char *line, size_t lineno, struct row *r)
{
    char *field[11], *save = NULL;
    size_t nf = 0;
    for (char *f = strtok_r(line, ",", &save); f && nf < 11; f = strtok_r(NULL, ",", &save))
        field[nf++] = f;
    if (nf < 8 || nf > 10)
        return xasprintf("line %zu has %zu fields: the plugin takes 8 to 10", lineno, nf);
    /* No blanks: the plugin trims spaces and tabs, never a \r. */
    for (size_t i = 0; i < nf; i++)
        if (!*field[i] || strpbrk(field[i], " \t\r"))
            return xasprintf("line %zu, field %zu '%s': empty or with a blank", lineno, i + 1,
                             field[i]);
    *r = (struct row){.pipe = (unsigned long long)-1, .reg = (unsigned long long)-1};
    unsigned long long chan;
    /* Only the plugin's own spelling: it compares with strcmp. */
    const char *algo = nccl_csv_algo(field[3]), *proto = nccl_csv_proto(field[4]);
    if (!nccl_csv_coll(field[0]))
        return xasprintf("line %zu: '%s' is none of the plugin's collectives (it would "
                         "read allreduce)", lineno, field[0]);
    if (!number(field[1], 0, &r->min) || !number(field[2], 0, &r->max) || r->min > r->max)
        return xasprintf("line %zu: bytes '%s' to '%s' is no range of whole numbers",
                         lineno, field[1], field[2]);
    if (!algo || strcmp(algo, field[3]) != 0)
        return xasprintf("line %zu: '%s' is none of the plugin's algorithms (it would read "
                         "ring)", lineno, field[3]);
    if (!proto || strcmp(proto, field[4]) != 0)
        return xasprintf("line %zu: '%s' is none of the plugin's protocols (it would read "
                         "simple)", lineno, field[4]);
    if (!number(field[5], -1, &chan) || !number(field[6], -1, &r->nodes) ||
        !number(field[7], -1, &r->ranks) || (nf > 8 && !number(field[8], -1, &r->pipe)) ||
        (nf > 9 && !number(field[9], -1, &r->reg)))
        return xasprintf("line %zu: channels, nodes, ranks, pipeline ops and registration "
                         "are whole numbers or -1", lineno);
    snprintf(r->coll, sizeof(r->coll), "%s", field[0]);
    return NULL;
}

/* A later rule for the same calls never matches where an earlier one
 * does: the plugin takes the first. NULL, or why (caller frees). */
static char *overlap(const struct row *rows, size_t nrows, const struct row *r, size_t lineno)
{
    for (size_t i = 0; i < nrows; i++)
        if (strcmp(rows[i].coll, r->coll) == 0 && rows[i].nodes == r->nodes &&
            rows[i].ranks == r->ranks && rows[i].pipe == r->pipe && rows[i].reg == r->reg &&
            rows[i].min <= r->max && r->min <= rows[i].max)
            return xasprintf("line %zu: %s from %llu to %llu bytes overlaps an earlier rule "
                             "(%llu to %llu), which the plugin takes first", lineno, r->coll,
                             r->min, r->max, rows[i].min, rows[i].max);
    return NULL;
}

bool nccl_rules_check(const char *text, char **why)
{
    *why = NULL;
    struct row *rows = xmalloc(MAX_RULES * sizeof(*rows));
    size_t nrows = 0, lineno = 0;
    for (const char *p = text; *p && !*why;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        if (len >= LINE_MAX_BYTES) {
            *why = xasprintf("line %zu is %zu bytes: the plugin reads 255 at most", lineno, len);
            break;
        }
        char line[LINE_MAX_BYTES + 1];
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (nl != NULL);
        if (line[0] == '#' || !line[0])
            continue;
        struct row r;
        if ((*why = parse_row(line, lineno, &r)) || (*why = overlap(rows, nrows, &r, lineno)))
            break;
        if (nrows == MAX_RULES)
            *why = xasprintf("more than %d rules", MAX_RULES);
        else
            rows[nrows++] = r;
    }
    free(rows);
    return !*why;
}
