"""Verdicts from ensembles: an item's value at paper scale is a distribution of single
runs, not one run.

A *replicate* is one single run with its own common random numbers: a seed for a
synthetic workload; for a trace-driven experiment a speed vector and a common
``1 +- 1e-4`` runtime scale (:func:`runtime_scale`). The same replicate index gives every
method the same numbers, so two methods can be compared run by run.

The rule, written once here and used by every paper (``docs/scale.md`` and
``build/REPORT.md`` state it):

* **A printed value** that is the mean of ``k`` runs of the paper (``k = 1`` for one
  run) is compared with the distribution of *our* mean of ``k`` runs, resampled from our
  replicates (:func:`mean_of_k`: ``RESAMPLES`` means of ``k`` replicates drawn with
  replacement, from a fixed seed). ``within tolerance`` when the printed value lies in
  that distribution's central 95 % range, or within the tolerance of the quantity's kind
  (:data:`hpcmodels.papers.verdicts.TOLERANCES`) of our mean; otherwise ``differs``, with
  how many standard deviations of our mean of ``k`` runs it lies away. A printed value
  computed from the means of several series (one method's improvement over the best of
  the others) is judged the same way on that statistic of our means of ``k`` runs,
  resampled with whole replicates so the series stay paired (:func:`statistic_of_k`).
* **A claim that A beats B** (lower is better, or higher with ``higher_is_better``) is
  judged on the paired differences ``A - B`` over the same replicates (paired by their
  ``replicate`` index, never by position: :func:`paired_claim`): their mean and
  Student-t 95 % confidence interval. ``qualitative`` (the claim holds) when the interval
  lies entirely on the claimed side of zero; ``differs`` otherwise, saying whether the
  interval contains zero (our runs cannot tell) or lies on the other side (the claim is
  reversed). Never two separate intervals. A claim at paper scale rests on at least
  :data:`CLAIM_REPLICATES` paired replicates; a claim row on fewer names the reason,
  the measured cost that prevents more (:func:`with_replicates`).
* **A deterministic trace** (``deterministic=True``: every replicate runs the same log
  on the same system, differing only by the ``1 +- 1e-4`` runtime scale, e.g. Huang's
  tables and Shih's A1/A2 at SH 0) has no sampling error: the spread of its runs is the
  schedule's sensitivity to a 10^-4 change of the runtimes. The verdict follows the same
  rule, but a differing row gives the distance in the quantity's own units and as a
  share of its kind's tolerance, never in standard deviations (its ``sigmas`` is NaN).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..bounds import MAX_REPLICATES
from ..errors import InvalidParameter, InvalidType, check_array, check_bool, check_int, check_real
from ..stats import t_interval
from .verdicts import TOLERANCES, join_reasons, row

__all__ = [
    "RESAMPLES",
    "RUNTIME_JITTER",
    "Ensemble",
    "summarize",
    "mean_of_k",
    "runtime_scale",
    "ensemble_value",
    "statistic_of_k",
    "ensemble_statistic",
    "paired_claim",
    "CLAIM_REPLICATES",
    "with_replicates",
]

RESAMPLES = 20_000
"""Means of ``k`` replicates drawn to estimate the distribution of our mean of ``k``."""

RESAMPLE_SEED = 20240
"""Seed of the resampling: the same replicates always give the same range."""

RUNTIME_JITTER = 1e-4
"""Half-width of the common runtime scale of a trace-driven replicate."""


CLAIM_REPLICATES = 10
"""Fewest paired replicates a paper-scale claim rests on (issue 50); a claim row on
fewer says why (:func:`with_replicates`)."""


MAX_K = 1000
"""Largest ``k`` (runs per printed mean): the resampling holds ``RESAMPLES x k`` indices."""


def _k(k) -> int:
    return check_int("k", k, minimum=1, maximum=MAX_K)


def _confidence(confidence) -> float:
    confidence = check_real("confidence", confidence)
    if not 0 < confidence < 1:
        raise InvalidParameter(f"confidence must lie in (0, 1), got {confidence!r}")
    return confidence


def _values(values, name: str = "values") -> np.ndarray:
    """A non-empty 1-D series of finite numbers: list, tuple, array, Series or generator
    (read once) of ints or floats; bools and strings are refused."""
    x = check_array(name, values, finite=False)
    if x.ndim != 1 or x.size == 0:
        raise InvalidParameter(f"{name} must be a non-empty 1-D series, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        bad = int(np.argmax(~np.isfinite(x)))
        raise InvalidParameter(f"{name}[{bad}] = {x[bad]!r}: every replicate must be finite")
    return x


@dataclass(frozen=True)
class Ensemble:
    """Summary of one item's replicates: mean, Student-t 95 % half-width of the mean,
    sample standard deviation, the single-run range and the number of replicates."""

    mean: float
    ci: float
    sd: float
    low: float
    high: float
    n: int

    def text(self, digits: int = 4) -> str:
        """``mean +- ci (runs low-high, n runs)``, numbers to ``digits`` significant
        digits."""
        f = f"{{:.{digits}g}}"
        ci = "" if math.isnan(self.ci) else f" +- {f.format(self.ci)}"
        return (
            f"{f.format(self.mean)}{ci} (runs {f.format(self.low)} to "
            f"{f.format(self.high)}, {self.n} runs)"
        )


def summarize(values) -> Ensemble:
    """The :class:`Ensemble` of a series of replicates (NaN half-width and standard
    deviation for a single replicate). ``values``: a non-empty 1-D series of finite
    numbers (list, tuple, array, Series, generator; not bools or strings)."""
    x = _values(values)
    mean, half = t_interval(x)
    sd = float(x.std(ddof=1)) if x.size > 1 else float("nan")
    return Ensemble(mean, half, sd, float(x.min()), float(x.max()), int(x.size))


def mean_of_k(values, k: int = 1, *, confidence: float = 0.95) -> tuple[float, float]:
    """Central ``confidence`` range of our mean of ``k`` runs, resampled from the
    replicates ``values`` (with replacement, :data:`RESAMPLES` draws, fixed seed).
    ``values``: a non-empty 1-D series of finite numbers (list, tuple, array, Series,
    generator; not bools); ``k`` a whole number in [1, 1000]; ``confidence`` in (0, 1)."""
    x = _values(values)
    k = _k(k)
    confidence = _confidence(confidence)
    rng = np.random.default_rng(RESAMPLE_SEED)
    means = x[rng.integers(0, x.size, size=(RESAMPLES, k))].mean(axis=1)
    tail = 50 * (1 - confidence)
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return float(lo), float(hi)


def runtime_scale(replicate: int) -> float:
    """The common runtime scale of trace-driven replicate ``replicate``: 1 for replicate
    0 (the log as it is), else ``1 + RUNTIME_JITTER x u`` with ``u`` uniform on
    ``[-1, 1)`` from ``default_rng(replicate)``. Every job's runtime (and estimate) is
    multiplied by it: the workload keeps its shape, and the schedule shows how much
    one run moves under a perturbation far below the log's one-second resolution.
    ``replicate`` is a whole number in [0, 10**6 - 1]
    (:data:`hpcmodels.bounds.MAX_REPLICATES`)."""
    replicate = check_int("replicate", replicate, minimum=0, maximum=MAX_REPLICATES - 1)
    if replicate == 0:
        return 1.0
    u = np.random.default_rng(replicate).uniform(-1.0, 1.0)
    return float(1.0 + RUNTIME_JITTER * u)


def _table(table, name: str = "table") -> np.ndarray:
    t = check_array(name, table, finite=False)
    if t.ndim != 2 or t.shape[0] == 0 or t.shape[1] == 0:
        raise InvalidParameter(
            f"{name} must be a non-empty 2-D table (replicates x columns), got shape {t.shape}"
        )
    if not np.all(np.isfinite(t)):
        bad = int(np.argmax(~np.all(np.isfinite(t), axis=1)))
        raise InvalidParameter(f"{name} row {bad} is not finite: every replicate must be finite")
    return t


def statistic_of_k(
    table, statistic: Callable[[np.ndarray], np.ndarray], k: int = 1, *, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Central ``confidence`` range and standard deviation of ``statistic`` of our mean
    of ``k`` runs, for a value the paper computes from *several* means (an improvement
    of one method's mean over the best of others'): ``table`` holds one row per
    replicate and one column per series, the same replicate in every column (paired);
    ``statistic`` maps an ``(n, columns)`` array of column means to ``n`` values. The
    resampling is :func:`mean_of_k`'s: :data:`RESAMPLES` sets of ``k`` rows drawn with
    replacement from :data:`RESAMPLE_SEED`, whole rows, so the pairing is kept.
    ``table``: a 2-D array, nested list or DataFrame of finite numbers; ``statistic`` a
    callable (else :class:`~hpcmodels.errors.InvalidType`); ``k`` and ``confidence`` as
    in :func:`mean_of_k`."""
    t = _table(table)
    return _statistic_of_k(t, _callable(statistic), _k(k), _confidence(confidence))


