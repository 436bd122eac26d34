"""Issue 18 regressions: limits, bounded memory, data safety (see docs/reliability.md)."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

import ccsim
from conftest import SMALL


def _err(text: str, *overrides: str) -> ccsim.ScenarioError:
    with pytest.raises(ccsim.ScenarioError) as e:
        ccsim.load(text, set=list(overrides))
    return e.value


def _peak_rss_mb(code: str) -> float:
    """Peak RSS of a fresh interpreter running `code` (ru_maxrss of the reaped child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([sys.executable, "-c", code], check=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert after >= before
    return after / 1024


# Item 3: routing memory was quadratic in flows (8000 flows: 2.5 GB; 477k: 7.3 TB abort).


def test_too_many_flows_is_refused_before_allocating() -> None:
    msg = str(_err(SMALL, "flows.0.count=477000"))
    assert "flows[0].count" in msg and "100000" in msg and "reliability" in msg


def test_many_flows_memory_is_linear() -> None:
    code = (
        "import ccsim\n"
        f"ccsim.run({SMALL!r}, set=['flows.0.count=4000', 'run.duration=1ms'])\n"
    )
    # The dense table alone was 8002² × 8 B = 512 MB here; linear state is well under that.
    assert _peak_rss_mb(code) < 400
