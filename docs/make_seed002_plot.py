"""Regenerates docs/img/seed002_fig2_fig3.png: seed 002's Fig. 2 (7 MB RLC buffer) and
Fig. 3 (4 MB) in ccsim, throughput and RTT of SIAD and BBR over the 15 s walk behind the
building (NLOS from 5 to 10 s shaded).

    python docs/make_seed002_plot.py [--seed 2]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import ccsim  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "experiments" / "seed002_siad_bbr.toml"
OUT = Path(__file__).resolve().parent / "img" / "seed002_fig2_fig3.png"
BUFFERS = [("7 MB (paper Fig. 2)", 7_000_000), ("4 MB (paper Fig. 3)", 4_000_000)]
CCAS = [("siad", "tab:blue"), ("bbr", "tab:orange")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2, help="run.seed (the paper used 2..7)")
    a = ap.parse_args()
    fig, axes = plt.subplots(2, 2, figsize=(12, 6.5), sharex=True)
    for col, (title, buf) in enumerate(BUFFERS):
        for cca, color in CCAS:
            res = ccsim.run(
                SCENARIO,
                set=[
                    f"radio.mmwave.cell.rlc.buffer_bytes={buf}",
                    f"flows.0.cca={cca}",
                    f"run.seed={a.seed}",
                ],
            )
            fs = res.flow_series
            f = res.summary["flows"][0]
            label = f"{f['cca']}: {f['goodput_mbps']:.0f} Mb/s, RTT {f['rtt_mean_ms']:.1f} ms"
            # 100 ms moving average of the 20 ms goodput samples.
            gp = fs["goodput_mbps"].rolling(5, min_periods=1).mean()
            axes[0, col].plot(fs["t_s"], gp, color=color, lw=1, label=label)
            axes[1, col].plot(fs["t_s"], fs["srtt_ms"], color=color, lw=1)
        axes[0, col].set_title(f"RLC buffer {title}")
        axes[0, col].legend(fontsize=8, loc="lower left")
    for ax in axes.flat:
        ax.axvspan(5, 10, color="grey", alpha=0.15, lw=0)
        ax.grid(alpha=0.3)
        ax.set_ylim(bottom=0)
    axes[0, 0].set_ylabel("throughput (Mb/s)")
    axes[1, 0].set_ylabel("smoothed RTT (ms)")
    for ax in axes[1]:
        ax.set_xlabel("time (s); NLOS shaded")
    fig.suptitle(
        f"Seed 002 in ccsim (seed {a.seed}): SIAD vs BBR behind a building, "
        "10 kB segments over a 1500 B MTU"
    )
    fig.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    fig.savefig(OUT, dpi=90)
    print(OUT)


if __name__ == "__main__":
    main()
