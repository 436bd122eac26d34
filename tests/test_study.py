"""Studies: grid expansion, the results store (resume, atomicity, kill-and-resume), the
DuckDB view, aggregation, the Dask path (a LocalCluster) and the CLI."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ccsim.aggregate import aggregate, ci95
from ccsim.store import ResultsStore
from ccsim.study import StudyError, load_study
from ccsim.study_run import make_tasks, run_study
from conftest import ccsim_cli

BASE = """
name = "study-base"
[run]
duration = "4s"
[tcp]
mss = 1448
snd_buf = "1MB"
rcv_buf = "1MB"
[dumbbell.bottleneck]
rate = "20Mbps"
delay = "10ms"
queue = "1bdp"
[[flows]]
cca = "cubic"
[[flows]]
cca = "newreno"
start = "1s"
"""

STUDY = """
name = "small-study"
scenario = "base.toml"
seeds = [1, 2]
metrics = ["goodput_mbps", "rtt_mean_ms", "srtt_time_avg_ms", "retx_segments"]
series = ["goodput_mbps"]

[[axes]]
name = "rate_mbps"
values = [10, 20]
set = {{ "dumbbell.bottleneck.rate" = "{{rate_mbps}}Mbps", "run.duration" = "{{{dur} / rate_mbps * 10}}s" }}

[[axes]]
name = "variant"
[[axes.levels]]
value = "two flows"
[[axes.levels]]
value = "bbr alone"
set = {{ "flows.0.cca" = "bbr" }}
remove = ["flows.1"]
"""


def write_study(tmp_path: Path, dur: float = 4.0) -> Path:
    (tmp_path / "base.toml").write_text(BASE)
    p = tmp_path / "small.toml"
    p.write_text(STUDY.format(dur=dur))
    return p


def tree_bytes(root: Path, dirs: tuple[str, ...] = ("runs", "series")) -> dict[str, bytes]:
    return {f"{d}/{p.name}": p.read_bytes() for d in dirs for p in sorted((root / d).iterdir())}


def test_grid_expansion_templates_levels_and_removal(tmp_path: Path) -> None:
    study = load_study(write_study(tmp_path))
    points = study.points()
    assert len(points) == 2 * 2 * 2
    p = points[0]
    assert p.labels == {"rate_mbps": 10, "variant": "two flows"} and p.seed == 1
    # The derived key: duration from the rate (4 s at 10 Mb/s, 2 s at 20 Mb/s).
    assert "run.duration=4s" in p.overrides and "dumbbell.bottleneck.rate=10Mbps" in p.overrides
    assert "run.duration=2s" in points[4].overrides
    assert points[-1].remove == ("flows.1",) and "flows.0.cca=bbr" in points[-1].overrides
    tasks = make_tasks(study)
    keys = [t.key for _, t in tasks]
    assert len(set(keys)) == len(keys)  # seeds and levels give distinct run keys
    assert [t.key for _, t in make_tasks(study)] == keys  # and the same keys every time
    assert tasks[-1][1].fmt == "json" and '"newreno"' not in tasks[-1][1].text


def test_bad_study_files_name_the_key(tmp_path: Path) -> None:
    (tmp_path / "base.toml").write_text(BASE)
    cases = {
        'name = "x"\nscenario = "base.toml"\nseeds = [-1]': "`seeds`",
        'name = "x"\nscenario = "missing.toml"': "`scenario`",
        'name = "x"\nscenario = "base.toml"\nbogus = 1': "unknown keys ['bogus']",
        'name = "x"\nscenario = "base.toml"\n[[axes]]\nname = "a"\nvalues = [1]': "`axes[0].set`",
    }
    for text, needle in cases.items():
        p = tmp_path / "bad.toml"
        p.write_text(text)
        with pytest.raises(StudyError, match=needle.replace("[", r"\[").replace("]", r"\]")):
            load_study(p)
    p = tmp_path / "bad.toml"
    p.write_text(
        'name = "x"\nscenario = "base.toml"\n[[axes]]\nname = "a"\nvalues = [1]\n'
        'set = { "run.duration" = "{b * 2}s" }'
    )
    with pytest.raises(StudyError, match="unknown name `b`"):
        load_study(p).points()


def test_run_store_resume_and_query(tmp_path: Path) -> None:
    study = load_study(write_study(tmp_path))
    store = ResultsStore(tmp_path / "store")
    rep = run_study(study, store, workers=2, progress=False)
    assert (rep.total, rep.done, rep.skipped, rep.failed) == (8, 8, 0, [])
    df = store.frame("runs")
    # Two flows in the "two flows" runs, one where flows.1 was removed.
    assert len(df) == 2 * 2 * 2 + 2 * 2 * 1
    assert set(df["variant"]) == {"two flows", "bbr alone"}
    assert set(df[df["variant"] == "bbr alone"]["flow_cca"]) == {"TcpBbr"}
    # Rows come in the study's order (its levels as listed, then seed), not the keys' hashes.
    runs = df.drop_duplicates("run_key")
    got = [(r.rate_mbps, r.variant, r.seed) for r in runs.itertuples()]
    assert got == [(p.labels["rate_mbps"], p.labels["variant"], p.seed) for p in study.points()]
    assert (df["goodput_mbps"] > 0).all() and (df["srtt_time_avg_ms"] > 20).all()
    # The DuckDB view answers SQL across runs, joining the series.
    q = store.query(
        "SELECT rate_mbps, sum(goodput_mbps) AS total FROM runs "
        "WHERE variant = 'two flows' GROUP BY rate_mbps, seed ORDER BY rate_mbps"
    )
    assert q[q["rate_mbps"] == 20]["total"].min() > 1.5 * q[q["rate_mbps"] == 10]["total"].max()
    n = store.query("SELECT count(DISTINCT run_key) AS n FROM series JOIN runs USING (run_key)")
    assert n["n"][0] == 8
    before = tree_bytes(store.root)
    again = run_study(study, store, workers=2, progress=False)
    assert (again.done, again.skipped) == (0, 8)
    assert tree_bytes(store.root) == before


def test_a_changed_scenario_reads_only_the_current_runs(tmp_path: Path) -> None:
    """After the scenario changes (as after a new default), the old runs' files stay on disk
    but the views read only the study's current runs: no row twice."""
    path = write_study(tmp_path)
    store = ResultsStore(tmp_path / "store")
    run_study(load_study(path), store, workers=2, progress=False)
    old = set(store.frame("runs")["run_key"])
    (tmp_path / "base.toml").write_text(BASE.replace("mss = 1448", "mss = 1400"))
    rep = run_study(load_study(path), store, workers=2, progress=False)
    assert (rep.done, rep.skipped) == (8, 0)
    assert len(store.finished()) == 16, "the old runs' files are kept"
    df = store.frame("runs")
    assert len(df) == 12 and not old & set(df["run_key"])
    n = store.query("SELECT count(*) AS n FROM timing")
    assert n["n"][0] == 8


