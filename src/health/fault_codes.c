#include "health/fault_codes.h"
#include <string.h>

const struct fault_code fault_codes[] = {
    {"RDMARUN-FACTS", "facts", "the node's devices and topology could not be read"},
    {"RDMARUN-NO-DEVICE", "devices", "the node has no RDMA device"},
    {"RDMARUN-DEVICE-ABSENT", "devices", "a device (or port) [check] devices names is missing"},
    {"RDMARUN-PORT-DOWN", "devices", "a port is not ACTIVE or its link is not up"},
    {"RDMARUN-FLAP", "flaps", "a port's link went down flap-count times within flap-window "
     "(its link_downed counter rose)"},
    {"RDMARUN-PORT-DROPPED", "flaps", "a port has been down for drop-after seconds or more"},
    {"RDMARUN-STATE", "flaps", "the ports' history cannot be kept (the state file)"},
    {"RDMARUN-KMSG", "kmsg", "the kernel log check did not finish"},
    {"RDMARUN-KMSG-PCIE", "kmsg", "the kernel logged a NIC's PCIe link limited below its "
     "capability (\"limited by ... x8 link\")"},
    {"RDMARUN-KMSG-FIRMWARE", "kmsg", "the kernel logged firmware commands of a NIC that failed "
     "or timed out (mlx5)"},
    {"RDMARUN-KMSG-HEALTH", "kmsg", "the kernel logged a NIC's firmware health lost (mlx5's miss "
     "count)"},
    {"RDMARUN-KMSG-MODULE", "kmsg", "the kernel logged a transceiver or cable error (mlx5's port "
     "module event)"},
    {"RDMARUN-KMSG-TEMPERATURE", "kmsg", "the kernel logged a module or sensor too hot"},
    {"RDMARUN-KMSG-LINK-FLAP", "kmsg", "the kernel logged flap-count link downs of a NIC's "
     "interface within kmsg-window"},
    {"RDMARUN-RATE", "rate", "a port's rate is below min-rate"},
    {"RDMARUN-MTU", "mtu", "a port's active MTU is not the one asked for"},
    {"RDMARUN-PCIE-DOWNTRAINED", "pcie", "a NIC's PCIe link trained below its capability"},
    {"RDMARUN-MEMLOCK", "memlock", "the locked-memory limit is below what is asked for"},
    {"RDMARUN-HUGEPAGES", "hugepages", "fewer free huge pages than asked for"},
    {"RDMARUN-MODULE", "modules", "a kernel module is not loaded"},
    {"RDMARUN-COUNTERS-LOSS", "counters", "loss counters grew past their limit"},
    {"RDMARUN-COUNTERS-ERROR", "counters", "error counters grew past their limit"},
    {"RDMARUN-COUNTERS-RECEIVER", "counters", "receiver (RNR, out of buffer) counters grew past "
     "their limit"},
    {"RDMARUN-COUNTERS-CONGESTION", "counters", "congestion counters grew past their limit"},
    {"RDMARUN-COUNTERS-LINK", "counters", "link counters (symbol errors, link down) grew past "
     "their limit"},
    {"RDMARUN-COUNTERS-OTHER", "counters", "a counter rdmarun does not know grew past its limit"},
    {"RDMARUN-COUNTERS-BASELINE", "counters", "the counter baseline cannot be written"},
    {"RDMARUN-EFA-RETRANS-TIMEOUT", "counters", "an EFA port's retransmissions timed out "
     "(retrans_timeout_events grew)"},
    {"RDMARUN-EFA-UNRESPONSIVE-REMOTE", "counters", "an EFA port found a remote unresponsive "
     "(unresponsive_remote_events grew)"},
    {"RDMARUN-EFA-IMPAIRED-REMOTE", "counters", "an EFA port's connection to a remote was "
     "impaired (impaired_remote_conn_events grew)"},
    {"RDMARUN-EFA-WR-ERROR", "counters", "RDMA reads or writes failed on an EFA port "
     "(rdma_read_wr_err, rdma_write_wr_err grew)"},
    {"RDMARUN-CXI-UNCORRECTED-CW", "counters", "a Slingshot NIC's link lost codewords FEC "
     "could not correct (hni_pcs_uncorrected_cw grew)"},
    {"RDMARUN-CXI-PCIE-ERRORS", "counters", "a Slingshot NIC saw uncorrectable PCIe errors "
     "(pcie_uncorr_err grew)"},
    {"RDMARUN-CXI-LINK-FLAPS", "counters", "a Slingshot NIC's link restarted (link_restarts "
     "gained a time)"},
    {"RDMARUN-MANIFEST", "manifest", "the manifest cannot be read (probe --json of a good node)"},
    {"RDMARUN-MANIFEST-DEVICE", "manifest", "a device in the manifest is missing, or one is here "
     "the manifest does not list"},
    {"RDMARUN-MANIFEST-PORT", "manifest", "a port in the manifest is missing"},
    {"RDMARUN-MANIFEST-PCI", "manifest", "a device at another PCI address (named in another "
     "order)"},
    {"RDMARUN-MANIFEST-BOARD", "manifest", "another board id"},
    {"RDMARUN-MANIFEST-FIRMWARE", "manifest", "other firmware"},
    {"RDMARUN-MANIFEST-NUMA", "manifest", "a NIC or GPU on another NUMA node (misbound)"},
    {"RDMARUN-MANIFEST-NETDEV", "manifest", "other network interfaces on a device"},
    {"RDMARUN-MANIFEST-PCIE", "manifest", "another PCIe generation or width"},
    {"RDMARUN-MANIFEST-LINK-LAYER", "manifest", "another link layer (InfiniBand, Ethernet)"},
    {"RDMARUN-MANIFEST-RATE", "manifest", "another port rate (width and speed)"},
    {"RDMARUN-MANIFEST-MTU", "manifest", "another active MTU"},
    {"RDMARUN-MANIFEST-GID", "manifest", "another GID table shape (entries and their types)"},
    {"RDMARUN-MANIFEST-PKEY", "manifest", "another P_Key table (the port in other partitions)"},
    {"RDMARUN-MANIFEST-KERNEL", "manifest", "another kernel release"},
    {"RDMARUN-MANIFEST-MODULE", "manifest", "an RDMA module missing or at another version"},
    {"RDMARUN-MANIFEST-GPU", "manifest", "a GPU in the manifest is missing"},
    {"RDMARUN-LOSSLESS", "lossless", "PFC or ECN is not on the RoCE traffic's priority"},
    {"RDMARUN-IRQ", "irq-affinity", "a NIC's interrupts go to another NUMA node"},
    {"RDMARUN-GOVERNOR", "governor", "a CPU's frequency governor is not the one asked for"},
    {"RDMARUN-IDLE", "idle-states", "an idle state deeper than max-idle-latency is enabled"},
    {"RDMARUN-GPUDIRECT", "gpudirect", "GPUDirect RDMA is not possible (peermem, dma-buf, ACS)"},
    {"RDMARUN-QP-TEST", "qp", "the RC queue-pair loopback failed on a port"},
    {"RDMARUN-LOOPBACK", "loopback", "the loopback bandwidth test could not run on a port"},
    {"RDMARUN-LOOPBACK-BW", "loopback", "a port's loopback RDMA WRITE bandwidth is below "
     "min-loopback-gbps or min-loopback-percent of the speed-of-light model's figure for it (of "
     "its rate for software RDMA)"},
    {"RDMARUN-PATH", "path-test", "check --path-test --drain: the node fails RDMA with a node "
     "that passed every path (re-paired), so it is the bad side"},
    {FAULT_CONFIG, NULL, "a [check] value in the site's file the check cannot read"},
    {FAULT_TIMEOUT, NULL, "a check did not finish within its time limit (a hung read)"},
};
const size_t nfault_codes = sizeof(fault_codes) / sizeof(*fault_codes);

const char *fault_code_of_check(const char *check)
{
    for (size_t i = 0; i < nfault_codes; i++)
        if (fault_codes[i].check && strcmp(fault_codes[i].check, check) == 0)
            return fault_codes[i].code;
    return "RDMARUN-CHECK";
}
