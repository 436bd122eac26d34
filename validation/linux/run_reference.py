#!/usr/bin/env python3
"""Linux-kernel reference runs for ccsim's `linux` TCP profile (issue 17, part 4).

Runs the real kernel's TCP through a dumbbell built from network namespaces and writes
validation/golden/linux/<case>_<cca>.json. Needs root, /dev/net/tun, `ip`, `tc`, `ping`,
`nstat`, and the delay line built by setup.sh. Every run is real time; run one at a time.

    bash validation/linux/setup.sh
    sudo python3 validation/linux/run_reference.py --cases A,B,C --ccas reno,cubic,bbr --reps 5
    python3 validation/linux/run_reference.py --table      # markdown table of the golden files
    python3 validation/linux/run_reference.py --ping-test  # delay-line accuracy (ping, idle)

Topology (README.md explains why):

    S ──veth── R1 ══ tuna ⇄ delayline ⇄ tunb ══ R2 ──veth (htb + pfifo)── D

Addresses are private and exist only inside the four namespaces.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GOLDEN = REPO / "validation" / "golden" / "linux"
DELAYLINE = HERE / "build" / "delayline"
FLOWS = HERE / "flows.py"

# The four namespaces of one run (deleted before and after every run).
NS = {"s": "ccl_s", "r1": "ccl_r1", "r2": "ccl_r2", "r3": "ccl_r3", "d": "ccl_d"}
ADDR = {
    "s": "10.77.1.1",  # S's veth
    "r1_s": "10.77.1.2",  # R1's veth towards S
    "r1_tun": "10.77.0.1",  # R1's end of the delay line
    "r2_tun": "10.77.0.2",  # R2's end of the delay line (ping target for the delay line alone)
    "r2_d": "10.77.2.2",  # R2's veth towards D (the bottleneck's egress)
    "d": "10.77.2.1",  # D's veth
    "r2_r3": "10.77.3.1",  # GSO cases: R2's veth towards R3
    "r3_r2": "10.77.3.2",  # GSO cases: R3's veth towards R2
}
# Where the bottleneck qdisc sits: (namespace, device); R3 in the GSO cases (see build_topology).
BOTTLENECK = ("r2", "vr2")
PORT = 5201
POLL_MS = 100.0
# Real-time priorities (SCHED_FIFO). The machine is shared and often fully loaded; without
# these, the softirqs that forward packets and run htb's timer wait behind other processes
# in ksoftirqd, and ACK trains get multi-millisecond holes (the kernel's HyStart then misses
# its ACK train). Every thread involved sleeps most of the time, so nothing is starved.
PRIO_DELAYLINE = 10
PRIO_KSOFTIRQD = 5
PRIO_APPS = 1  # sender, sink, ping

# The same cases as validation/ns3/run_reference.py (rates, one-way delay, queue in packets,
# MSS, duration, flows, rate changes). Queue = 1 BDP in 1500-byte packets where ns-3 computes it.
CASES: dict[str, dict[str, Any]] = {
    "A": {
        "flows": 1,
        "rate_bps": 100_000_000,
        "delay_ms": 20.0,
        "mss": 1448,
        "queue_packets": 333,
        "duration_s": 60.0,
        "rate_change": [],
    },
    "B": {
        "flows": 10,
        "rate_bps": 1_000_000_000,
        "delay_ms": 10.0,
        "mss": 1448,
        "queue_packets": 1666,
        "duration_s": 30.0,
        "rate_change": [],
        "gso": True,
    },
    "C": {
        "flows": 1,
        "rate_bps": 1_300_000_000,
        "delay_ms": 12.5,
        "mss": 10000,
        "queue_packets": 696,
        "duration_s": 15.0,
        "rate_change": [[5.0, 50_000_000], [10.0, 1_300_000_000]],
    },
}
CCAS = ("reno", "cubic", "bbr")

# Per-namespace sysctls of the two TCP end points. Everything else is the kernel default
# (initial cwnd 10, SACK, timestamps, window scaling, no ECN (tcp_ecn 2: only answers),
# tcp_min_rto 200 ms, RACK, PRR, TSO/GSO on the veths).
ENDPOINT_SYSCTLS = {
    "net.ipv4.tcp_no_metrics_save": "1",  # every run starts from scratch (fresh netns anyway)
    "net.ipv4.tcp_rmem": "4096 67108864 268435456",  # autotuning never limits the window
    "net.ipv4.tcp_wmem": "4096 16384 268435456",
    "net.ipv4.tcp_sack": "1",
    "net.ipv4.tcp_timestamps": "1",
    "net.ipv4.tcp_window_scaling": "1",
}


def sh(
    cmd: list[str], log: list[str] | None = None, check: bool = True, timeout: float = 30.0
) -> str:
    if log is not None:
        log.append(shlex.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError(f"{shlex.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def nsx(ns: str, *cmd: str) -> list[str]:
    return ["ip", "netns", "exec", NS[ns], *cmd]


def rt(prio: int, cmd: list[str]) -> list[str]:
    return ["chrt", "-f", str(prio), *cmd]


def ksoftirqd_pids() -> list[int]:
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if (d / "comm").read_text().startswith("ksoftirqd/"):
                    pids.append(int(d.name))
            except OSError:
                pass
    return sorted(pids)


def ksoftirqd_realtime(on: bool) -> None:
    """SCHED_FIFO for the softirq threads during a run; SCHED_OTHER (their default) after."""
    for pid in ksoftirqd_pids():
        args = (
            ["chrt", "-f", "-p", str(PRIO_KSOFTIRQD), str(pid)]
            if on
            else ["chrt", "-o", "-p", "0", str(pid)]
        )
        subprocess.run(args, capture_output=True, timeout=10)


def teardown() -> None:
    for name in NS.values():
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)


def wire_bytes_overhead() -> int:
    """htb `overhead`: ns-3 serialises IP + 2 B (PPP); a veth's skb has IP + 14 B (Ethernet)."""
    return 2 - 14


