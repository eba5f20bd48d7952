/* What GPUDirect RDMA needs from the PCIe bridges and the GPU, from their
 * config space and resources in sysfs (bus/pci/devices/BDF): whether a
 * bridge on the GPU-NIC path redirects peer-to-peer traffic up to the root
 * complex (ACS, which NCCL's troubleshooting guide has disabled), and the
 * size of the NVIDIA GPU's BAR1, the window GPU memory is registered through. */
#include "facts/internal.h"
#include "util/fs.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFIG_SIZE 4096
#define EXT_CAP_START 0x100
#define EXT_CAP_ACS 0x000d
/* ACS Control: P2P Request Redirect, P2P Completion Redirect, Egress Control */
#define ACS_REDIRECT_BITS (1u << 2 | 1u << 3 | 1u << 5)

static uint32_t le32(const unsigned char *b) { return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24; }

/* 1: ACS redirects peer traffic; 0: it does not (or no ACS); -1: the
 * extended config space is unreadable (only root reads past 64 bytes). */
int pci_acs_redirects(const unsigned char *cfg, size_t len)
{
    if (len < CONFIG_SIZE)
        return -1;
    unsigned off = EXT_CAP_START;
    for (int hops = 0; off >= EXT_CAP_START && off + 8 <= len && hops < 512; hops++) {
        uint32_t h = le32(cfg + off);
        if (h == 0 || h == 0xffffffffu)
            return 0;
        if ((h & 0xffff) == EXT_CAP_ACS)
            return (cfg[off + 6] | cfg[off + 7] << 8) & ACS_REDIRECT_BITS ? 1 : 0;
        off = (h >> 20) & 0xffc;
    }
    return 0;
}

static int bridge_acs(const char *sysfs, const char *bdf)
{
    char *path = xasprintf("%s/bus/pci/devices/%s/config", sysfs, bdf);
    FILE *f = open_input(path);
    free(path);
    if (!f)
        return -1;
    unsigned char cfg[CONFIG_SIZE];
    size_t n = fread(cfg, 1, sizeof(cfg), f);
    fclose(f);
    return pci_acs_redirects(cfg, n);
}

/* "mlx5_0=B1,B2" -> "mlx5_0=" and the bridges among B1,B2 that redirect;
 * NULL when one could not be read. */
static char *acs_of_path(const char *sysfs, const char *path)
{
    const char *eq = strchr(path, '=');
    if (!eq)
        return NULL;
    struct strvec bridges = {0}, on = {0};
    sv_split(&bridges, eq + 1, ",");
    bool known = true;
    for (size_t i = 0; i < bridges.n && known; i++) {
        int r = bridge_acs(sysfs, bridges.v[i]);
        known = r >= 0;
        if (r == 1)
            sv_push(&on, bridges.v[i]);
    }
    char *list = sv_join(&on, ",");
    char *out = known ? xasprintf("%.*s=%s", (int)(eq - path), path, list) : NULL;
    free(list);
    sv_free(&bridges);
    sv_free(&on);
    return out;
}

/* BAR1 of an NVIDIA GPU: line 1 of its resource file, "start end flags". */
static long long bar1_mib(const char *sysfs, const char *bdf)
{
    char *path = xasprintf("%s/bus/pci/devices/%s/resource", sysfs, bdf);
    FILE *f = open_input(path);
    free(path);
    char line[128];
    unsigned long long start = 0, end = 0;
    bool got = false;
    for (int i = 0; f && i < 2 && fgets(line, sizeof(line), f); i++)
        got = i == 1 && sscanf(line, "%llx %llx", &start, &end) == 2 && end > start;
    if (f)
        fclose(f);
    return got ? (long long)((end - start + 1) >> 20) : -1;
}

void facts_read_gpu_pci(struct facts *f, const char *sysfs)
{
    for (size_t i = 0; i < f->ngpus; i++) {
        struct gpu *g = &f->gpus[i];
        if (g->pci_busid && g->vendor && strcmp(g->vendor, "NVIDIA") == 0)
            g->bar1_mib = bar1_mib(sysfs, g->pci_busid);
        bool known = g->path_bridges != NULL;
        char **acs = NULL;
        for (size_t k = 0; known && g->path_bridges[k]; k++) {
            char *e = acs_of_path(sysfs, g->path_bridges[k]);
            known = e != NULL;
            if (e)
                list_add(&acs, e);
            free(e);
        }
        if (known)
            g->acs_redirect = acs;
        else
            list_free(acs);
    }
}
