"""A dependency-free progress bar on stderr, shown only for runs longer than a couple of
seconds and only on a terminal (logs stay clean)."""

from __future__ import annotations

import sys

SHOW_AFTER_S = 2.0


class ProgressBar:
    def __init__(self, label: str, enabled: bool | None = None, width: int = 30) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.width = width
        self.shown = False

    def __call__(self, now_s: float, duration_s: float, wall_s: float) -> None:
        if not self.enabled or wall_s < SHOW_AFTER_S:
            return
        frac = min(1.0, now_s / duration_s) if duration_s > 0 else 1.0
        filled = int(frac * self.width)
        eta = wall_s * (1 - frac) / frac if frac > 0 else float("nan")
        bar = "#" * filled + "." * (self.width - filled)
        sys.stderr.write(
            f"\r{self.label} [{bar}] {frac:5.1%}  {now_s:.1f}/{duration_s:.1f} s simulated"
            f"  {wall_s:.1f} s wall  ETA {eta:.1f} s "
        )
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