def _callable(statistic):
    if not callable(statistic):
        raise InvalidType(f"statistic must be a function of the column means, got {statistic!r}")
    return statistic


def _stat(statistic, means: np.ndarray) -> np.ndarray:
    try:
        return np.asarray(statistic(means), float)
    except (TypeError, ValueError):
        raise InvalidParameter(
            "statistic must map each row of column means to one finite "
            "value (it returned something that is not numbers)"
        ) from None


def _statistic_of_k(
    t: np.ndarray, statistic, k: int, confidence: float = 0.95
) -> tuple[float, float, float]:
    rng = np.random.default_rng(RESAMPLE_SEED)
    means = t[rng.integers(0, t.shape[0], size=(RESAMPLES, k))].mean(axis=1)
    stats = _stat(statistic, means)
    if stats.shape != (RESAMPLES,) or not np.all(np.isfinite(stats)):
        raise InvalidParameter("statistic must map each row of column means to one finite value")
    tail = 50 * (1 - confidence)
    lo, hi = np.percentile(stats, [tail, 100 - tail])
    return float(lo), float(hi), float(stats.std(ddof=1))


def _verdict(
    item: str,
    quantity: str,
    kind: str,
    p: float,
    s: Ensemble,
    lo: float,
    hi: float,
    sd_k: float,
    k: int,
    other_input: str,
    note: str,
    cause: str,
    deterministic: bool = False,
) -> dict:
    """The module's rule on one printed value ``p`` against our ensemble ``s`` and the
    95 % range ``[lo, hi]`` (standard deviation ``sd_k``) of our value from ``k`` runs;
    ``deterministic``: a trace whose runs differ only by the runtime scale (module
    docstring)."""

    tol = TOLERANCES[kind].of(p)
    sigmas = (p - s.mean) / sd_k if sd_k > 0 else (0.0 if p == s.mean else math.inf)
    runs = "one run" if k == 1 else f"the mean of {k} runs"
    where = f"ours {s.text()}; 95 % range of {runs}: {lo:.4g} to {hi:.4g}"
    if deterministic:
        sigmas = float("nan")
        where = join_reasons(
            where,
            "a deterministic trace: the runs' spread is the schedule's sensitivity to a "
            "1e-4 change of the runtimes, not sampling error",
        )
    context = join_reasons(f"input: {other_input}" if other_input else "", note)
    if lo <= p <= hi:
        verdict, reason = (
            "within tolerance",
            join_reasons(f"the paper's value lies in our 95 % range of {runs}", where, context),
        )
    elif abs(p - s.mean) <= tol * (1 + 1e-12):
        verdict, reason = (
            "within tolerance",
            join_reasons(f"|paper - our mean| <= {tol:.3g} ({kind} tolerance)", where, context),
        )
    else:
        away = (
            f"the paper's value lies {abs(sigmas):.1f} standard deviations of {runs} from our mean"
        )
        if deterministic:
            share = abs(p - s.mean) / tol if tol > 0 else math.inf
            away = (
                f"our mean lies {s.mean - p:+.4g} from the paper's value (in the quantity's "
                f"units), {share:.3g} times the {kind} tolerance ({tol:.3g})"
            )
        verdict, reason = (
            "differs",
            join_reasons(away, cause or "cause not identified", where, context),
        )
    return row(
        item,
        quantity,
        kind,
        p,
        s.mean,
        s.mean - p,
        verdict,
        reason,
        mean=s.mean,
        ci=s.ci,
        low=s.low,
        high=s.high,
        replicates=s.n,
        range_k=f"{lo:.4g} to {hi:.4g}",
        sigmas=sigmas,
    )


