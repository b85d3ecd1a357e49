"""Feitelson 1996 workload model — a RECONSTRUCTED model with provisional parameters.

What the model is (spec ``shared/models/feitelson96.md``)
--------------------------------------------------------
D. G. Feitelson's model of parallel-machine workloads, built to drive gang-scheduling
simulations (D. G. Feitelson, "Packing schemes for gang scheduling", JSSPP 1996,
Springer LNCS 1162, pp. 89-110). Jobs are rigid. It reproduces three features of the
production logs of the time (spec §1):

* a discrete size distribution that favours small jobs and powers of two: a harmonic
  distribution of order 1.5 on 1 ... N, "hand-tailored" (§2);
* runtimes that are highly variable and weakly, positively correlated with size: a
  two-branch hyperexponential whose long-branch probability grows linearly with the
  size (§3);
* repeated executions of the same job: a Zipf-like number of runs per job (§4).

New jobs arrive as a Poisson process whose rate is set from a target offered load (§5).

Status: RECONSTRUCTED MODEL, NOT EXACT
--------------------------------------
The original PWA program and the paper's parameter values could not be found. The
structure is verified [V] or recalled [R]; every number marked [P] below is a
provisional choice of the project's specification, with no source. Results obtained
with this module are those of a *reconstruction*; never call them exact. The same
statement is stored in ``df.attrs["reconstruction"]`` and ``df.attrs["status"]``.

Provisional [P] and recalled [R] choices (all exposed in :class:`Feitelson96Params`)
-----------------------------------------------------------------------------------
* §2 [P] hand-tailoring: weight ``n**-1.5`` multiplied by ``K2 = 4`` for powers of two
  n >= 2; optional ``K_small`` (default 1) multiplies sizes 2 ... 8. When both apply
  (sizes 2, 4, 8) the two factors multiply.
* §3 [R] hyperexponential runtime; [P] means 300 s and 10,800 s, long-branch
  probability ``0.2 + 0.6 (n - 1)/(N - 1)`` (for N = 1 it is 0.2); runtimes rounded to
  the nearest second, at least 1 s.
* §4 [R] run length ``P(R = k) ∝ k**-2.5``; [P] truncated at 100; every execution of a
  job has the same size and runtime; think time 0 s.
* §5 [R] Poisson arrivals of new jobs, no daily cycle; [P] rate
  ``λ = ρ N / (E[R] E[n r])``. The offered load ρ is an explicit parameter with the
  neutral default 0.5 — deliberately NOT 0.45, which was derived from Shih et al.
  2013, Table 3 and would make that table's "Ori. SL" agree by construction. ``E[n r]``
  uses the exact mean of the rounded runtime (``1 + e^(-1.5/m) / (1 - e^(-1/m))`` per
  branch, which differs from m by less than 0.01 s for these means).
* §6 [P] generation: each new job consumes one row of five uniforms, in the order
  (gap, size, branch, runtime, run length), each turned into its variate by the
  inverse CDF. Rows are drawn in blocks from ``numpy.random.default_rng(seed)``; because
  the uniform stream is consumed row by row, the output does not depend on the block
  size, and ``feitelson96(m)`` is the first m records of ``feitelson96(n)`` for n > m.

Repeated executions in an open model (§4, §6 step 3)
---------------------------------------------------
In the original model a repetition is submitted when the previous run *terminates*, a
closed-loop feedback that depends on the scheduler. A generated (open) SWF file cannot
know termination times, so, exactly as the spec's [P] rule says, execution k + 1 is
submitted at ``submit_k + runtime + think_time`` — the earliest time consistent with
"after the previous run terminates" if the job never waits. The dependency is kept
in SWF fields 17/18: ``preceding_job`` names the previous execution (NaN = -1 for first
executions) and ``think_time`` is 0 for repetitions (NaN for first executions), so a
simulator that honours them can submit each repetition at the actual termination of its
predecessor plus the think time instead.

Output (§7)
-----------
An SWF DataFrame (:func:`hpcmodels.workloads.swf.swf_frame`) with ``job`` 1 ... n_jobs
in submit order, ``submit`` (float seconds, non-decreasing, starting after the first
exponential gap), ``runtime`` (whole seconds >= 1), ``procs``, ``req_procs = procs``
(the project's convention: requested processors are copied from the allocated ones;
the PWA programs leave field 8 at -1), ``status = 1``, ``preceding_job`` and
``think_time``; every other field is NaN (unknown, -1 in SWF). ``df.attrs`` carries the
SWF header (Version 2, MaxJobs, MaxRecords, MaxNodes, MaxProcs, Note), ``model``
("feitelson96"), ``seed``, ``machine_size``, ``load``, ``parameters`` (everything used,
including the arrival rate), ``status`` and ``reconstruction``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace
from numbers import Integral, Real

import numpy as np
import pandas as pd

from hpcmodels.workloads.swf import swf_frame

from ...bounds import MAX_JOBS, MAX_SEED
from ...errors import InvalidParameter, check_frame, check_int, check_ints

__all__ = [
    "Feitelson96Params",
    "RECONSTRUCTION_NOTE",
    "feitelson96",
    "offered_load",
]

RECONSTRUCTION_NOTE = (
    "Reconstructed model: the original Feitelson 1996 program and parameters were not "
    "found. Structure from the PWA model page [V] and recollection of the paper [R]; "
    "the numeric values marked [P] (power-of-two boost K2 = 4, runtime means 300 s and "
    "10,800 s, long-branch probability 0.2 ... 0.8, run-length cap 100, think time 0) "
    "are provisional choices of the project's specification, not the original values. "
    "The offered load is an explicit parameter (neutral default 0.5)."
)

_UNIFORMS_PER_JOB = 5  # gap, size, branch, runtime, run length (spec §6 step 2)

MAX_MACHINE = 10**8
"""Largest ``machine_size`` (and ``run_length_max``): the size (run-length) distribution
is an array over 1 ... N, about 48 bytes per processor in a call (measured), so 10**8
already needs ~5 GB. The spec's machine has 128 processors."""


