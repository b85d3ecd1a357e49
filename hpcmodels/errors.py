"""The package's exceptions: one base, so a user can catch everything hpcmodels raises
about bad input with ``except HpcmodelsError`` (or ``except ValueError``: the base is
a ``ValueError``).

Each subclass keeps the builtin a caller may already catch: ``LogNotAvailable`` is also
a ``FileNotFoundError``, ``UnknownLogError`` also a ``KeyError``.
"""

from __future__ import annotations

__all__ = ["HpcmodelsError", "InvalidParameter", "LogNotAvailable", "SWFError",
           "UnknownLogError"]  # fmt: skip


class HpcmodelsError(ValueError):
    """Base of every error hpcmodels raises about its input."""


class InvalidParameter(HpcmodelsError):
    """A parameter of a public function is out of range or of the wrong kind; the
    message names the parameter and the value."""


class SWFError(HpcmodelsError):
    """A malformed SWF line: names the file, the line number and the field."""

    def __init__(self, path: str, line_number: int, field: str, problem: str) -> None:
        self.path, self.line_number, self.field = path, line_number, field
        super().__init__(f"{path}, line {line_number}: field '{field}': {problem}")


class LogNotAvailable(HpcmodelsError, FileNotFoundError):
    """A workload log is neither on disk nor downloadable (offline, a wrong checksum, an
    unreadable or corrupt file)."""


class UnknownLogError(HpcmodelsError, KeyError):
    """A log name the catalogue does not have; the message lists the catalogue."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""
