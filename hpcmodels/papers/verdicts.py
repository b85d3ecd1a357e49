"""The verdict rules: every paper-versus-ours comparison, its verdict, and one tolerance
policy. The bottom of the papers layer: it imports no paper, and every paper's rows are
made here.

Every reproduced item is a row ``item, quantity, kind, paper, ours, diff, verdict,
reason``. The verdicts:

* ``exact``: ours rounds to the printed value (at the paper's printed precision), on the
  paper's own input; a row computed on another input (another log, a shortened run, a
  reconstructed model) is never ``exact``;
* ``within tolerance``: ``|ours - paper|`` is at most the tolerance of the quantity's
  kind (:data:`TOLERANCES`), or, where ours is an estimate with a 95 % confidence
  interval, at most that interval's half-width (our run cannot tell the two apart);
* ``qualitative``: a claim of the paper (an ordering, a trend) that holds in our results;
* ``differs``: none of these; the reason is a measured statement (a number the notebook
  computes), never a guess;
* ``reconstructed model``: ours comes from a documented reconstruction of a model whose
  original parameters are lost, so the comparison says nothing about the paper;
* ``not run``: the item needs data that is not available here (the reason names it).

The tolerances are set here, once, per kind of quantity; paper modules name the kind
(:func:`compare_value`) and never a threshold of their own. Claims that two things are
"close", "alike" or "approximately the same" use :data:`ALIKE`. The rule for values at
paper scale, judged on ensembles of runs, is :mod:`hpcmodels.papers.ensemble`'s.

A notebook collects its rows in a :class:`Collector` and saves them as CSV under
``build/results/``; :mod:`hpcmodels.papers.report` gathers them into ``build/REPORT.md``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import InvalidParameter, check_bool, check_path

__all__ = [
    "VERDICTS",
    "COLUMNS",
    "VERDICT_MEANINGS",
    "TOLERANCES",
    "ALIKE",
    "Tolerance",
    "tolerance_table",
    "alike",
    "compare_value",
    "compare_claim",
    "claim",
    "join_reasons",
    "row",
    "fmt_series",
    "not_run",
    "log_missing",
    "missing_frame",
    "missing_of",
    "shown",
    "Collector",
    "view",
]

VERDICTS = ("exact", "within tolerance", "qualitative", "differs", "reconstructed model", "not run")
COLUMNS = ["item", "quantity", "kind", "paper", "ours", "diff", "verdict", "reason"]
VERDICT_MEANINGS = {
    "exact": "ours rounds to the printed value, on the paper's own input",
    "within tolerance": "within the tolerance of the quantity's kind (below), or inside our "
    "95 % confidence interval",
    "qualitative": "a claim of the paper (an ordering, a trend) that holds in ours",
    "differs": "none of these; the reason is a measured statement",
    "reconstructed model": "ours comes from a documented reconstruction of a lost model: "
    "says nothing about the paper",
    "not run": "needs data not available here (the reason names it)",
}


@dataclass(frozen=True)
class Tolerance:
    """How far ours may lie from the paper's value for one kind of quantity."""

    absolute: float = 0.0
    relative: float = 0.0
    what: str = ""
    why: str = ""
    unit: str = "absolute"
    exact: bool = True  # False: an approximate value is never matched exactly

    def of(self, paper: float) -> float:
        """The tolerance for a printed value ``paper``."""
        return max(self.absolute, self.relative * abs(paper))

    def text(self) -> str:
        if self.relative:
            return f"{self.relative:.0%} of the paper's value"
        if self.absolute:
            return f"{self.absolute:g} {self.unit}"
        return "none (exact only)"


TOLERANCES: dict[str, Tolerance] = {
    "fraction": Tolerance(
        absolute=0.01,
        what="shares, probabilities and utilisations in [0, 1]",
        why="printed to two or three decimals; one unit of the second decimal",
    ),
    "percent": Tolerance(
        absolute=2.0,
        unit="percentage points",
        what="percentages and percentage-point gains",
        why="printed as whole percents or one decimal, mostly read off simulated curves",
    ),
    "time": Tolerance(
        relative=0.05,
        what="simulated means: times, waiting ratios, slowdowns, turnaround",
        why="trace- and model-driven averages move by a few percent with event-order "
        "details the papers do not state",
    ),
    "count": Tolerance(
        what="counts that follow from the input and the rules (jobs, states)",
        why="deterministic: the same input and rules give the same count",
    ),
    "approximate": Tolerance(
        relative=0.10,
        what="values the paper states as approximate or reads off a figure",
        why="the paper's own 'about' or the precision of reading a plot (never exact)",
        exact=False,
    ),
}

ALIKE = 0.05
"""Relative spread within which a paper's "close", "alike" or "approximately the same"
holds: ``(max - min) / min <= ALIKE`` (or the values' 95 % confidence intervals overlap,
where they have them)."""