def _printed(paper, kind: str) -> float:

    if not isinstance(kind, str) or kind not in TOLERANCES:
        raise InvalidParameter(f"unknown kind {kind!r}; choose one of {list(TOLERANCES)}")
    if isinstance(paper, bool):
        raise InvalidParameter(f"paper must be a number, got {paper!r}")
    try:
        p = float(paper)  # a printed string, or a number (a NumPy scalar too)
    except (TypeError, ValueError):
        raise InvalidParameter(f"paper must be a number, got {paper!r}") from None
    if not math.isfinite(p):
        raise InvalidParameter(f"paper must be finite, got {paper!r}")
    return p


def ensemble_value(
    item: str,
    quantity: str,
    paper,
    values,
    *,
    kind: str,
    k: int = 1,
    other_input: str = "",
    note: str = "",
    cause: str = "",
    deterministic: bool = False,
) -> dict:
    """A printed value (the mean of ``k`` runs of the paper) against our replicates, by
    the module's rule (``deterministic``: module docstring). Returns a report row (:func:`hpcmodels.papers.verdicts.compare_value`'s
    columns) plus ``mean``, ``ci``, ``low``, ``high``, ``replicates``, ``range_k`` (our
    95 % range of the mean of ``k``) and ``sigmas`` (how many standard deviations of our
    mean of ``k`` runs the printed value lies from our mean)."""
    p = _printed(paper, kind)
    values = _values(values)  # a generator is read once, here
    s = summarize(values)
    k = _k(k)
    lo, hi = mean_of_k(values, k)
    sd_k = s.sd / math.sqrt(k) if s.n > 1 else float("nan")
    deterministic = check_bool("deterministic", deterministic)
    return _verdict(
        item, quantity, kind, p, s, lo, hi, sd_k, k, other_input, note, cause, deterministic
    )


