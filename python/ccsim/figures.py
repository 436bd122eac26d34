"""The seed papers' figure types, drawn from a study's results (DataFrames from the store).

- `throughput_rtt_scatter`: throughput–RTT plane, 2σ ellipses and medians (seed 000 Fig. 2);
- `candlesticks`: boxes p20–p80, whiskers min/max, a mean line (seed 004). The mesh work is
  adding its own candlestick plot to ccsim.plots; until it lands this one stands in;
- `overlaid_series`: time series of several runs on shared axes (seed 000 Fig. 3b, seed 002
  Figs. 2–3);
- `grouped_bars`: per-AP / per-UE bars with error bars (seed 000 Figs. 5–6);
- `curves_with_ci`: a metric against a parameter with 95 % CIs (seed 001 per speed);
- `geometry_map`: buildings, sites, the UE path and its handovers (seed 000 Figs. 3a, 4).

Every function writes a PNG and returns its path.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.patches import Ellipse, Polygon  # noqa: E402

MARKERS = "osD^v<>*Xph"


def _save(fig: Any, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def sigma_ellipse(x: np.ndarray, y: np.ndarray, nsig: float = 2.0) -> tuple[float, float, float]:
    """(width, height, angle in degrees) of the `nsig`-σ contour of the maximum-likelihood 2-D
    Gaussian of the points (covariance with 1/n)."""
    cov = np.cov(np.vstack([x, y]), ddof=0)
    vals, vecs = np.linalg.eigh(cov)
    vals = np.clip(vals, 0.0, None)
    angle = float(np.degrees(np.arctan2(vecs[1, 1], vecs[0, 1])))
    return 2 * nsig * float(np.sqrt(vals[1])), 2 * nsig * float(np.sqrt(vals[0])), angle


def throughput_rtt_scatter(
    df: pd.DataFrame,
    protocol: str,
    scenario: str,
    path: Path,
    x: str = "rtt_mean_ms",
    y: str = "goodput_mbps",
    title: str = "",
) -> Path:
    """One colour per protocol, one marker per scenario: the runs (dots), the 2σ ellipse of
    each (protocol, scenario) and each protocol's median over all its runs (large marker).
    The RTT axis is reversed (lower RTT to the right), as in seed 000 Fig. 2."""
    fig, ax = plt.subplots(figsize=(8, 5.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    scenarios = list(dict.fromkeys(df[scenario]))
    for i, (proto, g) in enumerate(df.groupby(protocol, sort=False)):
        c = colors[i % len(colors)]
        for j, sc in enumerate(scenarios):
            s = g[g[scenario] == sc]
            if s.empty:
                continue
            ax.scatter(s[x], s[y], color=c, marker=MARKERS[j % len(MARKERS)], s=14, alpha=0.5)
            if len(s) >= 2:
                w, h, a = sigma_ellipse(s[x].to_numpy(float), s[y].to_numpy(float))
                ax.add_patch(
                    Ellipse((s[x].mean(), s[y].mean()), w, h, angle=a, fill=False, color=c, lw=1.2)
                )
        ax.scatter(
            g[x].median(), g[y].median(), color=c, marker="*", s=220, edgecolor="k", label=proto
        )
    for j, sc in enumerate(scenarios):
        ax.scatter([], [], color="grey", marker=MARKERS[j % len(MARKERS)], label=str(sc))
    ax.invert_xaxis()
    ax.set_xlabel("mean RTT (ms), lower to the right")
    ax.set_ylabel("throughput (Mb/s)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    ax.set_title(title or "throughput-RTT: runs, 2σ ellipses per scenario, median per protocol")
    return _save(fig, path)


def candlesticks(
    df: pd.DataFrame, group: str, value: str, path: Path, hue: str | None = None, title: str = ""
) -> Path:
    """Boxes from the 20th to the 80th percentile, whiskers at min and max, a line at the mean."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    groups = list(dict.fromkeys(df[group]))
    hues = list(dict.fromkeys(df[hue])) if hue else [None]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    width = 0.8 / len(hues)
    for k, h in enumerate(hues):
        for i, gv in enumerate(groups):
            sel = df[df[group] == gv] if h is None else df[(df[group] == gv) & (df[hue] == h)]
            v = sel[value].dropna().to_numpy(float)
            if not len(v):
                continue
            xc = i - 0.4 + width * (k + 0.5)
            p20, p80 = np.percentile(v, [20, 80])
            c = colors[k % len(colors)]
            ax.vlines(xc, v.min(), v.max(), color=c, lw=1)
            ax.add_patch(
                plt.Rectangle(
                    (xc - width * 0.35, p20), width * 0.7, p80 - p20, fc=c, alpha=0.4, ec=c
                )
            )
            ax.hlines(v.mean(), xc - width * 0.35, xc + width * 0.35, color="k", lw=1.5)
        if h is not None:
            ax.bar([0], [0], color=colors[k % len(colors)], alpha=0.4, label=str(h))
    ax.set_xticks(range(len(groups)), [str(g) for g in groups])
    ax.set_xlabel(group)
    ax.set_ylabel(value)
    ax.grid(alpha=0.3, axis="y")
    if hue:
        ax.legend(fontsize=8)
    ax.set_title(title or "boxes p20-p80, whiskers min-max, line at the mean")
    return _save(fig, path)


