"""The bottleneck: htb at the case's rate over a pfifo of the case's size in packets, and the
rate changes of case C (`tc class change` at the scheduled instants)."""

from __future__ import annotations

import threading
import time
from typing import Any

from .config import bottleneck, mtu
from .shell import nsx, sh

# htb's bucket depth in seconds at the rate (`--burst-ms` changes it, trial runs only).
DEFAULT_BURST_S = 0.005


def wire_bytes_overhead() -> int:
    """htb `overhead`: ns-3 serialises IP + 2 B (PPP); a veth's skb has IP + 14 B (Ethernet)."""
    return 2 - 14


def htb_class_args(rate_bps: int, mtu: int, burst_s: float = DEFAULT_BURST_S) -> list[str]:
    # Burst of 5 ms at the rate (at least two full packets). htb releases packets from its
    # watchdog timer; on a loaded machine that softirq can run late, and time beyond the
    # bucket's depth is capacity lost for good. 5 ms absorbs that; it lets a burst leave at
    # once only after the queue has been empty (start-up, end of recovery, BBR's ProbeRTT),
    # which BBR measures as a delivery rate above the link's (validation/report.md).
    burst = max(2 * (mtu + 14), int(rate_bps * burst_s / 8))
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


def add_bottleneck(case: dict[str, Any], burst_s: float, log: list[str]) -> None:
    """htb root (default class 1:1) with the size table, the rate class, and the pfifo."""
    bns, bdev = bottleneck(case)
    root = ["tc", "qdisc", "add", "dev", bdev, "root", "handle", "1:", *stab_args()]
    sh(nsx(bns, *root, "htb", "default", "1"), log)
    rate_class = ["tc", "class", "add", "dev", bdev, "parent", "1:", "classid", "1:1", "htb"]
    sh(nsx(bns, *rate_class, *htb_class_args(case["rate_bps"], mtu(case), burst_s)), log)
    fifo = ["tc", "qdisc", "add", "dev", bdev, "parent", "1:1", "handle", "10:", "pfifo"]
    sh(nsx(bns, *fifo, "limit", str(case["queue_packets"])), log)


def rate_changer(
    case: dict[str, Any],
    burst_s: float,
    start_at: float,
    log: list[str],
    done: list[dict[str, float]],
    stop: threading.Event,
) -> None:
    """Thread body: applies case["rate_change"] ([at_s, rate_bps] from `start_at`, a
    time.monotonic() instant) and records when each command started and ended in `done`."""
    bns, bdev = bottleneck(case)
    for at, rate in case["rate_change"]:
        while not stop.is_set() and time.monotonic() < start_at + at:
            time.sleep(0.0005)
        if stop.is_set():
            return
        change = ["tc", "class", "change", "dev", bdev, "parent", "1:", "classid", "1:1", "htb"]
        cmd = nsx(bns, *change, *htb_class_args(int(rate), mtu(case), burst_s))
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