def ensemble_statistic(
    item: str,
    quantity: str,
    paper,
    table,
    statistic: Callable[[np.ndarray], np.ndarray],
    *,
    kind: str,
    k: int = 1,
    other_input: str = "",
    note: str = "",
    cause: str = "",
    deterministic: bool = False,
) -> dict:
    """A printed value that the paper computes from the means of ``k`` runs of several
    series (``statistic`` of the column means, see :func:`statistic_of_k`) against ours,
    by the module's rule: our value is ``statistic`` of the means over all replicates,
    its ``ci`` the half-width of the bootstrap 95 % range of that estimate, ``low`` and
    ``high`` the range of ``statistic`` over single replicates; the verdict compares the
    printed value with the 95 % range of ``statistic`` of our mean of ``k`` runs, and
    ``sigmas`` counts that distribution's standard deviations. Same row as
    :func:`ensemble_value`."""
    p = _printed(paper, kind)
    t = _table(table)
    k = _k(k)
    statistic = _callable(statistic)
    ours = float(_stat(statistic, t.mean(axis=0)[None, :]).reshape(-1)[0])
    singles = _stat(statistic, t)
    lo_all, hi_all, _ = _statistic_of_k(t, statistic, t.shape[0])
    n = t.shape[0]
    s = Ensemble(
        ours,
        (hi_all - lo_all) / 2 if n > 1 else float("nan"),
        float("nan"),
        float(singles.min()),
        float(singles.max()),
        n,
    )
    lo, hi, sd_k = _statistic_of_k(t, statistic, k)
    deterministic = check_bool("deterministic", deterministic)
    return _verdict(
        item, quantity, kind, p, s, lo, hi, sd_k, k, other_input, note, cause, deterministic
    )


