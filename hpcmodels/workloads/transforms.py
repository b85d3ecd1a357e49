"""Transforms of SWF workloads used by the papers.

* ``merge_logs``: several sites' logs on one time axis (Shih 2013: DAS2 fs0-fs4).
* ``split_wide_jobs``: jobs wider than a cluster become full-width pieces plus one
  remainder (Shih 2013, Section 4.1: ANL Intrepid into 8192-processor clusters).
* ``queue_to_site``: a site per submission queue (Huang 2006; Shih 2013 A1/A2).
* ``scale_runtimes``: the load factor (Huang 2006), or any runtime scaling.
* ``system_loading`` / ``scale_to_loading``: Shih 2013 Eqs. 5-6 and the runtime
  multiplier that reaches a target SL.
* ``speed_vectors``: Shih 2013 Eqs. 3-4, seeded, ten vectors per SH level.
* ``estimate_inaccuracy``: the f-model of runtime estimates (Shih 2013 Eqs. 7-8).
* ``queue_summary``: per-queue statistics (Huang 2006 Table 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from ..bounds import MAX_ITERATIONS, MAX_PROCS, MAX_SEED
from ..errors import InvalidParameter, InvalidType, check_bool, check_int, check_real
from .clean import processors

__all__ = [
    "merge_logs",
    "split_wide_jobs",
    "queue_to_site",
    "scale_runtimes",
    "system_loading",
    "scale_to_loading",
    "speed_vectors",
    "estimate_inaccuracy",
    "queue_summary",
]


def _rng(seed: int | np.random.Generator) -> np.random.Generator:
    """A generator given, or one seeded by a whole number in [0, 2**63 - 1] (else
    InvalidParameter)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(check_int("seed", seed, minimum=0, maximum=MAX_SEED))


