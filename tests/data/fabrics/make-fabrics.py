#!/usr/bin/env python3
"""Writes the recorded nodes of the fabrics beyond verbs: for each, a sysfs
tree (tests/data/fabrics/sysfs/NAME) in the layout its driver makes, and an hwloc XML
(tests/data/fabrics/NAME.xml) whose CPU side hwloc itself writes (lstopo
--input SYNTHETIC --of xml) and whose I/O side is added here, as hwloc's
Linux backend would record it. Run once; its output is committed, and the
suite loads each XML with hwloc and checks the trees against these specs.

Layouts, by the source that makes them:
  EFA   drivers/infiniband/hw/efa (efa_main.c efa_ib_device_add: name efa_%d,
        renamed rdmap<bus>s<slot> by rdma-core's udev rule, rdma_rename.c;
        efa_verbs.c efa_query_port: state 4 ACTIVE, phys_state 5 LinkUp, link
        layer IB_LINK_LAYER_UNSPECIFIED, which sysfs prints "Unknown", rate from
        the device's link speed since Linux 6.13 (efa_link_gbps_to_speed_and_width:
        400 -> 8X HDR), one GID (dev_attr.addr) and P_Key 0xffff; fw_ver empty, no
        counters/ (no MAD); hw_counters: efa_port_stats_descs in their order)
  CXI   HPE's cxi driver (drivers/net/ethernet/hpe/ss1: cass_core.c cass_probe
        names /sys/class/cxi/cxiN; cass_sysfs.c properties/*; cass_sbl.c
        port/{link,speed,...}, Cassini 1, no newline; cass_telem.c telemetry/
        NAME "VALUE@SECS.NSECS"; link_restarts/time_0..9), the hsn netdev of
        cxi_eth.c under the same PCI function; hwloc records the NIC as a
        Network OS device of subtype Slingshot (topology-linux.c,
        hwloc_linuxfs_cxi_class_fillinfos: CassiniVersion, NID)
  hfi1  drivers/infiniband/hw/hfi1 (sysfs.c: board_id, nctxts, serial, ...;
        link layer InfiniBand, 100 Gb/sec (4X EDR)), the 21 PMA counters of
        counters/ (drivers/infiniband/core/sysfs.c)
  gve   Google's gVNIC (drivers/net/ethernet/google/gve), the A3 node's data
        NICs beside its GPUs (TCPX: eth1-eth4, a NIC per two GPUs)
"""
import os, shutil, subprocess, sys
import xml.etree.ElementTree as ET

here = os.path.dirname(os.path.abspath(__file__))
sysfs = os.path.join(here, 'sysfs')

EFA_PORT_COUNTERS = [
    'tx_bytes', 'tx_pkts', 'rx_bytes', 'rx_pkts', 'rx_drops', 'send_bytes', 'send_wrs',
    'recv_bytes', 'recv_wrs', 'rdma_read_wrs', 'rdma_read_bytes', 'rdma_read_wr_err',
    'rdma_read_resp_bytes', 'rdma_write_wrs', 'rdma_write_bytes', 'rdma_write_wr_err',
    'rdma_write_recv_bytes', 'retrans_bytes', 'retrans_pkts', 'retrans_timeout_events',
    'unresponsive_remote_events', 'impaired_remote_conn_events']
EFA_DEVICE_COUNTERS = [
    'submitted_cmds', 'completed_cmds', 'cmds_err', 'no_completion_cmds', 'keep_alive_rcvd',
    'alloc_pd_err', 'create_qp_err', 'create_cq_err', 'reg_mr_err', 'alloc_ucontext_err',
    'create_ah_err', 'mmap_err']
PMA_COUNTERS = [
    'excessive_buffer_overrun_errors', 'link_downed', 'link_error_recovery',
    'local_link_integrity_errors', 'multicast_rcv_packets', 'multicast_xmit_packets',
    'port_rcv_constraint_errors', 'port_rcv_data', 'port_rcv_errors', 'port_rcv_packets',
    'port_rcv_remote_physical_errors', 'port_rcv_switch_relay_errors',
    'port_xmit_constraint_errors', 'port_xmit_data', 'port_xmit_discards',
    'port_xmit_packets', 'port_xmit_wait', 'symbol_error', 'unicast_rcv_packets',
    'unicast_xmit_packets', 'VL15_dropped']
