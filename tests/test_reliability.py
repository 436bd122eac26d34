"""Issue 18 regressions: limits, bounded memory, data safety (see docs/reliability.md)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import ccsim
from ccsim.output import MANIFEST
from conftest import SMALL, ccsim_cli


def _err(text: str, *overrides: str) -> ccsim.ScenarioError:
    with pytest.raises(ccsim.ScenarioError) as e:
        ccsim.load(text, set=list(overrides))
    return e.value


def _peak_rss_mb(code: str) -> float:
    """Peak RSS of a fresh interpreter running `code`: that child's own ru_maxrss (wait4).

    Not RUSAGE_CHILDREN: that is the largest peak of any child this pytest process ever reaped
    (another test's bigger run made this one fail)."""
    proc = subprocess.Popen([sys.executable, "-c", code])
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except BaseException:
        proc.kill()
        raise
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, f"child exited with {proc.returncode}"
    return usage.ru_maxrss / 1024


# Item 3: routing memory was quadratic in flows (8000 flows: 2.5 GB; 477k: 7.3 TB abort).


def test_too_many_flows_is_refused_before_allocating() -> None:
    msg = str(_err(SMALL, "flows.0.count=477000"))
    assert "flows[0].count" in msg and "100000" in msg and "reliability" in msg


def test_many_flows_memory_is_linear() -> None:
    code = f"import ccsim\nccsim.run({SMALL!r}, set=['flows.0.count=4000', 'flows.1.start=0s', 'run.duration=1ms'])\n"
    # The dense table alone was 8002² × 8 B = 512 MB here; linear state is well under that.
    assert _peak_rss_mb(code) < 400


# Item 1: `--out` deleted any directory holding a summary.json, with the user's files.


def test_out_dot_is_refused_and_nothing_is_deleted(small_scenario, tmp_path) -> None:
    (tmp_path / "summary.json").write_text("{}")  # `ccsim run X --json > summary.json`
    (tmp_path / "notes.txt").write_text("precious")
    r = ccsim_cli("run", str(small_scenario), "--out", ".", "--no-plot", cwd=tmp_path)
    assert r.returncode == 2 and "current directory" in r.stderr, r.stderr
    assert (tmp_path / "notes.txt").read_text() == "precious"
    assert (tmp_path / "summary.json").read_text() == "{}"


def test_foreign_file_next_to_a_summary_is_never_deleted(small_scenario, tmp_path) -> None:
    out = tmp_path / "res"
    out.mkdir()
    (out / "summary.json").write_text("{}")
    (out / "thesis.tex").write_text("precious")
    r = ccsim_cli("run", str(small_scenario), "--out", str(out), "--no-plot")
    assert r.returncode == 2 and "did not write" in r.stderr, r.stderr
    assert (out / "thesis.tex").read_text() == "precious"


def test_rerun_replaces_only_the_files_of_the_manifest(small_scenario, tmp_path) -> None:
    out = tmp_path / "res"
    assert ccsim_cli("run", str(small_scenario), "--out", str(out)).returncode == 0
    manifest = json.loads((out / MANIFEST).read_text())["files"]
    assert "summary.json" in manifest and "plots/overview.png" in manifest
    r = ccsim_cli("run", str(small_scenario), "--out", str(out), "--no-plot")
    assert r.returncode == 0, r.stderr
    assert not (out / "plots").exists()  # the old run's plot was listed, so replaced
    assert not list(tmp_path.glob(".res.*"))
    # A file slipped in by someone else makes the directory foreign again.
    (out / "extra.csv").write_text("1,2")
    r = ccsim_cli("run", str(small_scenario), "--out", str(out), "--no-plot")
    assert r.returncode == 2 and (out / "extra.csv").exists()


def test_mount_point_is_refused_before_the_run(small_scenario, tmp_path, monkeypatch, capsys):
    from ccsim import cli, output

    out = tmp_path / "mnt"
    out.mkdir()
    monkeypatch.setattr(output.os.path, "ismount", lambda p: Path(p) == out)
    ran = []
    monkeypatch.setattr("ccsim.runner.execute", lambda *a, **k: ran.append(1))
    assert cli.main(["run", str(small_scenario), "--out", str(out)]) == 2
    assert "mount point" in capsys.readouterr().err and not ran


# Item 11: a write error named the hidden partial directory.


def test_write_error_names_the_out_directory(small_scenario, tmp_path, monkeypatch, capsys):
    from ccsim import cli, output

    def full(self, *_a):
        raise OSError(errno.ENOSPC, "No space left on device", str(self.tmp / "summary.json"))

    monkeypatch.setattr(output.ResultDir, "finish", full)
    out = tmp_path / "res"
    assert cli.main(["run", str(small_scenario), "--out", str(out), "--no-plot"]) == 1
    err = capsys.readouterr().err
    assert str(out) in err and "No space left" in err and ".partial" not in err
    assert not out.exists() and not list(tmp_path.glob(".res.*"))


# Item 7: partials of killed runs stayed forever; their Parquet files were unreadable.


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_partials_of_dead_processes_are_removed(small_scenario, tmp_path) -> None:
    stale = tmp_path / f".res.partial-{_dead_pid()}"
    stale.mkdir()
    (stale / "flow_timeseries.parquet.part").write_bytes(b"PAR1 truncated")
    alive = tmp_path / f".res.partial-{os.getpid()}"
    alive.mkdir()
    other = tmp_path / f".other.partial-{_dead_pid()}"
    other.mkdir()
    r = ccsim_cli("run", str(small_scenario), "--out", str(tmp_path / "res"), "--no-plot")
    assert r.returncode == 0, r.stderr
    assert not stale.exists() and alive.exists() and other.exists()


def test_parquet_gets_its_name_only_when_complete(tmp_path) -> None:
    from ccsim.output import SeriesWriter

    schema = pa.schema([("t_s", pa.float64()), ("x", pa.float64())])
    w = SeriesWriter(tmp_path / "s.parquet", schema)
    w.write({"t_s": np.arange(5.0), "x": np.ones(5)})
    assert not (tmp_path / "s.parquet").exists()
    w.close()
    assert len(pd.read_parquet(tmp_path / "s.parquet")) == 5
    assert not list(tmp_path.glob("*.part"))


# Item 2: the CLI read the whole time series back to plot.


def test_plot_data_is_bounded_whatever_the_run_length() -> None:
    from ccsim.downsample import Decimator

    d = Decimator(points=100)
    for k in range(1000):  # 100 000 sample times of 3 flows
        t = np.repeat(np.arange(k * 100, (k + 1) * 100) * 0.01, 3)
        d.add({"t_s": t, "flow": np.tile(np.arange(3), 100), "v": t * 2})
    f = d.frame()
    times = f["t_s"].unique()
    assert 100 <= len(times) <= 200 and len(f) == 3 * len(times)
    assert times[0] == 0.0 and np.all(np.diff(times) > 0)
    assert np.allclose(f["v"], f["t_s"] * 2)  # rows are kept whole


# Items 4, 5, 6: values that did not fit were rounded, saturated or filled the disk.


@pytest.mark.parametrize(
    ("override", "key", "words"),
    [
        ("dumbbell.bottleneck.rate=0.4bps", "dumbbell.bottleneck.rate", "at least 1 bit/s"),
        ("dumbbell.bottleneck.delay=18446744073709551616ns", "dumbbell.bottleneck.delay", "1e9"),
        ("run.duration=1e12s", "run.duration", "at most"),
        ("output.sample_interval=1ns", "output.sample_interval", "at least 100us"),
        ("run.duration=1e9s", "output.sample_interval", "samples"),
    ],
)
def test_values_that_do_not_fit_are_refused(override: str, key: str, words: str) -> None:
    e = _err(SMALL, override)
    assert e.path == key and words in str(e), str(e)


# Item 9: nonsense accepted silently.


LOOP = """
[run]
duration = "2s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[nodes]]
name = "c"
[[links]]
from = "a"
to = "b"
rate = "10Mbps"
delay = "5ms"
[[links]]
from = "b"
to = "c"
rate = "10Mbps"
delay = "5ms"
[[routes]]
at = "b"
dst = "c"
via = "a"
[[flows]]
src = "a"
dst = "c"
"""


@pytest.mark.parametrize(
    ("text", "override", "key", "words"),
    [
        (LOOP, None, "routes", "loop"),
        (SMALL, "flows.0.start=9s", "flows[0].start", "end of the run"),
        (SMALL, "dumbbell.bottleneck.queue=0.001bdp", "dumbbell.bottleneck.queue", "less than"),
        (SMALL, "flows.0.app.rate=1Mbps", None, None),
    ],
)
def test_nonsense_is_an_error(text, override, key, words) -> None:
    if key is None:  # control: a valid app source still loads
        ccsim.load(text, set=[override])
        return
    e = _err(text, *([override] if override else []))
    assert e.path == key and words in str(e), str(e)


def test_zero_chunk_and_late_link_change_are_errors() -> None:
    e = _err(SMALL, "flows.0.app.rate=1Mbps", "flows.0.app.chunk=0B")
    assert e.path == "flows[0].app.chunk", str(e)
    e = _err(SMALL, 'dumbbell.bottleneck.changes=[{at="6s", rate="1Mbps"}]')
    assert e.path == "dumbbell.bottleneck.changes[0].at" and "end of the run" in str(e)


def test_ue_below_ground_is_an_error() -> None:
    # Item 9: a negative UE height was accepted silently; ground level stays valid.
    scenario = Path(__file__).resolve().parents[1] / "experiments/seed000_single_building.toml"
    with pytest.raises(ccsim.ScenarioError) as e:
        ccsim.load(scenario, set=["radio.ues.0.mobility.start.z=-1"])
    assert e.value.path == "radio.ues[0].mobility" and "height" in str(e.value), str(e.value)
    ccsim.load(scenario, set=["radio.ues.0.mobility.start.z=0"])


# Items 8, 10, 11: API and message defects.


def test_non_utf8_file_is_a_clear_error(tmp_path) -> None:
    p = tmp_path / "latin1.toml"
    p.write_bytes(SMALL.replace('"small"', '"sm\xe4ll"').encode("latin-1"))
    with pytest.raises(ccsim.ScenarioError, match="not UTF-8"):
        ccsim.load(p)
    r = ccsim_cli("run", str(p), "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "not UTF-8" in r.stderr and "Traceback" not in r.stderr


def test_api_messages() -> None:
    with pytest.raises(FileNotFoundError, match="base.tml"):
        ccsim.load("base.tml")  # a typo of a path, not TOML text
    sim = ccsim.load(SMALL, set="run.duration=2s")  # a string is one override
    assert sim.duration_s == 2.0
    with pytest.raises(ccsim.ScenarioError) as e:
        ccsim.load({"run": {"duration": float("nan")}})
    assert e.value.path == "run.duration"
    e = _err(SMALL, "dumbbell.bottleneck.rate=-5Mbps")
    assert not str(e).startswith("(") and str(e).count("dumbbell.bottleneck.rate") == 1, str(e)
