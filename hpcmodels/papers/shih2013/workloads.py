"""Shih et al. 2013, Section 4.1 and Table 3: the twelve workloads, built as the paper
describes, scaled to a system loading (Eqs. 5-6), and Table 3's rows.

Table 3 pairs twelve workloads (A1-F2) with system configurations and prints each
workload's job count and original system loading SL (Eqs. 5-6). :func:`table3` rebuilds
what can be rebuilt here and says plainly what cannot:

* A1/A2 (SDSC SP2, cleaned log, Shih's filter): job count and SL.
* B1/B2 (DAS2 fs0-fs4 merged) and C1/C2 (ANL Intrepid, C2 split at 8192 processors):
  computed when the logs are present, otherwise ``not run`` naming the missing logs.
* D1/D2 (Lublin99, 50,000 jobs): SL of the model as specified (it does not match the
  printed values; see ``shared/models/lublin99.md`` section 9).
* E1/E2 (Feitelson96): a reconstruction whose load is a parameter, so its SL is not
  comparable (verdict ``reconstructed model``).
* F1/F2 (Jann97): needs parameters fitted to the CTC SP2 1996 log; ``not run`` without it.

A sweep's worker reads each workload once (:func:`jobs_at_load`); a missing log is named
(:func:`missing_log_of`) rather than raised inside a sweep point.
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd

from ...bounds import MAX_JOBS, MAX_REPLICATES, MAX_SEED
from ...errors import InvalidParameter, check_int
from ...multicluster import Cluster
from ...workloads.archive import LogNotAvailable, is_available, load_archive_log
from ...workloads.clean import positive_runtime_and_procs, processors
from ...workloads.transforms import (
    merge_logs,
    scale_to_loading,
    split_wide_jobs,
    system_loading,
)
from ..ensemble import runtime_scale
from ..verdicts import compare_value, log_missing, not_run
from .published import ANL_LOG, CTC_LOG, DAS2_LOGS, LOADS, SDSC_LOG, TABLE3, Workload


def checked_counts(n_jobs: object, seed: object) -> tuple[int | None, int]:
    """``n_jobs`` as None or a whole number in [1, 10**8]
    (:data:`hpcmodels.bounds.MAX_JOBS`) and ``seed`` as one in [0, 2**63 - 1]: the
    counts every builder of this paper checks before it reads or draws a workload."""
    if n_jobs is not None:
        n_jobs = check_int("n_jobs", n_jobs, minimum=1, maximum=MAX_JOBS)
    return n_jobs, check_int("seed", seed, minimum=0, maximum=MAX_SEED)


def workload_jobs(wid: str, *, n_jobs: int = 50_000, seed: int = 0) -> pd.DataFrame:
    """The job list of one Table 3 workload, built as the paper describes.

    Raises :class:`LogNotAvailable` (naming the log) when a needed log is missing.
    ``n_jobs`` (the models' stream length) is a whole number in [1, 10**8] and ``seed``
    one in [0, 2**63 - 1] (:mod:`hpcmodels.bounds`), checked for every workload.
    """
    n_jobs, seed = checked_counts(n_jobs, seed)
    if n_jobs is None:
        raise InvalidParameter("n_jobs must be a whole number >= 1, got None")
    if wid in ("A1", "A2"):
        return positive_runtime_and_procs(load_archive_log(SDSC_LOG))
    if wid in ("B1", "B2"):
        missing = [name for name in DAS2_LOGS if not is_available(name)]
        if missing:
            raise LogNotAvailable(f"{', '.join(missing)} not available locally; see catalogue()")
        logs = [load_archive_log(name) for name in DAS2_LOGS]
        return positive_runtime_and_procs(merge_logs(logs))
    if wid in ("C1", "C2"):
        jobs = positive_runtime_and_procs(load_archive_log(ANL_LOG))
        return split_wide_jobs(jobs, 8192) if wid == "C2" else jobs
    if wid in ("D1", "D2"):
        from ...workloads.models.lublin99 import lublin99

        return lublin99(n_jobs, 128, seed)
    if wid in ("E1", "E2"):
        from ...workloads.models.feitelson96 import feitelson96

        return feitelson96(n_jobs, 128, seed)
    if wid in ("F1", "F2"):
        from ...workloads.models.jann97 import fit_jann97, jann97

        params = fit_jann97(load_archive_log(CTC_LOG))
        return jann97(n_jobs, 322, seed, params=params)
    raise InvalidParameter(f"unknown workload {wid!r}; Table 3 has {[w.wid for w in TABLE3]}")


def _other_log(w: Workload, jobs: pd.DataFrame) -> str:
    """How our copy of a trace differs from the paper's (A1/A2: the cleaned SDSC 4.2 log
    keeps another number of jobs after the filter)."""
    if w.wid in ("A1", "A2") and len(jobs) != int(w.jobs):
        return (
            f"the cleaned SDSC SP2 log 4.2: {len(jobs):,} jobs after the filter, "
            f"not {int(w.jobs):,}"
        )
    return ""


def _rows(w: Workload, jobs: pd.DataFrame) -> list[dict]:
    item = f"Table 3 {w.wid}"
    ours_sl = system_loading(jobs, w.processors)
    rows = []
    if w.source in ("SDSC SP2", "DAS2", "ANL Intrepid"):
        rows.append(
            compare_value(
                item,
                f"{w.source} jobs",
                w.jobs,
                float(len(jobs)),
                kind="count",
                other_input=_other_log(w, jobs),
                cause=f"{len(jobs) - int(w.jobs):+,} jobs after the filter on the "
                "log available here",
            )
        )
    if w.source == "Feitelson96":
        row = compare_value(item, "original SL", w.sl, ours_sl, kind="fraction")
        row.update(
            verdict="reconstructed model",
            reason="provisional parameters; the load is a parameter (0.5 offered "
            "load on 128 processors), so the SL is not comparable",
        )
        rows.append(row)
    else:
        cause = (
            "the model as specified gives this SL; the paper's generator or "
            "settings must have differed (shared/models/lublin99.md, section 9)"
            if w.source == "Lublin99"
            else ""
        )
        rows.append(
            compare_value(
                item,
                f"original SL on {w.processors} processors",
                w.sl,
                ours_sl,
                kind="fraction",
                other_input=_other_log(w, jobs),
                cause=cause,
            )
        )
    return rows


def table3(*, n_jobs: int = 50_000, seed: int = 0) -> pd.DataFrame:
    """Shih 2013 Table 3 as far as it can be rebuilt here: one comparison row per job
    count (logs) and per original SL, with ``not run`` rows naming missing logs.
    ``n_jobs`` and ``seed`` as :func:`workload_jobs` takes them."""
    n_jobs, seed = checked_counts(n_jobs, seed)
    if n_jobs is None:
        raise InvalidParameter("n_jobs must be a whole number >= 1, got None")
    rows = []
    for w in TABLE3:
        try:
            jobs = workload_jobs(w.wid, n_jobs=n_jobs, seed=seed)
        except LogNotAvailable as err:
            rows.append(not_run(f"Table 3 {w.wid}", f"{w.source} workload", w.sl, log_missing(err)))
            continue
        rows += _rows(w, jobs)
    frame = pd.DataFrame(rows)
    frame.insert(0, "workload", frame["item"].str.split().str[-1])
    return frame


def loading_of(name: str) -> float:
    """The system loading of a Section 4 load level, by name."""
    if name not in LOADS:
        raise InvalidParameter(f"unknown load {name!r}; choose one of {list(LOADS)}")
    return LOADS[name]


def workload_spec(wid: str) -> Workload:
    """Table 3's row of workload ``wid``."""
    for w in TABLE3:
        if w.wid == wid:
            return w
    raise InvalidParameter(f"unknown workload {wid!r}; Table 3 has {[w.wid for w in TABLE3]}")


