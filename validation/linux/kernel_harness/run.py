"""One repetition: build the topology, start the delay line, run the flows (flows.py) with a
ping under load and case C's rate changes, collect every counter, tear everything down."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from . import delayline, topology
from .config import ADDR, CASES, FLOWS, POLL_MS, PORT, PRIO_APPS, bottleneck
from .measure import (
    jain,
    link_drops,
    nstat,
    parse_ping,
    percentile,
    ping,
    qdisc_stats,
    summarize_flows,
)
from .qdisc import rate_changer
from .shell import ksoftirqd_realtime, nsx, rt, stop_process


def run_once(case: dict[str, Any], cca: str, workdir: Path, burst_s: float) -> dict[str, Any]:
    log: list[str] = []
    dl = sink = sender = ping_load = None
    stop = threading.Event()
    neck = bottleneck(case)
    try:
        ksoftirqd_realtime(True)
        topology.build(case, burst_s, log)
        dl_stats = workdir / "delayline.json"
        dl = delayline.start(case["delay_ms"], dl_stats, log, bool(case.get("gso")))
        ping_idle_line = ping("s", ADDR["r2_tun"], 20, 0.01, log)
        ping_idle_path = ping("s", ADDR["d"], 20, 0.01, log)
        # The congestion control is set per socket (TCP_CONGESTION, flows.py): a non-initial
        # namespace may only make an algorithm of tcp_allowed_congestion_control its default.
        duration = case["duration_s"]
        start_at = time.monotonic() + 1.0
        deadline = start_at + duration
        sink_out, send_out = workdir / "sink.json", workdir / "send.json"
        flows = ["--flows", str(case["flows"])]
        sink_cmd = nsx(
            "d",
            *rt(PRIO_APPS, [sys.executable]),
            str(FLOWS),
            "sink",
            *["--port", str(PORT), *flows, "--deadline", f"{deadline:.6f}"],
            *["--out", str(sink_out)],
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
            *["--dst", ADDR["d"], "--port", str(PORT), *flows, "--cca", cca],
            *["--start-at", f"{start_at:.6f}", "--deadline", f"{deadline:.6f}"],
            *["--poll-ms", str(POLL_MS), "--out", str(send_out)],
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
            target=rate_changer, args=(case, burst_s, start_at, log, changes, stop)
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
        qd = qdisc_stats(neck)
        links = link_drops(neck)
        ns_s, ns_d = nstat("s"), nstat("d")
        stop_process(dl)
        dls = json.loads(dl_stats.read_text())
        send = json.loads(send_out.read_text())
        snk = json.loads(sink_out.read_text())
        flow_records = summarize_flows(send, snk, duration)
        goodputs = [f["goodput_mbps"] or 0.0 for f in flow_records]
        all_srtt = sorted(s[1] / 1000.0 for f in flow_records for s in f["samples"] if s[1] > 0)
        return {
            "total_goodput_mbps": round(sum(goodputs), 4),
            "retx_segments": sum(f["retx_segments"] for f in flow_records),
            "rto_events": sum(f["rto_events"] for f in flow_records),
            "srtt_p50_ms": percentile(all_srtt, 50),
            "srtt_p95_ms": percentile(all_srtt, 95),
            "jain_index": jain(goodputs),
            "bottleneck_drops": (qd.get("pfifo") or {}).get("drops"),
            "flows": flow_records,
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
        topology.teardown()
        ksoftirqd_realtime(False)


def ping_test(burst_s: float) -> None:
    """Delay-line accuracy without TCP: idle ping through the delay line for each case's delay."""
    for name, case in CASES.items():
        log: list[str] = []
        dl = None
        try:
            ksoftirqd_realtime(True)
            topology.build(case, burst_s, log)
            with tempfile.TemporaryDirectory(prefix="ccl_") as td:
                dl = delayline.start(
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
            topology.teardown()
            ksoftirqd_realtime(False)
