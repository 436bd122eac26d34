"""Study files: a grid of runs over one base scenario (axes × seeds), what to collect from
each run, and the figures to draw.

A study is a TOML file (``studies/*.toml``)::

    name = "seed002-table2"
    scenario = "../experiments/seed002_siad_bbr.toml"   # relative to the study file
    seeds = [2, 3, 4, 5, 6, 7]                            # each run gets run.seed = <seed>
    set = ["output.sample_interval=20ms"]                 # fixed overrides for every run
    metrics = ["goodput_mbps", "rtt_mean_ms", "srtt_time_avg_ms"]
    series = ["goodput_mbps", "srtt_ms"]                  # optional: flow time series to keep
    cells = true                                          # optional: per-cell radio counters

    [[axes]]                      # values + templates: the key can be derived from the value
    name = "rlc_mb"
    values = [4, 7, 20, 40]
    set = { "radio.mmwave.cell.rlc.buffer_bytes" = "{rlc_mb * 1000000}" }

    [[axes]]                      # levels: a label with its own overrides, removals or scenario
    name = "setting"
    [[axes.levels]]
    value = "without UE0"
    remove = ["flows.0", "radio.ues.0"]

A template ``"{expr}"`` is evaluated with every axis value of the run in scope (so a key can
depend on several axes, e.g. ``"{200 / speed_mps + 2}s"``); only arithmetic is allowed.
``remove`` deletes a table key or a list entry (``flows.0``) from the base scenario before the
overrides apply.
"""

from __future__ import annotations

import ast
import itertools
import json
import operator
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.9/3.10
    import tomli as tomllib

#: Derived metrics (see study_worker): from the flow time series, or from the summary's
#: vertical handover (the first handover's recovery time, docs/radio.md).
DERIVED_METRICS = ("srtt_time_avg_ms", "vho_recovery_s")


class StudyError(ValueError):
    """A study file is invalid; the message names the key and what is allowed."""


@dataclass(frozen=True)
class Level:
    """One value of an axis: its label and what it changes."""

    value: Any
    set: dict[str, Any] = field(default_factory=dict)
    remove: tuple[str, ...] = ()
    scenario: Path | None = None


@dataclass(frozen=True)
class Axis:
    name: str
    levels: tuple[Level, ...]


@dataclass(frozen=True)
class RunPoint:
    """One run of a study: the axis values, the seed, and how to build its scenario."""

    labels: dict[str, Any]
    seed: int
    scenario: Path
    overrides: tuple[str, ...]
    remove: tuple[str, ...]


@dataclass
class Study:
    name: str
    path: Path
    scenario: Path
    seeds: list[int]
    axes: list[Axis]
    metrics: list[str]
    set: list[str] = field(default_factory=list)
    series: list[str] = field(default_factory=list)
    cells: bool = False
    description: str = ""
    figures: list[dict[str, Any]] = field(default_factory=list)

    def points(self) -> list[RunPoint]:
        """The grid: every combination of axis levels, times every seed (seeds innermost)."""
        out = []
        for combo in itertools.product(*(a.levels for a in self.axes)):
            labels = {a.name: lv.value for a, lv in zip(self.axes, combo)}
            scenario = self.scenario
            overrides = list(self.set)
            remove: list[str] = []
            for a, lv in zip(self.axes, combo):
                if lv.scenario is not None:
                    scenario = lv.scenario
                remove.extend(lv.remove)
                for key, template in lv.set.items():
                    overrides.append(f"{key}={render(template, labels, f'axes.{a.name}.set')}")
            for seed in self.seeds:
                out.append(
                    RunPoint(
                        labels=dict(labels),
                        seed=seed,
                        scenario=scenario,
                        overrides=(*overrides, f"run.seed={seed}"),
                        remove=tuple(remove),
                    )
                )
        return out

    @property
    def axis_names(self) -> list[str]:
        return [a.name for a in self.axes]


_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}


def _eval(node: ast.AST, names: dict[str, Any], where: str) -> Any:
    if isinstance(node, ast.Expression):
        return _eval(node.body, names, where)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise StudyError(
                f"`{where}`: unknown name `{node.id}` in a template; axes: {sorted(names)}"
            )
        return names[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](
            _eval(node.left, names, where), _eval(node.right, names, where)
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, names, where)
    raise StudyError(f"`{where}`: only arithmetic on axis names is allowed in a template")


