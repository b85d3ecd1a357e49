"""Notebook 06's common ground: one system and two workloads on which every method of
the five papers that fits them runs.

* **System**: five clusters of 128, 128, 128, 50 and 8 processors (442 in all): Shih
  2013's A2 configuration (Table 3) and Huang & Chang 2006's grid (the same sizes in
  another order). Speed heterogeneity comes from Shih's speed vectors (Eqs. 3-4) at a
  level SH; Eq. 4 keeps the total capacity at 442 processors of speed 1.
* **Workloads**: the SDSC SP2 log (the cleaned log, Shih's filter: positive runtimes
  and processor counts) and a Lublin99 stream (the model of ``shared/models``, 128
  processors at most), both scaled to a system loading (Shih's Eqs. 5-6) on the 442
  processors.
* **Origins**: where each job arrives, for the methods that run jobs locally first
  (Jones 2005's No Share and Migration Only, its modules' local step). The log's five
  queues are Huang & Chang's five sites (Table 1: queue 1 holds jobs of at most 8
  processors, queues 2-4 of 128, queue 5 of 50), so queue 2, 3, 4, 5, 1 arrive at
  clusters 0-4. A Lublin99 job arrives at a cluster it fits, drawn with probability
  proportional to the cluster's size from a stream of its own (spawned from the
  replicate's seed).
* **Replicates** (common random numbers, :mod:`hpcmodels.papers.ensemble`): replicate
  ``r`` is speed vector ``r`` of the SH level, and for the log every runtime times
  :func:`~hpcmodels.papers.ensemble.runtime_scale` of ``r`` (after the scaling to the
  loading, which would otherwise undo it), for the model the stream of seed ``r``.
  Every method of a replicate runs on the same jobs and speeds."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from ...bounds import MAX_JOBS, MAX_REPLICATES
from ...errors import check_choice, check_each, check_int, check_real
from ...multicluster import Cluster, System, as_system
from ...workloads.transforms import scale_to_loading, speed_vectors
from ..ensemble import runtime_scale
from ..shih2013.published import LOADS
from ..shih2013.workloads import missing_log_of, workload_jobs

SIZES = (128, 128, 128, 50, 8)
WORKLOADS = {"SDSC SP2": "A2", "Lublin99": "D1"}
"""Our workload name -> Shih 2013's Table 3 workload built the same way."""
MODEL_JOBS = 50_000
"""Jobs of a Lublin99 stream (Table 3's D1/D2 size)."""
SPEED_SEED = 0
ORIGIN_OF_QUEUE = {2: 0, 3: 1, 4: 2, 5: 3, 1: 4}
"""The SDSC SP2 log's queue -> the cluster of the same size (module docstring)."""


def available_workloads(workloads=tuple(WORKLOADS)) -> tuple[list[str], dict[str, str]]:
    """The ``workloads`` that can be built here, and why each other cannot (its missing
    log, named, with where to get it): a notebook runs the first and says the second.
    ``workloads`` is a sequence of names of :data:`WORKLOADS` (not one name alone)."""
    names = check_each("workloads", workloads, check_choice, list(WORKLOADS))
    missing = {w: why for w in names if (why := missing_log_of(WORKLOADS[w], None, 0)) is not None}
    return [w for w in names if w not in missing], missing


def ground_clusters(sh: float, replicate: int) -> System:
    """The five clusters with speed vector ``replicate`` of heterogeneity ``sh`` (Shih's
    Eqs. 3-4, drawn from seed 0: the same vectors for every workload and load); all
    speeds 1 at ``sh = 0``. ``replicate`` is a whole number in [0, 10**6 - 1]
    (:data:`hpcmodels.bounds.MAX_REPLICATES`: vector ``r`` is drawn after the ``r``
    before it), checked once (:func:`~hpcmodels.multicluster.as_system`) and handed down
    as it is."""
    sh = check_real("sh", sh, at_least=0)
    replicate = check_int("replicate", replicate, minimum=0, maximum=MAX_REPLICATES - 1)
    speeds = speed_vectors(SIZES, sh, replicate + 1, seed=SPEED_SEED)[replicate]
    return as_system(
        Cluster(f"c{i}", p, float(s)) for i, (p, s) in enumerate(zip(SIZES, speeds, strict=True))
    )


@lru_cache(maxsize=16)
def _scaled(workload: str, load: str, seed: int, n_jobs: int | None) -> pd.DataFrame:
    wid = WORKLOADS[workload]
    jobs = workload_jobs(wid, n_jobs=MODEL_JOBS, seed=seed).reset_index(drop=True)
    if n_jobs is not None:
        jobs = jobs.iloc[:n_jobs]
    scaled = scale_to_loading(jobs, sum(SIZES), LOADS[load])
    procs = scaled["procs"].to_numpy(np.int64)
    return pd.DataFrame(
        {
            "submit": scaled["submit"].to_numpy(),
            "runtime": scaled["runtime"].to_numpy(),
            "procs": procs,
            "origin": _origins(workload, scaled, procs, seed),
        }
    )


def _origins(workload: str, jobs: pd.DataFrame, procs: np.ndarray, seed: int) -> np.ndarray:
    """Each job's cluster of arrival (module docstring)."""
    if workload == "SDSC SP2":
        return jobs["queue"].map(ORIGIN_OF_QUEUE).to_numpy(np.int64)
    sizes = np.asarray(SIZES)
    weights = (procs[:, None] <= sizes[None, :]) * sizes[None, :]
    cumulative = np.cumsum(weights / weights.sum(axis=1, keepdims=True), axis=1)
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    u = rng.random(procs.size)
    return np.minimum((u[:, None] >= cumulative).sum(axis=1), len(SIZES) - 1).astype(np.int64)


def ground_jobs(
    workload: str, load: str, replicate: int, n_jobs: int | None = None
) -> pd.DataFrame:
    """The jobs of ``workload`` (:data:`WORKLOADS`) at the named ``load`` (Shih's
    low/medium/high system loadings 0.5/0.75/1.0 on 442 processors) for ``replicate``;
    the first ``n_jobs`` jobs (None: the whole log, or a 50,000-job stream), scaled on
    the jobs used, with their ``origin``. Estimates are the runtimes (the backfilling policies read exact
    estimates here). Shared between calls: do not modify the frame.

    ``replicate`` is a whole number in [0, 10**6 - 1] and ``n_jobs`` None or one in [2,
    10**8] (:mod:`hpcmodels.bounds`; more jobs than the workload holds means all)."""
    workload = check_choice("workload", workload, list(WORKLOADS))
    load = check_choice("load", load, list(LOADS))
    replicate = check_int("replicate", replicate, minimum=0, maximum=MAX_REPLICATES - 1)
    if n_jobs is not None:
        n_jobs = check_int("n_jobs", n_jobs, minimum=2, maximum=MAX_JOBS)
    if workload == "Lublin99":
        return _scaled(workload, load, replicate, n_jobs)
    jobs = _scaled(workload, load, 0, n_jobs)
    scale = runtime_scale(replicate)
    if scale == 1.0:
        return jobs
    out = jobs.copy()
    out["runtime"] = out["runtime"] * scale
    return out
