"""The command line of run_reference.py (its usage text is that script's docstring)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

from .config import CASES, CCAS, DELAYLINE, GOLDEN
from .golden import run_case
from .qdisc import DEFAULT_BURST_S
from .run import ping_test
from .tables import accuracy_table, results_table


def _exit_on_signal(signum: int, _frame: Any) -> None:
    # Turn SIGTERM/SIGHUP into an exception so every `finally` kills the run's processes and
    # deletes the namespaces.
    raise SystemExit(f"stopped by signal {signum}")


def _parser(description: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
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
    return ap


def main(description: str) -> None:
    signal.signal(signal.SIGTERM, _exit_on_signal)
    signal.signal(signal.SIGHUP, _exit_on_signal)
    a = _parser(description).parse_args()
    burst_s = DEFAULT_BURST_S
    if a.burst_ms is not None:
        if not a.duration:
            sys.exit("--burst-ms is for trial runs: give --duration too")
        burst_s = a.burst_ms / 1000
    if a.table:
        print(results_table(GOLDEN))
        print()
        print(accuracy_table(GOLDEN))
        return
    if os.geteuid() != 0:
        sys.exit("needs root (network namespaces, TUN devices, tc)")
    if not DELAYLINE.exists():
        sys.exit(f"{DELAYLINE} missing: run bash validation/linux/setup.sh first")
    if a.ping_test:
        ping_test(burst_s)
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
    out_dir = GOLDEN
    chosen = {c: CASES[c] for c in cases}
    if a.duration:
        out_dir = Path(tempfile.mkdtemp(prefix="ccl_trial_"))
        chosen = {c: {**case, "duration_s": a.duration} for c, case in chosen.items()}
    for c in cases:
        for cca in ccas:
            command = f"python3 validation/linux/run_reference.py --cases {c} --ccas {cca} --reps {a.reps}"
            print(run_case(c, chosen[c], cca, a.reps, command, out_dir, burst_s))
