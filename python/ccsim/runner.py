"""Building and running simulations from Python: `ccsim.run`, `ccsim.load`, `Result`."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

from ccsim._ccsim import ScenarioError, Simulation

#: Number of slices a run is cut into (progress updates and series drains).
_SLICES = 50
#: Longest stretch of wall time the core runs without returning to Python, so Ctrl-C and
#: SIGTERM are seen within it however long a slice of simulated time takes (issue 18).
WALL_CHECK_S = 0.1
#: Series are also drained after this much wall time, so their buffer stays bounded.
_DRAIN_WALL_S = 1.0
#: Longest slice of simulated time: chunks of series (and the allocator's peak) must not grow
#: with the run's duration (a 3600 s run's 72 s slices doubled its peak RSS; issue 18).
_MAX_SLICE_S = 2.0


def _toml_literal(value: Any) -> str:
    """A Python value as the right-hand side of a `key=value` override."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_literal(v) for v in value) + "]"
    raise TypeError(f"cannot use {type(value).__name__} {value!r} as a scenario value")


def _overrides(set_: Sequence[str] | None, kwargs: Mapping[str, Any]) -> list[str]:
    out = list(set_ or [])
    for key, value in kwargs.items():
        out.append(f"{key.replace('__', '.')}={_toml_literal(value)}")
    return out


def load(
    scenario: str | os.PathLike | Mapping[str, Any],
    set: Sequence[str] | None = None,  # noqa: A002 - mirrors the CLI's --set
    **overrides: Any,
) -> Simulation:
    """Builds a :class:`Simulation` from a TOML/JSON file path, TOML text or a dict.

    Raises :class:`ccsim.ScenarioError` (a ValueError) naming the key path on bad input,
    and FileNotFoundError for a missing file.
    """
    if isinstance(set, str):  # `set="a=b"`: one override, not a list of characters
        set = [set]  # noqa: A001
    ov = _overrides(set, overrides)
    if isinstance(scenario, Mapping):
        _check_finite(scenario, "")
        return Simulation.from_json(json.dumps(scenario), ov)
    text_or_path = os.fspath(scenario)
    if _looks_like_path(text_or_path):
        path = Path(text_or_path)
        if not path.is_file():
            raise FileNotFoundError(f"scenario file not found: {path}")
        text = read_scenario_text(path)
        base = str(path.resolve().parent)
        if path.suffix == ".json":
            return Simulation.from_json(text, ov, base)
        return Simulation.from_toml(text, ov, base)
    return Simulation.from_toml(text_or_path, ov)


def _looks_like_path(s: str) -> bool:
    """A one-line string without `=` or `[` is a file name (`base.tml` is a typo of a path,
    not TOML text); TOML text always has a `key = value` or a `[table]`."""
    return "\n" not in s and (
        s.endswith((".toml", ".json")) or Path(s).exists() or ("=" not in s and "[" not in s)
    )