# htb's bucket depth in seconds at the rate (`--burst-ms`, trial runs only).
BURST_S = 0.005


def htb_class_args(rate_bps: int, mtu: int) -> list[str]:
    # Burst of 5 ms at the rate (at least two full packets). htb releases packets from its
    # watchdog timer; on a loaded machine that softirq can run late, and time beyond the
    # bucket's depth is capacity lost for good. 5 ms absorbs that; it lets a burst leave at
    # once only after the queue has been empty (start-up, end of recovery, BBR's ProbeRTT),
    # which BBR measures as a delivery rate above the link's (validation/report.md).
    burst = max(2 * (mtu + 14), int(rate_bps * BURST_S / 8))
    return [
        "rate",
        f"{rate_bps}bit",
        "ceil",
        f"{rate_bps}bit",
        "burst",
        str(burst),
        "cburst",
        str(burst),
        "quantum",
        str(mtu + 14),
    ]


def stab_args() -> list[str]:
    # A size table with 1-byte cells, so htb charges each packet IP length + 2 B exactly.
    return ["stab", "overhead", str(wire_bytes_overhead()), "mtu", "16384", "tsize", "16384"]


def build_topology(case: dict[str, Any], log: list[str]) -> None:
    """S -veth- R1 =tuna= delay line =tunb= R2 -veth- D, bottleneck on R2's egress to D.

    With case["gso"] the TUN pair carries GSO packets (one sender TSO burst per read/write,
    which the delay line can sustain at 1 Gb/s) and an extra router R3 sits between R2 and D:
    R2's veth towards R3 has GSO/TSO off, so the kernel cuts every burst into MTU-sized
    packets there, and the bottleneck (htb + pfifo, counting packets) is on R3's egress to D.
    """
    global BOTTLENECK
    gso = bool(case.get("gso"))
    mtu = max(1500, case["mss"] + 52)
    teardown()
    used = [k for k in NS if gso or k != "r3"]
    for k in used:
        sh(["ip", "netns", "add", NS[k]], log)
        sh(["ip", "-n", NS[k], "link", "set", "lo", "up"], log)
    last = "r3" if gso else "r2"  # the router next to D
    sh(
        [
            "ip",
            "link",
            "add",
            "vs",
            "netns",
            NS["s"],
            "type",
            "veth",
            "peer",
            "name",
            "vr1",
            "netns",
            NS["r1"],
        ],
        log,
    )
    sh(
        [
            "ip",
            "link",
            "add",
            "vd",
            "netns",
            NS["d"],
            "type",
            "veth",
            "peer",
            "name",
            f"v{last}",
            "netns",
            NS[last],
        ],
        log,
    )
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
        sh(
            [
                "ip",
                "link",
                "add",
                "vr2",
                "netns",
                NS["r2"],
                "type",
                "veth",
                "peer",
                "name",
                "vr3a",
                "netns",
                NS["r3"],
            ],
            log,
        )
        addrs += [("r2", "vr2", ADDR["r2_r3"] + "/24"), ("r3", "vr3a", ADDR["r3_r2"] + "/24")]
    for ns, dev, addr in addrs:
        sh(["ip", "-n", NS[ns], "addr", "add", addr, "dev", dev], log)
        sh(["ip", "-n", NS[ns], "link", "set", dev, "mtu", str(mtu), "up"], log)
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
    for ns in routers:
        sh(
            nsx(
                ns,
                "sysctl",
                "-qw",
                "net.ipv4.ip_forward=1",
                "net.ipv4.conf.all.rp_filter=0",
                "net.ipv4.conf.default.rp_filter=0",
            ),
            log,
        )
    for ns in ("s", "d"):
        sh(nsx(ns, "sysctl", "-qw", *[f"{k}={v}" for k, v in ENDPOINT_SYSCTLS.items()]), log)
    # The bottleneck: the last router's egress towards D.
    BOTTLENECK = (last, f"v{last}")
    bns, bdev = BOTTLENECK
    sh(
        nsx(
            bns,
            "tc",
            "qdisc",
            "add",
            "dev",
            bdev,
            "root",
            "handle",
            "1:",
            *stab_args(),
            "htb",
            "default",
            "1",
        ),
        log,
    )
    sh(
        nsx(
            bns,
            "tc",
            "class",
            "add",
            "dev",
            bdev,
            "parent",
            "1:",
            "classid",
            "1:1",
            "htb",
            *htb_class_args(case["rate_bps"], mtu),
        ),
        log,
    )
    sh(
        nsx(
            bns,
            "tc",
            "qdisc",
            "add",
            "dev",
            bdev,
            "parent",
            "1:1",
            "handle",
            "10:",
            "pfifo",
            "limit",
            str(case["queue_packets"]),
        ),
        log,
    )


