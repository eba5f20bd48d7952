/* What saved facts (probe --json) may hold, checked before a value is
 * read: a type, a range, a length for every field rdmarun reads, so that
 * "cores": "two", -5 cores, 1e300 PUs or a 50 MB hostname are refused with
 * their JSON path rather than planned as unknown. Fields rdmarun does not
 * read are left alone (a newer probe may add some). */
#include "facts/findings.h"
#include "facts/internal.h"
#include "util/msg.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum ftype {
    F_INT,     /* a whole number in [min, max], or null */
    F_NUM,     /* a number in [min, max], or null */
    F_STR,     /* printable text of at most max bytes, or null */
    F_BOOL,    /* true, false, or null */
    F_MEMLOCK, /* a whole number >= 0, "unlimited", or null */
    F_OBJ,     /* an object: its fields in `fields` */
    F_OBJS,    /* an array of at most max objects, each of `fields` */
    F_STRS,    /* an array of at most max strings of printable text, or null */
    F_INTS,    /* an array of at most 4096 whole numbers in [min, max], or null */
    F_COUNTS,  /* an object of at most max whole numbers >= 0, each named by
                * printable text of at most NAME bytes (a port's counters) */
};

struct field {
    const char *name;
    enum ftype type;
    long long min, max;
    const struct field *fields;   /* F_OBJ, F_OBJS; ends with a NULL name */
};

#define BIG (1LL << 40)
#define PUS (1LL << 20)   /* more than any machine's PUs, cores or packages */
#define NAME 256          /* a device, a hostname, a driver */
#define LIST (1 << 20)    /* a CPU list of a million PUs, written out */
#define END {NULL, F_INT, 0, 0, NULL}

