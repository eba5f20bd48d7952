/* What a path test node says of itself and its paths: the records the
 * launch node reads (path_report.c). */
#include "preflight/path_peer_parts.h"
#include "facts/counters.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

void peer_record(const struct peer *p, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *rest = xvasprintf(fmt, ap);
    va_end(ap);
    printf(PATH_TAG "%s r=%d n=%d %s\n", kind, p->rank, p->n, rest);
    fflush(stdout);
    free(rest);
}

/* A value with no spaces, for a record's word. */
char *peer_word(const char *s)
{
    char *w = xstrdup(s && *s ? s : "?");
    for (char *c = w; *c; c++)
        if (*c == ' ' || *c == '\n' || *c == '=')
            *c = '_';
    return w;
}

/* Every IPv4 address of this node, "a,b" ("-": none): the launcher may
 * know the node by any of them. */
char *peer_all_ipv4(void)
{
    struct strvec v = {0};
    struct ifaddrs *ifs, *i;
    if (getifaddrs(&ifs) == 0) {
        for (i = ifs; i; i = i->ifa_next) {
            char a[INET_ADDRSTRLEN];
            if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
                inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, a, sizeof(a)))
                sv_push(&v, a);
        }
        freeifaddrs(ifs);
    }
    char *s = v.n ? sv_join(&v, ",") : xstrdup("-");
    sv_free(&v);
    return s;
}

/* The netdev's IPv4 address and subnet for an IPv4-mapped GID; "-" else. */
static void ipv4_of(const struct gid_entry *g, char **ip, char **subnet)
{
    *ip = xstrdup("-");
    *subnet = xstrdup("-");
    if (!g || !gid_is_ipv4(g))
        return;
    unsigned a, b, c, d;
    size_t len = strlen(g->gid);
    if (len < 9 || sscanf(g->gid + len - 9, "%2x%2x:%2x%2x", &a, &b, &c, &d) != 4)
        return;
    free(*ip);
    *ip = xasprintf("%u.%u.%u.%u", a, b, c, d);
    struct ifaddrs *ifs, *i;
    if (getifaddrs(&ifs) != 0)
        return;
    for (i = ifs; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !i->ifa_netmask)
            continue;
        uint32_t addr = ntohl(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr);
        uint32_t mask = ntohl(((struct sockaddr_in *)i->ifa_netmask)->sin_addr.s_addr);
        if (addr != (a << 24 | b << 16 | c << 8 | d))
            continue;
        uint32_t net = addr & mask;
        free(*subnet);
        *subnet = xasprintf("%u.%u.%u.%u/%d", net >> 24, net >> 16 & 255, net >> 8 & 255,
                            net & 255, __builtin_popcount(mask));
        break;
    }
    freeifaddrs(ifs);
}

static char *vlan_of(const char *ndev)
{
    char path[300];
    snprintf(path, sizeof(path), "/proc/net/vlan/%s", ndev ? ndev : "");
    FILE *f = ndev ? fopen(path, "r") : NULL;
    char line[256];
    char *v = NULL;
    while (f && fgets(line, sizeof(line), f))
        if (strstr(line, "VID:"))
            v = xasprintf("%ld", strtol(strstr(line, "VID:") + 4, NULL, 10));
    if (f)
        fclose(f);
    return v ? v : xstrdup("none");
}

/* This node's record: what it tests on, and the facts compared across nodes. */
void peer_say_pair_failure(const struct peer *p, int to, const char *step, const char *err)
{
    char *w = peer_word(step);
    peer_record(p, "pair", "to=%d ok=0 step=%s err=%s", to, w, err);
    free(w);
}

void peer_say_failure(const struct peer *p, const char *step, const char *err)
{
    char *w = peer_word(step);
    peer_record(p, "fail", "step=%s err=%s", w, err);
    free(w);
}

void peer_say_node(const struct peer *p, const struct facts *f)
{
    const struct rdma_device *d = p->port.dev;
    const struct rdma_port *pt = p->port.port;
    const struct gid_entry *g = NULL;
    for (size_t i = 0; i < pt->ngids; i++)
        if (pt->gids[i].index == p->port.gid_index)
            g = &pt->gids[i];
    bool ib = strcmp(pt->link_layer, "InfiniBand") == 0;
    const char *gtype = ib ? "IB" : !g || !g->type ? "?" : strstr(g->type, "v2") ? "RoCE_v2"
                                                                              : "RoCE_v1";
    char *ip, *subnet;
    ipv4_of(g, &ip, &subnet);
    if (ib && g)
        subnet = (free(subnet), xstrndup(g->gid, 19));   /* the subnet prefix */
    char *netmtu = g && g->ndev ? read_first_line("/sys/class/net/%s/mtu", g->ndev) : NULL;
    char *vlan = vlan_of(g ? g->ndev : NULL);
    struct utsname u;
    uname(&u);
    char *ll = peer_word(pt->link_layer), *fw = peer_word(d->fw_ver);
    char *board = peer_word(d->board_id), *driver = peer_word(d->driver);
    char *host = peer_word(f->hostname), *ucx = peer_word(f->ucx_version);
    char *mpi_name = facts_mpi_library("libmpi.so.40"), *mpi = peer_word(mpi_name);
    char *rc = facts_rdma_core();
    char *memlock = f->limits.memlock_soft == -1 ? xstrdup("unlimited")
                    : f->limits.memlock_soft < 0 ? xstrdup("?")
                    : xasprintf("%lld", f->limits.memlock_soft / 1024);
    char *ips = peer_all_ipv4();
    int mtu = p->ctx ? mtu_bytes(p->attr.active_mtu) : pt->active_mtu;
    peer_record(p, "node",
                "host=%s ip=%s ips=%s dev=%s port=%d state=%s ll=%s mtu=%d netmtu=%s rate=%g "
                "gidx=%d gid=%s gtype=%s subnet=%s vlan=%s lid=%d driver=%s fw=%s board=%s "
                "kernel=%s ucx=%s rdmacore=%s mpi=%s memlock=%s",
                host, ip, ips, d->name, pt->num, pt->state, ll, mtu, netmtu ? netmtu : "-",
                pt->rate_gbps, p->port.gid_index, g ? g->gid : "-", gtype, subnet, vlan, pt->lid,
                driver, fw, board, u.release, ucx, rc ? rc : "?", mpi, memlock);
    free(ip);
    free(ips);
    free(subnet);
    free(netmtu);
    free(vlan);
    free(ll);
    free(fw);
    free(board);
    free(driver);
    free(host);
    free(ucx);
    free(mpi_name);
    free(mpi);
    free(rc);
    free(memlock);
}
