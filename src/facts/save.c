/* Facts as JSON: the 'rdmarun probe --json' output, which --facts reads back.
 * Unknown values are null; field names are stable (FACTS_FORMAT_VERSION). */
#include "facts/internal.h"
#include "util/json.h"

static void opt_int(struct json *j, const char *key, long long v)
{
    if (v < 0)
        json_null(j, key);
    else
        json_int(j, key, v);
}

static void opt_double(struct json *j, const char *key, double v)
{
    if (v <= 0)
        json_null(j, key);
    else
        json_double(j, key, v);
}

static void string_list(struct json *j, const char *key, char *const *list)
{
    json_begin_array(j, key);
    for (size_t i = 0; list && list[i]; i++)
        json_string(j, NULL, list[i]);
    json_end_array(j);
}

/* NULL stays null: unknown, unlike an empty list. */
static void opt_list(struct json *j, const char *key, char *const *list)
{
    if (list)
        string_list(j, key, list);
    else
        json_null(j, key);
}

/* A priority bitmask as the priorities it has, [3]; -1 null. */
static void prios(struct json *j, const char *key, int mask)
{
    if (mask < 0) {
        json_null(j, key);
        return;
    }
    json_begin_array(j, key);
    for (int p = 0; p < 8; p++)
        if (mask & 1 << p)
            json_int(j, NULL, p);
    json_end_array(j);
}

static void memlock(struct json *j, const char *key, long long v)
{
    if (v == -1)
        json_string(j, key, "unlimited");
    else
        opt_int(j, key, v);
}

static void port_json(struct json *j, const struct rdma_port *p)
{
    json_begin_object(j, NULL);
    json_int(j, "port", p->num);
    json_string(j, "state", p->state);
    json_string(j, "phys_state", p->phys_state);
    json_string(j, "link_layer", p->link_layer);
    json_string(j, "rate", p->rate);
    opt_double(j, "rate_gbps", p->rate_gbps);
    opt_int(j, "active_mtu", p->active_mtu ? p->active_mtu : -1);
    opt_int(j, "max_mtu", p->max_mtu ? p->max_mtu : -1);
    opt_int(j, "lid", p->lid);
    opt_int(j, "sm_lid", p->sm_lid);
    json_begin_object(j, "counters");
    for (size_t k = 0; k < p->counters.names.n; k++)
        json_int(j, p->counters.names.v[k], p->counters.values[k]);
    json_end_object(j);
    json_begin_array(j, "gids");
    for (size_t k = 0; k < p->ngids; k++) {
        json_begin_object(j, NULL);
        json_int(j, "index", p->gids[k].index);
        json_string(j, "gid", p->gids[k].gid);
        json_string(j, "type", p->gids[k].type);
        json_string(j, "ndev", p->gids[k].ndev);
        json_end_object(j);
    }
    json_end_array(j);
    json_string(j, "roce_mode", p->roce_mode);
    opt_int(j, "roce_tos", p->roce_tos);
    opt_list(j, "pkeys", p->pkeys);
    json_end_object(j);
}

static void device_json(struct json *j, const struct rdma_device *d)
{
    json_begin_object(j, NULL);
    json_string(j, "name", d->name);
    json_string(j, "driver", d->driver);
    json_string(j, "fw_ver", d->fw_ver);
    json_string(j, "node_guid", d->node_guid);
    json_string(j, "board_id", d->board_id);
    json_string(j, "pci_busid", d->pci_busid);
    json_string(j, "pci_id", d->pci_id);
    opt_int(j, "numa_node", d->numa_node);
    json_string(j, "local_numa", d->local_numa);
    json_string(j, "local_cpus", d->local_cpus);
    json_begin_object(j, "pcie");
    opt_double(j, "speed_gts", d->pcie_speed_gts);
    opt_int(j, "width", d->pcie_width ? d->pcie_width : -1);
    opt_double(j, "max_speed_gts", d->pcie_max_speed_gts);
    opt_int(j, "max_width", d->pcie_max_width ? d->pcie_max_width : -1);
    opt_double(j, "gbytes", d->pcie_gbytes);
    json_end_object(j);
    string_list(j, "netdevs", d->netdevs);
    string_list(j, "transports", d->transports);
    json_begin_object(j, "lossless");
    prios(j, "pfc", d->pfc_prios);
    prios(j, "ecn_np", d->ecn_np_prios);
    prios(j, "ecn_rp", d->ecn_rp_prios);
    json_string(j, "dscp_prio", d->dscp_prio);
    json_end_object(j);
    opt_list(j, "irqs", d->irqs);
    if (d->dmabuf < 0)
        json_null(j, "dmabuf");
    else
        json_bool(j, "dmabuf", d->dmabuf);
    json_begin_array(j, "ports");
    for (size_t k = 0; k < d->nports; k++)
        port_json(j, &d->ports[k]);
    json_end_array(j);
    json_end_object(j);
}

