"""The time series' Arrow schemas, from the columns the Rust core declares once
(`column_table!`): the Parquet files are written with exactly these types and the docs'
column tables are generated from the same declarations (`ccsim schema series`)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pyarrow as pa

from ccsim._ccsim import series_columns

#: The tables: `flows`, `queues`, `radio`.
TABLES = ("flows", "queues", "radio")


@cache
def series_schema(table: str) -> pa.Schema:
    """Arrow schema of one time-series table; each field's metadata holds its doc comment."""
    columns = dict(series_columns())
    if table not in columns:
        raise ValueError(f"unknown series table {table!r}; allowed: {', '.join(columns)}")
    return pa.schema(
        [
            pa.field(
                name, pa.from_numpy_dtype(np.dtype(dtype)), nullable=False, metadata={"doc": doc}
            )
            for name, dtype, doc in columns[table]
        ]
    )
