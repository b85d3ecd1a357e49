"""The paper beside ours in the explorers: every number the paper printed at an explorer's
current setting, our value from the run the controls just made, the difference, and,
where the paper-scale store (``results/``) holds that setting, the range of our
paper-scale runs."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import (
    InvalidParameter,
    InvalidType,
    check_array,
    check_bool,
    check_choice,
    check_each,
    check_real,
)
from ..papers.store import PAPERS, read_store, values

__all__ = ["Printed", "beside_printed", "decimals_of", "stored", "stored_values"]

COLUMNS = ["printed in", "the paper", "ours (this run)", "ours - paper", "ours at paper scale"]
WHY = "why ours differs"


@dataclass(frozen=True)
class Printed:
    """A number the paper prints (``paper``, as printed) in ``source`` for ``quantity``
    at the explorer's setting, and ``scale``: our paper-scale runs of that setting
    (``None``: the store does not hold it; else a 1-D sequence of numbers, kept as a
    float array). ``exact``: the model is deterministic, one run is the answer and there
    is no ensemble. ``reason``: why ours differs from the paper here, in the words of
    the notebook's measured cause (empty: none to give). ``source``, ``quantity``,
    ``paper`` and ``reason`` are text; anything else is an
    :class:`~hpcmodels.errors.InvalidParameter` naming the field."""

    source: str
    quantity: str
    paper: str
    scale: np.ndarray | None = None
    exact: bool = False
    reason: str = ""

    def __post_init__(self) -> None:
        for field in ("source", "quantity", "reason"):
            if not isinstance(getattr(self, field), str):
                raise InvalidType(f"Printed.{field} must be text, got {getattr(self, field)!r}")
        if not isinstance(self.paper, str):  # text keeps the printed precision
            raise InvalidType(
                f"Printed.paper must be the number as printed (text), got {self.paper!r}"
            )
        check_real("Printed.paper", _number(self.paper))
        object.__setattr__(self, "exact", check_bool("Printed.exact", self.exact))
        if self.scale is not None:
            scale = check_array("Printed.scale", self.scale, ndim=1, finite=False)
            object.__setattr__(self, "scale", scale)

    @property
    def decimals(self) -> int:
        """Ours is shown one decimal finer than the paper prints, at least one: a
        difference smaller than the paper's last digit stays visible."""
        return decimals_of(self.paper) + 1


def _number(printed: str) -> float | str:
    """A printed number as a float ("50.36" -> 50.36); text that is no number as it is,
    for :func:`~hpcmodels.errors.check_real` to name."""
    try:
        return float(printed)
    except ValueError:
        return printed


def decimals_of(printed: str) -> int:
    """The decimals a printed number shows ("50.36" -> 2, "45" -> 0); ``printed`` is the
    number as printed, text (a float has lost the printed precision: 50.30 is 50.3)."""
    if not isinstance(printed, str):
        raise InvalidType(f"printed must be a number as printed (text), got {printed!r:.80}")
    text = printed.strip()
    return len(text.split(".", 1)[1]) if "." in text else 0


def _scale_text(p: Printed, decimals: int) -> str:
    scale = p.scale
    if p.exact:
        return "deterministic: one run is exact"
    if scale is None or len(scale) == 0:
        return "not in the store"
    return (
        f"{scale.mean():,.{decimals}f} (runs {scale.min():,.{decimals}f} to "
        f"{scale.max():,.{decimals}f}, {len(scale)} runs)"
    )


def _printed(name: str, value: object) -> Printed:
    if not isinstance(value, Printed):
        raise InvalidType(f"{name} must be a Printed, got {type(value).__name__}")
    return value


def beside_printed(printed: Sequence[Printed], ours: Sequence[float]) -> pd.DataFrame:
    """One row per printed number, indexed by the quantity: where the paper prints it,
    the paper's value as printed, ours and ours - paper one decimal finer than the paper
    prints (so the columns keep one precision between updates), and our paper-scale
    mean with the range of its runs; where a row has a reason, a last column
    (:data:`WHY`) gives each row's. ``printed`` is a sequence of :class:`Printed` and
    ``ours`` one of as many finite numbers (one :class:`Printed` alone goes in a list)."""
    printed = check_each("printed", printed, _printed)
    ours = check_each("ours", ours)
    if len(printed) != len(ours):
        raise InvalidParameter(f"{len(printed)} printed numbers but {len(ours)} of ours")
    rows = []
    for k, (p, mine) in enumerate(zip(printed, ours, strict=True)):
        mine = check_real(f"ours[{k}] ({p.quantity})", mine)
        d = p.decimals
        rows.append(
            [
                p.source,
                p.paper,
                f"{mine:,.{d}f}",
                f"{mine - float(p.paper):+,.{d}f}",
                _scale_text(p, d),
            ]
        )
    index = pd.Index([p.quantity for p in printed], name="quantity")
    table = pd.DataFrame(rows, columns=COLUMNS, index=index)
    if any(p.reason for p in printed):  # said beside the row, not left to the last column
        table[WHY] = [p.reason for p in printed]
    return table


def stored(paper: str) -> pd.DataFrame | None:
    """The paper's store (read once per kernel; ``None`` where it is not computed).
    ``paper`` is the name of a paper with a store
    (:data:`hpcmodels.papers.store.PAPERS`)."""
    return _stored(check_choice("paper", paper, PAPERS))


@functools.cache
def _stored(paper: str) -> pd.DataFrame | None:
    return read_store(paper)


def stored_values(paper: str, item: str) -> np.ndarray | None:
    """The store's values of ``item`` (``None``: no store, or the item is not in it);
    ``paper`` as :func:`stored` takes it, ``item`` a store item's name (text)."""
    if not isinstance(item, str):
        raise InvalidType(f"item must be a store item's name (text), got {item!r:.80}")
    store = stored(paper)
    if store is None or not store["item"].eq(item).any():
        return None
    return values(store, item)
