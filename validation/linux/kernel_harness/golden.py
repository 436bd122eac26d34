"""The golden file validation/golden/linux/<case>_<cca>.json: the scenario, the harness's
settings, the command, every repetition and their spread; rewritten after each repetition."""

from __future__ import annotations

import json
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from .config import ENDPOINT_SYSCTLS, POLL_MS, PRIO_APPS, PRIO_DELAYLINE, PRIO_KSOFTIRQD, mtu
from .qdisc import htb_class_args, stab_args
from .run import run_once

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
    """min, max, median, mean and the values of each summary key over the repetitions."""
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


def harness_settings(case: dict[str, Any], burst_s: float) -> dict[str, Any]:
    """What the harness set up, as recorded in the golden file's "harness"."""
    link_mtu = mtu(case)
    return {
        "topology": (
            "S -veth- R1 =tun(GSO)= delayline =tun(GSO)= R2 -veth(segments)- R3 -veth(htb+pfifo)- D"
            if case.get("gso")
            else "S -veth- R1 =tun= delayline =tun= R2 -veth(htb+pfifo)- D"
        ),
        "endpoint_sysctls": ENDPOINT_SYSCTLS,
        "htb_class": htb_class_args(case["rate_bps"], link_mtu, burst_s),
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
    }


def document(
    case_name: str,
    case: dict[str, Any],
    cca: str,
    command: str,
    results: list[dict[str, Any]],
    reps: int,
    burst_s: float,
    kernel: tuple[str, str],
) -> dict[str, Any]:
    """The golden document; `kernel` is (platform.release(), platform.version())."""
    return {
        "reference": "linux-kernel",
        "kernel": kernel[0],
        "kernel_version": kernel[1],
        "case": case_name,
        "cca": cca,
        "scenario": {"case": case_name, **case, "mtu": mtu(case), "cca": cca},
        "harness": harness_settings(case, burst_s),
        "command": command,
        "complete": len(results) == reps,
        "repetitions": results,
        "spread": spread(results),
    }


def to_text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1) + "\n"


def run_case(
    case_name: str,
    case: dict[str, Any],
    cca: str,
    reps: int,
    command: str,
    out_dir: Path,
    burst_s: float,
) -> Path:
    """Runs `reps` repetitions and writes out_dir/<case>_<cca>.json after each of them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{case_name}_{cca}.json"
    kernel = (platform.release(), platform.version())
    results: list[dict[str, Any]] = []
    for i in range(reps):
        with tempfile.TemporaryDirectory(prefix="ccl_") as td:
            t0 = time.time()
            r = run_once(case, cca, Path(td), burst_s)
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
        doc = document(case_name, case, cca, command, results, reps, burst_s, kernel)
        # Written after every repetition, so an interrupted run keeps what it measured.
        out.write_text(to_text(doc))
    return out