CXI_TELEMETRY = {
    'hni_pcs_corrected_cw': 48213, 'hni_pcs_uncorrected_cw': 0, 'hni_pcs_good_cw': 9123456789,
    'hni_llr_tx_replay_event': 0, 'hni_llr_rx_replay_event': 0, 'pct_spt_timeouts': 0,
    'pct_sct_timeouts': 0, 'pct_tct_timeouts': 0}
STAMP = '1796600000.000000001'
# PCI ids of the GPU models the nodes have (pci.ids: 10de 2901 GB100 [B200],
# 20b0 GA100 [A100 SXM4 40GB], 2330 GH100 [H100 SXM5 80GB])
GPU_IDS = {'NVIDIA B200': '10de:2901', 'NVIDIA A100-SXM4-40GB': '10de:20b0',
           'NVIDIA H100 80GB HBM3': '10de:2330'}


def put(root, path, text):
    p = os.path.join(root, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'w') as f:
        f.write(text)


def cpulist(cpus):
    return cpus if isinstance(cpus, str) else '%d-%d' % (cpus[0], cpus[-1])


def pci_dev(root, d, slot, driver, numa, cpus, gts, width, ids):
    put(root, d + '/device/uevent', 'DRIVER=%s\nPCI_SLOT_NAME=%s\n' % (driver, slot))
    vendor, device = ids.split(':')   # pci-sysfs.c vendor_show, device_show: "0x%04x"
    put(root, d + '/device/vendor', '0x%s\n' % vendor)
    put(root, d + '/device/device', '0x%s\n' % device)
    put(root, d + '/device/numa_node', '%d\n' % numa)
    put(root, d + '/device/local_cpulist', cpulist(cpus) + '\n')
    for k in ('current', 'max'):
        put(root, d + '/device/%s_link_speed' % k, '%s GT/s PCIe\n' % gts)
        put(root, d + '/device/%s_link_width' % k, '%d\n' % width)


def efa_device(root, name, slot, numa, cpus, gbps, counters, ids):
    d = 'class/infiniband/' + name
    pci_dev(root, d, slot, 'efa', numa, cpus, '32.0', 16, ids)
    put(root, d + '/node_type', '7: unspecified\n')
    put(root, d + '/node_guid', '0000:0000:0000:0000\n')
    put(root, d + '/fw_ver', '\n')
    for c in EFA_DEVICE_COUNTERS + ['lifespan']:
        put(root, d + '/hw_counters/' + c, '10\n' if c == 'lifespan' else '0\n')
    p = d + '/ports/1'
    put(root, p + '/state', '4: ACTIVE\n')
    put(root, p + '/phys_state', '5: LinkUp\n')
    put(root, p + '/link_layer', 'Unknown\n')
    put(root, p + '/rate', {400: '400 Gb/sec (8X HDR)', 100: '100 Gb/sec (4X EDR)'}[gbps] + '\n')
    put(root, p + '/lid', '0x0\n')
    put(root, p + '/sm_lid', '0x0\n')
    bus = int(slot.split(':')[1], 16)
    put(root, p + '/gids/0', 'fe80:0000:0000:0000:0400:%04xff:fe00:%04x\n' % (bus, bus))
    put(root, p + '/gid_attrs/types/0', 'IB/RoCE v1\n')
    put(root, p + '/pkeys/0', '0xffff\n')
    for c in EFA_PORT_COUNTERS + ['lifespan']:
        put(root, p + '/hw_counters/' + c, '%d\n' % (10 if c == 'lifespan' else counters.get(c, 0)))