def tolerance_table() -> pd.DataFrame:
    """The tolerance policy as a table (README and the top of REPORT.md show it)."""
    return pd.DataFrame(
        [(kind, t.what, t.text(), t.why) for kind, t in TOLERANCES.items()],
        columns=["kind", "quantities", "tolerance", "why"],
    )


def alike(values, cis=None) -> bool:
    """Whether ``values`` are "approximately the same" (:data:`ALIKE`): their relative
    spread is at most ``ALIKE``, or, given 95 % half-widths ``cis``, every pair's
    intervals overlap."""
    x = [float(v) for v in values]
    if not x or not all(math.isfinite(v) for v in x):
        raise InvalidParameter(f"alike needs finite values, got {values!r}")
    lo, hi = min(x), max(x)
    if hi - lo <= ALIKE * abs(lo):
        return True
    if cis is None:
        return False
    c = [float(v) for v in cis]
    return all(
        abs(a - b) <= ca + cb
        for a, ca in zip(x, c, strict=True)
        for b, cb in zip(x, c, strict=True)
    )


def _decimals(printed: str) -> int:
    text = printed.strip().lstrip("+-")
    return len(text.split(".", 1)[1]) if "." in text else 0


def row(
    item: str, quantity: str, kind: str, paper, ours, diff, verdict: str, reason: str, **extra
) -> dict:
    """One report row, its columns in :data:`COLUMNS` order; ``extra`` columns (an
    ensemble's mean, interval and range) follow them. A ``verdict`` not among
    :data:`VERDICTS`, or an ``item``, ``quantity`` or ``reason`` that is not a string, is
    an :class:`~hpcmodels.errors.InvalidParameter` naming it."""
    if verdict not in VERDICTS:
        raise InvalidParameter(f"unknown verdict {verdict!r}; choose one of {list(VERDICTS)}")
    for name, text in (("item", item), ("quantity", quantity), ("reason", reason)):
        if not isinstance(text, str):
            raise InvalidParameter(f"{name} must be a string, got {text!r:.80}")
    return dict(
        item=item,
        quantity=quantity,
        kind=kind,
        paper=paper,
        ours=ours,
        diff=diff,
        verdict=verdict,
        reason=reason,
        **extra,
    )


def join_reasons(*parts: str) -> str:
    """The non-empty ``parts`` of a row's reason, joined by semicolons."""
    return "; ".join(p for p in parts if p)


def compare_value(
    item: str,
    quantity: str,
    paper: float | str,
    ours: float,
    *,
    kind: str,
    ci: float | None = None,
    other_input: str = "",
    note: str = "",
    cause: str = "",
) -> dict:
    """Compare one number under the tolerance policy.

    ``paper`` may be given as the printed string ("0.752") so that its printed precision
    decides what counts as ``exact``. ``kind`` is a key of :data:`TOLERANCES`; ``ci`` our
    95 % confidence half-width, when ours is an estimate; ``other_input`` names how our
    input differs from the paper's (then the row cannot be ``exact``); ``note`` is shown
    whatever the verdict (run length, reading); ``cause`` only when the row differs: a
    measured statement of why."""
    if kind not in TOLERANCES:
        raise InvalidParameter(f"unknown kind {kind!r}; choose one of {list(TOLERANCES)}")
    printed = paper if isinstance(paper, str) else repr(paper)
    p = float(printed)
    diff = ours - p
    finite = math.isfinite(ours)
    half_unit = 0.5 * 10.0 ** (-_decimals(printed))
    tol = TOLERANCES[kind].of(p)
    by_ci = ci is not None and math.isfinite(ci) and ci > tol
    if by_ci:
        tol = ci
    rounds = finite and TOLERANCES[kind].exact and abs(diff) <= half_unit * (1 + 1e-9)
    context = join_reasons(f"input: {other_input}" if other_input else "", note)
    if rounds and not other_input:
        verdict, reason = "exact", context
    elif finite and (rounds or abs(diff) <= tol * (1 + 1e-12)):
        bound = "the 95 % CI half-width" if by_ci else f"{kind} tolerance"
        verdict, reason = (
            "within tolerance",
            join_reasons(f"|diff| <= {tol:.3g} ({bound})", context),
        )
    else:
        verdict, reason = "differs", join_reasons(cause or "no reason recorded", context)
    return row(item, quantity, kind, p, ours, diff, verdict, reason)


def not_run(item: str, quantity: str, paper, missing: str, *, kind: str = "") -> dict:
    """An item that could not be computed here, naming what is missing."""
    return row(item, quantity, kind, paper, None, None, "not run", missing)


