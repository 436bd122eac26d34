"""The mechanisms read from the traced reruns (trace_reference.py): each function takes the
rows of the reduced traces and returns the figures validation/report.md quotes.

- rlc_stalls: the gNB's VT(A) (and the UE's VR(R)) stuck on one SN while that SN is
  retransmitted whole again and again (lte-rlc-am.cc: a complete PDU arriving for an SN that
  holds an incomplete segment set is ignored).
- bandwidth_collapse: BBR's bandwidth filter falling to a sample of ns-3.33's rate estimator
  whose ACK interval runs from time 0 (tcp-rate-ops.cc: m_ackElapsed from the previous,
  zeroed, prior time), and the pacing timer it then sets.
- recoveries: TCP's entries into recovery/RTO with the radio and RLC state before them.
- reordering: what the UE's IP layer received (SIAD 7 MB seed 4: every datagram, but
  fragments of consecutive datagrams interleaved, so TCP got segments out of order and its
  recovery at 5.22 s retransmitted segments the UE already had).
"""

from __future__ import annotations

import csv
import gzip
from pathlib import Path

CA_RECOVERY = 3
CA_LOSS = 4


def read(path: Path) -> list[dict[str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return list(csv.DictReader(f))


def t_s(row: dict[str, str]) -> float:
    return int(row["t_us"]) / 1e6


def rlc_stalls(rlc: list[dict], pdu: list[dict], tb: list[dict], min_ms: int = 100) -> list[dict]:
    """Intervals where VT(A) does not move for >= min_ms while PDUs wait for acknowledgement."""
    out = []
    start = None
    for prev, row in zip(rlc, rlc[1:]):
        stuck = row["vt_a"] == prev["vt_a"] and int(row["txed_n"]) > 0
        if stuck and start is None:
            start = prev
        elif not stuck and start is not None:
            if int(row["t_us"]) - int(start["t_us"]) >= min_ms * 1000:
                out.append(describe_stall(start, prev, row, pdu, tb))
            start = None
    # A stall still running when the trace ends (seed 7's, which lasts to the end of the run).
    if start is not None and int(rlc[-1]["t_us"]) - int(start["t_us"]) >= min_ms * 1000:
        out.append(describe_stall(start, rlc[-1], rlc[-1], pdu, tb))
    return out


def describe_stall(start: dict, last: dict, end: dict, pdu: list[dict], tb: list[dict]) -> dict:
    a, b = t_s(start), t_s(end)
    during = [p for p in pdu if a <= t_s(p) < b]
    ue_rx = [p for p in during if p["who"] == "ue" and p["dir"] == "rx"]
    ue_rx_stuck = [p for p in ue_rx if p["ue_vr_r"] == start["vt_a"]]
    tbs = [r for r in tb if a <= t_s(r) < b and int(r["num_sym"]) > 2]
    big = [int(p["bytes"]) for p in ue_rx_stuck if int(p["bytes"]) > 1000]
    return {
        "from_s": a,
        "to_s": b,
        "ms": round((b - a) * 1000),
        "stuck_sn": int(start["vt_a"]),
        "txed_bytes": int(last["txed_bytes"]),
        "max_retx_count": int(last["max_retx_count"]),
        "ue_pdus_received_while_stuck": len(ue_rx_stuck),
        "ue_full_pdu_bytes": sorted(set(big)),
        "data_tb_bytes": sorted({int(r["tb_bytes"]) for r in tbs}),
        "data_tb_mcs": sorted({int(r["mcs"]) for r in tbs}),
        "corrupt_tbs": sum(int(r["corrupt"]) for r in tb if a <= t_s(r) < b),
    }


def bandwidth_collapse(tcp: list[dict], rate: list[dict], below_bps: float = 1e6) -> dict | None:
    """The ACK at which BBR's BtlBw first falls below below_bps, the sample behind it, the
    rounds counted in the 100 ms before, and the sender's state at each later RTO."""
    post = [r for r in tcp if r["ev"] == "post" and r["bbr_btlbw_bps"]]
    hit = next((i for i, r in enumerate(post) if int(r["bbr_btlbw_bps"]) < below_bps), None)
    if hit is None:
        return None
    row, before = post[hit], post[hit - 1]
    t = int(row["t_us"])
    sample = [s for s in rate if int(s["t_us"]) == t]
    gen = sample[-1] if sample else None
    window = [r for r in post if t - 100_000 <= int(r["t_us"]) <= t]
    rtos = []
    for prev, r in zip(tcp, tcp[1:]):
        if r["cong_state"] == str(CA_LOSS) and prev["cong_state"] != str(CA_LOSS):
            nxt = next(
                (x for x in tcp if x["ev"] == "post" and int(x["t_us"]) > int(r["t_us"])), None
            )
            rtos.append(
                {
                    "t_s": t_s(r),
                    "pacing_bps_after_ack": int(nxt["pacing_bps"]) if nxt else None,
                    "pacing_timer_left_ms_after_ack": (
                        round(int(nxt["pacing_left_us"]) / 1000, 1) if nxt else None
                    ),
                    "cwnd_after_ack": int(nxt["cwnd"]) if nxt else None,
                    "inflight_after_ack": int(nxt["inflight"]) if nxt else None,
                }
            )
    return {
        "t_s": t / 1e6,
        "btlbw_before_bps": int(before["bbr_btlbw_bps"]),
        "btlbw_after_bps": int(row["bbr_btlbw_bps"]),
        "rounds_in_previous_100ms": int(row["bbr_round"]) - int(window[0]["bbr_round"]),
        "cwnd_after": int(row["cwnd"]),
        "pacing_bps_after": int(row["pacing_bps"]),
        "sample": (
            {
                "delivery_rate_bps": int(gen["delivery_rate_bps"]),
                "delivered_bytes": int(gen["delivered"]),
                "interval_us": int(gen["interval_us"]),
                "ack_elapsed_us": int(gen["ack_elapsed_us"]),
                "send_elapsed_us": int(gen["send_elapsed_us"]),
            }
            if gen
            else None
        ),
        "segments_sent_after": sum(1 for r in tcp if r["ev"] == "tx" and int(r["t_us"]) > t),
        "rtos_after": rtos,
    }


def recoveries(
    tcp: list[dict], tb: list[dict], rlc: list[dict], lookback_s: float = 0.1
) -> list[dict]:
    """Each entry into fast recovery or RTO, with the radio and RLC state in the lookback."""
    out = []
    for prev, r in zip(tcp, tcp[1:]):
        cs = r["cong_state"]
        if cs in (str(CA_RECOVERY), str(CA_LOSS)) and prev["cong_state"] != cs:
            t = t_s(r)
            tbs = [x for x in tb if t - lookback_s <= t_s(x) < t]
            rl = [x for x in rlc if t - lookback_s <= t_s(x) <= t]
            out.append(
                {
                    "t_s": t,
                    "state": "recovery" if cs == str(CA_RECOVERY) else "rto",
                    "cwnd_before": int(prev["cwnd"]),
                    "lost_bytes_marked": int(r["lost_bytes"]),
                    "sacked_bytes": int(r["sacked_bytes"]),
                    "tbs": len(tbs),
                    "corrupt_tbs": sum(int(x["corrupt"]) for x in tbs),
                    "harq_failures": sum(1 for x in tbs if int(x["corrupt"]) and int(x["rv"]) >= 3),
                    "max_rlc_retx_count": max((int(x["max_retx_count"]) for x in rl), default=0),
                    "rlc_txon_max_bytes": max((int(x["txon_bytes"]) for x in rl), default=0),
                }
            )
    return out


def reordering(ip: list[dict], tcp: list[dict]) -> dict:
    """What the UE's IP layer got: drops, fragments arriving interleaved with a later
    datagram's, TCP segments handed up out of order, and for every retransmission whether the
    UE already had that segment (then the loss TCP reacted to was not a loss)."""
    rx = [r for r in ip if r["ev"] == "rx"]
    interleaved, highest = 0, -1
    for r in rx:
        i = int(r["ip_id"])
        interleaved += i < highest
        highest = max(highest, i)
    delivered = []  # (time, TCP seq, bytes) of every reassembled datagram
    out_of_order, expected = 0, None
    for r in ip:
        if r["ev"] != "deliver":
            continue
        seq, n = int(r["frag_offset"]), int(r["more_frags"])  # deliver rows: TCP seq, bytes
        delivered.append((t_s(r), seq, n))
        if expected is not None and seq > expected:
            out_of_order += 1
        expected = seq + n if expected is None else max(expected, seq + n)
    hi, retx, had = 0, 0, 0
    for r in tcp:
        if r["ev"] != "tx":
            continue
        seq, n, t = int(r["seq"]), int(r["len"]), t_s(r)
        if seq < hi:
            retx += 1
            had += covered(delivered, seq, seq + n, before=t)
        hi = max(hi, seq + n)
    return {
        "ip_drops": sum(1 for r in ip if r["ev"] == "drop"),
        "fragments": len(rx),
        "fragments_interleaved": interleaved,
        "datagrams_delivered": len(delivered),
        "segments_handed_up_out_of_order": out_of_order,
        "retransmissions": retx,
        "retransmitted_segments_the_ue_already_had": had,
    }


def covered(delivered: list[tuple[float, int, int]], a: int, b: int, before: float) -> bool:
    """Whether datagrams handed to TCP before `before` cover the bytes [a, b) (a retransmission
    is re-cut, so it need not start where a first transmission did)."""
    pos = a
    for s, e in sorted((s, s + n) for t, s, n in delivered if t < before and s < b and s + n > a):
        if s <= pos:
            pos = max(pos, e)
    return pos >= b


def print_evidence(trace_dir: Path) -> None:
    for meta_path in sorted(trace_dir.glob("*.json")):
        name = meta_path.stem
        kinds = {
            k: read(trace_dir / f"{name}_{k}.csv.gz")
            for k in ("tcp", "rate", "rlc", "pdu", "tb", "ip")
        }
        print(f"== {name}")
        for s in rlc_stalls(kinds["rlc"], kinds["pdu"], kinds["tb"]):
            print("RLC stall:", s)
        c = bandwidth_collapse(kinds["tcp"], kinds["rate"])
        if c:
            print("BtlBw collapse:", c)
        for r in recoveries(kinds["tcp"], kinds["tb"], kinds["rlc"]):
            print("TCP loss episode:", r)
        print("UE IP input:", reordering(kinds["ip"], kinds["tcp"]))
