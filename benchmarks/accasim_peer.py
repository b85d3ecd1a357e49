"""AccaSim (PyPI ``accasim`` 1.1.3, 2021) as the peer simulator of ``bench_engine.py``.

AccaSim runs as published; nothing in its source is changed. Three things are needed to
run it here:

* Python >= 3.10 removed ``collections.Mapping``, which ``accasim.utils.misc`` imports
  (``from collections import Mapping``; the import fails with ``ImportError: cannot
  import name 'Mapping' from 'collections'``). :func:`load` puts the alias back
  (``collections.Mapping = collections.abc.Mapping``) before importing accasim.
* AccaSim reads a plain-text SWF file (not gzip) line by line while it simulates:
  :func:`write_workload` writes the jobs to be simulated with submit time (field 2),
  run time (field 4), processors in both field 5 and field 8 (AccaSim takes field 8,
  "requested processors", when it is not -1, else field 5), the run time again as the
  requested time (field 9, AccaSim's ``expected_duration``: the estimate its backfilling
  uses), status 1 and every other field -1.
* The system is a JSON file (:func:`write_system`): one node group of ``procs`` cores.
  AccaSim turns a job of ``p`` processors into ``p`` requests of one core each that may
  share a node, so one node of ``procs`` cores and ``procs`` nodes of one core give the
  same schedules; one node is the faster of the two for AccaSim (its first-fit loop and
  its availability snapshot go over the nodes).

All of AccaSim's output files (dispatching plan, pretty print, statistics, benchmark)
are switched off and its results folder is a temporary directory; its log level is
ERROR. The mean wait is AccaSim's own: the mean of ``EventManager.wtimes``, one
``start_time - queued_time`` per finished job (the "Avg. waiting times" of its
statistics output).
"""

from __future__ import annotations

import collections
import collections.abc
import json
import logging
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd

# AccaSim dispatchers used for each case of bench_engine.py: (description, factory).
# The factories are filled in by load(), once accasim is importable.
DISPATCHERS: dict[str, tuple[str, object]] = {}


@dataclass
class PeerResult:
    seconds: float  # Simulator construction + start_simulation, time.perf_counter
    mean_wait: float  # mean of AccaSim's per-job start_time - queued_time
    finished: int  # jobs that finished (len of AccaSim's wtimes)
    loaded: int  # jobs AccaSim read from the workload file
    rejected: int  # jobs its dispatcher rejected (too large for the system)
    dispatcher: str  # AccaSim's own id of the dispatcher


def version() -> str | None:
    """The installed accasim version, or None."""
    try:
        return metadata.version("accasim")
    except metadata.PackageNotFoundError:
        return None


def load() -> str | None:
    """Import accasim (with the ``collections.Mapping`` shim) and fill DISPATCHERS.

    Returns None when it worked, otherwise the reason it did not (for the table)."""
    if version() is None:
        return "accasim not installed (pip install accasim==1.1.3)"
    if not hasattr(collections, "Mapping"):  # removed in Python 3.10; accasim imports it
        collections.Mapping = collections.abc.Mapping  # type: ignore[attr-defined]
    try:
        from accasim.base.allocator_class import FirstFit
        from accasim.base.scheduler_class import (
            EASYBackfilling,
            FirstInFirstOut,
            ShortestJobFirst,
            SimpleHeuristic,
        )
    except Exception as exc:  # report the exact failure instead of crashing the benchmark
        return f"accasim import failed: {type(exc).__name__}: {exc}"

    class SmallestFirst(SimpleHeuristic):
        """AccaSim's SimpleHeuristic sorted by requested cores, then arrival time.

        AccaSim 1.1.3 has no smallest-first policy (its SJF sorts by requested *time*);
        this is the way its documentation says to add one: a sorting key for
        SimpleHeuristic. Python's sort is stable, so equal keys keep queue order."""

        name = "SMALLEST"
        sorting_arguments = {"key": lambda job: (job.core, job.queued_time)}

        def __init__(self, allocator, seed=0, **kwargs):
            SimpleHeuristic.__init__(
                self, seed, allocator, self.name, self.sorting_arguments, **kwargs
            )

    DISPATCHERS.clear()
    DISPATCHERS.update(
        {
            # strict FCFS: FirstFit stops at the first job that does not fit (skip=False)
            "fcfs": ("FIFO + FirstFit", lambda: FirstInFirstOut(FirstFit())),
            # one pass in (cores, arrival) order, starting every job that fits
            "smallest_first": (
                "SimpleHeuristic(key=cores) + FirstFit, skip",
                lambda: SmallestFirst(FirstFit(), skip_jobs_on_allocation=True),
            ),
            # built in: sorts by requested time (= run time here), strict like FIFO
            "sjf": ("SJF + FirstFit", lambda: ShortestJobFirst(FirstFit())),
            "easy": ("EASYBackfilling + FirstFit", lambda: EASYBackfilling(FirstFit())),
            # FIFO order, but every job that fits starts (no blocking head)
            "first_available": (
                "FIFO + FirstFit, skip",
                lambda: FirstInFirstOut(FirstFit(), skip_jobs_on_allocation=True),
            ),
        }
    )
    return None


