"""`ccsim reproduce`: the catalogue of the papers' figures and tables, the verdict rules and
the figure types (on synthetic data; the targets' own studies are too long for the suite)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ccsim import figures, papers
from ccsim.reproduce import (
    TARGETS,
    Outcome,
    Row,
    cell_verdict,
    effect,
    holds,
    spread,
    within,
)
from conftest import SHARED, ccsim_cli


def test_every_figure_and_table_of_the_seed_papers_is_listed() -> None:
    seeds = sorted(SHARED.glob("seeds/*.txt"))
    if not seeds:
        pytest.skip("shared/seeds not available")
    for path in seeds:
        n = path.name[:3]
        text = path.read_text(encoding="utf-8")
        figs = {int(m) for m in re.findall(r"^\s*(?:\*\*)?Fig(?:ure|\.)\s*(\d+)", text, re.M)}
        listed = {i.what for i in papers.ITEMS if i.id.startswith(f"seed{n}-")}
        for f in figs:
            assert any(re.search(rf"\b(Fig\.|Figure) {f}\b", w) for w in listed), (n, f)
    # Every runnable item has a target, every target an item.
    assert {i.id for i in papers.ITEMS if i.runnable} == set(TARGETS)


def test_paper_numbers_are_typed_once() -> None:
    # Table 2 of seed 002 has 8 cells of (throughput, RTT); Table 1 of seed 003 has 30.
    assert len(papers.SEED002_TABLE2) == 8 and len(papers.SEED003_TABLE1) == 30
    assert papers.SEED002_TABLE2[(4, "bbr")] == (819.84, 28.69)
    assert papers.SEED003_TABLE1[("wave", 0.5, "L2->L1")] == 327


def test_verdict_rules() -> None:
    assert within(100.0, 104.9) == "yes" and within(100.0, 94.0) == "no"
    assert effect(0.41, 0.38) == "yes" and effect(0.41, 0.08) == "trend only"
    assert effect(-0.37, 0.05) == "no" and effect(0.41, 0.005) == "no"
    assert holds(True) == "yes" and holds(False, True) == "trend only" and holds(False) == "no"
    o = Outcome([Row("a", "1", "1", "yes"), Row("b", "1", "2", "no")])
    assert o.verdict == "trend only"
    assert Outcome([Row("a", "1", "1", "yes")]).verdict == "yes"
    assert Outcome([Row("a", "1", "3", "no")]).verdict == "no"
    assert "| a | 1 | 1 | yes |" in Outcome([Row("a", "1", "1", "yes")]).markdown()


def test_seed003_spread_and_cell_verdict() -> None:
    # Recovery times over handover instants; None = never recovered (counts as +inf).
    med, lo, hi, never = spread([3.0, 1.0, None, 2.0])
    assert (med, lo, hi, never) == (2.5, 1.0, math.inf, 1)
    assert spread([4.0, 2.0, 3.0])[:3] == (3.0, 2.0, 4.0)
    # The paper's value inside the spread, or within 5 % of the median: yes.
    assert cell_verdict(3.2, 5.0, 2.0, 8.0) == "yes"
    assert cell_verdict(100.0, 103.0, 103.0, 110.0) == "yes"
    # Median within a factor 2: trend only; otherwise, or never: no.
    assert cell_verdict(10.0, 15.0, 12.0, 18.0) == "trend only"
    assert cell_verdict(10.0, 25.0, 22.0, 30.0) == "no"
    assert cell_verdict(10.0, math.inf, math.inf, math.inf) == "no"


def test_seed003_table1_judges_the_papers_sack_off_mode(tmp_path: Path) -> None:
    """The target on a synthetic store: the verdict of each cell comes from the SACK-off runs
    (the paper's ns-3.23 had no SACK); the SACK-on result is shown beside it."""
    rows = []
    for (cca, ht, d), paper in papers.SEED003_TABLE1.items():
        for sack, value in (("off", paper), ("on", 10 * paper)):
            for k in range(10):
                rows.append((cca, ht, d, sack, 20 + 0.337 * k, value + 0.01 * k, 100))
    runs = pd.DataFrame(
        rows,
        columns=["cca", "ht_s", "direction", "sack", "at_s", "vho_recovery_s", "retx_segments"],
    )

    class Store:
        def query(self, _sql: str) -> pd.DataFrame:
            return runs

    class Ctx:
        out = tmp_path

        def store(self, _name: str) -> Store:
            return Store()

    out = TARGETS["seed003-table1"](Ctx())
    cells = [r for r in out.rows if " HT=" in r.quantity]
    assert len(cells) == 30
    assert all(r.verdict == "yes" for r in cells)
    assert all("on: " in r.ccsim and r.ccsim.endswith("(no)") for r in cells)
    assert "[100]" in cells[0].ccsim and "SACK off" in out.notes[0]


def test_figure_types_write_images(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    df = pd.DataFrame(
        {
            "protocol": np.repeat(["A", "B"], 10),
            "scenario": np.tile(np.repeat(["s1", "s2"], 5), 2),
            "rtt_mean_ms": rng.normal(50, 5, 20),
            "goodput_mbps": rng.normal(500, 50, 20),
        }
    )
    paths = [
        figures.throughput_rtt_scatter(df, "protocol", "scenario", tmp_path / "scatter.png"),
        figures.candlesticks(
            df, "scenario", "goodput_mbps", tmp_path / "candles.png", hue="protocol"
        ),
    ]
    agg = df.groupby(["scenario", "protocol"], as_index=False)["goodput_mbps"].agg(["mean", "std"])
    paths.append(
        figures.grouped_bars(agg, "scenario", "protocol", "mean", "std", tmp_path / "bars.png")
    )
    curve = pd.DataFrame(
        {"x": [1, 5, 10] * 2, "m": [1, 2, 3, 2, 3, 4], "ci": [0.1] * 6, "h": list("aaabbb")}
    )
    paths.append(figures.curves_with_ci(curve, "x", "m", "ci", "h", tmp_path / "curves.png"))
    series = pd.DataFrame(
        {
            "t_s": np.tile(np.arange(0, 10, 0.1), 2),
            "y": rng.random(200),
            "run": np.repeat(["a", "b"], 100),
        }
    )
    paths.append(
        figures.overlaid_series(
            series, "run", [("y", "y")], tmp_path / "series.png", shade=[(2, 4)]
        )
    )
    for p in paths:
        assert p.stat().st_size > 5000 and p.read_bytes()[:4] == b"\x89PNG"


def test_doc_keeps_a_targets_table_header_figures_and_paper_notes(tmp_path: Path) -> None:
    from ccsim.reproductions_doc import write_doc

    fig = tmp_path / "out" / "seed003_x.png"
    fig.parent.mkdir()
    fig.write_bytes(b"\x89PNG fake")
    sweep = Outcome([Row("q", "p", "3.2 (1.0-9.0)", "yes")], [fig], ["a note"], "ccsim median")
    doc = write_doc(tmp_path / "docs" / "reproductions.md", {"seed003-table1": sweep})
    text = doc.read_text()
    # The target's own ccsim column header, not the default "± 95 % CI" one.
    assert "| quantity | paper | ccsim median | verdict |" in text
    assert "ccsim ± 95 % CI" not in text
    assert "![seed003-table1](img/reproduce/seed003_x.png)" in text
    assert (doc.parent / "img" / "reproduce" / "seed003_x.png").read_bytes() == fig.read_bytes()
    # Each paper's standing note sits under its heading; a target that did not run says so.
    for paper, note in papers.PAPER_NOTES.items():
        assert f"## {paper}\n\n{note}\n" in text
    assert "### seed002-table2: " in text and "**runnable**" in text


def test_two_sigma_ellipse_of_an_axis_aligned_cloud() -> None:
    x = np.array([-1.0, 1.0, -1.0, 1.0])
    y = np.array([-2.0, -2.0, 2.0, 2.0])
    w, h, angle = figures.sigma_ellipse(x, y)
    # ML standard deviations 1 and 2: the 2σ ellipse is 4 wide along x and 8 along y.
    assert sorted([w, h]) == pytest.approx([4.0, 8.0])
    assert math.isclose(abs(angle) % 180, 90.0) == (w == pytest.approx(8.0))


def test_cli_reproduce_list_and_bad_target() -> None:
    r = ccsim_cli("reproduce", "--list")
    assert r.returncode == 0
    for it in papers.ITEMS:
        assert it.id in r.stdout
    assert "seed004-fig4" in r.stdout and "not runnable" in r.stdout
    r = ccsim_cli("reproduce", "seed009-fig1")
    assert r.returncode == 2 and "unknown target" in r.stderr and "seed009-fig1" in r.stderr
    # The error names what can be run instead.
    assert "seed002-table2" in r.stderr and "seed004-fig14" in r.stderr


def test_map_legend_names_obstacle_kinds_and_clusters_label_once(tmp_path: Path) -> None:
    import matplotlib.pyplot as plt

    from ccsim.plots import draw_clustered_candlesticks

    # Seed 000 Fig. 3(a): "lamppost 1".."lamppost 4" are one kind, the truck another.
    assert figures.obstacle_kind({"name": "lamppost 3"}) == "lamppost"
    assert figures.obstacle_kind({"name": "truck"}) == "truck"
    assert figures.obstacle_kind({}) == "obstacle"
    # Seed 004 Fig. 3: 7 TCPs x 3 routings -> 7 tick labels and a 3-entry legend.
    clusters = {
        c: {r: [1.0, 2.0, 3.0] for r in ("OLSR", "per-packet", "per-flow")} for c in "abcdefg"
    }
    fig, ax = plt.subplots()
    draw_clustered_candlesticks(ax, clusters, "finish time (s)")
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcdefg")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["OLSR", "per-packet", "per-flow"]
    assert len(ax.patches) == 21  # one box per (TCP, routing)
    plt.close(fig)
