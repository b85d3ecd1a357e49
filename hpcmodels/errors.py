"""The package's exceptions: one base, so a user can catch everything hpcmodels raises
about bad input with ``except HpcmodelsError`` (or ``except ValueError``: the base is
a ``ValueError``).

Each subclass keeps the builtin a caller may already catch: ``LogNotAvailable`` is also
a ``FileNotFoundError``, ``UnknownLogError`` also a ``KeyError``.

``check_int`` and ``check_real`` validate one scalar parameter and raise
``InvalidParameter`` naming it and its value; ``check_frame`` a table's type and
columns.
"""

from __future__ import annotations

import math
import numbers

__all__ = ["HpcmodelsError", "InvalidParameter", "InvalidType", "LogNotAvailable", "SWFError",
           "SWFFileError", "UnknownLogError", "check_frame", "check_int", "check_real"]  # fmt: skip


class HpcmodelsError(ValueError):
    """Base of every error hpcmodels raises about its input."""


class InvalidParameter(HpcmodelsError):
    """A parameter of a public function is out of range or of the wrong kind; the
    message names the parameter and the value."""


class InvalidType(InvalidParameter, TypeError):
    """A parameter of the wrong type where callers may catch ``TypeError`` (an object
    that is not the documented class); also an :class:`InvalidParameter`."""


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


def check_int(name: str, value: object, *, minimum: int | None = None,
              maximum: int | None = None) -> int:  # fmt: skip
    """``value`` as an ``int``, if it is a whole number in ``[minimum, maximum]``.

    Accepted: an ``int``, a NumPy integer, or an integral float such as ``4.0`` (a count
    read from a float column). Rejected with :class:`InvalidParameter` naming ``name`` and
    the value: a bool, a string, ``None``, NaN, inf, a non-integral number, or a value
    out of range.
    """
    number = None
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if isinstance(value, numbers.Integral) or float(value).is_integer():  # not NaN, inf
            number = int(value)
    low_ok = number is not None and (minimum is None or number >= minimum)
    if not low_ok or (maximum is not None and number > maximum):
        rule = _rule((">=", minimum), ("<=", maximum))
        raise InvalidParameter(f"{name} must be a whole number{rule}, got {value!r}")
    return number


def check_real(name: str, value: object, *, above: float | None = None,
               at_least: float | None = None) -> float:  # fmt: skip
    """``value`` as a ``float``, if it is a finite real number ``> above`` and
    ``>= at_least`` (each bound optional).

    Rejected with :class:`InvalidParameter` naming ``name`` and the value: a bool, a
    string, ``None``, NaN, inf, an int too large for a float, or a value out of range.
    """
    number = math.nan
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an int beyond the float range
            pass
    in_range = (above is None or number > above) and (at_least is None or number >= at_least)
    if not (math.isfinite(number) and in_range):
        rule = _rule((">", above), (">=", at_least))
        raise InvalidParameter(f"{name} must be a finite number{rule}, got {value!r}")
    return number


def check_frame(name: str, value: object, columns) -> object:
    """``value`` itself, if it is a pandas DataFrame holding every one of ``columns``;
    else :class:`InvalidParameter` naming ``name``, what it got and the columns missing."""
    import pandas as pd

    if not isinstance(value, pd.DataFrame):
        raise InvalidParameter(f"{name} must be a pandas DataFrame with columns "
                               f"{list(columns)}, got {type(value).__name__}")  # fmt: skip
    missing = [c for c in columns if c not in value.columns]
    if missing:
        raise InvalidParameter(f"{name} lacks column(s) {missing}; it has {list(value.columns)}")
    return value


def _rule(*bounds: tuple[str, float | None]) -> str:
    """`` >= 1 and <= 9``-style text for the bounds that are set."""
    parts = [f"{op} {bound}" for op, bound in bounds if bound is not None]
    return " " + " and ".join(parts) if parts else ""