def write_workload(jobs: pd.DataFrame, path: str | Path) -> Path:
    """Write ``jobs`` (columns submit, runtime, procs; optional estimate) as the plain
    SWF file AccaSim reads. Jobs keep their order; they are numbered 1..n."""
    from hpcmodels.workloads import swf_frame, write_swf

    submit = jobs["submit"].to_numpy(dtype=float)
    if np.any(np.diff(submit) < 0):
        raise ValueError("AccaSim needs jobs sorted by submit time")
    runtime = jobs["runtime"].to_numpy(dtype=float)
    procs = jobs["procs"].to_numpy(dtype=float)
    estimate = jobs["estimate"].to_numpy(dtype=float) if "estimate" in jobs else runtime
    frame = swf_frame(
        submit=submit,
        runtime=runtime,
        procs=procs,
        req_procs=procs,
        req_time=estimate,
        status=np.ones(len(jobs)),
    )
    return write_swf(frame, path)


def write_system(path: str | Path, procs: int, nodes: int = 1, start_time: int = 0) -> Path:
    """AccaSim system config: ``nodes`` nodes of ``procs // nodes`` cores, one group.

    ``start_time`` is added by AccaSim to every submit time (its DefaultTweaker)."""
    if procs % nodes:
        raise ValueError("procs must be a multiple of nodes")
    config = {
        "groups": {"cluster": {"core": procs // nodes}},
        "resources": {"cluster": nodes},
        "start_time": start_time,
    }
    path = Path(path)
    path.write_text(json.dumps(config))
    return path


def run(case: str, workload: str | Path, system: str | Path, results_dir: str | Path) -> PeerResult:
    """Simulate ``workload`` on ``system`` with the AccaSim dispatcher of ``case``, once."""
    from accasim.base.simulator_class import Simulator
    from accasim.utils.misc import CONSTANT

    _, make_dispatcher = DISPATCHERS[case]
    dispatcher = make_dispatcher()
    t0 = time.perf_counter()
    try:
        sim = Simulator(
            str(workload),
            str(system),
            dispatcher,
            RESULTS_FOLDER_PATH=str(results_dir),
            LOG_LEVEL="ERROR",
            scheduling_output=False,
            pprint_output=False,
            benchmark_output=False,
            statistics_output=False,
            show_statistics=False,
        )
        sim.start_simulation()
        seconds = time.perf_counter() - t0
    finally:
        # AccaSim keeps its settings in a process-wide singleton and adds one logging
        # handler per Simulator: clear both so the next run starts clean.
        CONSTANT().clean_constants()
        logging.getLogger("accasim").handlers.clear()
    waits = np.asarray(sim.mapper.wtimes, dtype=float)
    return PeerResult(
        seconds=seconds,
        mean_wait=float(waits.mean()) if waits.size else float("nan"),
        finished=int(waits.size),
        loaded=int(sim.loaded_jobs),
        rejected=int(sim.rejected_jobs),
        dispatcher=str(dispatcher),
    )