def _check_positive_int(name: str, value: object, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise InvalidParameter(f"{name} must be an integer >= 1, got {value!r}")
    if maximum is not None and value > maximum:
        raise InvalidParameter(f"{name} must be an integer <= {maximum}, got {value!r}")
    return int(value)


def _machine(machine_size: object) -> int:
    """``machine_size`` as an int in [1, 10**8] (:data:`MAX_MACHINE`)."""
    return _check_positive_int("machine_size", machine_size, maximum=MAX_MACHINE)


def _check_real(name: str, value: object, *, low: float, high: float, open_low: bool) -> float:
    ok = isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)
    if ok:
        ok = (value > low if open_low else value >= low) and value <= high
    if not ok:
        bracket = "(" if open_low else "["
        raise InvalidParameter(
            f"{name} must be a real number in {bracket}{low}, {high}], got {value!r}"
        )
    return float(value)


@dataclass(frozen=True)
class Feitelson96Params:
    """Every parameter of the model, tagged with its status in the spec.

    [V] verified, [R] recalled from the paper (uncertain), [P] provisional choice of the
    project's spec (no source). Section numbers refer to ``feitelson96.md``.
    """

    harmonic_order: float = 1.5  # [V] §2: P(n) ∝ n**-1.5 before hand-tailoring
    power_of_two_boost: float = 4.0  # [P] §2: K2, multiplies powers of two n >= 2
    small_size_boost: float = 1.0  # [P] §2: optional K_small, multiplies sizes 2 ... max
    small_size_max: int = 8  # [P] §2: upper end of the K_small range
    short_mean: float = 300.0  # [P] §3: m_s, mean of the short branch (s)
    long_mean: float = 10_800.0  # [P] §3: m_l, mean of the long branch (s)
    p_long_serial: float = 0.2  # [P] §3: long-branch probability for n = 1
    p_long_full: float = 0.8  # [P] §3: long-branch probability for n = N
    run_length_exponent: float = 2.5  # [R] §4: P(R = k) ∝ k**-2.5
    run_length_max: int = 100  # [P] §4: truncation of R
    think_time: float = 0.0  # [P] §4: delay between a run's end and the next submit (s)

    def __post_init__(self) -> None:
        inf = math.inf
        _check_real("harmonic_order", self.harmonic_order, low=-inf, high=inf, open_low=True)
        for name in ("power_of_two_boost", "small_size_boost", "short_mean", "long_mean"):
            _check_real(name, getattr(self, name), low=0.0, high=inf, open_low=True)
        for name in ("p_long_serial", "p_long_full"):
            _check_real(name, getattr(self, name), low=0.0, high=1.0, open_low=False)
        _check_real(
            "run_length_exponent", self.run_length_exponent, low=-inf, high=inf, open_low=True
        )
        _check_real("think_time", self.think_time, low=0.0, high=inf, open_low=False)
        _check_positive_int("run_length_max", self.run_length_max, maximum=MAX_MACHINE)
        _check_positive_int("small_size_max", self.small_size_max, maximum=MAX_MACHINE)

    # --- §2 size --------------------------------------------------------------------
    def size_weights(self, machine_size: int) -> np.ndarray:
        """Unnormalised weights w(n), n = 1 ... N (spec §2, provisional rule); N =
        ``machine_size``, a whole number in [1, 10**8] (:data:`MAX_MACHINE`), as in every
        method below."""
        n = np.arange(1, _machine(machine_size) + 1)
        w = n.astype(float) ** -self.harmonic_order
        power_of_two = (n >= 2) & ((n & (n - 1)) == 0)
        w[power_of_two] *= self.power_of_two_boost
        w[(n >= 2) & (n <= self.small_size_max)] *= self.small_size_boost
        return w

    def size_probabilities(self, machine_size: int) -> np.ndarray:
        """P(size = n) for n = 1 ... N: element ``n - 1`` (spec §2)."""
        w = self.size_weights(machine_size)
        return w / w.sum()

    # --- §3 runtime ---------------------------------------------------------------
    def long_branch_probability(self, sizes: np.ndarray, machine_size: int) -> np.ndarray:
        """p_long(n) = p_serial + (p_full - p_serial)(n - 1)/(N - 1) (spec §3).

        For N = 1 (only serial jobs) it is p_serial.
        """
        machine_size = _machine(machine_size)
        sizes = np.asarray(sizes, dtype=float)
        if machine_size <= 1:
            return np.full_like(sizes, self.p_long_serial)
        slope = (self.p_long_full - self.p_long_serial) / (machine_size - 1)
        return self.p_long_serial + slope * (sizes - 1.0)

    def mean_runtime(self, sizes: np.ndarray, machine_size: int) -> np.ndarray:
        """E[runtime | size] of the generated (rounded, >= 1 s) runtimes (spec §3)."""
        p = self.long_branch_probability(sizes, machine_size)
        return p * _rounded_exponential_mean(self.long_mean) + (1 - p) * (
            _rounded_exponential_mean(self.short_mean)
        )

    # --- §4 repetitions -----------------------------------------------------------
    def run_length_probabilities(self) -> np.ndarray:
        """P(R = k) for k = 1 ... R_max: element ``k - 1`` (spec §4)."""
        k = np.arange(1, self.run_length_max + 1, dtype=float)
        w = k**-self.run_length_exponent
        return w / w.sum()

    def mean_run_length(self) -> float:
        """E[R] (1.7995 with the defaults, spec §4)."""
        q = self.run_length_probabilities()
        return float(np.dot(np.arange(1, q.size + 1), q))

    # --- §5 arrivals --------------------------------------------------------------
    def mean_work(self, machine_size: int) -> float:
        """E[n r], mean processor-seconds of one execution (29,143 with defaults, §5)."""
        n = np.arange(1, _machine(machine_size) + 1, dtype=float)
        prob = self.size_probabilities(machine_size)
        return float(np.sum(prob * n * self.mean_runtime(n, machine_size)))

    def arrival_rate(self, load: float, machine_size: int) -> float:
        """New jobs per second for offered load ρ: λ = ρ N / (E[R] E[n r]) (spec §5)."""
        load = _check_real("load", load, low=0.0, high=math.inf, open_low=True)
        work = self.mean_work(machine_size)
        return load * machine_size / (self.mean_run_length() * work)


