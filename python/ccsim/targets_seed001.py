"""`ccsim reproduce` targets of seed 001: Figs. 4-7 (throughput and delay vs UE speed)."""

from __future__ import annotations

from pathlib import Path

from ccsim import papers
from ccsim.verdicts import TOLERANCE, Context, Outcome, Row, holds, near

# ---- seed 001 Figs. 4-7 -----------------------------------------------------------------------


def _seed001(ctx: Context, cca: str, metric: str, label: str, what: str) -> Outcome:
    from ccsim import figures
    from ccsim.aggregate import aggregate

    df = ctx.store("seed001_speed.toml").frame("runs")
    both = aggregate(df, ["connectivity", "cca", "speed_mps"], [metric])
    agg = both[both["connectivity"] == "dual_connectivity"].drop(columns="connectivity")
    a = agg[agg["cca"] == cca].set_index("speed_mps")
    v = a[f"{metric}_mean"]
    sc = both[(both["connectivity"] == "single_connectivity") & (both["cca"] == cca)]
    s = sc.set_index("speed_mps")[f"{metric}_mean"]
    out = Outcome()
    sign = 1 if what == "delay" else -1  # the paper: delay grows, throughput falls with speed
    low = v[5] / v[1] - 1
    out.rows.append(
        Row(
            f"{what} at 5 m/s vs 1 m/s",
            "§IV: 1 and 5 m/s: a “small”/“insignificant” change",
            f"{v[1]:.1f} → {v[5]:.1f} ({low:+.1%})",
            holds(abs(low) < TOLERANCE),
        )
    )
    high = v[20] / v[5] - 1
    out.rows.append(
        Row(
            f"{what} at 20 m/s vs 5 m/s",
            "§IV: from 10 m/s a (fluctuating) " + ("increase" if sign > 0 else "decrease"),
            f"{v[5]:.1f} → {v[20]:.1f} ({high:+.1%})",
            holds(sign * high > TOLERANCE, sign * high > 0),
        )
    )
    step = (v[20] - v[1]) / (len(papers.SEED001_SPEEDS) - 1)
    key = "delay_ms" if what == "delay" else "throughput_mbps"
    paper = papers.SEED001_PER_STEP[cca][key]
    out.rows.append(
        Row(
            f"{what} change per speed step (1→5→10→15→20 m/s)",
            f"§V: {paper:+.3f} {'ms' if what == 'delay' else 'Mb/s'}",
            f"{step:+.3f} {'ms' if what == 'delay' else 'Mb/s'}",
            near(paper, step, step * paper > 0),
        )
    )
    # §V: "In Single Connectivity, the performance of each TCP is quite stable because the
    # handover process does not involve two different technologies."
    spread_sc = (s.max() - s.min()) / s.mean()
    spread_dc = (v.max() - v.min()) / v.mean()
    out.rows.append(
        Row(
            f"single connectivity: {what} spread over the speeds (max - min) / mean",
            "§V: in single connectivity “the performance of each TCP is quite stable”",
            f"single {spread_sc:.1%} ({s.min():.1f}-{s.max():.1f}), "
            f"dual {spread_dc:.1%} ({v.min():.1f}-{v.max():.1f})",
            holds(spread_sc < TOLERANCE, spread_sc < spread_dc),
        )
    )
    out.notes.append(
        "Single connectivity: every change between mmWave and LTE is a hard handover (X2 "
        "preparation, RRC, RACH: an 8.5 ms stall when the mmWave link is in outage) instead of "
        "dual connectivity's 1 ms switch; both forward the RLC buffer over X2, unacknowledged "
        "RLC AM SDUs included (docs/radio.md)."
    )
    ho = df.groupby("connectivity")[["ue.handovers", "retx_segments", "timeouts"]].mean()
    out.notes.append(
        "Why single and dual connectivity agree: the handover does fire at every speed "
        f"({ho.loc['single_connectivity', 'ue.handovers']:.1f} per run in single, "
        f"{ho.loc['dual_connectivity', 'ue.handovers']:.1f} in dual connectivity: into LTE "
        "behind the building and back), but with RLC AM and X2 forwarding, ns3-mmwave's "
        "behaviour, it loses nothing: TCP retransmits "
        f"{ho.loc['single_connectivity', 'retx_segments']:.1f} / "
        f"{ho.loc['dual_connectivity', 'retx_segments']:.1f} segments per run (single / dual) "
        f"and times out {ho.loc['single_connectivity', 'timeouts']:.1f} / "
        f"{ho.loc['dual_connectivity', 'timeouts']:.1f} times. The modes then differ only by a "
        "7.5 ms longer stall twice per run. Why the speed trend is not the paper's: nothing in "
        "the radio degrades with speed here; the speed changes the run's make-up. A run is the "
        "crossing plus 2 s in mmWave LOS, so the share of time in LTE falls from 31 % at 1 m/s "
        "to 22 % at 20 m/s and CUBIC's mean throughput rises; measured over the crossing "
        "alone, CUBIC falls instead (docs/radio.md, seed 001). YeAH falls with speed under "
        "both definitions; why is not traced here."
    )
    out.notes.append(
        f"ccsim: {label} over the run, mean of seeds 1-2. First figure, the paper's plot "
        f"type: the {'smoothed RTT' if what == 'delay' else 'throughput'} over time, one curve "
        "per speed, one panel per seed (the plateau is the stretch behind the building, in "
        "LTE); second: the run mean per speed with its 95 % CI, the rows' quantity. The run "
        "lasts the crossing of the building's shadow plus 2 s; the paper gives no geometry or "
        "radio parameters (experiments/seed001_dual_connectivity.toml)."
    )
    name = f"seed001_{'delay' if what == 'delay' else 'throughput'}.png"
    path = ctx.out / name
    if not path.exists() or cca == "cubic":
        figures.curves_with_ci(
            agg,
            "speed_mps",
            f"{metric}_mean",
            f"{metric}_ci95",
            "cca",
            path,
            ylabel=label,
            xlabel="UE speed (m/s)",
            points=df[df["connectivity"] == "dual_connectivity"],
            point_y=metric,
            title=f"Seed 001 in ccsim: {label} vs UE speed\n(dual connectivity, mean of seeds 1-2 with its 95 % CI; x: each seed)",
        )
    out.figures.insert(0, _over_time(ctx, cca, what))
    out.figures.append(path)
    return out


