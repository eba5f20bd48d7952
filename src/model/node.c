/* The node the speed-of-light model judges for: from facts (this node,
 * saved facts, a recorded tree), or from a short description of a node
 * that is not here, and what the model assumes where neither says. */
#include "model/model.h"
#include "facts/facts.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void node_model_free(struct node_model *m)
{
    sv_free(&m->assumed);
    sv_free(&m->facts_say);
}

static enum link_kind kind_of_port(const struct rdma_device *d, const struct rdma_port *p)
{
    if (strcmp(d->driver, "rdma_rxe") == 0 || strcmp(d->driver, "siw") == 0)
        return KIND_SOFT;
    const char *k = port_kind(d, p);
    return strcmp(k, "pvrdma") == 0 ? KIND_SOFT : link_kind_named(k);
}

void node_model_port(struct node_model *m, const struct rdma_device *d,
                     const struct rdma_port *p)
{
    m->nic_gbps = p->rate_gbps;
    m->kind = kind_of_port(d, p);
    m->nic_data_gbps = m->kind == KIND_IB ? ib_data_gbps(p->rate_gbps, p->rate) : p->rate_gbps;
    m->mtu = p->active_mtu;
    if (m->kind == KIND_SOFT && !m->soft_device)
        m->soft_device = d->name;
    if (d->pcie_max_speed_gts > 0 && d->pcie_max_width > 0) {
        m->pcie_gts = d->pcie_max_speed_gts;
        m->pcie_width = d->pcie_max_width;
        m->pcie_now_gts = d->pcie_speed_gts;
        m->pcie_now_width = d->pcie_width;
    }
}

/* The NICs: the active ports (else every port), the fastest's rate, kind
 * and slot. */
static void nics_from_facts(struct node_model *m, const struct facts *f)
{
    int active = 0;
    for (size_t i = 0; i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports; j++)
            active += port_is_active(&f->devs[i].ports[j]);
    for (size_t i = 0; i < f->ndevs; i++)
        for (size_t j = 0; j < f->devs[i].nports; j++) {
            const struct rdma_device *d = &f->devs[i];
            const struct rdma_port *p = &d->ports[j];
            if (active && !port_is_active(p))
                continue;
            m->nics++;
            if (kind_of_port(d, p) == KIND_SOFT && !m->soft_device)
                m->soft_device = d->name;
            if (p->rate_gbps >= m->nic_gbps)
                node_model_port(m, d, p);
        }
    m->nics_up = active;
}

/* What the facts show that holds a figure below the model's: ports down,
 * a software device, GPU memory without GDR. (A slot trained below its
 * capability is in the model's pcie_now: the judge says it with its
 * figure.) */
static void causes_from_facts(struct node_model *m, const struct facts *f)
{
    if (m->nics_up > 0 && (size_t)m->nics_up < f->ndevs)
        sv_pushf(&m->facts_say, "%d of the node's %zu RDMA devices have an ACTIVE port",
                 m->nics_up, f->ndevs);
    if (m->soft_device)
        sv_pushf(&m->facts_say, "%s is a software device", m->soft_device);
    if (m->gdr == 0)
        sv_push(&m->facts_say, "GPUDirect RDMA is off: neither nvidia_peermem nor dma-buf "
                               "(GPU memory is staged through host memory)");
}

static void gpus_from_facts(struct node_model *m, const struct facts *f)
{
    m->gpus = (int)f->ngpus;
    if (!f->ngpus)
        return;
    m->gpu = gpu_model_of_pci(f->gpus[0].pci_id);
    if (f->gpus[0].nvlink_peers == 0)   /* -1: unknown, the model's own (assume.c) */
        m->nvlink_gen = m->nvlink_links = 0;
    bool dmabuf = false;
    for (size_t i = 0; i < f->ndevs; i++)
        dmabuf |= f->devs[i].dmabuf == 1;
    m->gdr = f->limits.mod_nvidia_peermem || dmabuf ? 1 : f->limits.modules_known ? 0 : -1;
}

void node_model_init(struct node_model *m)
{
    memset(m, 0, sizeof(*m));
    m->gdr = m->numa_remote = m->nvlink_gen = m->nvlink_links = -1;
}

void node_model_from_facts(struct node_model *m, const struct facts *f)
{
    nics_from_facts(m, f);
    gpus_from_facts(m, f);
    for (size_t i = 0; i < f->nnuma; i++)
        for (size_t j = 0; f->numa[i].distance && j < f->nnuma; j++)
            if (f->numa[i].distance[i] > 0 &&
                (double)f->numa[i].distance[j] / f->numa[i].distance[i] > m->numa_ratio)
                m->numa_ratio = (double)f->numa[i].distance[j] / f->numa[i].distance[i];
    for (size_t i = 0; i < f->nnuma; i++)
        if (f->numa[i].bandwidth_mibs * MIB_GB > m->mem_gbs)
            m->mem_gbs = f->numa[i].bandwidth_mibs * MIB_GB;
    causes_from_facts(m, f);
}