def cxi_device(root, n, slot, numa, cpus, link=True, telemetry=None, pcie_uncorr=0, restarts=0):
    d = 'class/cxi/cxi%d' % n
    pci_dev(root, d, slot, 'cxi_ss1', numa, cpus, '16.0', 16, '17db:0501')
    put(root, d + '/device/net/hsn%d/.keep' % n, '')
    props = {'link': '1' if link else '0', 'speed': '200000' if link else '-1',
             'nid': '0x%x' % (0x1a2b0 + n), 'nic_addr': '0x%x' % (0x1a2b0 + n),
             'cassini_version': '1.1', 'hpc_mtu': '2112', 'pcie_corr_err': '0',
             'pcie_uncorr_err': '%d' % pcie_uncorr}
    for k, v in props.items():
        put(root, d + '/device/properties/' + k, v + '\n')
    for k, v in {'link': 'up' if link else 'down', 'speed': 'BS_200G' if link else 'NA',
                 'link_layer_retry': 'on', 'media': 'electrical',
                 'pause': 'pfc/802.1qbb'}.items():
        put(root, d + '/device/port/' + k, v)   # cass_sbl.c: no newline
    values = dict(CXI_TELEMETRY, **(telemetry or {}))
    for k, v in values.items():
        put(root, d + '/device/telemetry/' + k, '%d@%s\n' % (v, STAMP))
    for t in range(10):
        put(root, d + '/device/link_restarts/time_%d' % t,
            '%d\n' % (1796500000 + 60 * t if t < restarts else 0))
    put(root, d + '/device/uc/qspi_blob_version', '1.5.41-ESM\n')
    put(root, d + '/device/fru/part_number', '102251001\n')


def hfi1_device(root, slot, numa, cpus, active=True):
    d = 'class/infiniband/hfi1_0'
    pci_dev(root, d, slot, 'hfi1', numa, cpus, '8.0', 16, '8086:24f0')
    put(root, d + '/node_type', '1: CA\n')
    put(root, d + '/node_guid', '0011:7501:0179:e1d4\n')
    put(root, d + '/fw_ver', '1.27.0\n')
    put(root, d + '/board_id', 'Intel Omni-Path Host Fabric Interface Adapter 100 Series\n')
    for k, v in {'nctxts': '20', 'nfreectxts': '18', 'serial': '0x00fb41a3',
                 'boardversion': 'ChipABI 3.0, ChipRev 7.17, SW Compat 3', 'hw_rev': '0x11'}.items():
        put(root, d + '/' + k, v + '\n')
    p = d + '/ports/1'
    put(root, p + '/state', '4: ACTIVE\n' if active else '1: DOWN\n')
    put(root, p + '/phys_state', '5: LinkUp\n' if active else '2: Polling\n')
    put(root, p + '/link_layer', 'InfiniBand\n')
    put(root, p + '/rate', '100 Gb/sec (4X EDR)\n')
    put(root, p + '/lid', '0x2a\n' if active else '0x0\n')
    put(root, p + '/sm_lid', '0x1\n' if active else '0x0\n')
    put(root, p + '/gids/0', 'fe80:0000:0000:0000:0011:7501:0179:e1d4\n')
    put(root, p + '/pkeys/0', '0xffff\n')
    for c in PMA_COUNTERS:
        put(root, p + '/counters/' + c, '0\n')


# ---- hwloc XML: hwloc's own CPU side, I/O added as its Linux backend records it ----