def scaled_jobs(wid: str, load: float, *, n_jobs: int | None = None, seed: int = 0):
    """Workload ``wid`` (first ``n_jobs`` jobs when given) with runtimes scaled to the
    system loading ``load`` on its Table 3 system (Eqs. 5-6, computed on the jobs used).
    ``n_jobs`` is None or a whole number in [1, 10**8], ``seed`` one in [0, 2**63 - 1]."""
    n_jobs, seed = checked_counts(n_jobs, seed)
    jobs = workload_jobs(wid, n_jobs=n_jobs or 50_000, seed=seed).reset_index(drop=True)
    if n_jobs is not None:
        jobs = jobs.iloc[:n_jobs]
    scaled = scale_to_loading(jobs, workload_spec(wid).processors, load)
    return pd.DataFrame(
        {"submit": scaled["submit"], "runtime": scaled["runtime"], "procs": processors(scaled)}
    )


@lru_cache(maxsize=8)
def jobs_at_load(wid: str, load: str, n_jobs: int | None, seed: int) -> pd.DataFrame:
    """:func:`scaled_jobs` at a named load, kept per process: a sweep's worker reads each
    workload once for all its points (shared: do not modify)."""
    return scaled_jobs(wid, loading_of(load), n_jobs=n_jobs, seed=seed)


