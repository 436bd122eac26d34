"""The traced ns3-mmwave handover reruns (issue 15; validation/ns3-mmwave/README.md, section 8.1):
the analysis of trace_handover.py on the committed golden traces names the mechanism that kills
each CUBIC flow. The traces come from the tree (too slow for the suite); these tests read them."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "validation" / "ns3-mmwave"))
import trace_handover as th  # noqa: E402


def test_seed2_new_rlc_gets_a_pdu_of_the_old_cell_at_both_a_to_b_switches() -> None:
    events, rlc = th.read_gz(2, "events"), th.read_gz(2, "rlc")
    stale = {int(r["t_us"]) // 1000: r for r in th.stale_first_states(rlc, events) if r["stale"]}
    # The A->B switches at 3.052 and 4.436 s; the B->A one at 3.488 s starts clean.
    assert sorted(stale) == [3053, 4437]
    assert stale[4437]["vr_h"] == "200" and stale[4437]["rxon_incomplete"] == "1"


def test_seed2_ue_rlc_stays_blocked_on_the_partial_sn_to_the_end() -> None:
    rlc = th.read_gz(2, "rlc")
    ue, enb = th.stuck_tail(rlc, "ue"), th.stuck_tail(rlc, "enb")
    end_us = int(rlc[-1]["t_us"])
    assert ue["vr_r"] == enb["vt_a"] == "199"
    assert ue["vr_r_segs"] == "1"  # SN 199 held as one byte segment, never completed
    assert end_us - ue["since_us"] > 1_500_000
    assert int(ue["rxon_sns"]) > 400  # everything after it is held back


def test_seed2_resends_after_the_death_never_reach_the_ue() -> None:
    seg = th.read_gz(2, "segments")
    sent = [r for r in seg if r["event"] == "snd_tx"]
    assert len(sent) >= 2
    assert not any(r["event"] == "ue_rx" for r in seg)
    assert not any(int(r["sink_bytes"]) for r in th.read_gz(2, "1ms")[4400:])


def test_seed3_lockstep_every_ack_comes_200_ms_after_its_segment() -> None:
    events, rlc = th.read_gz(3, "events"), th.read_gz(3, "rlc")
    assert not any(r["stale"] for r in th.stale_first_states(rlc, events))
    cycles = th.lockstep_cycles(th.read_gz(3, "segments"))[1:]  # [0]: the handover's real RTO
    assert len(cycles) >= 10
    for c in cycles:
        assert 199_000 <= c["ue_ack_us"] - c["ue_first_rx_us"] <= 201_000, c
        # The RTO (200 ms from the send) fires before that ACK leaves the UE.
        assert c["rto_us"] < c["ue_ack_us"], c
