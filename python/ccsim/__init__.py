"""ccsim: a fast, deterministic packet-level simulator of TCP congestion control.

Typical use::

    import ccsim
    res = ccsim.run("experiments/dumbbell_cubic.toml", run__duration="10s")
    print(res.flows[["cca", "goodput_mbps", "rtt_p50_ms"]])
    res.flow_series.plot(x="t_s", y="cwnd_bytes")

Overrides given as keyword arguments use ``__`` between key-path parts
(``dumbbell__bottleneck__rate="50Mbps"``); ``set=["flows.0.cca=bbr"]`` takes the
command-line form.
"""

from typing import Any

from ccsim._ccsim import ScenarioError, __version__, cca_algorithms, replay_cca

# The native exception carries (text, key path, message) as args; show the text, not the
# tuple (issue 18), and expose the parts by name.
ScenarioError.__str__ = lambda self: str(self.args[0]) if self.args else ""  # type: ignore[method-assign]
ScenarioError.path = property(lambda self: self.args[1] if len(self.args) > 1 else "")  # type: ignore[attr-defined]
ScenarioError.message = property(  # type: ignore[attr-defined]
    lambda self: self.args[2] if len(self.args) > 2 else str(self)
)

# `ccsim.run`, `ccsim.load` and `ccsim.Result` come from ccsim.runner, which needs pandas:
# imported on first use so that `import ccsim._ccsim` (the CLI, study workers) stays fast.
_LAZY = {"Result", "load", "run"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from ccsim import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'ccsim' has no attribute {name!r}")


__all__ = [
    "Result",
    "ScenarioError",
    "__version__",
    "cca_algorithms",
    "load",
    "replay_cca",
    "run",
]
