/* The cloud VM a node is, and the NCCL topology file it needs. A
 * hypervisor shows its guest a flat PCI tree (GPUs and NICs on their own
 * PCI domains, no switches), so NCCL cannot see which NIC is near which GPU
 * and runs slower without telling: Azure's HPC images write each VM family's
 * real topology as an NCCL XML under /opt/microsoft and name it in
 * /etc/nccl.conf (Azure/azhpc-images, customizations/ndv2.sh, ndv4.sh,
 * ndv5.sh, ncv4.sh). A container or an image of one's own has no
 * nccl.conf. Read here: DMI's vendor and product (the kernel's
 * drivers/firmware/dmi-id.c: /sys/class/dmi/id/sys_vendor, product_name),
 * NCCL_TOPO_FILE as NCCL's own configuration files set it (NCCL's
 * src/misc/param.cc, initEnv: NCCL_CONF_FILE or ~/.nccl.conf, then
 * /etc/nccl.conf; a file does not override what the environment or an
 * earlier file set), and which VM family the GPUs say (one table, by PCI
 * id) with its topology file, if this node has it. */
#include "facts/internal.h"
#include "util/fs.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CONF_MAX (64 * 1024)

struct vm_family {
    const char *vendor;        /* DMI sys_vendor */
    const char *name;
    const char *gpu_ids[4];    /* PCI vendor:device of its GPUs */
    const char *files[3];      /* its NCCL topology file, where the images put it */
};

/* Azure's GPU VM families and the topology file each image script links. */
static const struct vm_family families[] = {
    {"Microsoft Corporation", "ND H100 v5", {"10de:2330"},
     {"/opt/microsoft/ndv5/topo.xml", "/opt/microsoft/ndv5-topo.xml"}},
    {"Microsoft Corporation", "ND A100 v4", {"10de:20b0", "10de:20b2"},
     {"/opt/microsoft/ndv4/topo.xml", "/opt/microsoft/ndv4-topo.xml"}},
    {"Microsoft Corporation", "NC A100 v4", {"10de:20b5"},
     {"/opt/microsoft/ncv4/topo.xml", "/opt/microsoft/ncv4-topo.xml"}},
    {"Microsoft Corporation", "ND40rs v2", {"10de:1db5", "10de:1db1"},
     {"/opt/microsoft/ndv2/topo.xml", "/opt/microsoft/ndv2-topo.xml"}},
};

static char *dmi(const char *sys, const char *name)
{
    char *v = read_first_line("%s/class/dmi/id/%s", sys, name);
    if (v && (!*v || strlen(v) > 128 || !is_printable(v)))
        v = (free(v), NULL);
    return v;
}

char *facts_nccl_conf_topo(const char *path)
{
    size_t len = 0;
    char *text = path ? read_input(path, CONF_MAX, &len) : NULL;
    char *found = NULL;
    for (char *line = text, *next; line && *line && !found; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        line += strspn(line, " \t");
        if (strncmp(line, "NCCL_TOPO_FILE=", 15) != 0)
            continue;
        char *v = line + 15;
        v[strcspn(v, " \t\r#")] = '\0';
        if (*v && strlen(v) < 4096 && is_printable(v))
            found = xstrdup(v);
    }
    free(text);
    return found;
}

/* NCCL's configuration files in its order; the first that sets the topology
 * file is the one NCCL takes (live: this user's; a recorded tree: its
 * etc/nccl.conf alone). */
static void read_nccl_conf(struct cloud_facts *c, const char *root, bool live)
{
    char *files[2] = {NULL, xasprintf("%s/etc/nccl.conf", strcmp(root, "/") == 0 ? "" : root)};
    const char *conf = live ? getenv("NCCL_CONF_FILE") : NULL, *home = getenv("HOME");
    if (conf && *conf) {
        if (strlen(conf) < 4096 && is_printable(conf))   /* (its name is said) */
            files[0] = xstrdup(conf);
    } else if (live && home && *home && strlen(home) < 4096 && is_printable(home))
        files[0] = xasprintf("%s/.nccl.conf", home);
    for (int i = 0; i < 2 && !c->nccl_conf_topo; i++)
        if ((c->nccl_conf_topo = facts_nccl_conf_topo(files[i])))
            c->nccl_conf_file = xstrdup(i == 1 && !live ? "/etc/nccl.conf" : files[i]);
    free(files[0]);
    free(files[1]);
}

static bool has_gpu(const struct facts *f, const char *const *ids)
{
    for (size_t i = 0; i < f->ngpus; i++)
        for (size_t k = 0; k < 4 && ids[k]; k++)
            if (f->gpus[i].pci_id && strcmp(f->gpus[i].pci_id, ids[k]) == 0)
                return true;
    return false;
}

/* The VM family of the vendor and GPUs, and its topology file if present
 * (a regular file, as the node's path: ROOT is a recorded tree's prefix). */
static void find_family(struct facts *f, const char *root)
{
    struct cloud_facts *c = &f->cloud;
    for (size_t i = 0; c->vendor && i < sizeof(families) / sizeof(*families); i++) {
        const struct vm_family *v = &families[i];
        if (strcmp(v->vendor, c->vendor) != 0 || !has_gpu(f, v->gpu_ids))
            continue;
        c->vm_family = xstrdup(v->name);
        for (size_t k = 0; k < 3 && v->files[k] && !c->topo_file; k++) {
            char *at = xasprintf("%s%s", strcmp(root, "/") == 0 ? "" : root, v->files[k]);
            struct stat st;
            if (stat(at, &st) == 0 && S_ISREG(st.st_mode))
                c->topo_file = xstrdup(v->files[k]);
            free(at);
        }
        return;
    }
}

void facts_read_cloud(struct facts *f, const char *sys, const char *root, bool live)
{
    f->cloud.vendor = dmi(sys, "sys_vendor");
    f->cloud.product = dmi(sys, "product_name");
    read_nccl_conf(&f->cloud, root, live);
    find_family(f, root);
}

void cloud_facts_free(struct cloud_facts *c)
{
    free(c->vendor);
    free(c->product);
    free(c->nccl_conf_topo);
    free(c->nccl_conf_file);
    free(c->vm_family);
    free(c->topo_file);
    memset(c, 0, sizeof(*c));
}

void cloud_warnings(const struct facts *f, struct strvec *out)
{
    const struct cloud_facts *c = &f->cloud;
    if (!c->vm_family || c->topo_file || c->nccl_conf_topo)
        return;
    const char *path = "?";
    for (size_t i = 0; i < sizeof(families) / sizeof(*families); i++)
        if (strcmp(families[i].name, c->vm_family) == 0)
            path = families[i].files[0];
    sv_pushf(out, "%s VM (%s, its GPUs' PCI ids) without its NCCL topology file: NCCL sees the "
             "hypervisor's flat PCI tree, pairs GPUs with far NICs and runs slower without a "
             "word (hint: Azure's HPC images ship it as %s and name it in /etc/nccl.conf; in a "
             "container, mount it and set NCCL_TOPO_FILE)", c->vm_family, c->vendor, path);
}
