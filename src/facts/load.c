/* Reading saved facts (probe --json) back, with json-c. Anything missing is
 * unknown; anything of the wrong type or a newer format is refused. */
#include "facts/findings.h"
#include "facts/internal.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <json-c/json.h>
#include <string.h>
#include <sys/stat.h>

#define FACTS_MAX_BYTES (64 * 1024 * 1024)

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static char *str(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && json_object_is_type(v, json_type_string) ? xstrdup(json_object_get_string(v))
                                                          : NULL;
}

static long long num(json_object *o, const char *key, long long unknown)
{
    json_object *v = get(o, key);
    if (v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
        return json_object_get_int64(v);
    if (v && json_object_is_type(v, json_type_string) &&
        strcmp(json_object_get_string(v), "unlimited") == 0)
        return -1;
    return unknown;
}

static double dbl(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
           ? json_object_get_double(v) : 0;
}

static bool flag(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

static size_t array_len(json_object *a)
{
    return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* The strings of `key` that keep() accepts (all when keep is NULL), in an
 * array sized once: list_add would walk and copy the list for each string. */
static char **strings_where(json_object *o, const char *key, bool (*keep)(const char *))
{
    json_object *a = get(o, key);
    size_t n = array_len(a), k = 0;
    if (!n)
        return NULL;
    char **list = xcalloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++) {
        json_object *s = json_object_array_get_idx(a, i);
        if (json_object_is_type(s, json_type_string) &&
            (!keep || keep(json_object_get_string(s))))
            list[k++] = xstrdup(json_object_get_string(s));
    }
    if (!k) {   /* none: NULL, as for no list */
        free(list);
        list = NULL;
    }
    return list;
}

static char **strings(json_object *o, const char *key) { return strings_where(o, key, NULL); }

/* A list that may be known to be empty: an array (even []) is a list, a
 * null or absent one is unknown (NULL), so that facts load as saved. */
static char **known_strings(json_object *o, const char *key)
{
    json_object *a = get(o, key);
    if (!a || !json_object_is_type(a, json_type_array))
        return NULL;
    char **list = strings(o, key);
    return list ? list : xcalloc(1, sizeof(char *));
}

/* A CPU list ("0-1", "0,48") of at least one PU. */
static bool is_cpu_list(const char *s)
{
    hwloc_bitmap_t b = hwloc_bitmap_alloc();
    bool ok = b && cpu_list_valid(s) && hwloc_bitmap_list_sscanf(b, s) == 0 &&
              hwloc_bitmap_weight(b) > 0;
    hwloc_bitmap_free(b);
    return ok;
}

/* "57:0-3", "C6:133:0-63": a key, then a CPU list after the last colon. */
static bool is_keyed_cpu_list(const char *s)
{
    const char *colon = strrchr(s, ':');
    return colon && colon != s && cpu_list_valid(colon + 1);
}

/* "DEV=CLASS" with a PCIe path class rdmarun knows. */
static bool is_nic_path(const char *s)
{
    const char *eq = strchr(s, '=');
    return eq && eq != s && pcie_path_rank(eq + 1) >= 0;
}

/* "DEV=" and the bridges' bus IDs. */
static bool is_acs_entry(const char *s)
{
    const char *eq = strchr(s, '=');
    return eq && eq != s;
}

/* Facts saved before core_pus was recorded: a PU each, of the PUs no
 * earlier node took (`taken`, which gains them): a later node with the
 * same PUs has only memory near them, and all nodes' lists together stay
 * within MAX_PUS PUs however many nodes repeat them. */
static char **pus_each(const char *cpus, hwloc_bitmap_t taken)
{
    char **list = NULL;
    hwloc_bitmap_t b = hwloc_bitmap_alloc();
    if (b && cpu_list_valid(cpus) && hwloc_bitmap_list_sscanf(b, cpus) == 0) {
        hwloc_bitmap_andnot(b, b, taken);
        hwloc_bitmap_or(taken, taken, b);
        /* Filled directly: list_add would walk the list for each PU. */
        list = xcalloc((size_t)hwloc_bitmap_weight(b) + 1, sizeof(*list));
        size_t k = 0;
        unsigned pu;
        hwloc_bitmap_foreach_begin(pu, b) {
            list[k++] = xasprintf("%u", pu);
        }
        hwloc_bitmap_foreach_end();
    }
    hwloc_bitmap_free(b);
    return list;
}

/* The strings of `key` that end in ":CPULIST" ("57:0-3", "C6:133:0-63");
 * NULL when the key is not a list (unknown), an empty list when none is. */
static char **keyed_cpu_lists(json_object *o, const char *key)
{
    json_object *a = get(o, key);
    if (!a || !json_object_is_type(a, json_type_array))
        return NULL;
    char **good = strings_where(o, key, is_keyed_cpu_list);
    return good ? good : xcalloc(1, sizeof(char *));
}

/* [3, 4] -> bit 3 and 4; anything but a list of priorities 0-7 is unknown. */
static int prio_mask(json_object *o, const char *key)
{
    json_object *a = get(o, key);
    if (!a || !json_object_is_type(a, json_type_array))
        return -1;
    int mask = 0;
    for (size_t i = 0; i < array_len(a); i++) {
        json_object *v = json_object_array_get_idx(a, i);
        int p = json_object_is_type(v, json_type_int) ? json_object_get_int(v) : -1;
        if (p < 0 || p > 7)
            return -1;
        mask |= 1 << p;
    }
    return mask;
}

/* "26:3,48:6": DSCPs 0-63 to priorities 0-7, or "" */
static char *dscp_map(json_object *o, const char *key)
{
    char *m = str(o, key);
    for (const char *p = m; p && *p;) {
        char *end;
        long d = strtol(p, &end, 10), prio = -1;
        if (end != p && *end == ':')
            prio = strtol(end + 1, &end, 10);
        if (d < 0 || d > 63 || prio < 0 || prio > 7 || (*end && *end != ',')) {
            free(m);
            return NULL;
        }
        p = *end ? end + 1 : end;
    }
    return m;
}

static void load_port(struct rdma_port *p, json_object *o)
{
    port_init(p, (int)num(o, "port", 1));
    p->state = str(o, "state");
    if (!p->state)
        p->state = xstrdup("UNKNOWN");
    p->phys_state = str(o, "phys_state");
    p->link_layer = str(o, "link_layer");
    if (!p->link_layer)
        p->link_layer = xstrdup("InfiniBand");
    p->rate = str(o, "rate");
    p->rate_gbps = dbl(o, "rate_gbps");
    p->active_mtu = (int)num(o, "active_mtu", 0);
    p->max_mtu = (int)num(o, "max_mtu", 0);
    p->lid = (int)num(o, "lid", -1);
    p->sm_lid = (int)num(o, "sm_lid", -1);
    json_object *c = get(o, "counters");
    if (c && json_object_is_type(c, json_type_object)) {   /* the schema checked each */
        size_t cap = 0;
        json_object_object_foreach(c, name, count) {
            GROW(p->counters.values, cap, p->counters.names.n + 1);
            p->counters.values[p->counters.names.n] = json_object_get_int64(count);
            sv_push(&p->counters.names, name);
        }
    }
    json_object *gids = get(o, "gids");
    p->ngids = array_len(gids);
    p->gids = xcalloc(p->ngids ? p->ngids : 1, sizeof(*p->gids));
    for (size_t k = 0; k < p->ngids; k++) {
        json_object *g = json_object_array_get_idx(gids, k);
        p->gids[k].index = (int)num(g, "index", (long long)k);
        p->gids[k].gid = str(g, "gid");
        if (!p->gids[k].gid)
            p->gids[k].gid = xstrdup("");
        p->gids[k].type = str(g, "type");
        p->gids[k].ndev = str(g, "ndev");
    }
    p->roce_mode = str(o, "roce_mode");
    long long tos = num(o, "roce_tos", -1);
    p->roce_tos = tos >= 0 && tos <= 255 ? (int)tos : -1;
    p->pkeys = known_strings(o, "pkeys");
}

static void load_device(struct facts *f, json_object *o)
{
    char *name = str(o, "name");
    if (!name)
        return;
    struct rdma_device *d = facts_device(f, name);
    free(name);
    d->driver = str(o, "driver");
    if (!d->driver)
        d->driver = xstrdup(driver_from_name(d->name));
    d->fw_ver = str(o, "fw_ver");
    d->node_guid = str(o, "node_guid");
    d->board_id = str(o, "board_id");
    d->pci_busid = str(o, "pci_busid");
    d->pci_id = str(o, "pci_id");
    d->numa_node = (int)num(o, "numa_node", -1);
    d->local_numa = str(o, "local_numa");
    d->local_cpus = str(o, "local_cpus");
    if (d->local_cpus && !cpu_list_valid(d->local_cpus)) {
        free(d->local_cpus);
        d->local_cpus = NULL;
    }
    json_object *pcie = get(o, "pcie");
    d->pcie_speed_gts = dbl(pcie, "speed_gts");
    d->pcie_width = (int)num(pcie, "width", 0);
    d->pcie_max_speed_gts = dbl(pcie, "max_speed_gts");
    d->pcie_max_width = (int)num(pcie, "max_width", 0);
    d->pcie_gbytes = dbl(pcie, "gbytes");
    d->netdevs = strings(o, "netdevs");
    d->transports = strings(o, "transports");
    json_object *lossless = get(o, "lossless");
    d->pfc_prios = prio_mask(lossless, "pfc");
    d->ecn_np_prios = prio_mask(lossless, "ecn_np");
    d->ecn_rp_prios = prio_mask(lossless, "ecn_rp");
    d->dscp_prio = dscp_map(lossless, "dscp_prio");
    d->irqs = keyed_cpu_lists(o, "irqs");
    json_object *dmabuf = get(o, "dmabuf");
    d->dmabuf = dmabuf && json_object_is_type(dmabuf, json_type_boolean)
              ? json_object_get_boolean(dmabuf) : -1;
    json_object *ports = get(o, "ports");
    d->nports = array_len(ports);
    d->ports = xcalloc(d->nports ? d->nports : 1, sizeof(*d->ports));
    for (size_t k = 0; k < d->nports; k++)
        load_port(&d->ports[k], json_object_array_get_idx(ports, k));
}

/* The file read and parsed: its JSON object, or NULL with the status in
 * *rc after saying why. */
static json_object *parse_facts(const char *path, int *rc)
{
    size_t len = 0;
    char *text = read_input(path, FACTS_MAX_BYTES, &len);
    *rc = RR_EX_DATAERR;
    if (!text && errno == EFBIG) {
        rr_error("facts file %s is more than the %d MiB a probe writes (hint: is it really "
                 "'rdmarun probe --json' output?)", path, FACTS_MAX_BYTES >> 20);
        return NULL;
    }
    if (!text) {
        rr_error("cannot read facts %s: %s", path, input_strerror(errno));
        *rc = RR_EX_NOINPUT;
        return NULL;
    }
    enum json_tokener_error jerr = json_tokener_success;
    json_object *root = strlen(text) == len ? json_tokener_parse_verbose(text, &jerr) : NULL;
    if (strlen(text) != len)
        jerr = json_tokener_error_parse_unexpected;   /* a NUL byte inside */
    /* JSON is UTF-8 (RFC 8259): bytes that are not would be saved again as
     * U+FFFD, another file */
    bool utf8 = strlen(text) != len || utf8_valid(text);
    free(text);
    if (!root || !json_object_is_type(root, json_type_object) || !utf8) {
        const char *why = !utf8 ? "not UTF-8 text" : root ? "not an object"
                                                          : json_tokener_error_desc(jerr);
        rr_error("%s is not valid facts JSON: %s (hint: save facts with 'rdmarun probe --json "
                 "> FILE')", path, why);
        json_object_put(root);
        return NULL;
    }
    long long version = num(root, "rdmarun_facts", 0);
    if (version < 1 || version > FACTS_FORMAT_VERSION) {
        rr_error("%s: facts format %lld, this rdmarun reads format %d%s", path, version,
                 FACTS_FORMAT_VERSION, version > FACTS_FORMAT_VERSION
                 ? " (hint: it was saved by a newer rdmarun; probe again with this one)"
                 : " (hint: the 'rdmarun_facts' field is missing: not a probe file)");
        json_object_put(root);
        return NULL;
    }
    if (facts_schema_check(root, path) != 0) {
        json_object_put(root);
        return NULL;
    }
    *rc = 0;
    return root;
}

/* NUMA node i of host.numa_nodes: 0, or -1 after saying why. */
static int load_numa(struct facts *f, json_object *numa, size_t i, hwloc_bitmap_t expanded,
                     const char *path)
{
    json_object *n = json_object_array_get_idx(numa, i);
    /* Placement sets the number as a bit: 2^32 of them would take 512 MB. */
    long long os_index = num(n, "os_index", (long long)i);
    if (os_index < 0 || os_index >= MAX_NUMA_NODES) {
        rr_error("%s: host.numa_nodes[%zu].os_index %s is not a NUMA node number (0-%d) "
                 "(hint: save facts with 'rdmarun probe --json > FILE')", path, i,
                 json_object_to_json_string(get(n, "os_index")), MAX_NUMA_NODES - 1);
        return -1;
    }
    struct numa_node *node = &f->numa[i];
    node->os_index = (int)os_index;
    node->cpus = str(n, "cpus");
    if (node->cpus && !cpu_list_valid(node->cpus)) {
        free(node->cpus);   /* like a device's local_cpus: unknown */
        node->cpus = NULL;
    }
    node->ncores = (int)num(n, "cores", 0);
    node->npus = (int)num(n, "pus", 0);
    /* [] is a node without cores of its own (HBM, CXL); no list, an older file */
    if (json_object_is_type(get(n, "core_pus"), json_type_array)) {
        node->core_pus = strings_where(n, "core_pus", is_cpu_list);
        if (!node->core_pus)
            node->core_pus = xcalloc(1, sizeof(char *));
    } else if (node->cpus) {
        node->core_pus = pus_each(node->cpus, expanded);
    }
    json_object *dist = get(n, "distances");
    if (array_len(dist) == f->nnuma) {
        node->distance = xcalloc(f->nnuma, sizeof(int));
        for (size_t k = 0; k < f->nnuma; k++)
            node->distance[k] = json_object_get_int(json_object_array_get_idx(dist, k));
    }
    double mibs = dbl(n, "bandwidth_mibs");   /* NaN, negative, past any memory: not given */
    node->bandwidth_mibs = mibs > 0 && mibs < FACTS_MAX_MEM_MIBS ? mibs : 0;
    return 0;
}

/* The host: packages, cores, PUs, NUMA nodes (whose cores none claims
 * twice), CPU states. 0, or -1 after saying why. */
static int load_host(struct facts *f, json_object *host, const char *path)
{
    f->npackages = (int)num(host, "packages", 0);
    f->ncores = (int)num(host, "cores", 0);
    f->npus = (int)num(host, "pus", 0);
    json_object *numa = get(host, "numa_nodes");
    f->nnuma = array_len(numa);
    f->numa = xcalloc(f->nnuma ? f->nnuma : 1, sizeof(*f->numa));
    hwloc_bitmap_t expanded = hwloc_bitmap_alloc();
    int rc = 0;
    for (size_t i = 0; !rc && i < f->nnuma; i++)
        rc = load_numa(f, numa, i, expanded, path);
    hwloc_bitmap_free(expanded);
    if (rc)
        return -1;
    char *why = numa_cores_claim(f->numa, f->nnuma);
    if (why) {
        rr_error("%s: host.%s (hint: save facts with 'rdmarun probe --json > FILE')", path, why);
        free(why);
        return -1;
    }
    json_object *cpu = get(host, "cpu");
    f->cpu.governors = keyed_cpu_lists(cpu, "governors");
    f->cpu.idle_states = keyed_cpu_lists(cpu, "idle_states");
    return 0;
}

/* The devices, one per name (a second would be a node no kernel makes): 0,
 * or -1 after saying why. */
static int load_devices(struct facts *f, json_object *devs, const char *path)
{
    for (size_t i = 0; i < array_len(devs); i++) {
        char *name = str(json_object_array_get_idx(devs, i), "name");
        for (size_t k = 0; name && k < f->ndevs; k++)
            if (strcmp(f->devs[k].name, name) == 0) {
                rr_error("%s: devices[%zu]: device %s is listed twice (hint: save facts with "
                         "'rdmarun probe --json > FILE')", path, i, name);
                free(name);
                return -1;
            }
        free(name);
        load_device(f, json_object_array_get_idx(devs, i));
    }
    return 0;
}

static void load_gpus(struct facts *f, json_object *gpus)
{
    f->ngpus = array_len(gpus);
    f->gpus = xcalloc(f->ngpus ? f->ngpus : 1, sizeof(*f->gpus));
    for (size_t i = 0; i < f->ngpus; i++) {
        json_object *g = json_object_array_get_idx(gpus, i);
        struct gpu *gpu = &f->gpus[i];
        gpu->name = str(g, "name");
        if (!gpu->name)
            gpu->name = xstrdup("gpu");
        gpu->pci_busid = str(g, "pci_busid");
        gpu->pci_id = str(g, "pci_id");
        gpu->vendor = str(g, "vendor");   /* absent in files before 0.1's GPU vendors */
        gpu->numa_node = (int)num(g, "numa_node", -1);
        gpu->nic_paths = strings_where(g, "nic_paths", is_nic_path);
        /* null (unknown) stays NULL */
        if (json_object_is_type(get(g, "acs_redirect"), json_type_array)) {
            gpu->acs_redirect = strings_where(g, "acs_redirect", is_acs_entry);
            if (!gpu->acs_redirect)
                gpu->acs_redirect = xcalloc(1, sizeof(char *));
        }
        gpu->bar1_mib = num(g, "bar1_mib", -1);
        gpu->nvlink_peers = (int)num(g, "nvlink_peers", -1);
    }
}

static void load_netifs_limits(struct facts *f, json_object *root)
{
    json_object *netifs = get(root, "netifs");
    f->nnetifs = array_len(netifs);
    f->netifs = xcalloc(f->nnetifs ? f->nnetifs : 1, sizeof(*f->netifs));
    for (size_t i = 0; i < f->nnetifs; i++) {
        json_object *n = json_object_array_get_idx(netifs, i);
        f->netifs[i].name = str(n, "name");
        if (!f->netifs[i].name)
            f->netifs[i].name = xstrdup("");
        f->netifs[i].ipoib = flag(n, "ipoib");
    }
    json_object *lim = get(root, "limits");
    struct host_limits *l = &f->limits;
    l->memlock_soft = num(lim, "memlock_soft", -2);
    l->memlock_hard = num(lim, "memlock_hard", -2);
    l->hugepages_total = num(lim, "hugepages_total", -1);
    l->hugepages_free = num(lim, "hugepages_free", -1);
    l->hugepage_kb = num(lim, "hugepage_kb", -1);
    l->uverbs_devices = (int)num(lim, "uverbs_devices", -1);
    l->uverbs_accessible = flag(lim, "uverbs_accessible");
    json_object *mods = get(lim, "modules");
    l->modules_known = mods && json_object_is_type(mods, json_type_object);
    l->mod_ib_uverbs = flag(mods, "ib_uverbs");
    l->mod_nvidia_peermem = flag(mods, "nvidia_peermem");
    l->mod_rdma_rxe = flag(mods, "rdma_rxe");
    l->mod_vmw_pvrdma = flag(mods, "vmw_pvrdma");
}

/* The fabric libraries a live probe asked (absent from a recorded node's). */
static void load_fabric_libs(struct facts *f, json_object *o)
{
    if (!o)
        return;
    f->nccl_version = str(o, "nccl_version");
    f->nccl_library = str(o, "nccl_library");
    f->fi_version = str(o, "libfabric_version");
    f->fi_providers = known_strings(o, "libfabric_providers");
    if (!f->fi_providers)
        f->fi_providers = xcalloc(1, sizeof(*f->fi_providers));
    f->fabric_libs_timed_out = flag(o, "timed_out");
    json_object *a = get(o, "nccl_plugins");
    f->nnccl_plugins = f->nccl_plugins_cap = array_len(a);
    f->nccl_plugins = xcalloc(f->nnccl_plugins ? f->nnccl_plugins : 1, sizeof(*f->nccl_plugins));
    for (size_t i = 0; i < f->nnccl_plugins; i++) {
        json_object *p = json_object_array_get_idx(a, i);
        struct nccl_plugin *np = &f->nccl_plugins[i];
        np->kind = str(p, "kind");
        np->path = str(p, "path");
        np->name = str(p, "name");
        np->abi = str(p, "abi");
        np->error = str(p, "error");
        if (!np->kind)
            np->kind = xstrdup("net");
        if (!np->path)
            np->path = xstrdup("");
    }
}

static void load_cloud(struct cloud_facts *c, json_object *o)
{
    if (!o)
        return;
    c->vendor = str(o, "vendor");
    c->product = str(o, "product");
    c->vm_family = str(o, "vm_family");
    c->topo_file = str(o, "topo_file");
    c->nccl_conf_topo = str(o, "nccl_conf_topo");
    c->nccl_conf_file = str(o, "nccl_conf_file");
}

int facts_load_json(struct facts *f, const char *path)
{
    int rc;
    json_object *root = parse_facts(path, &rc);
    if (!root)
        return rc;
    f->format_version = (int)num(root, "rdmarun_facts", 0);
    f->hostname = str(root, "hostname");
    f->source = xasprintf("facts %s", path);
    f->ucx_version = str(root, "ucx_version");
    f->kernel = str(root, "kernel");
    f->module_versions = known_strings(root, "module_versions");
    if (load_host(f, get(root, "host"), path) != 0 ||
        load_devices(f, get(root, "devices"), path) != 0) {
        json_object_put(root);
        return RR_EX_DATAERR;
    }
    load_gpus(f, get(root, "gpus"));
    load_netifs_limits(f, root);
    load_fabric_libs(f, get(root, "fabric_libraries"));
    load_cloud(&f->cloud, get(root, "cloud"));
    json_object_put(root);
    return 0;
}
