#!/usr/bin/env python3
"""The probe goldens' oracle: what a recorded sysfs tree says, read here from
its files as the kernel's ABI defines them (Documentation/ABI/stable/
sysfs-class-infiniband, sysfs-bus-pci), not through rdmarun, and checked
against the golden files tests/golden/dry_run.sh keeps for it
(probe@NODE.json and probe@NODE.txt). A golden regenerated from wrong output
fails here.

  probe_oracle.py TREE JSON TXT   prints one "ok"/"not ok" line per fact
                                  group; exits 1 when any is wrong.
"""
import json
import os
import re
import sys


def read(path):
    """A sysfs attribute's text, or None when the tree has no such file."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def uevent(dev):
    """device/uevent's KEY=VALUE lines (DRIVER, PCI_SLOT_NAME)."""
    text = read(os.path.join(dev, "device", "uevent")) or ""
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def gts(text):
    """current_link_speed "8.0 GT/s PCIe" -> 8.0."""
    m = re.match(r"([0-9.]+) GT/s", text or "")
    return float(m.group(1)) if m else None


def number(text):
    return int(text) if text is not None and re.fullmatch(r"[0-9]+", text) else None


def gids(port):
    """Non-zero GID table entries (ibv_devinfo -v lists the same), with the
    type and netdev the kernel's gid_attrs give each."""
    out = []
    names = os.listdir(os.path.join(port, "gids")) if os.path.isdir(os.path.join(port, "gids")) else []
    for i in sorted(int(n) for n in names if n.isdigit()):
        gid = read(os.path.join(port, "gids", str(i)))
        if not gid or set(gid.replace(":", "")) == {"0"}:
            continue
        out.append({"index": i, "gid": gid,
                    "type": read(os.path.join(port, "gid_attrs", "types", str(i))),
                    "ndev": read(os.path.join(port, "gid_attrs", "ndevs", str(i)))})
    return out


def counters(port):
    """counters/ and hw_counters/, each file a count; hw_counters/lifespan is
    not one (the ABI: how many milliseconds the driver may cache the
    counters)."""
    out = {}
    for sub in ("counters", "hw_counters"):
        d = os.path.join(port, sub)
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if sub == "hw_counters" and name == "lifespan":
                continue
            v = number(read(os.path.join(d, name)))
            if v is not None:
                out[name] = v
    return out


def port_facts(port, num):
    state = read(os.path.join(port, "state")) or ""
    phys = read(os.path.join(port, "phys_state")) or ""
    lid = read(os.path.join(port, "lid"))
    sm = read(os.path.join(port, "sm_lid"))
    rate = read(os.path.join(port, "rate"))
    m = re.match(r"([0-9.]+) Gb/sec", rate or "")
    return {"port": num, "state": state.split(": ", 1)[-1], "phys_state": phys.split(": ", 1)[-1],
            "link_layer": read(os.path.join(port, "link_layer")), "rate": rate,
            "rate_gbps": float(m.group(1)) if m else None,
            "lid": int(lid, 16) if lid else None, "sm_lid": int(sm, 16) if sm else None,
            "gids": gids(port), "counters": counters(port)}


def device_facts(root, name):
    dev = os.path.join(root, name)
    ev = uevent(dev)
    numa = number(read(os.path.join(dev, "device", "numa_node")))
    net = os.path.join(dev, "device", "net")
    ports = os.path.join(dev, "ports")
    return {"name": name, "driver": ev.get("DRIVER"), "pci_busid": ev.get("PCI_SLOT_NAME"),
            "node_guid": read(os.path.join(dev, "node_guid")),
            "fw_ver": read(os.path.join(dev, "fw_ver")), "board_id": read(os.path.join(dev, "board_id")),
            "numa_node": numa, "local_cpus": read(os.path.join(dev, "device", "local_cpulist")),
            "speed": gts(read(os.path.join(dev, "device", "current_link_speed"))),
            "width": number(read(os.path.join(dev, "device", "current_link_width"))),
            "max_speed": gts(read(os.path.join(dev, "device", "max_link_speed"))),
            "max_width": number(read(os.path.join(dev, "device", "max_link_width"))),
            "netdevs": sorted(os.listdir(net)) if os.path.isdir(net) else [],
            "ports": [port_facts(os.path.join(ports, p), int(p))
                      for p in sorted(os.listdir(ports), key=int)] if os.path.isdir(ports) else []}


def tree_facts(tree):
    root = os.path.join(tree, "class", "infiniband")
    names = sorted(os.listdir(root)) if os.path.isdir(root) else []
    return [device_facts(root, n) for n in names]