def _rounded_exponential_mean(mean: float) -> float:
    """E[max(1, round(X))] for X ~ Exp(mean): 1 + e^(-1.5/m) / (1 - e^(-1/m))."""
    return 1.0 + math.exp(-1.5 / mean) / -math.expm1(-1.0 / mean)


def _inverse_cdf(probabilities: np.ndarray, u: np.ndarray) -> np.ndarray:
    """1-based category for each uniform u in [0, 1) (inverse transform)."""
    cdf = np.cumsum(probabilities)
    cdf[-1] = 1.0
    index = np.searchsorted(cdf, u, side="right")
    return np.minimum(index, probabilities.size - 1) + 1


@dataclass(frozen=True)
class _NewJobs:
    """Draws for a prefix of new jobs (first executions), spec §6 step 2."""

    arrival: np.ndarray
    size: np.ndarray
    runtime: np.ndarray
    run_length: np.ndarray


def _new_jobs(u: np.ndarray, params: Feitelson96Params, machine_size: int, rate: float):
    """Turn rows of uniforms (gap, size, branch, runtime, R) into new jobs (§2-§5)."""
    arrival = np.cumsum(-np.log1p(-u[:, 0]) / rate)
    size = _inverse_cdf(params.size_probabilities(machine_size), u[:, 1])
    long = u[:, 2] < params.long_branch_probability(size, machine_size)
    mean = np.where(long, params.long_mean, params.short_mean)
    runtime = np.maximum(1.0, np.rint(-mean * np.log1p(-u[:, 3])))
    run_length = _inverse_cdf(params.run_length_probabilities(), u[:, 4])
    return _NewJobs(arrival, size, runtime, run_length)


