"""Side-by-side speed and memory benchmark: ccsim against ns-3.44 on the same scenarios, in
one invocation, on this machine. Prints wall-time and peak-memory ratios per case.

    python benches/vs_ns3.py                 # cases A and C, CUBIC
    python benches/vs_ns3.py --cases A B C --ccas TcpCubic TcpNewReno
    python benches/vs_ns3.py --ccsim-only    # no ns-3 installed: ccsim numbers only

ns-3 side: `validation/ns3/build/dumbbell` (build it with `bash validation/ns3/setup.sh`),
run with the exact command recorded in the golden file `validation/golden/ns3/<case>_<cca>.json`.
ccsim side: the Rust-only driver `ccsim-run` of the build `scripts/setup.sh` ships (the
profile-guided `target/pgo/release/ccsim-run` where the toolchain allows it, else the normal
`target/release/ccsim-run`; the table's first line says which, `--ccsim-bin` times another) on
the equivalent scenario (built from the same golden file by `validation/ns3_scenario.py`), so
neither side pays for a Python interpreter; `--with-cli` also times the full `ccsim run`
command a user types.
Each process is measured with wait4(): wall time, CPU time (user + system, the figure that
still compares on a machine other jobs load: wall time there counts waiting for a core), and
peak resident memory (ru_maxrss).
ccsim runs `--repeat` times (median reported); ns-3 once (it takes 10-300 s per case).
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "validation"))
from ns3_scenario import scenario_from_golden  # noqa: E402
from spawn import ccsim_bin_and_label, measure  # noqa: E402

GOLDEN = ROOT / "validation" / "golden" / "ns3"
NS3_BIN = ROOT / "validation" / "ns3" / "build" / "dumbbell"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--cases", nargs="+", default=["A", "C"])
    ap.add_argument("--ccas", nargs="+", default=["TcpCubic"])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--ccsim-only", action="store_true", help="skip ns-3 (use the recorded ns-3 wall time)"
    )
    ap.add_argument(
        "--with-cli", action="store_true", help="also time the `ccsim run` command end to end"
    )
    ap.add_argument(
        "--ccsim-bin",
        type=Path,
        default=None,
        help="time this ccsim-run binary (e.g. target/release/ccsim-run, the normal build) "
        "instead of the one of the build scripts/setup.sh ships",
    )
    args = ap.parse_args(argv)
    ccsim_bin, build = ccsim_bin_and_label(args.ccsim_bin)
    print(f"ccsim binary: {build}", file=sys.stderr)
    if not args.ccsim_only and not NS3_BIN.exists():
        print(
            f"ns-3 program not built ({NS3_BIN}); run `bash validation/ns3/setup.sh`, "
            "or pass --ccsim-only",
            file=sys.stderr,
        )
        return 2
    rows = []
    for case in args.cases:
        for cca in args.ccas:
            gpath = GOLDEN / f"{case}_{cca}.json"
            if not gpath.exists():
                print(f"skip {case} {cca}: no golden file {gpath.name}", file=sys.stderr)
                continue
            golden = json.loads(gpath.read_text())
            with tempfile.TemporaryDirectory() as tmp:
                scen = Path(tmp) / "scenario.json"
                scen.write_text(json.dumps(scenario_from_golden(golden)))
                runs = [measure([str(ccsim_bin), str(scen)]) for _ in range(args.repeat)]
                c_wall = statistics.median(r[0] for r in runs)
                c_cpu = statistics.median(r[3] for r in runs)
                c_summary = json.loads(runs[0][2])
                # Both programs report their own peak RSS (VmHWM / getrusage(RUSAGE_SELF)):
                # wait4's figure would include the forking Python interpreter.
                c_rss = max(json.loads(r[2])["peak_rss_mb"] for r in runs)
                cli_wall = None
                if args.with_cli:
                    cli_wall = measure(
                        [
                            sys.executable,
                            "-m",
                            "ccsim",
                            "run",
                            str(scen).replace(".json", ".json"),
                            "--out",
                            str(Path(tmp) / "out"),
                            "--json",
                            "--no-plot",
                        ]
                    )[0]
                if args.ccsim_only:
                    n_wall, n_rss, n_events = (
                        golden["wall_s"],
                        golden["peak_rss_mb"],
                        golden["events"],
                    )
                    n_cpu = float("nan")
                    source = "recorded"
                else:
                    cmd = shlex.split(golden["command"])
                    cmd = [c for c in cmd if not c.startswith("--out=")] + [
                        f"--out={Path(tmp) / 'ns3.json'}"
                    ]
                    print(f"running ns-3: {case} {cca} ...", file=sys.stderr)
                    n_wall, _, _, n_cpu = measure(cmd)
                    ns3_out = json.loads((Path(tmp) / "ns3.json").read_text())
                    n_events, n_rss = ns3_out["events"], ns3_out["peak_rss_mb"]
                    source = "measured"
            rows.append(
                (
                    case,
                    cca,
                    n_wall,
                    c_wall,
                    n_cpu,
                    c_cpu,
                    n_rss,
                    c_rss,
                    n_events,
                    c_summary["events"],
                    source,
                    cli_wall,
                )
            )
            print(
                f"{case} {cca}: ns-3 {n_wall:.1f} s ({n_cpu:.1f} s CPU), ccsim {c_wall:.3f} s "
                f"({c_cpu:.3f} s CPU) -> {n_wall / c_wall:.0f}x wall, {n_cpu / c_cpu:.0f}x CPU",
                file=sys.stderr,
            )
    print(f"# ccsim: {build}, median of {args.repeat}")
    print(
        "| case | cca | ns-3 wall s | ccsim wall s | speed-up | ns-3 CPU s | ccsim CPU s | "
        "CPU speed-up | ns-3 peak RSS MB | ccsim peak RSS MB | memory ratio | ns-3 events/s | "
        "ccsim events/s | ns-3 side |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for case, cca, nw, cw, nc, cc, nr, cr, ne, ce, src, cli in rows:
        extra = f" (CLI end to end {cli:.2f} s)" if cli else ""
        print(
            f"| {case} | {cca} | {nw:.1f} | {cw:.3f}{extra} | **{nw / cw:.0f}×** | {nc:.1f} | "
            f"{cc:.3f} | **{nc / cc:.0f}×** | {nr:.1f} | {cr:.1f} | "
            f"{nr / cr:.1f}× less | {ne / nw / 1e3:.0f} k | {ce / cw / 1e6:.1f} M | {src} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