static const struct field gid[] = {
    {"index", F_INT, 0, 65535, NULL}, {"gid", F_STR, 0, 64, NULL},
    {"type", F_STR, 0, 64, NULL},     {"ndev", F_STR, 0, NAME, NULL},
    END,
};
static const struct field port[] = {
    {"port", F_INT, 1, 255, NULL},          {"state", F_STR, 0, 64, NULL},
    {"phys_state", F_STR, 0, 64, NULL},     {"link_layer", F_STR, 0, 64, NULL},
    {"rate", F_STR, 0, 128, NULL},          {"rate_gbps", F_NUM, 0, MAX_PORT_RATE_GBPS, NULL},
    {"active_mtu", F_INT, 0, 65536, NULL},  {"max_mtu", F_INT, 0, 65536, NULL},
    {"lid", F_INT, -1, 65535, NULL},        {"sm_lid", F_INT, -1, 65535, NULL},
    {"counters", F_COUNTS, 0, MAX_PORT_COUNTERS, NULL},
    {"gids", F_OBJS, 0, 4096, gid},
    {"roce_mode", F_STR, 0, 64, NULL},      {"roce_tos", F_INT, -1, 255, NULL},
    {"pkeys", F_STRS, 0, 6, NULL},
    END,
};
static const struct field pcie[] = {
    {"speed_gts", F_NUM, 0, 1000, NULL},     {"width", F_INT, 0, 64, NULL},
    {"max_speed_gts", F_NUM, 0, 1000, NULL}, {"max_width", F_INT, 0, 64, NULL},
    {"gbytes", F_NUM, 0, 100000, NULL},
    END,
};
static const struct field lossless[] = {
    {"pfc", F_INTS, 0, 7, NULL},   {"ecn_np", F_INTS, 0, 7, NULL},
    {"ecn_rp", F_INTS, 0, 7, NULL}, {"dscp_prio", F_STR, 0, 4096, NULL},
    END,
};
static const struct field device[] = {
    {"name", F_STR, 0, NAME, NULL},        {"driver", F_STR, 0, NAME, NULL},
    {"fw_ver", F_STR, 0, NAME, NULL},      {"node_guid", F_STR, 0, 64, NULL},
    {"board_id", F_STR, 0, NAME, NULL},    {"pci_busid", F_STR, 0, 64, NULL},
    {"pci_id", F_STR, 0, 16, NULL},
    {"numa_node", F_INT, -1, MAX_NUMA_NODES - 1, NULL},
    {"local_numa", F_STR, 0, LIST, NULL},  {"local_cpus", F_STR, 0, LIST, NULL},
    {"pcie", F_OBJ, 0, 0, pcie},           {"netdevs", F_STRS, 0, NAME, NULL},
    {"transports", F_STRS, 0, NAME, NULL}, {"lossless", F_OBJ, 0, 0, lossless},
    {"irqs", F_STRS, 0, LIST, NULL},       {"dmabuf", F_BOOL, 0, 0, NULL},
    {"ports", F_OBJS, 0, 255, port},
    END,
};
static const struct field numa[] = {
    {"os_index", F_INT, 0, MAX_NUMA_NODES - 1, NULL}, {"cpus", F_STR, 0, LIST, NULL},
    {"cores", F_INT, 0, PUS, NULL},                   {"pus", F_INT, 0, PUS, NULL},
    {"core_pus", F_STRS, 0, LIST, NULL},              {"distances", F_INTS, 0, 65535, NULL},
    {"bandwidth_mibs", F_NUM, 0, FACTS_MAX_MEM_MIBS, NULL},
    END,
};
static const struct field cpu[] = {
    {"governors", F_STRS, 0, NAME, NULL}, {"idle_states", F_STRS, 0, LIST, NULL},
    END,
};
static const struct field host[] = {
    {"packages", F_INT, 0, PUS, NULL},       {"cores", F_INT, 0, PUS, NULL},
    {"pus", F_INT, 0, PUS, NULL},            {"numa_nodes", F_OBJS, 0, MAX_NUMA_NODES, numa},
    {"cpu", F_OBJ, 0, 0, cpu},
    END,
};
static const struct field gpu[] = {
    {"name", F_STR, 0, NAME, NULL},          {"pci_busid", F_STR, 0, 64, NULL},
    {"pci_id", F_STR, 0, 16, NULL},
    {"vendor", F_STR, 0, NAME, NULL},        {"numa_node", F_INT, -1, MAX_NUMA_NODES - 1, NULL},
    {"nic_paths", F_STRS, 0, NAME, NULL},    {"acs_redirect", F_STRS, 0, LIST, NULL},
    {"bar1_mib", F_INT, -1, BIG, NULL},      {"nvlink_peers", F_INT, -1, BIG, NULL},
    END,
};
static const struct field netif[] = {
    {"name", F_STR, 0, NAME, NULL}, {"ipoib", F_BOOL, 0, 0, NULL},
    END,
};
static const struct field modules[] = {
    {"ib_uverbs", F_BOOL, 0, 0, NULL},    {"nvidia_peermem", F_BOOL, 0, 0, NULL},
    {"rdma_rxe", F_BOOL, 0, 0, NULL},     {"vmw_pvrdma", F_BOOL, 0, 0, NULL},
    END,
};
static const struct field limits[] = {
    {"memlock_soft", F_MEMLOCK, 0, INT64_MAX, NULL},
    {"memlock_hard", F_MEMLOCK, 0, INT64_MAX, NULL},
    {"hugepages_total", F_INT, 0, BIG, NULL}, {"hugepages_free", F_INT, 0, BIG, NULL},
    {"hugepage_kb", F_INT, 0, BIG, NULL},     {"uverbs_devices", F_INT, 0, 65536, NULL},
    {"uverbs_accessible", F_BOOL, 0, 0, NULL}, {"modules", F_OBJ, 0, 0, modules},
    END,
};
static const struct field nccl_plugin[] = {
    {"kind", F_STR, 0, 16, NULL}, {"path", F_STR, 0, 4096, NULL}, {"name", F_STR, 0, 64, NULL},
    {"abi", F_STR, 0, 64, NULL},  {"error", F_STR, 0, 4096, NULL},
    END,
};
static const struct field fabric_libs[] = {
    {"nccl_version", F_STR, 0, 32, NULL},   {"nccl_library", F_STR, 0, 4096, NULL},
    {"nccl_plugins", F_OBJS, 0, 256, nccl_plugin},
    {"libfabric_version", F_STR, 0, 32, NULL}, {"libfabric_providers", F_STRS, 0, NAME, NULL},
    {"timed_out", F_BOOL, 0, 0, NULL},
    END,
};
static const struct field cloud[] = {
    {"vendor", F_STR, 0, 128, NULL},         {"product", F_STR, 0, 128, NULL},
    {"nccl_conf_topo", F_STR, 0, 4096, NULL}, {"nccl_conf_file", F_STR, 0, 4096, NULL},
    {"vm_family", F_STR, 0, 64, NULL},        {"topo_file", F_STR, 0, 4096, NULL},
    END,
};
static const struct field facts[] = {
    {"rdmarun_facts", F_INT, 1, 1000, NULL}, {"hostname", F_STR, 0, NAME, NULL},
    {"source", F_STR, 0, 4096, NULL},        {"ucx_version", F_STR, 0, 64, NULL},
    {"kernel", F_STR, 0, NAME, NULL},        {"module_versions", F_STRS, 0, NAME, NULL},
    {"host", F_OBJ, 0, 0, host},             {"devices", F_OBJS, 0, 4096, device},
    {"gpus", F_OBJS, 0, 1024, gpu},          {"netifs", F_OBJS, 0, 65536, netif},
    {"limits", F_OBJ, 0, 0, limits},         {"warnings", F_STRS, 0, 4096, NULL},
    {"fabric_libraries", F_OBJ, 0, 0, fabric_libs}, {"cloud", F_OBJ, 0, 0, cloud},
    END,
};

