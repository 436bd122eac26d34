#!/usr/bin/env python3
"""Run the ns-3.44 reference dumbbell for named cases and write golden JSON.

Usage (from the repository root, after `bash validation/ns3/setup.sh`):

    python3 validation/ns3/run_reference.py --cases A --ccas TcpCubic,TcpNewReno
    python3 validation/ns3/run_reference.py --cases A --ccas all
    python3 validation/ns3/run_reference.py --cases C --ccas TcpCubic,TcpNewReno,TcpBbr
    python3 validation/ns3/run_reference.py --list

Each run writes validation/golden/ns3/<case>_<cca>.json (override with --outdir).
The JSON is the program's own output plus "command" (the exact argv used) and
"host" (a short machine description). Runs are sequential by default
(--jobs 2 at most on a 2-core machine; wall times are only comparable when
the runs did not share the machine).

This script needs only the Python standard library. It is not part of the
normal test suite.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DEFAULT_BIN = HERE / "build" / "dumbbell"
DEFAULT_OUT = REPO / "validation" / "golden" / "ns3"

# Every congestion control the issue grid asks for, by ns-3.44 TypeId name.
ALL_CCAS = [
    "TcpNewReno",
    "TcpLinuxReno",
    "TcpCubic",
    "TcpBic",
    "TcpScalable",
    "TcpHighSpeed",
    "TcpHybla",
    "TcpHtcp",
    "TcpIllinois",
    "TcpVegas",
    "TcpWestwoodPlus",
    "TcpYeah",
    "TcpBbr",
]

# 1 flow, 100 Mb/s, 20 ms one-way, drop-tail 1 BDP (333 packets), 60 s.
A_CASE = {
    "flows": "1",
    "bottleneckRate": "100000000",
    "bottleneckDelay": "20",
    "mss": "1448",
    "duration": "60",
}
# 10 flows, 1 Gb/s, 10 ms one-way, drop-tail 1 BDP (1666 packets), 30 s.
B_CASE = {
    "flows": "10",
    "bottleneckRate": "1000000000",
    "bottleneckDelay": "10",
    "mss": "1448",
    "duration": "30",
}
# 1 flow, 1300 Mb/s, 12.5 ms one-way, MSS 10000 (MTU 10052), queue 696
# packets (~7 MB), 15 s, bottleneck at 50 Mb/s from 5 s to 10 s.
C_CASE = {
    "flows": "1",
    "bottleneckRate": "1300000000",
    "bottleneckDelay": "12.5",
    "mss": "10000",
    "mtu": "10052",
    "queuePackets": "696",
    "duration": "15",
    "rateChange": "5:50000000,10:1300000000",
}

# Case definitions: dumbbell.cc command-line parameters. Anything not given
# here takes the program default (see README.md: access rate 10x bottleneck,
# access delay 0, queue 1 BDP, MSS 1448, MTU max(1500, MSS+52), start at 0 s).
CASES: dict[str, dict[str, str]] = {
    "A": A_CASE,
    "B": B_CASE,
    "C": C_CASE,
    # Case C with the Linux-like 200 ms minimum RTO instead of ns-3's 1 s (issue 4, case D).
    "D": {**C_CASE, "minRto": "0.2"},
    # Case B stopped at 3 s: ns-3.44 cannot finish B with TcpBbr in 30 s on this machine
    # (compare_ns3.py MISSING_REFERENCE says why), so this shorter run stands in for it.
    "B3": {**B_CASE, "duration": "3"},
    # Issue 17: cases A and C with SACK off at both ends (TcpSocketBase::Sack false), so loss
    # recovery runs on duplicate ACKs alone (RFC 6582 NewReno-style, ns-3's "Reno SACK" count).
    "AN": {**A_CASE, "sack": "0"},
    "CN": {**C_CASE, "sack": "0"},
    # Issue 17: SACK off on a long path like seed 003's GEO link L2 (10 Mb/s, 300 ms one way,
    # 520 packets ~ 1 BDP, 4 MB buffers as experiments/seed003_vertical_handover.toml), 120 s.
    # Slow start overshoots by ~a BDP; without SACK, NewReno repairs one hole per RTT (0.6 s)
    # until its RTO fires, then ns-3 retransmits everything outstanding (go-back-N): whether
    # ccsim's thousands of retransmissions there are ns-3's is decided against this case.
    "GN": {
        "flows": "1",
        "bottleneckRate": "10000000",
        "bottleneckDelay": "300",
        "mss": "1448",
        "queuePackets": "520",
        "bufSize": "4000000",
        "duration": "120",
        "sack": "0",
    },
    # Not in the issue grid: a small 20 Mb/s link blocked to 2 Mb/s from 2 to 4 s with a 200 ms
    # minimum RTO. ns-3.44's PRR bugs (#1282/#1350/#1351) make CUBIC collapse into repeated
    # timeouts here; ccsim's `ns3` profile must reproduce that (tests/test_cli_and_api.py runs
    # the same link with RFC PRR).
    "E": {
        "flows": "1",
        "bottleneckRate": "20000000",
        "bottleneckDelay": "10",
        "mss": "1448",
        "duration": "6",
        "rateChange": "2:2000000,4:20000000",
        "minRto": "0.2",
        "bufSize": "2000000",
    },
    # Not in the issue grid: seed 002's scenario on a wire (issue 5). The mmWave cell becomes a
    # 1.65 Gb/s bottleneck with a 4 MB drop-tail queue (its RLC buffer) that falls to 610 Mb/s
    # from 5 to 10 s (the NLOS capacities of docs/radio.md), 25 ms RTT, MSS 10 000, 1 s
    # minimum RTO and 131072 x 50 B socket buffers (seed 002 Table 1). The flow is limited by
    # its send buffer, which exercises ns-3's application-write and app-limited rules.
    "S4": {
        "flows": "1",
        "bottleneckRate": "1650000000",
        "bottleneckDelay": "12.5",
        "mss": "10000",
        "mtu": "10052",
        "queuePackets": "398",
        "duration": "15",
        "rateChange": "5:610000000,10:1650000000",
        "bufSize": "6553600",
    },
    # S4 with seed 002's Internet-link MTU of 1500 B (Table 1): every 10 kB segment leaves
    # the sender as seven IPv4 fragments, the 4 MB queue holds 2667 fragments, and the
    # receiver reassembles with ns-3's 16-bit identification and 30 s expiry. BBR struggles
    # after the rate comes back, as in the paper's Fig. 3 (docs/radio.md).
    "S4F": {
        "flows": "1",
        "bottleneckRate": "1650000000",
        "bottleneckDelay": "12.5",
        "mss": "10000",
        "mtu": "1500",
        "allowFragments": "1",
        "queuePackets": "2667",
        "duration": "15",
        "rateChange": "5:610000000,10:1650000000",
        "bufSize": "6553600",
    },
}


def host_info() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cpu, {cpu}"


def command_for(binary: Path, case: str, cca: str, out: Path, extra: list[str]) -> list[str]:
    args = [str(binary)]
    for k, v in CASES[case].items():
        args.append(f"--{k}={v}")
    # --verifyRtt=1: cross-check every RTT sample against ns-3's own LastRTT
    # trace (cheap); the result is in flows[i].verify_rtt.
    args += [f"--cca={cca}", f"--caseName={case}", "--verifyRtt=1", f"--out={out}"]
    return args + extra


def run_one(binary: Path, case: str, cca: str, outdir: Path, extra: list[str]) -> dict:
    out = outdir / f"{case}_{cca}.json"
    tmp = out.with_suffix(".json.tmp")
    cmd = command_for(binary, case, cca, tmp, extra)
    t0 = time.monotonic()
    load_before = os.getloadavg()[0]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{case}/{cca} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    data = json.loads(tmp.read_text())
    tmp.unlink()
    # Record the command relative to the repository root so it can be re-run.
    rel = [shlex.quote(a) for a in cmd]
    rel[0] = os.path.relpath(cmd[0], REPO)
    rel = [a.replace(str(tmp), os.path.relpath(out, REPO)) for a in rel]
    data["command"] = " ".join(rel)
    data["host"] = host_info()
    # 1-minute load average just before the run: wall times of runs started
    # on a busy machine (load > ~1 on 2 cores) are inflated.
    data["load_avg_1m_before"] = round(load_before, 2)
    out.write_text(json.dumps(data, indent=2) + "\n")
    data["_elapsed"] = time.monotonic() - t0
    data["_path"] = str(out)
    return data


def summary_line(case: str, cca: str, d: dict) -> str:
    fl = d["flows"]
    if len(fl) == 1:
        f = fl[0]
        return (
            f"{case:2} {cca:16} goodput {f['goodput_mbps']:8.3f} Mb/s  rtt p50 {f['rtt_p50_ms']:6.1f}"
            f" p95 {f['rtt_p95_ms']:6.1f} mean {f['rtt_mean_ms']:7.2f} ms  retx {f['retx_segments']:6}"
            f"  drops {d['queues'][0]['drops']:6}  wall {d['wall_s']:6.1f} s  rss {d['peak_rss_mb']:5.1f} MB"
            f"  events {d['events']}"
        )
    retx = sum(f["retx_segments"] for f in fl)
    return (
        f"{case:2} {cca:16} total {d['total_goodput_mbps']:8.3f} Mb/s  jain {d['jain_index']:.4f}"
        f"  retx {retx}  drops {d['queues'][0]['drops']}  wall {d['wall_s']:.1f} s"
        f"  rss {d['peak_rss_mb']:.1f} MB  events {d['events']}"
    )


def print_table(outdir: Path) -> None:
    order = {c: i for i, c in enumerate(ALL_CCAS)}
    files = sorted(
        outdir.glob("*_*.json"),
        key=lambda p: (p.stem.split("_", 1)[0], order.get(p.stem.split("_", 1)[1], 99)),
    )
    print(
        "| case | cca | goodput Mb/s | RTT p50 ms | RTT p95 ms | RTT mean ms | RTT samples | retx | drops"
        " | RTOs | Jain | wall s | peak RSS MB | events | events/s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in files:
        d = json.loads(p.read_text())
        case, cca = p.stem.split("_", 1)
        fl = d["flows"]
        n = len(fl)
        if n == 1:
            f = fl[0]
            p50, p95, mean, ns = (
                f["rtt_p50_ms"],
                f["rtt_p95_ms"],
                f["rtt_mean_ms"],
                f["rtt_samples"],
            )
            rtt = f"| {p50:g} | {p95:g} | {mean:.2f} | {ns} "
        else:
            rtt = "| (per flow) | | | "
            rtt += f"{sum(f['rtt_samples'] for f in fl)} "
        retx = sum(f["retx_segments"] for f in fl)
        rtos = sum(f.get("rto_events", 0) for f in fl)
        bad = sum(
            f.get("verify_rtt", {}).get("mismatches", 0)
            + f.get("verify_rtt", {}).get("samples_not_taken_by_ns3", 0)
            for f in fl
        )
        if bad:
            cca += f" (RTT check: {bad} mismatches)"
        print(
            f"| {case} | {cca} | {d['total_goodput_mbps']:.3f} {rtt}| {retx} | {d['queues'][0]['drops']} | {rtos}"
            f" | {d['jain_index']:.4f} | {d['wall_s']:.1f} | {d['peak_rss_mb']:.1f} | {d['events']}"
            f" | {d['events_per_s']:.0f} |"
        )


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--cases", default="A", help="comma-separated case names (A,B,C,D)")
    ap.add_argument(
        "--ccas", default="TcpCubic,TcpNewReno", help="comma-separated TypeId names or 'all'"
    )
    ap.add_argument("--bin", default=str(DEFAULT_BIN), help="dumbbell binary")
    ap.add_argument("--outdir", default=str(DEFAULT_OUT))
    ap.add_argument("--jobs", type=int, default=1, help="parallel runs (2 at most on 2 cores)")
    ap.add_argument("--list", action="store_true", help="print the case table and exit")
    ap.add_argument(
        "--table",
        action="store_true",
        help="print a markdown table of the golden JSON in --outdir and exit",
    )
    ap.add_argument("extra", nargs="*", help="extra arguments passed to every run (after --)")
    a = ap.parse_args()

    if a.list:
        for name, params in CASES.items():
            print(name, " ".join(f"--{k}={v}" for k, v in params.items()))
        print("ccas:", ",".join(ALL_CCAS))
        return 0

    if a.table:
        print_table(Path(a.outdir))
        return 0

    binary = Path(a.bin)
    if not binary.exists():
        print(f"{binary} not found: run `bash validation/ns3/setup.sh` first", file=sys.stderr)
        return 2
    outdir = Path(a.outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    cases = [c.strip() for c in a.cases.split(",") if c.strip()]
    for c in cases:
        if c not in CASES:
            print(f"unknown case {c}; known: {', '.join(CASES)}", file=sys.stderr)
            return 2
    ccas = ALL_CCAS if a.ccas == "all" else [c.strip() for c in a.ccas.split(",") if c.strip()]
    jobs = [(c, cca) for c in cases for cca in ccas]

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(a.jobs, 2))) as ex:
        futs = {ex.submit(run_one, binary, c, cca, outdir, a.extra): (c, cca) for c, cca in jobs}
        for fut in concurrent.futures.as_completed(futs):
            c, cca = futs[fut]
            try:
                d = fut.result()
            except Exception as e:  # noqa: BLE001 - report and go on
                failed += 1
                print(f"{c} {cca}: FAILED: {e}", file=sys.stderr)
                continue
            print(summary_line(c, cca, d), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
