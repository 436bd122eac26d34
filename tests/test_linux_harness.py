"""The Linux-kernel harness (validation/linux/kernel_harness) without root: the golden writer
rebuilds each committed golden file byte for byte from its repetitions, the topology issues
exactly the commands the committed runs logged, and the parsers of ping and nstat output."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "validation" / "linux"))
config = importlib.import_module("kernel_harness.config")
golden = importlib.import_module("kernel_harness.golden")
measure = importlib.import_module("kernel_harness.measure")
qdisc = importlib.import_module("kernel_harness.qdisc")
topology = importlib.import_module("kernel_harness.topology")

FILES = sorted(config.GOLDEN.glob("*_*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_writer_rebuilds_the_committed_file(path: Path) -> None:
    g = json.loads(path.read_text())
    doc = golden.document(
        g["case"],
        config.CASES[g["case"]],
        g["cca"],
        g["command"],
        g["repetitions"],
        len(g["repetitions"]),
        qdisc.DEFAULT_BURST_S,
        (g["kernel"], g["kernel_version"]),
    )
    assert golden.to_text(doc) == path.read_text()


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_topology_issues_the_logged_commands(path: Path, monkeypatch) -> None:
    # No command runs: every one succeeds with no output, and `sh` logs it.
    done = subprocess.CompletedProcess([], 0, "", "")
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: done)
    g = json.loads(path.read_text())
    log: list[str] = []
    topology.build(config.CASES[g["case"]], qdisc.DEFAULT_BURST_S, log)
    assert len(log) > 30
    for rep in g["repetitions"]:
        assert rep["commands"][: len(log)] == log


def test_htb_burst_is_at_least_two_packets() -> None:
    args = qdisc.htb_class_args(100_000_000, 1500)
    assert args[args.index("burst") + 1] == str(100_000_000 * 5 // 1000 // 8)
    slow = qdisc.htb_class_args(1_000_000, 1500)
    assert slow[slow.index("burst") + 1] == str(2 * 1514)
    assert slow[slow.index("quantum") + 1] == "1514"


PING = """PING 10.77.0.2 (10.77.0.2) 56(84) bytes of data.
64 bytes from 10.77.0.2: icmp_seq=1 ttl=63 time=40.3 ms
64 bytes from 10.77.0.2: icmp_seq=2 ttl=63 time=41.0 ms
64 bytes from 10.77.0.2: icmp_seq=3 ttl=63 time=40.1 ms
64 bytes from 10.77.0.2: icmp_seq=4 ttl=63 time=40.2 ms

--- 10.77.0.2 ping statistics ---
4 packets transmitted, 4 received, 0% packet loss, time 30ms
rtt min/avg/max/mdev = 40.100/40.400/41.000/0.354 ms
"""


def test_parse_ping() -> None:
    r = measure.parse_ping(PING)
    assert r["samples"] == 4
    assert (r["min_ms"], r["max_ms"]) == (40.1, 41.0)
    assert r["p50_ms"] == pytest.approx(40.25)
    assert r["mean_ms"] == pytest.approx(40.4)
    assert measure.parse_ping("PING 10.77.0.2\n\n4 packets transmitted, 0 received") == {
        "samples": 0
    }


def test_percentile_is_numpys_linear_rule() -> None:
    rng = random.Random(7)
    for n in (1, 2, 5, 101):
        xs = sorted(rng.uniform(0, 100) for _ in range(n))
        for p in (0, 50, 95, 99, 100):
            assert measure.percentile(xs, p) == round(float(np.percentile(xs, p)), 4)


def test_parse_nstat_keeps_the_listed_counters() -> None:
    flat = {"TcpRetransSegs": "12", "TcpExtTCPTimeouts": 1, "TcpInSegs": 99}
    assert measure.parse_nstat(json.dumps(flat)) == {"TcpRetransSegs": 12, "TcpExtTCPTimeouts": 1}
    # Older nstat nests the counters under "kernel".
    assert measure.parse_nstat(json.dumps({"kernel": flat})) == {
        "TcpRetransSegs": 12,
        "TcpExtTCPTimeouts": 1,
    }
    assert measure.parse_nstat("nstat: not json") == {}
