"""`ccsim reproduce` shows progress on stderr: which target of how many, and each study's
runs done / total with an ETA (a two-run stub study here, about a second), on a terminal only
unless forced, and nothing for runs already in the cache."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from ccsim import reproduce
from ccsim import targets_seed004 as t4
from ccsim.verdicts import Context, Outcome

SCENARIO = """
name = "progress-stub"
[run]
duration = "1s"
[dumbbell.bottleneck]
rate = "10Mbps"
delay = "10ms"
queue = "1bdp"
[[flows]]
cca = "cubic"
"""

STUDY = """
name = "progress-stub"
scenario = "stub.toml"
seeds = [1]
metrics = ["goodput_mbps"]

[[axes]]
name = "rate_mbps"
values = [10, 20]
set = { "dumbbell.bottleneck.rate" = "{rate_mbps}Mbps" }
"""


def _stub_study(root: Path) -> None:
    (root / "studies").mkdir()
    (root / "studies" / "stub.toml").write_text(SCENARIO)
    (root / "studies" / "progress_stub.toml").write_text(STUDY)


def _bar_lines(stderr: str) -> list[str]:
    return [x.strip() for x in re.split(r"[\r\n]", stderr) if " runs" in x and "ETA" in x]


def test_a_targets_study_shows_runs_done_of_total_with_an_eta(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stub_study(tmp_path)
    monkeypatch.chdir(tmp_path)
    ctx = Context(out=tmp_path / "out", workers=1, progress=True, label="[2/5] seed000-fig1")
    ctx.store("progress_stub.toml")
    lines = _bar_lines(capsys.readouterr().err)
    # Named by the target and the study; shown at 0 (no ETA yet), then after each run.
    assert [re.search(r"(\d+)/2 runs", x).group(1) for x in lines] == ["0", "1", "2"]
    assert all(x.startswith("[2/5] seed000-fig1 progress-stub [") for x in lines)
    assert "ETA ?" in lines[0] and re.search(r"ETA \d+ s", lines[-1])
    # A rerun finds both runs in the store: nothing to show.
    ctx.store("progress_stub.toml")
    assert _bar_lines(capsys.readouterr().err) == []


def test_no_progress_off_a_terminal_unless_forced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stub_study(tmp_path)
    monkeypatch.chdir(tmp_path)
    Context(out=tmp_path / "out", workers=1).store("progress_stub.toml")  # stderr: not a TTY
    assert capsys.readouterr().err.count(" runs") == 1  # only the "2 runs in x s" summary


def test_seed004_runs_count_the_simulated_runs_not_the_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 004's targets run their mesh runs outside the study store (~11 min for all)."""
    _stub_study(tmp_path)
    monkeypatch.setitem(t4.STUDIES, "stub", "studies/progress_stub.toml")
    cache = tmp_path / t4.CACHE
    simulated: list[str] = []

    def fake_run_one(task, cache=cache):  # noqa: ANN001, ANN202
        path = cache / f"{task.key}.json"
        if not path.exists():
            simulated.append(task.key)
            cache.mkdir(parents=True, exist_ok=True)
            path.write_text("{}")
        return {"labels": task.labels, "seed": task.seed}

    monkeypatch.setattr(t4, "run_one", fake_run_one)
    rs = t4.runs("stub", 2, root=tmp_path, progress=True, label="[1/1] seed004-fig3")
    assert [r["labels"]["rate_mbps"] for r in rs] == [10, 20]  # the study's order
    lines = _bar_lines(capsys.readouterr().err)
    assert [re.search(r"(\d+)/2 runs", x).group(1) for x in lines] == ["0", "1", "2"]
    assert lines[0].startswith("[1/1] seed004-fig3 progress-stub [")
    # One cached, one missing: the bar counts the one simulation.
    (cache / f"{simulated[0]}.json").unlink()
    t4.runs("stub", 2, root=tmp_path, progress=True)
    lines = _bar_lines(capsys.readouterr().err)
    assert [re.search(r"(\d+)/(\d+) runs", x).groups() for x in lines] == [("0", "1"), ("1", "1")]


def _args(tmp_path: Path, targets: list[str], progress: bool | None) -> argparse.Namespace:
    return argparse.Namespace(
        list=False,
        all=False,
        targets=targets,
        out=str(tmp_path),
        workers=1,
        cluster=None,
        doc=str(tmp_path / "doc.md"),
        progress=progress,
    )


def test_reproduce_names_each_target_k_of_n(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[str] = []

    def stub(ctx: Context) -> Outcome:
        seen.append(ctx.label)  # what the target's progress bars start with
        return Outcome()

    monkeypatch.setattr(reproduce, "TARGETS", {"seed001-fig4": stub, "seed001-fig5": stub})
    names = ["seed001-fig4", "seed001-fig1", "seed001-fig5"]  # fig1: an illustration
    assert reproduce.main(_args(tmp_path, names, progress=True)) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == ["reproduce [1/2] seed001-fig4", "reproduce [2/2] seed001-fig5"]
    assert seen == ["[1/2] seed001-fig4", "[2/2] seed001-fig5"]
    for off in (False, None):  # --no-progress; and off a terminal by default
        assert reproduce.main(_args(tmp_path, names, progress=off)) == 0
        assert capsys.readouterr().err == ""


def test_bar_names_a_study_once_and_pads_over_a_longer_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ccsim.study_run import StudyProgress, bar_label

    assert bar_label("[3/9] seed004-fig3", "seed004-fig3") == "[3/9] seed004-fig3"
    assert bar_label("[3/9] seed004-fig6", "seed004-fig6-7") == "[3/9] seed004-fig6 seed004-fig6-7"
    assert bar_label("", "s") == "s"
    bar = StudyProgress("s", 10, enabled=True)
    bar.start -= 500  # 500 s in: "ETA 4500 s" after one run, "ETA 0 s" after ten
    bar.update(1, 0)
    bar.update(10, 0)
    first, last = capsys.readouterr().err.split("\r")[1:]
    assert "ETA 4500 s" in first and "ETA 0 s" in last and len(last) == len(first)
