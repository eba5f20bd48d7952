/* A measured bin against the speed-of-light model, for tune's and
 * compare's tables: a bin of the built-in benchmarks is a message size and a
 * time (examples/mpi_pingpong.c's "pingpong size=N": the one-way latency;
 * ucx-pair's "tag_lat size=N" the same, "tag_bw size=N" the time a message
 * takes in a stream of them), which the model gives for the node's fastest
 * port. Collectives' times and other metrics have no figure. */
#include "model/model.h"
#include "facts/facts.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The bin's benchmark and size; false for one the model does not give. */
static bool bin_bench(const char *bin, struct bench *b, double *bytes)
{
    static const struct {
        const char *prefix;
        enum bench_op op;
        int window;
    } kinds[] = {{"pingpong size=", OP_LAT, 1}, {"tag_lat size=", OP_LAT, 1},
                 {"tag_bw size=", OP_BW, 16}};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
        size_t n = strlen(kinds[i].prefix);
        long long size;
        int used = 0;
        if (strncmp(bin, kinds[i].prefix, n) == 0 &&
            sscanf(bin + n, "%lld%n", &size, &used) == 1 && !bin[n + used] && size >= 0) {
            *b = (struct bench){.op = kinds[i].op, .window = kinds[i].window};
            *bytes = (double)size;
            return true;
        }
    }
    return false;
}

double model_bin_light(const struct facts *f, int nodes, const char *bin, double median_us,
                       char *limit, size_t n)
{
    struct bench b;
    double bytes;
    snprintf(limit, n, "the bin is no message size of a benchmark the model knows");
    if (!f || !bin_bench(bin, &b, &bytes) || !(median_us > 0))
        return NAN;
    b.scope = nodes > 1 ? SCOPE_NET : SCOPE_NODE;
    struct node_model m;
    node_model_init(&m);
    node_model_from_facts(&m, f);
    m.nodes = nodes > 1 ? nodes : 1;
    node_model_assume(&m, &b);
    struct sol_figure e;
    model_expect(&m, &b, bytes, &e);
    node_model_free(&m);
    snprintf(limit, n, "%s", e.limit);
    if (e.none)
        return NAN;
    /* the model's time for one message: its latency, or in a stream its size
     * over the bandwidth */
    double model_us = b.op == OP_LAT ? e.lat_us : bytes / (e.gbs * 1e3);
    return model_us / median_us;
}