def start_delayline(
    delay_ms: float, stats: Path, log: list[str], gso: bool = False
) -> subprocess.Popen:
    cmd = nsx(
        "r1",
        str(DELAYLINE),
        "--tun-a",
        "tuna",
        "--tun-b",
        "tunb",
        "--netns-b",
        f"/run/netns/{NS['r2']}",
        "--delay-us",
        str(int(round(delay_ms * 1000))),
        "--stats",
        str(stats),
        "--rt-priority",
        str(PRIO_DELAYLINE),
        *(["--vnet-hdr", "1"] if gso else []),
    )
    log.append(shlex.join(cmd))
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline() if p.stdout else ""
    if line.strip() != "ready":
        p.kill()
        raise RuntimeError(
            f"delayline did not start: {line!r} {p.stderr.read() if p.stderr else ''}"
        )
    return p


def stop_process(
    p: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout: float = 5.0
) -> None:
    if p is None or p.poll() is not None:
        return
    p.send_signal(sig)
    try:
        p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait(timeout=timeout)


def parse_ping(out: str) -> dict[str, Any]:
    rtts = [float(m) for m in re.findall(r"time=([0-9.]+) ms", out)]
    if not rtts:
        return {"samples": 0}
    rtts.sort()
    return {
        "samples": len(rtts),
        "min_ms": rtts[0],
        "p50_ms": percentile(rtts, 50),
        "p99_ms": percentile(rtts, 99),
        "max_ms": rtts[-1],
        "mean_ms": round(statistics.fmean(rtts), 4),
    }


