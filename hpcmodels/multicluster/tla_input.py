"""The jobs of :func:`.lookahead.tla_scores`' snapshot, read as NumPy arrays and checked
column by column (issue 55).

``running`` and ``waiting`` come as records (named tuples, plain tuples or lists of the
fields), a pandas DataFrame, a dict of columns, a 2-D array or a structured array
(:func:`job_columns`); each field is then one array, checked at once
(:func:`running_arrays`, :func:`waiting_arrays`) by the rules ``tla_scores`` documents.
A check finds the rows it refuses with array operations; the error is the one the
first refused value (lowest row, then the first field of that row in the order the
rules are listed) gets from the scalar check (:func:`~hpcmodels.errors.check_int`,
:func:`~hpcmodels.errors.check_real`), so it names the argument, the row and the field
and has the same class and words as one checked alone (``waiting[17].estimate must be
a finite number >= 0.0, got nan``).

A column of plain Python or NumPy ints and floats is converted by NumPy at once; a column
holding anything else (a bool, a string, None, a Fraction, ...) is read value by value,
since NumPy would take ``True`` as 1, ``"2"`` as 2 and ``None`` as NaN without a word.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from itertools import islice

import numpy as np
import pandas as pd

from ..errors import InvalidParameter, InvalidType, check_int, check_real
from .tla_branch import MAX_TLA_PROCS, release_key

__all__ = ["job_columns", "running_arrays", "waiting_arrays"]

_PLAIN = frozenset({int, float, np.float64, np.float32, np.int64, np.int32, np.uint64, np.uint32})
"""Types NumPy converts to float64 as ``float()`` does: a column of these alone is
converted at once."""


def job_columns(jobs, what: str, kind, limit: int | None = None) -> tuple[list, int]:
    """``jobs`` as one column per field of the named tuple ``kind`` (in its order), each
    an array or a tuple of values, and the number of rows; only the first ``limit`` rows
    are read (None: all). Records are read once (a generator too).

    Accepted: a DataFrame or a dict whose columns (keys) are exactly ``kind``'s fields; a
    structured array whose fields are exactly them; a 2-D array of one column per field,
    in order; any other iterable of ``kind`` or plain tuples/lists of the fields. A
    missing, extra or repeated column and columns of different lengths are an
    :class:`InvalidParameter`; a wrong container or a row that is no record an
    :class:`InvalidType`; each names ``what``."""
    fields = kind._fields
    if isinstance(jobs, pd.DataFrame):
        _same_fields(what, list(jobs.columns), fields, "column")
        columns = [jobs[f].to_numpy()[:limit] for f in fields]
        return columns, len(columns[0])
    if isinstance(jobs, dict):
        _same_fields(what, list(jobs), fields, "key")
        columns = [_column(what, f, jobs[f]) for f in fields]
        lengths = {f: len(c) for f, c in zip(fields, columns, strict=True)}
        if len(set(lengths.values())) > 1:
            raise InvalidParameter(f"{what}'s columns differ in length: {lengths}")
        return [c[:limit] for c in columns], len(columns[0][:limit])
    if isinstance(jobs, np.ndarray) and not (jobs.ndim == 1 and jobs.dtype == object):
        return _array_columns(jobs, what, fields, limit)
    if isinstance(jobs, str | bytes | kind) or not isinstance(jobs, Iterable):
        raise InvalidType(
            f"{what} must be a list of {kind.__name__} (or tuples {fields}), a DataFrame, "
            f"a dict of columns or an array, got {jobs!r:.80}"
        )
    rows = list(jobs if limit is None else islice(jobs, limit))
    types = set(map(type, rows))
    if not types <= {kind} and not (
        all(issubclass(t, tuple | list) for t in types) and set(map(len, rows)) <= {len(fields)}
    ):
        for k, job in enumerate(rows):
            if not isinstance(job, kind | tuple | list) or len(job) != len(fields):
                raise InvalidType(
                    f"{what}[{k}] must be a {kind.__name__} or a tuple {fields}, got {job!r:.80}"
                )
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(fields)
    return columns, len(rows)


def _same_fields(what: str, names: list, fields: tuple, noun: str) -> None:
    """Refuse ``names`` (a table's columns) unless they are ``fields``, each once."""
    missing = [f for f in fields if f not in names]
    extra = [n for n in names if n not in fields]
    twice = [f for f in fields if names.count(f) > 1]
    for problem, shown in (("lacks", missing), ("has extra", extra), ("repeats", twice)):
        if shown:
            raise InvalidParameter(
                f"{what} {problem} {noun}(s) {shown}: give exactly {list(fields)}, got {names}"
            )


def _column(what: str, field: str, values):
    """One column of a dict of columns: a 1-D array, or a tuple of its values."""
    if isinstance(values, pd.Series | pd.Index):
        values = values.to_numpy()
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise InvalidParameter(
                f"{what}[{field!r}] must be 1-dimensional, got shape {values.shape}"
            )
        return values
    if isinstance(values, str | bytes | dict) or not isinstance(values, Iterable):
        raise InvalidType(
            f"{what}[{field!r}] must be a column (a list or 1-D array), got {values!r:.80}"
        )
    return tuple(values)


def _array_columns(jobs: np.ndarray, what: str, fields: tuple, limit) -> tuple[list, int]:
    """The columns of a structured array (by field name) or a 2-D array (in order)."""
    if jobs.dtype.names is not None:
        if jobs.ndim != 1:
            raise InvalidParameter(
                f"{what} as a structured array must be 1-dimensional, got shape {jobs.shape}"
            )
        _same_fields(what, list(jobs.dtype.names), fields, "field")
        columns = [jobs[f][:limit] for f in fields]
        for f, c in zip(fields, columns, strict=True):
            if c.ndim != 1:
                raise InvalidParameter(f"{what} field {f!r} must hold one value per row")
        return columns, len(columns[0])
    if jobs.ndim != 2:
        raise InvalidType(
            f"{what} as an array must be 2-dimensional, one row per job and the columns "
            f"{fields} in order, got shape {jobs.shape}"
        )
    if jobs.shape[1] != len(fields):
        raise InvalidParameter(
            f"{what} has {jobs.shape[1]} columns: give {len(fields)}, {fields} in order"
        )
    jobs = jobs[:limit]
    return [jobs[:, i] for i in range(len(fields))], jobs.shape[0]


def _value(column, k: int):
    """Row ``k`` of a column as the user gave it (a NumPy number as a Python one)."""
    value = column[k]
    if isinstance(column, np.ndarray) and column.dtype.kind in "biufcUS":
        return value.item()
    return value


def _as_float(value) -> float:
    """``value`` as ``float()`` reads a real number that is not a bool; NaN otherwise (the
    scalar check then says what is wrong with it)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            return float(value)
        except (OverflowError, TypeError, ValueError):
            pass
    return math.nan


def _floats(column) -> np.ndarray:
    """A column as float64: every value a real number that is not a bool as ``float()``
    reads it, anything else NaN (so refused by every check)."""
    if isinstance(column, np.ndarray):
        if column.dtype.kind in "iuf":
            return column.astype(np.float64, copy=False)
        if column.dtype.kind != "O":
            return np.full(column.shape[0], np.nan)  # bools, strings, dates, complex
    if set(map(type, column)) <= _PLAIN:
        try:
            return np.asarray(column, np.float64)
        except OverflowError:  # an int beyond the float range
            pass
    return np.fromiter(map(_as_float, column), np.float64, count=len(column))


class _First:
    """The first refused value of a table: the lowest row, then the lowest rule."""

    def __init__(self) -> None:
        self.at = None

    def check(self, bad: np.ndarray, rule: int, refuse) -> None:
        """Note the first row of ``bad`` (a mask); ``refuse(k)`` raises row k's error."""
        if bad.any():
            k = int(bad.argmax())
            if self.at is None or (k, rule) < self.at[:2]:
                self.at = (k, rule, refuse)

    def raise_it(self) -> None:
        if self.at is not None:
            k, _, refuse = self.at
            refuse(k)
            raise InvalidParameter(f"row {k} was refused")  # refuse always raises


def _whole(values: np.ndarray) -> np.ndarray:
    """Processor counts in [1, MAX_TLA_PROCS] (NaN is not)."""
    return (values >= 1) & (values <= MAX_TLA_PROCS) & (np.floor(values) == values)


def _procs_rule(what: str, column, field: str = "procs"):
    def refuse(k):
        check_int(f"{what}[{k}].{field}", _value(column, k), minimum=1, maximum=MAX_TLA_PROCS)

    return refuse


def _real_rule(what: str, column, field: str, low: float | None):
    def refuse(k):
        check_real(f"{what}[{k}].{field}", _value(column, k), at_least=low)

    return refuse


def _cluster_codes(column, names: list, m: int) -> np.ndarray:
    """Each running job's cluster index (-1 where its name or index is not a cluster's):
    a name, or an index, a whole number in 0..m - 1 that is not a bool."""
    n = len(column)
    if not isinstance(column, np.ndarray):
        types = set(map(type, column))
        if types <= {str}:
            lookup = {name: c for c, name in enumerate(names)}
            return np.fromiter((lookup.get(v, -1) for v in column), np.int64, count=n)
        if types <= {int, np.int64, np.int32}:
            try:
                column = np.asarray(column, np.int64)
            except OverflowError:  # an int beyond int64: no cluster's index
                pass
    if isinstance(column, np.ndarray) and column.dtype.kind in "iuf":
        code = np.full(n, -1, np.int64)
        ok = (column >= 0) & (column < m) & (np.floor(column) == column)
        code[ok] = column[ok]
        return code
    if isinstance(column, np.ndarray) and column.dtype.kind not in "OU":
        return np.full(n, -1, np.int64)  # bools, bytes, dates
    lookup = {name: c for c, name in enumerate(names)}
    values = column.tolist() if isinstance(column, np.ndarray) else column
    return np.fromiter((_cluster_code(v, lookup, m) for v in values), np.int64, count=n)


def _cluster_code(value, lookup: dict, m: int) -> int:
    if isinstance(value, str):
        return lookup.get(value, -1)
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        return -1
    x = _as_float(value)
    return int(x) if math.isfinite(x) and x.is_integer() and 0 <= x < m else -1


def running_arrays(columns: list, n: int, names: list, cap: np.ndarray, now: float):
    """The running jobs' releases (times: the ends, none before ``now``; keys:
    :func:`.tla_branch.release_key`) and each cluster's free processors, from the columns
    ``cluster, procs, end``; refuses the first bad row (rules in order: the cluster, the
    procs, the end, then the processors held beyond a cluster's capacity)."""
    clusters, procs, end = columns
    m = cap.size
    code = _cluster_codes(clusters, names, m)
    p, e = _floats(procs), _floats(end)
    first = _First()

    def refuse_cluster(k):
        c = _value(clusters, k)
        if isinstance(c, str):
            raise InvalidParameter(f"running[{k}].cluster {c!r} is not one of {names}")
        raise InvalidParameter(f"running[{k}].cluster {c!r}: give a name or index 0..{m - 1}")

    first.check(code < 0, 0, refuse_cluster)
    p_ok = _whole(p)
    first.check(~p_ok, 1, _procs_rule("running", procs))
    first.check(~np.isfinite(e), 2, _real_rule("running", end, "end", None))
    p = np.where(p_ok, p, 0).astype(np.int64)
    code = np.maximum(code, 0)
    order = np.argsort(code, kind="stable")
    held = np.cumsum(p[order])  # wraps past 2**63 only after a cluster's first excess
    group = np.concatenate(([0], held))[np.searchsorted(code[order], code[order])]
    over = np.empty(n, np.bool_)
    over[order] = held - group > cap[code[order]]

    def refuse_excess(k):
        c = code[k]
        raise InvalidParameter(
            f"running jobs hold more than cluster {names[c]!r}'s {cap[c]} processors "
            f"(running[{k}] is the first beyond)"
        )

    first.check(over, 3, refuse_excess)
    first.raise_it()
    free = cap.astype(np.int64).copy()
    np.subtract.at(free, code, p)
    return np.where(now > e, now, e), release_key(code, p), free


def waiting_arrays(columns: list, n: int, widest: int, now: float):
    """The waiting jobs' processors (int64), submit times and estimates from the columns
    ``procs, submit, estimate``; refuses the first bad row (rules in order: the procs,
    the submit, a submit after ``now``, the estimate, a job wider than ``widest``)."""
    procs, submit, estimate = columns
    p, s, e = _floats(procs), _floats(submit), _floats(estimate)
    first = _First()
    first.check(~_whole(p), 0, _procs_rule("waiting", procs))
    first.check(~np.isfinite(s), 1, _real_rule("waiting", submit, "submit", None))

    def refuse_later(k):
        raise InvalidParameter(
            f"waiting[{k}].submit = {_value(submit, k)!r} is after now = {now!r}: a job "
            "waiting at now was submitted at or before now"
        )

    first.check(s > now, 2, refuse_later)  # a snapshot at now holds no job submitted later
    first.check(~(np.isfinite(e) & (e >= 0.0)), 3, _real_rule("waiting", estimate, "estimate", 0.0))

    def refuse_wide(k):
        raise InvalidParameter(f"waiting[{k}] needs {int(p[k])} processors, more than any cluster")

    first.check(p > widest, 4, refuse_wide)
    first.raise_it()
    return p.astype(np.int64), np.array(s, np.float64), np.array(e, np.float64)