def overlaid_series(
    series: pd.DataFrame,
    label: str,
    panels: Sequence[tuple[str, str]],
    path: Path,
    x: str = "t_s",
    shade: Sequence[tuple[float, float]] = (),
    smooth: int = 1,
    title: str = "",
    facet: str | None = None,
    row_height: float = 2.6,
) -> Path:
    """One line per value of `label`; one row of axes per (column, y label) in `panels`;
    one column per value of `facet`; `shade` marks intervals (e.g. NLOS)."""
    facets = list(dict.fromkeys(series[facet])) if facet else [None]
    fig, axes = plt.subplots(
        len(panels),
        len(facets),
        figsize=(6 * len(facets), row_height * len(panels)),
        sharex=True,
        squeeze=False,
    )
    for col, fv in enumerate(facets):
        sub = series if fv is None else series[series[facet] == fv]
        for lv, g in sub.groupby(label, sort=False):
            g = g.sort_values(x)
            for row, (ycol, _) in enumerate(panels):
                yv = g[ycol].rolling(smooth, min_periods=1).mean() if smooth > 1 else g[ycol]
                axes[row, col].plot(g[x], yv, lw=1, label=str(lv))
        for row, (_, ylab) in enumerate(panels):
            ax = axes[row, col]
            for a, b in shade:
                ax.axvspan(a, b, color="grey", alpha=0.15, lw=0)
            ax.grid(alpha=0.3)
            ax.set_ylim(bottom=0)
            if col == 0:
                ax.set_ylabel(ylab)
        if fv is not None:
            axes[0, col].set_title(f"{facet} = {fv}")
        axes[-1, col].set_xlabel("time (s)" + ("; shaded: NLOS" if shade else ""))
        axes[0, col].legend(fontsize=8)
    if title:
        fig.suptitle(title)
    return _save(fig, path)


def grouped_bars(
    agg: pd.DataFrame,
    category: str,
    hue: str,
    mean: str,
    err: str | None,
    path: Path,
    ylabel: str = "",
    title: str = "",
    xlabel: str = "",
    logy: bool = False,
) -> Path:
    """Bars of `mean` per `category`, one bar per `hue` value, with `err` as error bars.

    `logy`: a log y axis, for bars that span orders of magnitude (one dominant flow would
    flatten the others to nothing on a linear axis)."""
    cats = list(dict.fromkeys(agg[category]))
    hues = list(dict.fromkeys(agg[hue]))
    # Capped: 10 categories x 4 hues gave a 21-inch-wide figure that no page shows whole.
    width_in = min(12, max(6, 0.9 * len(cats) * len(hues) / 2 + 3))
    fig, ax = plt.subplots(figsize=(width_in, 4))
    width = 0.8 / len(hues)
    for k, h in enumerate(hues):
        sel = agg[agg[hue] == h].set_index(category).reindex(cats)
        xs = np.arange(len(cats)) - 0.4 + width * (k + 0.5)
        yerr = sel[err].fillna(0).to_numpy() if err else None
        ax.bar(xs, sel[mean].to_numpy(), width, yerr=yerr, capsize=3, label=str(h))
    ax.set_xticks(range(len(cats)), [str(c) for c in cats])
    ax.set_ylabel(ylabel or mean)
    if xlabel:
        ax.set_xlabel(xlabel)
    if logy:
        ax.set_yscale("log")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8)
    ax.set_title(title)
    return _save(fig, path)


