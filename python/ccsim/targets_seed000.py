"""`ccsim reproduce` targets of seed 000: Figs. 1-6 (blockages, handovers, multiple flows)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ccsim import papers
from ccsim import targets_seed000_ns3mmwave as ns3mmwave
from ccsim.verdicts import TOLERANCE, TREND, Context, Outcome, Row, holds, mci, near, within

# ---- seed 000 Fig. 2 -------------------------------------------------------------------------

_NAMES = {"newreno": "NewReno", "scalable": "Scalable", "cubic": "CUBIC", "vegas": "Vegas",
          "westwood": "Westwood", "yeah": "YeAH"}  # fmt: skip


def seed000_fig2(ctx: Context) -> Outcome:
    from ccsim import figures

    df = ctx.store("seed000_fig2.toml").frame("runs")
    df["protocol"] = df["cca"].map(_NAMES)
    out = Outcome()
    claims = papers.SEED000_FIG2_CLAIMS
    by = df.groupby("protocol")
    med = by["goodput_mbps"].median().sort_values(ascending=False)
    top2 = set(med.index[:2])
    best = {"CUBIC", "Scalable"}

    def thr(p: str) -> str:
        return mci(df[df["protocol"] == p]["goodput_mbps"].tolist(), 0)

    out.rows.append(
        Row(
            "highest throughput (median over all runs)",
            claims["best"],
            "top two: "
            + ", ".join(f"{p} {med[p]:.0f}" for p in med.index[:2])
            + "; "
            + ", ".join(f"{p} {thr(p)}" for p in ("CUBIC", "Scalable")),
            holds(top2 == best, bool(top2 & best)),
        )
    )
    per_sc = df.groupby(["blockage", "protocol"])["goodput_mbps"].mean().unstack()
    lowest = per_sc.idxmin(axis=1)
    n_vegas = int((lowest == "Vegas").sum())
    out.rows.append(
        Row(
            "lowest throughput in each blockage scenario",
            claims["vegas_lowest"],
            "; ".join(f"{sc}: {p} {per_sc.loc[sc, p]:.0f}" for sc, p in lowest.items()),
            holds(n_vegas == len(lowest), n_vegas > 0),
        )
    )
    # Variability across scenarios: coefficient of variation (std/mean) over all runs.
    cv_thr = by["goodput_mbps"].std() / by["goodput_mbps"].mean()
    cv_rtt = by["rtt_mean_ms"].std() / by["rtt_mean_ms"].mean()

    def cv(series: Any, names: Sequence[str]) -> str:
        return ", ".join(f"{n} {series[n]:.2f}" for n in names)

    aggressive, robust = ["CUBIC", "Scalable"], ["Vegas", "YeAH"]
    ok = min(cv_thr[aggressive]) > max(cv_thr[robust])
    part = cv_thr[aggressive].mean() > cv_thr[robust].mean()
    out.rows.append(
        Row(
            "throughput variability (CV over scenarios and seeds)",
            claims["aggressive_vary"],
            cv(cv_thr, aggressive + robust),
            holds(ok, part),
        )
    )
    calm = ["NewReno", "Westwood"]
    ok = max(cv_rtt[calm]) < min(cv_rtt[aggressive])
    part = cv_rtt[calm].mean() < cv_rtt[aggressive].mean()
    out.rows.append(
        Row(
            "RTT variability (CV)",
            claims["nr_ww_rtt"],
            cv(cv_rtt, calm + aggressive),
            holds(ok, part),
        )
    )
    y_rtt = cv_rtt["YeAH"] < min(cv_rtt[aggressive])
    y_thr = cv_thr["YeAH"] < min(cv_thr[aggressive])
    out.rows.append(
        Row(
            "YeAH variability (CV of RTT; of throughput)",
            claims["yeah_consistent"],
            f"YeAH {cv_rtt['YeAH']:.2f}; {cv_thr['YeAH']:.2f} (CUBIC {cv_rtt['CUBIC']:.2f}; "
            f"{cv_thr['CUBIC']:.2f}, Scalable {cv_rtt['Scalable']:.2f}; {cv_thr['Scalable']:.2f})",
            holds(y_rtt and y_thr, y_rtt or y_thr),
        )
    )
    ns3mmwave.fig2_rows(ctx, out, _NAMES)
    out.notes.append(
        "Fig. 2 gives no numbers: the rows check the claims of §III-B's text. Throughput is "
        "goodput over the 25 s run, RTT the per-ACK mean; five seeds per protocol and scenario; "
        "CV = standard deviation / mean over the 15 runs of a protocol."
    )
    out.notes.append(
        "Why the ranking is not the paper's: behind a building the calibrated files put the UE "
        "in outage (+30 dB), so every loss-based flow times out repeatedly and ns-3 leaves "
        "ssthresh at 2 segments; the ranking is then the speed of congestion avoidance from 2 "
        "segments after LOS returns, where Westwood's bandwidth-based ssthresh and Scalable's "
        "MIMD win and CUBIC's cubic growth from a 1-segment W_max loses. On ns3-mmwave's radio "
        "(last row) the preset now draws the tree's shadowing, so each seed's NLOS link differs "
        "(-4.5 to 9.1 dB over seeds 1-3) and the medians spread out, Scalable and Westwood "
        "ahead of CUBIC; why this order on the preset was not examined."
    )
    out.figures.append(
        figures.throughput_rtt_scatter(
            df,
            "protocol",
            "blockage",
            ctx.out / "seed000_fig2.png",
            title="Seed 000 Fig. 2 in ccsim: runs, 2σ ellipses per scenario, median per protocol",
        )
    )
    return out


# ---- seed 000 Fig. 1 (Fig. III-B) ---------------------------------------------------------


def seed000_fig1(ctx: Context) -> Outcome:
    from ccsim import figures
    from ccsim.aggregate import aggregate

    df = ctx.store("seed000_fig1.toml").frame("runs")
    out = Outcome()
    for sc, g in df.groupby("blockage", sort=False):
        m = g.set_index(["setting", "seed"])["goodput_mbps"]
        base, rlc, rto = m["baseline"], m["RLC"], m["RLC + RTO"]
        gain = rlc / base - 1
        out.rows.append(
            Row(
                f"{sc}: RLC 7 MB vs baseline throughput",
                "§III-B: 7 MB “optimal for throughput”; the baseline “persistently fails”",
                f"{mci(list(base), 0)} → {mci(list(rlc), 0)} Mb/s ({mci(list(gain), 0, True, True)})",
                holds(gain.mean() > TOLERANCE, gain.mean() >= TREND),
            )
        )
        gain = rto / rlc - 1
        out.rows.append(
            Row(
                f"{sc}: RLC + RTO vs RLC throughput",
                "§III-B: RLC + RTO “performs significantly better” in NLOS",
                f"{mci(list(rlc), 0)} → {mci(list(rto), 0)} Mb/s ({mci(list(gain), 0, True, True)})",
                holds(gain.mean() > TOLERANCE, gain.mean() >= TREND),
            )
        )
    ns3mmwave.fig1_rows(ctx, out)
    out.notes.append(
        "The figure has no numbers in the text. Baseline: RLC 1 MB, minimum RTO 1 s; RLC: 7 MB, "
        "1 s; RLC + RTO: 7 MB, 200 ms (the lower RTO's value is open). Seeds 1-3 (ns3-mmwave "
        "radio: 1-10). A gain counts as reproduced above +5 %, as trend only from +1 % (below: "
        "noise); on the ns3-mmwave radio a gain whose 95 % CI reaches zero is trend only."
    )
    out.notes.append(
        "Why a lower minimum RTO hardly helps in ccsim. A minimum RTO only matters when a "
        "timeout waits on it: after a loss that fast recovery cannot repair, with an RTT well "
        "below the minimum. Calibrated files: behind a building the UE is in outage and its "
        "packets wait in the RLC buffer, so the data resumes when LOS returns, whatever the "
        "timer; the extra timeouts of the 200 ms minimum only retransmit and, as ns-3 "
        "recomputes ssthresh on every timeout, leave it at 2 segments. ns3-mmwave radio (rows "
        "marked so): the preset draws the tree's shadowing, so each seed's NLOS SINR differs "
        "(-4.5 to 11.6 dB over seeds 1-10). Where it stays above about 0 dB the ACKs keep "
        "coming and the 1 s and 200 ms runs end within 0.2 % (8 of 10 seeds); seed 2 (-4.5 dB) "
        "stalls and times out, and the 200 ms run gains +61 %; seed 3 loses 20 % to spurious "
        "timeouts. The tree's own runs (last row, seeds 1-3) part at the first difference in "
        "traffic, so each pair met different channels. Only seed 1's 1 s runs stalled: there "
        "the gNB sent nothing after LOS returned but the timer's backed-off retransmissions "
        "(baseline: TBs only at 15.2, 17.2 and 21.2 s, at 49 dB SINR), none acknowledged, an "
        "RLC AM stall no TCP timer repairs, and 200 ms gains +574 %. In seeds 2 and 3 both "
        "settings recover after LOS returns (533 Mb/s) and the 200 ms minimum loses 8 % and "
        "20 % to timeouts behind the building (24 and 2). So the tree itself supports the claim "
        "in 1 of 3 seeds, through a stall, not through the timer. ccsim reproduces neither the "
        "stall's trigger nor the stall (validation/report.md, seed 000 in the ns3-mmwave "
        'section; docs/radio.md, "RLC AM stalls in ccsim").'
    )
    # aggregate() sorts its groups; the bars keep the study's order (baseline, RLC, RLC + RTO).
    agg = _in_order_of(aggregate(df, ["blockage", "setting"], ["goodput_mbps"]), df)
    out.figures.append(
        figures.grouped_bars(
            agg,
            "blockage",
            "setting",
            "goodput_mbps_mean",
            "goodput_mbps_ci95",
            ctx.out / "seed000_fig1.png",
            ylabel="CUBIC throughput (Mb/s)",
            xlabel="blockage scenario",
            title="Seed 000 Fig. III-B in ccsim (95 % CI, 3 seeds)",
        )
    )
    out.figures.append(_fig1_over_time(ctx, df))
    return out


def _fig1_over_time(ctx: Context, runs: Any) -> Path:
    """The paper's Fig. III-B is throughput over time (its text reads LOS and NLOS phases and
    the recovery after NLOS off it): one column per blockage scenario, one row per seed, one
    line per setting, in the study's order."""
    from ccsim import figures

    store = ctx.store("seed000_fig1.toml")
    s = store.query(
        "SELECT s.t_s, s.goodput_mbps, r.blockage, r.setting, r.seed FROM series s "
        "JOIN runs r USING (run_key)"
    )
    seeds = sorted(set(s["seed"]))
    wide = s.pivot_table(
        index=["blockage", "setting", "t_s"], columns="seed", values="goodput_mbps"
    ).reset_index()
    wide.columns = [c if isinstance(c, str) else f"seed {c}" for c in wide.columns]
    order = {k: i for i, k in enumerate(dict.fromkeys(zip(runs["blockage"], runs["setting"])))}
    wide = (
        wide.assign(_o=[order[k] for k in zip(wide["blockage"], wide["setting"])])
        .sort_values(["_o", "t_s"], kind="stable")
        .drop(columns="_o")
    )
    return figures.overlaid_series(
        wide,
        "setting",
        [(f"seed {k}", f"seed {k}: Mb/s") for k in seeds],
        ctx.out / "seed000_fig1_time.png",
        smooth=5,
        facet="blockage",
        title="Seed 000 Fig. III-B in ccsim: CUBIC throughput over time (100 ms average; "
        "where RLC is not seen, RLC + RTO is drawn over it)",
    )


