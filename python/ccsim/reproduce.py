"""`ccsim reproduce`: run a seed paper's figure or table as a study and compare with the paper.

    ccsim reproduce --list              every figure and table of seeds 000-004
    ccsim reproduce seed002-table2      run its study, write the figure and a markdown table
    ccsim reproduce --all               every runnable target; writes docs/reproductions.md

The targets live in ccsim.targets_seed00N, the comparison rows and verdict rules in
ccsim.verdicts. Targets read the study stores under results/studies/, so a rerun only runs
what is missing. Run it from the repository root (the study files are in studies/).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from ccsim import papers
from ccsim.papers import ITEMS, Item
from ccsim.targets_seed000 import (
    seed000_fig1,
    seed000_fig2,
    seed000_fig3a,
    seed000_fig3b,
    seed000_fig4,
    seed000_fig5,
    seed000_fig6,
)
from ccsim.targets_seed001 import seed001_fig4, seed001_fig5, seed001_fig6, seed001_fig7
from ccsim.targets_seed002 import seed002_fig2, seed002_fig3, seed002_table2
from ccsim.targets_seed003 import cell_verdict, seed003_table1, spread
from ccsim.targets_seed004 import TARGETS as SEED004_TARGETS
from ccsim.verdicts import Context, Outcome, Row, effect, holds, within

# Re-exported: the verdict rules (seed 003's per-cell rule over a sweep too) are part of this API.
__all__ = [
    "TARGETS",
    "Context",
    "Outcome",
    "Row",
    "cell_verdict",
    "effect",
    "holds",
    "main",
    "spread",
    "within",
]

#: Relative tolerance for a number to count as reproduced.

# ---- registry --------------------------------------------------------------------------------

TARGETS: dict[str, Callable[[Context], Outcome]] = {
    "seed000-fig1": seed000_fig1,
    "seed000-fig2": seed000_fig2,
    "seed000-fig3a": seed000_fig3a,
    "seed000-fig3b": seed000_fig3b,
    "seed000-fig4": seed000_fig4,
    "seed000-fig5": seed000_fig5,
    "seed000-fig6": seed000_fig6,
    "seed001-fig4": seed001_fig4,
    "seed001-fig5": seed001_fig5,
    "seed001-fig6": seed001_fig6,
    "seed001-fig7": seed001_fig7,
    "seed003-table1": seed003_table1,
    "seed002-table2": seed002_table2,
    "seed002-fig2": seed002_fig2,
    "seed002-fig3": seed002_fig3,
    **SEED004_TARGETS,
}


def not_yet(item: Item) -> str:
    return item.reason or "no reproduce target yet"


def status(item: Item, outcomes: dict[str, Outcome] | None = None) -> str:
    """The verdict of a target that ran, else what the item is and why it does not run."""
    if outcomes and item.id in outcomes:
        return outcomes[item.id].verdict
    if item.id in TARGETS:
        return "runnable"
    if item.reason in papers.NOT_RESULTS:
        return f"not a result ({item.reason})"
    return f"not runnable: {not_yet(item)}"


def list_items() -> str:
    lines = [f"{'target':<16} {'item':<26} status"]
    for it in ITEMS:
        lines.append(f"{it.id:<16} {it.what[:26]:<26} {status(it)}")
        lines.append(f"{'':<16} {'':<26} ({it.title})")
    return "\n".join(lines)


def run_target(name: str, ctx: Context) -> Outcome:
    outcome = TARGETS[name](ctx)
    item = papers.BY_ID[name]
    md = render_target(item, outcome)
    (ctx.out / f"{name}.md").write_text(md + "\n", encoding="utf-8")
    return outcome


def render_target(item: Item, outcome: Outcome, fig_base: Path | None = None) -> str:
    lines = [f"### {item.id}: {item.paper.split(' (')[0]} {item.what} — {item.title}", ""]
    lines.append(f"**Verdict: {outcome.verdict}**")
    lines.append("")
    lines.append(outcome.markdown())
    for n in outcome.notes:
        lines += ["", n]
    for f in outcome.figures:
        rel = f if fig_base is None else Path(f).relative_to(fig_base)
        lines += ["", f"![{item.id}]({rel})"]
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    if args.list:
        print(list_items())
        return 0
    names = [i.id for i in ITEMS if i.id in TARGETS] if args.all else list(args.targets)
    if not names:
        print("error: name a target (ccsim reproduce --list), or --all", file=sys.stderr)
        return 2
    unknown = [n for n in names if n not in papers.BY_ID]
    if unknown:
        runnable = ", ".join(i.id for i in ITEMS if i.id in TARGETS)
        print(
            f"error: unknown target(s) {', '.join(unknown)}; runnable targets: {runnable} "
            "(`ccsim reproduce --list` lists every figure and table)",
            file=sys.stderr,
        )
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    progress = getattr(args, "progress", None)
    ctx = Context(out=out, workers=args.workers, cluster=args.cluster, progress=progress)
    show = sys.stderr.isatty() if progress is None else progress
    outcomes: dict[str, Outcome] = {}
    runnable = [n for n in names if n in TARGETS]
    for n in names:
        if n not in TARGETS:
            print(f"{n}: {status(papers.BY_ID[n])}")
            continue
        # Which target of how many: a study's progress bar below names it too.
        ctx.label = f"[{runnable.index(n) + 1}/{len(runnable)}] {n}"
        if show:
            print(f"reproduce {ctx.label}", file=sys.stderr, flush=True)
        try:
            outcomes[n] = run_target(n, ctx)
        except FileNotFoundError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(render_target(papers.BY_ID[n], outcomes[n]))
        print()
    if args.all:
        from ccsim.reproductions_doc import write_doc

        doc = write_doc(Path(args.doc), outcomes)
        print(f"wrote {doc}")
    return 0
