/* Open MPI coll/tuned rules files (coll_rules.h). */
#include "tune/coll_rules.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* coll/tuned's collectives (its coll_tuned_NAME_algorithm parameters) and
 * their COLLTYPE ids; the neighbourhood ones and the v/w variants it has no
 * rules for are not here. */
static const struct {
    const char *name;
    int id;
} collectives[] = {
    {"allgather", 0}, {"allgatherv", 1}, {"allreduce", 2}, {"alltoall", 3}, {"alltoallv", 4},
    {"barrier", 6}, {"bcast", 7}, {"exscan", 8}, {"gather", 9}, {"reduce", 11},
    {"reduce_scatter", 12}, {"reduce_scatter_block", 13}, {"scan", 14}, {"scatter", 15},
};

int coll_id(const char *name)
{
    for (size_t i = 0; i < sizeof(collectives) / sizeof(*collectives); i++)
        if (strcmp(collectives[i].name, name) == 0)
            return collectives[i].id;
    return -1;
}

char *coll_rules_text(const char *header, const struct coll_block *blocks, size_t n)
{
    char *text;
    size_t len;
    FILE *m = xmemstream_open(&text, &len);
    /* No comment before the first number could be a version header: the
     * version-1 format has none, and 4.1.8 and 5.0.7+ look for one at byte 0. */
    fprintf(m, "%zu # collectives\n# %s\n", n, header);
    for (int id = 0; id < COLL_COUNT; id++)
        for (size_t b = 0; b < n; b++) {
            if (coll_id(blocks[b].name) != id)
                continue;
            fprintf(m, "%d # collective: %s\n"
                       "1 # communicator sizes (one block serves every size)\n1\n"
                       "%zu # message sizes\n", id, blocks[b].name, blocks[b].n);
            for (size_t i = 0; i < blocks[b].n; i++)
                fprintf(m, "%llu %ld 0 0 # %s\n", blocks[b].rules[i].from, blocks[b].rules[i].alg,
                        blocks[b].rules[i].why ? blocks[b].rules[i].why : "");
        }
    xmemstream_close(m);
    return text;
}

/* The next number of the text as Open MPI reads them (fscanf %li over
 * anything else, '#' to the end of the line); false at the end. Only
 * plain decimal numbers are ours: anything else is an error here. */
static bool next_number(const char **p, long long *out, char **why)
{
    const char *s = *p;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '#') {
            while (*s && *s != '\n')
                s++;
            continue;
        }
        break;
    }
    if (!*s) {
        *p = s;
        return false;
    }
    if (!isdigit((unsigned char)*s) || (*s == '0' && isdigit((unsigned char)s[1]))) {
        *why = xasprintf("'%.20s' is not a plain decimal number", s);
        *p = s;
        return false;
    }
    errno = 0;
    char *end;
    *out = strtoll(s, &end, 10);
    if (errno || (*end && !isspace((unsigned char)*end) && *end != '#')) {
        *why = xasprintf("'%.20s' is not a plain decimal number", s);
        *p = s;
        return false;
    }
    *p = end;
    return true;
}

/* The next number of the rules into *x, or *why (the number's own fault,
 * else that the file ends before `what`). */
static bool need(const char **p, long long *x, const char *what, char **why)
{
    if (next_number(p, x, why))
        return true;
    if (!*why)
        *why = xasprintf("the file ends before %s", what);
    return false;
}

/* One communicator size's message sizes: each rule from 0 bytes up, its
 * algorithm one this Open MPI has for collective colid. */
static bool check_msg_rules(const char **p, long long colid, long long comsize,
                            const long max_alg[COLL_COUNT], char **why)
{
    long long nmsg, v[4], last = -1;
    if (!need(p, &nmsg, "the number of message sizes", why))
        return false;
    if (nmsg < 1) {
        *why = xasprintf("communicator size %lld has %lld message sizes", comsize, nmsg);
        return false;
    }
    for (long long r = 0; r < nmsg; r++) {
        for (int i = 0; i < 4; i++)
            if (!need(p, &v[i], "a rule's four numbers", why))
                return false;
        if ((r == 0 && v[0] != 0) || (r > 0 && v[0] <= last)) {
            *why = xasprintf(r == 0 ? "the first rule starts at %lld bytes, not 0"
                                    : "message size %lld is not above the one before", v[0]);
            return false;
        }
        if (v[1] > max_alg[colid]) {
            *why = xasprintf("algorithm %lld for collective %lld: this Open MPI's are 0 to %ld",
                             v[1], colid, max_alg[colid]);
            return false;
        }
        last = v[0];
    }
    return true;
}

/* One collective: an id coll/tuned takes, once, and its communicator sizes
 * in ascending order. */
static bool check_coll(const char **p, bool seen[COLL_COUNT], const long max_alg[COLL_COUNT],
                       char **why)
{
    long long colid, ncom, comsize, last_com = -1;
    if (!need(p, &colid, "a collective's id", why))
        return false;
    if (colid >= COLL_COUNT || colid == 5 || colid == 10 || colid == 16) {
        *why = xasprintf("collective id %lld: coll/tuned takes ids below %d but 5, 10, 16",
                         colid, COLL_COUNT);
        return false;
    }
    if (seen[colid]) {
        *why = xasprintf("collective id %lld twice: Open MPI keeps only one", colid);
        return false;
    }
    seen[colid] = true;
    if (!need(p, &ncom, "the number of communicator sizes", why))
        return false;
    if (ncom < 1) {
        *why = xasprintf("collective %lld has %lld communicator sizes", colid, ncom);
        return false;
    }
    for (long long k = 0; k < ncom; k++) {
        if (!need(p, &comsize, "a communicator size", why))
            return false;
        if (comsize <= last_com) {
            *why = xasprintf("communicator size %lld after %lld: not ascending", comsize,
                             last_com);
            return false;
        }
        last_com = comsize;
        if (!check_msg_rules(p, colid, comsize, max_alg, why))
            return false;
    }
    return true;
}

bool coll_rules_check(const char *text, const long max_alg[COLL_COUNT], char **why)
{
    const char *p = text;
    *why = NULL;
    long long ncoll, extra;
    bool seen[COLL_COUNT] = {false};
    if (!need(&p, &ncoll, "the number of collectives", why))
        return false;
    if (ncoll < 1 || ncoll > COLL_COUNT) {
        *why = xasprintf("%lld collectives: Open MPI takes 1 to %d", ncoll, COLL_COUNT);
        return false;
    }
    for (long long c = 0; c < ncoll; c++)
        if (!check_coll(&p, seen, max_alg, why))
            return false;
    if (next_number(&p, &extra, why) || *why) {
        if (!*why)
            *why = xasprintf("a number after the last rule: %lld", extra);
        return false;
    }
    return true;
}
