"""Running a study: expand the grid, skip finished runs, run the rest in parallel, store each
run as it finishes.

Two executors:
- local (default): a pool of threads in this process. The core releases the GIL for the
  whole run (`Simulation.run_until`), so N threads use N cores with no interpreter per run.
- Dask distributed (`cluster="tcp://host:8786"` or a `distributed.Client`): each run is a
  task; the workers need ccsim installed and the scenario files (and any trace files) at the
  same paths. Results come back to this process, which alone writes the store.

A failed run is reported and recorded in ``failed/`` without stopping the study. On SIGINT or
SIGTERM the pending runs are cancelled; every run already finished is in the store.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ccsim.store import ResultsStore
from ccsim.study import RunPoint, Study, scenario_source
from ccsim.study_worker import RunTask, build, run_key, run_task


@dataclass
class StudyReport:
    total: int
    skipped: int
    done: int = 0
    failed: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    wall_s: float = 0.0
    interrupted: bool = False


def default_store(study: Study) -> Path:
    return Path("results") / "studies" / study.name


def make_tasks(study: Study) -> list[tuple[RunPoint, RunTask]]:
    """Builds every point's scenario once, to compute its run key (about a millisecond each)."""
    out = []
    sources: dict[tuple[Path, tuple[str, ...]], tuple[str, str]] = {}
    for p in study.points():
        src_key = (p.scenario, p.remove)
        if src_key not in sources:
            sources[src_key] = scenario_source(p)
        fmt, text = sources[src_key]
        base_dir = str(p.scenario.parent)
        sim = build(fmt, text, p.overrides, base_dir)
        task = RunTask(
            key=run_key(sim, p.seed),
            fmt=fmt,
            text=text,
            overrides=p.overrides,
            base_dir=base_dir,
            labels=p.labels,
            seed=p.seed,
            metrics=tuple(study.metrics),
            series=tuple(study.series),
            cells=study.cells,
        )
        out.append((p, task))
    return out


def bar_label(label: str, study: str) -> str:
    """A progress bar's name: `label` (e.g. "[3/26] seed004-fig3"), then the study's name
    unless the label already ends with it."""
    if not label or label.endswith(f" {study}"):
        return label or study
    return f"{label} {study}"


class StudyProgress:
    """Runs done / total with an ETA on stderr (a terminal only, unless forced)."""

    def __init__(self, name: str, total: int, enabled: bool | None = None) -> None:
        self.name, self.total = name, total
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.shown = False
        self.width = 0

    def update(self, done: int, failed: int) -> None:
        if not self.enabled or not self.total:
            return
        line = self.line(done, failed, time.perf_counter() - self.start)
        # Pad to the longest line so far: "\r" alone would leave a longer line's tail behind.
        self.width = max(self.width, len(line))
        sys.stderr.write("\r" + line.ljust(self.width))
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()

    def line(self, done: int, failed: int, wall: float) -> str:
        frac = done / self.total
        # No ETA before the first run ends: nothing to extrapolate from yet.
        eta = f"{wall * (1 - frac) / frac:.0f} s" if frac else "?"
        bar = "#" * int(frac * 30) + "." * (30 - int(frac * 30))
        fails = f", {failed} failed" if failed else ""
        return f"{self.name} [{bar}] {done}/{self.total} runs{fails}  {wall:.0f} s  ETA {eta} "


def _local(
    tasks: list[RunTask], workers: int
) -> Iterator[tuple[RunTask, Any, BaseException | None]]:
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ccsim-study")
    pending: dict[Future, RunTask] = {}
    todo = iter(tasks)
    try:
        # Keep only a few runs queued beyond the workers, so an interrupt cancels quickly.
        for t in todo:
            pending[pool.submit(run_task, t)] = t
            if len(pending) >= 2 * workers:
                break
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                t = pending.pop(fut)
                err = fut.exception()
                yield t, (None if err else fut.result()), err
                nxt = next(todo, None)
                if nxt is not None:
                    pending[pool.submit(run_task, nxt)] = nxt
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _dask(
    tasks: list[RunTask], cluster: Any
) -> Iterator[tuple[RunTask, Any, BaseException | None]]:
    from distributed import Client, as_completed

    client = cluster if isinstance(cluster, Client) else Client(cluster)
    try:
        futures = {
            client.submit(run_task, t, key=f"ccsim-run-{t.key}", pure=False): t for t in tasks
        }
        try:
            for fut in as_completed(list(futures)):
                t = futures[fut]
                if fut.status == "error":
                    yield t, None, fut.exception()
                else:
                    yield t, fut.result(), None
        finally:
            client.cancel(list(futures))
    finally:
        if client is not cluster:
            client.close()


def run_study(
    study: Study,
    store: ResultsStore | None = None,
    workers: int | None = None,
    cluster: Any = None,
    progress: bool | None = None,
    on_failure: Callable[[dict[str, Any], str], None] | None = None,
    label: str | None = None,
) -> StudyReport:
    """Runs every unfinished run of `study` into `store` (default results/studies/<name>).
    `label` names the progress bar (default: the study's name)."""
    store = store or ResultsStore(default_store(study))
    t0 = time.perf_counter()
    pairs = make_tasks(study)
    store.write_study(
        {
            "name": study.name,
            "file": str(study.path),
            "scenario": str(study.scenario),
            "seeds": study.seeds,
            "axes": {a.name: [lv.value for lv in a.levels] for a in study.axes},
            "metrics": study.metrics,
            "runs": len(pairs),
            "run_keys": sorted(t.key for _, t in pairs),
        }
    )
    done_keys = store.finished()
    todo = [t for _, t in pairs if t.key not in done_keys]
    report = StudyReport(total=len(pairs), skipped=len(pairs) - len(todo))
    bar = StudyProgress(label or study.name, len(todo), enabled=progress)
    bar.update(0, 0)  # shown at once: the first run may take a while
    workers = workers or os.cpu_count() or 1
    runs = _dask(todo, cluster) if cluster is not None else _local(todo, workers)
    old_term = _sigterm_as_interrupt()
    try:
        for task, out, err in runs:
            if err is None:
                store.write_run(out)
                report.done += 1
            else:
                msg = f"{type(err).__name__}: {err}"
                store.write_failure(task.key, msg + "\n")
                report.failed.append((dict(task.labels, seed=task.seed), msg))
                if on_failure:
                    on_failure(dict(task.labels, seed=task.seed), msg)
            bar.update(report.done + len(report.failed), len(report.failed))
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        runs.close()
        bar.close()
        _restore_sigterm(old_term)
    report.wall_s = time.perf_counter() - t0
    return report


def _sigterm_as_interrupt() -> Any:
    """SIGTERM stops a study like Ctrl-C (main thread only; elsewhere signals stay as they are)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, handler)


def _restore_sigterm(old: Any) -> None:
    if old is not None:
        signal.signal(signal.SIGTERM, old)
