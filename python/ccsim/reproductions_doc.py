"""Writes docs/reproductions.md (`ccsim reproduce --all`): every figure and table of the
seed papers with its verdict, the runnable ones with their paper-vs-ccsim tables."""

from __future__ import annotations

import dataclasses
import shutil
from datetime import date
from pathlib import Path
from typing import Any

from ccsim import papers
from ccsim.reproduce import Outcome, render_target, status

HEADER = """# Reproductions of the seed papers

Written by `ccsim reproduce --all` ({today}, ccsim {version}); do not edit by hand. Every
figure and table of seeds 000-004 is listed with a verdict:

- **yes**: every number within ±5 % of the paper's and every claim holds;
- **trend only**: some rows reproduce, or the direction is right but not the size;
- **no**: no row reproduces;
- **not runnable** / **not a result**: with the reason.

Each target runs a study (`studies/*.toml`; results in `results/studies/<name>/`, rerunnable
and resumable) and can be rerun alone: `ccsim reproduce <target>`. The papers' numbers are
typed once, with their source, in `python/ccsim/papers.py`; the verdict rules are in
`python/ccsim/verdicts.py` and each paper's `python/ccsim/targets_seed00N.py`. The figures
are in `img/reproduce/`, each under its target's table.

## Summary

| target | paper | item | verdict |
|---|---|---|---|
"""


def write_doc(path: Path, outcomes: dict[str, Outcome]) -> Path:
    import ccsim

    path.parent.mkdir(parents=True, exist_ok=True)
    img = path.parent / "img" / "reproduce"
    img.mkdir(parents=True, exist_ok=True)
    text = HEADER.format(today=date.today().isoformat(), version=ccsim.__version__)
    for it in papers.ITEMS:
        text += f"| {it.id} | {it.paper.split(' (')[0]} | {it.what} — {it.title} | {status(it, outcomes)} |\n"
    current = None
    for it in papers.ITEMS:
        if it.paper != current:
            current = it.paper
            text += f"\n## {it.paper}\n"
            if it.paper in papers.PAPER_NOTES:
                text += f"\n{papers.PAPER_NOTES[it.paper]}\n"
        if it.id in outcomes:
            o = outcomes[it.id]
            # A copy with its own figure list; replace() keeps every other field (the ccsim
            # column's header too: seed 003 reports a median and spread, not a mean ± CI).
            copied: Any = dataclasses.replace(o, figures=[])
            for f in o.figures:
                dest = img / Path(f).name
                shutil.copyfile(f, dest)
                copied.figures.append(dest)
            text += "\n" + render_target(it, copied, fig_base=path.parent) + "\n"
        else:
            text += f"\n### {it.id}: {it.what} — {it.title}\n\n**{status(it, outcomes)}**\n"
    path.write_text(text, encoding="utf-8")
    return path