# ---- seed 000 Fig. 3 (street) ----------------------------------------------------------------


def _street_run(ctx: Context, seed: int = 1) -> Any:
    """One CUBIC run of the street with its radio series (the study keeps no radio series),
    for the map and the SINR; about 2 s each."""
    key = f"street-seed{seed}"
    if key not in ctx.cache:
        import ccsim

        ctx.cache[key] = ccsim.run(
            Path("experiments") / "seed000_handover_street.toml", set=[f"run.seed={seed}"]
        )
    return ctx.cache[key]


def _sinr_seeds_note(street: dict[int, Any]) -> str:
    """How far the seeds' SINR profiles differ: the street is deterministic geometry, so
    they nearly coincide, which the figure's rows show and this says in numbers."""
    import numpy as np

    seeds = sorted(street)
    a = street[seeds[0]].radio_series
    worst, differing, same_ho = 0.0, 0, True
    for s in seeds[1:]:
        b = street[s].radio_series
        d = np.abs(a["sinr_db"].to_numpy() - b["sinr_db"].to_numpy())
        worst, differing = max(worst, float(d.max())), max(differing, int((d > 0).sum()))
        ho = [h["t_s"] for h in street[s].summary["radio"]["handovers"]]
        same_ho &= ho == [h["t_s"] for h in street[seeds[0]].summary["radio"]["handovers"]]
    return (
        f"SINR figure: one row per seed ({', '.join(map(str, seeds))}; CUBIC). The profiles "
        f"differ by at most {worst:.2f} dB, in {differing} of {len(a)} samples, and the "
        f"handovers are {'at the same instants' if same_ho else 'at different instants'}: "
        "the blockages are the street's fixed geometry, which the seed does not change."
    )


