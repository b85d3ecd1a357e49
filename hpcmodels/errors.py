"""The package's exceptions: one base, so a user can catch everything hpcmodels raises
about bad input with ``except HpcmodelsError`` (or ``except ValueError``: the base is
a ``ValueError``).

Each subclass keeps the builtin a caller may already catch: ``LogNotAvailable`` is also
a ``FileNotFoundError``, ``UnknownLogError`` also a ``KeyError``. ``CorruptFile`` names a
file the package wrote and reads back (a notebook's results, the report) that cannot be
read, and what to do; ``CorruptStore`` (a paper-scale store file that cannot be trusted)
is one, and also an ``InvalidParameter``.

``check_int`` and ``check_real`` validate one scalar parameter and raise
``InvalidParameter`` naming it and its value (``check_ints`` a sequence of whole
numbers, naming the entry); ``check_bool`` a flag, ``check_choice`` a name from a fixed
set, ``check_array`` an array of numbers, ``check_frame`` a table's type, columns and
numeric columns, ``check_each`` every entry of a sequence (with one of the others) and
``check_path`` a file or folder name. ``reworded`` gives a caught error a caller's
message and keeps its class (an ``InvalidType`` stays an ``InvalidType``).
"""

from __future__ import annotations

import math
import numbers
import os
from pathlib import Path

__all__ = [
    "CorruptFile",
    "HpcmodelsError",
    "InvalidParameter",
    "InvalidType",
    "CorruptStore",
    "LogNotAvailable",
    "SWFError",
    "SWFFileError",
    "UnknownLogError",
    "check_array",
    "check_bool",
    "check_choice",
    "check_each",
    "check_frame",
    "check_int",
    "check_ints",
    "check_path",
    "check_real",
    "reworded",
]


class HpcmodelsError(ValueError):
    """Base of every error hpcmodels raises about its input."""


class InvalidParameter(HpcmodelsError):
    """A parameter of a public function is out of range or of the wrong kind; the
    message names the parameter and the value."""


class InvalidType(InvalidParameter, TypeError):
    """A parameter of the wrong type where callers may catch ``TypeError`` (an object
    that is not the documented class); also an :class:`InvalidParameter`."""


class CorruptFile(HpcmodelsError):
    """A file the package wrote and reads back (a notebook's results in
    ``build/results``, ``build/REPORT.md``, a notebook of the checkout) that cannot be
    read as what it should be: not UTF-8 text, not JSON or CSV, a column or key missing.
    The message names the file, what is wrong and what to do (write it again, restore
    it); ``path`` holds the file."""

    def __init__(self, path: str | os.PathLike, problem: str) -> None:
        self.path = str(path)
        super().__init__(f"{path}: {problem}")


class CorruptStore(CorruptFile, InvalidParameter):
    """A file of the paper-scale store (``results/<paper>.parquet`` or its
    ``<paper>.provenance.json``, :mod:`hpcmodels.papers.store`) that cannot be trusted: not
    readable (truncated, not Parquet, not UTF-8 JSON), of the wrong schema (a column
    missing or of the wrong type, a duplicated key), or whose SHA-256 differs from the one
    its provenance records (a flipped byte, a hand edit). The message names the file and
    what is wrong; ``path`` holds the file. Also an :class:`InvalidParameter` (the ``paper``
    and ``folder`` named it), which ``read_store`` raised for a store without its columns
    before the class existed, so ``except InvalidParameter`` still catches it; and a
    :class:`CorruptFile`."""


class SWFError(HpcmodelsError):
    """A malformed SWF line: names the file, the line number and the field."""

    def __init__(self, path: str, line_number: int, field: str, problem: str) -> None:
        self.path, self.line_number, self.field = path, line_number, field
        super().__init__(f"{path}, line {line_number}: field '{field}': {problem}")


class SWFFileError(SWFError, OSError):
    """An SWF file that cannot be read at all (a truncated or corrupt gzip): the message
    names the file and what is wrong; ``line_number`` and ``field`` are None. Also an
    ``OSError``, as the gzip errors it replaces, so ``except OSError`` still catches it."""

    def __init__(self, path: str, problem: str) -> None:
        HpcmodelsError.__init__(self, f"{path}: {problem}")
        self.path, self.line_number, self.field = path, None, None


