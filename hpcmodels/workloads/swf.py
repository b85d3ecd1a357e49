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

The grammar :func:`read_swf` accepts (the same whichever of its two parsers runs: the
fast C parser of pandas, or the line-by-line parser that reports or skips bad lines):

* Lines end with ``\n``, ``\r\n`` or ``\r``; line numbers in errors count every line
  from 1, blank and comment lines included. UTF-8 (a leading BOM is ignored); gzip when
  the file starts with the gzip magic bytes (several members and zero padding allowed).
* ``;`` starts a comment that runs to the end of the line. A line whose first non-blank
  character is ``;`` is a header line (kept in ``df.attrs["header"]``); a ``;`` after a
  job's 18 fields starts a trailing comment, which is ignored.
* Fields are separated by spaces and tabs (no other whitespace); blank lines, and
  blanks at the start and end of a line, are ignored. A job line has exactly 18 fields.
* A field is a decimal number: an optional sign, digits with an optional decimal point,
  an optional exponent (``12``, ``-1``, ``0.5``, ``.5``, ``5.``, ``1e3``, ``1.5E-07``).
  Nothing else: no quotes (``"100"`` is an error), ``nan``, ``inf``, ``true``, ``0x10``,
  ``1_000``, ``1,5`` or non-ASCII digits.
* A value is -1 (unknown) or finite and >= 0 (``-0`` is read as 0). -1 is a text whose
  decimal value is exactly -1 (``-1``, ``-1.0``, ``-10e-1``); a negative number that only
  rounds to -1.0 in a float64 (``-0.99999999999999999999``) is refused. ``job`` and
  ``preceding_job`` are job ids: whole numbers up to 2**53 - 1, the largest a float64
  holds exactly (an id written with a fraction too small for a float64, such as
  ``7.0000000000000001``, reads as the whole number it rounds to).
"""

from __future__ import annotations

import codecs
import decimal
import gzip
import io
import re
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InvalidParameter, SWFError, SWFFileError, check_int, check_path

__all__ = [
    "MAX_JOB_ID",
    "SWF_COLUMNS",
    "SWFError",
    "SWFFileError",
    "parse_header",
    "read_swf",
    "swf_frame",
    "write_swf",
]

SWF_COLUMNS = (
    "job", "submit", "wait", "runtime", "procs", "avg_cpu", "used_memory", "req_procs",
    "req_time", "req_memory", "status", "user", "group", "executable", "queue", "partition",
    "preceding_job", "think_time",
)  # fmt: skip
_N = len(SWF_COLUMNS)
_IDS = [SWF_COLUMNS.index("job"), SWF_COLUMNS.index("preceding_job")]
MAX_JOB_ID = 2**53 - 1  # the largest integer up to which every integer is a float64
_HEADER = re.compile(r"^;\s*([A-Za-z][\w ]*?)\s*:\s*(.*?)\s*$")
_COMMENT = re.compile(rb";[^\r\n]*")
_BLANKS = re.compile(rb"[ \t]+")
_NUMBER_TEXT = rb"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"  # one way to match
_NUMBER = re.compile(_NUMBER_TEXT)
_JOB_LINE = re.compile(_NUMBER_TEXT + rb"(?:[ \t]+" + _NUMBER_TEXT + rb"){17}")
_NUMBER_BYTES = b"0123456789eE.+- \t\r\n"  # all that job lines hold on the fast path
# a negative number with 17 or more digits may round to -1.0 without being -1 (a text of
# at most 16 significant digits that reads as -1.0 is exactly -1): the slow path decides
_LONG_NEGATIVE = re.compile(rb"-[0-9.]{17}")
_GZIP_MAGIC = b"\x1f\x8b"


def _gunzip(raw: bytes, path: str) -> bytes:
    """Every gzip member of ``raw`` decompressed; zero bytes after the last are allowed."""
    parts, rest = [], raw
    while rest.strip(b"\0"):
        if not rest.startswith(_GZIP_MAGIC):
            raise SWFFileError(
                path,
                f"{len(rest)} bytes after the end of the gzip data (from "
                f"byte {len(raw) - len(rest)}) are not gzip data",
            )
        unzip = zlib.decompressobj(wbits=31)  # 31: a gzip header, and check the CRC
        try:
            parts.append(unzip.decompress(rest))
        except zlib.error as err:
            raise SWFFileError(path, f"corrupt gzip data ({err})") from None
        if not unzip.eof:
            raise SWFFileError(
                path,
                "truncated: the gzip data ends before its end marker "
                "(an interrupted download or copy?)",
            )
        rest = unzip.unused_data
    return b"".join(parts)


def _read_bytes(path: Path) -> bytes:
    """The file's content, decompressed when it is gzip, without a UTF-8 BOM."""
    raw = path.read_bytes()
    if raw.startswith(_GZIP_MAGIC):
        raw = _gunzip(raw, str(path))
    return raw.removeprefix(codecs.BOM_UTF8)


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
        m = _HEADER.match(line.lstrip(" \t"))
        if not m:
            text = line.lstrip(" \t").lstrip(";").strip()
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


