#!/usr/bin/env python3
"""Writes the recorded trees for fabric health (lossless RoCE, interrupts,
CPU power state, GPUDirect's PCIe bridges) in the kernel's documented
layout. Run once; its output is committed. Layouts:
  class/net/NETDEV/ecn/roce_np|roce_rp/enable/PRIO  "0"/"1" (mlx5 of MLNX_OFED)
  kernel/config/rdma_cm/DEV/ports/N/default_roce_mode|default_roce_tos (cma_configfs.c)
  class/infiniband/DEV/device/msi_irqs/N, with recorded/proc/irq/N/smp_affinity_list
  devices/system/cpu/cpuN/cpufreq/scaling_governor, cpuidle/stateK/{name,latency,disable}
  bus/pci/devices/BDF/config (4096 bytes as root reads it, 64 as others), resource
  recorded/dcb-pfc|app-NETDEV.json: 'dcb -j pfc|app show dev NETDEV' (iproute2 6.1/6.15)
  class/infiniband/DEV/ports/N/hw_counters/NAME: mlx5's, every name its driver makes
    (drivers/infiniband/hw/mlx5/counters.c: basic, out-of-sequence, retransmission,
    congestion, extended error, RoCE acceleration and PPCNT counters), and lifespan
"""
import os, shutil, struct, sys

here = os.path.dirname(os.path.abspath(__file__))

def put(root, path, text):
    p = os.path.join(root, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'wb' if isinstance(text, bytes) else 'w') as f:
        f.write(text)

def roce_node(name, pfc, ecn, dscp_map, tos, irq_cpus, governor, c6, dcb_615=False):
    root = os.path.join(here, name)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(os.path.join(here, 'roce-mlx5'), root)
    nd = 'ens1f0np0'
    os.makedirs(os.path.join(root, 'class/infiniband/mlx5_0/device/net', nd), exist_ok=True)
    put(root, 'class/infiniband/mlx5_0/device/net/%s/.keep' % nd, '')
    for side in ('roce_np', 'roce_rp'):
        for p in range(8):
            put(root, 'class/net/%s/ecn/%s/enable/%d' % (nd, side, p), '1\n' if p in ecn else '0\n')
    hw_counters(root, 'mlx5_0', 1)
    put(root, 'kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode', 'RoCE v2\n')
    put(root, 'kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos', '%d\n' % tos)
    for irq, cpus in irq_cpus.items():
        put(root, 'class/infiniband/mlx5_0/device/msi_irqs/%d' % irq, 'msix\n')
        put(root, 'recorded/proc/irq/%d/smp_affinity_list' % irq, cpus + '\n')
    prio_pfc = ','.join('true' if p in pfc else 'false' for p in range(8))
    put(root, 'recorded/dcb-pfc-%s.json' % nd,
        '{"pfc_cap":8,"macsec_bypass":false,"delay":0,"prio_pfc":[%s]}\n' % prio_pfc)
    extra = ',\" \"' if dcb_615 else ''
    entries = ','.join('[%d,%d%s]' % (d, p, extra) for d, p in dscp_map)
    put(root, 'recorded/dcb-app-%s.json' % nd, '{"dscp_prio":[%s]}\n' % entries if entries else '{}\n')
    for cpu in range(16):
        d = 'devices/system/cpu/cpu%d' % cpu
        put(root, d + '/cpufreq/scaling_governor', governor + '\n')
        states = [('POLL', 0), ('C1', 2), ('C1E', 10), ('C6', 133)]
        for k, (sname, lat) in enumerate(states):
            put(root, '%s/cpuidle/state%d/name' % (d, k), sname + '\n')
            put(root, '%s/cpuidle/state%d/latency' % (d, k), '%d\n' % lat)
            put(root, '%s/cpuidle/state%d/disable' % (d, k),
                '0\n' if sname != 'C6' or c6 else '1\n')

# mlx5's hw_counters (drivers/infiniband/hw/mlx5/counters.c, Linux 6.1-6.12),
# in its groups' order; the values are a node's after some traffic and loss.
MLX5_HW_COUNTERS = [
    ('rx_write_requests', 18214), ('rx_read_requests', 77), ('rx_atomic_requests', 0),
    ('rx_dct_connect', 0), ('out_of_buffer', 0), ('out_of_sequence', 12),
    ('duplicate_request', 3), ('rnr_nak_retry_err', 0), ('packet_seq_err', 1),
    ('implied_nak_seq_err', 0), ('local_ack_timeout_err', 2),
    ('rp_cnp_ignored', 0), ('rp_cnp_handled', 41), ('np_ecn_marked_roce_packets', 3400),
    ('np_cnp_sent', 39), ('resp_local_length_error', 0), ('resp_cqe_error', 0),
    ('req_cqe_error', 0), ('req_remote_invalid_request', 0), ('req_remote_access_errors', 0),
    ('resp_remote_access_errors', 0), ('resp_cqe_flush_error', 0), ('req_cqe_flush_error', 0),
    ('roce_adp_retrans', 0), ('roce_adp_retrans_to', 0), ('roce_slow_restart', 0),
    ('roce_slow_restart_cnps', 0), ('roce_slow_restart_trans', 0),
    ('rx_icrc_encapsulated', 0), ('lifespan', 10),
]

def hw_counters(root, dev, port):
    for name, value in MLX5_HW_COUNTERS:
        put(root, 'class/infiniband/%s/ports/%d/hw_counters/%s' % (dev, port, name), '%d\n' % value)