#: The figure of each (CCA, what): the paper's Figs. 4-7.
FIG = {
    ("cubic", "delay"): 4,
    ("cubic", "throughput"): 5,
    ("yeah", "delay"): 6,
    ("yeah", "throughput"): 7,
}


def _over_time(ctx: Context, cca: str, what: str) -> Path:
    """The paper's plot type: the metric over time, one curve per UE speed (§IV describes
    each figure by how the curves of 1-5 m/s and 10-20 m/s move: "a small increase", "a
    fluctuating delay increase"), one panel per seed."""
    from ccsim import figures

    store = ctx.store("seed001_speed_series.toml")
    col, ylabel = (
        ("srtt_ms", "smoothed RTT (ms)")
        if what == "delay"
        else ("goodput_mbps", "throughput (Mb/s)")
    )
    s = store.query(
        f"SELECT s.t_s, s.{col}, r.speed_mps, r.seed FROM series s JOIN runs r USING (run_key) "
        f"WHERE r.cca = '{cca}' ORDER BY r.seed, r.speed_mps, s.t_s"
    )
    if what == "delay":
        s = s[s[col] > 0]  # no RTT estimate before the first ACK
    s["speed"] = s["speed_mps"].map(lambda v: f"{v:g} m/s")
    fig = FIG[(cca, what)]
    return figures.overlaid_series(
        s,
        "speed",
        [(col, ylabel)],
        ctx.out / f"seed001_fig{fig}.png",
        smooth=1 if what == "delay" else 5,
        facet="seed",
        row_height=3.6,
        title=f"Seed 001 Fig. {fig} in ccsim: {'CUBIC' if cca == 'cubic' else 'YeAH'} {what} "
        "over time per UE speed (dual connectivity)",
    )


def seed001_fig4(ctx: Context) -> Outcome:
    return _seed001(ctx, "cubic", "rtt_mean_ms", "mean RTT (ms)", "delay")


def seed001_fig5(ctx: Context) -> Outcome:
    return _seed001(ctx, "cubic", "goodput_mbps", "throughput (Mb/s)", "throughput")


def seed001_fig6(ctx: Context) -> Outcome:
    return _seed001(ctx, "yeah", "rtt_mean_ms", "mean RTT (ms)", "delay")


def seed001_fig7(ctx: Context) -> Outcome:
    return _seed001(ctx, "yeah", "goodput_mbps", "throughput (Mb/s)", "throughput")
