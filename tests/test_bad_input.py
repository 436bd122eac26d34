"""Bad input: a clear error naming the key path, the value and what is allowed; no panic and
no output left behind as if complete."""

from __future__ import annotations

import pytest

import ccsim
from conftest import SMALL, ccsim_cli


def _err(text: str, *overrides: str) -> ccsim.ScenarioError:
    with pytest.raises(ccsim.ScenarioError) as e:
        ccsim.load(text, set=list(overrides))
    return e.value


def test_missing_file_cli(tmp_path) -> None:
    out = tmp_path / "out"
    r = ccsim_cli("run", str(tmp_path / "nope.toml"), "--out", str(out))
    assert r.returncode == 2
    assert "not found" in r.stderr and "nope.toml" in r.stderr
    assert not out.exists()


def test_missing_file_api(tmp_path) -> None:
    with pytest.raises(FileNotFoundError):
        ccsim.run(tmp_path / "nope.toml")


def test_unknown_key_names_path_and_allowed_keys() -> None:
    e = _err(SMALL, "dumbbell.bottleneck.rtae=5")
    msg = str(e)
    assert "dumbbell.bottleneck.rtae" in msg
    for allowed in ("rate", "delay", "queue"):
        assert allowed in msg


def test_negative_rate() -> None:
    msg = str(_err(SMALL, "dumbbell.bottleneck.rate=-5Mbps"))
    assert "dumbbell.bottleneck.rate" in msg and "-5Mbps" in msg and "positive" in msg


def test_queue_of_zero() -> None:
    msg = str(_err(SMALL, "dumbbell.bottleneck.queue=0"))
    assert "dumbbell.bottleneck.queue" in msg and "at least 1" in msg


def test_flow_to_unknown_node() -> None:
    text = """
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
from = "a"
to = "b"
rate = "10Mbps"
delay = "5ms"
[[flows]]
src = "a"
dst = "c"
"""
    msg = str(_err(text))
    assert "flows[0].dst" in msg and "`c`" in msg and "a, b" in msg


def test_unknown_algorithm_lists_the_allowed_ones() -> None:
    msg = str(_err(SMALL, "flows.0.cca=cubik"))
    assert "flows[0].cca" in msg and "cubik" in msg and "newreno" in msg


def test_unknown_cca_parameter() -> None:
    msg = str(_err(SMALL, "flows.0.cca_params.betaa=0.5"))
    assert "betaa" in msg and "beta" in msg


def test_bad_unit() -> None:
    msg = str(_err(SMALL, "run.duration=5 parsecs"))
    assert "run.duration" in msg and "allowed" in msg


def test_cli_bad_input_exit_code_and_no_output(small_scenario, tmp_path) -> None:
    out = tmp_path / "out"
    r = ccsim_cli(
        "run", str(small_scenario), "--set", "dumbbell.bottleneck.rate=-1", "--out", str(out)
    )
    assert r.returncode == 2
    assert "dumbbell.bottleneck.rate" in r.stderr
    assert "Traceback" not in r.stderr
    assert not out.exists()


def test_interrupted_run_leaves_no_result(small_scenario, tmp_path, monkeypatch) -> None:
    from ccsim import cli, runner

    def boom(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "execute", boom)  # cli imports it lazily from runner
    out = tmp_path / "out"
    assert cli.main(["run", str(small_scenario), "--out", str(out)]) == cli.EXIT_SIGINT
    assert not out.exists()
    assert not list(tmp_path.glob(".out.partial-*"))


def test_out_refuses_foreign_directory(small_scenario, tmp_path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("precious")
    r = ccsim_cli("run", str(small_scenario), "--out", str(out))
    assert r.returncode == 2
    assert (out / "thesis.tex").read_text() == "precious"


def test_rust_panic_becomes_exception() -> None:
    from ccsim import _ccsim

    with pytest.raises(RuntimeError, match="internal error"):
        _ccsim._debug_panic()


# The schema (issue 13): every [tcp] key and every cca_params name is checked where it is
# declared, and the error names the key path, the value and what is allowed.


@pytest.mark.parametrize(("where", "path"), [("tcp", "tcp"), ("flows.0.tcp", "flows[0].tcp")])
def test_unknown_tcp_key_names_its_path_and_the_allowed_keys(where: str, path: str) -> None:
    e = _err(SMALL, f"{where}.limited_transmt=true")
    assert e.path == f"{path}.limited_transmt"
    assert "limited_transmit" in e.message and "ns3_prr_quirks" in e.message


def test_tcp_key_of_the_wrong_type_names_path_value_and_type() -> None:
    msg = str(_err(SMALL, "tcp.sack=maybe"))
    assert "tcp.sack" in msg and "maybe" in msg and "bool" in msg


def test_tcp_enum_key_lists_its_values() -> None:
    msg = str(_err(SMALL, "tcp.recovery=fast"))
    assert "tcp.recovery" in msg and "fast" in msg and "prr" in msg and "classic" in msg
    msg = str(_err(SMALL, "tcp.profile=bsd"))
    assert "tcp.profile" in msg and "bsd" in msg and "ns3" in msg and "linux" in msg


def test_cca_parameter_out_of_range_names_value_and_range() -> None:
    msg = str(_err(SMALL, "flows.0.cca_params.beta=1.5"))
    assert "beta" in msg and "1.5" in msg and "[0" in msg


def test_cca_enum_parameter_lists_its_values() -> None:
    msg = str(_err(SMALL, "flows.0.cca_params.hystart_detect=SOMETIMES"))
    assert "hystart_detect" in msg and "SOMETIMES" in msg and '"DELAY"' in msg
