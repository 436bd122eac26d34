"""Writing a run's results directory.

Everything is written into a hidden sibling directory `.DIR.partial-PID` first and moved into
place only when the run has finished, so a failed or interrupted run never leaves files that
look complete; partials of dead processes are removed by the next run into the same DIR.
Parquet files are written under a `.part` name and renamed when closed, so no `*.parquet` is
ever truncated. Time series are streamed to Parquet slice by slice, so memory stays bounded.

DIR holds a manifest, `.ccsim-result.json`, listing the files ccsim wrote. A later run only
replaces a DIR whose every file is listed there (or, for results of older versions without
a manifest, is one of the standard files below), and removes only those files: `--out .`,
the home directory, a mount point or a directory with anyone else's files is refused
before the run starts (issue 18).

Layout of DIR:
  summary.json              the summary (also printed by ``ccsim run --json``)
  scenario.json             the scenario as run (defaults and overrides applied)
  flows.parquet             one row per flow (the summary's ``flows``)
  queues.parquet            one row per link queue
  flow_timeseries.parquet   per sample and flow: cwnd, ssthresh, srtt, goodput, ...
  queue_timeseries.parquet  per sample and link: queue packets/bytes, drops, rate
  radio_timeseries.parquet  per sample and UE (radio scenarios): SINR, serving cell, LOS, RLC
  plots/overview.png        cwnd, goodput, RTT and bottleneck queue over time
  plots/radio_profile.png   SINR along the path, NLOS shaded, coloured by serving cell
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

# pandas and pyarrow are imported where first used: `ccsim run` imports them in a background
# thread while the simulation runs (ccsim.preload), and checks the output directory before.
if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

#: The manifest of a results directory: which files ccsim wrote there.
MANIFEST = ".ccsim-result.json"

#: What a results directory of a version without manifest could hold.
LEGACY_FILES = frozenset(
    {
        "summary.json",
        "scenario.json",
        "flows.parquet",
        "queues.parquet",
        "flow_timeseries.parquet",
        "queue_timeseries.parquet",
        "radio_timeseries.parquet",
        "plots/overview.png",
        "plots/radio_profile.png",
    }
)


class OutDirError(ValueError):
    """`--out` names a directory ccsim must not write to (raised before the run)."""


def _write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    """Writes `path` through a `.part` sibling renamed at the end: never a truncated file."""
    part = path.with_name(path.name + ".part")
    try:
        write(part)
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def _files_under(d: Path) -> tuple[set[str], set[str]]:
    """(files, directories) below `d`, as relative POSIX paths."""
    files, dirs = set(), set()
    for p in d.rglob("*"):
        rel = p.relative_to(d).as_posix()
        (dirs if p.is_dir() and not p.is_symlink() else files).add(rel)
    return files, dirs


def owned_files(d: Path) -> set[str] | None:
    """The files of `d` ccsim may replace, or None if `d` is not (only) a ccsim result."""
    files, dirs = _files_under(d)
    if (d / MANIFEST).is_file():
        try:
            listed = set(json.loads((d / MANIFEST).read_text(encoding="utf-8"))["files"])
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            return None
        listed.add(MANIFEST)
    elif "summary.json" in files:
        listed = set(LEGACY_FILES)
    else:
        return None
    parents = {str(Path(f).parent.as_posix()) for f in listed} - {"."}
    if not files <= listed or not dirs <= parents:
        return None
    return files


def check_out_dir(final: Path) -> None:
    """Raises OutDirError when a run must not write its results to `final`."""
    resolved = final.resolve()
    cwd = Path.cwd().resolve()
    if resolved == cwd or resolved in cwd.parents:
        raise OutDirError(
            f"--out {final} is the current directory or one of its parents; results replace "
            "their directory, so give a new or ccsim-made subdirectory such as results/NAME"
        )
    if resolved == Path.home().resolve() or resolved == Path(resolved.anchor):
        raise OutDirError(f"--out {final} is the home or root directory; give a subdirectory")
    if final.exists() and not final.is_dir():
        raise OutDirError(f"--out {final} exists and is not a directory")
    if final.is_dir() and os.path.ismount(final):
        raise OutDirError(
            f"--out {final} is a mount point, which cannot be replaced; give a subdirectory of it"
        )
    if final.is_dir() and any(final.iterdir()) and owned_files(final) is None:
        raise OutDirError(
            f"--out {final} holds files ccsim did not write; choose another directory "
            "(ccsim only replaces its own results)"
        )


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale_partials(final: Path) -> list[Path]:
    """Removes `.NAME.partial-PID` / `.NAME.old-PID` siblings of `final` whose process is
    gone (a run killed by SIGKILL or a power cut). Returns what was removed."""
    removed = []
    for p in final.parent.glob(f".{final.name}.*-*"):
        kind, _, pid = p.name[len(final.name) + 2 :].rpartition("-")
        if kind in ("partial", "old") and pid.isdigit() and not _pid_alive(int(pid)):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


class SeriesWriter:
    """Appends column chunks to one Parquet file (no file if no rows ever come). The file is
    written as `NAME.part` and gets its name only when complete. Chunks are gathered into row
    groups of at least `ROW_GROUP_ROWS` rows: one row group per drain made the footer's
    metadata (kept in memory until close) grow with the run's length (issue 18)."""

    ROW_GROUP_ROWS = 1 << 16

    def __init__(self, path: Path, schema: pa.Schema, extra: dict[str, Any] | None = None) -> None:
        self.path = path
        self._schema = schema
        self._part = path.with_name(path.name + ".part")
        self._writer: pq.ParquetWriter | None = None
        self._extra = extra or {}
        self._pending: list[pa.Table] = []
        self._pending_rows = 0
        self.rows = 0

    def write(self, columns: dict[str, np.ndarray]) -> None:
        if not len(columns["t_s"]):
            return
        import pyarrow as pa

        # The core's declared schema: a missing, extra or retyped column is an error here.
        table = pa.table(columns, schema=self._schema)
        for name, fn in self._extra.items():
            table = table.append_column(name, fn(columns))
        self._pending.append(table)
        self._pending_rows += table.num_rows
        self.rows += table.num_rows
        if self._pending_rows >= self.ROW_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.concat_tables(self._pending)
        self._pending, self._pending_rows = [], 0
        if self._writer is None:
            self._writer = pq.ParquetWriter(self._part, table.schema)
        self._writer.write_table(table)

    def close(self) -> None:
        self._flush()
        if self._writer is not None:
            self._writer.close()
            self._writer = None
            os.replace(self._part, self.path)