def test_a_failed_run_is_reported_and_the_study_goes_on(tmp_path: Path, monkeypatch) -> None:
    import ccsim.study_run as sr

    study = load_study(write_study(tmp_path))
    real = sr.run_task

    def flaky(task):  # noqa: ANN001, ANN202
        if task.labels["variant"] == "bbr alone" and task.seed == 2:
            raise RuntimeError("boom")
        return real(task)

    monkeypatch.setattr(sr, "run_task", flaky)
    store = ResultsStore(tmp_path / "store")
    seen = []
    rep = run_study(
        study, store, workers=2, progress=False, on_failure=lambda lab, m: seen.append(lab)
    )
    assert rep.done == 6 and len(rep.failed) == 2 and len(seen) == 2
    assert all("boom" in m for _, m in rep.failed)
    assert len(list((store.root / "failed").glob("*.txt"))) == 2
    monkeypatch.setattr(sr, "run_task", real)
    rep = run_study(study, store, workers=2, progress=False)
    assert (rep.done, rep.skipped, rep.failed) == (2, 6, [])
    assert not list((store.root / "failed").glob("*.txt"))


def test_kill_at_a_random_point_then_resume_gives_the_same_store(tmp_path: Path) -> None:
    path = write_study(tmp_path, dur=24.0)  # runs of 12-24 s simulated: ~0.1-0.3 s each
    ref = tmp_path / "ref"
    assert ccsim_cli("study", "run", str(path), "--store", str(ref)).returncode == 0
    rng = random.Random()
    seed = rng.randrange(1 << 30)
    rng.seed(seed)
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-m", "ccsim", "study", "run", str(path), "--store", str(killed)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # Wait for the first finished run, then kill at a random later point.
    deadline = time.monotonic() + 60
    while not (killed / "runs").exists() or not list((killed / "runs").glob("*.parquet")):
        assert time.monotonic() < deadline and proc.poll() is None, f"no run finished (seed {seed})"
        time.sleep(0.01)
    time.sleep(rng.uniform(0.0, 0.6))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = len(list((killed / "runs").glob("*.parquet")))
    # Whatever was on disk is complete: every Parquet file reads.
    store = ResultsStore(killed)  # also removes the killed writer's temporary files
    assert len(store.frame("runs")) >= 1
    res = ccsim_cli("study", "run", str(path), "--store", str(killed))
    assert res.returncode == 0, res.stderr
    assert f"{partial} already in the store" in res.stdout, (seed, res.stdout)
    assert tree_bytes(killed) == tree_bytes(ref), f"stores differ (kill seed {seed})"
    assert not [p for p in killed.rglob(".*") if p.is_file()]