def seed000_fig3a(ctx: Context) -> Outcome:
    from ccsim import figures

    res = _street_run(ctx)
    nlos = res.summary["radio"]["nlos"]
    cells = {c["id"]: c["name"] for c in res.summary["radio"]["cells"]}
    short = [n for n in nlos if n["duration_s"] < 1.0]
    longest: dict[str, float] = {}
    for n in nlos:
        name = cells[n["cell"]]
        longest[name] = max(longest.get(name, 0.0), n["duration_s"])
    out = Outcome()
    out.rows.append(
        Row(
            "short blockages by the lampposts (NLOS < 1 s)",
            "§III-C: lampposts “create multiple short blockages”",
            f"{len(short)} intervals of {min(n['duration_s'] for n in short):.2f}-"
            f"{max(n['duration_s'] for n in short):.2f} s"
            if short
            else "none",
            holds(len(short) >= 3, len(short) > 0),
        )
    )
    ap23 = [longest.get(n, 0.0) for n in sorted(longest)[1:]]
    out.rows.append(
        Row(
            "longest NLOS towards AP 2 and AP 3",
            "§III-C: the truck “generates extensive blockages for AP 2 and AP 3”",
            ", ".join(f"{k} {v:.1f} s" for k, v in sorted(longest.items())),
            holds(all(v > 10 for v in ap23), any(v > 10 for v in ap23)),
        )
    )
    out.notes.append(
        "The paper gives no coordinates; the layout (3 APs 20 m apart, lampposts every 20 m, a "
        "13.5 m truck) is experiments/seed000_handover_street.toml's. “Extensive” is taken as "
        "longer than 10 s. Geometry from a CUBIC run, seed 1."
    )
    out.figures.append(
        figures.geometry_map(
            res.scenario,
            res.radio_series,
            res.summary,
            ctx.out / "seed000_fig3a.png",
            title="Seed 000 Fig. 3(a) in ccsim: street, APs, UE path by serving AP",
        )
    )
    return out


