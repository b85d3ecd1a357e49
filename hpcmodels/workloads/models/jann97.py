"""Jann et al. 1997 workload model of the CTC SP2 — hyper-Erlang machinery and fit.

What the model is (spec ``shared/models/jann97.md``)
---------------------------------------------------
J. Jann, P. Pattnaik, H. Franke, F. Wang, J. Skovira and J. Riordan, "Modeling of
workload in MPPs", JSSPP 1997, Springer LNCS 1291, pp. 95-116. The workload of a
322-node partition of the Cornell Theory Center IBM SP2 (25 June - 12 September 1996,
17,440 jobs) is split into ten job-size ranges (1, 2, 3-4, 5-8, ..., 129-256, 257-322,
spec §3). For every range, the inter-arrival times and the service times (runtimes)
are each modelled by a **hyper-Erlang distribution of common order** — two branches
chosen with probabilities p and 1 - p, each a sum of n exponential stages of rate λ1
or λ2 (spec §2) — fitted by matching the first three moments (spec §5).

Status: STRUCTURE VERIFIED, PARAMETERS NOT AVAILABLE
----------------------------------------------------
The structure is verified [V]; the 80 published numbers are not available to this
project, and neither is the CTC SP2 log offline. This module therefore

* implements the hyper-Erlang distribution (:class:`HyperErlang`) and the paper's
  three-moment fit (:func:`fit_hyper_erlang`, spec §5 step 4-5) as reusable code;
* re-derives the parameters from a log by the paper's method (:func:`fit_jann97`,
  spec §5) — results are a *reconstruction*, labelled as such in
  :attr:`Jann97Params.source`, never the published values;
* refuses to generate without parameters (:class:`Jann97ParametersMissing`): it invents
  no numbers and substitutes no other model. Fit them from the CTC SP2 1996 log,
  catalogue name "CTC-SP2-1996-3.1-cln" (archive file ``CTC-SP2-1996-3.1-cln.swf.gz``)::

      from hpcmodels.workloads.archive import load_archive_log
      params = fit_jann97(load_archive_log("CTC-SP2-1996-3.1-cln"))
      df = jann97(params=params)

Choices (spec section, tag)
---------------------------
* §2 [V] sampling: branch by one uniform (branch 1 if U < p), then
  ``Gamma(shape=n, scale=1/λ)``.
* §3 [R] generator: each range is an independent renewal stream starting at time 0
  (first job after one gap, [P]); the workload is their time-ordered merge; ties are
  broken by range index [P]. Range probabilities follow from the rates:
  ``π_r = (1/mean gap_r) / Σ_s (1/mean gap_s)``.
* §3 [P] size within a range: uniform over its integers (``within_range="uniform"``),
  or its upper end (``within_range="upper"``).
* §5 [P] fit: smallest order n = 1 ... 30 with a valid two-point solution; if none,
  the two-moment Erlang fallback (order ``max(1, round(m1²/var))``, rate ``n/m1``),
  reported in :attr:`Jann97Params.notes`. Branch 1 is always the branch with the larger
  stage mean (λ1 <= λ2). A degenerate solution (μ2 = μ1², a point mass) is accepted
  as the pure Erlang of that order.
* §5 [P] ranges with fewer than ``min_jobs`` (default 3) jobs in the log, or whose fit
  fails, get no stream (``None``); this is reported in the notes.
* §6 [P] runtimes rounded to whole seconds, at least 1 s; submit times are float
  seconds; ``req_procs = procs`` (the project's convention for synthetic models; the PWA
  programs leave field 8 at -1); ``status = 1``; no dependencies (fields 17/18 unknown).
* §7 machine size: default 322. For a smaller machine, ranges above it are dropped and
  a range that straddles it is truncated (its rate kept) — both reported in
  ``df.attrs["parameters"]["machine_notes"]``. No rescaling of runtimes or rates.
* Randomness: ``numpy.random.default_rng(seed)`` spawns one child generator per range
  (``Generator.spawn``); each child draws fixed-size chunks (gaps, runtimes, size
  uniforms). The output therefore does not depend on how many chunks were needed, and
  ``jann97(m)`` equals the first m jobs of ``jann97(n)`` for n > m.

The sanity statistics of the spec's §8 derived from Shih et al. 2013, Table 3 (mean
gap about 390-400 s, offered load about 0.65) are NOT a check of this model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, timedelta, timezone
from numbers import Integral, Real
from typing import NamedTuple
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
from scipy.special import gammaln

from hpcmodels.bounds import MAX_JOBS, MAX_PROCS, MAX_SEED, check_draws
from hpcmodels.errors import (
    HpcmodelsError,
    InvalidParameter,
    check_array,
    check_bool,
    check_int,
)
from hpcmodels.workloads.swf import swf_frame

__all__ = [
    "CTC_LOG",
    "CTC_ARCHIVE_FILE",
    "CTC_PERIOD",
    "CTC_RANGES",
    "PAPER_JOB_COUNT",
    "HyperErlang",
    "Jann97Params",
    "Jann97ParametersMissing",
    "RawMoments",
    "fit_hyper_erlang",
    "fit_jann97",
    "jann97",
    "raw_moments",
]

# catalogue name (hpcmodels.workloads.archive.CATALOGUE) of the log the model was fitted
# to; the catalogue names a log by its PWA file name without .swf.gz
CTC_LOG = "CTC-SP2-1996-3.1-cln"
CTC_ARCHIVE_FILE = CTC_LOG  # PWA file (without .swf.gz)
CTC_PERIOD = ("1996-06-25", "1996-09-12")  # [V] §1, both days included
PAPER_JOB_COUNT = 17_440  # [V] §1
CTC_RANGES: tuple[tuple[int, int], ...] = (
    (1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 32), (33, 64), (65, 128), (129, 256),
    (257, 322),
)  # fmt: skip  # [V] §3
MAX_ORDER = 30  # [P] §5 step 4: cap of the order search
ORDER_LIMIT = 10**4
"""Largest ``max_order`` of the order search, which tries each order in turn: a
hyper-Erlang of order n has CV² >= 1/n, so orders beyond 10**4 would only fit moments of
CV² below 10**-4 (a practically constant time; the two-moment Erlang fallback takes
those)."""
MAX_STAGES = 2**53
"""Largest order of a :class:`HyperErlang` (and an explicit ``order``): the gamma draw
takes the order as a float64, exact up to 2**53. The two-moment Erlang fallback of a
nearly constant time has a large order (1 / CV², e.g. 10**5 for gaps of 120 s +- 1 s)."""
_CHUNK = 4096  # draws per range per chunk (generation)
_DEGENERATE = 1e-9  # relative size of μ2 - μ1² below which the two points coincide


# --------------------------------------------------------------------------------------
# §2 The hyper-Erlang distribution of common order
# --------------------------------------------------------------------------------------
class RawMoments(NamedTuple):
    """First three raw moments E[X], E[X²], E[X³]."""

    m1: float
    m2: float
    m3: float


def raw_moments(samples: Sequence[float] | np.ndarray) -> RawMoments:
    """Sample raw moments (means of x, x², x³) of non-negative finite samples (a list,
    tuple, array, Series or generator of numbers; bools and strings are refused, and so
    are samples whose third moment overflows float64)."""
    x = check_array("samples", samples, finite=False)
    if x.ndim != 1 or x.size < 2:
        raise InvalidParameter(
            f"samples must be a 1-D sequence of at least 2 values, got {x.shape}"
        )
    if not np.all(np.isfinite(x)) or np.any(x < 0):
        raise InvalidParameter("samples must be finite and >= 0")
    with np.errstate(over="ignore"):
        moments = RawMoments(float(np.mean(x)), float(np.mean(x * x)), float(np.mean(x**3)))
    if not all(np.isfinite(moments)):
        raise InvalidParameter("samples are too large: their third moment overflows float64")
    return moments


def _rising(order: int, k: int) -> float:
    """n (n + 1) ... (n + k - 1)."""
    return float(math.prod(range(order, order + k)))


@dataclass(frozen=True)
class HyperErlang:
    """Hyper-Erlang distribution of common order (spec §2).

    With probability ``p`` the value is the sum of ``order`` exponential stages of rate
    ``rate1``, otherwise of ``order`` stages of rate ``rate2`` (rates per second).
    ``order`` is an integer in [1, 2**53] (:data:`MAX_STAGES`).
    """

    p: float
    rate1: float
    rate2: float
    order: int

    def __post_init__(self) -> None:
        if isinstance(self.p, bool) or not isinstance(self.p, Real) or not 0 <= self.p <= 1:
            raise InvalidParameter(f"p must be a probability in [0, 1], got {self.p!r}")
        for name in ("rate1", "rate2"):
            value = getattr(self, name)
            if not isinstance(value, Real) or not (math.isfinite(value) and value > 0):
                raise InvalidParameter(f"{name} must be a finite rate > 0, got {value!r}")
        if isinstance(self.order, bool) or not isinstance(self.order, Integral) or self.order < 1:
            raise InvalidParameter(f"order must be an integer >= 1, got {self.order!r}")
        if self.order > MAX_STAGES:
            raise InvalidParameter(f"order must be <= 2**53, got {self.order!r}")
        object.__setattr__(self, "p", float(self.p))
        object.__setattr__(self, "rate1", float(self.rate1))
        object.__setattr__(self, "rate2", float(self.rate2))
        object.__setattr__(self, "order", int(self.order))

    def raw_moment(self, k: int) -> float:
        """E[X^k] = n (n+1) ... (n+k-1) (p/λ1^k + (1-p)/λ2^k) (spec §2). ``k`` is a whole
        number in [0, 1000]: the product has ``k`` factors, and beyond k = 1000 a rate
        outside [1/2, 2] overflows float64 in ``λ^k`` anyway."""
        k = check_int("k", k, minimum=0, maximum=1000)
        mix = self.p / self.rate1**k + (1 - self.p) / self.rate2**k
        return _rising(self.order, k) * mix

    def moments(self) -> RawMoments:
        """The first three raw moments (spec §2)."""
        return RawMoments(self.raw_moment(1), self.raw_moment(2), self.raw_moment(3))

    def mean(self) -> float:
        """n (p/λ1 + (1 - p)/λ2)."""
        return self.raw_moment(1)

    def variance(self) -> float:
        return self.raw_moment(2) - self.raw_moment(1) ** 2

    def cv(self) -> float:
        """Coefficient of variation (>= 1/sqrt(order))."""
        return math.sqrt(self.variance()) / self.mean()

    def pdf(self, t: np.ndarray) -> np.ndarray:
        """Density f(t) (spec §2), t >= 0."""
        t = np.asarray(t, dtype=float)
        n = self.order
        with np.errstate(divide="ignore"):
            log_t = np.log(t)

        def branch(rate: float) -> np.ndarray:
            log_f = n * math.log(rate) + (n - 1) * log_t - rate * t - gammaln(n)
            return np.where(t < 0, 0.0, np.exp(np.where(t < 0, 0.0, log_f)))

        return self.p * branch(self.rate1) + (1 - self.p) * branch(self.rate2)

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` draws: a branch uniform each, then Gamma(order, 1/rate) (spec §2).
        ``rng`` is a Generator, ``size`` a whole number in [0, 10**8]
        (:data:`hpcmodels.bounds.MAX_JOBS`)."""
        size = check_draws(rng, size, "size")
        first = rng.random(size) < self.p
        scale = np.where(first, 1.0 / self.rate1, 1.0 / self.rate2)
        return rng.gamma(self.order, scale)