def config_space(acs_control, full=True):
    """A PCIe bridge's config space: header, then AER at 0x100 and ACS at 0x148."""
    b = bytearray(4096)
    struct.pack_into('<HH', b, 0, 0x10b5, 0x8747)        # PLX PEX 8747 switch port
    struct.pack_into('<I', b, 0x100, 0x0001 | 1 << 16 | 0x148 << 20)   # AER, next 0x148
    struct.pack_into('<I', b, 0x148, 0x000d | 1 << 16)   # ACS, last
    struct.pack_into('<HH', b, 0x14c, 0x007f, acs_control)
    return bytes(b if full else b[:64])

def gpu_node(name, acs, full=True):
    """cts1-pascal's mlx5_0 (0000:08:00.0) and P100s at 04:00.0 and 07:00.0
    behind the switch 02:00.0 (ports 03:04.0, 03:10.0, 03:14.0)."""
    root = os.path.join(here, name)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(os.path.join(here, 'ib-mlx5'), root)
    dev = os.path.join(root, 'class/infiniband')
    for n in os.listdir(dev):
        if n != 'mlx5_0':
            shutil.rmtree(os.path.join(dev, n))
    put(root, 'class/infiniband/mlx5_0/device/uevent', 'DRIVER=mlx5_core\nPCI_SLOT_NAME=0000:08:00.0\n')
    for bdf in ('0000:02:00.0', '0000:03:04.0', '0000:03:10.0', '0000:03:14.0'):
        put(root, 'bus/pci/devices/%s/config' % bdf, config_space(acs.get(bdf, 0), full))
    for gpu in ('0000:04:00.0', '0000:07:00.0'):
        # BAR0 16 MiB registers, BAR1 16 GiB (64-bit, lines 1-2), BAR3 32 MiB
        put(root, 'bus/pci/devices/%s/resource' % gpu,
            '0x00000000c4000000 0x00000000c4ffffff 0x0000000000040200\n'
            '0x0000038000000000 0x00000383ffffffff 0x000000000014220c\n'
            '0x0000000000000000 0x0000000000000000 0x0000000000000000\n'
            '0x0000038400000000 0x0000038401ffffff 0x000000000014220c\n')

def hca8_node(name):
    """A node with eight single-port HDR HCAs, four on each of two NUMA nodes
    (the layout of 8-GPU nodes: an HCA per GPU behind the same switch), each
    the recorded mlx5_1 of ib-mlx5 with its own GUID, LID, netdev and PCI slot."""
    root = os.path.join(here, name)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(os.path.join(here, 'ib-mlx5'), root)
    dev = os.path.join(root, 'class/infiniband')
    shutil.rmtree(os.path.join(dev, 'mlx5_0'))
    os.rename(os.path.join(dev, 'mlx5_1'), os.path.join(dev, 'model'))
    slots = ['0000:%02x:00.0' % b for b in (0x0c, 0x12, 0x48, 0x4e, 0x8a, 0x90, 0xc6, 0xcc)]
    for i, slot in enumerate(slots):
        d = 'class/infiniband/mlx5_%d' % i
        shutil.copytree(os.path.join(dev, 'model'), os.path.join(root, d))
        shutil.rmtree(os.path.join(root, d, 'device/net'))
        put(root, '%s/device/net/ib%d/.keep' % (d, i), '')
        put(root, d + '/node_guid', 'b83f:d203:00a1:%04x\n' % (0x10 + i))
        put(root, d + '/device/numa_node', '%d\n' % (i // 4))
        put(root, d + '/device/local_cpulist', '0-15\n' if i < 4 else '16-31\n')
        put(root, d + '/device/uevent', 'DRIVER=mlx5_core\nPCI_SLOT_NAME=%s\n' % slot)
        put(root, d + '/device/current_link_speed', '16.0 GT/s PCIe\n')
        put(root, d + '/device/max_link_speed', '16.0 GT/s PCIe\n')
        put(root, d + '/device/current_link_width', '16\n')
        put(root, d + '/ports/1/gids/0', 'fe80:0000:0000:0000:b83f:d203:00a1:%04x\n' % (0x10 + i))
        put(root, d + '/ports/1/rate', '200 Gb/sec (4X HDR)\n')
        put(root, d + '/ports/1/lid', '0x%x\n' % (0x40 + i))
    shutil.rmtree(os.path.join(dev, 'model'))

if __name__ == '__main__':
    # PFC and ECN on priority 3, DSCP 26 (UCX's traffic class 106) -> 3: a lossless site
    roce_node('roce-lossless', pfc={3}, ecn={3}, dscp_map=[(24, 3), (26, 3), (48, 6)], tos=106,
              irq_cpus={60: '0', 61: '1', 62: '2', 63: '3'}, governor='performance', c6=False)
    # PFC on 4 only, ECN nowhere, interrupts on the other socket, powersave, C6 on;
    # dcb of iproute2 6.15 (entries carry a " ")
    roce_node('roce-lossy', pfc={4}, ecn=set(), dscp_map=[(26, 3)], tos=0,
              irq_cpus={60: '8', 61: '9'}, governor='powersave', c6=True, dcb_615=True)
    # ACS P2P Request and Completion Redirect on the GPU's switch port 03:04.0
    gpu_node('pascal-acs', acs={'0000:03:04.0': 0x000d})
    gpu_node('pascal-noacs', acs={})
    gpu_node('pascal-user', acs={'0000:03:04.0': 0x000d}, full=False)
    hca8_node('ib-8hca')
