/* This node's hwloc topology, kept as XML for the rest of the boot. hwloc
 * discovers a node in 15-20 ms (PCI config space read a dword at a time,
 * OpenCL); the XML loads in under 1 ms, and every rdmarun a job script
 * starts would otherwise pay the discovery again. The cache holds what
 * does not change while a node runs; what does (port state, GIDs, limits)
 * is read live every time, and the job's allowed CPUs and memory come from
 * the running process (hwloc's THISSYSTEM_ALLOWED_RESOURCES), so one cache
 * serves jobs of any cgroup. */
#include "config.h"
#include "facts/internal.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hwloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int topology_discover(hwloc_topology_t t)
{
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
#if HAVE_DECL_HWLOC_TOPOLOGY_SET_COMPONENTS
    /* hwloc's libpciaccess component adds only the vendor and device names
     * of pci.ids (looked up a device at a time), which rdmarun never reads;
     * its linux component finds the same PCI tree, IDs and link speeds in
     * sysfs. 10 of a dry run's 30 ms here, more on a node of many devices.
     * Its gl component connects to X servers (:0, :1, ... over sockets and
     * TCP 6000+) to name displays, which rdmarun never counts as GPUs. */
    hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
    hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "gl");
#endif
    return hwloc_topology_load(t);
}

#define CACHE_NAME "topology.xml"
#define CACHE_MAX (64 << 20)   /* hwloc's XML of a 2,048-PU node is ~2 MB */
#define CACHE_KEY_INFO "RdmarunTopologyCacheKey"

/* The names in a sysfs folder, in any order: a device added, removed or
 * renamed (hot plug, SR-IOV functions, a module loaded) changes it. */
static uint64_t names_in(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    uint64_t sum = 0;
    for (struct dirent *e; (e = readdir(d));)
        sum += fnv1a(FNV1A_INIT, e->d_name, strlen(e->d_name));
    closedir(d);
    return sum;
}

static uint64_t first_line_of(uint64_t h, const char *path)
{
    char *line = read_first_line("%s", path);
    h = fnv1a(h, line ? line : "-", line ? strlen(line) : 1);
    free(line);
    return h;
}

/* What the cached XML must have been made under: this boot, this hwloc,
 * these devices, CPUs and NUMA nodes, the GPU runtimes hwloc asks. */
static char *cache_key(void)
{
    char *boot = read_first_line("/proc/sys/kernel/random/boot_id");
    if (!boot)
        return NULL;   /* no boot identity: no way to know the cache is this boot's */
    static const char *const dirs[] = {"/sys/bus/pci/devices", "/sys/class/net",
                                       "/sys/class/infiniband", "/etc/OpenCL/vendors"};
    uint64_t h = FNV1A_INIT;
    for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
        uint64_t n = names_in(dirs[i]);
        h = fnv1a(h, (const char *)&n, sizeof(n));
    }
    h = first_line_of(h, "/sys/devices/system/cpu/online");
    h = first_line_of(h, "/sys/devices/system/node/online");
    char *key = xasprintf("1 hwloc-%#x boot-%s devices-%016llx", hwloc_get_api_version(), boot,
                          (unsigned long long)h);
    free(boot);
    return key;
}

/* The folder: RDMARUN_TOPOLOGY_CACHE, else this user's runtime folder. */
static char *cache_dir(void)
{
    const char *set = getenv("RDMARUN_TOPOLOGY_CACHE");
    if (set && *set)
        return strcmp(set, "off") == 0 ? NULL : xstrdup(set);
    return user_runtime_dir();
}

static bool topology_cache_wanted(void)
{
    /* HWLOC_* variables steer discovery (HWLOC_XMLFILE, HWLOC_COMPONENTS,
     * HWLOC_FSROOT, ...): what they ask for is not this node's cache. */
    extern char **environ;
    for (char **e = environ; *e; e++)
        if (starts_with(*e, "HWLOC_"))
            return false;
    const char *set = getenv("RDMARUN_TOPOLOGY_CACHE");
    return !set || strcmp(set, "off") != 0;
}

/* The XML as cached, when it carries `key`. */
static char *cached_xml(int dirfd, const char *key, size_t *len)
{
    char *xml = read_own_file_at(dirfd, CACHE_NAME, CACHE_MAX, len);
    if (!xml)
        return NULL;
    /* The key is the root's info attribute: find it as hwloc writes it. */
    char *want = xasprintf("<info name=\"" CACHE_KEY_INFO "\" value=\"%s\"/>", key);
    bool ok = strstr(xml, want) != NULL;
    free(want);
    if (!ok) {
        free(xml);
        return NULL;
    }
    return xml;
}

