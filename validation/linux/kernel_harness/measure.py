"""What a repetition measures: ping, the SNMP counters (`nstat`), the qdisc and interface
counters, and the per-flow summary of flows.py's sender and sink records."""

from __future__ import annotations

import json
import re
import statistics
from typing import Any

from .config import NS, PRIO_APPS
from .shell import nsx, rt, sh

# The SNMP counters kept from `nstat` (retransmissions, recoveries, HyStart, receive queue).
NSTAT_KEYS = (
    "TcpRetransSegs",
    "TcpOutSegs",
    "TcpExtTCPLostRetransmit",
    "TcpExtTCPTimeouts",
    "TcpExtTCPSackRecovery",
    "TcpExtTCPFastRetrans",
    "TcpExtTCPSlowStartRetrans",
    "TcpExtTCPSpuriousRTOs",
    "TcpExtTCPDSACKRecv",
    "TcpExtTCPSackRecoveryFail",
    "TcpExtTCPRetransFail",
    "TcpExtTCPHystartTrainDetect",
    "TcpExtTCPHystartTrainCwnd",
    "TcpExtTCPHystartDelayDetect",
    "TcpExtTCPHystartDelayCwnd",
    "TcpExtTCPLossProbes",
    "TcpExtTCPLossProbeRecovery",
    "TcpExtTCPOFOQueue",
    "TcpExtTCPRcvQDrop",
    "IpExtInOctets",
)


def percentile(sorted_vals: list[float], p: float) -> float:
    """numpy's default (linear interpolation between closest ranks), as the other goldens."""
    if not sorted_vals:
        return float("nan")
    k = (len(sorted_vals) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return round(sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (k - lo), 4)


def parse_ping(out: str) -> dict[str, Any]:
    """Round-trip times of iputils ping's per-reply lines (`time=… ms`), summarised."""
    rtts = [float(m) for m in re.findall(r"time=([0-9.]+) ms", out)]
    if not rtts:
        return {"samples": 0}
    rtts.sort()
    return {
        "samples": len(rtts),
        "min_ms": rtts[0],
        "p50_ms": percentile(rtts, 50),
        "p99_ms": percentile(rtts, 99),
        "max_ms": rtts[-1],
        "mean_ms": round(statistics.fmean(rtts), 4),
    }


def ping(src_ns: str, dst: str, count: int, interval: float, log: list[str]) -> dict[str, Any]:
    cmd = nsx(
        src_ns,
        *rt(PRIO_APPS, ["ping", "-n", "-c", str(count), "-i", str(interval), "-s", "56", dst]),
    )
    return parse_ping(sh(cmd, log, check=False, timeout=count * interval + 10))


def parse_nstat(out: str) -> dict[str, int]:
    """The counters of NSTAT_KEYS from `nstat -j` output (older nstat nests them under
    "kernel"); {} when the output is not JSON."""
    try:
        d = json.loads(out)
    except json.JSONDecodeError:
        return {}
    kernel = d.get("kernel", d)
    return {k: int(kernel[k]) for k in NSTAT_KEYS if k in kernel}


def nstat(ns: str) -> dict[str, int]:
    return parse_nstat(sh(nsx(ns, "nstat", "-a", "-z", "-j", "--ignore"), check=False))


def qdisc_stats(bottleneck: tuple[str, str]) -> dict[str, Any]:
    bns, bdev = bottleneck
    out = sh(nsx(bns, "tc", "-s", "-j", "qdisc", "show", "dev", bdev), check=False)
    res: dict[str, Any] = {}
    for q in json.loads(out or "[]"):
        res[q.get("kind", "?")] = {
            k: q.get(k) for k in ("drops", "packets", "bytes", "overlimits", "requeues")
        }
    return res


def link_drops(bottleneck: tuple[str, str]) -> dict[str, Any]:
    res = {}
    devs = [("s", "vs"), ("r1", "vr1"), ("r1", "tuna"), ("r2", "tunb"), ("r2", "vr2"), ("d", "vd")]
    if bottleneck[0] == "r3":
        devs += [("r3", "vr3a"), ("r3", "vr3")]
    for ns, dev in devs:
        out = sh(["ip", "-n", NS[ns], "-s", "-j", "link", "show", dev], check=False)
        try:
            st = json.loads(out)[0]["stats64"]
            res[f"{ns}/{dev}"] = {
                "tx_dropped": st["tx"]["dropped"],
                "rx_dropped": st["rx"]["dropped"],
            }
        except (json.JSONDecodeError, KeyError, IndexError):
            pass
    return res


def summarize_flows(
    send: dict[str, Any], sink: dict[str, Any], duration: float
) -> list[dict[str, Any]]:
    """One record per sender socket, from flows.py's sender and sink outputs."""
    # Pair sender and sink sockets by the sender's local port (the sink sees it as the peer port).
    by_port = {f["peer"][1]: f for f in sink["flows"]}
    flows = []
    for i, f in enumerate(send["flows"]):
        ti = f["final_tcp_info"]
        port = f.get("local_port")
        rx = by_port.get(port) if port is not None else None
        if rx is None and len(sink["flows"]) == len(send["flows"]):
            rx = sorted(sink["flows"], key=lambda x: x["accepted_at"])[i]
        srtt = sorted(s[1] / 1000.0 for s in f["samples"] if s[1] > 0)
        flows.append(
            {
                "id": i,
                "goodput_mbps": round(rx["bytes_received"] * 8 / duration / 1e6, 4) if rx else None,
                "rx_bytes": rx["bytes_received"] if rx else None,
                "retx_segments": ti["total_retrans"],
                "rto_events": ti["total_rto"],
                "rto_recoveries": ti["total_rto_recoveries"],
                "srtt_p50_ms": percentile(srtt, 50),
                "srtt_p95_ms": percentile(srtt, 95),
                "srtt_mean_ms": round(statistics.fmean(srtt), 4) if srtt else None,
                "srtt_samples": len(srtt),
                "min_rtt_ms": ti["min_rtt"] / 1000.0,
                "tx_segments": ti["data_segs_out"],
                "bytes_retrans": ti["bytes_retrans"],
                "snd_mss": ti["snd_mss"],
                "dsack_dups": ti["dsack_dups"],
                "final_cwnd": ti["snd_cwnd"],
                "final_ssthresh": ti["snd_ssthresh"],
                "samples": f["samples"],
            }
        )
    return flows


def jain(xs: list[float]) -> float:
    """Jain's fairness index of the flows' goodputs."""
    s = sum(xs)
    q = sum(x * x for x in xs)
    return round(s * s / (len(xs) * q), 4) if q > 0 else float("nan")