def seed000_fig3b(ctx: Context) -> Outcome:
    from ccsim import figures
    from ccsim.plots import sinr_by_seed

    store = ctx.store("seed000_street.toml")
    df = store.frame("runs")
    out = Outcome()
    ho = df["ue.handovers"].tolist()
    out.rows.append(
        Row(
            "handovers along the walk (3 APs: 2 would do)",
            "§III-C: with short blockages “the connectivity is rapidly [moved] from one AP to the other”",
            mci(ho, 1),
            holds(min(ho) > 2),
        )
    )
    m = df.set_index(["cca", "seed"])["goodput_mbps"]
    ratio = m["cubic"] / m["yeah"] - 1
    out.rows.append(
        Row(
            "CUBIC throughput over YeAH's",
            "§III-C: CUBIC and YeAH are “respectively throughput-performing and -conservative”",
            f"CUBIC {mci(list(m['cubic']), 0)}, YeAH {mci(list(m['yeah']), 0)} Mb/s "
            f"({mci(list(ratio), 0, True, True)})",
            holds(ratio.mean() > TOLERANCE, ratio.mean() > 0),
        )
    )
    rto = df.set_index(["cca", "seed"])["timeouts"]
    out.rows.append(
        Row(
            "TCP timeouts (restarts from slow start) along the walk, CUBIC; YeAH",
            "§III-C: “both protocols resume from slow start after the first handover”",
            f"{mci(list(rto['cubic']), 1)}; {mci(list(rto['yeah']), 1)}",
            holds(bool((rto > 0).all()), bool((rto > 0).any())),
        )
    )
    out.notes.append(
        "A restart from slow start needs a timeout. With RLC AM and X2 forwarding (ns3-mmwave's "
        "handover) nothing is lost at the handovers (the unacknowledged SDUs are sent twice), so "
        "TCP sees the interruption only as delay, on the calibrated cell and on ns3-mmwave's "
        "alike. Losing data at the handover (RLC UM, or no X2 forwarding) does not produce it "
        "either: SACK fast recovery repairs those losses without a timeout (docs/radio.md, "
        "seed 000 on ns3-mmwave's radio). A timeout needs the whole window lost or an "
        "interruption longer than the 200 ms minimum RTO; ns3-mmwave's is 5-8.5 ms. CUBIC's "
        "quicker return to the link rate is not checked (the curves are not in the "
        "text). Seeds 1-2. With ns3-mmwave's handover loss (radio.handover.forward_loss_bytes: "
        "3.3 MB, sized to the TCP episode of the first handover of the ns3-mmwave handover "
        "reference, where 307 segments were lost and ns-3.33 resent 2 337 "
        "(validation/ns3-mmwave/README.md §8.2); 50 kB at a later one), seeds 1-3, every handover is a SACK fast recovery: CUBIC 7-8 "
        "recoveries and 7 567-7 823 retransmissions (3.3 MB) or 253-289 (50 kB), YeAH 2-4 "
        "recoveries, 0 timeouts in all 12 runs. Handovers then reach TCP, as a multiplicative "
        "decrease, not a restart from slow start; the reference itself (NewReno, 5 handovers) "
        "takes 4 recoveries and no timeout."
    )
    # The SINR of every seed of the study (its CUBIC runs, rerun for their radio series).
    seeds = sorted(int(x) for x in df["seed"].unique())
    street = {s: _street_run(ctx, s) for s in seeds}
    out.notes.append(_sinr_seeds_note(street))
    out.figures.append(
        sinr_by_seed(
            {s: (r.radio_series, r.summary) for s, r in street.items()},
            ctx.out / "seed000_fig3b_sinr.png",
            title="Seed 000 Fig. 3(b) in ccsim: SINR by serving AP, NLOS shaded, per seed (CUBIC)",
        )
    )
    # Every seed of the study, one column each: the claim is about the curves over time.
    s = store.query(
        "SELECT s.t_s, s.goodput_mbps, s.cwnd_bytes / 1e6 AS cwnd_mb, r.cca, r.seed FROM series s "
        "JOIN runs r USING (run_key) ORDER BY r.seed, r.cca, s.t_s"
    )
    out.figures.append(
        figures.overlaid_series(
            s,
            "cca",
            [("goodput_mbps", "throughput (Mb/s)"), ("cwnd_mb", "cwnd (MB)")],
            ctx.out / "seed000_fig3b.png",
            smooth=5,
            facet="seed",
            title="Seed 000 Fig. 3(b) in ccsim: CUBIC vs YeAH along the street, per seed",
        )
    )
    return out


