"""Bounded-memory decimation of a streamed time series, for plots of runs of any length.

A series arrives in chunks of rows (several rows, one per flow/link/UE, share a sample
time). `Decimator` keeps the rows of every `stride`-th sample time and doubles the stride
whenever more than `2 * points` sample times are kept, so it holds between `points` and
`2 * points` times however long the run (issue 18: a 3600 s run read its whole series back
to plot). Deterministic: the kept times depend only on the sample times seen.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

Columns = dict[str, np.ndarray]


class Decimator:
    def __init__(self, points: int = 2000) -> None:
        self.points = points
        self.stride = 1
        self.seen = 0  # sample times seen so far
        self._chunks: list[tuple[np.ndarray, Columns]] = []

    def add(self, cols: Columns) -> None:
        t = cols.get("t_s")
        if t is None or not len(t):
            return
        times, inverse = np.unique(t, return_inverse=True)
        index = self.seen + inverse  # global sample-time index of each row
        self.seen += len(times)
        keep = index % self.stride == 0
        self._chunks.append((index[keep], {k: np.array(v[keep]) for k, v in cols.items()}))
        while -(-self.seen // self.stride) > 2 * self.points:
            self.stride *= 2
            self._chunks = [
                (i[m], {k: v[m] for k, v in c.items()})
                for i, c in self._chunks
                for m in [i % self.stride == 0]
            ]

    def frame(self) -> pd.DataFrame:
        """The kept rows, in arrival order."""
        chunks = [c for _, c in self._chunks if len(c["t_s"])]
        if not chunks:
            return pd.DataFrame()
        return pd.DataFrame({k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]})