# --------------------------------------------------------------------------------------
# §5 step 4-5 Moment matching
# --------------------------------------------------------------------------------------
def _check_moments(moments: Sequence[float]) -> RawMoments:
    if len(moments) != 3:
        raise InvalidParameter(f"moments must be (m1, m2, m3), got {len(moments)} values")
    m1, m2, m3 = (float(m) for m in moments)
    if not all(math.isfinite(m) for m in (m1, m2, m3)):
        raise InvalidParameter(f"moments must be finite, got {(m1, m2, m3)}")
    if m1 <= 0:
        raise InvalidParameter(f"the mean m1 must be > 0, got m1 = {m1}")
    if m2 <= m1 * m1:
        raise InvalidParameter(
            f"impossible moments: variance m2 - m1² = {m2 - m1 * m1:.6g} <= 0 "
            f"(m1 = {m1}, m2 = {m2}); a hyper-Erlang needs a positive variance"
        )
    if m3 <= 0:
        raise InvalidParameter(f"the third moment m3 must be > 0, got m3 = {m3}")
    return RawMoments(m1, m2, m3)


def _two_point(m: RawMoments, order: int) -> tuple[HyperErlang | None, str]:
    """Solve the spec §5 step 4 system at one order; (fit, "") or (None, reason)."""
    mu1 = m.m1 / order
    mu2 = m.m2 / (order * (order + 1))
    mu3 = m.m3 / (order * (order + 1) * (order + 2))
    d = mu2 - mu1 * mu1
    cv2 = m.m2 / m.m1**2 - 1
    if abs(d) <= _DEGENERATE * mu2:  # a single point: the pure Erlang of this order
        if abs(mu3 - mu1**3) <= 1e-6 * mu3:
            return HyperErlang(1.0, 1 / mu1, 1 / mu1, order), ""
        return None, f"degenerate (Erlang) variance but inconsistent third moment at n={order}"
    if d < 0:
        return None, f"CV² = {cv2:.6g} is below the minimum 1/n = {1 / order:.6g} of order {order}"
    s = (mu3 - mu1 * mu2) / d
    t = (mu1 * mu3 - mu2 * mu2) / d
    disc = s * s - 4 * t
    if t <= 0 or s <= 0:
        return None, f"no two positive stage means at n={order} (s={s:.6g}, t={t:.6g})"
    if disc < 0:
        if disc < -1e-12 * s * s:
            return None, f"complex stage means at n={order} (s² - 4t = {disc:.6g})"
        disc = 0.0
    a1, a2 = (s + math.sqrt(disc)) / 2, (s - math.sqrt(disc)) / 2
    if a1 - a2 <= 1e-12 * a1:
        return HyperErlang(1.0, 1 / a1, 1 / a1, order), ""
    p = (mu1 - a2) / (a1 - a2)
    if not -1e-12 <= p <= 1 + 1e-12:
        return None, f"branch probability p = {p:.6g} outside [0, 1] at n={order}"
    return HyperErlang(min(max(p, 0.0), 1.0), 1 / a1, 1 / a2, order), ""


