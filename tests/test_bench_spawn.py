"""benches/spawn.py: a measured child's output, CPU time and, when it fails, why."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benches"))
import spawn  # noqa: E402


def test_measure_returns_stdout_and_times():
    wall, rss_mb, out, cpu = spawn.measure(["sh", "-c", "echo out; echo err >&2"])
    assert out == "out\n"
    assert wall > 0 and cpu >= 0 and rss_mb > 0


def test_failed_child_reports_its_stderr():
    with pytest.raises(RuntimeError, match=r"(?s)command failed.*no such scenario: x\.toml"):
        spawn.measure(["sh", "-c", "echo 'no such scenario: x.toml' >&2; exit 3"])
