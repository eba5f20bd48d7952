#include "profile/schema.h"
#include "profile/settings.h"
#include "profile/known_vars.h"
#include "profile/ucx_config.h"
#include "util/strvec.h"
#include "util/size.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct keydef profile_keys[] = {
    {"description", VT_STRING, NULL, "one line shown by 'rdmarun profiles'", NULL},
    {"inherit", VT_LIST, NULL, "parent profiles, applied left to right", NULL},
    {"fabric", VT_ENUM, "auto|ib|roce|pvrdma|rdma|efa|cxi|opa|tcpx|tcp|shm",
     "what the profile is for: ib, roce, pvrdma and rdma (InfiniBand, else RoCE) go through "
     "UCX; efa, cxi (Slingshot) and opa (Omni-Path) through libfabric; tcpx through NCCL's "
     "GPUDirect-TCPX plugin; 'auto' picks a profile from the node", NULL},
    {"launcher", VT_ENUM, LAUNCHERS, "how ranks are started (default: from mpi)", NULL},
    {"mpi", VT_ENUM, MPI_FAMILIES,
     "the MPI the job's programs are linked with (default: the program's own libraries)", NULL},
    {"verify", VT_ENUM, VERIFY_POLICIES, "what a transport fallback does to the run", NULL},
    {"expect", VT_ENUM, EXPECTATIONS,
     "what the job should run on (default: from fabric); a different verdict is a fallback", NULL},
    {"tuned-for", VT_STRING, NULL,
     "the kind of node 'rdmarun tune' measured this profile on (a fingerprint); a plan on "
     "another kind warns", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static const struct keydef bind_keys[] = {
    {"policy", VT_ENUM, BIND_POLICIES,
     "where rdmarun places each rank (none: Open MPI binds)", NULL},
    {"memory", VT_ENUM, MEMORY_POLICIES, "memory policy of a placed rank's NUMA node", NULL},
    {"nics", VT_ENUM, NIC_CHOICES, "a placed rank's ports: one (spread) or every nearest one",
     NULL},
    {"threads", VT_UINT, "auto", "OpenMP threads per placed rank: N, or auto (one per core); "
     "0: none set", NULL},
    {"smt", VT_BOOL, NULL, "threads = auto counts hardware threads, not cores", NULL},
    {"map-by", VT_STRING, NULL, "mpirun --map-by", NULL},
    {"bind-to", VT_ENUM, "none|hwthread|core|l1cache|l2cache|l3cache|socket|numa|board|package",
     "mpirun --bind-to", NULL},
    {"rank-by", VT_STRING, NULL, "mpirun --rank-by", NULL},
    {"report-bindings", VT_BOOL, NULL, "mpirun --report-bindings", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static const struct keydef check_keys[] = {
    {"port-state", VT_ENUM, "active|any", "required state of the selected ports", "active"},
    {"min-rate", VT_UINT, NULL, "minimum port rate in Gb/s", NULL},
    {"mtu", VT_ENUM, "256|512|1024|2048|4096", "required active MTU", NULL},
    {"memlock", VT_SIZE, "unlimited", "minimum RLIMIT_MEMLOCK", NULL},
    {"hugepages", VT_UINT, NULL, "minimum number of free huge pages", NULL},
    {"pcie-at-capability", VT_BOOL, NULL, "PCIe link must run at the device's capability", NULL},
    {"qp-test", VT_BOOL, NULL, "run the verbs RC loopback before launch", NULL},
    {"path-test", VT_BOOL, NULL, "test RDMA between the nodes before a multi-node job", NULL},
    {"path-pairs", VT_ENUM, "ring|all", "the path test: each node to the next, or all pairs",
     "ring"},
    {"path-timeout", VT_COUNT, NULL, "the path test: seconds for the whole test", "30"},
    {"devices", VT_PORTS, NULL, "health check: devices or DEV:PORT that must be present", NULL},
    {"modules", VT_LIST, NULL, "health check: kernel modules that must be loaded", NULL},
    {"counters", VT_BOOL, NULL, "health check: port counters must not grow past their limits",
     NULL},
    {"counter-limits", VT_LIST, NULL,
     "health check: growth allowed between checks per family, FAMILY:N (default link:0, "
     "loss:0, error:0)", NULL},
    {"epilog-counter-limits", VT_LIST, NULL,
     "health check --epilog: growth allowed during a job per family, FAMILY:N (default: "
     "counter-limits)", NULL},
    {"baseline", VT_STRING, NULL, "health check: where the last counter values are kept", NULL},
    {"flaps", VT_BOOL, NULL,
     "health check: a port's link must not go down flap-count times within flap-window, nor "
     "stay down drop-after seconds (kept in state between checks)", NULL},
    {"flap-count", VT_COUNT, NULL, "health check: link downs within flap-window that make a "
     "flap", "3"},
    {"flap-window", VT_COUNT, NULL, "health check: seconds a flap is counted over (12 h)",
     "43200"},
    {"drop-after", VT_COUNT, NULL, "health check: seconds down that make a port dropped",
     "240"},
    {"state", VT_STRING, NULL, "health check: the file where the ports' history is kept", NULL},
    {"kmsg", VT_BOOL, NULL,
     "health check: the kernel's log (/dev/kmsg) must hold no PCIe, firmware, transceiver or "
     "temperature event of a checked NIC, nor flap-count link downs, within kmsg-window", NULL},
    {"kmsg-window", VT_COUNT, NULL, "health check: seconds of the kernel's log judged (a day)",
     "86400"},
    {"loopback", VT_BOOL, NULL,
     "health check: each port's loopback RDMA WRITE bandwidth, all ports at once, each from "
     "its NIC's NUMA node", NULL},
    {"min-loopback-gbps", VT_UINT, NULL, "health check: the loopback bandwidth each port must "
     "reach, Gb/s", NULL},
    {"min-loopback-percent", VT_UINT, NULL, "health check: the loopback bandwidth each port "
     "must reach, percent of the speed-of-light model's figure for it (rdmarun(1), JUDGE; "
     "software RDMA: of its rate)", NULL},
    {"loopback-seconds", VT_COUNT, NULL, "health check: seconds of the loopback test", "2"},
    {"manifest", VT_STRING, NULL,
     "health check: a good node's facts (rdmarun probe --json there) this node must match", NULL},
    {"lossless", VT_BOOL, NULL,
     "PFC and ECN on the priority the RoCE traffic class maps to ([ucx] IB_TRAFFIC_CLASS, "
     "IB_SL; [nccl] IB_TC, IB_SL)", NULL},
    {"irq-affinity", VT_BOOL, NULL,
     "the NICs' interrupts on their own NUMA node, and off the ranks' cores", NULL},
    {"governor", VT_STRING, NULL, "the cpufreq governor every core (the ranks' cores) must run",
     NULL},
    {"max-idle-latency", VT_UINT, NULL,
     "microseconds: no enabled idle state may take longer to exit", NULL},
    {"gpudirect", VT_BOOL, NULL,
     "NVIDIA GPUs can use GPUDirect RDMA: nvidia_peermem or dma-buf, and no ACS redirect on "
     "the GPU-NIC paths", NULL},
    {"timeout", VT_COUNT, NULL, "health check: seconds for the whole run", "60"},
    {"check-timeout", VT_COUNT, NULL, "health check: seconds for each check", "20"},
    {NULL, 0, NULL, NULL, NULL},
};

static void ucx_var_names(struct strvec *out)
{
    const struct strvec *names = ucx_config_names();
    for (size_t i = 0; i < names->n; i++)
        sv_push(out, names->v[i]);
}

#define NEWER "a variable newer than rdmarun knows can go under [env]"

const struct sectiondef schema_sections[] = {
    {.name = "profile", .keyset = KEYS_FIXED, .keys = profile_keys, .doc = "the profile itself"},
    {.name = "ucx", .keyset = KEYS_UCX, .doc = "UCX variables, written without the UCX_ prefix",
     .prefix = "UCX_", .library = "UCX", .known = ucx_config_known, .names = ucx_var_names,
     .hint = "'ucx_info -c -f' lists them all", .from_env = true},
    {.name = "nccl", .keyset = KEYS_VARS,
     .doc = "NCCL variables, written without the NCCL_ prefix", .prefix = "NCCL_",
     .library = "NCCL", .known = nccl_var_known, .names = nccl_var_names, .hint = NEWER,
     .from_env = true},
    {.name = "libfabric", .keyset = KEYS_VARS,
     .doc = "libfabric variables, written without the FI_ prefix (checked against the "
            "providers libfabric loads here, and rdmarun's table of the others)",
     .prefix = "FI_", .library = "libfabric", .known = libfabric_var_known,
     .names = libfabric_var_names, .hint = "'fi_info -e' lists this node's; " NEWER,
     .from_env = true},
    {.name = "ofi-nccl", .keyset = KEYS_VARS,
     .doc = "aws-ofi-nccl (NCCL's libfabric plugin) variables, written without the OFI_NCCL_ "
            "prefix",
     .prefix = "OFI_NCCL_", .library = "aws-ofi-nccl", .known = ofi_nccl_var_known,
     .names = ofi_nccl_var_names, .hint = NEWER, .from_env = true},
    {.name = "cray-mpich", .keyset = KEYS_VARS,
     .doc = "HPE Cray MPICH variables, written without the MPICH_ prefix (OFI_NIC_POLICY, ...)",
     .prefix = "MPICH_", .library = "Cray MPICH", .known = cray_mpich_var_known,
     .names = cray_mpich_var_names, .hint = NEWER, .from_env = true},
    {.name = "mpi", .keyset = KEYS_MCA, .doc = "Open MPI MCA parameters", .prefix = "OMPI_MCA_",
     .library = "Open MPI", .from_env = true},
    {.name = "mpich", .keyset = KEYS_VARS,
     .doc = "MPICH control variables, written without the MPIR_CVAR_ prefix (checked by the "
            "program's MPICH when the job runs)",
     .prefix = "MPIR_CVAR_", .library = "MPICH"},
    {.name = "impi", .keyset = KEYS_VARS,
     .doc = "Intel MPI variables, written without the I_MPI_ prefix (names checked against the "
            "program's Intel MPI, impi_info, when the job runs)",
     .prefix = "I_MPI_", .library = "Intel MPI"},
    {.name = "bind", .keyset = KEYS_FIXED, .keys = bind_keys, .doc = "process mapping and binding"},
    {.name = "env", .keyset = KEYS_ENV, .doc = "any other environment variable"},
    {.name = "check", .keyset = KEYS_FIXED, .keys = check_keys,
     .doc = "expectations checked before launch"},
};
const size_t schema_nsections = sizeof(schema_sections) / sizeof(*schema_sections);

const struct sectiondef *schema_section(const char *name)
{
    for (size_t i = 0; i < schema_nsections; i++)
        if (str_ieq(schema_sections[i].name, name))
            return &schema_sections[i];
    return NULL;
}

static bool is_var_name(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

char *schema_canonical_key(const struct sectiondef *sec, const char *key, char **why)
{
    *why = NULL;
    switch (sec->keyset) {
    case KEYS_FIXED: {
        char *k = xstrdup(key);
        for (char *p = k; *p; p++)
            *p = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
        return k;
    }
    case KEYS_UCX:
    case KEYS_VARS: {
        const char *prefix = sec->prefix;
        const char *k = key;
        if (strlen(k) > strlen(prefix) && strncasecmp(k, prefix, strlen(prefix)) == 0)
            k += strlen(prefix);
        if (!is_var_name(k)) {
            *why = xasprintf("'%s' is not a variable name", key);
            return NULL;
        }
        return to_var_name(k);
    }
    case KEYS_MCA:
        for (const char *p = key; *p; p++) {
            if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_') {
                *why = xasprintf("'%s' is not an MCA parameter name (lower case letters, "
                                 "digits and '_', as ompi_info lists them)", key);
                return NULL;
            }
        }
        return xstrdup(key);
    case KEYS_ENV:
        if (!is_var_name(key)) {
            *why = xasprintf("'%s' is not an environment variable name", key);
            return NULL;
        }
        return xstrdup(key);
    }
    return NULL;
}

const struct keydef *schema_key(const struct sectiondef *sec, const char *key)
{
    if (sec->keyset != KEYS_FIXED)
        return NULL;
    for (const struct keydef *kd = sec->keys; kd->name; kd++)
        if (strcmp(kd->name, key) == 0)
            return kd;
    return NULL;
}

static bool in_choices(const char *choices, const char *value)
{
    size_t len = strlen(value);
    for (const char *p = choices; *p;) {
        size_t n = strcspn(p, "|");
        if (n == len && strncasecmp(p, value, n) == 0)
            return true;
        p += n + (p[n] == '|');
    }
    return false;
}

/* DEV[:PORT],...: a device name verbs would show, a port 1-255. */
static bool ports_ok(const char *value, char **why)
{
    for (const char *p = value; *p;) {
        size_t n = strcspn(p, ",");
        char *item = xstrndup(p, n);
        char *name = item + strspn(item, " \t"), *end = name + strlen(name);
        while (end > name && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        char *colon = strchr(name, ':');
        const char *port = colon ? colon + 1 : NULL;
        if (colon)
            *colon = '\0';
        bool ok = *name && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-.") == strlen(name) &&
                  (!port || (*port && strspn(port, "0123456789") == strlen(port) &&
                             strlen(port) <= 3 && atoi(port) >= 1 && atoi(port) <= 255));
        if (colon)
            *colon = ':';   /* said as written */
        if (!ok)
            *why = xasprintf("'%s' is not a device or DEVICE:PORT (a port is 1-255, as "
                             "ibv_devinfo numbers them)", name);
        free(item);
        if (!ok)
            return false;
        p += n + (p[n] == ',');
    }
    return true;
}

bool schema_check_value(const struct keydef *kd, const char *value, char **why)
{
    *why = NULL;
    uint64_t size;
    bool b;
    switch (kd->type) {
    case VT_STRING:
    case VT_LIST:
        return true;
    case VT_BOOL:
        if (parse_bool(value, &b))
            return true;
        *why = xstrdup("expected a boolean: yes/no, true/false, on/off, 1/0");
        return false;
    case VT_SIZE:
        if (parse_size(value, &size) || (kd->choices && in_choices(kd->choices, value)))
            return true;
        *why = xasprintf("expected a size such as 8388608, 8M, 8MiB or 8m%s%s",
                         kd->choices ? ", or " : "", kd->choices ? kd->choices : "");
        return false;
    case VT_UINT:
    case VT_COUNT:
        if ((*value && strspn(value, "0123456789") == strlen(value) && strlen(value) < 10 &&
             (kd->type == VT_UINT || strtol(value, NULL, 10) >= 1)) ||
            (kd->choices && in_choices(kd->choices, value)))
            return true;
        *why = xasprintf("expected a whole number%s%s%s",
                         kd->type == VT_COUNT ? " of at least 1" : "",
                         kd->choices ? ", or " : "", kd->choices ? kd->choices : "");
        return false;
    case VT_PORTS:
        return ports_ok(value, why);
    case VT_ENUM: {
        /* Open MPI policies take qualifiers after ':' (core:overload-allowed). */
        char *word = xstrndup(value, strcspn(value, ":"));
        bool ok = in_choices(kd->choices, word);
        free(word);
        if (!ok)
            *why = xasprintf("expected one of: %s", kd->choices);
        return ok;
    }
    }
    return false;
}

const struct sectiondef *schema_section_of_var(const char *name, const char **rest)
{
    const struct sectiondef *best = NULL;
    for (size_t i = 0; i < schema_nsections; i++) {
        const char *pre = schema_sections[i].prefix;
        if (pre && starts_with(name, pre) && name[strlen(pre)] &&
            (!best || strlen(pre) > strlen(best->prefix)))
            best = &schema_sections[i];
    }
    if (best)
        *rest = name + strlen(best->prefix);
    return best;
}

bool schema_var_known(const struct sectiondef *sec, const char *name, char **suggestion)
{
    *suggestion = NULL;
    return !sec->known || sec->known(name, suggestion);
}

bool schema_resolvable(const char *section, const char *key)
{
    static const char *const keys[][2] = {
        {"ucx", "NET_DEVICES"}, {"ucx", "IB_GID_INDEX"},
        {"nccl", "IB_HCA"}, {"nccl", "IB_GID_INDEX"}, {"nccl", "SOCKET_IFNAME"},
        {"nccl", "NET_GDR_LEVEL"},
    };
    for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
        if (strcmp(keys[i][0], section) == 0 && strcmp(keys[i][1], key) == 0)
            return true;
    return false;
}