class ResultDir:
    """A results directory being written; `commit` moves it into place."""

    def __init__(
        self,
        final: Path,
        link_names: list[str],
        radio_names: tuple[list[str], list[str]] = ([], []),
    ) -> None:
        self.final = final
        check_out_dir(final)
        final.parent.mkdir(parents=True, exist_ok=True)
        clean_stale_partials(final)
        self.tmp = final.parent / f".{final.name}.partial-{os.getpid()}"
        shutil.rmtree(self.tmp, ignore_errors=True)
        self.tmp.mkdir()
        self._names = (link_names, radio_names)
        self._writers: tuple[SeriesWriter, SeriesWriter, SeriesWriter] | None = None

    def _open(self) -> tuple[SeriesWriter, SeriesWriter, SeriesWriter]:
        """The three series writers, made at the first chunk (they need pyarrow)."""
        if self._writers is not None:
            return self._writers
        import pyarrow as pa

        from ccsim.schema import series_schema

        link_names, radio_names = self._names
        link_arr = pa.array(link_names, pa.string())
        flow_series = SeriesWriter(self.tmp / "flow_timeseries.parquet", series_schema("flows"))
        queue_series = SeriesWriter(
            self.tmp / "queue_timeseries.parquet",
            series_schema("queues"),
            {"link_name": lambda c: link_arr.take(pa.array(c["link"]))},
        )
        ue_arr = pa.array(radio_names[0], pa.string())
        cell_arr = pa.array(radio_names[1], pa.string())
        radio_series = SeriesWriter(
            self.tmp / "radio_timeseries.parquet",
            series_schema("radio"),
            {
                "ue_name": lambda c: ue_arr.take(pa.array(c["ue"])),
                "cell_name": lambda c: cell_arr.take(pa.array(c["serving_cell"])),
            },
        )
        self._writers = (flow_series, queue_series, radio_series)
        return self._writers

    def on_chunk(
        self,
        flows: dict[str, np.ndarray],
        queues: dict[str, np.ndarray],
        radio: dict[str, np.ndarray] | None = None,
    ) -> None:
        flow_series, queue_series, radio_series = self._open()
        flow_series.write(flows)
        queue_series.write(queues)
        if radio is not None:
            radio_series.write(radio)

    @property
    def has_radio(self) -> bool:
        return self._writers is not None and self._writers[2].rows > 0

    def close_series(self) -> None:
        for w in self._writers or ():
            w.close()

    def finish(self, summary: dict[str, Any], scenario: dict[str, Any]) -> None:
        import pandas as pd

        self.close_series()
        (self.tmp / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        (self.tmp / "scenario.json").write_text(json.dumps(scenario, indent=2) + "\n")
        for name, rows in (("flows", summary["flows"]), ("queues", summary["queues"])):
            _write_atomic(
                self.tmp / f"{name}.parquet",
                lambda p, rows=rows: pd.DataFrame(rows).to_parquet(p, index=False),
            )

    @property
    def plots_dir(self) -> Path:
        d = self.tmp / "plots"
        d.mkdir(exist_ok=True)
        return d

    def commit(self) -> Path:
        """Moves the results into place. An earlier result there is set aside first, then
        only the files its manifest lists are removed."""
        files, _ = _files_under(self.tmp)
        manifest = {"ccsim": "results directory", "files": sorted(files)}
        (self.tmp / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        old = None
        if self.final.exists():
            check_out_dir(self.final)  # again: files may have appeared during the run
            owned = owned_files(self.final) or set()
            old = self.final.parent / f".{self.final.name}.old-{os.getpid()}"
            self.final.rename(old)
        self.tmp.rename(self.final)
        if old is not None:
            for f in sorted(owned, key=len, reverse=True):
                (old / f).unlink(missing_ok=True)
            for d in sorted(_files_under(old)[1], key=len, reverse=True):
                _rmdir_if_empty(old / d)
            _rmdir_if_empty(old)
        return self.final

    def abort(self) -> None:
        for w in self._writers or ():
            try:
                w.close()
            except Exception:  # noqa: BLE001 - best effort while failing
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)


def _rmdir_if_empty(d: Path) -> None:
    try:
        d.rmdir()
    except OSError:
        pass
