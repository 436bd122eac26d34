"""Side-by-side speed benchmark on the seed 004 mesh grid with OLSR (issue 14): ns-3.44 against
ccsim on the same scenario (validation/ns3/mesh/SCENARIO.md), in one invocation, on this machine.
The issue asks ccsim to be at least 100x faster for 100 UEs.

    python benches/vs_ns3_mesh.py                    # 100 UEs, RngRun/seed 1
    python benches/vs_ns3_mesh.py --ues 25 50 100
    python benches/vs_ns3_mesh.py --ccsim-only       # ns-3 figures as recorded in the golden file

ns-3 side: `validation/ns3/build/mesh` (`bash validation/ns3/setup.sh`) with the exact command
recorded in `validation/golden/ns3/mesh/n<N>_run<seed>.json`. ccsim side: the Rust-only driver
`ccsim-run` of the build `scripts/setup.sh` ships (PGO or normal, named above the table) on the equivalent scenario (`validation/compare_mesh.py` builds it
from the same golden file), median of `--repeat` runs. Wall time and peak RSS per process as in
benches/vs_ns3.py; ns-3's CPU time (user + system, from the program) is shown too, because on a
shared machine ns-3's wall time depends on the other jobs.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "validation"))
sys.path.insert(0, str(ROOT / "benches"))
from compare_mesh import GOLDEN, scenario_from_golden  # noqa: E402
from spawn import ccsim_bin_and_label, measure  # noqa: E402

NS3_BIN = ROOT / "validation" / "ns3" / "build" / "mesh"


def ccsim_supports_mesh(ccsim_bin: Path, scen: Path) -> str | None:
    """None if ccsim-run accepts the mesh scenario, else its error message."""
    p = subprocess.run([str(ccsim_bin), str(scen)], capture_output=True, text=True)
    if p.returncode == 0:
        return None
    return (p.stderr.strip().splitlines() or ["(no message)"])[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--ues", nargs="+", type=int, default=[100])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--ccsim-only", action="store_true", help="skip ns-3 (use the recorded ns-3 wall time)"
    )
    args = ap.parse_args(argv)
    ccsim_bin, build = ccsim_bin_and_label()
    if not args.ccsim_only and not NS3_BIN.exists():
        print(
            f"ns-3 program not built ({NS3_BIN}); run `bash validation/ns3/setup.sh`, "
            "or pass --ccsim-only",
            file=sys.stderr,
        )
        return 2
    rows = []
    for ues in args.ues:
        gpath = GOLDEN / f"n{ues}_run{args.seed}.json"
        if not gpath.exists():
            print(f"skip {ues} UEs: no golden file {gpath.name}", file=sys.stderr)
            continue
        golden = json.loads(gpath.read_text())
        with tempfile.TemporaryDirectory() as tmp:
            scen = Path(tmp) / "scenario.json"
            scen.write_text(json.dumps(scenario_from_golden(golden)))
            err = ccsim_supports_mesh(ccsim_bin, scen)
            if err is not None:
                print(
                    f"ccsim cannot run the mesh scenario yet: {err}\n"
                    "(the `[mesh]` table of issue 14 has not landed); nothing to compare.",
                    file=sys.stderr,
                )
                return 3
            runs = [measure([str(ccsim_bin), str(scen)]) for _ in range(args.repeat)]
            c_wall = statistics.median(r[0] for r in runs)
            c_rss = max(json.loads(r[2])["peak_rss_mb"] for r in runs)
            if args.ccsim_only:
                n_wall, n_cpu, n_rss = golden["wall_s"], golden["cpu_s"], golden["peak_rss_mb"]
                source = "recorded"
            else:
                cmd = [c for c in shlex.split(golden["command"]) if not c.startswith("--out=")]
                cmd.append(f"--out={Path(tmp) / 'ns3.json'}")
                print(f"running ns-3: {ues} UEs ...", file=sys.stderr)
                n_wall, _, _, _ = measure(cmd)
                ns3_out = json.loads((Path(tmp) / "ns3.json").read_text())
                n_cpu, n_rss = ns3_out["cpu_s"], ns3_out["peak_rss_mb"]
                source = "measured"
        rows.append((ues, n_wall, n_cpu, c_wall, n_rss, c_rss, source))
        print(
            f"{ues} UEs: ns-3 {n_wall:.1f} s, ccsim {c_wall:.3f} s -> {n_wall / c_wall:.0f}x",
            file=sys.stderr,
        )
    print(f"# ccsim: {build}, median of {args.repeat}")
    print(
        "| UEs | ns-3 wall s | ns-3 CPU s | ccsim wall s | speed-up (wall) | speed-up (ns-3 CPU / "
        "ccsim wall) | ns-3 peak RSS MB | ccsim peak RSS MB | ns-3 side |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for ues, nw, nc, cw, nr, cr, src in rows:
        print(
            f"| {ues} | {nw:.1f} | {nc:.1f} | {cw:.3f} | **{nw / cw:.0f}×** | {nc / cw:.0f}× | "
            f"{nr:.1f} | {cr:.1f} | {src} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