def _header_lines_in(data: bytes) -> list[str]:
    """The comment lines of a file (first non-blank character ``;``), whole, in order."""
    lines = []
    for match in _COMMENT.finditer(data):
        start = match.start()
        while start and data[start - 1] in b" \t":
            start -= 1
        if start == 0 or data[start - 1] in b"\r\n":
            lines.append(data[start : match.end()].decode("utf-8", errors="replace"))
    return lines


def _invalid(values: np.ndarray) -> np.ndarray:
    """Where rows of the 18 SWF fields (-1 for unknown) break the value rules."""
    ok = np.isfinite(values) & ((values >= 0) | (values == -1))
    ids = values[:, _IDS]
    ok[:, _IDS] &= (ids == np.trunc(ids)) & (ids <= MAX_JOB_ID)
    return ~ok


def _why_invalid(k: int, value: float) -> str:
    """Which rule of :func:`_invalid` the value of field ``k`` breaks."""
    if not np.isfinite(value):
        return "not a finite number"
    if value < 0:
        return "only -1 may be negative"
    if value != np.trunc(value):
        return "a job id must be a whole number"
    return f"a job id must be at most 2**53 - 1 = {MAX_JOB_ID}, to be exact in a float64"


def _fast_parse(data: bytes) -> np.ndarray | None:
    """All job lines of ``data`` as an (n, 18) array by pandas' C parser, or None when any
    line is not valid SWF (or could be read differently by the C parser than by
    :func:`_slow_parse`): then :func:`_slow_parse` finds and names it."""
    body = _COMMENT.sub(b"", data) if b";" in data else data
    if body.translate(None, _NUMBER_BYTES):
        return None  # letters, quotes, other whitespace...: beyond the grammar of numbers
    if _LONG_NEGATIVE.search(body):
        return None  # perhaps a negative number that only rounds to -1 (_value)
    try:
        values = pd.read_csv(
            io.BytesIO(body), sep=r"\s+", header=None, dtype=float, engine="c", na_filter=False
        ).to_numpy()
    except pd.errors.EmptyDataError:  # no job lines
        return np.empty((0, _N))
    except (ValueError, OverflowError):  # a malformed number, a short or long line
        return None
    if values.shape[1] != _N or _invalid(values).any():
        return None
    return values + 0.0  # -0.0 becomes 0.0


def _job_part(line: bytes) -> bytes:
    """A line without its comment and its outer blanks: empty unless it is a job line."""
    return line.split(b";", 1)[0].strip(b" \t")


_NOT_MINUS_ONE = -2.0
"""What :func:`_value` reads for a negative number that rounds to -1.0 without being -1
(``-0.99999999999999999999``): a value the rules refuse ("only -1 may be negative")."""


def _value(field: bytes) -> float:
    """A field's number; "unknown" only for a text that is exactly -1."""
    value = float(field)
    if value == -1 and decimal.Decimal(field.decode()) != -1:
        return _NOT_MINUS_ONE
    return value


