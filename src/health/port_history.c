#include "health/port_history.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The port's history; a new one when `create` and there is room. */
static struct port_history *find(struct port_history *h, size_t *n, size_t max, const char *dev,
                                 int port, bool create)
{
    for (size_t i = 0; i < *n; i++)
        if (h[i].port == port && strcmp(h[i].dev, dev) == 0)
            return &h[i];
    if (!create || *n == max)
        return NULL;
    struct port_history *p = &h[(*n)++];
    memset(p, 0, sizeof(*p));
    snprintf(p->dev, sizeof(p->dev), "%s", dev);
    p->port = port;
    return p;
}

size_t port_history_parse(const char *text, struct port_history *out, size_t max)
{
    size_t n = 0;
    struct strvec lines = {0};
    sv_split(&lines, text ? text : "", "\n");
    for (size_t i = 0; i < lines.n; i++) {
        char kind[8], dev[64];
        int port, used = 0;
        long long a = 0, b = 0;
        int got = sscanf(lines.v[i], "%7s %63s %d %lld %lld%n", kind, dev, &port, &a, &b, &used);
        bool down = got >= 4 && strcmp(kind, "down") == 0;
        bool downed = got == 5 && strcmp(kind, "downed") == 0;
        if ((!down && !downed) || port < 1 || port > 255 || a <= 0 || (downed && b < 0))
            continue;   /* a torn or foreign line */
        /* a reading out of order, or past the room, is left out */
        struct port_history *p = find(out, &n, max, dev, port, false);
        if (downed && p && (p->n == HISTORY_SAMPLES || (p->n && a < p->t[p->n - 1])))
            continue;
        if (!p && !(p = find(out, &n, max, dev, port, true)))
            continue;
        if (down) {
            p->down_since = a;
        } else {
            p->t[p->n] = a;
            p->v[p->n++] = b;
        }
    }
    sv_free(&lines);
    return n;
}

char *port_history_text(const struct port_history *h, size_t n)
{
    struct strvec out = {0};
    for (size_t i = 0; i < n; i++) {
        if (h[i].down_since)
            sv_pushf(&out, "down %s %d %lld", h[i].dev, h[i].port, h[i].down_since);
        for (size_t k = 0; k < h[i].n; k++)
            sv_pushf(&out, "downed %s %d %lld %lld", h[i].dev, h[i].port, h[i].t[k], h[i].v[k]);
    }
    sv_push(&out, "");
    char *text = sv_join(&out, "\n");
    sv_free(&out);
    return text;
}

void port_history_update(struct port_history *h, long long now, bool active, long long downed,
                         const struct flap_rules *r, long *flaps, long long *down_for)
{
    bool seen_down = h->down_since != 0;   /* by the check before */
    if (active)
        h->down_since = 0;
    else if (!h->down_since)
        h->down_since = now;
    *down_for = active ? 0 : now - h->down_since;
    /* Readings older than the window go: a rise between one of them and a
     * later reading may have come before the window (a node not checked
     * for a day), and a healthy node is never called flapping on a guess. */
    size_t first = 0;
    while (first < h->n && h->t[first] <= now - r->window_s)
        first++;
    memmove(h->t, h->t + first, (h->n - first) * sizeof(*h->t));
    memmove(h->v, h->v + first, (h->n - first) * sizeof(*h->v));
    h->n -= first;
    /* A port without link_downed (RoCE on rxe, some Ethernet drivers)
     * counts the downs the checks saw: up at one, down at the next. */
    if (downed < 0)
        downed = (h->n ? h->v[h->n - 1] : 0) + (!active && !seen_down);
    if (h->n == HISTORY_SAMPLES) {   /* full: the oldest goes */
        memmove(h->t, h->t + 1, (h->n - 1) * sizeof(*h->t));
        memmove(h->v, h->v + 1, (h->n - 1) * sizeof(*h->v));
        h->n--;
    }
    h->t[h->n] = now;
    h->v[h->n++] = downed;
    /* The link went down as many times as link_downed rose; a reset (the
     * counter fell) starts again from the lower value. */
    long rises = 0;
    for (size_t k = 1; k < h->n; k++)
        if (h->v[k] > h->v[k - 1])
            rises += (long)(h->v[k] - h->v[k - 1]);
    *flaps = rises;
}