/* "host": packages, cores, each NUMA node (its CPUs, cores' PUs,
 * distances, memory bandwidth where the firmware gives it), the CPU's
 * governors and idle states. */
static void host_json(struct json *j, const struct facts *f)
{
    json_begin_object(j, "host");
    json_int(j, "packages", f->npackages);
    json_int(j, "cores", f->ncores);
    json_int(j, "pus", f->npus);
    json_begin_array(j, "numa_nodes");
    for (size_t i = 0; i < f->nnuma; i++) {
        json_begin_object(j, NULL);
        json_int(j, "os_index", f->numa[i].os_index);
        json_string(j, "cpus", f->numa[i].cpus);
        json_int(j, "cores", f->numa[i].ncores);
        json_int(j, "pus", f->numa[i].npus);
        json_begin_array(j, "core_pus");
        for (size_t k = 0; f->numa[i].core_pus && f->numa[i].core_pus[k]; k++)
            json_string(j, NULL, f->numa[i].core_pus[k]);
        json_end_array(j);
        json_begin_array(j, "distances");
        for (size_t k = 0; f->numa[i].distance && k < f->nnuma; k++)
            json_int(j, NULL, f->numa[i].distance[k]);
        json_end_array(j);
        if (f->numa[i].bandwidth_mibs > 0)
            json_double(j, "bandwidth_mibs", f->numa[i].bandwidth_mibs);
        json_end_object(j);
    }
    json_end_array(j);
    json_begin_object(j, "cpu");
    opt_list(j, "governors", f->cpu.governors);
    opt_list(j, "idle_states", f->cpu.idle_states);
    json_end_object(j);
    json_end_object(j);
}

static void gpus_json(struct json *j, const struct facts *f)
{
    json_begin_array(j, "gpus");
    for (size_t i = 0; i < f->ngpus; i++) {
        json_begin_object(j, NULL);
        json_string(j, "name", f->gpus[i].name);
        json_string(j, "pci_busid", f->gpus[i].pci_busid);
        json_string(j, "pci_id", f->gpus[i].pci_id);
        json_string(j, "vendor", f->gpus[i].vendor);
        opt_int(j, "numa_node", f->gpus[i].numa_node);
        json_begin_array(j, "nic_paths");
        for (char **e = f->gpus[i].nic_paths; e && *e; e++)
            json_string(j, NULL, *e);
        json_end_array(j);
        opt_list(j, "acs_redirect", f->gpus[i].acs_redirect);
        opt_int(j, "bar1_mib", f->gpus[i].bar1_mib);
        opt_int(j, "nvlink_peers", f->gpus[i].nvlink_peers);
        json_end_object(j);
    }
    json_end_array(j);
}