class Topology:
    def __init__(self, synthetic):
        xml = subprocess.run(['lstopo', '--input', synthetic, '--of', 'xml', '-'],
                             check=True, capture_output=True, text=True).stdout
        self.root = ET.fromstring(xml)
        self.gp = max(int(o.get('gp_index')) for o in self.root.iter('object')) + 1
        self.numa_parent = {}
        for parent in self.root.iter('object'):
            for child in parent.findall('object'):
                if child.get('type') == 'NUMANode':
                    self.numa_parent[int(child.get('os_index'))] = parent
        machine = self.root.find('object')
        for info in machine.findall('info'):
            if info.get('name') in ('Backend', 'SyntheticDescription', 'ProcessName'):
                machine.remove(info)
        machine.insert(0, ET.Element('info', name='Backend', value='Linux'))

    def obj(self, parent, typ, **attrs):
        o = ET.SubElement(parent, 'object', type=typ, gp_index=str(self.gp))
        self.gp += 1
        for k, v in attrs.items():
            if k == 'infos':
                continue
            o.set(k, v)
        for k, v in attrs.get('infos', []):
            ET.SubElement(o, 'info', name=k, value=v)
        return o

    def switch(self, numa, bus, last, speed):
        """A host bridge on NUMA node `numa`, a switch port under it: buses bus..last."""
        host = self.obj(self.numa_parent[numa], 'Bridge', bridge_type='0-1', depth='0',
                        bridge_pci='0000:[%02x-%02x]' % (bus, last))
        return self.obj(host, 'Bridge', bridge_type='1-1', depth='1',
                        bridge_pci='0000:[%02x-%02x]' % (bus + 1, last),
                        pci_busid='0000:%02x:00.0' % bus,
                        pci_type='0604 [1000:c030] [0000:0000] 00', pci_link_speed=speed)

    def pcidev(self, parent, busid, ids, cls, speed, name):
        return self.obj(parent, 'PCIDev', pci_busid=busid, pci_type='%s [%s] [%s] 00' % (cls, ids, ids),
                        pci_link_speed=speed, infos=[('PCIDevice', name)])

    def gpu(self, parent, busid, n, model):
        dev = self.pcidev(parent, busid, GPU_IDS[model], '0302', '63.015385', model)
        self.obj(dev, 'OSDev', name='cuda%d' % n, subtype='CUDA', osdev_type='5',
                 infos=[('Backend', 'CUDA'), ('GPUVendor', 'NVIDIA Corporation'),
                        ('GPUModel', model)])
        self.obj(dev, 'OSDev', name='nvml%d' % n, subtype='NVML', osdev_type='1',
                 infos=[('Backend', 'NVML'), ('GPUVendor', 'NVIDIA Corporation'),
                        ('GPUModel', model)])

    def write(self, path):
        ET.indent(self.root)
        with open(path, 'w') as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                    '<!DOCTYPE topology SYSTEM "hwloc2.dtd">\n')
            f.write(ET.tostring(self.root, encoding='unicode') + '\n')


def fresh(name):
    root = os.path.join(sysfs, name)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    return root


def efa_8x400(counters=None):
    """Eight EFA devices at 400 Gb/s (efa3), one beside each of eight GPUs
    under one PCIe switch, four switches on each of two NUMA nodes: the shape
    AWS gives its 8-GPU instances with an EFA device per GPU (p6-b200)."""
    name = 'efa-8x400'
    root = fresh(name)
    topo = Topology('pack:2 [numa] core:48 pu:2')
    for i in range(8):
        numa = i // 4
        cpus = list(range(96 * numa, 96 * numa + 96))
        bus = 0x10 + 0x10 * i
        sw = topo.switch(numa, bus, bus + 0xf, '63.015385')
        efa_slot, gpu_slot = '0000:%02x:00.0' % (bus + 2), '0000:%02x:00.0' % (bus + 3)
        dev = 'rdmap%ds0' % (bus + 2)
        efa_device(root, dev, efa_slot, numa, cpus, 400, {}, '1d0f:efa3')
        pci = topo.pcidev(sw, efa_slot, '1d0f:efa3', '0200', '63.015385',
                          'Elastic Fabric Adapter (EFA)')
        topo.obj(pci, 'OSDev', name=dev, osdev_type='3',
                 infos=[('NodeGUID', '0000:0000:0000:0000'), ('Port1State', '4'),
                        ('Port1LID', '0x0'), ('Port1LMC', '1')])
        topo.gpu(sw, gpu_slot, i, 'NVIDIA B200')
    topo.write(os.path.join(here, name + '.xml'))


def efa_g4dn(name, counters):
    """g4dn.metal's one EFA device (tests/data/topologies/g4dnmetal.xml:
    rdmap197s0, 0000:c5:00.0, efa0, 100 Gb/s, NUMA 1), with the port counters
    given: a node before and after a fault."""
    root = fresh(name)
    efa_device(root, 'rdmap197s0', '0000:c5:00.0', 1, '24-47,72-95', 100, counters, '1d0f:efa0')


