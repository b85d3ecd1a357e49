"""What moves the residuals (issue 53): Shih et al. 2013's unstated choices, each run as
an alternative reading on the Table 4, Table 5 and Fig. 10 cells that differ from the
paper at paper scale, paired with the default on the same replicates.

A reading changes one choice the text leaves open (or, marked so, one it settles) and
nothing else: replicate ``r`` runs the jobs, runtime scale and speed vector of Table 4's
replicate ``r`` (:func:`~.ensemble.table4_point`), so each reading's change to a cell is
a paired difference. A reading that only changes what TLA does (its look-ahead's
runtimes, its ties, its depth) runs TLA alone; BF, FF and AI2 are then the default's runs
of the same replicate. ``docs/readings.md`` lists every choice, the passage that leaves
it open and what each reading moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import InvalidParameter, check_choice, check_int, check_real
from ...multicluster import Cluster, TLAOptions, simulate
from ...workloads.archive import load_archive_log
from ...workloads.clean import positive_runtime_and_procs, processors
from ...workloads.transforms import scale_to_loading, speed_vectors
from .published import METHODS, SDSC_LOG
from .workloads import ENSEMBLE_VECTORS, clusters_of, loading_of, replicate_jobs, workload_spec


@dataclass(frozen=True)
class Reading:
    """One alternative reading of an unstated choice.

    ``label`` names it on charts; ``passage`` is the paper's text that leaves the choice
    open (or settles it); ``settled`` is True when that text argues for the default, so
    the reading is measured only to show what the choice moves and never becomes the
    default; ``tla_only`` when it changes nothing but TLA's decisions (the other methods
    keep their default runs); ``workloads`` the workload letters it applies to;
    ``heterogeneous_only`` when it changes nothing at SH = 0; ``activations`` names the
    engine's counter a reading of 'activated' reads; ``parts`` the readings a
    combination applies together (each where it applies)."""

    name: str
    label: str
    passage: str
    settled: bool
    tla_only: bool
    workloads: str = "ADE"
    heterogeneous_only: bool = False
    activations: str = ""
    parts: tuple[str, ...] = ()

    def applies(self, wid: str, sh: float) -> bool:
        """Whether the reading can change workload ``wid``'s cell at ``sh``; a reading of
        what 'activated' counts (``activations``: the engine's counter) applies to Fig.
        10's run alone (A1, high load, SH = 0; the load is checked by the cell)."""
        if self.activations:
            return (wid, sh) == ("A1", 0.0)
        if self.parts:
            return any(READINGS[part].applies(wid, sh) for part in self.parts)
        return wid[0] in self.workloads and (sh > 0 or not self.heterogeneous_only)


READINGS: dict[str, Reading] = {
    r.name: r
    for r in (
        Reading(
            "requested_times",
            "look-ahead on the log's requested times",
            "Section 2.1: 'Each submitted job needs to specify the required number of "
            "processors and the estimated running time'; Section 1: 'Section 4 presents the "
            "results of experiments which are based on precise job runtime estimation'",
            settled=True,
            tla_only=True,
            workloads="A",
        ),
        Reading(
            "ties_last",
            "equal scores: the last cluster",
            "Fig. 2 (the scoring function) takes the cluster with the best score and says "
            "nothing of equal scores; at SH = 0 every cluster of A1 and D1 is alike",
            settled=False,
            tla_only=True,
        ),
        Reading(
            "queue_reversed",
            "equal submit times: the later log line first",
            "Section 2.2: the waiting queue is FCFS; jobs submitted in the same second "
            "(189 on the SDSC SP2 log, 26 in a Lublin99 stream) have no stated order",
            settled=False,
            tla_only=False,
        ),
        Reading(
            "zero_runtimes_kept",
            "cleaning keeps zero runtimes (54,044 jobs)",
            "Table 3 prints 54,041 jobs for the SDSC SP2 log and no filter; runtime > 0 "
            "and processors > 0 leaves 54,034, runtime >= 0 leaves 54,044",
            settled=False,
            tla_only=False,
            workloads="A",
        ),
        Reading(
            "first_root",
            "speed vectors: always the first root",
            "Section 4.1: cs_(m-1) and cs_m 'are derived from Eqs. (3) and (4)'; the "
            "quadratic has two roots and the text does not say which",
            settled=False,
            tla_only=False,
            heterogeneous_only=True,
        ),
        Reading(
            "depth_160",
            "simulation depth 160",
            "Section 5: 'By default, TLA simulates the allocation of all waiting jobs'; "
            "Section 5.2: 'setting the simulation depth to 160 can yield an 80% "
            "performance improvement'",
            settled=True,
            tla_only=True,
        ),
        Reading(
            "activated_two_fit",
            "'activated': two clusters fit",
            "Section 5.2: 'there are 23952 times where TLA is activated' among 54041 jobs; "
            "'activated' is not defined. Ours: two clusters fit the job and another job "
            "waits. This reading: two clusters fit, whatever else waits",
            settled=False,
            tla_only=True,
            activations="tla_two_fit",
        ),
        Reading(
            "activated_distinct",
            "'activated': the scores differ",
            "Section 5.2 (as above). This reading: a look-ahead whose scores tell two "
            "fitting clusters apart (a decision the simulation made, not a tie)",
            settled=False,
            tla_only=True,
            activations="tla_distinct",
        ),
        Reading(
            "open_readings",
            "every open reading at once",
            "one consistent set, applied to every cell of Table 4 on the residual "
            "workloads: the other reading of each choice the text leaves open and that "
            "changes the schedule (TLA's ties, equal submits, the cleaning, the root)",
            settled=False,
            tla_only=False,
            parts=("ties_last", "queue_reversed", "zero_runtimes_kept", "first_root"),
        ),
    )
}
"""The readings run on the residual cells, by name (``docs/readings.md`` lists those the
text settles without a run, e.g. look-ahead knowledge of later arrivals)."""

READING_CELLS: tuple[tuple[str, str, float], ...] = (
    ("A1", "high", 0.0),
    ("A1", "high", 0.2),
    ("A2", "high", 0.0),
    ("A2", "high", 0.1),
    ("A2", "low", 0.0),
    ("D1", "high", 0.1),
    ("D2", "high", 0.1),
    ("D2", "high", 0.2),
    ("A1", "high", 0.1),
    ("D1", "high", 0.2),
    ("D1", "low", 0.0),
    ("E2", "high", 0.2),
)
"""(workload, load, SH) of every configuration behind a paper-scale row whose reason
ended in "cause not identified" (issue 53, the store at f59d1c5): twelve Table 4 cells
(E2's a reconstructed model); A2 high SH 0 also holds Table 5's utilizations, A1 high
SH 0 Fig. 10's counts."""
CONSISTENT_WORKLOADS = ("A1", "A2", "D1", "D2")
"""Workloads on which the consistent set (``open_readings``) runs every Table 4 cell, to
show what it does to the cells that match today as well as to the residual ones."""


def consistent_cells() -> list[tuple[str, str, float]]:
    """Every Table 4 configuration of :data:`CONSISTENT_WORKLOADS`, then the residual
    cells of other workloads (E2)."""
    from .published import LOADS, SH_LEVELS

    cells = [(w, load, sh) for w in CONSISTENT_WORKLOADS for load in LOADS for sh in SH_LEVELS]
    return cells + [c for c in READING_CELLS if c not in cells]


READING_REPLICATES = 10
"""Paired replicates per reading and cell: Table 4's replicates 0-9."""


def cells_of(reading: str) -> list[tuple[str, str, float]]:
    """The cells ``reading`` runs on: the consistent set on :func:`consistent_cells`,
    every other reading on the residual cells it applies to."""
    reading = check_choice("reading", reading, list(READINGS))
    cells = consistent_cells() if READINGS[reading].parts else READING_CELLS
    return [c for c in cells if READINGS[reading].applies(c[0], c[2])]


def _cell(wid: str, load: str, sh: float, reading: str) -> tuple[str, str, float]:
    cells = consistent_cells() if READINGS[reading].parts else READING_CELLS
    for cell in cells:
        if cell[:2] == (wid, load) and cell[2] == sh:
            return cell
    raise InvalidParameter(
        f"(wid, load, sh) = ({wid!r}, {load!r}, {sh!r}) is not a residual cell of "
        f"reading {reading!r}; choose one of {list(cells)}"
    )


def reading_key(wid: str, load: str, sh: float, reading: str, what: str) -> str:
    """The store's item key of one value under a reading."""
    return f"Readings | {wid}, {load} load, SH = {sh:g}, {reading}: {what}"


def reading_points() -> list[dict]:
    """Every (cell, reading, replicate) the readings study runs: each reading on each
    residual cell it applies to, :data:`READING_REPLICATES` replicates."""
    return [
        dict(wid=wid, load=load, sh=sh, reading=name, replicate=r)
        for name in READINGS
        for wid, load, sh in cells_of(name)
        for r in range(READING_REPLICATES)
    ]


@dataclass
class _Run:
    jobs: pd.DataFrame
    clusters: list[Cluster]
    tla: TLAOptions
    tla_reversed: bool = False  # TLA sees the clusters in reverse order (its ties go last)


def _sdsc_jobs(wid: str, load: str, replicate: int, *, zero_runtimes: bool) -> pd.DataFrame:
    """The SDSC SP2 log as Table 4's replicate sees it (cleaned, scaled to ``load``,
    runtimes x the replicate's scale), with the log's requested times as ``estimate``
    (the runtime where the log has none); ``zero_runtimes`` keeps runtime-0 jobs."""
    from ..ensemble import runtime_scale

    log = load_archive_log(SDSC_LOG)
    if zero_runtimes:
        procs = processors(log)
        keep = (log["runtime"] >= 0) & (procs > 0)
        log = log.loc[keep].assign(procs=procs[keep])
    else:
        log = positive_runtime_and_procs(log)
    log = log.reset_index(drop=True)
    scaled = scale_to_loading(log, workload_spec(wid).processors, loading_of(load))
    scale = runtime_scale(replicate)
    requested = scaled["req_time"].where(scaled["req_time"] > 0, scaled["runtime"])
    return pd.DataFrame(
        {
            "submit": scaled["submit"],
            "runtime": scaled["runtime"] * scale,
            "procs": scaled["procs"].astype(np.int64),
            "estimate": requested.fillna(scaled["runtime"]) * scale,
        }
    )


def _equal_submits_reversed(jobs: pd.DataFrame) -> pd.DataFrame:
    """``jobs`` (sorted by submit) with every run of equal submit times in reverse order."""
    submit = jobs["submit"].to_numpy()
    group = np.concatenate([[0], np.cumsum(submit[1:] != submit[:-1])])
    order = np.lexsort((-np.arange(len(jobs)), group))
    return jobs.iloc[order].reset_index(drop=True)


def first_root(vector: np.ndarray, nodes, sh: float) -> np.ndarray:
    """Speed vector ``vector`` with its last two speeds replaced by Eqs. 3-4's first
    root (``+`` in :func:`~hpcmodels.workloads.transforms.speed_vectors`' formula) for
    the same first m - 2 speeds; the vector as it is when that root has a speed <= 0
    (the draw the default kept is then the only valid one). ``vector`` and ``nodes``
    are sequences of finite numbers of one length (at least two; nodes > 0), ``sh`` a
    finite number >= 0; else an InvalidParameter naming the argument."""
    sh = check_real("sh", sh, at_least=0)
    try:
        v = np.asarray(vector, float)
        n = np.asarray(nodes, float)
    except (TypeError, ValueError):
        raise InvalidParameter("vector and nodes must be sequences of numbers") from None
    if v.ndim != 1 or v.size < 2 or not np.isfinite(v).all():
        raise InvalidParameter(f"vector must hold at least two finite speeds, got {vector!r}")
    if n.shape != v.shape or not np.isfinite(n).all() or not (n > 0).all():
        raise InvalidParameter(f"nodes must be {v.size} finite counts > 0, got {nodes!r}")
    na, nb = n[-2], n[-1]
    d = n.sum() - np.dot(v[:-2], n[:-2]) - na - nb
    q = n.size * sh - np.sum((v[:-2] - 1.0) ** 2)
    root = max((na * na + nb * nb) * q - d * d, 0.0)
    x = (d * na + nb * np.sqrt(root)) / (na * na + nb * nb)
    y = (d - na * x) / nb
    if min(1 + x, 1 + y) <= 0:
        return v
    return np.concatenate([v[:-2], [1 + x, 1 + y]])


def _reading_run(wid: str, load: str, sh: float, replicate: int, reading: str) -> _Run:
    """The jobs, clusters and TLA options of one replicate under ``reading`` (each of a
    combination's parts that applies to the cell)."""

    parts = READINGS[reading].parts or (reading,)
    names = {p for p in parts if READINGS[p].applies(wid, sh)}
    w = workload_spec(wid)
    speeds = speed_vectors(w.clusters, sh, ENSEMBLE_VECTORS, seed=0)[replicate]
    if names & {"requested_times", "zero_runtimes_kept"}:
        jobs = _sdsc_jobs(wid, load, replicate, zero_runtimes="zero_runtimes_kept" in names)
        if "requested_times" not in names:
            jobs = jobs.drop(columns="estimate")
    else:
        jobs = replicate_jobs(wid, load, replicate)
    if "queue_reversed" in names:
        jobs = _equal_submits_reversed(jobs)
    if "first_root" in names:
        speeds = first_root(speeds, w.clusters, sh)
    tla = TLAOptions(depth=160) if "depth_160" in names else TLAOptions()
    clusters = [
        Cluster(f"c{i}", p, s) for i, (p, s) in enumerate(zip(w.clusters, speeds, strict=True))
    ]
    return _Run(jobs, clusters, tla, tla_reversed="ties_last" in names)


def reading_point(wid: str, load: str, sh: float, replicate: int, reading: str) -> dict:
    """One replicate of one residual cell under ``reading``, ``{item key: value}``: the
    ATT of each method it reruns (TLA alone for a ``tla_only`` reading), and, as the
    default's point does, utilizations on A2 at SH = 0 (Table 5) and TLA's activations
    and decision changes on A1 at high load and SH = 0 (Fig. 10). A reading of
    'activated' runs the default TLA and gives only its count of activations."""
    reading = check_choice("reading", reading, list(READINGS))
    wid, load, sh = _cell(wid, load, sh, reading)
    replicate = check_int("replicate", replicate, minimum=0, maximum=READING_REPLICATES - 1)
    if not READINGS[reading].applies(wid, sh):
        raise InvalidParameter(f"reading {reading!r} does not apply to {wid} at SH = {sh:g}")
    counter = READINGS[reading].activations
    if counter:
        res = simulate(replicate_jobs(wid, load, replicate), clusters_of(wid), "fcfs", "tla")
        return {
            reading_key(wid, load, sh, reading, "TLA activations"): float(res.counters[counter])
        }
    run = _reading_run(wid, load, sh, replicate, reading)
    methods = {"TLA": "tla"} if READINGS[reading].tla_only else METHODS
    values = {}
    for method, selection in methods.items():
        tla = run.tla if method == "TLA" else None
        clusters = run.clusters[::-1] if method == "TLA" and run.tla_reversed else run.clusters
        res = simulate(run.jobs, clusters, "fcfs", selection, tla=tla)
        values[f"{method} ATT (s)"] = res.metrics["att"]
        if wid == "A2" and sh == 0:
            values[f"{method} utilization"] = res.metrics["utilization"]
        if (wid, load, sh) == ("A1", "high", 0.0) and method == "TLA":
            values["TLA activations"] = float(res.counters["tla_activations"])
            values["decisions changed against depth 1"] = float(res.counters["tla_changes"])
    return {reading_key(wid, load, sh, reading, what): v for what, v in values.items()}


__all__ = [
    "Reading",
    "READINGS",
    "READING_CELLS",
    "READING_REPLICATES",
    "CONSISTENT_WORKLOADS",
    "consistent_cells",
    "cells_of",
    "reading_key",
    "reading_points",
    "reading_point",
    "first_root",
]
