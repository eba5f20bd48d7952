/* What a fabric needs beside its NICs, judged from this node's fabric
 * libraries (facts/fabric_libs.c): its libfabric provider, the NCCL net
 * plugin that carries NCCL over it, and for GPUDirect-TCPX the receive-
 * data-path manager's sockets. Under verify = strict a missing piece stops
 * the job (status 69) with its name; else it is a warning. Recorded facts
 * hold no libraries: nothing is judged then. */
#include "plan/plan.h"
#include "plan/ports.h"
#include "util/msg.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void missing(struct plan *p, char *what)
{
    if (p->verify.value == VERIFY_STRICT)
        plan_fail(p, RR_EX_UNAVAILABLE, xasprintf("%s (verify = strict: the job does not start)",
                                                  what));
    else
        sv_pushf(&p->notes, "warning: %s", what);
    free(what);
}

/* A net plugin NCCL would load and take whose name starts with `name`
 * (case ignored, as NCCL_NET is matched: src/plugin/net.cc). */
static bool has_net_plugin(const struct facts *f, const char *name)
{
    for (size_t i = 0; i < f->nnccl_plugins; i++) {
        const struct nccl_plugin *pl = &f->nccl_plugins[i];
        int lo, hi;
        if (strcmp(pl->kind, "net") == 0 && !pl->error && pl->name &&
            strncasecmp(pl->name, name, strlen(name)) == 0 &&
            nccl_plugin_abi_used(f->nccl_version, "net", pl->abi, &lo, &hi) != 0)
            return true;
    }
    return false;
}

static bool has_provider(const struct facts *f, const char *provider)
{
    for (char **p = f->fi_providers; *p; p++)
        if (strncmp(*p, provider, strlen(provider)) == 0 &&
            ((*p)[strlen(provider)] == ' ' || (*p)[strlen(provider)] == ';'))
            return true;
    return false;
}

/* RxDM (tcpgpudmarxd --uds_path DIR) listens on Unix sockets in DIR, which
 * the plugin finds through NCCL_GPUDIRECTTCPX_UNIX_CLIENT_PREFIX. */
static bool rxdm_listens(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool found = false;
    while (d && !found && (e = readdir(d))) {
        struct stat st;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        found = lstat(path, &st) == 0 && S_ISSOCK(st.st_mode);
        free(path);
    }
    if (d)
        closedir(d);
    return found;
}

static void tcpx_needs(struct plan *p, const struct facts *f)
{
    if (!has_net_plugin(f, "GPUDirectTCPX"))
        missing(p, xasprintf("no NCCL net plugin named GPUDirectTCPX that NCCL %s takes on the "
                             "library path (Google's nccl-plugin-gpudirecttcpx: libnccl-net.so "
                             "in /usr/local/tcpx/lib64 or /var/lib/tcpx/lib64, on "
                             "LD_LIBRARY_PATH; 'rdmarun probe' lists the plugins found)",
                             f->nccl_version ? f->nccl_version : "(not found)"));
    const struct plan_item *uds = plan_find(p, ITEM_ENV, "NCCL_GPUDIRECTTCPX_UNIX_CLIENT_PREFIX");
    const char *dir = uds && uds->value ? uds->value : "/tmp";   /* the plugin's default */
    if (!rxdm_listens(dir))
        missing(p, xasprintf("no receive-data-path manager listens in %s (no Unix socket "
                             "there): start RxDM (tcpgpudmarxd --uds_path %s) beside the job, "
                             "or set NCCL_GPUDIRECTTCPX_UNIX_CLIENT_PREFIX to its folder", dir,
                             dir));
}

static void ofi_needs(struct plan *p, const struct facts *f, const struct fabric_row *row)
{
    if (!has_provider(f, row->provider)) {
        char *here = facts_fi_provider_names(f);
        missing(p, xasprintf("libfabric %s here has no '%s' provider for %s (fi_getinfo "
                             "offers: %s; 'fi_info -p %s' asks the same)",
                             f->fi_version ? f->fi_version : "?", row->provider, row->label,
                             here ? here : "none", row->provider));
        free(here);
    }
    if (f->nccl_version && !has_net_plugin(f, "Libfabric") &&
        !has_net_plugin(f, "AWS Libfabric") && !has_net_plugin(f, "OFI"))
        sv_pushf(&p->notes, "NCCL %s is here but no aws-ofi-nccl plugin it takes: a NCCL job "
                 "would run over NCCL's own Socket transport%s", f->nccl_version,
                 p->verify.value == VERIFY_STRICT ? " (strict's NCCL_NET makes it fail "
                 "instead, between nodes)" : "");
}

void plan_fabric_libs(struct plan *p, const struct facts *f)
{
    const struct fabric_row *row = fabric_row(p->fabric);
    if (!row || !f->fi_providers || !plan_verifies(p))
        return;
    if (row->layer == LAYER_TCPX)
        tcpx_needs(p, f);
    else if (row->layer == LAYER_OFI)
        ofi_needs(p, f, row);
}