def _numbers(job: bytes, path: str, number: int) -> list[float]:
    """The 18 numbers of a job line (see :func:`_job_part`), or SWFError naming the field
    count or the first field that is not a number. Values are checked by the caller."""
    if _JOB_LINE.fullmatch(job):
        return [_value(field) for field in job.split()]
    fields = _BLANKS.split(job)
    texts = [field.decode("utf-8", errors="replace") for field in fields]
    if len(fields) < _N:
        raise SWFError(
            path, number, SWF_COLUMNS[len(fields)], f"expected {_N} fields, found {len(fields)}"
        )
    if len(fields) > _N:
        raise SWFError(
            path,
            number,
            "(extra)",
            f"expected {_N} fields, found {len(fields)}: {' '.join(texts[_N:])!r} after think_time",
        )
    for name, field, text in zip(SWF_COLUMNS, fields, texts, strict=True):
        if not _NUMBER.fullmatch(field):
            raise SWFError(path, number, name, f"not a number: {text!r}")
    return [float(field) for field in fields]  # not reached: _JOB_LINE would have matched


def _slow_parse(data: bytes, path: str, on_error: str) -> tuple[np.ndarray, list[int]]:
    """The line-by-line parser: the values of the good job lines and the numbers of the
    bad ones (``on_error="skip"``), or the SWFError of the first bad line ("raise")."""
    lines = data.splitlines()  # at \n, \r\n and \r only
    rows, numbers, errors = [], [], []
    for number, line in enumerate(lines, start=1):
        job = _job_part(line)
        if job:
            try:
                rows.append(_numbers(job, path, number))
                numbers.append(number)
            except SWFError as err:
                errors.append(err)
                if on_error == "raise":
                    break  # only the lines before it may hold an earlier error
    values = np.array(rows, dtype=float).reshape(-1, _N)
    invalid = _invalid(values)  # the value rules, checked as on the fast path
    for row in np.flatnonzero(invalid.any(axis=1)):
        k = int(np.argmax(invalid[row]))  # the first invalid field of the line
        text = _BLANKS.split(_job_part(lines[numbers[row] - 1]))[k].decode()
        why = _why_invalid(k, values[row, k])
        errors.append(SWFError(path, numbers[row], SWF_COLUMNS[k], f"invalid value {text} ({why})"))
    errors.sort(key=lambda err: err.line_number)
    if errors and on_error == "raise":
        raise errors[0]
    return values[~invalid.any(axis=1)] + 0.0, [err.line_number for err in errors]


def read_swf(path: str | Path, *, on_error: str = "raise") -> pd.DataFrame:
    """Read an SWF log (plain or gzip) into a DataFrame with :data:`SWF_COLUMNS`.

    The header is parsed into ``df.attrs`` (``MaxProcs``, ``MaxNodes``, ``Version`` ...,
    plus ``"header"``: the raw comment lines). A line that breaks the grammar of the
    module docstring (a wrong field count, anything but a number in a field, a negative
    value other than -1, a job id that is not a whole number below 2**53) raises
    :class:`SWFError` naming its line number, field and text; with ``on_error="skip"``
    such lines are dropped and counted in ``df.attrs["skipped"]`` (their numbers in
    ``"skipped_lines"``). A file that cannot be decompressed (a truncated or corrupt
    gzip) raises :class:`SWFFileError` whatever ``on_error`` says. ``path`` is a
    non-empty ``str`` or ``os.PathLike`` naming a file (``""``, a folder, a bool or None
    is an :class:`~hpcmodels.errors.InvalidParameter` naming ``path``).
    """
    if on_error not in ("raise", "skip"):
        raise InvalidParameter(f"on_error must be 'raise' or 'skip', got {on_error!r}")
    path = check_path("path", path, folder=False)
    data = _read_bytes(path)
    values, skipped = _fast_parse(data), []
    if values is None:
        values, skipped = _slow_parse(data, str(path), on_error)
    frame = pd.DataFrame(np.where(values == -1, np.nan, values), columns=list(SWF_COLUMNS))
    frame["job"] = values[:, 0].astype(np.int64)
    header = _header_lines_in(data)
    frame.attrs.update(parse_header(header))
    frame.attrs["header"] = header
    frame.attrs["source"] = str(path)
    frame.attrs["skipped"] = len(skipped)
    frame.attrs["skipped_lines"] = skipped[:1000]
    return frame