def cxi_4nic(name, **fault):
    """A Perlmutter-style GPU node: one 64-core package in four NUMA nodes
    (NPS4), four A100s and four Cassini NICs, NIC i and GPU i on NUMA node
    3 - i (the order Perlmutter's MPICH_OFI_NIC_MAPPING examples undo), each
    on a root port of its own: a GPU reaches its NIC through the host
    bridge (PHB), why HPE's note asks NCCL_NET_GDR_LEVEL=PHB."""
    root = fresh(name)
    topo = Topology('pack:1 group:4 [numa] core:16 pu:2') if name == 'cxi-4nic' else None
    for i in range(4):
        numa = 3 - i
        cpus = list(range(32 * numa, 32 * numa + 32))
        bus = 0x21 + 0x38 * numa
        slot, gpu_slot = '0000:%02x:00.0' % (bus + 2), '0000:%02x:00.0' % (bus + 4)
        args = {k: v for k, v in fault.items() if k != 'nic'}
        cxi_device(root, i, slot, numa, cpus, **(args if fault.get('nic') == i else {}))
        if topo:
            # the NIC on a root port of its own, the GPU on another: PHB apart
            nic_port = topo.switch(numa, bus, bus + 2, '31.507692')
            sw = topo.switch(numa, bus + 3, bus + 0xf, '31.507692')
            pci = topo.pcidev(nic_port, slot, '17db:0501', '0200', '31.507692',
                              'Cassini 1 [Slingshot 11]')
            topo.obj(pci, 'OSDev', name='cxi%d' % i, subtype='Slingshot', osdev_type='2',
                     infos=[('CassiniVersion', '1.1'), ('NID', '0x%x' % (0x1a2b0 + i))])
            topo.obj(pci, 'OSDev', name='hsn%d' % i, subtype='Slingshot', osdev_type='2',
                     infos=[('Address', '02:00:00:01:a2:b%d' % i)])
            topo.gpu(sw, gpu_slot, i, 'NVIDIA A100-SXM4-40GB')
    if topo:
        topo.write(os.path.join(here, name + '.xml'))


def opa_quartz(name, active=True):
    """LLNL quartz's hfi1_0 (tests/data/topologies/cts1-quartz-smt1.xml:
    0000:83:00.0 on NUMA 1, CPUs 18-35) as the hfi1 driver shows it."""
    root = fresh(name)
    hfi1_device(root, '0000:83:00.0', 1, '18-35', active)


def a3_tcpx():
    """An A3 High node (a3-highgpu-8g): two packages, eight H100s, four gVNIC
    data NICs (eth1-eth4), each under a PCIe switch with two GPUs, and the
    control NIC eth0 on the first host bridge."""
    name = 'a3-tcpx'
    topo = Topology('pack:2 [numa] core:52 pu:2')
    for n in range(4):
        numa = n // 2
        bus = 0x04 + 0x30 * n
        sw = topo.switch(numa, bus, bus + 0x2f, '31.507692')
        nic = topo.pcidev(sw, '0000:%02x:00.0' % (bus + 2), '1ae0:0042', '0200', '31.507692',
                          'Compute Engine Virtual Ethernet [gVNIC]')
        topo.obj(nic, 'OSDev', name='eth%d' % (n + 1), osdev_type='2',
                 infos=[('Address', '42:01:0a:80:00:%02x' % (n + 1))])
        for g in range(2):
            topo.gpu(sw, '0000:%02x:00.0' % (bus + 3 + g), 2 * n + g, 'NVIDIA H100 80GB HBM3')
    host = topo.obj(topo.numa_parent[0], 'Bridge', bridge_type='0-1', depth='0',
                    bridge_pci='0000:[00-00]')
    nic = topo.pcidev(host, '0000:00:0c.0', '1ae0:0042', '0200', '0.000000',
                      'Compute Engine Virtual Ethernet [gVNIC]')
    topo.obj(nic, 'OSDev', name='eth0', osdev_type='2', infos=[('Address', '42:01:0a:80:00:00')])
    topo.write(os.path.join(here, name + '.xml'))


