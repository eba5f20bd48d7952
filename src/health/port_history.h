/* A port's history between health checks, kept in a state file: when it
 * was first seen down, and its link_downed counter over a window, so that
 * a link that drops and comes back between two checks (a flap) and a link
 * that stays down (a drop) are told apart from a port that is merely down
 * now. The rules are gpud's (a flap: the link went down and back at least
 * `count` times within `window`; dropped: down for `drop_after` or more).
 * A port without link_downed counts the downs the checks saw instead. */
#ifndef RDMARUN_PORT_HISTORY_H
#define RDMARUN_PORT_HISTORY_H
#include <stdbool.h>
#include <stddef.h>

#define HISTORY_SAMPLES 256   /* link_downed readings kept per port */

struct port_history {
    char dev[64];
    int port;
    long long down_since;       /* when first seen down, Unix time; 0: up */
    size_t n;                   /* link_downed readings in the window, oldest first */
    long long t[HISTORY_SAMPLES], v[HISTORY_SAMPLES];
};

struct flap_rules {
    long long window_s, drop_after_s;
    long count;
};

/* The state file's text: "down DEV PORT SINCE" and "downed DEV PORT TIME
 * VALUE" lines. A line that is not one of those (a torn write, junk) is
 * skipped; at most `max` ports. Returns the ports read. */
size_t port_history_parse(const char *text, struct port_history *out, size_t max);
/* The text of `n` ports' histories, to write back. Caller frees. */
char *port_history_text(const struct port_history *h, size_t n);

/* One reading at `now`: the port's state (active or not) and its
 * link_downed (-1: not counted: the downs checks saw are). Updates h and
 * says what the rules find: *flaps, the times the link went down within the
 * window,
 * *down_for, seconds it has been down (0: up). */
void port_history_update(struct port_history *h, long long now, bool active, long long downed,
                         const struct flap_rules *r, long *flaps, long long *down_for);

#endif
