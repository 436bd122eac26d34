"""Side-by-side speed benchmark: ccsim against ns3-mmwave (the seed 002 authors' tree, issue
15) on the same scenario, one after the other in one invocation, on this machine.

    python benches/vs_ns3mmwave.py                        # seed 002 SIAD 7 MB and BBR 4 MB
    python benches/vs_ns3mmwave.py --cases siad7 --stop 1 # a quick try: 1 simulated s each
    python benches/vs_ns3mmwave.py --ccsim-only --cases bbr4 bbr7 siad4 siad7 handover
    python benches/vs_ns3mmwave.py --markdown             # the table for benches/README.md

Cases: `<cc><rlc MB>[_s<seed>]` (`bbr4`, `siad7_s2`, ...) is seed 002 with that TCP, RLC
buffer and seed; `handover[_<cc>][_s<seed>]` is the handover / blockage case (NewReno, seed 1).
Each needs its golden file in validation/golden/ns3-mmwave/ (the reference's exact command
and recorded wall time are read from it).

ns3-mmwave side: `ccsim-seed002` (or `ccsim-handover`) in the built tree (`--tree`, default
$NS3_MMWAVE_TREE or validation/ns3-mmwave/build/tree; `bash validation/ns3-mmwave/setup.sh`
builds it), run once with the golden file's command; `--stop S` adds `--stop=S` (seed 002: a
prefix of the same run) or sets `--time=S` (handover). The handover reference takes about an
hour of CPU for 10 s, so it runs only with `--run-handover`; otherwise its row uses the
recorded wall time. `--ccsim-only` uses the recorded figures for every case. Recorded figures
are marked as such: they were taken under other load (each golden file's `load_note`), and
their CPU time was not recorded.

ccsim side: the Rust-only driver `ccsim-run` of the build `scripts/setup.sh` ships (PGO or
normal, named in the header line; or `--ccsim-bin`) on
experiments/seed002_ns3mmwave.toml (or experiments/ns3mmwave_handover.toml) with the golden
case's cc, RLC buffer and seed; `--tcp ns3.33` (the default) runs BBR and SIAD as the tree
does (validation/ns3-mmwave/compare_ccsim.py). Median of `--repeat` runs (5).

Each program runs as a child of a small `sh` (never a fork of this interpreter, whose memory
would count in the child's peak RSS), measured with wait4(): wall time, CPU time (user +
system: the figure that still compares on a loaded machine) and peak RSS. Speed-ups are per
simulated second (the reference's full run simulates 0.1 s more than ccsim's 15 s).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benches"))
sys.path.insert(0, str(ROOT / "validation" / "ns3-mmwave"))
from compare_ccsim import CCSIM_CCA, TREE_CCA_PARAMS  # noqa: E402
from compare_handover import CCSIM_CCA as HANDOVER_CCA  # noqa: E402
from spawn import PGO_BIN, ccsim_bin_and_label, measure  # noqa: E402

GOLDEN = ROOT / "validation" / "golden" / "ns3-mmwave"
DEFAULT_TREE = Path(
    os.environ.get("NS3_MMWAVE_TREE", ROOT / "validation" / "ns3-mmwave" / "build" / "tree")
)
SEED002_TOML = ROOT / "experiments" / "seed002_ns3mmwave.toml"
HANDOVER_TOML = ROOT / "experiments" / "ns3mmwave_handover.toml"
SEED002_CASE = re.compile(r"^(bbr|siad)(\d+)(?:_s(\d+))?$")
TIME_BIN = "/usr/bin/time"  # GNU time: the reference's peak RSS (n/a without it)
HANDOVER_CASE = re.compile(r"^handover(?:_(newreno|cubic))?(?:_s(\d+))?$")


@dataclass
class Case:
    name: str
    golden: dict
    program: str  # the reference program in the tree's build/scratch
    toml: Path
    overrides: list[str]  # ccsim-run key=value overrides (cc, buffer, seed)
    handover: bool


def resolve_case(name: str, tcp: str) -> Case:
    """The golden file and both sides' settings of case `name`; a clear error otherwise."""
    if m := SEED002_CASE.match(name):
        cc, rlc, seed = m.group(1), int(m.group(2)), int(m.group(3) or 2)
        path = GOLDEN / f"seed002_{cc}_{rlc}MB_s{seed}.json"
    elif m := HANDOVER_CASE.match(name):
        cc, seed = m.group(1) or "newreno", int(m.group(2) or 1)
        path = GOLDEN / f"handover_{cc}_dc_s{seed}.json"
    else:
        raise SystemExit(
            f"error: --cases {name!r}: allowed <bbr|siad><rlc MB>[_s<seed>] (e.g. bbr4, "
            "siad7_s2) or handover[_newreno|_cubic][_s<seed>]"
        )
    if not path.exists():
        have = sorted(p.stem for p in GOLDEN.glob("*.json") if p.stem != "summary")
        raise SystemExit(f"error: --cases {name!r}: no golden file {path.name} (have: {have})")
    golden = json.loads(path.read_text())
    tree_cc = golden["cc"]
    seed = golden["seed"]
    if HANDOVER_CASE.match(name):
        return Case(
            name,
            golden,
            "ccsim-handover",
            HANDOVER_TOML,
            [f"flows.0.cca={HANDOVER_CCA[tree_cc]}", f"run.seed={seed}"],
            True,
        )
    params = TREE_CCA_PARAMS.get(tree_cc, []) if tcp == "ns3.33" else []
    return Case(
        name,
        golden,
        "ccsim-seed002",
        SEED002_TOML,
        [
            f"flows.0.cca={CCSIM_CCA[tree_cc]}",
            *(f"flows.0.cca_params.{p}" for p in params),
            f"radio.mmwave.cell.rlc.buffer_bytes={golden['rlc_buffer_bytes']}",
            f"run.seed={seed}",
        ],
        False,
    )