def _erlang_fallback(m: RawMoments) -> HyperErlang:
    """Spec §5 step 5: pure Erlang matching two moments."""
    order = max(1, round(m.m1**2 / (m.m2 - m.m1**2)))
    rate = order / m.m1
    return HyperErlang(1.0, rate, rate, order)


def _fit(
    data, order: int | None, max_order: int, fallback: bool
) -> tuple[HyperErlang, str, RawMoments]:
    """Fit and say how: ("three moments", fit) or ("Erlang fallback (two moments)", fit)."""
    m = _check_moments(data) if isinstance(data, tuple) else _check_moments(raw_moments(data))
    if order is not None:
        if isinstance(order, bool) or not isinstance(order, Integral) or order < 1:
            raise InvalidParameter(f"order must be an integer >= 1 or None, got {order!r}")
        if order > MAX_STAGES:
            raise InvalidParameter(f"order must be <= 2**53, got {order!r}")
        fit, reason = _two_point(m, int(order))
        if fit is None:
            raise InvalidParameter(
                f"no hyper-Erlang of order {order} matches the moments {m}: {reason}"
            )
        return fit, "three moments", m
    if isinstance(max_order, bool) or not isinstance(max_order, Integral) or max_order < 1:
        raise InvalidParameter(f"max_order must be an integer >= 1, got {max_order!r}")
    if max_order > ORDER_LIMIT:
        raise InvalidParameter(f"max_order must be <= {ORDER_LIMIT}, got {max_order!r}")
    reasons = []
    for n in range(1, int(max_order) + 1):
        fit, reason = _two_point(m, n)
        if fit is not None:
            return fit, "three moments", m
        reasons.append(reason)
    if fallback:
        return _erlang_fallback(m), "Erlang fallback (two moments, spec §5 step 5)", m
    raise InvalidParameter(
        f"no hyper-Erlang of order 1 ... {max_order} matches the three moments {m} "
        f"(order 1: {reasons[0]}; order {max_order}: {reasons[-1]}); "
        "pass fallback=True for the two-moment Erlang of spec §5 step 5"
    )


