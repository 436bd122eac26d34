#!/usr/bin/env python3
"""Seed 004's figures and the paper-vs-ccsim numbers, from the study files.

Runs every point of studies/seed004_{fig2,fig3,fig6_7,modena}.toml (or those given), caching
each run's summary under results/seed004/<run key>.json (ccsim.targets_seed004, shared with
`ccsim reproduce seed004-*`) so a second call only redraws, then writes docs/img/seed004_*.png
(candlesticks: box p20-p80, whiskers min/max, mean as a line) and prints the per-group
numbers docs/mesh.md quotes.

    python experiments/seed004_figures.py [--workers 2] [--only fig2 modena] [--seeds 1 2]
    python experiments/seed004_figures.py --cached --doc   # no new runs; rewrite the seed 004
                                                           # sections of docs/reproductions.md
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from ccsim import targets_seed004 as t4

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"


def report_fig2(rs: list[dict]) -> None:
    print("## Fig. 2 (grid, CUBIC): finish time s / RTT ms, mean [p20-p80] max; JFI; unfinished")
    panels = []
    for ues in sorted({r["labels"]["ues"] for r in rs}):
        fct, rtt = {}, {}
        for r, lab in t4.ROUTING_LABEL.items():
            fct[lab] = t4.pooled(rs, "fct_s", routing=r, ues=ues)
            rtt[lab] = t4.pooled(rs, "rtt_mean_ms", routing=r, ues=ues)
            print(
                f"{ues:>3} UEs {lab:<11} FT {t4.stick(fct[lab]):<28} RTT "
                f"{t4.stick(rtt[lab]):<28} JFI {t4.jfi(rs, routing=r, ues=ues):.2f} "
                f"unfinished {t4.unfinished(rs, routing=r, ues=ues)} "
                f"seeds {t4.seeds_of(rs, routing=r, ues=ues)}"
            )
        panels.append((f"{ues} UEs", "finish time (s)", fct))
        if ues == 100:
            panels.append(("100 UEs", "mean RTT (ms)", rtt))
    t4.panel_figure(panels, IMG / "seed004_fig2.png")


def report_fig3(rs: list[dict]) -> None:
    print("## Fig. 3 (grid, 100 UEs): per CCA and routing")
    fct, rtt = {}, {}
    for cca in t4.CCAS:
        for r, lab in t4.ROUTING_LABEL.items():
            key = f"{cca} {lab}"
            fct[key] = t4.pooled(rs, "fct_s", cca=cca, routing=r)
            rtt[key] = t4.pooled(rs, "rtt_mean_ms", cca=cca, routing=r)
            if not fct[key]:
                continue
            print(
                f"{cca:<10} {lab:<11} FT {t4.stick(fct[key]):<28} RTT {t4.stick(rtt[key]):<28} "
                f"JFI {t4.jfi(rs, cca=cca, routing=r):.2f} seeds {t4.seeds_of(rs, cca=cca, routing=r)}"
            )
    # Clustered per TCP, one colour per routing: 7 tick labels rather than 21.
    title = "Seed 004 Fig. 3 in ccsim: 100 UEs, one 10 MB download each, by TCP and routing"
    for values, ylabel, name in (
        (fct, "finish time (s)", "seed004_fig3_fct.png"),
        (rtt, "mean RTT (ms)", "seed004_fig3_rtt.png"),
    ):
        clusters = {
            cca: {lab: values[f"{cca} {lab}"] for lab in t4.ROUTING_LABEL.values()}
            for cca in t4.CCAS
            if fct[f"{cca} {t4.ROUTING_LABEL['olsr']}"]
        }
        t4.clustered_figure(clusters, ylabel, IMG / name, title)


def report_fig6_7(rs: list[dict]) -> None:
    print("## Figs. 6-7 (grid, 100 UEs, UDP load): finish time; UDP delivered %")
    for cca, fig in (("vegas", 6), ("highspeed", 7)):
        groups = {}
        for udp in sorted({r["labels"]["udp_mbps"] for r in rs}):
            for r, lab in t4.ROUTING_LABEL.items():
                sel = {"cca": cca, "udp_mbps": udp, "routing": r}
                pct = [q["mesh"]["udp"]["delivered_pct"] for q in rs if q["labels"] == sel]
                if not pct:
                    continue
                groups[f"{udp} {lab}"] = t4.pooled(rs, "fct_s", **sel)
                print(
                    f"{cca:<9} {udp:>5} Mb/s {lab:<11} FT {t4.stick(groups[f'{udp} {lab}']):<28} "
                    f"UDP delivered {t4.mean(pct):.1f} % seeds {t4.seeds_of(rs, **sel)}"
                )
        if groups:
            t4.panel_figure(
                [(f"Fig. {fig}: {cca}", "finish time (s)", groups)], IMG / f"seed004_fig{fig}.png"
            )


def report_modena(rs: list[dict]) -> None:
    print("## Figs. 9-14 (Modena, 75 CUBIC): finish time, RTT, JFI")
    panels = []
    for topo in ("modena_tree", "modena_redundant"):
        fct, rtt = {}, {}
        for r, lab in t4.ROUTING_LABEL.items():
            fct[lab] = t4.pooled(rs, "fct_s", topology=topo, routing=r)
            rtt[lab] = t4.pooled(rs, "rtt_mean_ms", topology=topo, routing=r)
            print(
                f"{topo:<17} {lab:<11} FT {t4.stick(fct[lab]):<28} RTT {t4.stick(rtt[lab]):<28} "
                f"JFI {t4.jfi(rs, topology=topo, routing=r):.2f} "
                f"seeds {t4.seeds_of(rs, topology=topo, routing=r)}"
            )
        panels += [(topo, "finish time (s)", fct), (topo, "mean RTT (ms)", rtt)]
    t4.panel_figure(panels, IMG / "seed004_modena.png")


def report_lte(rs: list[dict]) -> None:
    print("## Grid, 100 CUBIC UEs, LTE radio cells (mesh.access = lte): per preset and routing")
    panels = []
    for preset in ("paper", "lena"):
        fct = {}
        for r, lab in t4.ROUTING_LABEL.items():
            sel = {"preset": preset, "routing": r}
            if not t4.seeds_of(rs, **sel):
                continue
            fct[lab] = t4.pooled(rs, "fct_s", **sel)
            print(
                f"{preset:<6} {lab:<11} FT {t4.stick(fct[lab]):<28} RTT "
                f"{t4.stick(t4.pooled(rs, 'rtt_mean_ms', **sel)):<28} JFI "
                f"{t4.jfi(rs, **sel):.2f} unfinished {t4.unfinished(rs, **sel)} "
                f"seeds {t4.seeds_of(rs, **sel)}"
            )
        if fct:
            panels.append((f"LTE cells, {preset}", "finish time (s)", fct))
    if panels:
        t4.panel_figure(panels, IMG / "seed004_lte.png")


def markdown_tables(root: Path = ROOT) -> str:
    """The per-figure tables docs/mesh.md quotes (cached runs only)."""

    def rows(name: str, keys: list[tuple[str, dict]]) -> list[str]:
        rs = t4.runs(name, 2, root=root, cached_only=True)
        out = []
        for label, sel in keys:
            for r, lab in t4.ROUTING_LABEL.items():
                q = {**sel, "routing": r}
                if not t4.seeds_of(rs, **q):
                    continue
                udp = [
                    x["mesh"]["udp"]["delivered_pct"]
                    for x in rs
                    if t4._match(x, q) and "udp" in x["mesh"]
                ]
                extra = f" | {t4.mean(udp):.1f} %" if udp else ""
                out.append(
                    f"| {label} | {lab} | {t4.stick(t4.pooled(rs, 'fct_s', **q))} | "
                    f"{t4.stick(t4.pooled(rs, 'rtt_mean_ms', **q))} | {t4.jfi(rs, **q):.2f} | "
                    f"{','.join(map(str, t4.seeds_of(rs, **q)))}{extra} |"
                )
        return out

    head = "| {} | routing | finish time s | RTT ms | JFI | seeds |{}\n|---|---|---|---|---|---|{}"
    parts = [
        "Grid, CUBIC (Fig. 2):\n\n"
        + head.format("UEs", "", "")
        + "\n"
        + "\n".join(rows("fig2", [(str(u), {"ues": u}) for u in (25, 50, 75, 100)])),
        "Grid, 100 UEs, per TCP (Fig. 3):\n\n"
        + head.format("TCP", "", "")
        + "\n"
        + "\n".join(rows("fig3", [(c, {"cca": c}) for c in t4.CCAS])),
        "Grid, 100 UEs, UDP background load (Figs. 6-7; last column: UDP delivered/injected):\n\n"
        + head.format("TCP, UDP load", " UDP |", "---|")
        + "\n"
        + "\n".join(
            rows(
                "fig6_7",
                [
                    (f"{c} {u} Mb/s", {"cca": c, "udp_mbps": u})
                    for c in ("vegas", "highspeed")
                    for u in (60, 300, 600, 900, 1200)
                ],
            )
        ),
        "Modena, 75 CUBIC downloads (Figs. 9-14):\n\n"
        + head.format("topology", "", "")
        + "\n"
        + "\n".join(
            rows("modena", [(t, {"topology": t}) for t in ("modena_tree", "modena_redundant")])
        ),
        'Grid, 100 CUBIC UEs, LTE radio cells (`mesh.access = "lte"`), per preset:\n\n'
        + head.format("cells", "", "")
        + "\n"
        + "\n".join(rows("lte", [(p, {"preset": p}) for p in ("paper", "lena")])),
    ]
    return "\n\n".join(parts)


def _old_blocks(text: str) -> dict[str, str]:
    """The `### seed004-...` blocks of the current seed 004 section, by target id."""
    blocks = {}
    for m in re.finditer(r"^### (seed004-[\w-]+):.*?(?=^### |^## |\Z)", text, flags=re.M | re.S):
        blocks[m.group(1)] = m.group(0).rstrip("\n")
    return blocks


def write_doc_sections(cached: bool, only: list[str] | None = None) -> Path:
    """Rewrites the seed 004 rows and section of docs/reproductions.md (the rest is kept).

    With `only` (target ids), the other targets keep their current row and block."""
    from ccsim import papers
    from ccsim.reproduce import render_target, status
    from ccsim.verdicts import Context, Outcome

    doc = ROOT / "docs" / "reproductions.md"
    img = ROOT / "docs" / "img" / "reproduce"
    ctx = Context(out=img, workers=2)
    if cached:
        real = t4.runs
        t4.runs = lambda name, workers=None, **kw: real(
            name, workers, root=ROOT, cached_only=True, **kw
        )
    outcomes: dict[str, Outcome] = {}
    for it in papers.ITEMS:
        if it.id in t4.TARGETS and (only is None or it.id in only):
            try:
                outcomes[it.id] = t4.TARGETS[it.id](ctx)
            except (LookupError, ValueError, ZeroDivisionError) as e:
                print(f"{it.id}: not enough cached runs ({e!r}); left as runnable")
    items = [it for it in papers.ITEMS if it.id.startswith("seed004-")]
    text = doc.read_text(encoding="utf-8")
    old = _old_blocks(text)
    for it in items:
        if only is not None and it.id not in only:
            continue
        row = f"| {it.id} | {it.paper.split(' (')[0]} | {it.what} — {it.title} | {status(it, outcomes)} |"
        text = re.sub(rf"^\| {re.escape(it.id)} \|.*$", lambda _m, row=row: row, text, flags=re.M)
    section = f"## {items[0].paper}\n"
    for it in items:
        if only is not None and it.id not in only and it.id in old:
            section += "\n" + old[it.id] + "\n"
        elif it.id in outcomes:
            section += "\n" + render_target(it, outcomes[it.id], fig_base=doc.parent) + "\n"
        else:
            section += f"\n### {it.id}: {it.what} — {it.title}\n\n**{status(it, outcomes)}**\n"
    start = text.index(f"## {items[0].paper}")
    end = text.find("\n## ", start + 1)
    text = text[:start] + section + (text[end:] if end >= 0 else "")
    doc.write_text(text, encoding="utf-8")
    return doc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", nargs="*", choices=list(t4.STUDIES), default=list(t4.STUDIES))
    ap.add_argument("--seeds", nargs="*", type=int, help="only these of the studies' seeds")
    ap.add_argument("--cached", action="store_true", help="use only runs already cached")
    ap.add_argument("--doc", action="store_true", help="rewrite docs/reproductions.md's seed 004")
    ap.add_argument(
        "--targets", nargs="*", help="with --doc: only these targets (e.g. seed004-fig2)"
    )
    ap.add_argument("--markdown", action="store_true", help="print docs/mesh.md's tables (cached)")
    args = ap.parse_args()
    report = {
        "fig2": report_fig2,
        "fig3": report_fig3,
        "fig6_7": report_fig6_7,
        "modena": report_modena,
        "lte": report_lte,
    }
    if args.markdown:
        print(markdown_tables())
        return
    for name in args.only:
        rs = t4.runs(name, args.workers, args.seeds, root=ROOT, cached_only=args.cached)
        if rs:
            report[name](rs)
    if args.doc:
        print(f"wrote {write_doc_sections(args.cached, args.targets)}")


if __name__ == "__main__":
    main()