def _records(jobs: _NewJobs, think_time: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Expand each new job into its R executions (§6 step 3).

    Returns, per record in (job, execution) order: the index of its new job, its
    execution number (0 = first) and its submit time.
    """
    owner = np.repeat(np.arange(jobs.run_length.size), jobs.run_length)
    first = np.cumsum(jobs.run_length) - jobs.run_length
    execution = np.arange(owner.size) - np.repeat(first, jobs.run_length)
    submit = jobs.arrival[owner] + execution * (jobs.runtime[owner] + think_time)
    return owner, execution, submit


def _kth_smallest(values: np.ndarray, k: int) -> float:
    return float(np.partition(values, k - 1)[k - 1])


def _generate(n_jobs: int, machine_size: int, rng: np.random.Generator, params, rate: float):
    """Draw new jobs until the first ``n_jobs`` records are final (spec §6 step 4).

    They are final once the newest new job arrives after the n_jobs-th smallest submit
    time: any later new job (and all its repetitions) is submitted later still.
    """
    count = math.ceil(1.02 * n_jobs / params.mean_run_length()) + 64
    u = rng.random((count, _UNIFORMS_PER_JOB))
    while True:
        jobs = _new_jobs(u, params, machine_size, rate)
        owner, execution, submit = _records(jobs, params.think_time)
        if submit.size >= n_jobs and jobs.arrival[-1] > _kth_smallest(submit, n_jobs):
            return jobs, owner, execution, submit
        extra = max(64, math.ceil(0.05 * u.shape[0]))
        u = np.vstack([u, rng.random((extra, _UNIFORMS_PER_JOB))])


def _resolve_params(params: Feitelson96Params | None, overrides: dict) -> Feitelson96Params:
    base = Feitelson96Params() if params is None else params
    if not isinstance(base, Feitelson96Params):
        raise InvalidParameter(f"params must be a Feitelson96Params, got {type(base).__name__}")
    known = {f.name for f in fields(Feitelson96Params)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise InvalidParameter(
            f"unknown feitelson96 parameter(s) {unknown}; known: {sorted(known)}"
        )
    return replace(base, **overrides)


def feitelson96(
    n_jobs: int = 50_000,
    machine_size: int = 128,
    seed: int = 0,
    *,
    load: float = 0.5,
    params: Feitelson96Params | None = None,
    **overrides: float,
) -> pd.DataFrame:
    """Generate ``n_jobs`` SWF records of the (reconstructed) Feitelson 1996 model.

    Parameters
    ----------
    n_jobs : number of SWF records (executions, repetitions included), 1 ... 10**8
        (:data:`hpcmodels.bounds.MAX_JOBS`: about 410 bytes per record, measured).
    machine_size : N, processors of the machine (spec §8 default 128), 1 ... 10**8
        (:data:`MAX_MACHINE`).
    seed : seed of ``numpy.random.default_rng`` (a whole number in [0, 2**63 - 1], or a
        list or tuple of them; not a bool or string); same seed → identical output.
    load : target offered load ρ in (0, ∞) that sets the new-job arrival rate (§5).
        Neutral default 0.5; the spec's 0.45 is deliberately not the default.
    params : a :class:`Feitelson96Params` (default: the spec's provisional values).
    **overrides : any field of :class:`Feitelson96Params`, e.g.
        ``power_of_two_boost=2``; applied on top of ``params``.

    Returns
    -------
    An SWF DataFrame (see the module docstring): ``status = 1``, ``req_procs = procs``,
    ``preceding_job``/``think_time`` set for repetitions, attrs marking the model as a
    reconstruction.
    """
    n_jobs = _check_positive_int("n_jobs", n_jobs, maximum=MAX_JOBS)
    machine_size = _machine(machine_size)
    load = _check_real("load", load, low=0.0, high=math.inf, open_low=True)
    if isinstance(seed, list | tuple):
        seed = check_ints("seed", seed, minimum=0, maximum=MAX_SEED)
    else:
        seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    params = _resolve_params(params, overrides)
    rate = params.arrival_rate(load, machine_size)
    rng = np.random.default_rng(seed)
    jobs, owner, execution, submit = _generate(n_jobs, machine_size, rng, params, rate)
    frame = _to_swf(jobs, owner, execution, submit, n_jobs, params.think_time)
    frame.attrs.update(_attrs(n_jobs, machine_size, seed, load, rate, params))
    return frame


def _to_swf(jobs, owner, execution, submit, n_jobs: int, think_time: float) -> pd.DataFrame:
    """Keep the first ``n_jobs`` records in submit order and renumber (§6 step 4, §7)."""
    order = np.argsort(submit, kind="stable")[:n_jobs]
    number = np.zeros(submit.size, dtype=np.int64)
    number[order] = np.arange(1, n_jobs + 1)
    repeat = execution[order] > 0
    predecessor = np.where(repeat, number[np.maximum(order - 1, 0)], 0)
    if np.any(repeat & ((predecessor < 1) | (predecessor >= number[order]))):
        raise AssertionError("a repetition precedes its predecessor")  # cannot happen: r >= 1
    procs = jobs.size[owner[order]].astype(float)
    return swf_frame(
        job=np.arange(1, n_jobs + 1),
        submit=submit[order],
        runtime=jobs.runtime[owner[order]],
        procs=procs,
        req_procs=procs,
        status=np.ones(n_jobs),
        preceding_job=np.where(repeat, predecessor, np.nan),
        think_time=np.where(repeat, think_time, np.nan),
    )


def _attrs(n_jobs, machine_size, seed, load, rate, params: Feitelson96Params) -> dict:
    parameters = {
        "n_jobs": n_jobs,
        "machine_size": machine_size,
        "seed": seed,
        "load": load,
        "arrival_rate": rate,
        **asdict(params),
    }
    return {
        "Version": 2,
        "Computer": "synthetic: Feitelson 1996 model (reconstructed, provisional parameters)",
        "MaxJobs": n_jobs,
        "MaxRecords": n_jobs,
        "MaxNodes": machine_size,
        "MaxProcs": machine_size,
        "Note": [
            "Feitelson 1996 model (Packing schemes for gang scheduling, JSSPP 1996): "
            "RECONSTRUCTED model, provisional parameters [P], not the original values",
            f"offered load {load:g} on {machine_size} processors "
            f"(new-job rate {rate:.6g}/s); repetitions in fields 17/18, think time "
            f"{params.think_time:g} s; requested processors = allocated processors",
        ],
        "model": "feitelson96",
        "seed": seed,
        "machine_size": machine_size,
        "load": load,
        "status": "reconstructed model",
        "reconstruction": RECONSTRUCTION_NOTE,
        "parameters": parameters,
    }


def offered_load(frame: pd.DataFrame, machine_size: int) -> float:
    """Offered load of a workload: Σ procs·runtime / (N · last submit time) (spec §5, §9).

    The generator's arrival process starts at time 0, so the observed period is
    [0, last submit]. Applies to any SWF DataFrame whose submit times start near 0.
    ``frame`` is a DataFrame with numeric ``submit``, ``procs`` and ``runtime`` columns
    (NaN is unknown; inf and bools are refused).
    """
    machine_size = _machine(machine_size)
    check_frame("frame", frame, ("submit", "procs", "runtime"))
    for column in ("submit", "procs", "runtime"):
        if frame[column].dtype.kind not in "iuf" or np.isinf(frame[column].to_numpy(float)).any():
            raise InvalidParameter(f"frame column {column!r} must hold finite numbers (or NaN)")
    span = float(frame["submit"].max())
    if not span > 0:
        raise InvalidParameter(f"the last submit time must be > 0 to measure a load, got {span}")
    work = float(np.nansum(frame["procs"].to_numpy() * frame["runtime"].to_numpy()))
    return work / (machine_size * span)
