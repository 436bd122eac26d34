"""Aggregating a study's runs across seeds (and flows): mean, 95 % confidence interval of the
mean, standard deviation and percentiles.

The confidence interval is Student's t: mean ± t(0.975, n−1) · s / √n, which is what the
papers' "95 % CI over seeds" means for a handful of seeds. With one run it is undefined (NaN).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

# t(0.975, df) for df = 1..30 (two-sided 95 %); beyond 30 the normal 1.96 is within 2 %.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t975(df: int) -> float:
    """The two-sided 95 % Student-t quantile for `df` degrees of freedom."""
    if df < 1:
        return math.nan
    return _T975[df - 1] if df <= len(_T975) else 1.96


def ci95(values: Sequence[float]) -> float:
    """Half-width of the 95 % confidence interval of the mean (NaN for fewer than 2 values)."""
    x = np.asarray([v for v in values if v is not None and not pd.isna(v)], dtype=float)
    if len(x) < 2:
        return math.nan
    return float(t975(len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))


PERCENTILES = (20, 50, 80)


def aggregate(
    df: pd.DataFrame,
    by: Sequence[str],
    metrics: Sequence[str],
    percentiles: Sequence[int] = PERCENTILES,
) -> pd.DataFrame:
    """One row per group of `by` with, for each metric, `<m>_n`, `<m>_mean`, `<m>_ci95`,
    `<m>_std`, `<m>_min`, `<m>_max` and `<m>_p<q>` (all rows of the group: seeds and flows)."""
    rows = []
    for key, g in df.groupby(list(by), sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(by, key))
        for m in metrics:
            x = pd.to_numeric(g[m], errors="coerce").dropna().to_numpy(dtype=float)
            row[f"{m}_n"] = len(x)
            row[f"{m}_mean"] = float(x.mean()) if len(x) else math.nan
            row[f"{m}_ci95"] = ci95(x)
            row[f"{m}_std"] = float(x.std(ddof=1)) if len(x) > 1 else math.nan
            row[f"{m}_min"] = float(x.min()) if len(x) else math.nan
            row[f"{m}_max"] = float(x.max()) if len(x) else math.nan
            for q in percentiles:
                row[f"{m}_p{q}"] = float(np.percentile(x, q)) if len(x) else math.nan
        rows.append(row)
    return pd.DataFrame(rows)