def reference_sim_s(case: Case, stop: float | None) -> float:
    """Simulated seconds of the reference run: ccsim-seed002 stops 0.1 s after the walk."""
    if stop is not None:
        return stop
    t = case.golden["sim_time_s"]
    return t if case.handover else t + 0.1


def reference_command(case: Case, tree: Path, stop: float | None, out_dir: Path) -> list[str]:
    """The golden file's command with the tree's binary, a CSV in `out_dir`, and `stop`."""
    args = shlex.split(case.golden["command"])[1:]
    if stop is not None:
        if case.handover:  # its --time is the simulated time
            args = [a for a in args if not a.startswith("--time=")] + [f"--time={stop:g}"]
        else:  # its --time sets the walk's speed: --stop cuts the same run short
            args.append(f"--stop={stop:g}")
    binary = tree / "build" / "scratch" / case.program
    return [str(binary), *args, f"--out={out_dir / (case.program + '.csv')}"]


def run_reference(case: Case, tree: Path, stop: float | None, nice: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="vs-ns3mmwave-") as tmp:
        cmd = reference_command(case, tree, stop, Path(tmp))
        # Peak RSS from GNU time's wait4() on the program: the `sh` that measure() spawns
        # carries the spawning interpreter's RSS in its own ru_maxrss.
        rss_file = Path(tmp) / "maxrss_kb"
        if Path(TIME_BIN).exists():
            cmd = [TIME_BIN, "-f", "%M", "-o", str(rss_file), *cmd]
        if nice:
            cmd = ["nice", "-n", str(nice), *cmd]
        lib = str(tree / "build" / "lib")
        old = os.environ.get("LD_LIBRARY_PATH")
        os.environ["LD_LIBRARY_PATH"] = lib if not old else f"{lib}:{old}"
        try:
            print(f"running ns3-mmwave: {shlex.join(cmd)}", file=sys.stderr, flush=True)
            wall, _, _, cpu = measure(cmd, cwd=Path(tmp))
        finally:
            if old is None:
                del os.environ["LD_LIBRARY_PATH"]
            else:
                os.environ["LD_LIBRARY_PATH"] = old
        rss = int(rss_file.read_text().split()[-1]) / 1024 if rss_file.exists() else math.nan
    return {"wall": wall, "cpu": cpu, "rss": rss, "source": "measured"}


def recorded_reference(case: Case) -> dict:
    g = case.golden
    note = g.get("load_note", "load not recorded")
    return {
        "wall": g["wall_time_s"],
        "cpu": math.nan,
        "rss": math.nan,
        "source": f"recorded ({note})",
    }


def run_ccsim(case: Case, ccsim_bin: Path, sim_s: float, repeat: int) -> dict:
    cmd = [str(ccsim_bin), str(case.toml), *case.overrides, f"run.duration={sim_s:g}s"]
    runs = [measure(cmd) for _ in range(repeat)]
    summary = json.loads(runs[0][2])
    return {
        "wall": statistics.median(r[0] for r in runs),
        "cpu": statistics.median(r[3] for r in runs),
        # ccsim-run reports its own VmHWM (wait4's figure counts the spawning interpreter).
        "rss": max(json.loads(r[2])["peak_rss_mb"] for r in runs),
        "events": summary["events"],
        "goodput_mbps": summary["flows"][0]["goodput_mbps"],
        "command": shlex.join([os.path.relpath(c, ROOT) if c.startswith("/") else c for c in cmd]),
    }


def ratio(a: float, b: float) -> float:
    return a / b if b > 0 and not math.isnan(a) else math.nan


def fmt(x: float, spec: str) -> str:
    return "n/a" if math.isnan(x) else format(x, spec)


def bold(speed_up: float) -> str:
    return "n/a" if math.isnan(speed_up) else f"**{speed_up:.0f}×**"


