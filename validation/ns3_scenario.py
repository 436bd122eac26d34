"""The ccsim scenario equivalent to an ns-3 golden run. Standard library only: the PGO build
(scripts/build_pgo.sh) makes its training scenarios with it before ccsim or numpy is installed."""

from __future__ import annotations

from typing import Any


def scenario_from_golden(g: dict[str, Any]) -> dict[str, Any]:
    """The ccsim scenario equivalent to the ns-3 run described by `g["scenario"]`."""
    s = g["scenario"]
    changes = [{"at": f"{t}s", "rate": f"{int(r)}bps"} for t, r in s.get("rate_change", [])]
    ccas = s.get("cca_list") or [s["cca"]] * s["flows"]
    return {
        "name": f"ns3-case-{s.get('case', '?')}",
        "run": {"duration": f"{s['duration_s']}s", "seed": s.get("seed", 1)},
        "tcp": {
            "profile": "ns3",
            "mss": s["mss"],
            "min_rto": f"{s['min_rto_s']}s",
            "snd_buf": f"{s['snd_rcv_buf_bytes']}B",
            "rcv_buf": f"{s['snd_rcv_buf_bytes']}B",
            # Golden files from before the `--sack` switch have no key: SACK was on.
            "sack": s.get("sack", True),
        },
        "dumbbell": {
            # Every device's MTU; only case S4F's (1500 B) is below a segment's size.
            "mtu": s["mtu"],
            "bottleneck": {
                "rate": f"{s['bottleneck_rate_bps']}bps",
                "delay": f"{s['bottleneck_delay_ms']}ms",
                "queue": f"{s['queue_packets']}p",
                "changes": changes,
            },
            "access": {
                "rate": f"{s['access_rate_bps']}bps",
                "delay": f"{s['access_delay_ms']}ms",
            },
        },
        "flows": [{"cca": c, "start": f"{s.get('start_time_s', 0)}s"} for c in ccas],
    }