def _logs(wid: str) -> tuple[str, ...]:
    """The archive logs workload ``wid`` is built from (none for the models)."""
    return {"A": (SDSC_LOG,), "B": DAS2_LOGS, "C": (ANL_LOG,), "F": (CTC_LOG,)}.get(wid[0], ())


def missing_log_of(wid: str, n_jobs: int | None, seed: int) -> str | None:
    """Why workload ``wid`` cannot be built here (its missing log, named), or None. A
    present log is not read; an absent one is asked for as a run would (a download
    where allowed), once, here rather than in every sweep point."""
    if all(is_available(name) for name in _logs(wid)):
        return None
    try:
        workload_jobs(wid, n_jobs=n_jobs or 50_000, seed=seed)
    except LogNotAvailable as err:
        return log_missing(err).removeprefix("log missing: ")
    return None


def missing_study(wid: str, n_jobs: int | None, seed: int = 0) -> pd.DataFrame | None:
    """An empty study frame whose ``attrs["missing"]`` says which log workload ``wid``
    lacks here, or None when it can be built: the studies return it instead of failing,
    and their rows functions turn it into ``not run`` rows."""
    missing = missing_log_of(wid, n_jobs, seed)
    if missing is None:
        return None
    frame = pd.DataFrame()
    frame.attrs["missing"] = f"log missing: {missing}"
    return frame


def clusters_of(wid: str) -> list[Cluster]:
    return [Cluster(f"c{i}", p) for i, p in enumerate(workload_spec(wid).clusters)]


ENSEMBLE_VECTORS = 20
"""Replicates per (workload, load, SH): issue 24 asks for at least 20 speed vectors per
SH level where the paper averages 10; the first ten are the quick run's ten vectors."""
ENSEMBLE_JOBS = {"D": 50_000, "E": 50_000, "F": 50_000}
"""Jobs of the model workloads (Table 3); the traces (A, B, C) run whole."""


def is_trace(wid: str) -> bool:
    """Whether workload ``wid`` is a log (A-C), run whole at paper scale."""
    return wid[0] not in ENSEMBLE_JOBS


def replicate_jobs(wid: str, load: str, replicate: int) -> pd.DataFrame:
    """The jobs of one paper-scale replicate (:mod:`hpcmodels.papers.ensemble`): a trace (A-C)
    whole, scaled to ``load``, with every runtime multiplied by
    :func:`~hpcmodels.papers.ensemble.runtime_scale` of ``replicate`` (1 for replicate 0); a
    model (D-F) drawn with seed ``replicate`` (50,000 jobs), scaled to ``load``.
    ``replicate`` is a whole number in [0, 10**6 - 1]
    (:data:`hpcmodels.bounds.MAX_REPLICATES`)."""
    workload_spec(wid)
    loading_of(load)
    replicate = check_int("replicate", replicate, minimum=0, maximum=MAX_REPLICATES - 1)
    if not is_trace(wid):
        return jobs_at_load(wid, load, ENSEMBLE_JOBS[wid[0]], replicate)
    jobs = jobs_at_load(wid, load, None, 0).copy()
    jobs["runtime"] = jobs["runtime"] * runtime_scale(replicate)
    return jobs
