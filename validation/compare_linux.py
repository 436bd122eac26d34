"""Runs ccsim's `linux` TCP profile on every case with Linux-kernel golden data
(validation/golden/linux/*.json) and writes the "Linux kernel" section of validation/report.md.

    python validation/compare_linux.py                # all golden files -> report.md section
    python validation/compare_linux.py --cases A --ccas cubic
    python validation/compare_linux.py --print-only   # table to stdout, report untouched

The tolerance is the kernel's own run-to-run spread: a ccsim value passes when it lies inside
[min, max] over the kernel's repetitions. The kernel side is regenerated with
`sudo python3 validation/linux/run_reference.py` (validation/linux/README.md); this script
needs only ccsim.

RTT: the kernel harness polls each socket's smoothed RTT (`tcpi_rtt`) every 100 ms; ccsim's
`srtt_ms` series is sampled at the same period here, and the percentiles are taken over all
flows' samples pooled, on both sides. ccsim's per-ACK RTT-sample percentiles (the ns-3
comparison's metric) are shown next to them for reference only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

import ccsim

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "validation" / "golden" / "linux"
REPORT = ROOT / "validation" / "report.md"
BEGIN, END = "<!-- linux-kernel -->", "<!-- /linux-kernel -->"

# Kernel module name -> ccsim algorithm. The kernel's `reno` is ns-3's TcpLinuxReno.
CCA = {"reno": "TcpLinuxReno", "cubic": "TcpCubic", "bbr": "TcpBbr"}
# (kernel summary key, ccsim key, label, format)
METRICS = (
    ("total_goodput_mbps", "goodput", "goodput Mb/s", ".2f"),
    ("retx_segments", "retx", "retx", "d"),
    ("srtt_p50_ms", "srtt_p50", "srtt p50 ms", ".1f"),
    ("srtt_p95_ms", "srtt_p95", "srtt p95 ms", ".1f"),
)


def scenario_from_golden(g: dict[str, Any]) -> dict[str, Any]:
    """The ccsim scenario equivalent to the kernel run described by `g["scenario"]`."""
    s = g["scenario"]
    wire = s["mss"] + 52
    base_rtt = 2 * s["delay_ms"] / 1000
    # Buffers never limit the window, as the kernel's autotuning (tcp_rmem/wmem max 256 MB)
    # does not: 4 x (BDP + queue), at least the profile's defaults.
    buf = max(6 << 20, 4 * int(s["rate_bps"] * base_rtt / 8 + s["queue_packets"] * wire))
    return {
        "name": f"linux-case-{s['case']}",
        "run": {"duration": f"{s['duration_s']}s", "seed": 1},
        "output": {"sample_interval": "100ms"},
        "tcp": {"profile": "linux", "mss": s["mss"], "snd_buf": f"{buf}B", "rcv_buf": f"{buf}B"},
        "dumbbell": {
            "mtu": s["mtu"],
            "bottleneck": {
                "rate": f"{s['rate_bps']}bps",
                "delay": f"{s['delay_ms']}ms",
                "queue": f"{s['queue_packets']}p",
                "changes": [{"at": f"{t}s", "rate": f"{int(r)}bps"} for t, r in s["rate_change"]],
            },
            # The kernel's access links are veth pairs (no delay, far faster than the
            # bottleneck); ccsim uses the ns-3 cases' 10x bottleneck rate.
            "access": {"rate": f"{10 * s['rate_bps']}bps", "delay": "0ms"},
        },
        "flows": [{"cca": CCA[s["cca"]], "start": "0s"} for _ in range(s["flows"])],
    }


def _percentile(xs: np.ndarray, p: float) -> float | None:
    return round(float(np.percentile(xs, p)), 3) if len(xs) else None


def run_ccsim(g: dict[str, Any]) -> dict[str, Any]:
    res = ccsim.run(scenario_from_golden(g))
    fs = res.flow_series
    srtt = fs["srtt_ms"].to_numpy(dtype=float)
    srtt = srtt[np.isfinite(srtt) & (srtt > 0)]
    flows = res.summary["flows"]
    return {
        "goodput": res.summary["total_goodput_mbps"],
        "retx": int(sum(f["retx_segments"] for f in flows)),
        "rto": int(sum(f.get("rto_events", f.get("timeouts", 0)) for f in flows)),
        "srtt_p50": _percentile(srtt, 50),
        "srtt_p95": _percentile(srtt, 95),
        "rtt_p50": round(float(np.mean([f["rtt_p50_ms"] for f in flows])), 2),
        "rtt_p95": round(float(np.mean([f["rtt_p95_ms"] for f in flows])), 2),
        "wall_s": res.summary["wall_s"],
    }


def compare(path: Path) -> dict[str, Any]:
    g = json.loads(path.read_text())
    sp = g["spread"]
    got = run_ccsim(g)
    checks = {}
    for kkey, ckey, _, _ in METRICS:
        lo, hi = sp[kkey]["min"], sp[kkey]["max"]
        checks[ckey] = got[ckey] is not None and lo <= got[ckey] <= hi
    return {
        "case": g["case"],
        "cca": g["cca"],
        "kernel": g["kernel"],
        "reps": len(g["repetitions"]),
        "complete": g.get("complete", True),
        "spread": sp,
        "ccsim": got,
        "checks": checks,
        "evidence": bbr_evidence(g) if g["cca"] == "bbr" else {},
    }


def _range(sp: dict[str, Any], k: str, fmt: str) -> str:
    lo, hi = sp[k]["min"], sp[k]["max"]
    return format(lo, fmt) if lo == hi else f"{format(lo, fmt)}–{format(hi, fmt)}"


def table(rows: list[dict[str, Any]]) -> str:
    head = "| case | cca | reps |"
    sep = "|---|---|---|"
    for _, _, label, _ in METRICS:
        head += f" {label} kernel / ccsim |"
        sep += "---|"
    head += " ccsim per-ACK RTT p50 / p95 | inside the kernel's spread |"
    sep += "---|---|"
    out = [head, sep]
    for r in rows:
        c = r["ccsim"]
        line = (
            f"| {r['case']} | {r['cca']} | {r['reps']}{'' if r['complete'] else ' (incomplete)'} |"
        )
        for kkey, ckey, _, fmt in METRICS:
            mark = "" if r["checks"][ckey] else " ✗"
            val = "—" if c[ckey] is None else format(c[ckey], fmt)
            line += f" {_range(r['spread'], kkey, fmt)} / **{val}**{mark} |"
        failed = [k for k, ok in r["checks"].items() if not ok]
        line += f" {c['rtt_p50']:.1f} / {c['rtt_p95']:.1f} | {'yes' if not failed else 'no: ' + ', '.join(failed)} |"
        out.append(line)
    return "\n".join(out)


# What is known about the differences (kept next to the table that shows them).
NOTES: dict[tuple[str, str], str] = {
    ("A", "cubic"): (
        "the kernel's HyStart ends slow start by its ACK-train detector at cwnd 533–534 "
        "segments in every repetition (`TcpExtTCPHystartTrainCwnd`); ccsim's `linux` profile "
        'runs the same detector (`hystart_variant = "LINUX"`) and exits at 461. With ns-3\'s '
        'HyStart (`"NS3"`, the `ns3` profile\'s) ccsim overshoots to about two BDP and '
        "retransmits 287 segments. ccsim's srtt percentiles are 0.2–0.5 ms above the "
        "kernel's (not investigated; ccsim's RTT samples are whole milliseconds from "
        "timestamps, the kernel's are microseconds)"
    ),
    ("C", "cubic"): (
        "the kernel's ACK-train detector fires at cwnd 833–835 (about two BDP), ccsim's at 434 "
        "(about one BDP). The kernel's first rounds grow more slowly (cwnd 34 at 0.1 s, ccsim "
        "~50); why its train fires one round later was not investigated. The goodput gap comes "
        "later: in the 50 Mb/s phase (7 MB queue, RTT 1.1 s) ccsim's sender times out twice "
        "(8–11 s) where the kernel recovers without a timeout"
    ),
    ("A", "bbr"): (
        "the difference is in the reference's bottleneck, not in BBR's rules. htb's bucket "
        "(5 ms at the rate, `validation/linux/run_reference.py`) lets a burst leave at the "
        "veth's speed whenever the queue has been empty — at the start and after every "
        "ProbeRTT (cwnd 4 for 200 ms) — and the kernel measures it as a delivery rate above "
        "the link's payload rate (the highest 100 ms poll of each run: {excess} above it); BBR's windowed-max bandwidth filter keeps that "
        "for ten round trips, paces above the link and fills the one-BDP queue: srtt rises "
        "from 40 to ~80 ms within a second of each ProbeRTT and segments are lost "
        "({split}). ns-3's and ccsim's point-to-point link never delivers faster than its "
        "rate, so ccsim's BBR loses only in start-up (all 600 in the first 3 s) and keeps no "
        "standing queue. Trials (20 s, one run each, kernel 6.18.44-fc-v769, load 19–20; "
        "`sudo python3 validation/linux/run_reference.py --cases A --ccas bbr --reps 1 "
        "--duration 20 [--burst-ms 0]`): 5 ms bucket 1142 / 1183 retransmissions, 96 / 165 of "
        "them in the 3 s after ProbeRTT, srtt p50 49.0 / 54.8 ms, p95 73.6 / 77.2 ms; a "
        "two-packet bucket 1125 / 745, none after ProbeRTT, no rate sample above the link, "
        "srtt p50 43.3 / 45.2 ms, p95 52.5 / 53.5 ms. What remains is start-up: the kernel "
        "reaches cwnd 1040–1138 segments at 0.4 s where ccsim reaches 967, and loses "
        "745–1491 segments there against ccsim's 600 (not traced further; Linux adds "
        "3 × its TSO goal to the cwnd target and sends TSO bursts, ns-3's BBR does neither). "
        "No ccsim change: a faster-than-link burst is a property of this emulated link"
    ),
    ("C", "bbr"): (
        "here start-up carries most of the difference: {split}; ccsim's BBR loses 140 in "
        "its first 3 s (cwnd at most 1171 segments in the first second, the kernel's "
        "1381–1472), 211 in the 50 Mb/s phase (kernel 250–300) and 98 after it (kernel "
        "96–130). The highest polled delivery rate exceeds the link's payload rate by {excess} "
        "per run. The start-up "
        "overshoot is the one case A leaves unexplained (not traced)"
    ),
    ("A", "reno"): (
        "one repetition of the kernel lost ~3 % goodput (93.3 Mb/s); the others and ccsim give 96.0"
    ),
}
NOT_RUN = (
    "Case B (1 Gb/s, ten flows) has no kernel reference yet: on this 2-core machine, shared "
    "and loaded (load average 16–20), the delay line could not hold its 10 ms at 1 Gb/s even "
    "with GSO packets through the TUN pair and receive packet steering (8 s trial: packets "
    "left 3.7 ms late at the median, 21 ms at p99; 2048 retransmissions for 160 drops). The "
    "harness supports it (`run_reference.py --cases B`) on a machine with spare cores."
)


def bbr_evidence(g: dict[str, Any]) -> dict[str, str]:
    """From a BBR golden file's 100 ms `tcp_info` polls: how far the kernel's delivery-rate
    samples exceed the link's payload rate (IP + 2 B per packet on the wire), and its
    retransmissions in start-up (first 3 s) and in the 3 s after each ProbeRTT (cwnd <= 4)."""
    s = g["scenario"]
    cap = s["rate_bps"] * s["mss"] / (s["mss"] + 52 + 2) / 8
    excess, startup, after = [], [], []
    for rep in g["repetitions"]:
        samples = [x for f in rep["flows"] for x in f["samples"]]
        excess.append(max(x[6] for x in samples) / cap - 1)

        def retx_at(t: float, samples: list[Any] = samples) -> int:
            return max((x[3] for x in samples if x[0] <= t), default=0)

        probes = [
            x[0] for i, x in enumerate(samples) if x[2] <= 4 and (i == 0 or samples[i - 1][2] > 4)
        ]
        startup.append(retx_at(3.0))
        after.append(sum(retx_at(p + 3) - retx_at(p) for p in probes))
    return {
        "excess": f"{100 * min(excess):.1f}–{100 * max(excess):.1f} %",
        "split": f"{min(startup)}–{max(startup)} retransmissions in the first 3 s and "
        f"{min(after)}–{max(after)} in the 3 s after ProbeRTT, per run",
    }


def notes(rows: list[dict[str, Any]]) -> str:
    lines = [
        f"- **{r['case']} {r['cca']}**: "
        + NOTES[(r["case"], r["cca"])].format(**r.get("evidence", {}))
        + "."
        for r in rows
        if (r["case"], r["cca"]) in NOTES
    ]
    return "\n".join(lines + [f"- {NOT_RUN}"])


def section(rows: list[dict[str, Any]]) -> str:
    kernels = sorted({r["kernel"] for r in rows})
    return (
        f"{BEGIN}\n## Linux kernel: ccsim's `linux` profile against the real kernel\n\n"
        "Generated by `python validation/compare_linux.py` from the kernel runs in\n"
        "`validation/golden/linux/` (harness and regeneration: `validation/linux/README.md`; "
        f"kernel {', '.join(kernels)}). Tolerance: the kernel's run-to-run spread, [min, max] over "
        "its repetitions (✗ = ccsim outside it). RTT columns are the smoothed RTT polled every "
        "100 ms on both sides, all flows pooled.\n\n"
        + table(rows)
        + "\n\n"
        + notes(rows)
        + f"\n{END}\n"
    )


def write_section(text: str, report: Path = REPORT) -> None:
    """Replaces the section between the markers, or appends it (compare_ns3.py keeps it)."""
    old = report.read_text() if report.exists() else ""
    if BEGIN in old and END in old:
        pre, rest = old.split(BEGIN, 1)
        post = rest.split(END, 1)[1].lstrip("\n")
        new = pre + text + ("\n" + post if post else "")
    else:
        new = old.rstrip("\n") + "\n\n" + text
    report.write_text(new)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--cases", nargs="*", help="case letters (default: all golden)")
    ap.add_argument(
        "--ccas", nargs="*", help="kernel module names: reno cubic bbr (default: all golden)"
    )
    ap.add_argument("--golden", default=str(GOLDEN))
    ap.add_argument("--report", default=str(REPORT))
    ap.add_argument("--print-only", action="store_true")
    a = ap.parse_args(argv)
    rows = []
    for f in sorted(Path(a.golden).glob("*_*.json")):
        case, cca = f.stem.split("_", 1)
        if (a.cases and case not in a.cases) or (a.ccas and cca not in a.ccas):
            continue
        print(f"running {case} {cca} ...", file=sys.stderr)
        rows.append(compare(f))
    if not rows:
        print(f"no golden files in {a.golden}", file=sys.stderr)
        return 1
    text = section(rows)
    if not a.print_only:
        write_section(text, Path(a.report))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