#define ERRORS_SHOWN 10

struct walk {
    const char *file;
    int errors;
};

/* The value as quoted in an error: JSON, cut to 40 bytes, made safe. */
static char *quoted(json_object *v)
{
    const char *s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
    return term_safe(s, strlen(s), 40);
}

static void bad(struct walk *w, const char *path, json_object *v, const char *want)
{
    if (w->errors++ >= ERRORS_SHOWN)
        return;
    char *q = quoted(v);
    rr_error("%s: %s: expected %s, not %s (hint: save facts with 'rdmarun probe --json > "
             "FILE')", w->file, path, want, q);
    free(q);
}

static bool whole(json_object *v, long long min, long long max)
{
    if (!json_object_is_type(v, json_type_int))
        return false;
    errno = 0;
    int64_t n = json_object_get_int64(v);
    return errno == 0 && n >= min && n <= max;
}

static bool text_ok(json_object *v, long long max)
{
    if (!json_object_is_type(v, json_type_string))
        return false;
    size_t len = (size_t)json_object_get_string_len(v);
    const char *s = json_object_get_string(v);
    /* well-formed UTF-8: saved again byte for byte (json_string) */
    return len <= (size_t)max && strlen(s) == len && is_printable(s) && utf8_valid(s);
}

static void check_object(struct walk *w, json_object *o, const struct field *fields,
                         const char *path);

/* An object of counters (F_COUNTS): each name printable text, each count
 * a whole number. What was wanted, or NULL. */
static char *check_counts(struct walk *w, json_object *v, const struct field *f, const char *path)
{
    if (!json_object_is_type(v, json_type_object) || json_object_object_length(v) > f->max)
        return xasprintf("an object of at most %lld counters", f->max);
    json_object_object_foreach(v, name, count) {
        if (w->errors >= ERRORS_SHOWN)
            break;
        char *safe = term_safe(name, strlen(name), 40);
        char *at = xasprintf("%s.%s", path, safe);
        if (strlen(name) > NAME || !is_printable(name) || !*name || !utf8_valid(name))
            bad(w, at, count, "a counter named by printable UTF-8 text of at most 256 bytes");
        else if (!whole(count, 0, INT64_MAX))
            bad(w, at, count, "a whole number from 0");
        free(at);
        free(safe);
    }
    return NULL;
}