/* hwloc_topology_init loads hwloc's plugins (dlopen: OpenCL's loader, X11,
 * libxml2 and ICU, libpciaccess) when no topology is alive: 3 ms of a dry
 * run. rdmarun needs none of them to read XML, and only OpenCL's (GPUs) to
 * discover. hwloc takes the list from its environment only; it is put back
 * at once, so that the job never sees it. */
static int init_without(hwloc_topology_t *t, const char *plugins)
{
    setenv("HWLOC_PLUGINS_BLACKLIST", plugins, 1);
    int rc = hwloc_topology_init(t);
    unsetenv("HWLOC_PLUGINS_BLACKLIST");   /* set only when no HWLOC_ variable was */
    return rc;
}

/* Loads `xml` as this node's topology: is_thissystem, and restricted to the
 * PUs and NUMA nodes this process may use, as a live load is. */
static int load_xml(hwloc_topology_t t, const char *xml, size_t len)
{
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM |
                                    HWLOC_TOPOLOGY_FLAG_THISSYSTEM_ALLOWED_RESOURCES);
    if (hwloc_topology_set_xmlbuffer(t, xml, (int)len + 1) < 0)
        return -1;
    return hwloc_topology_load(t);
}

/* Discovers this node (every PU and NUMA node, allowed to this process or
 * not) into `d` and exports it as XML with the key in its root. */
static char *discovered_xml(hwloc_topology_t d, const char *key, size_t *len)
{
    hwloc_topology_set_flags(d, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    if (topology_discover(d) < 0)
        return NULL;
    hwloc_obj_add_info(hwloc_get_root_obj(d), CACHE_KEY_INFO, key);
    char *buf, *out = NULL;
    int n;
    if (hwloc_topology_export_xmlbuffer(d, &buf, &n, 0) == 0 && n > 0) {
        out = xmalloc((size_t)n);
        memcpy(out, buf, (size_t)n);
        *len = (size_t)n - 1;   /* hwloc counts the ending NUL */
        hwloc_free_xmlbuffer(d, buf);
    }
    return out;
}

int topology_load_this_node(hwloc_topology_t *out)
{
    if (!topology_cache_wanted()) {   /* discovered here and now, as hwloc is told */
        if (hwloc_topology_init(out) < 0)
            return -1;
        return topology_discover(*out);
    }
    char *key = cache_key();
    char *dir = cache_dir();
    int dirfd = key && dir ? private_dir_open(dir) : -1;
    if (key && dirfd < 0 && errno == EPERM)
        rr_note("topology cache %s not used: another user owns it, or others may open it; "
                "hwloc reads this node afresh (remove the folder, or set "
                "RDMARUN_TOPOLOGY_CACHE to a folder of yours or to 'off')", dir);
    size_t len = 0;
    char *xml = dirfd >= 0 ? cached_xml(dirfd, key, &len) : NULL;
    int rc = -1;
    if (xml && init_without(out, "hwloc_gl,hwloc_opencl,hwloc_pci,hwloc_xml_libxml") == 0) {
        rc = load_xml(*out, xml, len);
        if (rc < 0) {   /* a cache hwloc cannot read (a full disk cut it): made again */
            hwloc_topology_destroy(*out);
            *out = NULL;
        }
    }
    if (rc < 0) {
        /* Discovered with the plugins it needs; exported, cached, and loaded
         * back as a hit would be, so a miss and a hit give the same facts. */
        free(xml);
        xml = NULL;
        hwloc_topology_t d;
        if (init_without(&d, "hwloc_gl,hwloc_pci,hwloc_xml_libxml") == 0) {
            xml = key ? discovered_xml(d, key, &len) : NULL;
            if (xml && dirfd >= 0)
                replace_file_at(dirfd, CACHE_NAME, xml, len);   /* a full disk: next time */
            if (xml && hwloc_topology_init(out) == 0)
                rc = load_xml(*out, xml, len);
            else if (!xml && !key)   /* no boot id: this node, live */
                rc = hwloc_topology_init(out) == 0 ? topology_discover(*out) : -1;
            hwloc_topology_destroy(d);
        }
    }
    if (dirfd >= 0)
        close(dirfd);
    free(xml);
    free(dir);
    free(key);
    return rc;
}