def fit_hyper_erlang(
    samples_or_moments: Sequence[float] | np.ndarray | RawMoments | tuple[float, float, float],
    *,
    order: int | None = None,
    max_order: int = MAX_ORDER,
    fallback: bool = False,
) -> HyperErlang:
    """Match the first three moments with a hyper-Erlang of common order (spec §5 step 4).

    ``samples_or_moments``: a **tuple** ``(m1, m2, m3)`` — e.g. a :class:`RawMoments`,
    or ``HyperErlang.moments()`` — is taken as raw moments; anything else (NumPy array,
    list, Series) as samples, whose raw moments are used.

    ``order=None`` takes the smallest order n in 1 ... ``max_order`` with a valid
    solution (the paper's choice, [R]); an explicit ``order`` fits at that order only.
    Branch 1 has the larger stage mean (``rate1 <= rate2``).

    Raises ``ValueError`` for impossible moments (non-positive mean or variance), for an
    explicit order the moments do not allow (e.g. CV² below 1/n), and when no order up
    to ``max_order`` works — unless ``fallback=True``, which then returns the two-moment
    pure Erlang of spec §5 step 5 (it matches m1 and approximately m2 only).
    ``fallback`` is a bool (``"no"``, 0 or None is an
    :class:`~hpcmodels.errors.InvalidType` naming it).

    ``order`` is None or an integer in [1, 2**53] (:data:`MAX_STAGES`), ``max_order`` one
    in [1, 10**4] (:data:`ORDER_LIMIT`: the search tries each order in turn).
    """
    fallback = check_bool("fallback", fallback)
    return _fit(samples_or_moments, order, max_order, fallback)[0]


# --------------------------------------------------------------------------------------
# §3 The model's parameters
# --------------------------------------------------------------------------------------
class Jann97ParametersMissing(HpcmodelsError):
    """Raised by :func:`jann97` without parameters (the published tables are missing).
    An :class:`~hpcmodels.errors.HpcmodelsError`, hence also a ``ValueError``."""


