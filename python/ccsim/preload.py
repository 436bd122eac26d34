"""Imports the plotting stack in a background thread while the simulation runs.

`Simulation.run_until` releases the GIL, so on a machine with a spare core the ~0.3 s that
importing matplotlib (and loading its font cache) takes is hidden behind the run instead of
being added after it (issue 14: `ccsim run experiments/seed004_grid.toml` under 3 s of wall
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

        # The first figure loads the backend and the font cache.
        plt.close(plt.figure())
    except Exception:  # noqa: BLE001 - the main thread's import reports it
        pass


def preload_plotting() -> threading.Thread:
    """Starts importing matplotlib and ccsim.plots; join the thread before plotting."""
    t = threading.Thread(target=_import_plotting, name="ccsim-preload-plots", daemon=True)
    t.start()
    return t