/* "8x400G", "400", "1x200Gb": a count and a rate in Gb/s. */
static bool count_rate(const char *v, int *count, double *gbps)
{
    char *end;
    const char *x = strchr(v, 'x');
    *count = 1;
    if (x) {
        long n = strtol(v, &end, 10);
        if (end != x || n < 1 || n > 64)
            return false;
        *count = (int)n;
        v = x + 1;
    }
    *gbps = strtod(v, &end);
    return end != v && *gbps > 0 && *gbps <= MAX_PORT_RATE_GBPS &&
           (!*end || strcasecmp(end, "G") == 0 || strcasecmp(end, "Gb") == 0 ||
            strcasecmp(end, "Gbps") == 0);
}

/* "5x16": generation 1-6 and width 1-32. */
static bool gen_width(const char *v, double *gts, int *width)
{
    int gen, w, used = 0;
    if (sscanf(v, "%dx%d%n", &gen, &w, &used) != 2 || v[used] || w < 1 || w > 32)
        return false;
    *gts = pcie_gts_of_gen(gen);
    *width = w;
    return *gts > 0;
}

static bool yes_no(const char *v, int *out, const char *yes, const char *no)
{
    if (strcmp(v, yes) == 0 || strcmp(v, no) == 0) {
        *out = strcmp(v, yes) == 0;
        return true;
    }
    return false;
}

static bool small_count(const char *v, int *out, int max)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end || n < 1 || n > max)
        return false;
    *out = (int)n;
    return true;
}

/* "8xH100": a count and a model the tables know; NVLink from the model. */
static bool gpus_desc(struct node_model *m, const char *v)
{
    const char *x = strchr(v, 'x');
    char count[8];
    if (!x || x == v || (size_t)(x - v) >= sizeof(count))
        return false;
    memcpy(count, v, (size_t)(x - v));
    count[x - v] = '\0';
    m->gpu = gpu_model_named(x + 1);
    return small_count(count, &m->gpus, 64) && m->gpu;
}

static bool nvlink_desc(struct node_model *m, const char *v)
{
    if (strcmp(v, "none") == 0) {
        m->nvlink_gen = m->nvlink_links = 0;
        return true;
    }
    int gen, links, used = 0;
    if (sscanf(v, "%dx%d%n", &gen, &links, &used) == 2 && !v[used] && nvlink_link_gbs(gen) > 0 &&
        links >= 1 && links <= 18) {
        m->nvlink_gen = gen;
        m->nvlink_links = links;
        return true;
    }
    if (!small_count(v, &gen, 5) || nvlink_link_gbs(gen) <= 0)
        return false;
    m->nvlink_gen = gen;
    m->nvlink_links = m->gpu && m->gpu->nvlink_gen == gen ? m->gpu->nvlink_links : -1;
    return true;
}

/* "205", "205GB/s": a NUMA node's memory bandwidth in GB/s (1 PB/s at most). */
static bool gbs_value(const char *v, double *gbs)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || !(x > 0) || x > FACTS_MAX_MEM_MIBS * MIB_GB ||
        (*end && strcasecmp(end, "GB/s") != 0))
        return false;
    *gbs = x;
    return true;
}

/* One KEY=VALUE of a description. */
static bool desc_key(struct node_model *m, const char *key, const char *v)
{
    if (strcmp(key, "nics") == 0) {
        bool ok = count_rate(v, &m->nics, &m->nic_gbps);
        m->nic_data_gbps = m->nic_gbps;
        return ok;
    }
    if (strcmp(key, "kind") == 0)
        return (m->kind = link_kind_named(v)) != KIND_UNKNOWN;
    if (strcmp(key, "pcie") == 0)
        return gen_width(v, &m->pcie_gts, &m->pcie_width);
    if (strcmp(key, "pcie-trained") == 0)
        return gen_width(v, &m->pcie_now_gts, &m->pcie_now_width);
    if (strcmp(key, "gpus") == 0)
        return gpus_desc(m, v);
    if (strcmp(key, "nvlink") == 0)
        return nvlink_desc(m, v);
    if (strcmp(key, "nodes") == 0)
        return small_count(v, &m->nodes, 1 << 20);
    if (strcmp(key, "ppn") == 0)
        return small_count(v, &m->ppn, 1024);
    if (strcmp(key, "mtu") == 0)
        return small_count(v, &m->mtu, 65536) && m->mtu >= 256;
    if (strcmp(key, "gdr") == 0)
        return yes_no(v, &m->gdr, "yes", "no");
    if (strcmp(key, "numa") == 0)
        return yes_no(v, &m->numa_remote, "remote", "local");
    if (strcmp(key, "mem") == 0)
        return gbs_value(v, &m->mem_gbs);
    return false;
}

bool node_model_parse(struct node_model *m, const char *desc, char *err, size_t errlen)
{
    struct strvec words = {0};
    sv_split(&words, desc, " \t,");
    bool ok = true;
    for (size_t i = 0; ok && i < words.n; i++) {
        char *eq = strchr(words.v[i], '=');
        if (eq)
            *eq = '\0';
        ok = eq && desc_key(m, words.v[i], eq + 1);
        if (!ok)
            snprintf(err, errlen, "'%.32s%s%.64s': %s", words.v[i], eq ? "=" : "", eq ? eq + 1 : "",
                     eq ? "not a value the key takes" : "not KEY=VALUE");
    }
    sv_free(&words);
    return ok;
}