# ---- seed 000 Figs. 4-6 (multiple flows) -----------------------------------------------------


def seed000_fig4(ctx: Context) -> Outcome:
    import ccsim
    from ccsim import figures

    df = ctx.store("seed000_multiflow.toml").frame("runs")
    df = df[df["ue0"] == "with UE0"]
    ho = df.groupby("dst")["ue.handovers"].mean()
    static = [f"ue{k}" for k in range(6, 10)]
    moving = [u for u in ho.index if u not in static]
    ok_static = all(ho[u] == 0 for u in static)
    n_moving = sum(ho[u] > 0 for u in moving)
    out = Outcome()
    out.rows.append(
        Row(
            "UEs with handovers",
            "§III-D: “Except UEs 6-9 all UEs experience handovers”",
            ", ".join(f"{u} {ho[u]:.1f}" for u in sorted(ho.index, key=lambda u: int(u[2:]))),
            holds(ok_static and n_moving == len(moving), ok_static and n_moving > 0),
        )
    )
    out.notes.append(
        "Fig. 4 (the movements) is not in the text: the paths are experiments/"
        "gen_seed000_multi_flow.py's choices. Mean handovers per UE over both algorithms and seeds."
    )
    if "multiflow" not in ctx.cache:
        ctx.cache["multiflow"] = ccsim.run(
            Path("experiments") / "seed000_multi_flow.toml", set=["run.seed=1"]
        )
    res = ctx.cache["multiflow"]
    out.figures.append(
        figures.geometry_map(
            res.scenario,
            res.radio_series,
            res.summary,
            ctx.out / "seed000_fig4.png",
            title="Seed 000 Fig. 4 in ccsim: 4 APs, 10 UEs, paths by serving AP",
        )
    )
    return out


