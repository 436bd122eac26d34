#!/usr/bin/env python3
"""The miss ledger of the seed 002 comparison (issue 15: "each miss is traced to a named
mechanism"): misses.toml names, for every cell of `compare_ccsim.py --preset ns3mmwave --tcp
ns3.33` outside the tolerance, the mechanism behind it, whether that mechanism was traced in
that run (`traced`) or is inferred from the run's signature (`by_signature`), and the report
section with the evidence.

    python validation/ns3-mmwave/compare_ccsim.py --check-ledger   # needs `import ccsim`
    python validation/ns3-mmwave/miss_ledger.py --summary          # the report's table, no ccsim

A cell is one number compare_ccsim.py judges: a per-seed phase (goodput or RTT), the mean over
seeds of a phase, or a 4 MB vs 7 MB row (per seed or the mean). Its key: quantity (`goodput`,
`rtt`, `goodput_change`, `rtt_change`), cc (`bbr`, `siad`), rlc (`4MB`, `7MB`; `4vs7` for the
rows), phase (`los1`, `nlos`, `los2`; `whole` for the rows), seed (a number or "mean"). A phase
in which the reference delivered nothing has no RTT sample: compare_ccsim.py leaves it out of
the counts, and the ledger must still name why (it is not a pass).

The check fails, naming the cell, when a cell that is not within the tolerance has no entry,
when an entry's cell is within it now (a stale entry), when an entry names no cell of the
comparison, a mechanism the ledger does not define, or an anchor validation/report.md lacks.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

import compare_ccsim as cc

REPORT = cc.ROOT / "validation" / "report.md"
QUANTITIES = ("goodput", "rtt", "goodput_change", "rtt_change")
STATUSES = ("traced", "by_signature")
CCS = {"TcpBbr": "bbr", "TcpSiad": "siad"}

Key = tuple[str, str, str, str, object]  # quantity, cc, rlc, phase, seed (int or "mean")


@dataclass(frozen=True)
class Cell:
    """One judged number of the comparison: its key, both sides and the verdict (None: the
    reference has no value, i.e. no RTT sample because nothing was delivered)."""

    key: Key
    ref: float | None
    sim: float
    ok: bool | None

    def describe(self) -> str:
        quantity, c, rlc, phase, seed = self.key
        where = f"seed {seed}" if seed != "mean" else "mean over seeds"
        if quantity.endswith("_change"):
            values = f"ns3-mmwave {self.ref:+.1f} %, ccsim {self.sim:+.1f} %"
        elif self.ref is None:
            values = f"no reference sample, ccsim {self.sim:.1f}"
        else:
            values = f"ns3-mmwave {self.ref:.1f}, ccsim {self.sim:.1f}"
        return f"{quantity} {c} {rlc} {phase} {where} ({values})"


def rlc_name(rlc_bytes: int) -> str:
    return f"{rlc_bytes / 1e6:g}MB"


def verdict(v) -> bool | None:
    """A plain bool (the values are numpy's), None kept."""
    return None if v is None else bool(v)


def cells(r: cc.Comparison) -> list[Cell]:
    """Every cell compare_ccsim.py judges, in its tables' order."""
    out = []
    for key in r.means:
        c, rlc, phase = key
        for quantity, table in (("goodput", r.means), ("rtt", r.rtts)):
            base = (quantity, CCS[c], rlc_name(rlc), phase)
            for seed, pair in zip(r.seeds[key], table[key]):
                out.append(Cell((*base, seed), pair[0], pair[1], verdict(cc.within(*pair))))
            ref, sim = cc.mean_pair(table[key])
            out.append(Cell((*base, "mean"), ref, sim, verdict(cc.within(ref, sim))))
    for c, metric, label, dn, dc, _ in r.effects:
        quantity = "goodput_change" if metric == "goodput_mbps" else "rtt_change"
        seed = "mean" if label.startswith("mean") else int(label.split()[-1])
        ok = verdict(abs(dc - dn) <= cc.POINTS)
        out.append(Cell((quantity, CCS[c], "4vs7", "whole", seed), dn, dc, ok))
    return out


def load(path: Path) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


def entry_key(e: dict) -> Key:
    return (e["quantity"], e["cc"], e["rlc"], e["phase"], e["seed"])


def mechanisms_of(e: dict) -> list[str]:
    m = e["mechanism"]
    return [m] if isinstance(m, str) else list(m)


def report_anchors(report: Path = REPORT) -> set[str]:
    """The explicit anchors (<a id="..."></a>) of validation/report.md."""
    import re

    return set(re.findall(r'<a id="([^"]+)"></a>', report.read_text()))


def check(found: list[Cell], ledger: dict, anchors: set[str]) -> list[str]:
    """The ledger's problems against the comparison's cells; [] when every cell outside the
    tolerance has exactly one entry, every entry's cell is outside it, and every mechanism and
    anchor an entry names exists."""
    problems = []
    mechanisms = ledger.get("mechanism", {})
    for name, m in mechanisms.items():
        anchor = m.get("evidence", "").partition("#")[2]
        if anchor not in anchors:
            problems.append(f"mechanism {name}: evidence anchor #{anchor} not in {REPORT.name}")
    by_key = {c.key: c for c in found}
    seen: set[Key] = set()
    for e in ledger.get("misses", {}).get("cells", []):
        key = entry_key(e)
        if key in seen:
            problems.append(f"duplicate entry {key}")
        seen.add(key)
        for m in mechanisms_of(e):
            if m not in mechanisms:
                problems.append(f"entry {key}: mechanism {m!r} is not defined")
        if e.get("status") not in STATUSES:
            problems.append(f"entry {key}: status {e.get('status')!r} not in {STATUSES}")
        anchor = e.get("evidence", "").partition("#")[2]
        if anchor and anchor not in anchors:
            problems.append(f"entry {key}: evidence anchor #{anchor} not in {REPORT.name}")
        cell = by_key.get(key)
        if cell is None:
            problems.append(f"entry {key} names no cell of the comparison")
        elif cell.ok:
            problems.append(f"stale entry: {cell.describe()} is within the tolerance now")
    for c in found:
        if c.ok is not True and c.key not in seen:
            kind = "miss" if c.ok is False else "cell without a reference value"
            problems.append(f"{kind} without a ledger entry: {c.describe()}")
    return problems


def run_comparison(ledger: dict, log=lambda *_: None) -> list[Cell]:
    """The ledger's comparison (its preset and TCP rules, every golden seed, SINR matched)."""
    comp = ledger["comparison"]
    r = cc.compare(
        cc.PRESETS[comp["preset"]], cc.golden_docs(), [], comp["tcp"], match_sinr=True, log=log
    )
    return cells(r)


def main_check(path: Path) -> int:
    ledger = load(path)
    found = run_comparison(ledger)
    problems = check(found, ledger, report_anchors())
    outside = [c for c in found if c.ok is not True]
    print(
        f"{path.name}: {len(found)} cells, {sum(c.ok is False for c in found)} misses and "
        f"{sum(c.ok is None for c in found)} without a reference value, "
        f"{len(ledger.get('misses', {}).get('cells', []))} ledger entries"
    )
    for p in problems:
        print(f"LEDGER: {p}")
    if not problems:
        print(f"ok: every one of the {len(outside)} cells outside the tolerance has its mechanism")
    return 1 if problems else 0


def summary_rows(ledger: dict) -> list[tuple[str, str, int, int, int]]:
    """Per mechanism: key, short name, misses it explains (an entry naming two mechanisms counts for
    both), of which traced, by signature; most misses first."""
    rows = []
    for name, m in ledger["mechanism"].items():
        es = [e for e in ledger["misses"]["cells"] if name in mechanisms_of(e)]
        traced = sum(e["status"] == "traced" for e in es)
        rows.append((name, m["name"], len(es), traced, len(es) - traced))
    return sorted(rows, key=lambda r: (-r[2], r[0]))


def summary_markdown(ledger: dict) -> str:
    out = [
        "| mechanism | misses it explains | traced | by signature | evidence |",
        "|---|---|---|---|---|",
    ]
    for key, name, n, traced, sig in summary_rows(ledger):
        anchor = ledger["mechanism"][key]["evidence"].partition("#")[2]
        out.append(f"| {name} (`{key}`) | {n} | {traced} | {sig} | [{anchor}](#{anchor}) |")
    entries = ledger["misses"]["cells"]
    multi = sum(len(mechanisms_of(e)) > 1 for e in entries)
    traced = sum(e["status"] == "traced" for e in entries)
    out.append(
        f"\n{len(entries)} ledger entries, {traced} traced and {len(entries) - traced} by "
        f"signature; {multi} name two or more mechanisms and count once under each."
    )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ledger", type=Path, default=cc.LEDGER)
    ap.add_argument("--summary", action="store_true", help="print the report's summary table")
    a = ap.parse_args()
    if a.summary:
        print(summary_markdown(load(a.ledger)))
    else:
        sys.exit(main_check(a.ledger))


if __name__ == "__main__":
    main()
