"""The command line and the Python API as a user meets them."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import ccsim
from conftest import GOLDEN_NS3, ccsim_cli

REQUIRED_FLOW_KEYS = {
    "id",
    "cca",
    "goodput_mbps",
    "rtt_mean_ms",
    "rtt_p50_ms",
    "rtt_p95_ms",
    "retx_segments",
    "fct_s",
}


def test_run_writes_results_and_plot(small_scenario, tmp_path) -> None:
    out = tmp_path / "res"
    r = ccsim_cli("run", str(small_scenario), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "goodput" in r.stdout and "events" in r.stdout
    for name in (
        "summary.json",
        "scenario.json",
        "flows.parquet",
        "queues.parquet",
        "flow_timeseries.parquet",
        "queue_timeseries.parquet",
        "plots/overview.png",
    ):
        assert (out / name).is_file(), name
    fs = pd.read_parquet(out / "flow_timeseries.parquet")
    assert set(fs["flow"]) == {0, 1}
    assert fs["t_s"].max() == pytest.approx(5.0)
    assert (out / "plots/overview.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_json_summary_schema(small_scenario, tmp_path) -> None:
    r = ccsim_cli("run", str(small_scenario), "--out", str(tmp_path / "o"), "--json", "--no-plot")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert {"flows", "total_goodput_mbps", "queues", "events", "wall_s"} <= s.keys()
    for f in s["flows"]:
        assert REQUIRED_FLOW_KEYS <= f.keys()
    assert all({"id", "drops"} <= q.keys() for q in s["queues"])
    delivered = sum(f["bytes_delivered"] for f in s["flows"])
    assert s["total_goodput_mbps"] == pytest.approx(delivered * 8 / 5.0 / 1e6)
    # Two flows share a 10 Mb/s bottleneck: together they fill most of it, never more.
    assert 8.0 < s["total_goodput_mbps"] < 10.0


def test_set_overrides_on_the_cli(small_scenario, tmp_path) -> None:
    r = ccsim_cli(
        "run",
        str(small_scenario),
        "--set",
        "dumbbell.bottleneck.rate=5Mbps",
        "--set",
        "flows.1.cca=bic",
        "--out",
        str(tmp_path / "o"),
        "--json",
        "--no-plot",
    )
    s = json.loads(r.stdout)
    assert s["flows"][1]["cca"] == "TcpBic"
    assert s["total_goodput_mbps"] < 5.0


def test_python_api_returns_dataframes(small_scenario) -> None:
    res = ccsim.run(small_scenario, dumbbell__bottleneck__delay="20ms")
    assert isinstance(res.flows, pd.DataFrame) and len(res.flows) == 2
    assert {"cwnd_bytes", "srtt_ms", "goodput_mbps"} <= set(res.flow_series.columns)
    assert "link_name" in res.queue_series.columns
    assert res.scenario["dumbbell"]["bottleneck"]["delay"] == "0.02s"
    assert res.flows.loc[0, "rtt_p50_ms"] >= 40.0  # base RTT is now 40 ms


def test_dict_scenario() -> None:
    res = ccsim.run(
        {
            "run": {"duration": "2s"},
            "dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "5ms"}},
            "flows": [{"cca": "newreno", "bytes": "1MB"}],
        }
    )
    f = res.summary["flows"][0]
    assert f["bytes_delivered"] == 1_000_000
    assert 0.4 < f["fct_s"] < 2.0


def test_mtu_fragments_are_reported(small_scenario, tmp_path) -> None:
    """A 4000-byte MSS over a 1500-byte MTU travels as three IPv4 fragments; the summary and
    the printed table report the reassembly."""
    args = ["--set", "tcp.mss=4000", "--set", "dumbbell.mtu=1500", "--no-plot"]
    r = ccsim_cli("run", str(small_scenario), "--out", str(tmp_path / "o"), *args)
    assert r.returncode == 0, r.stderr
    assert "IPv4 reassembly:" in r.stdout
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    ip = s["ip_reassembly"]
    delivered = sum(f["bytes_delivered"] for f in s["flows"])
    assert ip["datagrams"] * 4000 >= delivered > 0
    r = ccsim_cli("run", str(small_scenario), "--out", str(tmp_path / "p"), "--no-plot")
    assert "IPv4 reassembly" not in r.stdout
    bad = ccsim_cli("run", str(small_scenario), "--set", "dumbbell.mtu=40", "--no-plot")
    assert bad.returncode == 2 and "dumbbell.mtu" in bad.stderr, bad.stderr


def test_cca_list() -> None:
    r = ccsim_cli("cca", "list")
    assert r.returncode == 0
    assert "TcpCubic" in r.stdout and "newreno" in r.stdout


def test_cca_replay_matches_shipped_vectors(tmp_path) -> None:
    src = GOLDEN_NS3 / "cca-vectors/random_seed1.json"
    r = ccsim_cli("cca", "replay", str(src), "--compare")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "steps equal" in r.stdout
    out = tmp_path / "replayed.json"
    assert ccsim_cli("cca", "replay", str(src), "--out", str(out)).returncode == 0
    replayed = json.loads(out.read_text())
    assert replayed["simulator"] == "ccsim"
    assert len(replayed["vectors"]) == len(json.loads(src.read_text())["vectors"])


def test_blockage_metrics_before_during_after_and_recovery(tmp_path) -> None:
    res = ccsim.run(
        {
            "run": {"duration": "6s"},
            # RFC 6937 PRR: with ns-3.44's PRR bugs (the ns3 profile's default) CUBIC collapses
            # into timeouts on this link, exactly as ns-3 does (golden case E).
            "tcp": {
                "mss": 1448,
                "snd_buf": "2MB",
                "rcv_buf": "2MB",
                "min_rto": "200ms",
                "ns3_prr_quirks": False,
            },
            "dumbbell": {
                "bottleneck": {
                    "rate": "20Mbps",
                    "delay": "10ms",
                    "changes": [{"at": "2s", "rate": "2Mbps"}, {"at": "4s", "rate": "20Mbps"}],
                }
            },
            "flows": [{"cca": "cubic"}],
        }
    )
    (c,) = res.summary["link_changes"]
    assert c["window_s"] == [2.0, 4.0]
    assert c["goodput_before_mbps"] > 15.0
    assert c["goodput_during_mbps"] < 4.0
    assert c["goodput_after_mbps"] > 10.0
    assert 0.0 < c["recovery_time_s"] < 2.0
