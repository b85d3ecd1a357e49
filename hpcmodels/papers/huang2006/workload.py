"""Huang & Chang 2006, Section 2: the SDSC SP2 jobs the tables run on (the full log
when present, else the cleaned one), Table 1's per-queue characteristics and Section
2's totals as report rows, and what the cleaning removed (:func:`cleaning_effect`)."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ...errors import LogNotAvailable, check_bool
from ...workloads.archive import is_available, load_archive_log
from ...workloads.clean import completed_only
from ...workloads.transforms import queue_summary
from ..verdicts import compare_value, log_missing, missing_frame, missing_of, not_run
from .published import (
    CLEANED_LOG,
    FULL_LOG,
    LOG_RECORDS,
    TABLE1,
    TOTAL_JOBS,
)


@functools.lru_cache(maxsize=2)
def completed_jobs(log: str) -> pd.DataFrame:
    """The completed jobs (status 1) of ``log``, read once per process;
    ``attrs["records"]`` is the number of records of the log."""
    frame = load_archive_log(log)
    jobs = completed_only(frame)
    jobs.attrs["records"] = len(frame)
    return jobs


def load_jobs(prefer_full: bool = True) -> tuple[pd.DataFrame, str]:
    """The completed SDSC SP2 jobs (status 1) and the name of the log used: the full
    log when present (as the paper), otherwise the cleaned one. ``jobs.attrs["records"]``
    is the number of records of the log read. The tables' runs take the log's name
    (:func:`policies_by_load`, :func:`allocation_runs`).

    Without either log (and no download allowed or possible) the jobs are an empty
    frame whose ``attrs["missing"]`` names the log and how to get it
    (:func:`~hpcmodels.papers.verdicts.missing_frame`): every function below then returns
    an empty frame or ``not run`` rows carrying that sentence, so the notebook runs to
    its end and the report says what was not run. ``prefer_full`` is a bool."""
    prefer_full = check_bool("prefer_full", prefer_full)
    name = FULL_LOG if prefer_full and is_available(FULL_LOG) else CLEANED_LOG
    if (missing := missing_log(name)) is not None:
        return missing, name
    return completed_jobs(name).copy(), name


def missing_log(log: str) -> pd.DataFrame | None:
    """:func:`~hpcmodels.papers.verdicts.missing_frame` naming ``log`` when it cannot be
    read here (after a download where one is allowed), else None."""
    try:
        completed_jobs(log)
    except LogNotAvailable as err:
        return missing_frame(log_missing(err))
    return None


def not_run_rows(items: Sequence[str], reason: str, quantity: str = "every cell") -> list[dict]:
    """One ``not run`` row per item, naming what is missing."""
    return [not_run(item, quantity, "", reason) for item in items]


def other_input_of(log: str) -> str:
    """How our input differs from the paper's ("" on the full log)."""
    if log == FULL_LOG:
        return ""
    return f"the cleaned log {log} (queues 3 and 4 short of jobs: Table 1)"


def _removed_by_filters(attrs: Mapping) -> int | None:
    """Records the log's header says its cleaning filters removed ("(N jobs removed)")."""
    counts = [
        int(m.group(1))
        for line in attrs.get("comments", [])
        for m in re.finditer(r"\((\d+) jobs removed\)", str(line))
    ]
    return sum(counts) if counts else None


def cleaning_effect(jobs: pd.DataFrame) -> pd.DataFrame:
    """Per queue (and in all): the paper's completed jobs (Table 1), ours, the jobs
    missing from ours, and what the missing jobs were like, from Table 1's row and ours:
    their mean runtime ``(N_paper mean_paper - N_ours mean_ours) / missing`` and the
    range of their mean width (the paper truncates its mean processors, so the range
    spans its last printed unit); ``missing_runtime_share``: their part of the queue's
    total runtime. ``count_ratio`` (in the "all" row) is paper jobs / our jobs: the
    ours/paper ratio of every mean over jobs if the missing jobs had waited nothing and
    delayed no one."""
    if missing_of(jobs):
        return jobs
    ours = queue_summary(jobs).loc[list(TABLE1.index)]
    paper = TABLE1.astype(float)
    missing = paper["jobs"] - ours["jobs"]
    paper_runtime = paper["jobs"] * paper["mean_runtime"]
    missing_runtime = paper_runtime - ours["jobs"] * ours["mean_runtime"]
    procs_low = paper["jobs"] * paper["mean_procs"] - ours["jobs"] * ours["mean_procs"]
    procs_high = procs_low + paper["jobs"]  # the printed mean is truncated to a whole
    with np.errstate(divide="ignore", invalid="ignore"):
        frame = pd.DataFrame(
            {
                "paper_jobs": paper["jobs"].astype(int),
                "our_jobs": ours["jobs"].astype(int),
                "missing": missing.astype(int),
                "paper_mean_runtime": paper["mean_runtime"],
                "our_mean_runtime": ours["mean_runtime"],
                "missing_mean_runtime": (missing_runtime / missing).where(missing > 0),
                "missing_runtime_share": missing_runtime / paper_runtime,
                "our_mean_procs": ours["mean_procs"],
                "missing_mean_procs_from": (procs_low / missing).where(missing > 0).clip(lower=1),
                "missing_mean_procs_to": (procs_high / missing).where(missing > 0),
            }
        )
    total = {
        "paper_jobs": TOTAL_JOBS,
        "our_jobs": len(jobs),
        "missing": TOTAL_JOBS - len(jobs),
        "missing_runtime_share": missing_runtime.sum() / paper_runtime.sum(),
        "count_ratio": TOTAL_JOBS / len(jobs),
    }
    frame["count_ratio"] = np.nan
    frame.loc["all"] = pd.Series(total)
    frame.index.name = "queue"
    return frame


