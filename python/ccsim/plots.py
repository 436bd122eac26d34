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