def seed000_fig5(ctx: Context) -> Outcome:
    from ccsim import figures
    from ccsim.aggregate import aggregate

    store = ctx.store("seed000_multiflow.toml")
    cells = store.frame("cells")
    cells = cells[cells["ue0"] == "with UE0"]
    out = Outcome()
    tot = cells.groupby(["cca", "seed"])["transmissions"].sum()
    more = tot["cubic"] / tot["yeah"] - 1
    out.rows.append(
        Row(
            "transmissions of all APs, CUBIC over YeAH",
            "§IV: “CUBIC always require[s] more transmissions than YeAH”",
            f"CUBIC {mci(list(tot['cubic']), 0)}, YeAH {mci(list(tot['yeah']), 0)} ({mci(list(more), 1, True, True)})",
            holds(bool((more > 0).all()), more.mean() > 0),
        )
    )
    share = cells.groupby(["cca", "seed", "name"])["transmissions"].sum()
    used = (
        (share / share.groupby(["cca", "seed"]).transform("sum") >= 0.05)
        .groupby(["cca", "seed"])
        .sum()
    )
    out.rows.append(
        Row(
            "APs carrying ≥ 5 % of the transmissions",
            "§III-D: with YeAH “the network employs more APs”",
            f"CUBIC {mci(list(used['cubic']), 1)}, YeAH {mci(list(used['yeah']), 1)}",
            holds(used["yeah"].mean() > used["cubic"].mean()),
        )
    )
    runs = store.frame("runs")
    runs = runs[runs["ue0"] == "with UE0"]
    rx = runs.groupby(["cca", "seed"])["ue.delivered_packets"].sum()
    out.rows.append(
        Row(
            "packets received by all UEs",
            "§III-D: with YeAH “on average the users receive a higher number of packets”",
            f"CUBIC {mci(list(rx['cubic']), 0)}, YeAH {mci(list(rx['yeah']), 0)}",
            holds(rx["yeah"].mean() > rx["cubic"].mean()),
        )
    )
    out.notes.append(
        "Transmissions = packets sent by an AP including retransmissions (summary radio.cells). Seeds 1-2."
    )
    agg = aggregate(cells, ["name", "cca"], ["transmissions"])
    out.figures.append(
        figures.grouped_bars(
            agg,
            "name",
            "cca",
            "transmissions_mean",
            "transmissions_ci95",
            ctx.out / "seed000_fig5.png",
            ylabel="transmitted packets",
            title="Seed 000 Fig. 5 in ccsim: transmissions per AP",
        )
    )
    return out