def read_scenario_text(path: Path) -> str:
    """The text of a scenario file; a ScenarioError (not a traceback) if it is not UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        msg = (
            f"{path} is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
            "save it as UTF-8"
        )
        raise ScenarioError(msg, "", msg) from None


def _check_finite(value: Any, path: str) -> None:
    """NaN and infinities cannot go through JSON: name the key instead of a parse error."""
    if isinstance(value, float) and not math.isfinite(value):
        msg = f"must be a finite number, got {value}"
        raise ScenarioError(f"`{path}`: {msg}", path, msg)
    if isinstance(value, Mapping):
        for k, v in value.items():
            _check_finite(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_finite(v, f"{path}[{i}]")


def _pd():  # noqa: ANN202 - the pandas module
    """pandas, imported on first use: `ccsim run` starts the simulation before it."""
    import pandas

    return pandas


#: One slice of a series as the core hands it over: column name -> (numpy dtype, bytes).
RawColumns = Mapping[str, tuple[str, bytes]]


def _columns(raw: RawColumns) -> dict[str, np.ndarray]:
    """A raw slice as numpy arrays (numpy is imported here, not with the module: `ccsim run`
    imports it in the background while the simulation runs)."""
    import numpy as np

    return {name: np.frombuffer(buf, dtype=np.dtype(dt)) for name, (dt, buf) in raw.items()}


Columns = dict[str, "np.ndarray"]


def execute(
    sim: Simulation,
    on_chunk: Callable[[Columns, Columns, Columns], None] | None = None,
    progress: Callable[[float, float, float], None] | None = None,
    raw: bool = False,
) -> float:
    """Runs `sim` to the end in slices, handing each slice's series (flows, queues, radio)
    to `on_chunk` and calling `progress(now_s, duration_s, wall_s)`. Returns the wall time
    in seconds. With `raw`, the slices are the core's :data:`RawColumns` (convert them with
    `_columns`), so that the run itself never waits for numpy to be imported."""
    conv = (lambda c: c) if raw else _columns
    start = time.perf_counter()
    duration = sim.duration_s
    step = min(duration / _SLICES, _MAX_SLICE_S)
    k = 1
    drained = start
    while not sim.finished:
        reached = sim.run_until(min(duration, k * step), WALL_CHECK_S)
        now = time.perf_counter()
        if on_chunk is not None and (reached or now - drained >= _DRAIN_WALL_S):
            flows, queues, radio = sim.drain_series()
            on_chunk(conv(flows), conv(queues), conv(radio))
            drained = now
        if progress is not None:
            progress(sim.now_s, duration, now - start)
        k += reached
    if on_chunk is not None:
        flows, queues, radio = sim.drain_series()
        if len(flows["t_s"][1]) or len(queues["t_s"][1]) or len(radio["t_s"][1]):
            on_chunk(conv(flows), conv(queues), conv(radio))
    return time.perf_counter() - start


@dataclass
class Result:
    """What a run produced: the summary and the tables as DataFrames."""

    summary: dict[str, Any]
    flow_series: pd.DataFrame
    queue_series: pd.DataFrame
    scenario: dict[str, Any] = field(default_factory=dict)
    #: Per UE and sample: SINR, serving cell, LOS, RLC occupancy... (empty without radio).
    radio_series: pd.DataFrame = field(default_factory=lambda: _pd().DataFrame())

    @property
    def flows(self) -> pd.DataFrame:
        """One row per flow: goodput, RTT statistics, retransmissions, FCT."""
        return _pd().DataFrame(self.summary["flows"])

    @property
    def queues(self) -> pd.DataFrame:
        """One row per link queue: drops, occupancy."""
        return _pd().DataFrame(self.summary["queues"])

    @property
    def wall_s(self) -> float:
        return float(self.summary["wall_s"])


def series_frames(
    flow_chunks: list[dict[str, np.ndarray]],
    queue_chunks: list[dict[str, np.ndarray]],
    link_names: list[str],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    import numpy as np

    pd = _pd()

    def concat(chunks: list[dict[str, np.ndarray]]) -> pd.DataFrame:
        if not chunks:
            return pd.DataFrame()
        return pd.DataFrame({k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]})

    fs = concat(flow_chunks)
    qs = concat(queue_chunks)
    if len(qs):
        qs.insert(2, "link_name", pd.Categorical.from_codes(qs["link"].astype(int), link_names))
    return fs, qs


def radio_frame(chunks: list[Columns], ue_names: list[str], cell_names: list[str]) -> pd.DataFrame:
    """The radio series as one DataFrame, with `ue_name` and `cell_name` columns."""
    import numpy as np

    pd = _pd()
    if not chunks:
        return pd.DataFrame()
    rs = pd.DataFrame({k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]})
    rs.insert(2, "ue_name", pd.Categorical.from_codes(rs["ue"].astype(int), ue_names))
    rs.insert(5, "cell_name", pd.Categorical.from_codes(rs["serving_cell"].astype(int), cell_names))
    return rs


def run_sim(
    sim: Simulation,
    on_chunk: Callable[[Columns, Columns, Columns], None] | None = None,
    progress: Callable[[float, float, float], None] | None = None,
    keep_series: bool = True,
    raw_chunks: bool = False,
) -> Result:
    """The one run path (`ccsim.run` and `ccsim run` both use it): runs `sim` to the end,
    handing each slice of series to `on_chunk`, and returns the :class:`Result`. The summary
    (link-change metrics and wall-clock figures included) is the core's; with
    `keep_series=False` the series are only streamed, and the Result's frames are empty.
    With `raw_chunks`, `on_chunk` gets the core's :data:`RawColumns` (see :func:`execute`)."""
    flow_chunks: list[Columns] = []
    queue_chunks: list[Columns] = []
    radio_chunks: list[Columns] = []

    def chunk(f: RawColumns, q: RawColumns, r: RawColumns) -> None:
        cols = None
        if keep_series or (on_chunk is not None and not raw_chunks):
            cols = (_columns(f), _columns(q), _columns(r))
        if keep_series:
            flow_chunks.append(cols[0])
            queue_chunks.append(cols[1])
            if len(cols[2]["t_s"]):
                radio_chunks.append(cols[2])
        if on_chunk is not None:
            on_chunk(*((f, q, r) if raw_chunks else cols))

    execute(sim, chunk, progress, raw=True)
    fs, qs = series_frames(flow_chunks, queue_chunks, sim.link_names())
    rs = radio_frame(radio_chunks, *sim.radio_names())
    summary = json.loads(sim.summary_json())
    scenario = json.loads(sim.scenario_json())
    return Result(summary, fs, qs, scenario, rs)


def run(
    scenario: str | os.PathLike | Mapping[str, Any],
    set: Sequence[str] | None = None,  # noqa: A002
    **overrides: Any,
) -> Result:
    """Runs a scenario to the end and returns a :class:`Result` (the GIL is released while
    the core runs)."""
    return run_sim(load(scenario, set, **overrides))


__all__ = ["Result", "ScenarioError", "execute", "load", "run", "run_sim"]
