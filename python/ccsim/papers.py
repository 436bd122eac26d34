"""The five seed papers' figures and tables, and every number ccsim compares with, typed once
here with the place it comes from (the texts are ../shared/seeds/*.txt; none has page
numbers, so the source is the section, figure or table).

`ITEMS` lists every figure and table of seeds 000-004, in paper order. An item is either
reproduced by a target of ccsim.reproduce (`target`), or not, with the reason (`reason`):
an illustration or an input table, or a scenario ccsim cannot run yet.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Item:
    id: str  # "seed002-table2": also the `ccsim reproduce` target name
    paper: str  # "seed 002"
    what: str  # "Table 2"
    title: str
    runnable: bool
    reason: str = ""  # why not runnable, or what kind of item it is


# ---- seed 000: TCP congestion control over mm-wave (blockages, handovers, multiple flows) ----
SEED000 = "seed 000 (TCP congestion control over 5G mm-wave: blockages, handovers, multiple flows)"

# §III-B text on Fig. 2 (no numbers: the figure is a plot, its values are not in the text).
SEED000_FIG2_CLAIMS = {
    "best": "§III-B: “CUBIC and Scalable are the best performing protocols”",
    "vegas_lowest": "§III-B: “Vegas consistently achieves the lower throughput performance”",
    "aggressive_vary": "§III-B: CUBIC and Scalable “differ considerably from one scenario to "
    "another”; “Both Vegas and YeAH are robust to different types of LOS-NLOS transitions”",
    "nr_ww_rtt": "§III-B: “NewReno and Westwood exhibit less variability in RTT than CUBIC and "
    "Scalable”",
    "yeah_consistent": "§III-B: YeAH “achieves consistent performance in RTT and little "
    "variability in throughput”",
}
# Fig. 2's protocols (§II): NewReno, Scalable, CUBIC, Vegas, Westwood, YeAH.
SEED000_FIG2_CCAS = ("newreno", "scalable", "cubic", "vegas", "westwood", "yeah")

# ---- seed 002: Scharnitzky et al., "TCP SIAD vs BBR over 5G mmWave" -------------------------
SEED002 = "seed 002 (TCP SIAD vs BBR behind a building, ns-3 mmWave)"

#: Table 2 (§4.B): (RLC buffer MB, cca) -> (average throughput Mb/s, average RTT ms).
SEED002_TABLE2 = {
    (4, "siad"): (1157.87, 28.84),
    (4, "bbr"): (819.84, 28.69),
    (7, "siad"): (1289.20, 46.03),
    (7, "bbr"): (1295.10, 45.81),
    (20, "siad"): (1290.57, 46.05),
    (20, "bbr"): (1301.14, 45.76),
    (40, "siad"): (1290.57, 46.05),
    (40, "bbr"): (1301.14, 45.76),
}
#: §4.B text: "(they have a difference of less than 1%)" at 7 MB or more.
SEED002_SAME_ABOVE_7MB = 0.01
#: §4.B: "TCP SIAD could still keep 90% of its utilization" at 4 MB.
SEED002_SIAD_KEEPS_AT_4MB = 0.90
#: §4.B: "it achieved a 41% higher throughput than TCP BBR" at 4 MB.
SEED002_SIAD_OVER_BBR_AT_4MB = 0.41
#: §4.B: "At 4MB buffer the delay was 37% smaller compared to at 7MB buffers".
SEED002_DELAY_DROP_AT_4MB = -0.37
#: §4.A: NLOS from 5 s to 10 s ("after 5 seconds a building ... after another 5 seconds").
SEED002_NLOS_S = (5.0, 10.0)

# ---- seed 001: CUBIC vs YeAH over LTE/mmWave dual connectivity ------------------------------
SEED001 = "seed 001 (TCP CUBIC vs YeAH, dual-connectivity handover, UE speed 1-20 m/s)"
#: Table I / §IV-A: "UE speed used is 1 m/s, 5 m/s, 10 m/s, 15 m/s and 20 m/s".
SEED001_SPEEDS = (1, 5, 10, 15, 20)
#: §V: per additional user speed, CUBIC "increase in the average delay of 40,581 ms and ... a
#: decrease in average throughput of 6,012 Mbps"; YeAH "37,996 ms" and "6,013 Mbps".
SEED001_PER_STEP = {
    "cubic": {"delay_ms": 40.581, "throughput_mbps": -6.012},
    "yeah": {"delay_ms": 37.996, "throughput_mbps": -6.013},
}

# ---- seed 003: TCP Wave over a vertical handover --------------------------------------------
SEED003 = "seed 003 (TCP Wave vs window-based TCP across a vertical handover)"
#: Table 1: recovery time of each TCP version vs the disconnection period HT, per direction.
#: (cca, HT s, direction) -> recovery time; the unit is not in the seed text (seconds assumed).
SEED003_TABLE1 = {
    ("wave", 0.5, "L1->L2"): 81, ("wave", 0.5, "L2->L1"): 327,
    ("wave", 2, "L1->L2"): 3.2, ("wave", 2, "L2->L1"): 1.6,
    ("wave", 10, "L1->L2"): 5.6, ("wave", 10, "L2->L1"): 1.6,
    ("reno", 0.5, "L1->L2"): 271, ("reno", 0.5, "L2->L1"): 6.7,
    ("reno", 2, "L1->L2"): 270, ("reno", 2, "L2->L1"): 7.6,
    ("reno", 10, "L1->L2"): 270, ("reno", 10, "L2->L1"): 10.7,
    ("newreno", 0.5, "L1->L2"): 272, ("newreno", 0.5, "L2->L1"): 16,
    ("newreno", 2, "L1->L2"): 267, ("newreno", 2, "L2->L1"): 17,
    ("newreno", 10, "L1->L2"): 275, ("newreno", 10, "L2->L1"): 21,
    ("tahoe", 0.5, "L1->L2"): 274, ("tahoe", 0.5, "L2->L1"): 5.5,
    ("tahoe", 2, "L1->L2"): 291, ("tahoe", 2, "L2->L1"): 3.6,
    ("tahoe", 10, "L1->L2"): 295, ("tahoe", 10, "L2->L1"): 7.3,
    ("westwoodplus", 0.5, "L1->L2"): 282, ("westwoodplus", 0.5, "L2->L1"): 5,
    ("westwoodplus", 2, "L1->L2"): 282, ("westwoodplus", 2, "L2->L1"): 5.6,
    ("westwoodplus", 10, "L1->L2"): 287, ("westwoodplus", 10, "L2->L1"): 32,
}  # fmt: skip

# ---- seed 004: TCP over a mesh backhaul (BP-MR vs OLSR) -------------------------------------
SEED004 = "seed 004 (TCP over an LTE small-cell mesh backhaul: BP-MR vs OLSR)"
#: The paper's claims the seed 004 targets test (ccsim.targets_seed004), with their source.
SEED004_CLAIMS = {
    "per_flow_shortest": "§3.2: “by using BP-MR per-flow the flows experience the smallest file "
    "download times”",
    "per_packet_worst": "§3.2: per-packet “has the higher times of the entire set of protocols”",
    "olsr_between": "§3.2: “whereas OLSR is between the two”",
    "per_packet_unfair": "§3.2: per-packet “exhibits a high degree of variability, indicating a "
    "poor fairness”",
    "per_flow_highest_rtt": "§3.2: “BP-MR per-flow experiences the highest RTT values”",
    "grows_with_ues": "§3.2: “the download time increases for all the variants”",
    "vegas_insensitive": "§3.3: for Vegas “the performance for RTT and throughput are "
    "practically the same, regardless of the routing protocols”",
    "per_flow_best_all_loss_based": "§3.3: “for loss-based TCP BP-MR per-flow significantly "
    "improves the TCP performance”",
    "vegas_slowest": "§3.3: “In average, however, the worst throughput performance is achieved "
    "by Vegas”",
    "vegas_lowest_rtt": "§3.3: Vegas' RTT “is also the smallest registered”",
    "scalable_fastest": "§3.3: “The smallest average finish time ... is achieved with Scalable”",
    "udp_delivered": "§3.5: “The routing protocols can deliver more than the 95% of the traffic "
    "(with per-flow and per-packet up to 100%)”; OLSR lower (its start-up)",
    "udp_trend_unchanged": "§3.5: “the increased load on the backhaul is not reflected”; "
    "per-packet “is generally performing worst”",
    "vegas_udp_olsr_eq_flow": "§3.5: “TCP performance on top of OLSR and BP-MR per-flow are "
    "practically the same”",
    "highspeed_udp_grows": "§3.5: “even if very slowly, the average download time increases "
    "with the increase of the load”",
    "modena_bp_rtt_above_olsr": "§4.1: “Backpressure protocols still have bigger RTT than OLSR”",
    "tree_bp_before_olsr": "§4.1: “not only per-flow have better throughput performance, but also "
    "with per-packet the flows can complete the download earlier than OLSR”",
    "redundant_order": "§4.1: “per-packet is penalized by the abundance of available paths, "
    "while per-flow can exploit the increased redundancy, outperforming OLSR”",
    "jfi": "§4.2, Figs. 13-14",
}
#: §4.2: Jain's index of goodput, (topology) -> routing -> value read from the text: “close to
#: 0.6 for all routing protocols” (tree); OLSR “near 0.6”, per-packet “0.4”, per-flow “0.8”
#: (redundant).
SEED004_JFI = {
    "modena_tree": {"olsr": 0.6, "bp_per_packet": 0.6, "bp_per_flow": 0.6},
    "modena_redundant": {"olsr": 0.6, "bp_per_packet": 0.4, "bp_per_flow": 0.8},
}
_SEED004_CWND = (
    "one UE's cwnd over time, a picture without numbers: `ccsim run` records every flow's cwnd "
    "(flow_timeseries.parquet), but no target compares it"
)

#: A paragraph under each paper's heading in docs/reproductions.md: what holds for all its
#: targets (the per-target notes say the rest). Kept here so `ccsim reproduce --all` writes it.
PAPER_NOTES = {
    SEED000: (
        "Each claim the calibrated files miss is also run on ns3-mmwave's radio "
        "(`experiments/seed000_ns3mmwave.toml` and the `studies/seed000_*_ns3mmwave.toml` "
        "files: the tree's frame, MCS table and lagging CQI, 100 ms fading blocks, UMi NLOS "
        "behind the building, the tree's shadowing and its measured MCS gap, "
        "`validation/ns3-mmwave/seed000_link_stats.py`); those rows are marked "
        '"ns3-mmwave". Fig. III-B\'s runs in the ns3-mmwave tree itself '
        "(`validation/ns3-mmwave/run_seed000_reference.py`, seed 1 with the three settings, "
        'seeds 2 and 3 with RLC and RLC + RTO) give the row "ns3-mmwave tree itself"; '
        "validation/report.md (seed 000 in the ns3-mmwave section) compares them phase by "
        "phase. The notes under each table name the mechanism behind each miss; the what-if "
        "runs (RLC UM, no X2 forwarding, SACK off, seed 001 over the crossing alone) are in "
        'docs/radio.md, "Seeds 000 and 001 on ns3-mmwave\'s radio".'
    ),
    SEED001: (
        "The tables come from the 40 runs of `studies/seed001_speed.toml` (both connectivity "
        "modes). Each figure is drawn twice: as the paper plots it, the metric over time with "
        "one curve per UE speed (its text reads each figure by how the curves move: at 1-5 m/s "
        "“a small increase in delay”, at 10-20 m/s “a fluctuating delay increase”; the "
        "extracted text has the captions, not the plots), from the 20 dual-connectivity runs of "
        "`studies/seed001_speed_series.toml`, which keep the time series; and as the run mean "
        "per speed, the quantity of the paper's §V numbers and of the rows. The handover fires at every speed (into LTE behind the building "
        "and back), but with RLC AM and X2 forwarding, which is ns3-mmwave's behaviour, it "
        "loses nothing and TCP retransmits nothing, so single and dual connectivity differ "
        "only by a slightly longer stall twice per run. Nothing in the radio degrades with "
        "speed; the speed changes the make-up of a run (crossing + 2 s of mmWave LOS), so LTE's "
        "share of the run falls with speed and CUBIC's mean throughput rises. Measured over the "
        'crossing alone CUBIC falls with speed instead (docs/radio.md, "Seeds 000 and 001 on '
        "ns3-mmwave's radio\"): the sign of the trend depends on the run length, which the "
        "paper does not give."
    ),
}

_ILLUSTRATION = "an illustration"
_INPUT = "the paper's input parameters, used by the scenario files"
#: Reasons that say an item is not a result (nothing to reproduce).
NOT_RESULTS = (_ILLUSTRATION, _INPUT)

ITEMS: tuple[Item, ...] = (
    Item("seed000-fig1", SEED000, "Fig. 1 (“Fig. III-B” in §III-B)",
         "CUBIC throughput: baseline vs RLC 7 MB vs RLC + lower RTO, three blockage scenarios", True),
    Item("seed000-fig2", SEED000, "Fig. 2",
         "throughput-RTT plane of six protocols over three blockage scenarios", True),
    Item("seed000-fig3a", SEED000, "Fig. 3(a)", "street geometry: 3 APs, lampposts, a truck", True),
    Item("seed000-fig3b", SEED000, "Fig. 3(b)",
         "SINR along the street and throughput of CUBIC and YeAH through the handovers", True),
    Item("seed000-fig4", SEED000, "Fig. 4", "10 UEs and 4 APs: the multi-flow geometry", True),
    Item("seed000-fig5", SEED000, "Fig. 5", "transmitted packets per AP, CUBIC vs YeAH", True),
    Item("seed000-fig6", SEED000, "Fig. 6", "packets received per UE with and without UE0", True),
    Item("seed000-table1", SEED000, "Table I", "UE applications", False, _INPUT),
    Item("seed001-fig1", SEED001, "Fig. 1", "5G frequency band", False, _ILLUSTRATION),
    Item("seed001-fig2", SEED001, "Fig. 2", "dual-connectivity handover system", False, _ILLUSTRATION),
    Item("seed001-fig3", SEED001, "Fig. 3", "scenario topology", False, _ILLUSTRATION),
    Item("seed001-table1", SEED001, "Table I", "simulation scenarios", False, _INPUT),
    Item("seed001-fig4", SEED001, "Fig. 4", "CUBIC delay vs UE speed", True),
    Item("seed001-fig5", SEED001, "Fig. 5", "CUBIC throughput vs UE speed", True),
    Item("seed001-fig6", SEED001, "Fig. 6", "YeAH delay vs UE speed", True),
    Item("seed001-fig7", SEED001, "Fig. 7", "YeAH throughput vs UE speed", True),
    Item("seed002-fig1", SEED002, "Fig. 1", "class inheritance of TcpSiad", False, _ILLUSTRATION),
    Item("seed002-table1", SEED002, "Table 1", "ns-3 configuration parameters", False, _INPUT),
    Item("seed002-table2", SEED002, "Table 2",
         "average throughput and RTT of SIAD and BBR per RLC buffer size", True),
    Item("seed002-fig2", SEED002, "Fig. 2", "throughput and delay over time, RLC 7 MB", True),
    Item("seed002-fig3", SEED002, "Fig. 3", "throughput and delay over time, RLC 4 MB", True),
    Item("seed003-table1", SEED003, "Table 1",
         "recovery time of Wave, Reno, NewReno, Tahoe, Westwood+ vs outage HT", True),
    *(
        Item(f"seed004-fig{n}", SEED004, f"Figure {n}", title, runnable, reason)
        for n, title, runnable, reason in (
            (1, "full mesh topology", False, _ILLUSTRATION),
            (2, "RTT and download time vs number of UEs (CUBIC)", True, ""),
            (3, "download time and RTT per TCP variant, 100 UEs", True, ""),
            (4, "Vegas cwnd evolution for one UE", False, _SEED004_CWND),
            (5, "HighSpeed cwnd evolution for one UE", False, _SEED004_CWND),
            (6, "Vegas download time vs backhaul load", True, ""),
            (7, "HighSpeed download time vs backhaul load", True, ""),
            (8, "Modena real topology", False, _ILLUSTRATION),
            (9, "RTT of 75 CUBIC flows, plain-tree Modena", True, ""),
            (10, "finish time of 75 CUBIC flows, plain-tree Modena", True, ""),
            (11, "RTT of 75 CUBIC flows, redundant Modena", True, ""),
            (12, "finish time of 75 CUBIC flows, redundant Modena", True, ""),
            (13, "Jain's index, plain-tree Modena", True, ""),
            (14, "Jain's index, redundant Modena", True, ""),
        )
    ),
)  # fmt: skip

BY_ID = {i.id: i for i in ITEMS}
