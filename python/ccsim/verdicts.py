"""Paper-vs-ccsim comparison rows, the verdict rules and the context targets run studies in.

A target's table has one row per number or claim: the paper's value (ccsim.papers, with its
source), ccsim's mean ± 95 % CI over the seeds, and a verdict computed from them:
  yes         within the stated tolerance (numbers) or the claim holds;
  trend only  the direction is the paper's but not the size;
  no          otherwise.
A target's verdict is "yes" if every row is, "no" if none is yes or trend only, else "trend
only".
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TOLERANCE = 0.05
#: Smallest relative change that counts as a trend (below it: noise, verdict "no").
TREND = 0.01


@dataclass
class Row:
    quantity: str
    paper: str
    ccsim: str
    verdict: str


@dataclass
class Outcome:
    rows: list[Row] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Header of the ccsim column (a sweep reports a median and spread instead).
    ccsim_header: str = "ccsim ± 95 % CI"

    @property
    def verdict(self) -> str:
        v = [r.verdict for r in self.rows]
        if v and all(x == "yes" for x in v):
            return "yes"
        if any(x in ("yes", "trend only") for x in v):
            return "trend only"
        return "no"

    def markdown(self) -> str:
        lines = [f"| quantity | paper | {self.ccsim_header} | verdict |", "|---|---|---|---|"]
        lines += [f"| {r.quantity} | {r.paper} | {r.ccsim} | {r.verdict} |" for r in self.rows]
        return "\n".join(lines)


# ---- verdict rules ---------------------------------------------------------------------------


def within(paper: float, value: float, tol: float = TOLERANCE) -> str:
    """A number: "yes" within ±tol (relative) of the paper's."""
    return "yes" if abs(value - paper) <= tol * abs(paper) else "no"


def effect(paper: float, value: float, tol: float = TOLERANCE) -> str:
    """A relative change (e.g. +0.41 = 41 % higher): "yes" within ±tol (absolute, i.e. 5
    percentage points), "trend only" with the same sign and at least TREND (1 %), else "no"."""
    if abs(value - paper) <= tol:
        return "yes"
    if math.copysign(1, value) == math.copysign(1, paper) and abs(value) >= TREND:
        return "trend only"
    return "no"


def near(paper: float, value: float, trend: bool) -> str:
    """A number: "yes" within ±5 % of the paper's, else "trend only" if `trend`, else "no"."""
    return "yes" if within(paper, value) == "yes" else ("trend only" if trend else "no")


def holds(ok: bool, partly: bool = False) -> str:
    return "yes" if ok else ("trend only" if partly else "no")


def mci(values: Sequence[float], digits: int = 1, pct: bool = False, signed: bool = False) -> str:
    """`mean ± ci` of the values (as a percentage with pct; with a + sign with signed)."""
    from ccsim.aggregate import ci95

    vals = [float(v) for v in values]
    if not vals:
        return "-"
    mean = sum(vals) / len(vals)
    ci = ci95(vals)
    k = 100.0 if pct else 1.0
    sign = "+" if signed and mean > 0 else ""
    unit = " %" if pct else ""
    if math.isnan(ci):
        return f"{sign}{mean * k:.{digits}f}{unit}"
    return f"{sign}{mean * k:.{digits}f} ± {ci * k:.{digits}f}{unit}"


def mean_of(values: Sequence[float]) -> float:
    return float(sum(values) / len(values))


# ---- running studies -------------------------------------------------------------------------


@dataclass
class Context:
    out: Path
    workers: int | None = None
    cluster: Any = None
    #: Single runs shared between targets (e.g. the street run for Figs. 3a and 3b).
    cache: dict[str, Any] = field(default_factory=dict)
    #: Progress bars on stderr: None shows them on a terminal only, True/False forces.
    progress: bool | None = None
    #: What the progress bars name first (`ccsim reproduce` sets "[k/n] <target>").
    label: str = ""

    def store(self, study_file: str) -> Any:
        """Runs the study (only its unfinished runs) and returns its store."""
        from ccsim.store import ResultsStore
        from ccsim.study import load_study
        from ccsim.study_run import bar_label, default_store, run_study

        path = Path("studies") / study_file
        if not path.is_file():
            raise FileNotFoundError(
                f"{path} not found: run `ccsim reproduce` from the ccsim repository root"
            )
        study = load_study(path)
        store = ResultsStore(default_store(study))
        rep = run_study(
            study,
            store,
            workers=self.workers,
            cluster=self.cluster,
            progress=self.progress,
            label=bar_label(self.label, study.name),
        )
        if rep.interrupted:
            raise KeyboardInterrupt
        if rep.failed:
            raise RuntimeError(f"{len(rep.failed)} runs of {study.name} failed: {rep.failed[0]}")
        if rep.done:
            print(f"{study.name}: {rep.done} runs in {rep.wall_s:.1f} s", file=sys.stderr)
        return store