/* A list of objects, strings or numbers (F_OBJS, F_STRS, F_INTS), each
 * element checked. What was wanted of the list, or NULL. */
static char *check_list(struct walk *w, json_object *v, const struct field *f, const char *path)
{
    long long most = f->type == F_OBJS ? f->max : f->type == F_STRS ? LIST : 4096;
    if (!json_object_is_type(v, json_type_array) || (long long)json_object_array_length(v) > most)
        return xasprintf("a list of at most %lld %s", most,
                         f->type == F_OBJS ? "objects" : f->type == F_STRS ? "strings" : "numbers");
    for (size_t i = 0; i < json_object_array_length(v) && w->errors < ERRORS_SHOWN; i++) {
        json_object *e = json_object_array_get_idx(v, i);
        char *at = xasprintf("%s[%zu]", path, i);
        if (f->type == F_OBJS) {
            if (!json_object_is_type(e, json_type_object))
                bad(w, at, e, "an object");
            else
                check_object(w, e, f->fields, at);
        } else if (f->type == F_STRS ? !text_ok(e, f->max) : !whole(e, f->min, f->max)) {
            char *what = f->type == F_STRS
                ? xasprintf("UTF-8 text of at most %lld bytes without control characters", f->max)
                : xasprintf("a whole number from %lld to %lld", f->min, f->max);
            bad(w, at, e, what);
            free(what);
        }
        free(at);
    }
    return NULL;
}

static void check_value(struct walk *w, json_object *v, const struct field *f, const char *path)
{
    if (!v || json_object_is_type(v, json_type_null))
        return;   /* unknown, as probe writes what it could not read */
    char *want = NULL;
    switch (f->type) {
    case F_INT:
        if (!whole(v, f->min, f->max))
            want = xasprintf("a whole number from %lld to %lld", f->min, f->max);
        break;
    case F_NUM: {
        double d = json_object_get_double(v);
        if (!(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) ||
            !(d >= (double)f->min && d <= (double)f->max))
            want = xasprintf("a number from %lld to %lld", f->min, f->max);
        break;
    }
    case F_STR:
        if (!text_ok(v, f->max))
            want = xasprintf("UTF-8 text of at most %lld bytes without control characters", f->max);
        break;
    case F_BOOL:
        if (!json_object_is_type(v, json_type_boolean))
            want = xstrdup("true or false");
        break;
    case F_MEMLOCK:
        if (!whole(v, 0, f->max) && !(json_object_is_type(v, json_type_string) &&
                                      strcmp(json_object_get_string(v), "unlimited") == 0))
            want = xstrdup("a number of KiB or \"unlimited\"");
        break;
    case F_OBJ:
        if (!json_object_is_type(v, json_type_object))
            want = xstrdup("an object");
        else
            check_object(w, v, f->fields, path);
        break;
    case F_COUNTS:
        want = check_counts(w, v, f, path);
        break;
    case F_OBJS:
    case F_STRS:
    case F_INTS:
        want = check_list(w, v, f, path);
        break;
    }
    if (want)
        bad(w, path, v, want);
    free(want);
}

static void check_object(struct walk *w, json_object *o, const struct field *fields,
                         const char *path)
{
    for (const struct field *f = fields; f->name && w->errors < ERRORS_SHOWN; f++) {
        json_object *v = NULL;
        if (!json_object_object_get_ex(o, f->name, &v))
            continue;
        char *at = *path ? xasprintf("%s.%s", path, f->name) : xstrdup(f->name);
        check_value(w, v, f, at);
        free(at);
    }
}

int facts_schema_check(json_object *root, const char *file)
{
    struct walk w = {file, 0};
    check_object(&w, root, facts, "");
    if (w.errors > ERRORS_SHOWN)
        rr_error("%s: %d more errors not shown", file, w.errors - ERRORS_SHOWN);
    return w.errors ? RR_EX_DATAERR : 0;
}
