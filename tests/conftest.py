"""Shared fixtures: paths and small scenarios that run in well under a second."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_NS3 = ROOT / "validation" / "golden" / "ns3"
SHARED = Path(os.environ.get("CCSIM_SHARED", ROOT.parent / "shared"))

SMALL = """
name = "small"
[run]
duration = "5s"
[tcp]
mss = 1448
snd_buf = "1MB"
rcv_buf = "1MB"
[dumbbell.bottleneck]
rate = "10Mbps"
delay = "10ms"
queue = "1bdp"
[[flows]]
cca = "cubic"
[[flows]]
cca = "newreno"
start = "1s"
"""


@pytest.fixture
def small_scenario(tmp_path: Path) -> Path:
    p = tmp_path / "small.toml"
    p.write_text(SMALL)
    return p


def ccsim_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Runs the `ccsim` command of this interpreter's environment."""
    return subprocess.run(
        [sys.executable, "-m", "ccsim", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )
