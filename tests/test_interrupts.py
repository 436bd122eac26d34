"""Kill tests for `ccsim run` (issue 18 item 7): SIGINT and SIGTERM stop a run within a
fraction of a second however long its slices are, without a traceback and without leaving
anything behind; after SIGKILL no readable-looking file is broken, and the next run into the
same directory removes the dead run's partial directory."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from conftest import SMALL

# A run that never ends by itself: 1e9 s of simulated time (one slice is 2e7 s).
ENDLESS = ["--set", "run.duration=1e9s", "--set", "output.sample_interval=100s"]


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(tmp_path: Path) -> subprocess.Popen:
    scenario = tmp_path / "endless.toml"
    scenario.write_text(SMALL)
    p = subprocess.Popen(
        [sys.executable, "-m", "ccsim", "run", str(scenario), *ENDLESS, "--out", "res"],
        cwd=tmp_path,
        # A suite started in the background by a shell without job control inherits SIGINT
        # ignored, and Python then installs no Ctrl-C handler: give the run the default, as a
        # terminal would (otherwise the SIGINT case hangs, as it did in a backgrounded CI run).
        preexec_fn=_default_sigint,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Wait until the run has started: its partial directory exists (made just before it).
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".res.partial-*")):
        assert p.poll() is None, p.communicate()
        assert time.monotonic() < deadline, "the run did not start"
        time.sleep(0.05)
    time.sleep(0.5)  # well inside the core by now
    return p


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_stops_the_run_quickly_and_cleanly(tmp_path, sig, code) -> None:
    p = _start(tmp_path)
    sent = time.monotonic()
    p.send_signal(sig)
    _, err = p.communicate(timeout=30)
    took = time.monotonic() - sent
    assert p.returncode == code, err
    assert "Traceback" not in err and "no results written" in err, err
    # 0.1 s between checks plus cleanup take well under 1 s on a quiet machine; at load 12 on
    # 2 cores the interpreter's exit alone took 3-4 s. A run that missed the signal never
    # stops (its slice is 2e7 s of simulated time), so 10 s still tells the two apart.
    assert took < 10.0, took
    assert not (tmp_path / "res").exists()
    assert not list(tmp_path.glob(".res.*"))


def test_sigkill_leaves_no_broken_parquet_and_is_cleaned_next_run(tmp_path) -> None:
    p = _start(tmp_path)
    time.sleep(1.5)  # let a drain or two reach the partial files
    p.kill()
    p.wait(timeout=30)
    partials = list(tmp_path.glob(".res.partial-*"))
    assert len(partials) == 1 and not (tmp_path / "res").exists()
    for f in tmp_path.rglob("*.parquet"):  # whatever carries the name is complete
        pq.read_table(f)
    r = subprocess.run(
        [sys.executable, "-m", "ccsim", "run", "endless.toml", "--out", "res", "--no-plot"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert not partials[0].exists() and (tmp_path / "res" / "summary.json").exists()
