"""Cases, namespaces, addresses, real-time priorities and end-point sysctls of the harness."""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
REPO = HERE.parent.parent
GOLDEN = REPO / "validation" / "golden" / "linux"
DELAYLINE = HERE / "build" / "delayline"
FLOWS = HERE / "flows.py"

# The namespaces of one run (deleted before and after every run); r3 only in the GSO cases.
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


def mtu(case: dict[str, Any]) -> int:
    """The links' MTU: room for the case's MSS plus IP and TCP headers with timestamps."""
    return max(1500, case["mss"] + 52)


def bottleneck(case: dict[str, Any]) -> tuple[str, str]:
    """(namespace key, device) of the bottleneck qdisc: the last router's egress towards D,
    R3 in the GSO cases (see topology.build)."""
    last = "r3" if case.get("gso") else "r2"
    return last, f"v{last}"
