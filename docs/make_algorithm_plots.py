"""Regenerates the figures of docs/algorithms.md: one cwnd trace per congestion-control
algorithm on the same scenario, plus the SIAD and TCP Wave detail plots.

    python docs/make_algorithm_plots.py
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import ccsim  # noqa: E402

OUT = Path(__file__).resolve().parent / "img"

# Same scenario for every algorithm: 20 Mb/s, 20 ms one way (40 ms base RTT), 1 BDP queue.
SCENARIO = {
    "name": "algorithm-gallery",
    "run": {"duration": "30s"},
    "output": {"sample_interval": "20ms"},
    "tcp": {"mss": 1448, "snd_buf": "4MB", "rcv_buf": "4MB"},
    "dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "20ms", "queue": "1bdp"}},
    "flows": [{"cca": "cubic"}],
}


def run(cca: str, **extra) -> ccsim.Result:
    sc = {**SCENARIO, "flows": [{"cca": cca, **extra}]}
    return ccsim.run(sc)


def gallery() -> Path:
    algos = [short for short, _ in ccsim.cca_algorithms()]
    cols = 3
    rows = (len(algos) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(13, 2.3 * rows), sharex=True)
    for ax, cca in zip(axes.flat, algos):
        res = run(cca)
        fs = res.flow_series
        f = res.summary["flows"][0]
        ax.plot(fs["t_s"], fs["cwnd_bytes"] / 1448, lw=0.9)
        ax.set_title(
            f"{f['cca']}: {f['goodput_mbps']:.1f} Mb/s, RTT p50 {f['rtt_p50_ms']:.0f} ms, "
            f"{f['retx_segments']} retx",
            fontsize=8,
        )
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(algos) :]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel("cwnd (segments)", fontsize=8)
    for ax in axes[-1, :]:
        ax.set_xlabel("time (s)")
    fig.suptitle(
        "cwnd of every algorithm: 20 Mb/s, 40 ms base RTT, 1-BDP drop-tail queue (BDP = 69 segments)"
    )
    fig.tight_layout()
    path = OUT / "cwnd_all_algorithms.png"
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def detail(cca: str, title: str, fname: str) -> Path:
    res = run(cca)
    fs, qs = res.flow_series, res.queue_series
    bn = qs[qs["link_name"] == "r1->r2"]
    fig, ax = plt.subplots(3, 1, figsize=(9, 7), sharex=True)
    ax[0].plot(fs["t_s"], fs["cwnd_bytes"] / 1448, lw=1, label="cwnd")
    ax[0].plot(fs["t_s"], fs["bytes_in_flight"] / 1448, lw=0.8, alpha=0.7, label="in flight")
    ax[0].set_ylabel("segments")
    ax[0].legend(fontsize=8)
    ax[1].plot(fs["t_s"], fs["goodput_mbps"].rolling(5, min_periods=1).mean(), lw=1)
    ax[1].set_ylabel("goodput (Mb/s)")
    ax[2].plot(bn["t_s"], bn["packets"], color="tab:red", lw=1)
    ax[2].set_ylabel("bottleneck queue (pkts)")
    ax[2].set_xlabel("time (s)")
    for a in ax:
        a.grid(alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    path = OUT / fname
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def main() -> None:
    OUT.mkdir(exist_ok=True)
    print(gallery())
    print(
        detail(
            "siad", "TCP SIAD (Linux rules): scalable increase, adaptive decrease", "siad_trace.png"
        )
    )
    print(
        detail(
            "wave",
            "TCP Wave: bursts every TxTime, rate from ACK-train dispersion",
            "wave_trace.png",
        )
    )


if __name__ == "__main__":
    main()