def _int(value: float) -> str:
    return f"{value:,.0f}"


def table1(jobs: pd.DataFrame, log: str) -> pd.DataFrame:
    """Table 1: per-queue workload characteristics (the paper truncates decimals). A
    queue whose completed jobs number as in the paper is the paper's input (the cleaning
    removed none of its jobs); a queue short of jobs is another input, and its differing
    cells say what the missing jobs were like (:func:`cleaning_effect`)."""
    if reason := missing_of(jobs):
        return pd.DataFrame(not_run_rows(["Table 1"], reason))
    ours = queue_summary(jobs).loc[list(TABLE1.index)]
    effect = cleaning_effect(jobs)
    rows = []
    for q in TABLE1.index:
        e = effect.loc[q]
        complete = e["missing"] == 0
        other = "" if complete else other_input_of(log)
        note = "" if complete else f"queue {q} lacks {_int(e['missing'])} of the paper's jobs"
        causes = {
            "jobs": f"the cleaning removed {_int(e['missing'])} completed jobs of queue {q}",
            "mean_runtime": (
                f"the {_int(e['missing'])} missing jobs averaged "
                f"{e['missing_mean_runtime']:,.0f} s (Table 1 and ours) against "
                f"{e['our_mean_runtime']:,.0f} s for the jobs kept"
            ),
            "mean_procs": (
                f"the missing jobs averaged {e['missing_mean_procs_from']:.1f} to "
                f"{e['missing_mean_procs_to']:.1f} processors (the paper's mean is "
                f"truncated) against {e['our_mean_procs']:.2f} kept"
            ),
        }
        for col in TABLE1.columns:
            value = float(ours.loc[q, col])
            if col in ("mean_runtime", "mean_procs"):  # printed truncated
                digits = len(str(TABLE1.loc[q, col]).partition(".")[2])
                value = math.floor(value * 10**digits) / 10**digits
            rows.append(
                compare_value(
                    "Table 1",
                    f"queue {q} {col}",
                    str(TABLE1.loc[q, col]),
                    value,
                    kind="count",
                    other_input=other,
                    note=note,
                    cause=causes.get(col, ""),
                )
            )
    return pd.DataFrame(rows)


def totals_rows(jobs: pd.DataFrame, log: str) -> list[dict]:
    """Section 2's totals: the log's 73,496 records and the 56,490 completed jobs used,
    against the log read here (its record count, ``jobs.attrs["records"]``, and its
    completed jobs)."""
    if reason := missing_of(jobs):
        return not_run_rows(["Section 2"], reason, "records and completed jobs")
    other = other_input_of(log)
    records = jobs.attrs.get("records")
    effect = cleaning_effect(jobs)
    rows = []
    if records is not None:
        removed = _removed_by_filters(jobs.attrs)
        cause = f"the log read holds {_int(records)} records"
        if removed is not None:
            cause += (
                f"; its header lists cleaning filters that removed {_int(removed)} "
                f"({_int(records)} + {_int(removed)} = {_int(records + removed)})"
            )
        rows.append(
            compare_value(
                "Section 2",
                "records in the SDSC SP2 log",
                LOG_RECORDS,
                float(records),
                kind="count",
                other_input=other,
                cause=cause,
            )
        )
    short = effect.drop(index="all")
    short = short[short["missing"] > 0]
    per_queue = ", ".join(f"queue {q}: {_int(n)}" for q, n in short["missing"].items())
    rows.append(
        compare_value(
            "Table 1",
            "total completed jobs",
            TOTAL_JOBS,
            float(len(jobs)),
            kind="count",
            other_input=other,
            cause=f"{_int(TOTAL_JOBS - len(jobs))} completed jobs missing "
            f"({per_queue}); the other queues are complete",
        )
    )
    return rows
