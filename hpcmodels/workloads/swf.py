"""The Standard Workload Format (SWF) of the Parallel Workloads Archive: read and write.

An SWF file is text: header comment lines start with ``;`` (``; MaxProcs: 128``), every
other non-blank line is one job with 18 whitespace-separated numbers. ``-1`` means
"unknown" in every field; :func:`read_swf` turns it into NaN. Columns (1-based SWF
field numbers in brackets):

job [1], submit [2], wait [3], runtime [4], procs [5: allocated processors],
avg_cpu [6], used_memory [7], req_procs [8], req_time [9], req_memory [10],
status [11: 1 completed, 0 failed, 5 cancelled], user [12], group [13],
executable [14], queue [15], partition [16], preceding_job [17], think_time [18].

``job`` is int64; every other column is float64 (so that "unknown" can be NaN).
"""

from __future__ import annotations

import gzip
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import SWFError

__all__ = ["SWF_COLUMNS", "SWFError", "read_swf", "write_swf", "swf_frame", "parse_header"]

SWF_COLUMNS = (
    "job", "submit", "wait", "runtime", "procs", "avg_cpu", "used_memory", "req_procs",
    "req_time", "req_memory", "status", "user", "group", "executable", "queue", "partition",
    "preceding_job", "think_time",
)  # fmt: skip
_N = len(SWF_COLUMNS)
_HEADER = re.compile(r"^;\s*([A-Za-z][\w ]*?)\s*:\s*(.*?)\s*$")


def _open_text(path: Path) -> str:
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", errors="replace")


def _number(text: str):
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() and "." not in text else value


def parse_header(lines: list[str]) -> dict:
    """``; Key: value`` comment lines as a dict (numbers converted; repeated keys such
    as ``Note`` become lists). Lines without a key are kept under ``"comments"``."""
    attrs: dict = {}
    for line in lines:
        m = _HEADER.match(line)
        if not m:
            text = line.lstrip(";").strip()
            if text:
                attrs.setdefault("comments", []).append(text)
            continue
        key, value = m.group(1).strip(), _number(m.group(2))
        if key in attrs:
            old = attrs[key]
            attrs[key] = [*old, value] if isinstance(old, list) else [old, value]
        else:
            attrs[key] = value
    return attrs


def _check_line(fields: list[str], path: str, number: int) -> np.ndarray:
    if len(fields) != _N:
        where = SWF_COLUMNS[min(len(fields), _N - 1)]
        raise SWFError(path, number, where, f"expected {_N} fields, found {len(fields)}")
    values = np.empty(_N)
    for k, text in enumerate(fields):
        try:
            values[k] = float(text)
        except ValueError:
            raise SWFError(path, number, SWF_COLUMNS[k], f"not a number: {text!r}") from None
        if not np.isfinite(values[k]) or values[k] < -1:
            raise SWFError(
                path, number, SWF_COLUMNS[k], f"invalid value {text} (only -1 may be negative)"
            )
    return values


def read_swf(path: str | Path, *, on_error: str = "raise") -> pd.DataFrame:
    """Read an SWF log (plain or gzip) into a DataFrame with :data:`SWF_COLUMNS`.

    The header is parsed into ``df.attrs`` (``MaxProcs``, ``MaxNodes``, ``Version`` ...,
    plus ``"header"``: the raw comment lines). A malformed line (wrong field count,
    text in a numeric field, a negative value other than -1) raises :class:`SWFError`
    naming its line number and field; with ``on_error="skip"`` such lines are dropped
    and counted in ``df.attrs["skipped"]`` (their numbers in ``"skipped_lines"``).
    """
    if on_error not in ("raise", "skip"):
        raise ValueError(f"on_error must be 'raise' or 'skip', got {on_error!r}")
    path = Path(path)
    text = _open_text(path)
    lines = text.splitlines()
    header = [ln for ln in lines if ln.lstrip().startswith(";")]
    data_numbers = [
        i + 1 for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith(";")
    ]
    try:  # fast path: the C parser, then a vectorised check of the values
        values = pd.read_csv(
            io.StringIO(text),
            sep=r"\s+",
            header=None,
            comment=";",
            dtype=float,
            engine="c",
            names=range(_N),
        ).to_numpy()
        if values.shape != (len(data_numbers), _N) or np.isnan(values).any():
            raise ValueError("field count")
        bad = ~np.isfinite(values) | (values < -1)
        if bad.any():
            raise ValueError("bad values")
        skipped: list[int] = []
    except ValueError:
        values, skipped = _slow_parse(lines, data_numbers, str(path), on_error)
    frame = pd.DataFrame(values, columns=list(SWF_COLUMNS))
    frame = frame.mask(frame == -1)
    frame["job"] = frame["job"].fillna(-1).astype(np.int64)
    frame.attrs.update(parse_header(header))
    frame.attrs["header"] = header
    frame.attrs["source"] = str(path)
    frame.attrs["skipped"] = len(skipped)
    frame.attrs["skipped_lines"] = skipped[:1000]
    return frame


def _slow_parse(lines, data_numbers, path, on_error):
    rows, skipped = [], []
    for number in data_numbers:
        try:
            rows.append(_check_line(lines[number - 1].split(), path, number))
        except SWFError:
            if on_error == "raise":
                raise
            skipped.append(number)
    return (np.vstack(rows) if rows else np.empty((0, _N))), skipped


def swf_frame(n: int | None = None, **columns) -> pd.DataFrame:
    """A DataFrame with all 18 SWF columns: the given ones, every other one unknown.

    ``job`` defaults to 1..n. Used by the synthetic workload models and the tests.
    """
    lengths = {len(np.atleast_1d(v)) for v in columns.values()}
    if n is None:
        if len(lengths) != 1:
            raise ValueError("give n, or columns of one common length")
        n = lengths.pop()
    unknown = set(columns) - set(SWF_COLUMNS)
    if unknown:
        raise ValueError(f"not SWF columns: {sorted(unknown)}")
    frame = pd.DataFrame({c: np.full(n, np.nan) for c in SWF_COLUMNS})
    frame["job"] = np.arange(1, n + 1, dtype=np.int64)
    for name, value in columns.items():
        frame[name] = np.asarray(value, dtype=np.int64 if name == "job" else float)
    return frame


def _header_lines(attrs: dict) -> list[str]:
    if attrs.get("header"):
        return list(attrs["header"])
    lines = []
    for key, value in attrs.items():
        if key in ("header", "source", "skipped", "skipped_lines", "comments"):
            continue
        for v in value if isinstance(value, list) else [value]:
            lines.append(f"; {key}: {v}")
    return lines


def write_swf(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write a DataFrame with :data:`SWF_COLUMNS` as SWF (gzip when the name ends in
    ``.gz``); NaN becomes -1, whole numbers are written without a decimal point. The
    header comes from ``frame.attrs`` (its raw ``"header"`` lines when present)."""
    missing = [c for c in SWF_COLUMNS if c not in frame]
    if missing:
        raise ValueError(f"missing SWF columns: {missing}")
    values = frame[list(SWF_COLUMNS)].to_numpy(dtype=float)
    values = np.where(np.isnan(values), -1.0, values)
    whole = np.all(values == np.round(values), axis=0)
    columns = [
        values[:, k].astype(np.int64).astype(str)
        if whole[k]
        else np.char.mod("%.15g", values[:, k])
        for k in range(_N)
    ]
    body = [" ".join(row) for row in zip(*columns, strict=True)]
    text = "\n".join([*_header_lines(frame.attrs), *body]) + "\n"
    path = Path(path)
    data = text.encode()
    path.write_bytes(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
    return path
