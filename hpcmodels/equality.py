"""Results compare by value (issue 25): ``==`` on two results of any simulator says
whether they hold the same numbers, never raises NumPy's "truth value of an array is
ambiguous".

A result class mixes in :class:`ByValue` and is declared ``@dataclass(eq=False)`` (a
dataclass's own ``__eq__`` compares field tuples, which fails on arrays).
:func:`same_value` is the rule: arrays, frames and sparse matrices are equal when their
shapes, labels and entries are; NaN equals NaN (an undefined metric in both runs is the
same result); containers compare element by element; anything else by ``==``.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import scipy.sparse as sp

__all__ = ["ByValue", "same_value"]


def same_value(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` hold the same value (module rule)."""
    if sp.issparse(a) or sp.issparse(b):
        if not (sp.issparse(a) and sp.issparse(b)) or a.shape != b.shape:
            return False
        return same_value(a.toarray(), b.toarray())
    if isinstance(a, pd.DataFrame | pd.Series) or isinstance(b, pd.DataFrame | pd.Series):
        return type(a) is type(b) and a.equals(b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        x, y = np.asarray(a), np.asarray(b)
        if x.shape != y.shape:
            return False
        try:
            return bool(np.array_equal(x, y, equal_nan=True))
        except TypeError:  # object or string arrays: no NaN to match
            return bool(np.array_equal(x, y))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(same_value(x, y) for x, y in zip(a, b, strict=True))
        )
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return a == b  # a nested result or value class: its own rule
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


class ByValue:
    """Mixin for ``@dataclass(eq=False)`` results: equal when of the same class with
    every field the same value (:func:`same_value`). Unhashable, as mutable arrays are."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            same_value(getattr(self, f.name), getattr(other, f.name))
            for f in dataclasses.fields(self)
        )