class LogNotAvailable(HpcmodelsError, FileNotFoundError):
    """A workload log is neither on disk nor downloadable (offline, a wrong checksum, an
    unreadable or corrupt file)."""


class UnknownLogError(HpcmodelsError, KeyError):
    """A log name the catalogue does not have; the message lists the catalogue."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


def reworded(error: InvalidParameter, message: str) -> InvalidParameter:
    """A new error of ``error``'s own class (an :class:`InvalidParameter` or
    :class:`InvalidType`) with ``message``: re-raise a helper's error
    in a caller's words without turning an :class:`InvalidType` (also a ``TypeError``)
    into a plain :class:`InvalidParameter`. Use as ``raise reworded(err, "...") from
    None``."""
    return type(error)(message)


def check_int(
    name: str, value: object, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """``value`` as an ``int``, if it is a whole number in ``[minimum, maximum]``.

    Accepted: an ``int``, a NumPy integer, or an integral float such as ``4.0`` (a count
    read from a float column). Rejected with :class:`InvalidParameter` naming ``name`` and
    the value: NaN, inf, a non-integral number, or a value out of range; a bool, a
    string, ``None`` or another non-number with :class:`InvalidType` (also a
    ``TypeError``).
    """
    number = None
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if isinstance(value, numbers.Integral) or float(value).is_integer():  # not NaN, inf
            number = int(value)
    low_ok = number is not None and (minimum is None or number >= minimum)
    if not low_ok or (maximum is not None and number > maximum):
        rule = _rule((">=", minimum), ("<=", maximum))
        error = InvalidParameter if _is_number(value) else InvalidType
        raise error(f"{name} must be a whole number{rule}, got {value!r}")
    return number


def check_ints(
    name: str,
    values: object,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    max_length: int | None = None,
) -> list[int]:
    """``values`` as a list of ints: an iterable (a list, tuple, range, array or
    generator, read once) of whole numbers, each in ``[minimum, maximum]`` as
    :func:`check_int` reads it and named ``name[i]`` when it is not; with
    ``max_length``, at most that many (a longer one is refused before it is read
    further). A string, bytes, a dict, ``None`` or a non-iterable is an
    :class:`InvalidType` naming ``name``."""
    from collections.abc import Iterable
    from itertools import islice

    if isinstance(values, str | bytes | dict) or not isinstance(values, Iterable):
        raise InvalidType(f"{name} must be a sequence of whole numbers, got {values!r:.80}")
    if max_length is not None:
        try:
            size = len(values)
        except OverflowError:  # a range longer than sys.maxsize
            size = max_length + 1
        except TypeError:  # a generator: read one more than allowed, no further
            values = list(islice(values, max_length + 1))
            size = len(values)
        if size > max_length:
            raise InvalidParameter(f"{name} must hold at most {max_length} numbers")
    return [
        check_int(f"{name}[{i}]", v, minimum=minimum, maximum=maximum) for i, v in enumerate(values)
    ]


def check_real(
    name: str,
    value: object,
    *,
    above: float | None = None,
    at_least: float | None = None,
    at_most: float | None = None,
) -> float:
    """``value`` as a ``float``, if it is a finite real number ``> above``, ``>= at_least``
    and ``<= at_most`` (each bound optional).

    Rejected with :class:`InvalidParameter` naming ``name`` and the value: NaN, inf, an
    int too large for a float, or a value out of range; a bool, a string, ``None`` or
    another non-number with :class:`InvalidType` (also a ``TypeError``).
    """
    number = math.nan
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an int beyond the float range
            pass
    in_range = (above is None or number > above) and (at_least is None or number >= at_least)
    in_range = in_range and (at_most is None or number <= at_most)
    if not (math.isfinite(number) and in_range):
        rule = _rule((">", above), (">=", at_least), ("<=", at_most))
        error = InvalidParameter if _is_number(value) else InvalidType
        raise error(f"{name} must be a finite number{rule}, got {value!r}")
    return number


def check_bool(name: str, value: object) -> bool:
    """``value`` as a ``bool``, if it is ``True`` or ``False`` (a NumPy bool too); an int
    such as 1, a string such as ``"no"`` or ``None`` is an :class:`InvalidParameter`."""
    import numpy as np

    if not isinstance(value, bool | np.bool_):
        raise InvalidType(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_path(
    name: str, value: object, *, folder: bool = True, optional: bool = False
) -> Path | None:
    """``value`` as a :class:`~pathlib.Path`, if it names a file or folder: a non-empty
    ``str`` or an ``os.PathLike`` (a ``pathlib.Path``) whose text is a non-empty
    ``str``. With ``optional``, ``None`` is accepted and returned (keep nothing, or the
    caller's default). Rejected with :class:`InvalidType` naming ``name``: ``None``
    (unless optional), a bool, a number, bytes or any other object; with
    :class:`InvalidParameter`: ``""`` (which ``Path`` would read as the current
    folder), a name holding a NUL character, and a name where something of the other
    kind already exists (a file where a folder is wanted, with ``folder=True``; a
    folder where a file is wanted, with ``folder=False``)."""
    kind = "folder" if folder else "file"
    if value is None and optional:
        return None
    text = os.fspath(value) if isinstance(value, str | os.PathLike) else None
    if not isinstance(text, str):
        also = " or None" if optional else ""
        raise InvalidType(
            f"{name} must be a {kind} name (a str or pathlib.Path){also}, got {value!r}"
        )
    if not text or "\0" in text:
        raise InvalidParameter(f"{name} must be a non-empty {kind} name, got {value!r}")
    path = Path(text)
    if folder and path.exists() and not path.is_dir():
        raise InvalidParameter(f"{name} must be a folder, got {value!r}: a file is there")
    if not folder and path.is_dir():
        raise InvalidParameter(f"{name} must be a file name, got {value!r}: a folder is there")
    return path


def check_each(name: str, values: object, check=None, *args, **kwargs) -> list:
    """``values`` as a list: an iterable (a list, tuple, range, array or generator, read
    once) whose every entry passes ``check(f"{name}[{i}]", entry, *args, **kwargs)`` (one
    of the checks here, e.g. :func:`check_choice` or :func:`check_real`; its results are
    returned; None: the entries as they are). A string, bytes, a dict, ``None`` or any
    other non-iterable is an :class:`InvalidType` naming ``name``: ``"TLA"`` would
    otherwise be read as ``["T", "L", "A"]``."""
    from collections.abc import Iterable

    if isinstance(values, str | bytes | dict) or not isinstance(values, Iterable):
        raise InvalidType(f"{name} must be a sequence (a list or tuple), got {values!r:.80}")
    values = list(values)
    if check is None:
        return values
    return [check(f"{name}[{i}]", v, *args, **kwargs) for i, v in enumerate(values)]


def check_choice(name: str, value: object, options) -> str:
    """``value``, if it is one of ``options`` (strings); anything else, an unhashable list
    included, is an :class:`InvalidParameter` naming ``name`` and listing the options."""
    options = list(options)
    if not isinstance(value, str) or value not in options:
        raise InvalidParameter(f"{name} must be one of {options}, got {value!r}")
    return value


def check_array(
    name: str,
    value: object,
    *,
    ndim: int | None = None,
    finite: bool = True,
    at_least: float | None = None,
):
    """``value`` as a float64 NumPy array, if it holds real numbers: a list, tuple, NumPy
    array or pandas Series of ints or floats (a generator or a set is read once into a
    list). With ``ndim`` it must have that many dimensions; with ``finite`` (default) no
    NaN or inf; with ``at_least`` no entry below it. Rejected with
    :class:`InvalidParameter` naming ``name``: a value out of range or a wrong shape;
    :class:`InvalidType` (also a ``TypeError``) for ``None``, strings (also as entries),
    bools, dicts or ragged nesting."""
    import numpy as np

    if isinstance(value, str | bytes | dict) or value is None:
        raise InvalidType(f"{name} must be numbers, got {type(value).__name__} {value!r:.80}")
    if not isinstance(value, np.ndarray) and not hasattr(value, "__array__"):
        if hasattr(value, "__iter__") and not isinstance(value, list | tuple):
            value = list(value)  # a generator, a set, a range, ...
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError):
        raise InvalidType(f"{name} must be numbers (a regular array), got {value!r:.80}") from None
    if raw.dtype.kind not in "iuf" or _has_bool(value):
        what = "bools" if raw.dtype.kind == "b" or _has_bool(value) else f"dtype {raw.dtype}"
        raise InvalidType(f"{name} must be real numbers, not {what}: got {value!r:.80}")
    a = raw.astype(float)
    if ndim is not None and a.ndim != ndim:
        raise InvalidParameter(f"{name} must be {ndim}-dimensional, got shape {a.shape}")
    if finite and not np.all(np.isfinite(a)):
        raise InvalidParameter(f"{name} must be finite numbers, got {value!r:.80}")
    if at_least is not None and np.any(a < at_least):
        raise InvalidParameter(f"{name} must be >= {at_least:g}, got {value!r:.80}")
    return a


def _has_bool(value) -> bool:
    """Whether a (nested) list or tuple holds a bool: NumPy would read ``[True, 0.5]`` as
    ``[1.0, 0.5]``."""
    import numpy as np

    if isinstance(value, list | tuple):
        return any(isinstance(v, bool | np.bool_) or _has_bool(v) for v in value)
    return False


def check_frame(
    name: str, value: object, columns, *, numeric=(), finite: bool = True, unique=()
) -> object:
    """``value`` itself, if it is a pandas DataFrame holding every one of ``columns``;
    else :class:`InvalidParameter` naming ``name``, what it got and the columns missing
    (:class:`InvalidType` when it is no DataFrame). Each column of ``numeric`` (also
    required) must hold real numbers (a column of ints or floats: no strings, bools or
    objects, else :class:`InvalidType`) and, with ``finite`` (the default), no NaN or inf
    (else :class:`InvalidParameter` naming the first such row); the messages name
    ``name`` and the column. ``unique``: the columns (also required) that identify a
    row: two rows alike in all of them are an :class:`InvalidParameter` naming the
    first repeated key (a table concatenated twice would be averaged without a word)."""
    import numpy as np
    import pandas as pd

    numeric, unique = list(numeric), list(unique)
    columns = list(dict.fromkeys([*columns, *numeric, *unique]))
    if not isinstance(value, pd.DataFrame):
        raise InvalidType(
            f"{name} must be a pandas DataFrame with columns "
            f"{list(columns)}, got {type(value).__name__}"
        )
    missing = [c for c in columns if c not in value.columns]
    if missing:
        raise InvalidParameter(f"{name} lacks column(s) {missing}; it has {list(value.columns)}")
    twice = [c for c in columns if list(value.columns).count(c) > 1]
    if twice:
        raise InvalidParameter(f"{name} has column(s) {twice} more than once")
    for column in numeric:
        kind = value[column].dtype.kind
        if kind not in "iuf":
            what = "bools" if kind == "b" else f"dtype {value[column].dtype}"
            raise InvalidType(f"{name} column {column!r} must hold numbers, not {what}")
        numbers = value[column].to_numpy(dtype=float, na_value=np.nan)
        if finite and not np.isfinite(numbers).all():
            k = int(np.argmax(~np.isfinite(numbers)))
            row = value.index[k].item() if hasattr(value.index[k], "item") else value.index[k]
            raise InvalidParameter(
                f"{name} column {column!r} must hold finite numbers: row {row!r} has "
                f"{float(numbers[k])!r}"
            )
    if unique and value.duplicated(unique).any():
        key = value.loc[value.duplicated(unique), unique].iloc[0].to_dict()
        raise InvalidParameter(f"{name} holds more than one row of {key}: one row per {unique}")
    return value


def _is_number(value: object) -> bool:
    """A real number that is not a bool: the wrong *value* of the right type."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _rule(*bounds: tuple[str, float | None]) -> str:
    """`` >= 1 and <= 9``-style text for the bounds that are set."""
    parts = [f"{op} {bound}" for op, bound in bounds if bound is not None]
    return " " + " and ".join(parts) if parts else ""
