"""Lublin & Feitelson workload model of rigid parallel jobs (Lublin 1999; JPDC 2003).

The model (specification: ``shared/models/lublin99.md``, section numbers below refer to
it) generates a stream of rigid jobs, each with a submit time, a runtime and a number
of processors, for a 128-processor machine by default:

* **type** (§4.5): two independent arrival streams, interactive (0) and batch (1),
  each with its own parameters; the stream whose next arrival comes first produces
  the next job (ties go to interactive). In *typeless* mode a single parameter set
  fitted on the whole sample is used and every job is reported as interactive.
* **size** (§4.2): serial with probability ``SerialProb``; otherwise ``log2(size)`` is
  a two-stage uniform on ``[ULow, UMed]`` (probability ``UProb``) or ``[UMed, UHi]``,
  rounded to an integer exponent for power-of-two jobs (probability ``Pow2Prob``).
* **runtime** (§4.3): ``ln(runtime)`` is hyper-gamma, branch 1 ``Gamma(a1, b1)`` with
  probability ``p = pa * size + pb`` (clamped to [0, 1]) else ``Gamma(a2, b2)``,
  redrawn (branch included) while above 12; ``runtime = floor(e^h)`` seconds.
* **arrivals** (§4.4-4.5): ``ln(gap)`` is ``Gamma(AARR * ARAR, BARR)`` (redrawn while
  above 13), the gap at rush-hour intensity; it is spread over 48 half-hour buckets
  whose weights (a discretised ``Gamma(ANUM, BNUM)`` density, normalised to mean 1)
  give the daily cycle.

The parameter values are those of §3 (:data:`INTERACTIVE`, :data:`BATCH`,
:data:`TYPELESS`, frozen dataclasses with the specification's names). Gamma variates use
the sampler of the original program (Jain 1991, ch. 28; §4.1): ``floor(a)`` uniforms
for the integer part of the shape, Jöhnk's beta rejection and one exponential for the
fractional part. The draw order is that of §6, so the model needs only a stream of
uniforms on [0, 1), supplied by one of two generators:

``generator="numpy"`` (default)
    every uniform comes from ``numpy.random.default_rng(seed)`` (house rule: every
    random draw comes from a seeded NumPy Generator).
``generator="drand48"``
    a POSIX ``drand48`` stream seeded as ``srand48(seed)`` (§6). With the defaults this
    reproduces the original program ``m_lublin99.c`` record for record (submit time,
    runtime, processors and queue; checked in the tests against §6).

Readings and choices:

* **Requested processors**: the original writes -1 in SWF field 8; we copy the
  allocated processors (field 5) into ``req_procs`` because many simulators read the
  requested size (§5 allows this). The wait time stays unknown (NaN, i.e. -1).
* **Clock truncation** (§7, quirk 1): the original keeps each stream's clock in whole
  seconds and truncates it after every gap while the position in the daily cycle is
  kept exactly, so the clock slips behind the cycle by about half a second per job.
  That behaviour is the default (it is needed for exact reproduction);
  ``exact_clock=True`` keeps the clocks in floating point and truncates only on output
  (submit times stay whole seconds), which restores the intended daily cycle.
* **Other machine sizes** (§8, our proposed rule, exact at P = 128): batch
  ``UHi = log2 P, UMed = UHi - 2``; interactive ``UHi = log2 P - 1.5,
  UMed = UHi - 2.5``; typeless ``UHi = log2 P, UMed = UHi - 2.5``; every other
  parameter unchanged. When P is not a power of two, rounding the exponent can give
  more than P processors; such sizes are capped at P. The rule needs ``UMed >= ULow``,
  i.e. P >= 32 in typed mode and P >= 10 in typeless mode. Note that the branch
  probability ``p = pa * size + pb`` is in absolute processors, so on big machines
  all large jobs take the long branch 2.
* **Header** (§5): ``df.attrs`` holds the original header facts (``Version``,
  ``Acknowledge``, ``Information``, ``MaxJobs``, ``MaxRecords``, ``MaxNodes``,
  ``MaxRuntime``) followed by ``model`` and the parameters of the call. ``MaxNodes``
  is the machine size (the original always writes 128, which is the default).

Reference: U. Lublin and D. G. Feitelson, "The workload on parallel supercomputers:
modeling the characteristics of rigid jobs", Journal of Parallel and Distributed
Computing 63(11), pp. 1105-1122, 2003; U. Lublin, M.Sc. thesis, Hebrew University, 1999.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd
from scipy.special import gammainc

from hpcmodels.workloads.swf import swf_frame

from ...bounds import MAX_JOBS, MAX_SEED
from ...errors import InvalidParameter, InvalidType, check_bool

MAX_MACHINE = 2**53
"""Largest machine: sizes stay exact in the int64 and float64 kernels."""

__all__ = [
    "Lublin99Parameters",
    "INTERACTIVE",
    "BATCH",
    "TYPELESS",
    "RUNTIME_LOG_CAP",
    "GAP_LOG_CAP",
    "BUCKETS_PER_DAY",
    "SECONDS_PER_BUCKET",
    "CYCLIC_DAY_START",
    "daily_cycle_weights",
    "scaled_parameters",
    "lublin99",
]


@dataclass(frozen=True)
class Lublin99Parameters:
    """One parameter set of the model (spec §3; names as in the original program)."""

    SerialProb: float  # probability of a serial (1-processor) job
    Pow2Prob: float  # probability of a power-of-two parallel job
    ULow: float  # lower end of log2(size), first uniform
    UMed: float  # break point of log2(size)
    UHi: float  # upper end of log2(size), second uniform
    UProb: float  # probability of the first uniform [ULow, UMed]
    a1: float  # shape, gamma of branch 1 of ln(runtime)
    b1: float  # scale, branch 1
    a2: float  # shape, branch 2
    b2: float  # scale, branch 2
    pa: float  # slope of the branch-1 probability in size
    pb: float  # intercept of the branch-1 probability
    AARR: float  # shape of the gamma of ln(inter-arrival) at rush hour
    BARR: float  # scale of that gamma
    ARAR: float  # "arrive rush / all ratio": multiplies AARR
    ANUM: float  # shape of the daily-cycle gamma
    BNUM: float  # scale of the daily-cycle gamma

    def packed(self) -> np.ndarray:
        """The values as a float64 vector in field order (for the numba kernel)."""
        return np.array(dataclasses.astuple(self), dtype=np.float64)


#: Typed mode, interactive jobs (type 0), spec §3.1.
INTERACTIVE = Lublin99Parameters(
    SerialProb=0.1541, Pow2Prob=0.625, ULow=1.0, UMed=3.0, UHi=5.5, UProb=0.705,
    a1=3.8351, b1=0.6605, a2=7.073, b2=0.6856, pa=-0.0118, pb=0.9156,
    AARR=6.5510, BARR=0.6621, ARAR=0.9797, ANUM=8.9186, BNUM=3.6680,
)  # fmt: skip
#: Typed mode, batch jobs (type 1), spec §3.1.
BATCH = Lublin99Parameters(
    SerialProb=0.2927, Pow2Prob=0.6686, ULow=1.2, UMed=5.0, UHi=7.0, UProb=0.875,
    a1=6.57, b1=0.823, a2=639.1, b2=0.0156, pa=-0.003, pb=0.6986,
    AARR=6.0415, BARR=0.8531, ARAR=1.0519, ANUM=6.1271, BNUM=5.2740,
)  # fmt: skip
#: Typeless mode (both internal streams), spec §3.2.
TYPELESS = Lublin99Parameters(
    SerialProb=0.244, Pow2Prob=0.576, ULow=0.8, UMed=4.5, UHi=7.0, UProb=0.86,
    a1=4.2, b1=0.94, a2=312.0, b2=0.03, pa=-0.0054, pb=0.78,
    AARR=10.2303, BARR=0.4871, ARAR=1.0225, ANUM=8.1737, BNUM=3.9631,
)  # fmt: skip

RUNTIME_LOG_CAP = 12.0  # redraw while ln(runtime) > 12 (§3.3)
GAP_LOG_CAP = 13.0  # redraw while ln(gap) > 13 (§3.3)
BUCKETS_PER_DAY = 48
SECONDS_PER_BUCKET = 1800.0
CYCLIC_DAY_START = 11  # first evaluation point of the daily-cycle gamma (§4.4)

# §8: (UHi offset from log2 P, UMed offset from UHi) of each parameter set.
_SCALING = {"interactive": (-1.5, -2.5), "batch": (0.0, -2.0), "typeless": (0.0, -2.5)}

_MODE_NUMPY = 0
_MODE_DRAND48 = 1
_GENERATORS = {"numpy": _MODE_NUMPY, "drand48": _MODE_DRAND48}

# Column indices of Lublin99Parameters.packed().
_FIELDS = [f.name for f in dataclasses.fields(Lublin99Parameters)]
(
    _SERIAL,
    _POW2,
    _ULOW,
    _UMED,
    _UHI,
    _UPROB,
    _A1,
    _B1,
    _A2,
    _B2,
    _PA,
    _PB,
    _AARR,
    _BARR,
    _ARAR,
    _ANUM,
    _BNUM,
) = range(len(_FIELDS))

# drand48: X <- (A X + C) mod 2^48, output X / 2^48; srand48(s): X = (s mod 2^32) 2^16 + 0x330E.
_DRAND48_A = np.uint64(0x5DEECE66D)
_DRAND48_C = np.uint64(0xB)
_DRAND48_MASK = np.uint64((1 << 48) - 1)
_TWO_M48 = 2.0**-48


def _drand48_seed(seed: int) -> int:
    """The 48-bit state that ``srand48(seed)`` sets (§6)."""
    return ((seed & 0xFFFFFFFF) << 16) | 0x330E


# --------------------------------------------------------------------------- parameters


def scaled_parameters(machine_size: int, typed: bool = True) -> tuple[Lublin99Parameters, ...]:
    """The (interactive-stream, batch-stream) parameters for a machine of ``machine_size``
    processors, following the proposed scaling rule of spec §8 (identical to §3 at 128).

    In typeless mode both streams use the scaled :data:`TYPELESS` set. Raises
    ``ValueError`` when the rule gives ``UMed < ULow`` (P < 32 typed, P < 10 typeless).
    """
    size = _check_machine_size(machine_size)
    typed = check_bool("typed", typed)
    log2p = math.log2(size)
    named = (
        [("interactive", INTERACTIVE), ("batch", BATCH)]
        if typed
        else [("typeless", TYPELESS), ("typeless", TYPELESS)]
    )
    out = []
    for name, base in named:
        hi_offset, med_offset = _SCALING[name]
        u_hi = log2p + hi_offset
        u_med = u_hi + med_offset
        if u_med < base.ULow:
            minimum = 32 if typed else 10
            raise InvalidParameter(
                f"machine_size={machine_size} is too small for the {name} scaling rule "
                f"(UMed = {u_med:.3g} < ULow = {base.ULow}); use machine_size >= {minimum}"
            )
        out.append(dataclasses.replace(base, UHi=u_hi, UMed=u_med))
    return tuple(out)


def daily_cycle_weights(params: Lublin99Parameters, *, normalise: bool = True) -> np.ndarray:
    """The 48 half-hour weights of the daily cycle (spec §4.4).

    Bucket ``j = (i - 1) mod 48`` gets ``F(i + 0.5) - F(i - 0.5)`` for ``i = 11 ... 58``,
    ``F`` the CDF of ``Gamma(ANUM, scale=BNUM)``; with ``normalise`` the weights are
    divided by their mean (so they average 1). Bucket ``j`` covers clock time
    ``[1800 j, 1800 (j + 1))`` seconds after midnight. ``params`` is a
    :class:`Lublin99Parameters` (else :class:`~hpcmodels.errors.InvalidType`).
    """
    if not isinstance(params, Lublin99Parameters):
        raise InvalidType(f"params must be a Lublin99Parameters, got {type(params).__name__}")
    normalise = check_bool("normalise", normalise)
    i = np.arange(CYCLIC_DAY_START, CYCLIC_DAY_START + BUCKETS_PER_DAY, dtype=np.float64)
    raw = gammainc(params.ANUM, (i + 0.5) / params.BNUM) - gammainc(
        params.ANUM, (i - 0.5) / params.BNUM
    )
    weights = np.empty(BUCKETS_PER_DAY)
    weights[(i.astype(np.int64) - 1) % BUCKETS_PER_DAY] = raw
    if normalise:
        weights = weights / (weights.sum() / BUCKETS_PER_DAY)
    return weights


# --------------------------------------------------------------------------- kernels


@numba.njit(cache=True)
def _uniform(mode: int, rng: np.random.Generator, state: np.ndarray) -> float:
    """One uniform on [0, 1): drand48 (state[0] is the 48-bit X) or the NumPy Generator."""
    if mode == _MODE_DRAND48:
        x = (state[0] * _DRAND48_A + _DRAND48_C) & _DRAND48_MASK
        state[0] = x
        return float(x) * _TWO_M48
    return rng.random()


@numba.njit(cache=True)
def _gamma(a: float, b: float, mode: int, rng, state) -> float:
    """Gamma(shape a, scale b) by the sampler of the original program (§4.1)."""
    k = int(math.floor(a))
    f = a - k
    g = 0.0
    if a >= 1.0:
        s = 0.0
        for _ in range(k):
            s += math.log(_uniform(mode, rng, state))
        g = -b * s
    if f > 0.0:
        while True:  # Jöhnk: Beta(f, 1 - f)
            x = math.pow(_uniform(mode, rng, state), 1.0 / f)
            y = math.pow(_uniform(mode, rng, state), 1.0 / (1.0 - f))
            if x + y <= 1.0:
                break
        beta = x / (x + y)
        g += b * beta * (-math.log(_uniform(mode, rng, state)))
    return g


@numba.njit(cache=True)
def _advance(t, params, weights, bucket, points, frac, clock, exact, mode, rng, state):
    """Draw the next inter-arrival gap of stream ``t`` and move its clock (§4.5)."""
    shape = params[t, _AARR] * params[t, _ARAR]
    scale = params[t, _BARR]
    g = _gamma(shape, scale, mode, rng, state)
    while g > GAP_LOG_CAP:
        g = _gamma(shape, scale, mode, rng, state)
    p = points[t] + math.exp(g) / SECONDS_PER_BUCKET
    b = bucket[t]
    dt = 0.0
    while p > weights[t, b]:
        p -= weights[t, b]
        b = (b + 1) % BUCKETS_PER_DAY
        dt += SECONDS_PER_BUCKET
    new_frac = p / weights[t, b]
    dt += SECONDS_PER_BUCKET * (new_frac - frac[t])
    frac[t] = new_frac
    points[t] = p
    bucket[t] = b
    if exact:
        clock[t] = clock[t] + dt
    else:
        clock[t] = math.floor(clock[t] + dt)  # the original's integer clock (§7.1)


@numba.njit(cache=True)
def _size(t, params, machine_size, mode, rng, state) -> int:
    """Number of processors of a type-t job (§4.2), capped at the machine size (§8)."""
    u = _uniform(mode, rng, state)
    if u <= params[t, _SERIAL]:
        return 1
    if _uniform(mode, rng, state) <= params[t, _UPROB]:
        lo, hi = params[t, _ULOW], params[t, _UMED]
    else:
        lo, hi = params[t, _UMED], params[t, _UHI]
    x = lo + _uniform(mode, rng, state) * (hi - lo)
    if u <= params[t, _SERIAL] + params[t, _POW2]:
        x = math.floor(x + 0.5)
    size = int(math.floor(math.pow(2.0, x) + 0.5))
    return min(size, machine_size)


@numba.njit(cache=True)
def _runtime(t, size, params, mode, rng, state) -> int:
    """Runtime in whole seconds of a type-t job of ``size`` processors (§4.3)."""
    p = params[t, _PA] * size + params[t, _PB]
    if p > 1.0:
        p = 1.0
    elif p < 0.0:
        p = 0.0
    while True:
        if _uniform(mode, rng, state) <= p:
            h = _gamma(params[t, _A1], params[t, _B1], mode, rng, state)
        else:
            h = _gamma(params[t, _A2], params[t, _B2], mode, rng, state)
        if h <= RUNTIME_LOG_CAP:
            break
    return int(math.floor(math.exp(h)))


@numba.njit(cache=True)
def _generate(
    n, params, weights, typed, exact, machine_size, mode, rng, state, submit, runtime, procs, kind
):
    """Fill the output arrays with ``n`` jobs (§4.5, draw order of §6)."""
    bucket = np.zeros(2, dtype=np.int64)  # start hour 0: bucket 0
    points = np.zeros(2)
    frac = np.zeros(2)
    clock = np.zeros(2)
    # initialisation: batch stream first, then interactive (order matters, §4.5)
    _advance(1, params, weights, bucket, points, frac, clock, exact, mode, rng, state)
    _advance(0, params, weights, bucket, points, frac, clock, exact, mode, rng, state)
    if not typed:
        clock[1] = np.inf  # the batch stream is never chosen
    for j in range(n):
        t = 1 if clock[1] < clock[0] else 0
        submit[j] = int(math.floor(clock[t]))
        _advance(t, params, weights, bucket, points, frac, clock, exact, mode, rng, state)
        size = _size(t, params, machine_size, mode, rng, state)
        procs[j] = size
        runtime[j] = _runtime(t, size, params, mode, rng, state)
        kind[j] = t


# --------------------------------------------------------------------------- public API


def _check_machine_size(machine_size) -> int:
    if isinstance(machine_size, bool) or not isinstance(machine_size, numbers.Integral):
        raise InvalidParameter(f"machine_size must be an integer, got {machine_size!r}")
    if not 1 <= machine_size <= MAX_MACHINE:
        raise InvalidParameter(f"machine_size must be >= 1 and <= 2**53, got {machine_size}")
    return int(machine_size)


def lublin99(
    n_jobs: int = 50_000,
    machine_size: int = 128,
    seed: int = 0,
    *,
    typed: bool = True,
    exact_clock: bool = False,
    generator: str = "numpy",
) -> pd.DataFrame:
    """Generate ``n_jobs`` rigid jobs of the Lublin & Feitelson (2003) model as SWF.

    Parameters
    ----------
    n_jobs : number of jobs (>= 1).
    machine_size : processors of the machine; 128 is the original model, other sizes
        use the scaling rule of spec §8 (P >= 32 typed, P >= 10 typeless; sizes capped
        at P when P is not a power of two).
    seed : non-negative integer seed of the uniform stream.
    typed : interactive and batch streams (True, queue 0/1) or the typeless model
        (False, queue always 0).
    exact_clock : keep the stream clocks in floating point instead of truncating them
        to whole seconds after every gap (spec §7, quirk 1); submit times are still
        whole seconds (truncated on output).
    generator : ``"numpy"`` (uniforms from ``numpy.random.default_rng(seed)``) or
        ``"drand48"`` (POSIX ``drand48`` seeded by ``srand48(seed)``; with the other
        defaults this reproduces the original program record for record).

    Returns
    -------
    DataFrame with the 18 SWF columns: ``job`` 1..N, ``submit`` (s), ``runtime`` (s),
    ``procs`` (allocated processors), ``req_procs`` (a copy of ``procs``; the original
    writes -1 there), ``status`` 1, ``queue`` the job type (0 interactive, 1 batch);
    every other column NaN (unknown, -1 in SWF). ``n_jobs`` is at most 10**8
    (:data:`hpcmodels.bounds.MAX_JOBS`: about 340 bytes per job, measured),
    ``machine_size`` at most 2**53 and ``seed`` at most 2**63 - 1; ``typed`` and
    ``exact_clock`` are bools. ``attrs`` holds the SWF header facts of
    the original program, ``model="lublin99"`` and the call's parameters.
    """
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs < 1:
        raise InvalidParameter(f"n_jobs must be an integer >= 1, got {n_jobs!r}")
    if n_jobs > MAX_JOBS:
        raise InvalidParameter(f"n_jobs must be <= {MAX_JOBS} (memory), got {n_jobs!r}")
    typed, exact_clock = check_bool("typed", typed), check_bool("exact_clock", exact_clock)
    if not isinstance(generator, str) or generator not in _GENERATORS:
        raise InvalidParameter(f"generator must be 'numpy' or 'drand48', got {generator!r}")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise InvalidParameter(f"seed must be a non-negative integer, got {seed!r}")
    if seed > MAX_SEED:
        raise InvalidParameter(f"seed must be <= 2**63 - 1, got {seed!r}")
    size = _check_machine_size(machine_size)
    n, seed, typed, exact_clock = int(n_jobs), int(seed), bool(typed), bool(exact_clock)

    streams = scaled_parameters(size, typed)  # (interactive, batch) or 2 x typeless
    params = np.vstack([p.packed() for p in streams])
    weights = np.vstack([daily_cycle_weights(p) for p in streams])

    mode = _GENERATORS[generator]
    rng = np.random.default_rng(seed)  # unused by the drand48 stream
    state = np.array([_drand48_seed(seed)], dtype=np.uint64)
    submit = np.empty(n, dtype=np.int64)
    runtime = np.empty(n, dtype=np.int64)
    procs = np.empty(n, dtype=np.int64)
    kind = np.empty(n, dtype=np.int64)
    _generate(
        n,
        params,
        weights,
        typed,
        exact_clock,
        size,
        mode,
        rng,
        state,
        submit,
        runtime,
        procs,
        kind,
    )

    frame = swf_frame(
        job=np.arange(1, n + 1, dtype=np.int64),
        submit=submit,
        runtime=runtime,
        procs=procs,
        req_procs=procs,
        status=np.ones(n),
        queue=kind,
    )
    frame.attrs.update(
        {
            "Version": 2,
            "Acknowledge": "Uri Lublin, Hebrew University",
            "Information": "http://www.cs.huji.ac.il/labs/parallel/workload",
            "MaxJobs": n,
            "MaxRecords": n,
            "MaxNodes": size,
            "MaxRuntime": int(math.floor(math.exp(RUNTIME_LOG_CAP))),
            "model": "lublin99",
            "seed": seed,
            "typed": typed,
            "machine_size": size,
            "exact_clock": exact_clock,
            "generator": generator,
        }
    )
    return frame