def _check_frame(frame: pd.DataFrame, *columns: str, name: str = "frame") -> None:
    """``frame`` must be a DataFrame with ``columns`` (else InvalidParameter)."""
    if not isinstance(frame, pd.DataFrame):
        raise InvalidType(f"{name} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame]
    if missing:
        raise InvalidParameter(f"{name} lacks column(s) {missing}")


def _numbers(
    frame: pd.DataFrame,
    column: str,
    *,
    at_least: float | None = None,
    whole: bool = False,
    finite: bool = True,
) -> np.ndarray:
    """``frame[column]`` as float64, NaN allowed (unknown, as in SWF) unless ``finite``;
    bools, strings and infinite values are an InvalidParameter naming the column."""
    values = frame[column]
    if values.dtype.kind not in "iuf":
        what = "bools" if values.dtype.kind == "b" else f"dtype {values.dtype}"
        raise InvalidParameter(f"frame column {column!r} must hold numbers, not {what}")
    x = values.to_numpy(dtype=float)
    known = ~np.isnan(x)
    bad = np.isinf(x) | (np.isnan(x) if finite else False)
    if at_least is not None:
        bad |= known & (x < at_least)
    if whole:
        bad |= known & ((x != np.round(x)) | (np.abs(x) > 2**53))
    if bad.any():
        i = int(np.argmax(bad))
        rule = (
            ("finite" if finite else "finite or NaN (unknown)")
            + (f", >= {at_least:g}" if at_least is not None else "")
            + (", a whole number <= 2**53" if whole else "")
        )
        raise InvalidParameter(
            f"frame column {column!r}: row {frame.index[i]!r} has {x[i]!r} (must be {rule})"
        )
    return x


def merge_logs(frames: Sequence[pd.DataFrame], *, align: bool = True) -> pd.DataFrame:
    """Concatenate logs of several sites into one, sorted by submit time.

    With ``align`` the submit times are shifted by each log's ``UnixStartTime`` header
    (relative to the earliest), so that jobs keep their real order across sites; a
    ``site`` column (0, 1, ...) records the source, and jobs are renumbered 1..N.

    ``frames`` is a list, tuple or any other iterable (a generator is read once) of
    DataFrames with a numeric ``submit`` column; a single DataFrame, a dict, a string or
    ``None`` is an :class:`~hpcmodels.errors.InvalidType`. ``align`` is a bool.
    """
    if isinstance(frames, pd.DataFrame | str | bytes | dict) or not isinstance(frames, Iterable):
        raise InvalidType(
            f"frames must be a list of DataFrames (one per log), got {type(frames).__name__}"
        )
    frames = list(frames)
    align = check_bool("align", align)
    if not frames:
        raise InvalidParameter("frames is empty: merge_logs needs at least one log")
    for i, frame in enumerate(frames):
        _check_frame(frame, "submit", name=f"frames[{i}]")
        _numbers(frame, "submit")
    starts = [f.attrs.get("UnixStartTime") for f in frames]
    if align and any(s is None for s in starts):
        missing = [i for i, s in enumerate(starts) if s is None]
        raise InvalidParameter(f"logs {missing} have no UnixStartTime header; pass align=False")
    if align:
        starts = [
            check_real(f"frames[{i}].attrs['UnixStartTime']", s) for i, s in enumerate(starts)
        ]
    origin = min(starts) if align else 0
    parts = []
    for site, (frame, start) in enumerate(zip(frames, starts, strict=True)):
        part = frame.copy()
        part["submit"] = part["submit"] + ((start - origin) if align else 0)
        part["site"] = site
        parts.append(part)
    merged = pd.concat(parts, ignore_index=True).sort_values("submit", kind="stable")
    merged = merged.reset_index(drop=True)
    merged["job"] = np.arange(1, len(merged) + 1, dtype=np.int64)
    merged.attrs = {"merged_from": [f.attrs.get("log", f.attrs.get("source")) for f in frames]}
    if align:
        merged.attrs["UnixStartTime"] = origin
    return merged


def split_wide_jobs(frame: pd.DataFrame, max_procs: int) -> pd.DataFrame:
    """Split every job wider than ``max_procs`` into pieces of ``max_procs`` processors
    and one remainder (Shih 2013: 20,000 -> 8192 + 8192 + 3616), each with the job's
    submit time and runtime. ``split_from`` keeps the original job number.

    ``max_procs`` is a whole number in [1, 2**53] (``8192.0`` is read as 8192; processor
    counts are at most 2**53, :data:`hpcmodels.bounds.MAX_PROCS`); ``frame`` needs
    ``job`` and ``procs`` columns (``req_procs`` fills unknown ``procs`` when present);
    processor counts are whole numbers in [1, 2**53] (no bools, strings, 2.5 or inf).
    """
    max_procs = check_int("max_procs", max_procs, minimum=1, maximum=MAX_PROCS)
    _check_frame(frame, "job", "procs")
    for column in ("procs", "req_procs"):
        if column in frame:
            _numbers(frame, column, at_least=1, whole=True, finite=False)
    procs = processors(frame).to_numpy(dtype=float)
    if np.isnan(procs).any():
        raise InvalidParameter(
            "split_wide_jobs needs known processor counts (apply a filter first)"
        )
    limit = max_procs
    full, rest = np.divmod(procs.astype(np.int64), limit)
    pieces = np.where(procs <= limit, 1, full + (rest > 0))
    out = frame.loc[frame.index.repeat(pieces)].copy()
    out["split_from"] = out["job"].to_numpy()
    # piece k of a job: limit for the full ones, the remainder for the last one
    first = np.repeat(np.cumsum(pieces) - pieces, pieces)
    k = np.arange(len(out)) - first
    width = np.repeat(procs, pieces)
    last_width = np.where(np.repeat(rest, pieces) > 0, np.repeat(rest, pieces), limit)
    is_last = k == np.repeat(pieces, pieces) - 1
    out["procs"] = np.where(width <= limit, width, np.where(is_last, last_width, limit))
    if "req_procs" in out:
        out["req_procs"] = out["procs"]
    out = out.reset_index(drop=True)
    out["job"] = np.arange(1, len(out) + 1, dtype=np.int64)
    out.attrs = {**frame.attrs, "split_at": max_procs}
    return out


def queue_to_site(frame: pd.DataFrame, mapping: Mapping[int, int]) -> pd.DataFrame:
    """Add a ``site`` column from the SWF queue number (e.g. SDSC SP2 queues 1-5 to sites
    0-4). Jobs of an unmapped queue are an error that names the queues and counts.

    ``frame`` is a DataFrame with a ``queue`` column; ``mapping`` a dict (any Mapping) or
    a pandas Series from queue to site, each site a whole number >= 0 (``1.0`` is read
    as 1); anything else is an :class:`~hpcmodels.errors.InvalidParameter` naming it."""
    _check_frame(frame, "queue")
    if isinstance(mapping, pd.Series):
        mapping = mapping.to_dict()
    if not isinstance(mapping, Mapping):
        raise InvalidType(f"mapping must be a dict from queue to site, got {mapping!r:.80}")
    mapping = {
        q: check_int(f"mapping[{q!r}]", s, minimum=0, maximum=2**62) for q, s in mapping.items()
    }
    site = frame["queue"].map(mapping)
    if site.isna().any():
        counts = frame.loc[site.isna(), "queue"].value_counts(dropna=False).to_dict()
        raise InvalidParameter(f"queues without a site (queue: jobs): {counts}")
    out = frame.copy()
    out["site"] = site.astype(np.int64)
    return out


def scale_runtimes(frame: pd.DataFrame, factor: float) -> pd.DataFrame:
    """Multiply runtimes (and requested times and estimates, if present) by ``factor``:
    Huang 2006's load factor, or the SL scaling of Shih 2013.

    ``frame`` is a DataFrame (its time columns numeric); ``factor`` a finite number > 0
    (bools and strings are refused) that keeps every scaled time finite."""
    factor = check_real("runtime factor", factor, above=0)
    _check_frame(frame)
    out = frame.copy()
    for column in ("runtime", "req_time", "estimate"):
        if column in out:
            x = _numbers(frame, column, finite=False)
            with np.errstate(over="ignore"):
                scaled = x * factor
            if np.any(np.isinf(scaled)):
                raise InvalidParameter(
                    f"runtime factor {factor!r} makes frame column {column!r} overflow"
                )
            out[column] = out[column] * factor
    out.attrs = {**frame.attrs, "runtime_factor": frame.attrs.get("runtime_factor", 1.0) * factor}
    return out


def system_loading(frame: pd.DataFrame, total_processors: int) -> float:
    """Shih 2013 Eqs. 5-6: sum(runtime x processors) / (last submit - first submit),
    divided by the system service rate (the total number of processors).

    ``total_processors`` is a whole number in [1, 2**53] (:data:`hpcmodels.bounds.MAX_PROCS`).
    Jobs of unknown runtime or processor
    count (NaN) add no work; submit times must be finite numbers, runtimes and processor
    counts finite and >= 0 (processor counts whole), never bools or strings."""
    total_processors = check_int("total_processors", total_processors, minimum=1, maximum=MAX_PROCS)
    _check_frame(frame, "submit", "runtime", "procs")
    _numbers(frame, "submit")
    _numbers(frame, "runtime", at_least=0, finite=False)
    for column in ("procs", "req_procs"):
        if column in frame:
            _numbers(frame, column, at_least=0, whole=True, finite=False)
    if len(frame) < 2:
        raise InvalidParameter("system loading needs at least two jobs")
    work = float((frame["runtime"] * processors(frame)).sum())
    duration = float(frame["submit"].max() - frame["submit"].min())
    if not duration > 0:
        raise InvalidParameter("all jobs are submitted at the same time: the loading is undefined")
    return work / duration / total_processors


def scale_to_loading(frame: pd.DataFrame, total_processors: int, target: float) -> pd.DataFrame:
    """Scale runtimes so that :func:`system_loading` equals ``target`` (Shih 2013,
    Section 4.1: e.g. B2 at medium load multiplies every runtime by 5.35).

    ``target`` is a finite number > 0; the frame's total work (sum of runtime x
    processors) must be > 0, else no runtime factor reaches the target."""
    target = check_real("target loading", target, above=0)
    original = system_loading(frame, total_processors)
    if not original > 0:
        raise InvalidParameter(
            f"the frame's total work (sum of runtime x processors) must be > 0 to scale "
            f"runtimes to a loading, got a loading of {original!r}"
        )
    out = scale_runtimes(frame, target / original)
    out.attrs["original_loading"] = original
    return out


def _last_two(cs_head, nodes, sh, rng):
    """Solve Eqs. 3-4 for the last two speeds given the first m-2; None if impossible."""
    m = nodes.size
    na, nb = float(nodes[-2]), float(nodes[-1])
    d = nodes.sum() - np.dot(cs_head, nodes[:-2]) - na - nb  # sum NP_i (cs_i - 1), last two
    q = m * sh - np.sum((cs_head - 1.0) ** 2)  # sum (cs_i - 1)^2, last two
    root = (na * na + nb * nb) * q - d * d
    if q < 0 or root < 0:
        return None
    sign = 1.0 if rng.random() < 0.5 else -1.0
    x = (d * na + sign * nb * np.sqrt(root)) / (na * na + nb * nb)
    y = (d - na * x) / nb
    return 1.0 + x, 1.0 + y


def speed_vectors(
    nodes: Sequence[int],
    sh: float,
    n_vectors: int = 10,
    seed: int | np.random.Generator = 0,
    *,
    max_tries: int = 100_000,
) -> np.ndarray:
    """Cluster speed vectors with speed heterogeneity ``sh`` (Shih 2013, Eqs. 3-4).

    ``cs_1 ... cs_(m-2)`` are drawn from a normal distribution with mean 1 and variance
    ``sh``; the last two solve ``sum (cs_i - 1)^2 / m = sh`` (Eq. 3) and
    ``sum cs_i NP_i = sum NP_i`` (Eq. 4). The quadratic has two roots; one is picked
    with probability 1/2. Our rule where the paper is silent: when the draw leaves no
    real root, or a speed is not positive, the whole vector is drawn again.
    Returns an array of shape ``(n_vectors, m)``.

    ``nodes`` are whole numbers in [1, 2**53] (at least two; any iterable, a generator is
    read once; not a string or a dict), ``n_vectors`` a whole number >= 0 (at most
    ``10**8`` numbers in all), ``max_tries`` one in [1, 10**6] (draws per vector,
    :data:`hpcmodels.bounds.MAX_ITERATIONS`), ``seed`` one in [0, 2**63 - 1] or a Generator;
    integral floats such as ``4.0`` are read as ints. Bad input is an
    ``InvalidParameter``, raised before any draw.
    """
    if isinstance(nodes, str | bytes | dict) or not isinstance(nodes, Iterable):
        raise InvalidType(f"nodes must be a sequence of processor counts, got {nodes!r}")
    counts = [
        check_int(f"nodes[{i}]", v, minimum=1, maximum=MAX_PROCS) for i, v in enumerate(nodes)
    ]
    if len(counts) < 2:
        raise InvalidParameter(f"need at least two clusters, got nodes={counts}")
    m_nodes = np.asarray(counts, dtype=float)
    m = m_nodes.size
    sh = check_real("speed heterogeneity SH", sh, at_least=0)
    n_vectors = check_int("n_vectors", n_vectors, minimum=0, maximum=10**8 // m)
    max_tries = check_int("max_tries", max_tries, minimum=1, maximum=MAX_ITERATIONS)
    rng = _rng(seed)
    if sh == 0:
        return np.ones((n_vectors, m))
    out = np.empty((n_vectors, m))
    for v in range(n_vectors):
        for _ in range(max_tries):
            head = rng.normal(1.0, np.sqrt(sh), m - 2)
            tail = _last_two(head, m_nodes, sh, rng)
            if tail is not None and min(tail) > 0 and np.all(head > 0):
                out[v] = [*head, *tail]
                break
        else:
            raise InvalidParameter(
                f"no positive speed vector with SH = {sh} for nodes {counts} "
                f"in max_tries = {max_tries} draws"
            )
    return out


def estimate_inaccuracy(
    frame: pd.DataFrame, factor: float, seed: int | np.random.Generator = 0
) -> pd.DataFrame:
    """Runtime estimates by the f-model (Shih 2013, Eqs. 7-8): with probability 1/2 an
    over-estimate ``runtime x U(1, f)``, else an under-estimate ``runtime x U(1/f, 1)``.
    The result is the ``estimate`` column; ``factor = 1`` gives exact estimates.

    ``frame`` is a DataFrame with a numeric ``runtime`` column; ``factor`` a finite
    number >= 1 small enough that every estimate stays finite; ``seed`` a whole number
    in [0, 2**63 - 1] or a Generator. Bools and strings are refused."""
    factor = check_real("inaccuracy factor", factor, at_least=1)
    _check_frame(frame, "runtime")
    runtime = _numbers(frame, "runtime", at_least=0, finite=False)
    with np.errstate(over="ignore"):
        if np.any(np.isinf(runtime * factor)):
            raise InvalidParameter(f"inaccuracy factor {factor!r} makes estimates overflow")
    rng = _rng(seed)
    n = len(frame)
    over = rng.random(n) < 0.5
    u = rng.random(n)
    multiplier = np.where(over, 1.0 + u * (factor - 1.0), 1.0 / factor + u * (1.0 - 1.0 / factor))
    out = frame.copy()
    out["estimate"] = frame["runtime"].to_numpy() * multiplier
    return out


def queue_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per queue: jobs, maximum and mean runtime, maximum and mean processors (the
    columns of Huang & Chang 2006 Table 1). ``frame`` is a DataFrame with ``queue``,
    ``runtime`` and ``procs`` columns."""
    _check_frame(frame, "queue", "runtime", "procs")
    procs = processors(frame)
    grouped = frame.assign(_procs=procs).groupby("queue")
    table = pd.DataFrame(
        {
            "jobs": grouped.size(),
            "max_runtime": grouped["runtime"].max(),
            "mean_runtime": grouped["runtime"].mean(),
            "max_procs": grouped["_procs"].max(),
            "mean_procs": grouped["_procs"].mean(),
        }
    )
    table.index = table.index.astype(np.int64)
    return table
