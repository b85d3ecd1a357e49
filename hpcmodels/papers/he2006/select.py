"""He et al. 2006: selecting one simulated point of a figure's frame (its mean, its per-seed
runs)."""

from __future__ import annotations

import numpy as np
import pandas as pd

CI_COLUMN = {"mean_response": "response_ci", "miss_rate": "miss_ci"}


_RUNS_COLUMN = {"mean_response": "response_runs", "miss_rate": "miss_runs"}


def _where(df: pd.DataFrame, algorithm: str, **where) -> pd.DataFrame:
    sel = df["algorithm"] == algorithm
    for key, val in where.items():
        sel &= np.isclose(df[key], val) if isinstance(val, float) else df[key] == val
    rows = df[sel]
    if len(rows) != 1:
        raise KeyError(f"{len(rows)} rows for {algorithm} {where}")
    return rows


def value(df: pd.DataFrame, algorithm: str, column: str = "mean_response", **where) -> float:
    return float(_where(df, algorithm, **where)[column].iloc[0])


def seed_values(
    df: pd.DataFrame, algorithm: str, column: str = "mean_response", **where
) -> np.ndarray:
    """Per-seed values of a simulated point (common random numbers across algorithms)."""
    return np.asarray(_where(df, algorithm, **where)[_RUNS_COLUMN[column]].iloc[0], float)


def series(df: pd.DataFrame, algorithm: str, x: str, column: str = "mean_response") -> pd.Series:
    return df[df["algorithm"] == algorithm].set_index(x)[column]


def label_key(k) -> str:
    return f"{k:g}" if isinstance(k, int | float | np.number) else str(k)


def axis_labels(df: pd.DataFrame, x: str, algorithm: str) -> list:
    return list(df.loc[df["algorithm"] == algorithm, x])