def swf_frame(n: int | None = None, **columns) -> pd.DataFrame:
    """A DataFrame with all 18 SWF columns: the given ones, every other one unknown.

    ``job`` defaults to 1..n. Used by the synthetic workload models and the tests.
    ``n`` is None (the columns' common length) or a whole number in [0, 10**8]
    (:data:`hpcmodels.bounds.MAX_JOBS`).
    """
    from ..bounds import MAX_JOBS

    lengths = {len(np.atleast_1d(v)) for v in columns.values()}
    if n is not None:
        n = check_int("n", n, minimum=0, maximum=MAX_JOBS)
    if n is None:
        if len(lengths) != 1:
            raise InvalidParameter("give n, or columns of one common length")
        n = lengths.pop()
    unknown = set(columns) - set(SWF_COLUMNS)
    if unknown:
        raise InvalidParameter(f"not SWF columns: {sorted(unknown)}")
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


def _values_to_write(frame: pd.DataFrame) -> np.ndarray:
    """The 18 columns as an (n, 18) float array, -1 for unknown (NaN); InvalidParameter
    naming the column, the row and the value for anything :func:`read_swf` would refuse."""
    columns = []
    for name in SWF_COLUMNS:
        if not pd.api.types.is_numeric_dtype(frame[name]):
            raise InvalidParameter(
                f"write_swf: column {name!r} is not numeric (dtype {frame[name].dtype})"
            )
        columns.append(frame[name].to_numpy(dtype=float, na_value=np.nan))
    values = np.column_stack(columns) if len(frame) else np.empty((0, _N))
    values[np.isnan(values)] = -1.0
    bad = np.argwhere(_invalid(values))
    if bad.size:
        row, k = bad[0]
        value = float(values[row, k])
        raise InvalidParameter(
            f"write_swf: column {SWF_COLUMNS[k]!r}, row {row} (index {frame.index[row]}): "
            f"{value!r} is not a valid SWF value ({_why_invalid(k, value)}; NaN or -1 "
            f"is unknown)"
        )
    return values


def _format(column: np.ndarray) -> np.ndarray:
    """Whole numbers up to 2**53 - 1 as integers (``12``), every other value as its
    shortest text that reads back as the same float (``0.30000000000000004``, ``1e+20``)."""
    whole = (column == np.trunc(column)) & (np.abs(column) <= MAX_JOB_ID)
    if whole.all():
        return column.astype(np.int64).astype(str)
    text = column.astype(str)  # numpy prints a float64 by its shortest exact repr
    text[whole] = column[whole].astype(np.int64).astype(str)
    return text


def write_swf(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write a DataFrame with :data:`SWF_COLUMNS` as SWF (gzip when the name ends in
    ``.gz``); NaN becomes -1. Whole numbers are written as integers, other values by
    their shortest exact text, so ``read_swf(write_swf(df))`` gives ``df`` back bit for
    bit (-0.0 comes back as 0.0). The header comes from ``frame.attrs`` (its raw
    ``"header"`` lines when present).

    Nothing is written if a column is missing or not numeric, a value is one
    :func:`read_swf` would refuse (negative other than -1, not finite, a job id that is
    not a whole number up to 2**53 - 1), or a header line breaks the file (a line
    break in it, or no leading ``;``): :class:`~hpcmodels.errors.InvalidParameter`
    names the column and row, or the header line; so does a ``path`` that is no file
    name (``""``, a folder, a bool, None).
    """
    path = check_path("path", path, folder=False)
    missing = [c for c in SWF_COLUMNS if c not in frame]
    if missing:
        raise InvalidParameter(f"write_swf: missing SWF columns: {missing}")
    header = _header_lines(frame.attrs)
    for line in header:
        if "\n" in line or "\r" in line:
            raise InvalidParameter(
                f"write_swf: header line {line!r} has a line break: "
                "its second part would be read as a job line"
            )
        if not line.lstrip(" \t").startswith(";"):
            raise InvalidParameter(
                f"write_swf: header line {line!r} does not start with "
                "';': it would be read as a job line"
            )
    values = _values_to_write(frame)
    columns = [_format(values[:, k]) for k in range(_N)]
    body = [" ".join(row) for row in zip(*columns, strict=True)]
    text = "\n".join([*header, *body]) + "\n"
    data = text.encode()
    path.write_bytes(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
    return path
