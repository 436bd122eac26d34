"""Identity check for speed work: every scenario's summary JSON from one `ccsim-run` binary,
compared with another's (a speed change must leave every output bit-identical).

    python benches/identity.py record target/release/ccsim-run /tmp/before   # old binary
    python benches/identity.py check  target/release/ccsim-run /tmp/before   # new binary

Scenarios: every ns-3 golden case rebuilt by `validation/ns3_scenario.py`, and every
`experiments/*.toml` that `ccsim-run` accepts (the ones it rejects are listed and skipped).
Wall-clock and memory keys are removed before comparing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "validation"))
from ns3_scenario import scenario_from_golden  # noqa: E402

# Keys that measure the machine, not the simulation.
VOLATILE = {"wall_s", "peak_rss_mb", "events_per_s", "sim_speed", "cpu_s"}


def scrub(x):
    """The summary without its machine-dependent keys, at every depth."""
    if isinstance(x, dict):
        return {k: scrub(v) for k, v in x.items() if k not in VOLATILE}
    if isinstance(x, list):
        return [scrub(v) for v in x]
    return x


def scenarios(tmp: Path) -> list[tuple[str, Path]]:
    out = []
    for g in sorted((ROOT / "validation" / "golden" / "ns3").glob("*.json")):
        golden = json.loads(g.read_text())
        if "scenario" not in golden:
            continue
        p = tmp / f"golden_{g.stem}.json"
        p.write_text(json.dumps(scenario_from_golden(golden)))
        out.append((f"golden/{g.stem}", p))
    for t in sorted((ROOT / "experiments").glob("*.toml")):
        out.append((f"experiments/{t.stem}", t))
    return out


def run(binary: Path, scen: Path) -> dict | None:
    r = subprocess.run([str(binary), str(scen)], capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        return None
    return scrub(json.loads(r.stdout))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("mode", choices=["record", "check"])
    ap.add_argument("binary", type=Path)
    ap.add_argument("dir", type=Path, help="where the reference summaries are (or go)")
    args = ap.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    differ, skipped, same = [], [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, scen in scenarios(Path(tmp)):
            ref = args.dir / (name.replace("/", "__") + ".json")
            got = run(args.binary.resolve(), scen)
            if args.mode == "record":
                if got is None:
                    skipped.append(name)
                    continue
                ref.write_text(json.dumps(got, sort_keys=True, indent=1))
                same += 1
                continue
            if not ref.exists():
                skipped.append(name)
                continue
            if got != json.loads(ref.read_text()):
                differ.append(name)
            else:
                same += 1
    verb = "recorded" if args.mode == "record" else "identical"
    print(f"{same} {verb}, {len(differ)} differ, {len(skipped)} skipped")
    for n in differ:
        print(f"  DIFFERS: {n}")
    for n in skipped:
        print(f"  skipped: {n}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
