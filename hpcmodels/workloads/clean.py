"""Cleaning filters used by the papers, by name.

* ``positive_runtime_and_procs`` (Shih et al. 2013, Section 4.1: "excluding problematic
  records such as non-positive job runtime and processor requirement"). Processors are
  the allocated ones (SWF field 5), or the requested ones (field 8) where the allocated
  count is unknown. On the cleaned SDSC SP2 log (4.2-cln) this keeps 54,034 jobs; the
  paper prints 54,041, probably from an older cleaned version (docs/readings.md).
* ``completed_only`` (Huang & Chang 2006): status == 1. It gives 56,490 jobs on the full
  SDSC SP2 log and 43,117 on the cleaned one.
"""

from __future__ import annotations

import pandas as pd

from ..errors import InvalidParameter, InvalidType, check_frame

__all__ = ["FILTERS", "positive_runtime_and_procs", "completed_only", "apply_filter", "processors"]


def _frame(frame, *columns: str) -> None:
    """``frame`` must be a DataFrame holding ``columns``, each numeric (not bools or
    strings); else InvalidParameter (InvalidType for a non-frame) naming it."""
    if not isinstance(frame, pd.DataFrame):
        raise InvalidType(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    check_frame("frame", frame, columns)
    for column in columns:
        if frame[column].dtype.kind not in "iuf":
            raise InvalidParameter(
                f"frame column {column!r} must hold numbers, not {frame[column].dtype}"
            )


def processors(frame: pd.DataFrame) -> pd.Series:
    """Allocated processors, falling back to requested ones where unknown (when the
    frame has a ``req_procs`` column). ``frame`` is a DataFrame with a numeric ``procs``
    column (every function here checks its frame the same way)."""
    _frame(
        frame,
        "procs",
        *(["req_procs"] if isinstance(frame, pd.DataFrame) and "req_procs" in frame else []),
    )
    if "req_procs" not in frame:
        return frame["procs"]
    return frame["procs"].fillna(frame["req_procs"])


def positive_runtime_and_procs(frame: pd.DataFrame) -> pd.DataFrame:
    """Jobs with runtime > 0 and processors > 0 (Shih 2013); ``procs`` is filled from
    ``req_procs`` where it was unknown."""
    _frame(frame, "runtime", "procs")
    procs = processors(frame)
    keep = (frame["runtime"] > 0) & (procs > 0)
    out = frame.loc[keep].copy()
    out["procs"] = procs[keep]
    return _renumbered(out, frame, "positive_runtime_and_procs")


def completed_only(frame: pd.DataFrame) -> pd.DataFrame:
    """Jobs whose status is 1, "completed" (Huang & Chang 2006)."""
    _frame(frame, "status")
    return _renumbered(frame.loc[frame["status"] == 1].copy(), frame, "completed_only")


def _renumbered(out: pd.DataFrame, source: pd.DataFrame, name: str) -> pd.DataFrame:
    out = out.reset_index(drop=True)
    out.attrs = dict(source.attrs)
    out.attrs["filters"] = [*source.attrs.get("filters", []), name]
    return out


FILTERS = {
    "shih2013": positive_runtime_and_procs,
    "huang2006": completed_only,
    "positive_runtime_and_procs": positive_runtime_and_procs,
    "completed_only": completed_only,
}


def apply_filter(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """Apply a filter by name (``"shih2013"``, ``"huang2006"`` or the function names)."""
    if not isinstance(name, str) or name not in FILTERS:
        raise InvalidParameter(f"unknown filter name {name!r}; choose one of {sorted(FILTERS)}")
    return FILTERS[name](frame)