def percentile(sorted_vals: list[float], p: float) -> float:
    """numpy's default (linear interpolation between closest ranks), as the other goldens."""
    if not sorted_vals:
        return float("nan")
    k = (len(sorted_vals) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return round(sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (k - lo), 4)


def ping(src_ns: str, dst: str, count: int, interval: float, log: list[str]) -> dict[str, Any]:
    cmd = nsx(
        src_ns,
        *rt(PRIO_APPS, ["ping", "-n", "-c", str(count), "-i", str(interval), "-s", "56", dst]),
    )
    return parse_ping(sh(cmd, log, check=False, timeout=count * interval + 10))


def nstat(ns: str) -> dict[str, int]:
    out = sh(nsx(ns, "nstat", "-a", "-z", "-j", "--ignore"), check=False)
    try:
        d = json.loads(out)
    except json.JSONDecodeError:
        return {}
    kernel = d.get("kernel", d)
    keep = (
        "TcpRetransSegs",
        "TcpOutSegs",
        "TcpExtTCPLostRetransmit",
        "TcpExtTCPTimeouts",
        "TcpExtTCPSackRecovery",
        "TcpExtTCPFastRetrans",
        "TcpExtTCPSlowStartRetrans",
        "TcpExtTCPSpuriousRTOs",
        "TcpExtTCPDSACKRecv",
        "TcpExtTCPSackRecoveryFail",
        "TcpExtTCPRetransFail",
        "TcpExtTCPHystartTrainDetect",
        "TcpExtTCPHystartTrainCwnd",
        "TcpExtTCPHystartDelayDetect",
        "TcpExtTCPHystartDelayCwnd",
        "TcpExtTCPLossProbes",
        "TcpExtTCPLossProbeRecovery",
        "TcpExtTCPOFOQueue",
        "TcpExtTCPRcvQDrop",
        "IpExtInOctets",
    )
    return {k: int(kernel[k]) for k in keep if k in kernel}


def qdisc_stats() -> dict[str, Any]:
    out = sh(
        nsx(BOTTLENECK[0], "tc", "-s", "-j", "qdisc", "show", "dev", BOTTLENECK[1]), check=False
    )
    res: dict[str, Any] = {}
    for q in json.loads(out or "[]"):
        res[q.get("kind", "?")] = {
            k: q.get(k) for k in ("drops", "packets", "bytes", "overlimits", "requeues")
        }
    return res


def link_drops() -> dict[str, Any]:
    res = {}
    devs = [("s", "vs"), ("r1", "vr1"), ("r1", "tuna"), ("r2", "tunb"), ("r2", "vr2"), ("d", "vd")]
    if BOTTLENECK[0] == "r3":
        devs += [("r3", "vr3a"), ("r3", "vr3")]
    for ns, dev in devs:
        out = sh(["ip", "-n", NS[ns], "-s", "-j", "link", "show", dev], check=False)
        try:
            st = json.loads(out)[0]["stats64"]
            res[f"{ns}/{dev}"] = {
                "tx_dropped": st["tx"]["dropped"],
                "rx_dropped": st["rx"]["dropped"],
            }
        except (json.JSONDecodeError, KeyError, IndexError):
            pass
    return res


def rate_changer(
    changes: list[list[float]],
    start_at: float,
    mtu: int,
    log: list[str],
    done: list[dict[str, float]],
    stop: threading.Event,
) -> None:
    for at, rate in changes:
        while not stop.is_set() and time.monotonic() < start_at + at:
            time.sleep(0.0005)
        if stop.is_set():
            return
        cmd = nsx(
            BOTTLENECK[0],
            "tc",
            "class",
            "change",
            "dev",
            BOTTLENECK[1],
            "parent",
            "1:",
            "classid",
            "1:1",
            "htb",
            *htb_class_args(int(rate), mtu),
        )
        t0 = time.monotonic() - start_at
        sh(cmd, log)
        done.append(
            {
                "at_s": at,
                "rate_bps": rate,
                "cmd_start_s": round(t0, 5),
                "cmd_end_s": round(time.monotonic() - start_at, 5),
            }
        )


def summarize_flows(
    send: dict[str, Any], sink: dict[str, Any], duration: float
) -> list[dict[str, Any]]:
    # Pair sender and sink sockets by the sender's local port (the sink sees it as the peer port).
    by_port = {f["peer"][1]: f for f in sink["flows"]}
    flows = []
    for i, f in enumerate(send["flows"]):
        ti = f["final_tcp_info"]
        port = f.get("local_port")
        rx = by_port.get(port) if port is not None else None
        if rx is None and len(sink["flows"]) == len(send["flows"]):
            rx = sorted(sink["flows"], key=lambda x: x["accepted_at"])[i]
        srtt = sorted(s[1] / 1000.0 for s in f["samples"] if s[1] > 0)
        flows.append(
            {
                "id": i,
                "goodput_mbps": round(rx["bytes_received"] * 8 / duration / 1e6, 4) if rx else None,
                "rx_bytes": rx["bytes_received"] if rx else None,
                "retx_segments": ti["total_retrans"],
                "rto_events": ti["total_rto"],
                "rto_recoveries": ti["total_rto_recoveries"],
                "srtt_p50_ms": percentile(srtt, 50),
                "srtt_p95_ms": percentile(srtt, 95),
                "srtt_mean_ms": round(statistics.fmean(srtt), 4) if srtt else None,
                "srtt_samples": len(srtt),
                "min_rtt_ms": ti["min_rtt"] / 1000.0,
                "tx_segments": ti["data_segs_out"],
                "bytes_retrans": ti["bytes_retrans"],
                "snd_mss": ti["snd_mss"],
                "dsack_dups": ti["dsack_dups"],
                "final_cwnd": ti["snd_cwnd"],
                "final_ssthresh": ti["snd_ssthresh"],
                "samples": f["samples"],
            }
        )
    return flows


def jain(xs: list[float]) -> float:
    s = sum(xs)
    q = sum(x * x for x in xs)
    return round(s * s / (len(xs) * q), 4) if q > 0 else float("nan")


def run_once(case_name: str, cca: str, workdir: Path) -> dict[str, Any]:
    case = CASES[case_name]
    mtu = max(1500, case["mss"] + 52)
    log: list[str] = []
    dl = sink = sender = ping_load = None
    stop = threading.Event()
    try:
        ksoftirqd_realtime(True)
        build_topology(case, log)
        dl_stats = workdir / "delayline.json"
        dl = start_delayline(case["delay_ms"], dl_stats, log, bool(case.get("gso")))
        ping_idle_line = ping("s", ADDR["r2_tun"], 20, 0.01, log)
        ping_idle_path = ping("s", ADDR["d"], 20, 0.01, log)
        # The congestion control is set per socket (TCP_CONGESTION, flows.py): a non-initial
        # namespace may only make an algorithm of tcp_allowed_congestion_control its default.
        duration = case["duration_s"]
        start_at = time.monotonic() + 1.0
        deadline = start_at + duration
        sink_out, send_out = workdir / "sink.json", workdir / "send.json"
        sink_cmd = nsx(
            "d",
            *rt(PRIO_APPS, [sys.executable]),
            str(FLOWS),
            "sink",
            "--port",
            str(PORT),
            "--flows",
            str(case["flows"]),
            "--deadline",
            f"{deadline:.6f}",
            "--out",
            str(sink_out),
        )
        log.append(shlex.join(sink_cmd))
        sink = subprocess.Popen(sink_cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if (sink.stdout.readline() if sink.stdout else "").strip() != "listening":
            raise RuntimeError(f"sink did not start: {sink.stderr.read() if sink.stderr else ''}")
        send_cmd = nsx(
            "s",
            *rt(PRIO_APPS, [sys.executable]),
            str(FLOWS),
            "send",
            "--dst",
            ADDR["d"],
            "--port",
            str(PORT),
            "--flows",
            str(case["flows"]),
            "--cca",
            cca,
            "--start-at",
            f"{start_at:.6f}",
            "--deadline",
            f"{deadline:.6f}",
            "--poll-ms",
            str(POLL_MS),
            "--out",
            str(send_out),
        )
        log.append(shlex.join(send_cmd))
        load_before = os.getloadavg()[0]
        sender = subprocess.Popen(
            send_cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        # The delay line alone under load: S -> R2's end of the TUN pair and back, 20 pings/s.
        ping_cmd = nsx(
            "s",
            *rt(PRIO_APPS, ["ping", "-n", "-i", "0.05", "-w", str(int(duration)), ADDR["r2_tun"]]),
        )
        log.append(shlex.join(ping_cmd))
        ping_load = subprocess.Popen(
            ping_cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        changes: list[dict[str, float]] = []
        changer = threading.Thread(
            target=rate_changer, args=(case["rate_change"], start_at, mtu, log, changes, stop)
        )
        changer.start()
        for p, what in ((sender, "sender"), (sink, "sink")):
            try:
                p.wait(timeout=deadline - time.monotonic() + 30)
            except subprocess.TimeoutExpired as e:
                raise RuntimeError(f"{what} did not finish in time") from e
            if p.returncode != 0:
                raise RuntimeError(f"{what} failed: {p.stderr.read() if p.stderr else ''}")
        stop.set()
        changer.join()
        ping_out, _ = ping_load.communicate(timeout=duration + 15)
        load_after = os.getloadavg()[0]
        qd = qdisc_stats()
        links = link_drops()
        ns_s, ns_d = nstat("s"), nstat("d")
        stop_process(dl)
        dls = json.loads(dl_stats.read_text())
        send = json.loads(send_out.read_text())
        snk = json.loads(sink_out.read_text())
        flows = summarize_flows(send, snk, duration)
        goodputs = [f["goodput_mbps"] or 0.0 for f in flows]
        all_srtt = sorted(s[1] / 1000.0 for f in flows for s in f["samples"] if s[1] > 0)
        return {
            "total_goodput_mbps": round(sum(goodputs), 4),
            "retx_segments": sum(f["retx_segments"] for f in flows),
            "rto_events": sum(f["rto_events"] for f in flows),
            "srtt_p50_ms": percentile(all_srtt, 50),
            "srtt_p95_ms": percentile(all_srtt, 95),
            "jain_index": jain(goodputs),
            "bottleneck_drops": (qd.get("pfifo") or {}).get("drops"),
            "flows": flows,
            "qdisc": qd,
            "link_drops": links,
            "nstat_sender": ns_s,
            "nstat_receiver": ns_d,
            "delayline": dls,
            "ping_idle_delayline": ping_idle_line,
            "ping_idle_path": ping_idle_path,
            "ping_loaded_delayline": parse_ping(ping_out),
            "rate_changes": changes,
            "load_avg_1m_before": load_before,
            "load_avg_1m_after": load_after,
            "commands": log,
        }
    finally:
        stop.set()
        for p in (sender, sink, ping_load):
            stop_process(p, signal.SIGKILL)
        stop_process(dl)
        teardown()
        ksoftirqd_realtime(False)


SUMMARY_KEYS = (
    "total_goodput_mbps",
    "retx_segments",
    "rto_events",
    "srtt_p50_ms",
    "srtt_p95_ms",
    "jain_index",
    "bottleneck_drops",
)


def spread(reps: list[dict[str, Any]]) -> dict[str, Any]:
    out = {}
    for k in SUMMARY_KEYS:
        vals = [r[k] for r in reps if r.get(k) is not None]
        if vals:
            out[k] = {
                "min": min(vals),
                "max": max(vals),
                "median": statistics.median(vals),
                "mean": round(statistics.fmean(vals), 4),
                "values": vals,
            }
    return out


def run_case(case_name: str, cca: str, reps: int, command: str) -> Path:
    case = CASES[case_name]
    mtu = max(1500, case["mss"] + 52)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    out = GOLDEN / f"{case_name}_{cca}.json"
    results: list[dict[str, Any]] = []
    for i in range(reps):
        with tempfile.TemporaryDirectory(prefix="ccl_") as td:
            t0 = time.time()
            r = run_once(case_name, cca, Path(td))
            r["wall_s"] = round(time.time() - t0, 2)
        r["repetition"] = i
        results.append(r)
        print(
            f"{case_name} {cca} rep {i}: {r['total_goodput_mbps']:.2f} Mb/s, retx {r['retx_segments']}, "
            f"srtt p50 {r['srtt_p50_ms']} p95 {r['srtt_p95_ms']} ms, drops {r['bottleneck_drops']}, "
            f"delayline late p99 {r['delayline']['a_to_b']['late_p99_us']} us, "
            f"loaded ping p50 {r['ping_loaded_delayline'].get('p50_ms')} ms, load {r['load_avg_1m_before']:.1f}",
            flush=True,
        )
        doc = {
            "reference": "linux-kernel",
            "kernel": platform.release(),
            "kernel_version": platform.version(),
            "case": case_name,
            "cca": cca,
            "scenario": {"case": case_name, **case, "mtu": mtu, "cca": cca},
            "harness": {
                "topology": (
                    "S -veth- R1 =tun(GSO)= delayline =tun(GSO)= R2 -veth(segments)- R3 -veth(htb+pfifo)- D"
                    if case.get("gso")
                    else "S -veth- R1 =tun= delayline =tun= R2 -veth(htb+pfifo)- D"
                ),
                "endpoint_sysctls": ENDPOINT_SYSCTLS,
                "htb_class": htb_class_args(case["rate_bps"], mtu),
                "htb_stab": stab_args(),
                "pfifo_limit_packets": case["queue_packets"],
                "srtt_poll_ms": POLL_MS,
                "sched_fifo_priorities": {
                    "delayline": PRIO_DELAYLINE,
                    "ksoftirqd": PRIO_KSOFTIRQD,
                    "sender_sink_ping": PRIO_APPS,
                },
                "goodput_window": "bytes the receiver's kernel received in order (tcpi_bytes_received) from "
                "connect() to connect() + duration",
            },
            "command": command,
            "complete": len(results) == reps,
            "repetitions": results,
            "spread": spread(results),
        }
        # Written after every repetition, so an interrupted run keeps what it measured.
        out.write_text(json.dumps(doc, indent=1) + "\n")
    return out


def table() -> str:
    rows = [
        "| case | cca | reps | goodput Mb/s | retx | RTOs | srtt p50 ms | srtt p95 ms | drops | "
        "delay-line late p99 µs | loaded delay-line ping p50 ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def rng(sp: dict[str, Any], k: str, fmt: str) -> str:
        if k not in sp:
            return "–"
        lo, hi = sp[k]["min"], sp[k]["max"]
        return format(lo, fmt) if lo == hi else f"{format(lo, fmt)}–{format(hi, fmt)}"

    for p in sorted(GOLDEN.glob("*_*.json")):
        g = json.loads(p.read_text())
        sp = g["spread"]
        late = max(r["delayline"]["a_to_b"]["late_p99_us"] for r in g["repetitions"])
        pings = [r["ping_loaded_delayline"].get("p50_ms") for r in g["repetitions"]]
        pings = [x for x in pings if x is not None]
        ping_txt = f"{min(pings):.3f}–{max(pings):.3f}" if pings else "–"
        rows.append(
            f"| {g['case']} | {g['cca']} | {len(g['repetitions'])} | {rng(sp, 'total_goodput_mbps', '.2f')} | "
            f"{rng(sp, 'retx_segments', 'd')} | {rng(sp, 'rto_events', 'd')} | {rng(sp, 'srtt_p50_ms', '.1f')} | "
            f"{rng(sp, 'srtt_p95_ms', '.1f')} | {rng(sp, 'bottleneck_drops', 'd')} | {late} | {ping_txt} |"
        )
    return "\n".join(rows)


def accuracy_table() -> str:
    """The delay line's measured error, per golden file (all repetitions pooled: min–max)."""
    rows = [
        "| case | cca | one-way delay ms | ping idle p50 ms (expected 2 × delay) | ping under load "
        "p50 / p99 / max ms | data direction late p50 / p99 / p99.9 / max µs | ACK direction late "
        "p50 / p99 µs | load avg |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def mm(xs: list[float], fmt: str) -> str:
        lo, hi = min(xs), max(xs)
        return format(lo, fmt) if lo == hi else f"{format(lo, fmt)}–{format(hi, fmt)}"

    for p in sorted(GOLDEN.glob("*_*.json")):
        g = json.loads(p.read_text())
        reps = g["repetitions"]
        a = [r["delayline"]["a_to_b"] for r in reps]
        b = [r["delayline"]["b_to_a"] for r in reps]
        idle = [r["ping_idle_delayline"]["p50_ms"] for r in reps]
        lp = [r["ping_loaded_delayline"] for r in reps]
        rows.append(
            f"| {g['case']} | {g['cca']} | {g['scenario']['delay_ms']} | {mm(idle, '.1f')} | "
            f"{mm([x['p50_ms'] for x in lp], '.1f')} / {mm([x['p99_ms'] for x in lp], '.1f')} / "
            f"{mm([x['max_ms'] for x in lp], '.1f')} | "
            f"{mm([x['late_p50_us'] for x in a], 'd')} / {mm([x['late_p99_us'] for x in a], 'd')} / "
            f"{mm([x['late_p999_us'] for x in a], 'd')} / {mm([x['late_max_us'] for x in a], '.0f')} | "
            f"{mm([x['late_p50_us'] for x in b], 'd')} / {mm([x['late_p99_us'] for x in b], 'd')} | "
            f"{mm([r['load_avg_1m_before'] for r in reps], '.1f')} |"
        )
    return "\n".join(rows)


def ping_test(rates: list[int]) -> None:
    """Delay-line accuracy without TCP: idle ping through the delay line for each case's delay."""
    for name, case in CASES.items():
        log: list[str] = []
        dl = None
        try:
            ksoftirqd_realtime(True)
            build_topology(case, log)
            with tempfile.TemporaryDirectory(prefix="ccl_") as td:
                dl = start_delayline(
                    case["delay_ms"], Path(td) / "dl.json", log, bool(case.get("gso"))
                )
                r = ping("s", ADDR["r2_tun"], 200, 0.01, log)
                stop_process(dl)
                late = json.loads((Path(td) / "dl.json").read_text())
                print(
                    f"case {name}: delay {case['delay_ms']} ms one way, expected RTT {2 * case['delay_ms']} ms: "
                    f"ping {r}; delay line {late}"
                )
        finally:
            stop_process(dl)
            teardown()
            ksoftirqd_realtime(False)


def _exit_on_signal(signum: int, _frame: Any) -> None:
    # Turn SIGTERM/SIGHUP into an exception so every `finally` kills the run's processes and
    # deletes the namespaces.
    raise SystemExit(f"stopped by signal {signum}")


def main() -> None:
    signal.signal(signal.SIGTERM, _exit_on_signal)
    signal.signal(signal.SIGHUP, _exit_on_signal)
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--cases", default="A,B,C")
    ap.add_argument("--ccas", default=",".join(CCAS))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument(
        "--duration",
        type=float,
        help="override the case duration (trial runs only; writes to "
        "/tmp, not to the golden directory)",
    )
    ap.add_argument(
        "--burst-ms",
        type=float,
        help="htb bucket depth in ms at the rate (default 5; at least two packets); "
        "trial runs only, needs --duration",
    )
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--ping-test", action="store_true")
    a = ap.parse_args()
    if a.burst_ms is not None:
        if not a.duration:
            sys.exit("--burst-ms is for trial runs: give --duration too")
        global BURST_S
        BURST_S = a.burst_ms / 1000
    if a.table:
        print(table())
        print()
        print(accuracy_table())
        return
    if os.geteuid() != 0:
        sys.exit("needs root (network namespaces, TUN devices, tc)")
    if not DELAYLINE.exists():
        sys.exit(f"{DELAYLINE} missing: run bash validation/linux/setup.sh first")
    if a.ping_test:
        ping_test([])
        return
    cases = [c.strip() for c in a.cases.split(",") if c.strip()]
    ccas = [c.strip() for c in a.ccas.split(",") if c.strip()]
    avail = Path("/proc/sys/net/ipv4/tcp_available_congestion_control").read_text().split()
    for c in cases:
        if c not in CASES:
            sys.exit(f"unknown case {c!r}; known: {', '.join(CASES)}")
    for c in ccas:
        if c not in avail:
            sys.exit(
                f"congestion control {c!r} not available in this kernel; available: {', '.join(avail)}"
            )
    if a.duration:
        global GOLDEN
        GOLDEN = Path(tempfile.mkdtemp(prefix="ccl_trial_"))
        for c in cases:
            CASES[c] = {**CASES[c], "duration_s": a.duration}
    for c in cases:
        for cca in ccas:
            command = f"python3 validation/linux/run_reference.py --cases {c} --ccas {cca} --reps {a.reps}"
            print(run_case(c, cca, a.reps, command))


if __name__ == "__main__":
    main()
