"""Imports the output and plotting stacks in a background thread while the simulation runs.

`Simulation.run_until` releases the GIL, so on a machine with a spare core the time that
importing pandas and pyarrow (~0.4 s) and matplotlib with its font cache (~0.3 s) takes is
hidden behind the scenario's loading and the run instead of being added before and after it (issue 14: `ccsim run experiments/seed004_grid.toml` under 3 s of wall
time). The main thread joins the thread before it draws; an import error is not swallowed:
the main thread's own import raises it again.
"""

from __future__ import annotations

import threading


def _import_plotting() -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        import ccsim.plots  # noqa: F401 - the module the CLI draws with

        # The first drawing loads the backend, the font cache and the glyphs of tick labels.
        fig, ax = plt.subplots(figsize=(1, 1))
        ax.set_ylabel("time (s)")
        fig.canvas.draw()
        plt.close(fig)
    except Exception:  # noqa: BLE001 - the main thread's import reports it
        pass


def _import_output(plots: bool) -> None:
    try:
        import pandas  # noqa: F401 - the results' tables
        import pyarrow.parquet  # noqa: F401 - the series files

        import ccsim.schema  # noqa: F401
    except Exception:  # noqa: BLE001 - the main thread's import reports it
        pass
    if plots:
        _import_plotting()


def preload_output(plots: bool) -> threading.Thread:
    """Starts importing pandas, pyarrow and (with `plots`) matplotlib and ccsim.plots; join
    the thread before writing tables or drawing."""
    t = threading.Thread(
        target=_import_output, args=(plots,), name="ccsim-preload-output", daemon=True
    )
    t.start()
    return t


def preload_plotting() -> threading.Thread:
    """Starts importing matplotlib and ccsim.plots; join the thread before plotting."""
    t = threading.Thread(target=_import_plotting, name="ccsim-preload-plots", daemon=True)
    t.start()
    return t
