"""The dumbbell's namespaces, veths, TUN pair, addresses, routes and sysctls.

    S -veth- R1 =tuna= delay line =tunb= R2 -veth- D          (bottleneck on R2's egress to D)

With case["gso"] the TUN pair carries GSO packets (one sender TSO burst per read/write, which
the delay line can sustain at 1 Gb/s) and an extra router R3 sits between R2 and D: R2's veth
towards R3 has GSO/TSO off, so the kernel cuts every burst into MTU-sized packets there, and
the bottleneck (htb + pfifo, counting packets) is on R3's egress to D.
"""

from __future__ import annotations

import os
import subprocess
from typing import Any

from .config import ADDR, ENDPOINT_SYSCTLS, NS, bottleneck, mtu
from .qdisc import add_bottleneck
from .shell import nsx, sh


def teardown() -> None:
    for name in NS.values():
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)


def _veth(a_dev: str, a_ns: str, b_dev: str, b_ns: str) -> list[str]:
    a = [a_dev, "netns", NS[a_ns]]
    return ["ip", "link", "add", *a, "type", "veth", "peer", "name", b_dev, "netns", NS[b_ns]]


def build(case: dict[str, Any], burst_s: float, log: list[str]) -> None:
    """Builds the whole topology from scratch (any leftover namespaces are deleted first)."""
    gso = bool(case.get("gso"))
    link_mtu = mtu(case)
    teardown()
    used = [k for k in NS if gso or k != "r3"]
    for k in used:
        sh(["ip", "netns", "add", NS[k]], log)
        sh(["ip", "-n", NS[k], "link", "set", "lo", "up"], log)
    last = bottleneck(case)[0]  # the router next to D
    sh(_veth("vs", "s", "vr1", "r1"), log)
    sh(_veth("vd", "d", f"v{last}", last), log)
    tun_mode = ["mode", "tun", *(["vnet_hdr"] if gso else [])]
    sh(["ip", "-n", NS["r1"], "tuntap", "add", "dev", "tuna", *tun_mode], log)
    sh(["ip", "-n", NS["r2"], "tuntap", "add", "dev", "tunb", *tun_mode], log)
    addrs = [
        ("s", "vs", ADDR["s"] + "/24"),
        ("r1", "vr1", ADDR["r1_s"] + "/24"),
        (last, f"v{last}", ADDR["r2_d"] + "/24"),
        ("d", "vd", ADDR["d"] + "/24"),
        ("r1", "tuna", ADDR["r1_tun"] + "/32"),
        ("r2", "tunb", ADDR["r2_tun"] + "/32"),
    ]
    if gso:
        sh(_veth("vr2", "r2", "vr3a", "r3"), log)
        addrs += [("r2", "vr2", ADDR["r2_r3"] + "/24"), ("r3", "vr3a", ADDR["r3_r2"] + "/24")]
    for ns, dev, addr in addrs:
        sh(["ip", "-n", NS[ns], "addr", "add", addr, "dev", dev], log)
        sh(["ip", "-n", NS[ns], "link", "set", dev, "mtu", str(link_mtu), "up"], log)
    if gso:
        # Segment every GSO packet on its way out of R2; R3 sees MTU-sized packets only.
        sh(nsx("r2", "ethtool", "-K", "vr2", "tso", "off", "gso", "off"), log)
        sh(nsx("r3", "ethtool", "-K", "vr3a", "gro", "off"), log)
        # Receive packet steering: the segments' forwarding, the bottleneck and D's TCP run
        # on both CPUs (by flow hash) instead of all in the delay line's write().
        cpus = format((1 << (os.cpu_count() or 1)) - 1, "x")
        for ns, dev in (("r3", "vr3a"), ("d", "vd")):
            sh(nsx(ns, "sh", "-c", f"echo {cpus} > /sys/class/net/{dev}/queues/rx-0/rps_cpus"), log)
    for ns, dev in (("r1", "tuna"), ("r2", "tunb")):
        # The delay line reads in batches; the TUN queue must never overflow.
        sh(["ip", "-n", NS[ns], "link", "set", dev, "txqueuelen", "20000"], log)
        sh(nsx(ns, "tc", "qdisc", "replace", "dev", dev, "root", "pfifo", "limit", "20000"), log)
    _routes(gso, log)
    for ns in ("s", "d"):
        sh(nsx(ns, "sysctl", "-qw", *[f"{k}={v}" for k, v in ENDPOINT_SYSCTLS.items()]), log)
    add_bottleneck(case, burst_s, log)


def _routes(gso: bool, log: list[str]) -> None:
    """Default routes of the end points, the routers' routes across the TUN pair (and R3),
    forwarding on and reverse-path filtering off in the routers."""
    sh(["ip", "-n", NS["s"], "route", "add", "default", "via", ADDR["r1_s"]], log)
    sh(["ip", "-n", NS["d"], "route", "add", "default", "via", ADDR["r2_d"]], log)
    sh(["ip", "-n", NS["r1"], "route", "add", "10.77.2.0/24", "dev", "tuna"], log)
    sh(["ip", "-n", NS["r1"], "route", "add", ADDR["r2_tun"] + "/32", "dev", "tuna"], log)
    sh(["ip", "-n", NS["r2"], "route", "add", "10.77.1.0/24", "dev", "tunb"], log)
    sh(["ip", "-n", NS["r2"], "route", "add", ADDR["r1_tun"] + "/32", "dev", "tunb"], log)
    routers = ["r1", "r2"]
    if gso:
        sh(["ip", "-n", NS["r2"], "route", "add", "10.77.2.0/24", "via", ADDR["r3_r2"]], log)
        sh(["ip", "-n", NS["r3"], "route", "add", "default", "via", ADDR["r2_r3"]], log)
        routers.append("r3")
    forwarding = [
        "net.ipv4.ip_forward=1",
        "net.ipv4.conf.all.rp_filter=0",
        "net.ipv4.conf.default.rp_filter=0",
    ]
    for ns in routers:
        sh(nsx(ns, "sysctl", "-qw", *forwarding), log)