def test_sigterm_stops_the_study_and_keeps_finished_runs(tmp_path: Path) -> None:
    path = write_study(tmp_path, dur=24.0)
    st = tmp_path / "st"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ccsim",
            "study",
            "run",
            str(path),
            "--store",
            str(st),
            "--workers",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (st / "runs").exists() or not list((st / "runs").glob("*.parquet")):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in out
    n = len(list((st / "runs").glob("*.parquet")))
    assert 1 <= n < 8
    assert not [p for p in st.rglob(".*") if p.is_file()]


def test_dask_local_cluster_gives_the_same_store(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    study = load_study(write_study(tmp_path))
    local = ResultsStore(tmp_path / "local")
    run_study(study, local, workers=2, progress=False)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            viad = ResultsStore(tmp_path / "dask")
            rep = run_study(study, viad, cluster=client, progress=False)
            # Runs executed in the worker processes, not here.
            pids = client.run(os.getpid)
            assert os.getpid() not in pids.values()
    assert (rep.done, rep.failed) == (8, [])
    assert tree_bytes(viad.root) == tree_bytes(local.root)


def test_aggregate_mean_ci_and_percentiles() -> None:
    import pandas as pd

    # t(0.975, 4) = 2.776; s = sqrt(2.5): half-width 2.776 * 1.5811 / sqrt(5) = 1.963.
    assert ci95([1, 2, 3, 4, 5]) == pytest.approx(1.963, abs=1e-3)
    assert ci95([3.0]) != ci95([3.0])  # NaN with a single value
    df = pd.DataFrame({"g": ["a"] * 5 + ["b"] * 2, "x": [1, 2, 3, 4, 5, 10, 10]})
    agg = aggregate(df, ["g"], ["x"]).set_index("g")
    assert agg.loc["a", "x_mean"] == 3 and agg.loc["a", "x_p20"] == pytest.approx(1.8)
    assert agg.loc["a", "x_p80"] == pytest.approx(4.2)
    assert (agg.loc["a", "x_min"], agg.loc["a", "x_max"]) == (1, 5)
    assert agg.loc["b", "x_ci95"] == 0 and agg.loc["b", "x_n"] == 2


def test_cli_study_run_and_query(tmp_path: Path) -> None:
    path = write_study(tmp_path)
    st = tmp_path / "st"
    res = ccsim_cli("study", "run", str(path), "--store", str(st), "--workers", "2")
    assert res.returncode == 0, res.stderr
    assert "8 runs done, 0 already in the store, 0 failed, of 8" in res.stdout
    res = ccsim_cli(
        "study", "query", str(path), "SELECT count(*) AS n FROM runs", "--store", str(st), "--csv"
    )
    assert res.returncode == 0 and res.stdout.split() == ["n", "12"]
    res = ccsim_cli("study", "query", str(path), "SELECT nope FROM runs", "--store", str(st))
    assert res.returncode == 2 and "nope" in res.stderr
    res = ccsim_cli("study", "run", str(tmp_path / "missing.toml"))
    assert res.returncode == 2 and "not found" in res.stderr
