"""Standard plots of a run: cwnd, goodput, RTT and queue occupancy over time."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


def overview(
    flow_series: pd.DataFrame,
    queue_series: pd.DataFrame,
    summary: dict,
    path: Path,
    title: str | None = None,
) -> Path:
    """Four stacked panels sharing the time axis; one line per flow. Returns `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(4, 1, figsize=(9, 10), sharex=True)
    names = {f["id"]: f"flow {f['id']} ({f['cca']})" for f in summary["flows"]}
    for fid, g in flow_series.groupby("flow"):
        label = names.get(int(fid), f"flow {fid}")
        axes[0].plot(g["t_s"], g["cwnd_bytes"] / 1e3, label=label, lw=1)
        axes[1].plot(g["t_s"], g["goodput_mbps"], label=label, lw=1)
        axes[2].plot(g["t_s"], g["srtt_ms"], label=label, lw=1)
    axes[0].set_ylabel("cwnd (kB)")
    axes[1].set_ylabel("goodput (Mb/s)")
    axes[2].set_ylabel("smoothed RTT (ms)")
    # The queue that dropped most is the bottleneck worth showing.
    queues = summary["queues"]
    if len(queue_series) and queues:
        busiest = max(
            range(len(queues)), key=lambda i: (queues[i]["drops"], queues[i]["mean_packets"])
        )
        q = queue_series[queue_series["link"] == busiest]
        axes[3].plot(q["t_s"], q["packets"], color="tab:red", lw=1)
        axes[3].set_ylabel(f"queue {queues[busiest]['id']}\n(packets)")
    axes[3].set_xlabel("time (s)")
    if len(names) <= 10:
        axes[0].legend(loc="upper right", fontsize=8)
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.suptitle(title or summary.get("scenario") or "ccsim run")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _runs(values: pd.Series) -> list[tuple[int, int]]:
    """[start, end) index ranges over which `values` is constant."""
    v = values.to_numpy()
    if not len(v):
        return []
    cuts = [0, *(i for i in range(1, len(v)) if v[i] != v[i - 1]), len(v)]
    return list(zip(cuts[:-1], cuts[1:]))


def radio_profile(
    radio_series: pd.DataFrame,
    flow_series: pd.DataFrame,
    summary: dict,
    path: Path,
    title: str | None = None,
    max_ues: int = 3,
) -> Path:
    """The radio view of a run (seed 000 Fig. 3(b) style), sharing the time axis:

    - per UE (the first `max_ues`): SINR towards the serving cell, the line coloured by the
      serving cell, handovers as dotted lines, and the exact NLOS periods towards each cell
      shaded in that cell's colour (one horizontal band per cell when there are several);
    - throughput: each flow's goodput and each UE's radio delivery rate;
    - RTT: each flow's smoothed RTT;
    - RLC buffer occupancy per UE.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    radio = summary.get("radio") or {}
    cells = radio.get("cells", [])
    ues = radio.get("ues", [])
    shown = ues[:max_ues]
    colours = plt.get_cmap("tab10")
    cell_colour = {c["id"]: colours(c["id"] % 10) for c in cells}

    rows = len(shown) + 3
    fig, axes = plt.subplots(rows, 1, figsize=(10, 2.3 * rows + 1), sharex=True, squeeze=False)
    axes = axes[:, 0]
    for ax, ue in zip(axes, shown):
        draw_sinr(ax, ue, radio_series, radio, cell_colour)
        ax.set_ylabel(f"{ue['name']}\nSINR (dB)")
    names = {f["id"]: f"flow {f['id']} ({f['cca']}, {f['dst']})" for f in summary["flows"]}
    ax_tp, ax_rtt, ax_rlc = axes[len(shown)], axes[len(shown) + 1], axes[len(shown) + 2]
    many = len(names) > 10
    for fid, g in flow_series.groupby("flow"):
        label = None if many else names.get(int(fid), f"flow {fid}")
        ax_tp.plot(g["t_s"], g["goodput_mbps"], lw=1, label=label)
        ax_rtt.plot(g["t_s"], g["srtt_ms"], lw=1, label=label)
    for ue in shown:
        g = radio_series[radio_series["ue"] == ue["id"]]
        ax_tp.plot(g["t_s"], g["radio_mbps"], lw=0.8, ls="--", label=f"{ue['name']} radio")
        ax_rlc.plot(g["t_s"], g["rlc_bytes"] / 1e6, lw=1, label=ue["name"])
    ax_tp.set_ylabel("throughput (Mb/s)")
    ax_rtt.set_ylabel("smoothed RTT (ms)")
    ax_rlc.set_ylabel("RLC buffer (MB)")
    ax_rlc.set_xlabel("time (s)")
    for ax in (ax_tp, ax_rtt, ax_rlc):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="upper right", fontsize=7)
    for ax in axes:
        ax.grid(alpha=0.3)
    extra = f" (first {len(shown)} of {len(ues)} UEs)" if len(ues) > len(shown) else ""
    fig.suptitle((title or summary.get("scenario") or "ccsim run") + " — radio profile" + extra)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def draw_sinr(ax, ue: dict, radio_series: pd.DataFrame, radio: dict, cell_colour: dict) -> None:
    """One UE's SINR towards its serving cell on `ax`: the line coloured by the serving cell,
    handovers as dotted lines, the NLOS periods towards each cell shaded in that cell's colour
    (one horizontal band per cell when there are several), with a legend of both."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    cells = radio.get("cells", [])
    nlos = radio.get("nlos") or []
    n_cells = max(len(cells), 1)
    g = radio_series[radio_series["ue"] == ue["id"]]
    for c in cells:
        k = c["id"]
        band = (k / n_cells, (k + 1) / n_cells) if n_cells > 1 else (0.0, 1.0)
        for iv in nlos:
            if iv["ue"] == ue["id"] and iv["cell"] == k:
                ax.axvspan(
                    iv["start_s"],
                    iv["end_s"],
                    ymin=band[0],
                    ymax=band[1],
                    color=cell_colour[k],
                    alpha=0.18,
                    lw=0,
                )
    t = g["t_s"].to_numpy()
    sinr = g["sinr_db"].to_numpy()
    for a, b in _runs(g["serving_cell"]):
        cell = int(g["serving_cell"].iloc[a])
        # Join each run to the next sample so the line stays continuous.
        hi = min(b + 1, len(t))
        ax.plot(t[a:hi], sinr[a:hi], color=cell_colour.get(cell, "k"), lw=1.3)
    for h in radio.get("handovers") or []:
        if h["ue"] == ue["id"]:
            ax.axvline(h["t_s"], color="0.3", ls=":", lw=0.8)
    handles = [
        plt.Line2D([], [], color=cell_colour[c["id"]], lw=2, label=f"serving {c['name']}")
        for c in cells
        if (g["serving_cell"] == c["id"]).any()
    ]
    handles += [
        Patch(color=cell_colour[c["id"]], alpha=0.25, label=f"NLOS to {c['name']}")
        for c in cells
        if any(iv["ue"] == ue["id"] and iv["cell"] == c["id"] for iv in nlos)
    ]
    if handles:
        ax.legend(handles=handles, loc="lower left", fontsize=7, ncol=min(len(handles), 4))


def sinr_by_seed(runs: dict[int, tuple[pd.DataFrame, dict]], path: Path, title: str = "") -> Path:
    """The first UE's SINR (as in `radio_profile`) of several runs, one row per seed:
    {seed: (radio series, summary)}, sharing the time axis."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = plt.get_cmap("tab10")
    fig, axes = plt.subplots(
        len(runs), 1, figsize=(10, 2.6 * len(runs) + 0.8), sharex=True, squeeze=False
    )
    for ax, (seed, (radio_series, summary)) in zip(axes[:, 0], runs.items()):
        radio = summary.get("radio") or {}
        cell_colour = {c["id"]: colours(c["id"] % 10) for c in radio.get("cells", [])}
        ue = radio["ues"][0]
        draw_sinr(ax, ue, radio_series, radio, cell_colour)
        n_ho = sum(h["ue"] == ue["id"] for h in radio.get("handovers") or [])
        ax.set_ylabel(f"seed {seed}\nSINR (dB)")
        ax.set_title(f"seed {seed}: {n_ho} handovers (dotted)", fontsize=9, loc="right")
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("time (s)")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def draw_candlesticks(
    ax,
    groups: dict[str, list[float]],
    ylabel: str | None = None,
    color: str = "tab:blue",
) -> None:
    """Candlesticks as seed 004 draws them, one per group on `ax`: a box from the 20th to the
    80th percentile, whiskers at the minimum and maximum, the mean as a black line.
    Percentiles interpolate linearly between closest ranks (numpy's default, as the summary)."""
    for i, values in enumerate(groups.values()):
        _stick(ax, i, values, color, 0.3)
    ax.set_xticks(range(len(groups)))
    tilt = len(groups) > 6
    ax.set_xticklabels(list(groups), rotation=30 if tilt else 0, ha="right" if tilt else "center")
    ax.set_xlim(-0.7, len(groups) - 0.3)
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)


def _stick(ax, x: float, values: list[float], color: str, half: float) -> None:
    """One candlestick at `x`, `half` wide each side (no-op without finite values)."""
    import numpy as np
    from matplotlib.patches import Rectangle

    v = np.asarray([x for x in values if x is not None and np.isfinite(x)], dtype=float)
    if not len(v):
        return
    p20, p80 = np.percentile(v, [20, 80])
    ax.vlines(x, v.min(), p20, color="black", lw=1)
    ax.vlines(x, p80, v.max(), color="black", lw=1)
    ax.add_patch(
        Rectangle(
            (x - half, p20),
            2 * half,
            max(p80 - p20, 1e-12),
            facecolor=color,
            alpha=0.6,
            edgecolor="black",
        )
    )
    ax.hlines(v.mean(), x - half, x + half, color="black", lw=2)


def draw_clustered_candlesticks(
    ax,
    clusters: dict[str, dict[str, list[float]]],
    ylabel: str | None = None,
    colors: dict[str, str] | None = None,
) -> None:
    """Candlesticks in clusters, {cluster: {member: values}}: one tick label per cluster, the
    members side by side in their own colour with a legend (e.g. per TCP, one per routing),
    so 7 x 3 sticks need 7 labels rather than 21."""
    from matplotlib.patches import Patch

    members = list(dict.fromkeys(m for c in clusters.values() for m in c))
    palette = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]
    colors = colors or {m: palette[i % len(palette)] for i, m in enumerate(members)}
    step = 0.8 / len(members)
    for i, group in enumerate(clusters.values()):
        for j, m in enumerate(members):
            if m in group:
                x = i - 0.4 + step * (j + 0.5)
                _stick(ax, x, group[m], colors[m], 0.4 * step)
    handles = [Patch(facecolor=colors[m], alpha=0.6, edgecolor="black", label=m) for m in members]
    ax.set_xticks(range(len(clusters)), list(clusters))
    ax.set_xlim(-0.6, len(clusters) - 0.4)
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(handles=handles, fontsize=8, ncol=len(members), loc="upper left")


def candlestick(
    panels: dict[str, dict[str, list[float]]],
    path: Path,
    title: str | None = None,
) -> Path:
    """One candlestick panel per entry of `panels` (panel y label -> {group label -> values}),
    side by side, saved to `path`. Returns `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    width, height = 4.5 * len(panels), 4.0
    fig, axes = plt.subplots(1, len(panels), figsize=(width, height), squeeze=False)
    for ax, (ylabel, groups) in zip(axes[0], panels.items()):
        draw_candlesticks(ax, groups, ylabel)
    if title:
        fig.suptitle(title)
    if any(len(g) > 6 for g in panels.values()):
        fig.tight_layout()  # tilted group labels: let matplotlib measure them
    else:
        # Fixed margins (inches) that fit a y label, 6-character tick labels and one line of
        # group labels: tight_layout measured every text once more than the drawing does,
        # 40 % of `ccsim run`'s plotting time (issue 14).
        axes_w = (width - 0.8 - 0.2 - 0.85 * (len(panels) - 1)) / len(panels)
        fig.subplots_adjust(
            left=0.8 / width,
            right=1 - 0.2 / width,
            bottom=0.45 / height,
            top=1 - (0.5 if title else 0.2) / height,
            wspace=0.85 / axes_w,
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def mesh_candlestick(summary: dict, path: Path, title: str | None = None) -> Path:
    """A mesh run's per-flow download finish times and mean RTTs as candlesticks."""
    label = (summary.get("mesh") or {}).get("routing", "run")
    fct = [f["fct_s"] for f in summary["flows"] if f["fct_s"] is not None]
    rtt = [f["rtt_mean_ms"] for f in summary["flows"] if f["rtt_mean_ms"] is not None]
    return candlestick(
        {"download finish time (s)": {label: fct}, "mean RTT (ms)": {label: rtt}},
        path,
        title=title or summary.get("scenario"),
    )