def curves_with_ci(
    agg: pd.DataFrame,
    x: str,
    mean: str,
    ci: str,
    hue: str,
    path: Path,
    ylabel: str = "",
    title: str = "",
    xlabel: str = "",
    points: pd.DataFrame | None = None,
    point_y: str = "",
) -> Path:
    """`mean` against `x`, one curve per `hue`, shaded by the 95 % CI (`ci` = half-width).

    `points` (columns `x`, `hue`, `point_y`): the runs behind each mean as dots. With two
    seeds the CI is wide (t = 12.7) and can reach below zero; the dots show what ran."""
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for h, g in agg.groupby(hue, sort=False):
        g = g.sort_values(x)
        (line,) = ax.plot(g[x], g[mean], marker="o", label=str(h))
        lo = g[mean] - g[ci].fillna(0)
        hi = g[mean] + g[ci].fillna(0)
        ax.fill_between(g[x], lo, hi, alpha=0.2)
        if points is not None:
            p = points[points[hue] == h]
            ax.plot(p[x], p[point_y], "x", color=line.get_color(), ms=5, alpha=0.8)
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or mean)
    ax.grid(alpha=0.3)
    if points is not None:
        ax.plot([], [], "x", color="grey", label="each seed")
    ax.legend(fontsize=8)
    ax.set_title(title)
    return _save(fig, path)


def _obstacle_polygon(o: dict[str, Any]) -> list[tuple[float, float]]:
    if "box" in o and o["box"] is not None:
        x0, x1, y0, y1 = o["box"]
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return [(v["x"], v["y"]) for v in o["footprint"]["vertices"]]


#: Fills of the obstacle kinds, apart from the sites' colour cycle (tab10).
OBSTACLE_FILLS = ("0.55", "saddlebrown", "darkkhaki", "slategrey", "rosybrown")


def obstacle_kind(o: dict[str, Any]) -> str:
    """An obstacle's kind: its name without a trailing number ("lamppost 3" -> "lamppost")."""
    name = (o.get("name") or "").strip()
    return name.rstrip("0123456789 ").strip() or "obstacle"


def _draw_obstacles(ax: Any, obstacles: list[dict[str, Any]]) -> None:
    """Each obstacle filled by kind, one legend entry per kind (with its count). An obstacle
    under 1 m across (a lamppost) also gets a marker: its polygon alone is a speck."""
    kinds = list(dict.fromkeys(obstacle_kind(o) for o in obstacles))
    fill = {k: OBSTACLE_FILLS[i % len(OBSTACLE_FILLS)] for i, k in enumerate(kinds)}
    for o in obstacles:
        poly = np.asarray(_obstacle_polygon(o))
        k = obstacle_kind(o)
        ax.add_patch(Polygon(poly, closed=True, fc=fill[k], ec="0.2", alpha=0.8))
        if np.ptp(poly[:, 0]) < 1 and np.ptp(poly[:, 1]) < 1:
            cx, cy = poly.mean(axis=0)
            ax.scatter(cx, cy, marker="s", s=30, color=fill[k], edgecolor="0.2", zorder=3)
    for k in kinds:
        n = sum(obstacle_kind(o) == k for o in obstacles)
        ax.scatter(
            [],
            [],
            marker="s",
            s=60,
            color=fill[k],
            edgecolor="0.2",
            label=k + (f" ×{n}" if n > 1 else ""),
        )


def geometry_map(
    scenario: dict[str, Any],
    radio: pd.DataFrame,
    summary: dict[str, Any],
    path: Path,
    title: str = "",
) -> Path:
    """Obstacles (grey), sites (triangles), each UE's path coloured by its serving cell, and
    its handovers (crosses), from a run's resolved scenario, radio series and summary."""
    fig, ax = plt.subplots(figsize=(9, 5))
    rs = scenario.get("radio") or {}
    _draw_obstacles(ax, rs.get("obstacles", []))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    cells = (summary.get("radio") or {}).get("cells", [])
    for c in cells:
        x, y = c["position"][0], c["position"][1]
        ax.scatter(
            x, y, marker="^", s=120, color=colors[c["id"] % len(colors)], edgecolor="k", zorder=3
        )
        ax.annotate(c["name"], (x, y), textcoords="offset points", xytext=(4, 6), fontsize=8)
    if not radio.empty:
        for _, g in radio.groupby("ue", sort=True):
            g = g.sort_values("t_s")
            ax.scatter(
                g["x_m"], g["y_m"], s=3, c=[colors[int(s) % len(colors)] for s in g["serving_cell"]]
            )
            ho = g[g["serving_cell"].diff().fillna(0) != 0]
            ax.scatter(ho["x_m"], ho["y_m"], marker="x", s=50, color="k", zorder=4)
    for c in cells:
        if not radio.empty and (radio["serving_cell"] == c["id"]).any():
            ax.plot(
                [], [], lw=3, color=colors[c["id"] % len(colors)], label=f"served by {c['name']}"
            )
    ax.scatter([], [], marker="x", color="k", label="handover")
    ax.scatter([], [], marker="^", color="grey", edgecolor="k", label="site")
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.grid(alpha=0.3)
    # Outside the axes: with the obstacle kinds and the cells it would cover a site.
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title(title or "geometry: obstacles, sites, UE path coloured by serving cell")
    return _save(fig, path)