COLUMNS = (
    "case",
    "sim s (ref / ccsim)",
    "ns3-mmwave wall s",
    "ns3-mmwave CPU s",
    "ns3-mmwave peak RSS MB",
    "ns3-mmwave wall s per sim s",
    "ccsim wall s",
    "ccsim CPU s",
    "ccsim peak RSS MB",
    "ccsim wall ms per sim s",
    "speed-up (wall)",
    "speed-up (CPU)",
    "ns3-mmwave side",
)


def row(case: Case, ref_s: float, sim_s: float, ref: dict, cc: dict) -> list[str]:
    ref_per_s = ref["wall"] / ref_s
    return [
        case.name,
        f"{ref_s:g} / {sim_s:g}",
        f"{ref['wall']:.1f}",
        fmt(ref["cpu"], ".1f"),
        fmt(ref["rss"], ".1f"),
        f"{ref_per_s:.2f}",
        f"{cc['wall']:.3f}",
        f"{cc['cpu']:.3f}",
        f"{cc['rss']:.1f}",
        f"{cc['wall'] / sim_s * 1e3:.1f}",
        bold(ratio(ref_per_s, cc["wall"] / sim_s)),
        bold(ratio(ref["cpu"] / ref_s, cc["cpu"] / sim_s)),
        ref["source"],
    ]


def print_table(rows: list[list[str]], markdown: bool) -> None:
    if markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "---|" * len(COLUMNS))
        for r in rows:
            print("| " + " | ".join(r) + " |")
        return
    table = [list(COLUMNS), *[[c.replace("**", "") for c in r] for r in rows]]
    widths = [max(len(r[i]) for r in table) for i in range(len(COLUMNS))]
    for r in table:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))


def git_head() -> str:
    out = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--cases", nargs="+", default=["siad7", "bbr4"])
    ap.add_argument(
        "--stop", type=float, default=None, help="simulate S s on both sides (a quick try)"
    )
    ap.add_argument("--repeat", type=int, default=5, help="ccsim runs per case (median)")
    ap.add_argument("--tree", type=Path, default=DEFAULT_TREE, help="the built ns3-mmwave tree")
    ap.add_argument("--ccsim-only", action="store_true", help="use the recorded ns3-mmwave figures")
    ap.add_argument(
        "--run-handover",
        action="store_true",
        help="run the handover reference too (about an hour of CPU for 10 s)",
    )
    ap.add_argument("--nice", type=int, default=0, help="niceness of the reference process")
    ap.add_argument("--tcp", choices=["ns3.33", "ns3.44"], default="ns3.33")
    ap.add_argument(
        "--ccsim-bin",
        type=Path,
        default=None,
        help="time this ccsim-run binary instead of the one of the build scripts/setup.sh ships",
    )
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = ap.parse_args(argv)
    if args.stop is not None and not args.stop > 0:
        raise SystemExit(f"error: --stop {args.stop}: allowed a duration > 0 (s)")
    if args.repeat < 1:
        raise SystemExit(f"error: --repeat {args.repeat}: allowed 1 or more")
    cases = [resolve_case(c, args.tcp) for c in args.cases]
    ccsim_bin, build = ccsim_bin_and_label(args.ccsim_bin)
    if ccsim_bin == PGO_BIN:
        # Unlike vs_ns3.py's cases, this scenario file is one of the profile's training runs.
        build += " (its training runs include experiments/seed002_ns3mmwave.toml)"
    measured = [c for c in cases if not args.ccsim_only and (not c.handover or args.run_handover)]
    for c in measured:
        binary = args.tree / "build" / "scratch" / c.program
        if not os.access(binary, os.X_OK):
            raise SystemExit(
                f"error: {binary} not built: run `bash validation/ns3-mmwave/setup.sh`, pass "
                "--tree, or --ccsim-only"
            )
    load0 = os.getloadavg()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    rows = []
    for c in cases:
        ref_s = reference_sim_s(c, args.stop)
        sim_s = args.stop if args.stop is not None else c.golden["sim_time_s"]
        if c in measured:
            ref = run_reference(c, args.tree, args.stop, args.nice)
        else:
            # The recorded run simulated the golden file's full duration.
            ref = recorded_reference(c)
            ref_s = reference_sim_s(c, None)
        cc = run_ccsim(c, ccsim_bin, sim_s, args.repeat)
        print(f"{c.name}: ccsim `{cc['command']}`", file=sys.stderr)
        rows.append(row(c, ref_s, sim_s, ref, cc))
    load1 = os.getloadavg()
    print(
        f"# {started}, ccsim {git_head()} ({build}, median of {args.repeat}), "
        f"--tcp {args.tcp}; load average {load0[0]:.2f} at the start, {load1[0]:.2f} at the end"
    )
    print_table(rows, args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
