"""Writing a run's results directory.

Everything is written into a hidden sibling directory first and moved into place only when
the run has finished, so a failed or interrupted run never leaves files that look complete.
Time series are streamed to Parquet slice by slice, so memory stays bounded on long runs.

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
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq


class SeriesWriter:
    """Appends column chunks to one Parquet file (an empty file if no rows ever come)."""

    def __init__(self, path: Path, extra: dict[str, Any] | None = None) -> None:
        self.path = path
        self._writer: pq.ParquetWriter | None = None
        self._extra = extra or {}
        self.rows = 0

    def write(self, columns: dict[str, np.ndarray]) -> None:
        if not len(columns["t_s"]):
            return
        table = pa.table(columns)
        for name, fn in self._extra.items():
            table = table.append_column(name, fn(columns))
        if self._writer is None:
            self._writer = pq.ParquetWriter(self.path, table.schema)
        self._writer.write_table(table)
        self.rows += table.num_rows

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None


class ResultDir:
    """A results directory being written; `commit` moves it into place."""

    def __init__(
        self,
        final: Path,
        link_names: list[str],
        radio_names: tuple[list[str], list[str]] = ([], []),
    ) -> None:
        self.final = final
        final.parent.mkdir(parents=True, exist_ok=True)
        if final.exists() and not final.is_dir():
            raise FileExistsError(f"--out {final} exists and is not a directory")
        if final.is_dir() and any(final.iterdir()) and not (final / "summary.json").exists():
            raise FileExistsError(
                f"--out {final} is a non-empty directory that is not a ccsim result; "
                "choose another directory"
            )
        self.tmp = final.parent / f".{final.name}.partial-{os.getpid()}"
        shutil.rmtree(self.tmp, ignore_errors=True)
        self.tmp.mkdir()
        link_arr = pa.array(link_names, pa.string())
        self.flow_series = SeriesWriter(self.tmp / "flow_timeseries.parquet")
        self.queue_series = SeriesWriter(
            self.tmp / "queue_timeseries.parquet",
            {"link_name": lambda c: link_arr.take(pa.array(c["link"]))},
        )
        ue_arr = pa.array(radio_names[0], pa.string())
        cell_arr = pa.array(radio_names[1], pa.string())
        self.radio_series = SeriesWriter(
            self.tmp / "radio_timeseries.parquet",
            {
                "ue_name": lambda c: ue_arr.take(pa.array(c["ue"])),
                "cell_name": lambda c: cell_arr.take(pa.array(c["serving_cell"])),
            },
        )

    def on_chunk(
        self,
        flows: dict[str, np.ndarray],
        queues: dict[str, np.ndarray],
        radio: dict[str, np.ndarray] | None = None,
    ) -> None:
        self.flow_series.write(flows)
        self.queue_series.write(queues)
        if radio is not None:
            self.radio_series.write(radio)

    @property
    def has_radio(self) -> bool:
        return self.radio_series.rows > 0

    def close_series(self) -> None:
        self.flow_series.close()
        self.queue_series.close()
        self.radio_series.close()

    def finish(self, summary: dict[str, Any], scenario: dict[str, Any]) -> None:
        self.close_series()
        (self.tmp / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        (self.tmp / "scenario.json").write_text(json.dumps(scenario, indent=2) + "\n")
        pd.DataFrame(summary["flows"]).to_parquet(self.tmp / "flows.parquet", index=False)
        pd.DataFrame(summary["queues"]).to_parquet(self.tmp / "queues.parquet", index=False)

    @property
    def plots_dir(self) -> Path:
        d = self.tmp / "plots"
        d.mkdir(exist_ok=True)
        return d

    def commit(self) -> Path:
        if self.final.exists():
            shutil.rmtree(self.final)
        self.tmp.rename(self.final)
        return self.final

    def abort(self) -> None:
        for w in (self.flow_series, self.queue_series, self.radio_series):
            try:
                w.close()
            except Exception:  # noqa: BLE001 - best effort while failing
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)
