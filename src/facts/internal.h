/* Helpers shared by the fact sources. */
#ifndef RDMARUN_FACTS_INTERNAL_H
#define RDMARUN_FACTS_INTERNAL_H
#include "facts/facts.h"
#include "util/fs.h"   /* read_first_line */
/* The device named `name`, added (zeroed, numa_node -1) when new. */
struct rdma_device *facts_device(struct facts *f, const char *name);
void port_init(struct rdma_port *p, int num);
/* Every port's counters into the facts (port_counters_read_all, in a child
 * given COUNTERS_TIMEOUT_S: PMA and hw_counters reads are firmware commands);
 * SYSFS_ROOT NULL: this node's. */
#define COUNTERS_TIMEOUT_S 10.0
void facts_read_counters(struct facts *f, const char *sysfs_root);
/* The RDMA stack's modules under SYS/module with their versions, and (LIVE)
 * this node's kernel release. */
void facts_read_modules(struct facts *f, const char *sys, bool live);
/* Append to a NULL-terminated string list. */
void list_add(char ***list, const char *s);
size_t list_len(char *const *list);
void list_free(char **list);
/* Keep each core (core_pus) under the first NUMA node that lists it, in
 * place: a later node that lists it again has only memory near it. NULL,
 * or why the nodes cannot be one machine's (a NUMA number twice, a core
 * sharing part of its PUs with another), in words for after "host.". */
char *numa_cores_claim(struct numa_node *nodes, size_t n);
struct dirent;
/* scandir's order for numbered entries (ports, GIDs, IRQs): 2 before 10. */
int dirent_by_number(const struct dirent **a, const struct dirent **b);
/* Guess the kernel driver from a device name when nothing better says. */
const char *driver_from_name(const char *name);
/* rdma_sysfs.c's readers, for the NICs of other classes (cxi.c): a device
 * folder's kernel driver (DRIVER= of device/uevent, else device/driver's
 * link, else from the name), its PCI place, NUMA node, PCIe link and
 * netdevs (device/...), and a file's whole number (-1: absent or junk). */
char *sysfs_driver_of(const char *devdir, const char *name);
void sysfs_read_pci(struct rdma_device *d, const char *devdir);
long long sysfs_number(const char *path);
/* Slingshot's Cassini NICs, /sys/class/cxi (cxi.c): a device each, with one
 * port whose state is the link's. */
void facts_read_cxi(struct facts *f, const char *root);
/* DMI's vendor and product under SYS, NCCL's configuration files under ROOT
 * (live: this user's too), the VM family and its topology file (cloud.c). */
void facts_read_cloud(struct facts *f, const char *sys, const char *root, bool live);
void cloud_facts_free(struct cloud_facts *c);


/* Whether a PCI function's config space (as read from sysfs' config file)
 * has ACS redirecting peer-to-peer traffic: 1, 0, -1 unreadable (a read by
 * anyone but root ends after 64 bytes). */
int pci_acs_redirects(const unsigned char *cfg, size_t len);

/* Each GPU's NVLink peers from hwloc's NVLinkBandwidth matrix (nvlink.c);
 * hwloc_topology_t is hwloc's, which the includer has. */
struct hwloc_topology;
void gpu_nvlink_peers(struct facts *f, struct hwloc_topology *t);

/* hwloc discovers this node into `t` (initialized, flags set) with the I/O
 * rdmarun reads and without the components it never needs. 0 or -1. */
/* Saved facts against what each field may hold (facts_schema.c): 0, or 65
 * after one error a field (at most 10), each with its JSON path. */
struct json_object;
int facts_schema_check(struct json_object *root, const char *file);
struct hwloc_topology;
int topology_discover(struct hwloc_topology *t);
/* This node's topology into *t (initialized here): from the per-boot XML
 * cache (topology_cache.c) when it was made on these devices, else
 * discovered. Restricted to what this process may use, as a live load is.
 * 0, or -1 with *t to destroy when it was initialized. */
int topology_load_this_node(struct hwloc_topology **t);
#endif