/* "limits": memlock, huge pages, uverbs, the modules (null: not known). */
static void limits_json(struct json *j, const struct host_limits *l)
{
    json_begin_object(j, "limits");
    memlock(j, "memlock_soft", l->memlock_soft);
    memlock(j, "memlock_hard", l->memlock_hard);
    opt_int(j, "hugepages_total", l->hugepages_total);
    opt_int(j, "hugepages_free", l->hugepages_free);
    opt_int(j, "hugepage_kb", l->hugepage_kb);
    opt_int(j, "uverbs_devices", l->uverbs_devices);
    json_bool(j, "uverbs_accessible", l->uverbs_accessible);
    if (l->modules_known) {
        json_begin_object(j, "modules");
        json_bool(j, "ib_uverbs", l->mod_ib_uverbs);
        json_bool(j, "nvidia_peermem", l->mod_nvidia_peermem);
        json_bool(j, "rdma_rxe", l->mod_rdma_rxe);
        json_bool(j, "vmw_pvrdma", l->mod_vmw_pvrdma);
        json_end_object(j);
    } else {
        json_null(j, "modules");
    }
    json_end_object(j);
}

/* The fabric libraries, when this node's were asked (not for a recorded one). */
static void fabric_libs_json(struct json *j, const struct facts *f)
{
    if (!f->fi_providers)
        return;
    json_begin_object(j, "fabric_libraries");
    json_string(j, "nccl_version", f->nccl_version);
    json_string(j, "nccl_library", f->nccl_library);
    json_begin_array(j, "nccl_plugins");
    for (size_t i = 0; i < f->nnccl_plugins; i++) {
        const struct nccl_plugin *p = &f->nccl_plugins[i];
        json_begin_object(j, NULL);
        json_string(j, "kind", p->kind);
        json_string(j, "path", p->path);
        json_string(j, "name", p->name);
        json_string(j, "abi", p->abi);
        json_string(j, "error", p->error);
        json_end_object(j);
    }
    json_end_array(j);
    json_string(j, "libfabric_version", f->fi_version);
    string_list(j, "libfabric_providers", f->fi_providers);
    json_bool(j, "timed_out", f->fabric_libs_timed_out);
    json_end_object(j);
}

/* The cloud VM and NCCL's topology file, when anything of it is known. */
static void cloud_json(struct json *j, const struct cloud_facts *c)
{
    if (!c->vendor && !c->product && !c->nccl_conf_topo)
        return;
    json_begin_object(j, "cloud");
    json_string(j, "vendor", c->vendor);
    json_string(j, "product", c->product);
    json_string(j, "vm_family", c->vm_family);
    json_string(j, "topo_file", c->topo_file);
    json_string(j, "nccl_conf_topo", c->nccl_conf_topo);
    json_string(j, "nccl_conf_file", c->nccl_conf_file);
    json_end_object(j);
}

void facts_print_json(const struct facts *f, FILE *out)
{
    struct json j;
    json_init(&j, out);
    json_begin_object(&j, NULL);
    json_int(&j, "rdmarun_facts", f->format_version);
    json_string(&j, "hostname", f->hostname);
    json_string(&j, "source", f->source);
    json_string(&j, "ucx_version", f->ucx_version);
    json_string(&j, "kernel", f->kernel);
    opt_list(&j, "module_versions", f->module_versions);
    host_json(&j, f);
    json_begin_array(&j, "devices");
    for (size_t i = 0; i < f->ndevs; i++)
        device_json(&j, &f->devs[i]);
    json_end_array(&j);
    gpus_json(&j, f);
    json_begin_array(&j, "netifs");
    for (size_t i = 0; i < f->nnetifs; i++) {
        json_begin_object(&j, NULL);
        json_string(&j, "name", f->netifs[i].name);
        json_bool(&j, "ipoib", f->netifs[i].ipoib);
        json_end_object(&j);
    }
    json_end_array(&j);
    limits_json(&j, &f->limits);
    fabric_libs_json(&j, f);
    cloud_json(&j, &f->cloud);
    struct strvec warnings = {0};
    facts_warnings(f, &warnings);
    json_begin_array(&j, "warnings");
    for (size_t i = 0; i < warnings.n; i++)
        json_string(&j, NULL, warnings.v[i]);
    json_end_array(&j);
    sv_free(&warnings);
    json_end_object(&j);
    json_finish(&j);
}