def paired_claim(
    item: str,
    claim: str,
    a,
    b,
    *,
    a_name: str = "A",
    b_name: str = "B",
    higher_is_better: bool = False,
    note: str = "",
) -> dict:
    """A claim that A beats B, judged on the paired differences ``a - b`` (the same
    replicates) and their Student-t 95 % interval (module rule).

    Pairing: two Series indexed by ``replicate`` (:func:`hpcmodels.papers.store.runs`)
    pair by that index, an inner join: a replicate only one side holds is left out, and
    the row's reason says how many and which (``replicates`` counts the pairs). Plain
    sequences (lists, arrays, other Series) pair element by element and must have the
    same length: the caller vouches that position i is the same replicate on both sides
    (:func:`hpcmodels.papers.store.values` refuses an item with a gap for that reason).
    One side indexed by replicate and the other not is an error."""

    higher_is_better = check_bool("higher_is_better", higher_is_better)
    a, b, unpaired = _paired(a, b, a_name, b_name)
    x, y = _values(a, "a"), _values(b, "b")
    if x.size != y.size:
        raise InvalidParameter(
            f"a and b must pair replicate by replicate, got {x.size} and {y.size}"
        )
    note = join_reasons(note, unpaired)
    if x.size < 2:
        raise InvalidParameter("a paired claim needs at least 2 replicates")
    d = x - y
    mean, half = t_interval(d)
    lo, hi = mean - half, mean + half
    better = (lambda v: v > 0) if higher_is_better else (lambda v: v < 0)
    wins = int(np.sum(better(d)))
    ours = (
        f"{a_name} - {b_name} = {mean:+.4g} +- {half:.3g} (95 % CI, {d.size} paired runs; "
        f"{a_name} better in {wins} of {d.size})"
    )
    if better(hi) and better(lo):
        verdict, reason = "qualitative", note
    elif lo <= 0 <= hi:
        verdict, reason = (
            "differs",
            join_reasons(
                f"the paired 95 % CI contains 0: our runs cannot tell {a_name} from {b_name}", note
            ),
        )
    else:
        verdict, reason = (
            "differs",
            join_reasons(f"reversed: {b_name} beats {a_name} on the paired runs", note),
        )
    return row(
        item,
        claim,
        "claim",
        claim,
        ours,
        mean,
        verdict,
        reason,
        mean=mean,
        ci=half,
        low=float(d.min()),
        high=float(d.max()),
        replicates=int(d.size),
        range_k="",
        sigmas=float("nan"),
    )


def _by_replicate(values) -> bool:
    return isinstance(values, pd.Series) and values.index.name == "replicate"


def _paired(a, b, a_name: str, b_name: str):
    """``a`` and ``b`` joined on their ``replicate`` index when both are so indexed (with
    a sentence on the replicates left out, empty when none); else as given."""
    if not (_by_replicate(a) or _by_replicate(b)):
        return a, b, ""
    if not (_by_replicate(a) and _by_replicate(b)):
        raise InvalidParameter(
            "a and b must both be Series indexed by replicate (store.runs), paired by "
            "that index, or both plain sequences paired element by element; got one of each"
        )
    for name, side in (("a", a), ("b", b)):
        twice = side.index[side.index.duplicated()].tolist()
        if len(twice):
            raise InvalidParameter(f"{name} holds replicate {twice[0]!r} more than once")
    common = a.index.intersection(b.index).sort_values()
    if common.empty:
        raise InvalidParameter("a and b share no replicate: nothing to pair")
    only = [(n, sorted(s.index.difference(common).tolist())) for n, s in ((a_name, a), (b_name, b))]
    left_out = sum(len(v) for _, v in only)
    text = ""
    if left_out:
        sides = "; ".join(f"{n} only: {v[:10]}" for n, v in only if v)
        text = f"{left_out} replicate(s) without a partner left out ({sides})"
    return a.loc[common], b.loc[common], text


def with_replicates(row: dict, replicates: int, why: str = "") -> dict:
    """A claim ``row`` (:func:`paired_claim`, :func:`hpcmodels.papers.verdicts.compare_claim`)
    with the number of paired ``replicates`` it rests on; on fewer than
    :data:`CLAIM_REPLICATES`, ``why`` (what prevents more: a measured cost) joins its
    reason as "on n replicates, fewer than 10: why". Fewer without a ``why`` is an
    error: a claim never rests on few runs silently. ``replicates`` is a whole number in
    [1, 10**6] (:data:`hpcmodels.bounds.MAX_REPLICATES`)."""
    if not isinstance(row, dict) or row.get("kind") != "claim":
        raise InvalidType(f"row must be a claim row (a dict with kind 'claim'), got {row!r:.80}")
    n = check_int("replicates", replicates, minimum=1, maximum=MAX_REPLICATES)
    if not isinstance(why, str):
        raise InvalidType(f"why must be a string, got {type(why).__name__}")
    out = dict(row, replicates=n)
    if n < CLAIM_REPLICATES:
        if not why.strip():
            raise InvalidParameter(
                f"replicates: {n} is fewer than {CLAIM_REPLICATES}; say why (the cost that "
                "prevents more) in why"
            )
        out["reason"] = join_reasons(
            str(row.get("reason") or ""), f"on {n} replicates, fewer than {CLAIM_REPLICATES}: {why}"
        )
    return out
