"""One schema (issue 13): the extension's type stub, the series columns exported as Arrow
schemas, the generated reference tables and the one run path."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path

import pyarrow.parquet as pq

import ccsim
from ccsim import _ccsim
from conftest import ccsim_cli

STUB = Path(ccsim.__file__).parent / "_ccsim.pyi"
ROOT = Path(__file__).resolve().parents[1]


def _stub_names() -> tuple[set[str], dict[str, set[str]]]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names: set[str] = set()
    classes: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return names, classes


def test_stub_lists_exactly_the_extensions_names() -> None:
    names, classes = _stub_names()
    public = {n for n in dir(_ccsim) if not n.startswith("__") or n == "__version__"}
    # Private helpers of the stub itself (type aliases) are not module attributes.
    stub = {n for n in names if not n.startswith("_") or n in ("__version__", "_debug_panic")}
    assert stub == public, f"only in stub: {stub - public}; only in module: {public - stub}"
    methods = {n for n in dir(_ccsim.Simulation) if not n.startswith("_")}
    assert classes["Simulation"] == methods


def test_stub_signatures_name_the_real_parameters() -> None:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            sig = inspect.signature(getattr(_ccsim, node.name))
            assert [a.arg for a in node.args.args] == list(sig.parameters), node.name


def test_series_parquet_files_carry_the_declared_schema(small_scenario, tmp_path) -> None:
    from ccsim.schema import series_schema

    out = tmp_path / "r"
    assert ccsim_cli("run", str(small_scenario), "--out", str(out), "--no-plot").returncode == 0
    flows = pq.read_schema(out / "flow_timeseries.parquet")
    assert flows.names == series_schema("flows").names
    for field in series_schema("flows"):
        assert flows.field(field.name).type == field.type
        assert field.metadata[b"doc"]
    queues = pq.read_schema(out / "queue_timeseries.parquet")
    assert queues.names == series_schema("queues").names + ["link_name"]
    # The API's frames have the same columns and dtypes.
    res = ccsim.run(small_scenario)
    assert list(res.flow_series.columns) == series_schema("flows").names


def test_schema_command_prints_the_generated_tables() -> None:
    doc = (ROOT / "docs/scenario-reference.md").read_text(encoding="utf-8")
    for section in ("tcp", "cca"):
        r = ccsim_cli("schema", section)
        assert r.returncode == 0, r.stderr
        assert r.stdout in doc
    assert "| `limited_transmit` | boolean |" in ccsim_cli("schema", "tcp").stdout
    assert ccsim_cli("schema", "series").stdout in (ROOT / "docs/outputs.md").read_text()
    assert ccsim_cli("schema", "bogus").returncode == 2


def test_run_help_lists_every_tcp_key() -> None:
    r = ccsim_cli("run", "--help")
    for key, _kind, _doc in _ccsim.tcp_keys():
        assert f"tcp.{key} " in r.stdout, key


def test_summary_is_the_cores(small_scenario, tmp_path) -> None:
    """The CLI writes the core's summary as it is: the same keys as the API's, with the
    wall-clock figures the core measured."""
    out = tmp_path / "s"
    assert ccsim_cli("run", str(small_scenario), "--out", str(out), "--no-plot").returncode == 0
    written = json.loads((out / "summary.json").read_text())
    api = ccsim.run(small_scenario).summary
    assert written.keys() == api.keys()
    assert written["wall_s"] > 0
    assert written["sim_speed"] == written["duration_s"] / written["wall_s"]
    for k in ("flows", "queues", "events", "total_goodput_mbps"):
        assert written[k] == api[k], k


def test_replay_compare_is_the_cores_and_names_the_first_mismatch(tmp_path) -> None:
    from conftest import GOLDEN_NS3

    data = json.loads((GOLDEN_NS3 / "cca-vectors/random_seed1.json").read_text())
    step = data["vectors"][0]["steps"][3]
    step[4] += 1  # cwnd after the step
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    r = ccsim_cli("cca", "replay", str(bad), "--compare")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "first mismatch at step 3" in r.stdout, r.stdout