def log_missing(err: Exception) -> str:
    """A missing workload log (a :class:`~hpcmodels.errors.LogNotAvailable`) as one
    sentence for a report row or a notebook: which log and how to get it, without this
    machine's folders (stored notebook outputs must read the same on every machine)."""
    return (
        f"log missing: {str(err).split(';')[0]}; download it from the Parallel Workloads "
        "Archive (hpcmodels.workloads.catalogue() gives its address) into the folder "
        "HPCMODELS_DATA names"
    )


def missing_frame(reason: str) -> pd.DataFrame:
    """An empty frame standing for a result that needs data missing here:
    ``attrs["missing"]`` says, in one sentence, what is missing and how to get it. A
    paper module's ``build_*`` functions return it instead of failing, pass it on when
    it is their input (:func:`missing_of`), and their rows functions turn it into
    ``not run`` rows."""
    frame = pd.DataFrame()
    frame.attrs["missing"] = reason
    return frame


def shown(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` as a notebook displays it: itself, or when it stands for missing data
    (:func:`missing_frame`) one cell ``not run`` holding the reason, so that a table
    that could not be made says why instead of showing nothing."""
    reason = missing_of(frame)
    return frame if reason is None else pd.DataFrame({"not run": [reason]})


def missing_of(*inputs) -> str | None:
    """Why the first of ``inputs`` that stands for missing data (a frame from
    :func:`missing_frame`) is missing, or None when none does; other values are
    ignored."""
    for value in inputs:
        if isinstance(value, pd.DataFrame) and value.attrs.get("missing"):
            return str(value.attrs["missing"])
    return None


def compare_claim(
    item: str,
    quantity: str,
    claim: str,
    holds: bool,
    ours: str,
    *,
    cause: str = "",
    note: str = "",
) -> dict:
    """A qualitative statement of the paper (an ordering, a trend) checked on ours:
    ``qualitative`` when it holds, else ``differs`` with ``cause`` (a measured statement;
    ``ours`` should carry the numbers). ``holds`` is a bool (a NumPy bool too); a
    string such as ``"no"``, a number or None is an
    :class:`~hpcmodels.errors.InvalidType` naming it."""
    if check_bool("holds", holds):
        verdict, reason = "qualitative", note
    else:
        verdict, reason = "differs", join_reasons(cause or "the claim does not hold in ours", note)
    return row(item, quantity, "claim", claim, ours, None, verdict, reason)


def claim(item: str, text: str, holds, ours: str, *, cause: str = "", note: str = "") -> dict:
    """A claim whose quantity is its own text (:func:`compare_claim`)."""
    return compare_claim(item, text, text, bool(holds), ours, cause=cause, note=note)


def fmt_series(values: Mapping | pd.Series, sep: str = ", ") -> str:
    """``key: value`` pairs in one line, numeric keys as ``:g`` (a claim's ``ours``)."""
    items = values.items()
    return sep.join(f"{k:g}: {v}" if isinstance(k, int | float) else f"{k}: {v}" for k, v in items)


@dataclass
class Collector:
    """The rows of one paper's reproduction, in the order the notebook adds them."""

    paper: str
    title: str
    rows: list[dict] = field(default_factory=list)

    def add(self, rows: dict | list[dict] | pd.DataFrame) -> pd.DataFrame:
        """Add rows; returns them as a DataFrame so a notebook cell can show them."""
        if isinstance(rows, pd.DataFrame):
            new = rows[COLUMNS].to_dict("records")
        elif isinstance(rows, dict):
            new = [rows]
        else:
            new = list(rows)
        for row in new:
            if row["verdict"] not in VERDICTS:
                raise InvalidParameter(f"unknown verdict {row['verdict']!r} in {row}")
        self.rows.extend(new)
        return pd.DataFrame(new, columns=COLUMNS)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=COLUMNS)

    def save(self, results_dir: str | Path) -> Path:
        """Write the rows as ``<results_dir>/<paper>.csv`` (``results_dir``: a non-empty
        folder name, :func:`~hpcmodels.errors.check_path`) and return its path."""
        out = check_path("results_dir", results_dir)
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{self.paper}.csv"
        frame = self.frame()
        frame.insert(0, "title", self.title)
        frame.to_csv(path, index=False)
        from ..workloads.archive import logs_read

        # a fresh record for this run; `python -m hpcmodels reproduce` adds how it ran
        path.with_suffix(".json").write_text(json.dumps({"logs": logs_read()}))
        return path


def view(rows: pd.DataFrame | list[dict], digits: int = 4) -> pd.DataFrame:
    """A comparison table as a notebook shows it: numbers rounded, reasons kept whole."""
    frame = pd.DataFrame(rows)
    for column in ("paper", "ours", "diff", "algorithm1"):
        if column in frame:
            frame[column] = [round(v, digits) if isinstance(v, float) else v for v in frame[column]]
    return frame
