"""Notebook 06 at full scale: its three sweeps on the whole SDSC SP2 log and 50,000-job
Lublin99 streams, ten paired replicates per setting, in the paper-scale store
(:mod:`hpcmodels.papers.store`; ``python -m hpcmodels reproduce --full 06``).

The sweeps are the notebook's at its default levels (:data:`SWEEPS`): every allocation
method under FCFS at the three SH levels; the allocators under EASY and conservative
backfilling at SH 0.1; every co-allocation method under FCFS and FPFS at SH 0.1 and
BSBW 200, 500 and 800 Mbps; each at Shih's three loads. A stored point is one replicate
of one setting and selection of one sweep: every method's run on the same jobs and
clusters (:func:`~.compare.ground_point`, common random numbers). Its items are
``"<workload> | <load> | SH <sh> | BSBW <bsbw> | <selection> | <method> | <metric>"`` for
the metrics of :data:`~.methods.METRICS`, the utilization and the share co-allocated;
the run's wall time is not stored (a timing is no result: recomputed, it moves).

There is no paper to judge here, so the store gives findings, not verdicts:
:func:`ensemble_findings` carries each paper's claims to the common ground
(:func:`~.findings.carried_claims`) on the stored runs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from ...bounds import MAX_REPLICATES
from ...errors import InvalidParameter, InvalidType, check_choice, check_frame, check_int
from ..shih2013.published import LOADS, SH_LEVELS
from .compare import JONES_BSBW, SETTING, ground_point
from .findings import carried_claims
from .ground import WORKLOADS
from .methods import GROUPS, METHODS, METRICS

__all__ = [
    "FULL_REPLICATES",
    "SWEEPS",
    "Sweep",
    "ensemble_cost",
    "ensemble_findings",
    "ensemble_point",
    "ensemble_points",
    "ensemble_runs",
]

FULL_REPLICATES = 10
STORED = (*METRICS, "utilization", "coallocated")
"""The measures stored per method and point (not ``seconds_per_job``: a timing)."""


@dataclass(frozen=True)
class Sweep:
    """One of notebook 06's sweeps: its methods, selections, SH and BSBW levels (every
    load of Shih's three)."""

    methods: tuple[str, ...]
    selections: tuple[str, ...]
    shs: tuple[float, ...]
    bsbws: tuple[float, ...]


ALLOCATORS = tuple(m for m in GROUPS["allocation"] if METHODS[m].kind == "allocator")
SWEEPS = {
    "allocation": Sweep(tuple(GROUPS["allocation"]), ("FCFS",), SH_LEVELS, (JONES_BSBW,)),
    "backfilling": Sweep(ALLOCATORS, ("EASY", "Conservative"), (0.1,), (JONES_BSBW,)),
    "co-allocation": Sweep(
        tuple(GROUPS["co-allocation"]), ("FCFS", "FPFS"), (0.1,), (200.0, 500.0, 800.0)
    ),
}
_SEP = " | "


def _setting_key(workload: str, load: str, sh: float, bsbw: float, selection: str) -> str:
    return _SEP.join([workload, load, f"SH {sh:g}", f"BSBW {bsbw:g}", selection])


def ensemble_points(replicates: int = FULL_REPLICATES) -> list[dict]:
    """Every (sweep, workload, load, SH, BSBW, selection, replicate) of :data:`SWEEPS`,
    both workloads, Shih's three loads (module docstring). ``replicates`` is a whole
    number in [2, 10**6] (:data:`hpcmodels.bounds.MAX_REPLICATES`)."""
    replicates = check_int("replicates", replicates, minimum=2, maximum=MAX_REPLICATES)
    return [
        dict(
            sweep=name, workload=w, load=ld, sh=float(s), bsbw=float(b), selection=sel, replicate=r
        )
        for name, sweep in SWEEPS.items()
        for w in WORKLOADS
        for ld in LOADS
        for s in sweep.shs
        for b in sweep.bsbws
        for sel in sweep.selections
        for r in range(replicates)
    ]


