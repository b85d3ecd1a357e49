"""Files the package reads back (notebooks, run records, results tables), read so that
one that cannot be read as what it should be is a :class:`~hpcmodels.errors.CorruptFile`
naming the file, why, and what to do (:data:`REWRITE` for what a run writes under
``build/``; :func:`restore` for a file of the checkout)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pandas as pd

from ..errors import CorruptFile

__all__ = ["REWRITE", "restore", "read_text", "read_record", "read_notebook", "read_table", "why"]

ROOT = Path(__file__).resolve().parents[2]
"""The checkout the package runs from."""

REWRITE = "rerun `make reproduce` (python -m hpcmodels reproduce) to write it again, or delete it"
"""What to do about a corrupt file of ``build/``: the run that wrote it writes it again."""


def restore(path: Path) -> str:
    """What to do about a corrupt file of the checkout: restore it from git."""
    try:
        where = Path(path).resolve().relative_to(ROOT)
    except ValueError:
        where = Path(path)
    return f"restore it from git (git checkout -- {where.as_posix()})"


def why(err: BaseException) -> str:
    """The first line of an error's message (its type's name when it has none)."""
    lines = str(err).strip().splitlines()
    return lines[0] if lines else type(err).__name__


def read_text(path: Path, remedy: str = REWRITE) -> str:
    """The UTF-8 text of ``path``, a file the package reads back; one that cannot be read
    (not UTF-8, a folder, not readable) is a :class:`~hpcmodels.errors.CorruptFile`
    naming it, why, and ``remedy``: what to do."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CorruptFile(path, f"cannot be read as UTF-8 text ({why(err)}); {remedy}") from None


def read_record(path: Path, remedy: str = REWRITE) -> dict:
    """The JSON object of ``path`` (a record: how results were made, a notebook), else a
    :class:`~hpcmodels.errors.CorruptFile` as :func:`read_text` gives it."""
    try:
        record = json.loads(read_text(path, remedy))
    except json.JSONDecodeError as err:
        raise CorruptFile(path, f"is not JSON ({why(err)}); {remedy}") from None
    if not isinstance(record, dict):
        raise CorruptFile(path, f"holds a JSON {type(record).__name__}, not an object; {remedy}")
    return record


def read_notebook(path: Path) -> dict:
    """The JSON of the notebook ``path`` of the checkout, with its list of cells; else a
    :class:`~hpcmodels.errors.CorruptFile` saying to restore it from git."""
    notebook = read_record(path, restore(path))
    if not isinstance(notebook.get("cells"), list):
        raise CorruptFile(path, f"is not a notebook (no list of cells); {restore(path)}")
    return notebook


def read_table(path: Path, columns, remedy: str = REWRITE, **options) -> pd.DataFrame:
    """The CSV table of ``path`` holding every one of ``columns`` (``options`` go to
    ``pd.read_csv``); a file that is no such table (not UTF-8, empty, a row with more
    fields than the header, a column missing) is a
    :class:`~hpcmodels.errors.CorruptFile` naming it, why, and ``remedy``."""
    try:
        with warnings.catch_warnings():  # a row longer than the header: an error, not a shift
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(path, index_col=False, encoding="utf-8", **options)
    except pd.errors.ParserWarning:
        raise CorruptFile(path, f"has a row longer than its header; {remedy}") from None
    except (OSError, ValueError) as err:
        raise CorruptFile(path, f"is not a readable CSV table ({why(err)}); {remedy}") from None
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise CorruptFile(path, f"lacks column(s) {missing}; {remedy}")
    return frame