class Report:
    def __init__(self, node):
        self.node, self.failed = node, False

    def check(self, good, what, detail=""):
        print(("ok" if good else "not ok") + f" - {self.node}: {what}" +
              ("" if good else f" ({detail})"))
        self.failed |= not good


def same(got, want):
    return got == want or (isinstance(want, float) and got is not None and abs(got - want) < 1e-9)


def check_json(r, devs, probe):
    pdevs = {d["name"]: d for d in probe["devices"]}
    r.check(sorted(pdevs) == [d["name"] for d in devs], "the JSON's devices are the tree's",
            f"{sorted(pdevs)} vs {[d['name'] for d in devs]}")
    for d in devs:
        p = pdevs.get(d["name"], {"ports": []})
        bad = [k for k in ("node_guid", "fw_ver", "board_id", "pci_busid", "numa_node",
                           "local_cpus", "netdevs") if not same(p.get(k), d[k])]
        if d["driver"]:
            bad += [] if p.get("driver") == d["driver"] else ["driver"]
        pcie = p.get("pcie", {})
        bad += [k for k, v in (("speed_gts", d["speed"]), ("width", d["width"]),
                               ("max_speed_gts", d["max_speed"]), ("max_width", d["max_width"]))
                if not same(pcie.get(k), v)]
        r.check(not bad, f"{d['name']}: GUID, firmware, board, PCI, NUMA, CPUs, netdevs, PCIe link",
                "differ: " + ", ".join(bad))
        pports = {q["port"]: q for q in p["ports"]}
        r.check(sorted(pports) == [q["port"] for q in d["ports"]], f"{d['name']}: its ports")
        for q in d["ports"]:
            pq = pports.get(q["port"], {})
            bad = [k for k in ("state", "phys_state", "link_layer", "rate", "rate_gbps", "lid",
                               "sm_lid", "counters") if not same(pq.get(k), q[k])]
            pg = {g["index"]: g for g in pq.get("gids", [])}
            if sorted(pg) != [g["index"] for g in q["gids"]]:
                bad.append("GID indexes")
            for g in q["gids"]:
                got = pg.get(g["index"], {})
                bad += [f"GID {g['index']} {k}" for k in ("gid", "type", "ndev")
                        if g[k] is not None and got.get(k) != g[k]]
            r.check(not bad, f"{d['name']} port {q['port']}: state, rate, LIDs, counters, GIDs",
                    "differ: " + ", ".join(bad))


def check_warnings(r, devs, probe):
    """The judgments the probe must make from these facts: a port not ACTIVE,
    a PCIe link trained below its capability."""
    text = "\n".join(probe["warnings"])
    for d in devs:
        for q in d["ports"]:
            if q["state"] != "ACTIVE":
                r.check(f"{d['name']} port {q['port']} is {q['state']}" in text,
                        f"{d['name']} port {q['port']} ({q['state']}) is warned of")
        if d["speed"] and d["max_speed"] and (d["speed"] < d["max_speed"] or d["width"] < d["max_width"]):
            r.check(f"{d['name']} PCIe link trained at {d['speed']:.1f} GT/s x{d['width']}, "
                    f"below its capability {d['max_speed']:.1f} GT/s x{d['max_width']}" in text,
                    f"{d['name']}'s PCIe link below its capability is warned of")


def check_text(r, devs, lines):
    for d in devs:
        r.check(any(line.startswith(d["name"] + ":") for line in lines), f"{d['name']}: in the text")
        for q in d["ports"]:
            head = f"  port {q['port']}: {q['state']} ({q['phys_state']}), {q['link_layer']}, {q['rate']}"
            r.check(any(line.startswith(head) for line in lines), f"{d['name']} port {q['port']}: '{head.strip()}'")
            for g in q["gids"]:
                want = rf"^\s+GID {g['index']}\s+{re.escape(g['gid'])}"
                if g["type"]:
                    want += rf"\s+{re.escape(g['type'])}"
                if g["ndev"]:
                    want += rf"\s+{re.escape(g['ndev'])}"
                ok = any(re.match(want + r"\s*$", line) for line in lines)
                r.check(ok, f"{d['name']} port {q['port']} GID {g['index']} in the text")


def main():
    tree, json_path, txt_path = sys.argv[1:4]
    r = Report(os.path.basename(tree.rstrip("/")))
    devs = tree_facts(tree)
    with open(json_path) as f:
        probe = json.loads(f.read().rsplit("exit status:", 1)[0])
    check_json(r, devs, probe)
    check_warnings(r, devs, probe)
    with open(txt_path) as f:
        check_text(r, devs, f.read().splitlines())
    sys.exit(1 if r.failed else 0)


if __name__ == "__main__":
    main()