def seed000_fig6(ctx: Context) -> Outcome:
    from ccsim import figures
    from ccsim.aggregate import aggregate

    df = ctx.store("seed000_multiflow.toml").frame("runs")
    # Sorted: partial-key lookups on an unsorted MultiIndex warn (pandas PerformanceWarning).
    m = df.set_index(["cca", "ue0", "dst", "seed"])["ue.delivered_packets"].sort_index()
    out = Outcome()
    for cca in ("cubic", "yeah"):
        r = m[cca, "with UE0", "ue4"] / m[cca, "without UE0", "ue4"]
        out.rows.append(
            Row(
                f"{cca.upper() if cca == 'cubic' else 'YeAH'}: UE4 packets with UE0 / without",
                "§III-D: UE4's “number of packets received doubles when the UE0 is present”",
                mci(list(r), 2),
                near(2.0, r.mean(), r.mean() > 1 + TOLERANCE),
            )
        )
    r = m["cubic", "with UE0", "ue5"] / m["yeah", "with UE0", "ue5"]
    out.rows.append(
        Row(
            "UE5 packets, CUBIC / YeAH",
            "§III-D: UE5 “served by different AP than UE0, hence CUBIC and YeAH perform similarly”",
            mci(list(r), 2),
            within(1.0, r.mean()),
        )
    )
    r = m[:, "with UE0", "ue3"] / m[:, "without UE0", "ue3"]
    out.rows.append(
        Row(
            "UE3 packets with UE0 / without (both algorithms)",
            "§III-D: UE3's “small flow is severely affected by the presence of UE0”",
            mci(list(r), 2),
            holds(abs(r.mean() - 1) > 0.2, abs(r.mean() - 1) > TOLERANCE),
        )
    )
    ns3mmwave.fig6_rows(ctx, out)
    out.notes.append(
        "Packets received = packets the radio delivered to the UE (summary radio.ues, "
        "delivered_packets), the closest count ccsim has to the paper's “correctly received "
        "packets at application layer”. “Severely affected” is taken as a change above 20 %. Seeds 1-2."
    )
    df = df.assign(setting=df["cca"] + ", " + df["ue0"])
    agg = aggregate(df, ["dst", "setting"], ["ue.delivered_packets"])
    out.figures.append(
        figures.grouped_bars(
            agg,
            "dst",
            "setting",
            "ue.delivered_packets_mean",
            "ue.delivered_packets_ci95",
            ctx.out / "seed000_fig6.png",
            ylabel="packets received (log scale)",
            logy=True,
            title="Seed 000 Fig. 6 in ccsim: packets per UE, with and without UE0",
        )
    )
    return out


def _in_order_of(agg: Any, df: Any) -> Any:
    """`agg`'s rows in the order their groups first appear in `df` (the study's order)."""
    cols = [c for c in agg.columns if c in df.columns]
    first = {k: i for i, k in enumerate(dict.fromkeys(map(tuple, df[cols].to_numpy())))}
    rank = [first.get(tuple(r), len(first)) for r in agg[cols].to_numpy()]
    return agg.assign(_rank=rank).sort_values("_rank", kind="stable").drop(columns="_rank")