def _literal(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return str(int(v))
    if isinstance(v, (int, float)):
        return repr(v)
    return str(v)


def render(template: Any, names: dict[str, Any], where: str) -> str:
    """`"{expr}"` pieces of a template evaluated with the axis values in `names`."""
    if not isinstance(template, str):
        return _literal(template)
    out, i = [], 0
    while i < len(template):
        j = template.find("{", i)
        if j < 0:
            out.append(template[i:])
            break
        k = template.find("}", j)
        if k < 0:
            raise StudyError(f"`{where}`: unclosed `{{` in template {template!r}")
        out.append(template[i:j])
        try:
            tree = ast.parse(template[j + 1 : k], mode="eval")
        except SyntaxError as e:
            raise StudyError(f"`{where}`: bad expression in template {template!r}") from e
        out.append(_literal(_eval(tree, names, where)))
        i = k + 1
    return "".join(out)


_TOP_KEYS = {
    "name",
    "description",
    "scenario",
    "seeds",
    "set",
    "metrics",
    "series",
    "cells",
    "axes",
    "figures",
}


def _axis(i: int, raw: dict[str, Any], base: Path) -> Axis:
    where = f"axes[{i}]"
    if not isinstance(raw, dict) or "name" not in raw:
        raise StudyError(f"`{where}` needs a `name`")
    name = raw["name"]
    if not str(name).isidentifier():
        raise StudyError(f"`{where}.name`: `{name}` must be an identifier (used in templates)")
    unknown = set(raw) - {"name", "values", "set", "levels"}
    if unknown:
        raise StudyError(
            f"`{where}`: unknown keys {sorted(unknown)}; allowed: name, values, set, levels"
        )
    if ("values" in raw) == ("levels" in raw):
        raise StudyError(f"`{where}` needs exactly one of `values` (with `set`) or `levels`")
    if "values" in raw:
        templates = raw.get("set", {})
        if not isinstance(templates, dict) or not templates:
            raise StudyError(f'`{where}.set` must be a table {{ "key.path" = "{{{name}}}" }}')
        return Axis(name, tuple(Level(v, dict(templates)) for v in raw["values"]))
    levels = []
    for j, lv in enumerate(raw["levels"]):
        lwhere = f"{where}.levels[{j}]"
        unknown = set(lv) - {"value", "set", "remove", "scenario"}
        if unknown or "value" not in lv:
            raise StudyError(
                f"`{lwhere}` needs `value`; allowed keys: value, set, remove, scenario"
                + (f" (unknown: {sorted(unknown)})" if unknown else "")
            )
        scen = (base / lv["scenario"]).resolve() if "scenario" in lv else None
        if scen is not None and not scen.is_file():
            raise StudyError(f"`{lwhere}.scenario`: file not found: {scen}")
        levels.append(
            Level(lv["value"], dict(lv.get("set", {})), tuple(lv.get("remove", [])), scen)
        )
    return Axis(name, tuple(levels))


def load_study(path: str | Path) -> Study:
    """Reads and checks a study file."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"study file not found: {path}")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise StudyError(f"{path}: not valid TOML: {e}") from e
    unknown = set(raw) - _TOP_KEYS
    if unknown:
        raise StudyError(f"unknown keys {sorted(unknown)}; allowed: {sorted(_TOP_KEYS)}")
    for key in ("name", "scenario"):
        if key not in raw:
            raise StudyError(f"`{key}` is required")
    base = path.resolve().parent
    scenario = (base / raw["scenario"]).resolve()
    if not scenario.is_file():
        raise StudyError(f"`scenario`: file not found: {scenario}")
    seeds = raw.get("seeds", [1])
    if not seeds or not all(isinstance(s, int) and s >= 0 for s in seeds):
        raise StudyError(f"`seeds` must be a non-empty list of integers >= 0, got {seeds!r}")
    metrics = raw.get("metrics", ["goodput_mbps", "rtt_mean_ms"])
    axes = [_axis(i, a, base) for i, a in enumerate(raw.get("axes", []))]
    names = [a.name for a in axes]
    if len(set(names)) != len(names):
        raise StudyError(f"`axes`: names must be unique, got {names}")
    return Study(
        name=raw["name"],
        path=path.resolve(),
        scenario=scenario,
        seeds=list(seeds),
        axes=axes,
        metrics=list(metrics),
        set=list(raw.get("set", [])),
        series=list(raw.get("series", [])),
        cells=bool(raw.get("cells", False)),
        description=raw.get("description", ""),
        figures=list(raw.get("figures", [])),
    )


def remove_path(tree: dict[str, Any], dotted: str) -> None:
    """Deletes `a.b.0` (a table key or a list entry) from a parsed scenario."""
    parts = dotted.split(".")
    node: Any = tree
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    last = parts[-1]
    if isinstance(node, list):
        del node[int(last)]
    else:
        del node[last]


def scenario_source(point: RunPoint) -> tuple[str, str]:
    """(format, text) of the point's base scenario with its removals applied: the file's TOML
    as is, or JSON when entries were removed."""
    text = point.scenario.read_text(encoding="utf-8")
    if not point.remove:
        return ("json" if point.scenario.suffix == ".json" else "toml", text)
    tree = json.loads(text) if point.scenario.suffix == ".json" else tomllib.loads(text)
    for dotted in point.remove:
        try:
            remove_path(tree, dotted)
        except (KeyError, IndexError, ValueError) as e:
            raise StudyError(f"`remove`: `{dotted}` is not in {point.scenario.name}") from e
    return "json", json.dumps(tree)