def azure_ndv5_xml():
    """An Azure ND H100 v5 VM as its guest sees it: two NUMA nodes, eight
    H100s and eight ConnectX-7 InfiniBand NICs, each alone on a PCI domain
    of its own under no switch (Hyper-V's vPCI: GPUs 0001-0008, NICs
    0101-0108), so nothing in the tree says which NIC is near which GPU."""
    topo = Topology('pack:2 [numa] core:48 pu:1')
    for i in range(8):
        numa = i // 4
        for domain, kind in ((0x0001 + i, 'gpu'), (0x0101 + i, 'nic')):
            host = topo.obj(topo.numa_parent[numa], 'Bridge', bridge_type='0-1', depth='0',
                            bridge_pci='%04x:[00-00]' % domain)
            busid = '%04x:00:00.0' % domain
            if kind == 'gpu':
                topo.gpu(host, busid, i, 'NVIDIA H100 80GB HBM3')
                continue
            pci = topo.pcidev(host, busid, '15b3:101e', '0207', '63.015385',
                              'MT2910 Family [ConnectX-7 Virtual Function]')
            topo.obj(pci, 'OSDev', name='mlx5_ib%d' % i, subtype='OpenFabrics', osdev_type='3',
                     infos=[('NodeGUID', '0015:5dff:fe33:%04x' % i), ('Port1State', '4'),
                            ('Port1LID', '0x%x' % (0x10 + i)), ('Port1LMC', '0')])
    topo.write(os.path.join(here, 'azure-ndv5.xml'))


def azure_ndv5(name, topo_file=True, conf=False):
    """The VM's DMI (the kernel's dmi-id.c: Hyper-V's sys_vendor and
    product_name) and what Azure's HPC image adds (azhpc-images'
    customizations/ndv5.sh: the NCCL topology file under /opt/microsoft, and
    /etc/nccl.conf naming it), under recorded/: the image (topology file and
    nccl.conf), a container on it (the file mounted, no nccl.conf), a
    container without either. The topology file here is a stand-in of the
    same name (NCCL's XML form, not Azure's content): rdmarun reads its name."""
    root = fresh(name)
    put(root, 'class/dmi/id/sys_vendor', 'Microsoft Corporation\n')
    put(root, 'class/dmi/id/product_name', 'Virtual Machine\n')
    if topo_file:
        put(root, 'recorded/opt/microsoft/ndv5-topo.xml', '<system version="1">\n</system>\n')
    if conf:
        put(root, 'recorded/etc/nccl.conf', 'NCCL_IB_PCI_RELAXED_ORDERING=1\n'
            'NCCL_TOPO_FILE=/opt/microsoft/ndv5/topo.xml\nNCCL_IGNORE_CPU_AFFINITY=1\n')


if __name__ == '__main__':
    efa_8x400()
    efa_g4dn('efa-g4dn', {'tx_pkts': 81204, 'rx_pkts': 80112, 'send_wrs': 4022,
                          'retrans_pkts': 3})
    # one fault each, the counters after it (the baseline is efa-g4dn)
    base = {'tx_pkts': 91204, 'rx_pkts': 90112, 'send_wrs': 5022, 'retrans_pkts': 3}
    efa_g4dn('efa-g4dn-retrans', dict(base, retrans_pkts=41, retrans_timeout_events=2))
    efa_g4dn('efa-g4dn-unresponsive', dict(base, unresponsive_remote_events=1))
    efa_g4dn('efa-g4dn-impaired', dict(base, impaired_remote_conn_events=4))
    efa_g4dn('efa-g4dn-wrerr', dict(base, rdma_read_wr_err=1))
    cxi_4nic('cxi-4nic')
    cxi_4nic('cxi-4nic-down', nic=2, link=False)
    cxi_4nic('cxi-4nic-cw', nic=1, telemetry={'hni_pcs_uncorrected_cw': 17})
    cxi_4nic('cxi-4nic-pcie', nic=0, pcie_uncorr=2)
    cxi_4nic('cxi-4nic-flap', nic=3, restarts=2)
    opa_quartz('opa-hfi1')
    opa_quartz('opa-hfi1-down', active=False)
    a3_tcpx()
    azure_ndv5_xml()
    azure_ndv5('azure-ndv5-image', conf=True)
    azure_ndv5('azure-ndv5-mounted')
    azure_ndv5('azure-ndv5-bare', topo_file=False)
