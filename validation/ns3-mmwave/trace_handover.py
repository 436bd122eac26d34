#!/usr/bin/env python3
"""Traced rerun of the CUBIC handover reference (issue 15): why the tree's TCP flow dies after
secondary-cell handovers in seeds 2 and 3 (validation/ns3-mmwave/README.md, section 8).

    # 1. run the traced program in the tree (about 10 min of wall time per seed under load):
    python3 validation/ns3-mmwave/trace_handover.py run --seeds 2 3
    # 2. reduce the raw traces to golden files (and check the run is the golden run):
    python3 validation/ns3-mmwave/trace_handover.py reduce --seeds 2 3
    # 3. print the mechanism from the committed golden files (no tree needed):
    python3 validation/ns3-mmwave/trace_handover.py explain --seeds 2 3
    # 4. ccsim against the tree per phase, only while the tree's TCP path is alive:
    python3 validation/ns3-mmwave/trace_handover.py alive --seeds 1 2 3   # needs `import ccsim`

`run` executes scenarios/ccsim-handover-trace.cc (built by setup.sh: ccsim-handover.cc itself,
included unchanged, plus trace hooks) with the arguments of the golden run
handover_<cc>_dc_s<seed>.json (`--cc TcpNewReno` for the NewReno one), writing raw CSVs to
build/traces/<cc>_s<seed>/ (git-ignored, ~40 MB a seed).

`reduce` writes, per seed, to validation/golden/ns3-mmwave/:
- handover_trace_cubic_s<seed>_rlc.csv.gz: every RLC AM entity's state (VT(A), VT(S), VR(R),
  VR(H), reception buffer, re-segmentation, buffers), one row per change, with the entity's side
  (ue/enb), cell and RNTI;
- handover_trace_cubic_s<seed>_1ms.csv.gz: per millisecond, TCP at the sender (new and
  retransmitted segments, highest ACK, SACK), at the UE's IP layer (data segments in, the
  cumulative ACK and window out), in-order bytes to the application, the UE's PDCP and RLC
  PDUs, X2 data bytes per cell pair and corrupt TBs per cell;
- handover_trace_cubic_s<seed>_events.csv.gz: RRC handover events and the sender's CongState
  changes (an RTO is an entry into CA_LOSS);
- handover_trace_cubic_s<seed>_segments.csv.gz: every TCP segment and ACK at the sender and at
  the UE (and the sender's cwnd / CongState) in the quiet tail, from the end of the last 10 ms
  in which the sender sent more than 10 segments.
It refuses to write them unless the traced run's goodput equals the golden run's every 10 ms up
to the end of the traced time (the hooks must not change the run).

`explain` reads those files and prints, per handover, what each RLC AM entity did, where the
TCP bytes stopped, and the RTO cycles of the quiet tail.

`alive` runs ccsim's experiments/ns3mmwave_handover.toml (CUBIC, the seed's run.seed) and
compares it with the golden run per phase, each phase cut at the tree's last 10 ms with at
least 10 Mb/s of in-order goodput: after that the tree's path is dead for a defect of the tree
(README.md section 8), so its numbers are no target.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent / "golden" / "ns3-mmwave"
RAW = HERE / "build" / "traces"
DEFAULT_TREE = HERE / "build" / "tree"
RAW_FILES = (
    "events",
    "rlc_ent",
    "rlc_state",
    "rlc_pdu",
    "tcp_tx",
    "tcp_ack",
    "tcp_state",
    "ue_ip",
    "sink",
    "pdcp",
    "x2",
    "tb",
)


def short(cc: str) -> str:
    """`cubic` for TcpCubic: the TCP as the golden file names spell it."""
    return cc.lower().removeprefix("tcp")


def golden_run(seed: int, cc: str = "TcpCubic") -> dict:
    path = GOLDEN / f"handover_{short(cc)}_dc_s{seed}.json"
    if not path.exists():
        sys.exit(f"error: {path} missing: the traced rerun follows a golden run (run_handover.py)")
    return json.loads(path.read_text())


def program_args(seed: int, sim_time: float, cc: str) -> list[str]:
    """The golden run's arguments with --time and --out replaced (the flow dies by 5 s in seeds
    2/3)."""
    args = golden_run(seed, cc)["command"].split()[1:]
    keep = [a for a in args if not a.startswith(("--time=", "--out="))]
    return keep + [f"--time={sim_time:g}"]


def cmd_run(a: argparse.Namespace) -> None:
    binary = a.tree / "build" / "scratch" / "ccsim-handover-trace"
    if not binary.exists():
        sys.exit(f"error: {binary} missing: run validation/ns3-mmwave/setup.sh")
    for seed in a.seeds:
        out = a.raw / f"{short(a.cc)}_s{seed}"
        out.mkdir(parents=True, exist_ok=True)
        cmd = ["nice", "-n", str(a.nice), str(binary), *program_args(seed, a.time, a.cc)]
        # The included golden program writes its own per-ms CSV; the hooks write trace.*.csv.
        cmd += [f"--out={out / 'golden.csv'}", f"--traceOut={out / 'trace'}"]
        env = dict(os.environ, LD_LIBRARY_PATH=str(a.tree / "build" / "lib"))
        print(f"== seed {seed}: {' '.join(cmd)}", flush=True)
        t0 = time.monotonic()
        proc = subprocess.run(cmd, cwd=out, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"error: seed {seed} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        (out / "wall_s.txt").write_text(f"{time.monotonic() - t0:.1f}\n")


def read_raw(raw: Path, name: str) -> list[dict]:
    path = raw / f"trace.{name}.csv"
    if not path.exists():
        sys.exit(f"error: {path} missing (run `trace_handover.py run` first)")
    with path.open() as f:
        return list(csv.DictReader(f))


def check_same_run(seed: int, sink: list[dict], end_us: int, cc: str) -> None:
    """The traced run must be the golden run: equal goodput in every 10 ms bin."""
    with gzip.open(GOLDEN / f"handover_{short(cc)}_dc_s{seed}_10ms.csv.gz", "rt") as f:
        golden = {round(float(r["t_s"]) * 100): float(r["goodput_mbps"]) for r in csv.DictReader(f)}
    traced: dict[int, int] = defaultdict(int)
    for r in sink:
        traced[int(r["t_us"]) // 10_000] += int(r["bytes"])
    for k in range(end_us // 10_000):
        mbps = traced.get(k, 0) * 8 / 0.01 / 1e6
        if abs(mbps - golden.get(k, 0.0)) > 0.01:
            sys.exit(
                f"error: seed {seed}: the traced run differs from the golden run at {k * 10} ms "
                f"({mbps:.2f} vs {golden.get(k, 0.0):.2f} Mb/s): the hooks changed the run"
            )


def write_gz(path: Path, header: list[str], rows: list[list]) -> None:
    with gzip.open(path, "wt", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    print(f"   {path.name}: {len(rows)} rows, {path.stat().st_size / 1000:.0f} kB")


def reduce_rlc(raw: Path) -> tuple[list[str], list[list]]:
    ents = {r["id"]: r for r in read_raw(raw, "rlc_ent")}
    rows = read_raw(raw, "rlc_state")
    cols = [c for c in rows[0] if c not in ("t_us", "id")]
    header = ["t_us", "id", "side", "cell", "rnti", *cols]
    out = []
    for r in rows:
        e = ents[r["id"]]
        out.append([r["t_us"], r["id"], e["side"], e["cell"], e["rnti"], *(r[c] for c in cols)])
    return header, out


def reduce_1ms(raw: Path, end_us: int) -> tuple[list[str], list[list]]:
    n = end_us // 1000 + 1
    cols: dict[str, list] = {}

    def ms(r: dict) -> int:
        return min(int(r["t_us"]) // 1000, n)

    def col(name: str, init=0) -> list:
        return cols.setdefault(name, [init] * (n + 1))  # [n]: rows past the end, dropped

    high_sent = 0
    for r in read_raw(raw, "tcp_tx"):
        i, seq, ln = ms(r), int(r["seq"]), int(r["len"])
        if seq < high_sent:
            col("snd_retx")[i] += 1
            col("snd_retx_min_seq", -1)[i] = (
                seq if col("snd_retx_min_seq", -1)[i] < 0 else min(seq, cols["snd_retx_min_seq"][i])
            )
        else:
            col("snd_new")[i] += 1
        high_sent = max(high_sent, seq + ln)
        col("snd_high_seq")[i] = high_sent
    for r in read_raw(raw, "tcp_ack"):
        i = ms(r)
        col("snd_acks")[i] += 1
        col("snd_ack")[i] = max(col("snd_ack")[i], int(r["ack"]))
        col("snd_sack_high")[i] = max(col("snd_sack_high")[i], int(r["sack_high"]))
    for r in read_raw(raw, "ue_ip"):
        i = ms(r)
        if r["dir"] == "rx" and int(r["len"]) > 0:
            col("ue_rx_segs")[i] += 1
            seq = int(r["seq"])
            cur = col("ue_rx_min_seq", -1)[i]
            cols["ue_rx_min_seq"][i] = seq if cur < 0 else min(cur, seq)
            col("ue_rx_max_seq")[i] = max(col("ue_rx_max_seq")[i], seq)
        elif r["dir"] == "tx":
            col("ue_acks")[i] += 1
            col("ue_ack")[i] = max(col("ue_ack")[i], int(r["ack"]))
            col("ue_win")[i] = int(r["win"])
        elif r["dir"].startswith("drop"):
            col("ue_ip_drops")[i] += 1
    for r in read_raw(raw, "sink"):
        col("sink_bytes")[ms(r)] += int(r["bytes"])
    for r in read_raw(raw, "pdcp"):
        col("ue_pdcp_bytes")[ms(r)] += int(r["bytes"])
    ents = {r["id"]: r for r in read_raw(raw, "rlc_ent")}
    for r in read_raw(raw, "rlc_pdu"):
        e = ents[r["id"]]
        i = ms(r)
        if e["side"] == "ue" and r["dir"] == "rx":
            col("ue_rlc_rx_bytes")[i] += int(r["bytes"])
        elif e["side"] == "ue":
            col("ue_rlc_tx_bytes")[i] += int(r["bytes"])  # status PDUs (uplink data is off)
        elif r["dir"] == "tx":
            col(f"c{e['cell']}_rlc_tx_bytes")[i] += int(r["bytes"])
    for r in read_raw(raw, "x2"):
        if r["kind"] == "data":
            col(f"x2_{r['from_cell']}to{r['to_cell']}_bytes")[ms(r)] += int(r["bytes"])
    for r in read_raw(raw, "tb"):
        if r["corrupt"] == "1":
            col(f"c{r['cell']}_tb_corrupt")[ms(r)] += 1
    # Carry the running maxima forward so that every row states the level at that millisecond.
    for name in ("snd_high_seq", "snd_ack", "ue_ack"):
        c = col(name)
        for i in range(1, n + 1):
            c[i] = max(c[i], c[i - 1])
    names = sorted(cols)
    rows = [[i, *(cols[c][i] for c in names)] for i in range(n)]
    return ["t_ms", *names], rows


def quiet_from(raw: Path) -> int:
    """Start of the tail where the sender sends at most 10 segments per 10 ms (µs)."""
    busy: dict[int, int] = defaultdict(int)
    for r in read_raw(raw, "tcp_tx"):
        busy[int(r["t_us"]) // 10_000] += 1
    return (max(k for k, n in busy.items() if n > 10) + 1) * 10_000


def reduce_segments(raw: Path, t0: int) -> tuple[list[str], list[list]]:
    """Every TCP segment and ACK from t0 on, at the sender and at the UE; runs of identical ACK
    rows are one row with their count."""
    rows: list[list] = []
    for r in read_raw(raw, "tcp_tx"):
        if int(r["t_us"]) >= t0:
            rows.append([int(r["t_us"]), "snd_tx", r["seq"], r["len"], "", "", "", 1])
    for r in read_raw(raw, "tcp_ack"):
        if int(r["t_us"]) >= t0:
            rows.append([int(r["t_us"]), "snd_ack", "", "", r["ack"], r["win"], r["sack_high"], 1])
    for r in read_raw(raw, "ue_ip"):
        if int(r["t_us"]) < t0:
            continue
        if r["dir"] == "rx" and int(r["len"]) > 0:
            rows.append([int(r["t_us"]), "ue_rx", r["seq"], r["len"], "", "", "", 1])
        elif r["dir"] == "tx":
            rows.append([int(r["t_us"]), "ue_ack", "", "", r["ack"], r["win"], r["sack_high"], 1])
    for r in read_raw(raw, "sink"):
        if int(r["t_us"]) >= t0:
            rows.append([int(r["t_us"]), "app_rx", "", r["bytes"], "", "", "", 1])
    for r in read_raw(raw, "tcp_state"):
        if int(r["t_us"]) >= t0 and r["what"] in ("cong_state", "cwnd", "ssthresh"):
            rows.append([int(r["t_us"]), r["what"], r["value"], "", "", "", "", 1])
    rows.sort(key=lambda r: r[0])
    out: list[list] = []
    for r in rows:
        if out and r[1] in ("snd_ack", "ue_ack") and out[-1][1] == r[1] and out[-1][4:7] == r[4:7]:
            out[-1][7] += 1
        else:
            out.append(r)
    return ["t_us", "event", "seq_or_value", "len", "ack", "win", "sack_high", "count"], out


def cmd_reduce(a: argparse.Namespace) -> None:
    for seed in a.seeds:
        raw = a.raw / f"{short(a.cc)}_s{seed}"
        sink = read_raw(raw, "sink")
        end_us = max(
            int(r["t_us"]) for name in ("tcp_tx", "rlc_state") for r in read_raw(raw, name)
        )
        check_same_run(seed, sink, end_us, a.cc)
        print(f"== seed {seed}: traced run equals the golden run to {end_us / 1e6:.2f} s")
        base = GOLDEN / f"handover_trace_{short(a.cc)}_s{seed}"
        write_gz(Path(f"{base}_rlc.csv.gz"), *reduce_rlc(raw))
        write_gz(Path(f"{base}_1ms.csv.gz"), *reduce_1ms(raw, end_us))
        events = [
            [r["t_us"], "rrc", r["kind"], r["cell_id"], r["other"]] for r in read_raw(raw, "events")
        ]
        events += [
            [r["t_us"], "tcp", r["what"], r["value"], ""]
            for r in read_raw(raw, "tcp_state")
            if r["what"] == "cong_state"
        ]
        events.sort(key=lambda r: int(r[0]))
        write_gz(Path(f"{base}_events.csv.gz"), ["t_us", "layer", "what", "value", "other"], events)
        write_gz(Path(f"{base}_segments.csv.gz"), *reduce_segments(raw, quiet_from(raw)))


def read_gz(seed: int, part: str, cc: str = "TcpCubic") -> list[dict]:
    path = GOLDEN / f"handover_trace_{short(cc)}_s{seed}_{part}.csv.gz"
    if not path.exists():
        sys.exit(f"error: {path} missing (trace_handover.py reduce --seeds {seed})")
    with gzip.open(path, "rt") as f:
        return list(csv.DictReader(f))


def incomplete(r: dict) -> str:
    """The lowest incomplete SN and its byte range (columns of the later program version)."""
    if r.get("inc_sn", "-1") in ("-1", None, ""):
        return "-" if "inc_sn" in r else "(not recorded)"
    return f"{r['inc_sn']}: bytes {r['inc_from']}-{r['inc_to']} in {r['inc_segs']} segment(s)"


def stale_first_states(rlc: list[dict], events: list[dict]) -> list[dict]:
    """Each UE RLC entity created at a secondary-cell switch, with its first polled state and
    whether it already held an SN its new cell had not sent yet (a PDU from the old cell)."""
    switches = [int(e["t_us"]) for e in events if e["what"] == "switch_to_mmwave"]
    first: dict[str, dict] = {}
    for r in rlc:
        first.setdefault(r["id"], r)
    enb_vts: dict[str, list[dict]] = defaultdict(list)
    for r in rlc:
        if r["side"] == "enb":
            enb_vts[r["id"]].append(r)
    out = []
    for r in first.values():
        t = int(r["t_us"])
        if r["side"] != "ue" or not any(0 <= t - s < 2000 for s in switches[1:]):
            continue
        # The gNB entity created at the same switch: what it had sent by then (VT(S)).
        peers = [rows for rows in enb_vts.values() if 0 <= t - int(rows[0]["t_us"]) <= 2000]
        sent = max(
            (int(x["vt_s"]) for rows in peers for x in rows if int(x["t_us"]) <= t), default=0
        )
        out.append({**r, "new_cell_vt_s": sent, "stale": int(r["vr_h"]) > sent})
    return out


def stuck_tail(rlc: list[dict], side: str) -> dict | None:
    """The newest entity of a side and how long its VR(R) (ue) or VT(A) (enb) has not moved."""
    rows = [r for r in rlc if r["side"] == side]
    if not rows:
        return None
    last_id = max(rows, key=lambda r: int(r["t_us"]))["id"]
    mine = [r for r in rows if r["id"] == last_id]
    key = "vr_r" if side == "ue" else "vt_a"
    since = int(mine[-1]["t_us"])
    for r in reversed(mine):
        if r[key] != mine[-1][key]:
            break
        since = int(r["t_us"])
    return {**mine[-1], "key": key, "since_us": since, "rows": mine}


def lockstep_cycles(seg: list[dict]) -> list[dict]:
    """RTO cycles of a one-segment window: per entry into CA_LOSS, the segment resent, when the
    UE first received it and when the UE acknowledged it."""
    first_rx: dict[str, int] = {}
    acks: list[tuple[int, int]] = []
    for r in seg:
        if r["event"] == "ue_rx":
            first_rx.setdefault(r["seq_or_value"], int(r["t_us"]))
        elif r["event"] == "ue_ack":
            acks.append((int(r["t_us"]), int(r["ack"])))
    sent_at: dict[int, dict] = {}
    for r in seg:
        if r["event"] == "snd_tx":
            sent_at.setdefault(int(r["t_us"]), r)
    cycles = []
    for r in seg:
        if r["event"] != "cong_state" or r["seq_or_value"] != "CA_LOSS":
            continue
        t = int(r["t_us"])
        resent = sent_at.get(t)  # the RTO resends SND.UNA at once
        if resent is None:
            continue
        seq = resent["seq_or_value"]
        end = int(seq) + int(resent["len"])
        rx = first_rx.get(seq)
        ack = next((ta for ta, a in acks if a >= end and (rx is None or ta >= rx)), None)
        cycles.append({"rto_us": t, "seq": seq, "ue_first_rx_us": rx, "ue_ack_us": ack})
    return cycles


def cmd_explain(a: argparse.Namespace) -> None:
    for seed in a.seeds:
        events = read_gz(seed, "events", a.cc)
        rlc = read_gz(seed, "rlc", a.cc)
        ms = read_gz(seed, "1ms", a.cc)
        seg = read_gz(seed, "segments", a.cc)
        hos = [e for e in events if e["what"] == "enb_ho_start"]
        print(
            f"== seed {seed}: secondary-cell handovers "
            + ", ".join(f"{e['value']}->{e['other']} {int(e['t_us']) / 1e6:.3f} s" for e in hos)
        )
        delivered = [int(r["t_ms"]) for r in ms if int(r["sink_bytes"]) > 0]
        big = [int(r["t_ms"]) for r in ms if int(r["sink_bytes"]) >= 14_000]
        print(
            f"   last in-order bytes to the application: {delivered[-1] / 1e3:.3f} s; last ms "
            f"with >= 10 segments: {big[-1] / 1e3:.3f} s; traced to {len(ms) / 1e3:.2f} s"
        )
        for r in stale_first_states(rlc, events):
            print(
                f"   UE RLC {r['id']} (new at {int(r['t_us']) / 1e6:.3f} s, RNTI {r['rnti']}): "
                f"VR(H) {r['vr_h']} while its cell had sent SNs below {r['new_cell_vt_s']}; "
                f"{r['rxon_incomplete']} incomplete SN(s) {incomplete(r)} -> "
                + ("a PDU of the OLD cell" if r["stale"] else "clean")
            )
        ue, enb = stuck_tail(rlc, "ue"), stuck_tail(rlc, "enb")
        if ue and enb:
            print(
                f"   end: UE RLC {ue['id']} VR(R) = {ue['vr_r']} since {ue['since_us'] / 1e6:.3f} s"
                f" (VR(H) {ue['vr_h']}, {ue['rxon_sns']} SNs held, VR(R) held as "
                f"{ue['vr_r_segs']} byte segment(s), incomplete SN(s) {incomplete(ue)}); "
                f"gNB RLC {enb['id']} (cell "
                f"{enb['cell']}) VT(A) = {enb['vt_a']} since {enb['since_us'] / 1e6:.3f} s"
            )
            resends = sum(
                1
                for p, q in zip(enb["rows"], enb["rows"][1:])
                if int(q["retx_bytes"]) > 0
                and int(p["retx_bytes"]) == 0
                and int(q["t_us"]) >= enb["since_us"]
            )
            print(
                f"   gNB moved its unacknowledged PDU(s) to retransmission {resends} times "
                f"after VT(A) stopped"
            )
        if not seg:
            print("   no quiet tail: the sender kept sending to the end of the trace")
            continue
        tail_tx = [r for r in seg if r["event"] == "snd_tx"]
        reached = {r["seq_or_value"] for r in seg if r["event"] == "ue_rx"}
        print(
            f"   quiet tail from {int(seg[0]['t_us']) / 1e6:.3f} s: the sender sent "
            f"{len(tail_tx)} segments (at "
            + ", ".join(f"{int(r['t_us']) / 1e6:.3f}" for r in tail_tx[:8])
            + (" ..." if len(tail_tx) > 8 else "")
            + f" s), {sum(r['seq_or_value'] in reached for r in tail_tx)} reached the UE's IP"
        )
        cycles = lockstep_cycles(seg)
        if cycles:
            print(f"   entries into CA_LOSS (RTO) in the quiet tail: {len(cycles)}")
            for c in cycles[:6]:
                rx, ack = c["ue_first_rx_us"], c["ue_ack_us"]
                gap = f"{(ack - rx) / 1e3:.1f} ms after it arrived" if rx and ack else "never"
                arrived = f"{rx / 1e6:.4f} s" if rx else "never"
                print(
                    f"     RTO {c['rto_us'] / 1e6:.4f} s resends seq {c['seq']}: first copy at "
                    f"the UE {arrived}, UE's ACK {gap}"
                )


def tree_window(seed: int, a: float, b: float) -> dict:
    """The golden run's goodput, RTT (mean of the 10 ms bins' per-ACK means), retransmitted
    segments and RTOs in [a, b), from its 10 ms series."""
    with gzip.open(GOLDEN / f"handover_cubic_dc_s{seed}_10ms.csv.gz", "rt") as f:
        rows = [r for r in csv.DictReader(f) if a - 1e-9 <= float(r["t_s"]) < b - 1e-9]
    rtts = [float(r["rtt_ms"]) for r in rows if r["rtt_ms"]]
    return {
        "goodput_mbps": sum(float(r["goodput_mbps"]) for r in rows) * 0.01 / (b - a),
        "rtt_ms": sum(rtts) / len(rtts) if rtts else float("nan"),
        "retx_segs": sum(int(float(r["retx_segs"])) for r in rows),
        "rtos": sum(int(float(r["rtos"])) for r in rows),
    }


def alive_until(seed: int) -> float:
    """The last in-order delivery of the golden run before the end (its path is dead after)."""
    with gzip.open(GOLDEN / f"handover_cubic_dc_s{seed}_10ms.csv.gz", "rt") as f:
        rows = list(csv.DictReader(f))
    busy = [float(r["t_s"]) for r in rows if float(r["goodput_mbps"]) >= 10.0]
    return round(busy[-1] + 0.01, 2)


def cmd_alive(a: argparse.Namespace) -> None:
    """Per phase, ccsim against the tree only where the tree's TCP path is alive."""
    sys.path.insert(0, str(HERE))
    from compare_handover import run_ccsim, window  # noqa: PLC0415 (needs `import ccsim`)

    print(
        "| seed | window (s) | goodput ccsim / tree (Mb/s) | RTT ccsim / tree (ms) | "
        "retx ccsim / tree | RTOs ccsim / tree |"
    )
    print("|---|---|---|---|---|---|")
    for seed in a.seeds:
        run = golden_run(seed)
        end = float(run["sim_time_s"])
        dead = alive_until(seed)
        ours = run_ccsim("TcpCubic", seed, [], end)
        for name, (lo, hi) in run["phase_bounds_s"].items():
            hi = min(hi, dead)
            if hi - lo < 0.2:
                print(
                    f"| {seed} | {name} {lo:g}-{run['phase_bounds_s'][name][1]:g} | tree dead "
                    f"from {dead:g} s: not compared | | | |"
                )
                continue
            c, t = window(ours["fs"], lo, hi), tree_window(seed, lo, hi)
            print(
                f"| {seed} | {name} {lo:g}-{hi:g} | {c['goodput_mbps']:.1f} / "
                f"{t['goodput_mbps']:.1f} | {c['rtt_ms']:.1f} / {t['rtt_ms']:.1f} | "
                f"{c['retx_segs']} / {t['retx_segs']} | {c['rtos']} / {t['rtos']} |"
            )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "reduce", "explain", "alive"):
        p = sub.add_parser(name)
        p.add_argument("--seeds", nargs="+", type=int, default=[2, 3])
        p.add_argument("--raw", type=Path, default=RAW, help="raw trace directory")
        p.add_argument("--cc", default="TcpCubic", help="the golden run's TCP")
        if name == "run":
            p.add_argument(
                "--tree", type=Path, default=Path(os.environ.get("NS3_MMWAVE_TREE", DEFAULT_TREE))
            )
            p.add_argument("--time", type=float, default=6.5, help="simulated time (s)")
            p.add_argument("--nice", type=int, default=10)
    a = ap.parse_args()
    cmds = {"run": cmd_run, "reduce": cmd_reduce, "explain": cmd_explain, "alive": cmd_alive}
    cmds[a.cmd](a)


if __name__ == "__main__":
    main()