def ensemble_point(
    sweep: str, workload: str, load: str, sh: float, bsbw: float, selection: str, replicate: int
) -> dict[str, float]:
    """One stored point: every method of ``sweep`` on the whole workload (the log, or a
    50,000-job stream) at this setting and replicate, ``{item: value}`` (module
    docstring). ``replicate`` is a whole number in [0, 10**6 - 1]."""
    methods = SWEEPS[check_choice("sweep", sweep, list(SWEEPS))].methods
    replicate = check_int("replicate", replicate, minimum=0, maximum=MAX_REPLICATES - 1)
    run = ground_point(workload, load, sh, replicate, selection, methods, None, bsbw)
    prefix = _setting_key(workload, load, sh, bsbw, selection)
    return {
        _SEP.join([prefix, key]): value
        for key, value in run.items()
        if key.rsplit(_SEP, 1)[1] in STORED
    }


_SWEEP_COST = {
    ("allocation", "FCFS"): 10.0,
    ("backfilling", "EASY"): 2.0,
    ("backfilling", "Conservative"): 60.0,
    ("co-allocation", "FCFS"): 1.0,
    ("co-allocation", "FPFS"): 8.0,
}
_LOAD_COST = {"low": 0.3, "medium": 0.6, "high": 1.0}


def ensemble_cost(point: dict) -> float:
    """Rough relative cost of a point (seconds on this machine at high load, whole
    workloads): for the store's recomputation check, which takes the cheapest. ``point``
    is a dict of :func:`ensemble_points` (its ``sweep``, ``workload``, ``load`` and a
    ``selection`` of that sweep are read)."""
    if not isinstance(point, Mapping):
        raise InvalidType(f"point must be a dict of ensemble_points, got {point!r:.80}")
    missing = [k for k in ("sweep", "workload", "load", "selection") if k not in point]
    if missing:
        raise InvalidParameter(
            f"point lacks {missing}: a dict of ensemble_points, got {point!r:.80}"
        )
    sweep = check_choice("point['sweep']", point["sweep"], list(SWEEPS))
    selection = check_choice("point['selection']", point["selection"], SWEEPS[sweep].selections)
    load = check_choice("point['load']", point["load"], list(_LOAD_COST))
    workload = check_choice("point['workload']", point["workload"], list(WORKLOADS))
    factor = 1.5 if workload == "SDSC SP2" else 1.0  # needs the log, and slower
    return _SWEEP_COST[sweep, selection] * _LOAD_COST[load] * factor


def ensemble_runs(store: pd.DataFrame) -> pd.DataFrame:
    """The stored runs as :func:`~.compare.ground_runs` gives them: one row per (setting,
    selection, replicate, method) with the stored measures as columns (and ``sweep``).
    ``store`` is notebook 06's store (:func:`hpcmodels.papers.store.read_store`): a
    non-empty DataFrame whose ``item`` column holds text of the form
    ``"<setting> | <method> | <metric>"`` and ``value`` numbers, one row per item and
    replicate."""
    check_frame(
        "store",
        store,
        ["item", "sweep", *SETTING, "selection", "replicate"],
        numeric=["value"],
        finite=False,
        unique=["item", "replicate"],
    )
    if store.empty:
        raise InvalidParameter("store is empty: run reproduce --full 06 first")
    if not store["item"].map(lambda item: isinstance(item, str)).all():
        raise InvalidType("store column 'item' must hold text ('<setting> | <method> | <metric>')")
    parts = store["item"].str.rsplit(_SEP, n=2, expand=True)
    if parts.shape[1] != 3 or parts.isna().any().any():
        raise InvalidParameter("store has items that are not '<setting> | <method> | <metric>'")
    frame = store.assign(method=parts[1], measure=parts[2])
    keys = ["sweep", *SETTING, "selection", "replicate", "method"]
    wide = frame.pivot_table(index=keys, columns="measure", values="value", sort=False)
    runs = wide.reset_index().rename_axis(columns=None)
    order = {load: k for k, load in enumerate(LOADS)}  # low, medium, high, as the notebook
    return runs.sort_values("load", key=lambda c: c.map(order), kind="stable", ignore_index=True)


def ensemble_findings(store: pd.DataFrame) -> pd.DataFrame:
    """Each paper's claims carried to the common ground (:func:`~.findings.carried_claims`),
    judged on the stored full-scale runs; the FCFS rows of the backfilling comparison come
    from the allocation sweep, as in the notebook."""
    return carried_claims(ensemble_runs(store))