_MISSING_MESSAGE = (
    "jann97() needs fitted parameters: the published Jann et al. 1997 hyper-Erlang tables "
    "are not available to this project, and no parameters are invented. They must be "
    f"fitted from the CTC SP2 1996 log (catalogue name {CTC_LOG!r}, archive file "
    f"{CTC_ARCHIVE_FILE}.swf.gz), which is needed for this. Obtain parameters by moment "
    "matching (spec §5): params = fit_jann97(log), with log = "
    f"hpcmodels.workloads.load_archive_log({CTC_LOG!r}) or "
    "read_swf(<path to the file>); then call jann97(params=params)."
)


def _as_ranges(ranges) -> tuple[tuple[int, int], ...]:
    out = tuple((int(lo), int(hi)) for lo, hi in ranges)
    if not out:
        raise InvalidParameter("ranges must not be empty")
    previous = 0
    for lo, hi in out:
        if not previous < lo <= hi:
            raise InvalidParameter(
                f"ranges must be increasing, disjoint, 1-based (lo <= hi), got {(lo, hi)}"
            )
        previous = hi
    return out


@dataclass(frozen=True, kw_only=True)
class Jann97Params:
    """Per-range hyper-Erlang parameters of the Jann et al. 1997 model (spec §3-§5).

    ``interarrival[r]`` and ``runtime[r]`` describe range ``ranges[r]``; ``None`` in
    both means the range has no jobs (no stream). ``source`` says where the numbers
    come from; ``counts`` and ``notes`` record the fit (see :func:`fit_jann97`).
    """

    interarrival: tuple[HyperErlang | None, ...]
    runtime: tuple[HyperErlang | None, ...]
    ranges: tuple[tuple[int, int], ...] = CTC_RANGES
    machine_size: int = 322
    source: str = "user-supplied parameters"
    counts: tuple[int, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        ranges = _as_ranges(self.ranges)
        object.__setattr__(self, "ranges", ranges)
        object.__setattr__(self, "interarrival", tuple(self.interarrival))
        object.__setattr__(self, "runtime", tuple(self.runtime))
        object.__setattr__(self, "counts", tuple(int(c) for c in self.counts))
        object.__setattr__(self, "notes", tuple(str(n) for n in self.notes))
        for name in ("interarrival", "runtime"):
            values = getattr(self, name)
            if len(values) != len(ranges):
                raise InvalidParameter(f"{name} has {len(values)} entries for {len(ranges)} ranges")
            if any(v is not None and not isinstance(v, HyperErlang) for v in values):
                raise InvalidParameter(f"{name} entries must be HyperErlang or None")
        for r, (a, b) in enumerate(zip(self.interarrival, self.runtime, strict=True)):
            if (a is None) != (b is None):
                raise InvalidParameter(f"range {ranges[r]}: give both distributions or neither")
        if all(a is None for a in self.interarrival):
            raise InvalidParameter("at least one range needs inter-arrival and runtime parameters")
        if self.counts and len(self.counts) != len(ranges):
            raise InvalidParameter(
                f"counts has {len(self.counts)} entries for {len(ranges)} ranges"
            )
        size = self.machine_size
        if isinstance(size, bool) or not isinstance(size, Integral) or size < 1:
            raise InvalidParameter(f"machine_size must be an integer >= 1, got {size!r}")
        if size > MAX_PROCS:
            raise InvalidParameter(f"machine_size must be <= 2**53, got {size!r}")

    @property
    def arrival_rates(self) -> tuple[float, ...]:
        """Jobs per second of every range: 1 / mean gap (0 for a range without stream)."""
        return tuple(0.0 if g is None else 1.0 / g.mean() for g in self.interarrival)

    @property
    def range_probabilities(self) -> tuple[float, ...]:
        """Share of jobs per range, π_r = rate_r / Σ rates (spec §3 [R])."""
        rates = np.array(self.arrival_rates)
        return tuple(float(x) for x in rates / rates.sum())

    def mean_interarrival(self) -> float:
        """Mean gap between consecutive jobs of the merged workload, 1 / Σ rates."""
        return 1.0 / sum(self.arrival_rates)

    def mean_runtimes(self) -> tuple[float, ...]:
        """Mean runtime per range (NaN for a range without stream)."""
        return tuple(math.nan if s is None else s.mean() for s in self.runtime)

    def table(self) -> pd.DataFrame:
        """The parameters as the spec's §4 table (one row per range)."""
        rows = []
        for r, (lo, hi) in enumerate(self.ranges):
            row = {"range": f"{lo}" if lo == hi else f"{lo}-{hi}"}
            for kind, dist in (
                ("interarrival", self.interarrival[r]),
                ("runtime", self.runtime[r]),
            ):
                for key in ("order", "p", "rate1", "rate2"):
                    row[f"{kind}_{key}"] = math.nan if dist is None else getattr(dist, key)
                row[f"{kind}_mean"] = math.nan if dist is None else dist.mean()
            row["probability"] = self.range_probabilities[r]
            if self.counts:
                row["jobs_in_log"] = self.counts[r]
            rows.append(row)
        return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------
# §5 Re-deriving the parameters from a log
# --------------------------------------------------------------------------------------
def _log_timezone(attrs: dict) -> tuple[timezone | ZoneInfo, str]:
    name = attrs.get("TimeZoneString")
    if isinstance(name, str) and name.strip():
        return ZoneInfo(name.strip()), f"time zone {name.strip()}"
    offset = attrs.get("TimeZone")
    if isinstance(offset, int | float):
        return timezone(timedelta(seconds=float(offset))), f"UTC offset {offset} s"
    return UTC, "no time zone in the header: UTC assumed"


def _period_mask(log: pd.DataFrame, period: tuple[str, str]) -> tuple[np.ndarray, str]:
    """Jobs submitted on the days ``period[0]`` ... ``period[1]`` (log's local time)."""
    start_time = log.attrs.get("UnixStartTime")
    if not isinstance(start_time, int | float):
        raise InvalidParameter(
            "the log has no UnixStartTime header, so the period "
            f"{period} cannot be applied; pass period=None to use the whole log"
        )
    tz, tz_note = _log_timezone(log.attrs)
    first, last = (date.fromisoformat(str(d)) for d in period)
    begin = datetime(first.year, first.month, first.day, tzinfo=tz).timestamp()
    end_day = last + timedelta(days=1)
    end = datetime(end_day.year, end_day.month, end_day.day, tzinfo=tz).timestamp()
    absolute = float(start_time) + log["submit"].to_numpy(dtype=float)
    return (absolute >= begin) & (absolute < end), f"period {first} ... {last} ({tz_note})"


def _select_jobs(log: pd.DataFrame, max_procs: int, period) -> tuple[pd.DataFrame, list[str]]:
    """Spec §5 step 1: the period, runtime > 0, 1 <= processors <= max_procs."""
    missing = [c for c in ("submit", "runtime", "procs") if c not in log]
    if missing:
        raise InvalidParameter(f"the log lacks SWF columns {missing}")
    notes = []
    keep = np.ones(len(log), dtype=bool)
    if period is not None:
        in_period, note = _period_mask(log, period)
        keep &= in_period
        notes.append(note)
    submit, runtime, procs = (log[c].to_numpy(dtype=float) for c in ("submit", "runtime", "procs"))
    keep &= np.isfinite(submit) & (runtime > 0) & (procs >= 1) & (procs <= max_procs)
    selected = log.loc[keep, ["submit", "runtime", "procs"]]
    notes.append(
        f"{len(selected)} of {len(log)} jobs kept (runtime > 0, 1 <= procs <= {max_procs})"
    )
    if selected.empty:
        where = f" in the period {period} (pass period=None for the whole log)" if period else ""
        raise InvalidParameter(
            f"no usable jobs{where}: need runtime > 0 and 1 <= procs <= {max_procs}"
        )
    if period is not None and tuple(period) == CTC_PERIOD:
        diff = len(selected) - PAPER_JOB_COUNT
        notes.append(f"the paper reports {PAPER_JOB_COUNT} jobs; difference {diff:+d}")
    return selected, notes


def _fit_range(
    submit: np.ndarray, runtime: np.ndarray, label: str, min_jobs: int, max_order: int
) -> tuple[HyperErlang | None, HyperErlang | None, list[str]]:
    """Spec §5 step 3-5 for one range."""
    if submit.size < min_jobs:
        return None, None, [f"range {label}: {submit.size} jobs < min_jobs={min_jobs}, no stream"]
    gaps = np.diff(np.sort(submit, kind="stable"))
    notes = []
    fits = []
    for kind, data in (("inter-arrival", gaps), ("runtime", runtime)):
        try:
            fit, how, _ = _fit(data, None, max_order, fallback=True)
        except ValueError as err:
            return None, None, [f"range {label}: {kind} cannot be fitted ({err}); no stream"]
        if how != "three moments":
            notes.append(f"range {label}: {kind} uses the {how}")
        fits.append(fit)
    return fits[0], fits[1], notes


def fit_jann97(
    log: pd.DataFrame,
    *,
    ranges: Sequence[tuple[int, int]] = CTC_RANGES,
    max_procs: int = 322,
    period: tuple[str, str] | None = CTC_PERIOD,
    max_order: int = MAX_ORDER,
    min_jobs: int = 3,
) -> Jann97Params:
    """Re-derive the model's parameters from an SWF log by the paper's method (spec §5).

    1. Keep jobs submitted on the days of ``period`` (default the paper's 1996-06-25 ...
       1996-09-12, converted with the log's ``UnixStartTime`` and time-zone header;
       ``period=None`` uses the whole log), with runtime > 0 and
       1 <= allocated processors <= ``max_procs``.
    2. Put each job in its range by allocated processors.
    3. Per range, fit the gaps between consecutive submit times within the range and the
       runtimes by :func:`fit_hyper_erlang` (smallest order <= ``max_order``; the
       two-moment Erlang fallback when no order works — reported in ``notes``).

    The result is a reconstruction and says so in ``source``; ``counts`` holds the jobs
    per range and ``notes`` the job count against the paper's 17,440, fallbacks and
    ranges without a stream.

    ``min_jobs`` is a whole number in [3, 10**8] and ``max_procs`` one in [1, 2**53]
    (:mod:`hpcmodels.bounds`); ``max_order`` as :func:`fit_hyper_erlang` takes it.
    """
    ranges = _as_ranges(ranges)
    min_jobs = check_int("min_jobs", min_jobs, minimum=3, maximum=MAX_JOBS)
    max_procs = check_int("max_procs", max_procs, minimum=1, maximum=MAX_PROCS)
    jobs, notes = _select_jobs(log, int(max_procs), period)
    procs = jobs["procs"].to_numpy()
    inter, run, counts = [], [], []
    for lo, hi in ranges:
        in_range = (procs >= lo) & (procs <= hi)
        label = f"{lo}" if lo == hi else f"{lo}-{hi}"
        submit = jobs["submit"].to_numpy()[in_range]
        runtime = jobs["runtime"].to_numpy()[in_range]
        a, b, range_notes = _fit_range(submit, runtime, label, min_jobs, max_order)
        inter.append(a)
        run.append(b)
        counts.append(int(in_range.sum()))
        notes.extend(range_notes)
    name = log.attrs.get("log") or log.attrs.get("source") or "an unnamed SWF DataFrame"
    source = (
        f"reconstructed by three-moment matching (spec §5) from {name}; "
        "not the published Jann et al. 1997 values"
    )
    return Jann97Params(
        interarrival=tuple(inter),
        runtime=tuple(run),
        ranges=ranges,
        machine_size=int(max_procs),
        source=source,
        counts=tuple(counts),
        notes=tuple(notes),
    )


# --------------------------------------------------------------------------------------
# Generation (§3, §6, §7)
# --------------------------------------------------------------------------------------
@dataclass
class _Stream:
    """One range's renewal stream, drawn in fixed chunks from its own generator."""

    index: int
    low: int
    high: int
    interarrival: HyperErlang
    runtime: HyperErlang
    rng: np.random.Generator
    gaps: list[np.ndarray] = field(default_factory=list)
    runtimes: list[np.ndarray] = field(default_factory=list)
    uniforms: list[np.ndarray] = field(default_factory=list)
    end: float = 0.0  # arrival time of the last drawn job

    def extend_past(self, horizon: float) -> None:
        """Draw chunks (gaps, runtimes, size uniforms) until the last arrival > horizon."""
        while self.end <= horizon:
            gaps = self.interarrival.sample(self.rng, _CHUNK)
            self.gaps.append(gaps)
            self.runtimes.append(self.runtime.sample(self.rng, _CHUNK))
            self.uniforms.append(self.rng.random(_CHUNK))
            self.end += float(gaps.sum())

    def arrivals(self) -> np.ndarray:
        return np.cumsum(np.concatenate(self.gaps))


def _streams(params: Jann97Params, machine_size: int, seed) -> tuple[list[_Stream], list[str]]:
    """Active ranges for this machine size (spec §7), each with its child generator."""
    children = np.random.default_rng(seed).spawn(len(params.ranges))
    streams, notes = [], []
    for r, (lo, hi) in enumerate(params.ranges):
        gaps, runtime = params.interarrival[r], params.runtime[r]
        if gaps is None:
            continue
        if lo > machine_size:
            notes.append(f"range {lo}-{hi} dropped (above machine size {machine_size})")
            continue
        if hi > machine_size:
            notes.append(f"range {lo}-{hi} truncated to {lo}-{machine_size}")
            hi = machine_size
        streams.append(_Stream(r, lo, hi, gaps, runtime, children[r]))
    if not streams:
        raise InvalidParameter(f"no range of the parameters fits machine_size={machine_size}")
    return streams, notes


def _merge(streams: list[_Stream], n_jobs: int, within_range: str):
    """The first ``n_jobs`` jobs of the merged streams (ties: by range index)."""
    rate = sum(1.0 / s.interarrival.mean() for s in streams)
    horizon = 1.1 * n_jobs / rate
    while True:
        for s in streams:
            s.extend_past(horizon)
        arrivals = [s.arrivals() for s in streams]
        complete = min(a[-1] for a in arrivals)  # every arrival <= this one is drawn
        if sum(int(np.searchsorted(a, complete, side="right")) for a in arrivals) >= n_jobs:
            break
        horizon = 1.25 * complete
    time = np.concatenate(arrivals)
    runtime = np.concatenate([np.concatenate(s.runtimes) for s in streams])
    u = np.concatenate([np.concatenate(s.uniforms) for s in streams])
    low = np.concatenate([np.full(a.size, s.low) for s, a in zip(streams, arrivals, strict=True)])
    high = np.concatenate([np.full(a.size, s.high) for s, a in zip(streams, arrivals, strict=True)])
    order = np.argsort(time, kind="stable")[:n_jobs]
    if within_range == "upper":
        size = high[order]
    else:
        width = high[order] - low[order] + 1
        size = low[order] + np.minimum(np.floor(u[order] * width), width - 1)
    return time[order], np.maximum(1.0, np.rint(runtime[order])), size.astype(float)


def jann97(
    n_jobs: int = 50_000,
    machine_size: int = 322,
    seed: int = 0,
    *,
    params: Jann97Params | None = None,
    within_range: str = "uniform",
) -> pd.DataFrame:
    """Generate ``n_jobs`` jobs of the Jann et al. 1997 model from ``params``.

    ``params`` must be given — normally ``fit_jann97(<CTC SP2 1996 log>)``; without it
    :class:`Jann97ParametersMissing` (an ``HpcmodelsError``, so a ``ValueError``) explains
    how to obtain them.
    ``within_range`` is ``"uniform"`` (default, [P]) or ``"upper"`` (spec §3).

    Returns an SWF DataFrame: ``job`` 1 ... n_jobs in submit order, ``submit`` (float s),
    ``runtime`` (whole s >= 1), ``procs``, ``req_procs = procs``, ``status = 1``; every
    other field NaN (unknown). ``df.attrs`` holds the SWF header, ``model``
    ("jann97"), ``seed``, ``machine_size``, ``parameters`` and ``source`` (the
    provenance of the parameters).

    ``n_jobs`` is a whole number in [1, 10**8] (:data:`hpcmodels.bounds.MAX_JOBS`),
    ``machine_size`` one in [1, 2**53] and ``seed`` one in [0, 2**63 - 1].
    """
    n_jobs = check_int("n_jobs", n_jobs, minimum=1, maximum=MAX_JOBS)
    machine_size = check_int("machine_size", machine_size, minimum=1, maximum=MAX_PROCS)
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    if within_range not in ("uniform", "upper"):
        raise InvalidParameter(f"within_range must be 'uniform' or 'upper', got {within_range!r}")
    if params is None:
        raise Jann97ParametersMissing(_MISSING_MESSAGE)
    if not isinstance(params, Jann97Params):
        raise InvalidParameter(f"params must be a Jann97Params, got {type(params).__name__}")
    streams, machine_notes = _streams(params, int(machine_size), seed)
    submit, runtime, procs = _merge(streams, int(n_jobs), within_range)
    frame = swf_frame(
        submit=submit,
        runtime=runtime,
        procs=procs,
        req_procs=procs,
        status=np.ones(int(n_jobs)),
    )
    frame.attrs.update(_attrs(int(n_jobs), int(machine_size), seed, within_range, params))
    frame.attrs["parameters"]["machine_notes"] = machine_notes
    return frame


def _attrs(n_jobs: int, machine_size: int, seed, within_range: str, params: Jann97Params):
    return {
        "Version": 2,
        "Computer": "synthetic: Jann et al. 1997 model (hyper-Erlang per size range)",
        "MaxJobs": n_jobs,
        "MaxRecords": n_jobs,
        "MaxNodes": machine_size,
        "MaxProcs": machine_size,
        "Note": [
            "Jann et al. 1997 (Modeling of workload in MPPs, JSSPP 1997) model; "
            f"parameters: {params.source}",
            f"size within a range: {within_range}; requested processors = allocated",
        ],
        "model": "jann97",
        "seed": seed,
        "machine_size": machine_size,
        "status": "structure verified; parameters " + params.source,
        "source": params.source,
        "parameters": {
            "n_jobs": n_jobs,
            "machine_size": machine_size,
            "seed": seed,
            "within_range": within_range,
            **asdict(params),
        },
    }
