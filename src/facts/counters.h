/* Port counters: every file of a port's counters/ and hw_counters/ in
 * sysfs, and what each one counts. The table of meanings is the one place
 * that knows which counter is loss, an error, congestion or just traffic:
 * the job's verdict, the path test and the health check all read it. */
#ifndef RDMARUN_COUNTERS_H
#define RDMARUN_COUNTERS_H
#include "util/strvec.h"
#include <stdbool.h>
#include <stddef.h>

enum counter_family {
    COUNTER_TRAFFIC,      /* packets and bytes: expected to grow */
    COUNTER_LOSS,         /* packets lost or retried on the way */
    COUNTER_ERROR,        /* work requests that failed */
    COUNTER_RECEIVER,     /* the receiver had no buffer posted (RNR, out of buffer) */
    COUNTER_CONGESTION,   /* ECN marks, CNPs, waits: congestion control at work */
    COUNTER_LINK,         /* the physical link: symbol errors, retraining, down */
    COUNTER_OTHER,        /* a counter the table does not know */
};
#define COUNTER_FAMILIES 7
extern const char *const counter_family_names[];   /* traffic, loss, error, ... */

/* The family of a counter by its sysfs name, and the words for one unit of
 * it ("packets out of sequence"); unknown counters are COUNTER_OTHER with
 * their name as the words. */
enum counter_family counter_family_of(const char *name);
/* The health check's fault code for a counter that has one of its own
 * (EFA's retransmission timeouts, Cassini's uncorrected codewords), else
 * NULL: its family's. */
const char *counter_fault_code(const char *name);
const char *counter_words(const char *name);
/* Whether an IB PMA counter has reached the top of its width (link_downed
 * is 8 bits: 255): it counts no more until reset (perfquery -R), so its
 * growth can no longer be seen. */
bool counter_saturated(const char *name, long long value);

struct port_counters {
    struct strvec names;
    long long *values;
};

/* Read every counter of DEV port PORT under SYSFS_ROOT (NULL: /sys). A port
 * without counters gives an empty set. */
void port_counters_read(const char *sysfs_root, const char *dev, int port,
                        struct port_counters *out);
void port_counters_free(struct port_counters *c);
/* Every port of the facts, in their order (*n of them), read in a child
 * process given timeout_s: PMA and hw_counters reads are firmware commands,
 * and a wedged HCA holds one for minutes. Past the limit the child is
 * killed (one stuck in the kernel is left), every set is empty and
 * *timed_out is true. */
struct facts;
struct port_counters *port_counters_read_all(const struct facts *f, const char *sysfs_root,
                                             double timeout_s, size_t *n, bool *timed_out);

/* What grew on one port between two readings: names and deltas, in the
 * second reading's order; a counter that shrank (reset) is left out. */
struct counter_growth {
    char *port;           /* "mlx5_0/1" */
    struct strvec names;
    long long *deltas;
    struct strvec saturated;   /* counters stopped at their top: growth unseen */
};
void counters_growth(const char *dev, int port, const struct port_counters *before,
                     const struct port_counters *after, struct counter_growth *out);
void counter_growth_free(struct counter_growth *g);
/* The sum of the growth of one family. */
long long counter_growth_sum(const struct counter_growth *g, enum counter_family family);
/* The growth beyond traffic, in words, "mlx5_0/1: 1,240 packets out of
 * sequence and 37 ACK timeouts: the fabric drops packets (check PFC/ECN on
 * the switch and the NIC)"; NULL when only traffic grew. */
char *counter_growth_words(const struct counter_growth *g);
/* The traffic, "rxe0/1 sent 81,204 packets" or "... 12.5 MiB"; NULL: none. */
char *counter_traffic_words(const struct counter_growth *g);

#endif
