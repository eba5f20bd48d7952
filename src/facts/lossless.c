/* Lossless RoCE as the node configures it, for each RoCE device's netdev:
 * PFC per priority and the DSCP-to-priority map from DCB netlink, read
 * through iproute2's 'dcb -j' as an admin would (argv, time limit); ECN per
 * priority from the driver's sysfs (mlx5: ecn/roce_np|roce_rp/enable/P);
 * rdma_cm's default RoCE mode and ToS per port from configfs. What cannot
 * be read stays unknown (-1, NULL). */
#include "facts/internal.h"
#include "util/fs.h"
#include "facts/lossless.h"
#include "util/proc.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DCB_TIMEOUT_S 2.0
#define DCB_MAX_BYTES (64 * 1024)
#define PRIOS 8

int lossless_parse_pfc(const char *text)
{
    json_object *root = text ? json_tokener_parse(text) : NULL, *a;
    int mask = -1;
    if (root && json_object_object_get_ex(root, "prio_pfc", &a) &&
        json_object_is_type(a, json_type_array) && json_object_array_length(a) == PRIOS) {
        mask = 0;
        for (int p = 0; p < PRIOS; p++) {
            json_object *on = json_object_array_get_idx(a, (size_t)p);
            if (!json_object_is_type(on, json_type_boolean)) {
                mask = -1;
                break;
            }
            if (json_object_get_boolean(on))
                mask |= 1 << p;
        }
    }
    json_object_put(root);
    return mask;
}

char *lossless_parse_dscp_prio(const char *text)
{
    json_object *root = text ? json_tokener_parse(text) : NULL, *a;
    if (!root || !json_object_is_type(root, json_type_object)) {
        json_object_put(root);
        return NULL;
    }
    struct strvec map = {0};
    if (json_object_object_get_ex(root, "dscp_prio", &a) &&
        json_object_is_type(a, json_type_array))
        for (size_t i = 0; i < json_object_array_length(a); i++) {
            json_object *e = json_object_array_get_idx(a, i);
            if (!json_object_is_type(e, json_type_array) || json_object_array_length(e) < 2)
                continue;
            int dscp = json_object_get_int(json_object_array_get_idx(e, 0));
            int prio = json_object_get_int(json_object_array_get_idx(e, 1));
            if (dscp >= 0 && dscp < 64 && prio >= 0 && prio < PRIOS)
                sv_pushf(&map, "%d:%d", dscp, prio);
        }
    json_object_put(root);
    char *out = sv_join(&map, ",");
    sv_free(&map);
    return out;
}

int lossless_dscp_priority(const char *map, int dscp)
{
    if (!map)
        return -1;
    if (!*map)
        return -2;
    for (const char *p = map; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        int d, prio;
        if (sscanf(p, "%d:%d", &d, &prio) == 2 && d == dscp)
            return prio;
    }
    /* trusting DSCP, this one unmapped: the kernel's default, its class selector */
    return dscp >> 3;
}

/* `dcb -j WHAT show dev NETDEV` (live), or its recorded output
 * (DIR/dcb-WHAT-NETDEV.json); NULL when it fails: no DCB netlink in the
 * driver, no dcb tool, no permission. */
static char *dcb_output(const char *dir, const char *what, const char *netdev)
{
    if (dir) {
        char *path = xasprintf("%s/dcb-%s-%s.json", dir, what, netdev);
        FILE *f = open_input(path);
        free(path);
        if (!f)
            return NULL;
        char *text = xcalloc(DCB_MAX_BYTES + 1, 1);
        size_t n = fread(text, 1, DCB_MAX_BYTES, f);
        text[n] = '\0';
        fclose(f);
        return text;
    }
    char *const argv[] = {"dcb", "-j", (char *)what, "show", "dev", (char *)netdev, NULL};
    return proc_stdout(argv, DCB_TIMEOUT_S, DCB_MAX_BYTES);
}

/* Bit P set when DIR/P reads 1; -1 when the directory has no priority files. */
static int ecn_mask(const char *sysfs, const char *netdev, const char *side)
{
    int mask = -1;
    for (int p = 0; p < PRIOS; p++) {
        char *v = read_first_line("%s/class/net/%s/ecn/%s/enable/%d", sysfs, netdev, side, p);
        if (v) {
            if (mask < 0)
                mask = 0;
            if (strcmp(v, "1") == 0)
                mask |= 1 << p;
        }
        free(v);
    }
    return mask;
}

static void read_rdma_cm(struct rdma_device *d, const char *sysfs)
{
    for (size_t j = 0; j < d->nports; j++) {
        struct rdma_port *p = &d->ports[j];
        const char *dir = "%s/kernel/config/rdma_cm/%s/ports/%d/%s";
        p->roce_mode = read_first_line(dir, sysfs, d->name, p->num, "default_roce_mode");
        char *tos = read_first_line(dir, sysfs, d->name, p->num, "default_roce_tos");
        long v;
        if (tos && parse_long(tos, 0, 255, &v))
            p->roce_tos = (int)v;
        free(tos);
    }
}

static bool has_ethernet_port(const struct rdma_device *d)
{
    for (size_t j = 0; j < d->nports; j++)
        if (strcmp(d->ports[j].link_layer, "Ethernet") == 0)
            return true;
    return false;
}

void facts_read_lossless(struct facts *f, const char *sysfs, const char *dcb_dir)
{
    for (size_t i = 0; i < f->ndevs; i++) {
        struct rdma_device *d = &f->devs[i];
        if (!has_ethernet_port(d))
            continue;   /* InfiniBand is lossless by credits: nothing to configure */
        read_rdma_cm(d, sysfs);
        if (!d->netdevs || !d->netdevs[0])
            continue;
        const char *nd = d->netdevs[0];
        d->ecn_np_prios = ecn_mask(sysfs, nd, "roce_np");
        d->ecn_rp_prios = ecn_mask(sysfs, nd, "roce_rp");
        char *pfc = dcb_output(dcb_dir, "pfc", nd);
        d->pfc_prios = lossless_parse_pfc(pfc);
        free(pfc);
        char *app = d->pfc_prios >= 0 ? dcb_output(dcb_dir, "app", nd) : NULL;
        d->dscp_prio = lossless_parse_dscp_prio(app);
        free(app);
    }
}
