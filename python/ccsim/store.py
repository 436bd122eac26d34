"""A study's results store: one Parquet file per finished run, and a DuckDB view over them.

Layout of a store directory::

  study.json             the study as run (file, axes, seeds) -- informational
  runs/<key>.parquet     one row per flow: run_key, the axis values, seed, flow, metrics
  series/<key>.parquet   the flow time series the study asked for (optional)
  cells/<key>.parquet    per-cell radio counters (optional)
  timing/<key>.json      wall times of the run (the only files that differ between reruns)
  failed/<key>.txt       the error of a run that failed (removed when it succeeds)

A run is finished when ``runs/<key>.parquet`` exists. Every file is written to a hidden
temporary name, flushed to disk and renamed into place, and ``runs/`` is written last, so a
study killed at any point (even SIGKILL) leaves only complete files; a rerun skips finished
runs and redoes the rest. The key is the hash of the resolved scenario, the seed and the ccsim
version (`study_worker.run_key`), so changing anything that matters runs again; `study.json`
lists the keys of the study as last run, and the views read only those (older runs' files stay
on disk, unread).

Parquet files are written by pyarrow without timestamps or pandas metadata, so the same
run gives the same bytes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

TABLES = ("runs", "series", "cells")


def _atomic_write(path: Path, write: Any) -> None:
    """Calls `write(tmp_path)`, fsyncs the file and renames it to `path`."""
    tmp = path.parent / f".{path.name}.tmp-{os.getpid()}"
    try:
        write(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _sql_list(paths: list[str]) -> str:
    """A DuckDB list literal of file paths."""
    return "[" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]"


def _write_parquet(path: Path, table: pa.Table) -> None:
    _atomic_write(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))


class ResultsStore:
    """The results of one study, on disk."""

    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root)
        for d in (*TABLES, "timing", "failed"):
            (self.root / d).mkdir(parents=True, exist_ok=True)
        self._clean_partial()

    def _clean_partial(self) -> None:
        # Leftovers of a killed writer: never complete, never read (the globs skip them).
        for d in (*TABLES, "timing"):
            for p in (self.root / d).glob(".*.tmp-*"):
                p.unlink(missing_ok=True)

    def finished(self) -> set[str]:
        return {p.stem for p in (self.root / "runs").glob("*.parquet")}

    def has(self, key: str) -> bool:
        return (self.root / "runs" / f"{key}.parquet").exists()

    def write_study(self, info: dict[str, Any]) -> None:
        text = json.dumps(info, indent=2, default=str) + "\n"
        _atomic_write(self.root / "study.json", lambda tmp: tmp.write_text(text))

    def write_run(self, out: dict[str, Any]) -> None:
        """Stores one finished run (the dict `study_worker.run_task` returns)."""
        key = out["key"]
        if out.get("series") is not None:
            cols = dict(out["series"])
            cols["run_key"] = pa.array([key] * len(cols["t_s"]), pa.string())
            _write_parquet(self.root / "series" / f"{key}.parquet", pa.table(cols))
        if out.get("cells"):
            _write_parquet(
                self.root / "cells" / f"{key}.parquet", pa.Table.from_pylist(out["cells"])
            )
        text = json.dumps({"run_key": key, **out["timing"]}) + "\n"
        _atomic_write(self.root / "timing" / f"{key}.json", lambda tmp: tmp.write_text(text))
        _write_parquet(self.root / "runs" / f"{key}.parquet", pa.Table.from_pylist(out["rows"]))
        (self.root / "failed" / f"{key}.txt").unlink(missing_ok=True)

    def write_failure(self, key: str, message: str) -> None:
        _atomic_write(self.root / "failed" / f"{key}.txt", lambda tmp: tmp.write_text(message))

    def current_keys(self) -> set[str] | None:
        """The run keys of the study as last run (`study.json`), or None for an older store.

        A store keeps the files of runs whose key the study no longer makes (after a change of
        the scenario, of a default or of ccsim's version); the views leave those out, so they
        are never counted twice."""
        path = self.root / "study.json"
        if not path.is_file():
            return None
        keys = json.loads(path.read_text()).get("run_keys")
        return None if keys is None else set(keys)

    def _files(self, table: str, suffix: str) -> list[str]:
        keys = self.current_keys()
        return sorted(
            str(p)
            for p in (self.root / table).glob(f"*{suffix}")
            if keys is None or p.name.removesuffix(suffix) in keys
        )

    def connect(self) -> Any:
        """A DuckDB connection with the views `runs`, `series`, `cells` and `timing`, over the
        current study's runs only (`current_keys`)."""
        import duckdb

        con = duckdb.connect()
        for name in TABLES:
            files = self._files(name, ".parquet")
            if files:
                con.execute(
                    f"CREATE VIEW {name} AS SELECT * FROM "
                    f"read_parquet({_sql_list(files)}, union_by_name = true)"
                )
        timing = self._files("timing", ".json")
        if timing:
            con.execute(f"CREATE VIEW timing AS SELECT * FROM read_json_auto({_sql_list(timing)})")
        return con

    def query(self, sql: str) -> Any:
        """Runs SQL over the store's views and returns a pandas DataFrame."""
        con = self.connect()
        try:
            return con.execute(sql).df()
        finally:
            con.close()

    def axes(self) -> dict[str, list[Any]]:
        """The study's axes as last run (`study.json`): name -> levels, in the study's order."""
        path = self.root / "study.json"
        if not path.is_file():
            return {}
        return json.loads(path.read_text()).get("axes") or {}

    def frame(self, table: str = "runs") -> Any:
        """A whole table (`runs`, `series`, `cells`) as a DataFrame, ordered for stable output.

        The runs table comes in the study's own order (each axis's levels as the study file
        lists them, then seed, then flow), so tables and plots built from it keep that order
        whatever the run keys' hashes are."""
        import pandas as pd

        if not self._files(table, ".parquet"):
            return pd.DataFrame()
        order = "run_key, flow" if table == "runs" else "run_key"
        df = self.query(f"SELECT * FROM {table} ORDER BY {order}")
        if table != "runs":
            return df
        keys = []
        for name, levels in self.axes().items():
            if name in df.columns:
                rank = {str(v): i for i, v in enumerate(levels)}
                df[f"_order_{name}"] = df[name].map(lambda v, r=rank: r.get(str(v), len(r)))
                keys.append(f"_order_{name}")
        if not keys:
            return df
        keys += [c for c in ("seed", "flow") if c in df.columns]
        df = df.sort_values(keys, kind="stable").drop(
            columns=[k for k in keys if k.startswith("_order_")]
        )
        return df.reset_index(drop=True)
