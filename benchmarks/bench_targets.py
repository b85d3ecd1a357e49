"""The speed and memory targets in one run, one table (issues 24 and 55).

Issue 55's targets:

* Conservative backfilling under overload with requested times 1-3x the run time
  (``bench_engine.conservative_overload``): nanoseconds per moved reservation (the run's
  CPU time over ``Result.counters["reservations_moved"]``, target <= 100 ns) and 20,000
  jobs in < 3 s, on one cluster of 128 and on 4 x 64 at speeds 0.5/1/1.5/2; the 10^5-job
  row (no target) with ``--conservative-1e5``.
* The state-layout experiment (``state_layout``): the Migration Only loop over the
  ``State`` record and over plain arrays, and the engine's loop, each against the plain
  reference (target <= 1.3x, for a layout the engine could adopt).
* ``tla_scores``, one decision with 1,000 waiting and 100 running jobs on 5 clusters
  (``bench_tla.public_seconds``; target <= 1 ms), from lists of records and from frames.
* Peak bytes per job of Jones's 8-cluster Section 4 runs (``bench_memory``; target <= 150)
  at 10^6 jobs, and at 3.2 x 10^7 with ``--full-memory``.
* The full compile of the kernels on an empty cache (``bench_compile``; target < 90 s).

Issue 24's, kept: Jones's Section 6.1 Migration Only point against the plain reference
loop (<= 1.0x CPU) and each co-allocating module against Migration Only (<= 2x), and TLA
on the whole A1 trace at high load (< 10 s).

Each row comes from the benchmark that owns it (the same functions, so the numbers agree
with ``make bench``). CPU seconds for Jones and conservative (``process_time``: other
load on the machine does not inflate them), wall seconds for the others.

Run: ``python benchmarks/bench_targets.py`` (about 15 minutes here: the full compile
alone takes 3-4); ``--quick`` runs Jones at 100,000 jobs per cluster, one conservative row
and no compile.
"""

from __future__ import annotations

import argparse
import platform
import time

import numba
import numpy as np
import pandas as pd
from bench_bandwidth import run_table
from bench_compile import compile_table
from bench_engine import OVERLOAD_SYSTEMS, conservative_overload
from bench_memory import memory_table
from bench_tla import public_seconds, whole_trace_table
from state_layout import TARGET as LAYOUT_TARGET
from state_layout import experiment as layout_experiment

from hpcmodels.bandwidth import SECTION6
from hpcmodels.multicluster import simulate

from timing import median_time

MOVE_TARGET_NS = 100.0
CONSERVATIVE_TARGET_S = 3.0


def jones_rows(jobs_per_cluster: int) -> list[dict]:
    table = run_table(jobs_per_cluster)
    keep = (table["target"] != "-") | table["run"].str.contains("loop alone")
    return [
        {
            "target of": f"Jones, {jobs_per_cluster:,} jobs per cluster",
            "run": r["run"],
            "measured": f"{r['CPU (s)']} s CPU, {r['ratio']}",
            "target": r["target"],
            "met": r["met"],
        }
        for _, r in table[keep].iterrows()
    ]


def conservative_rows(quick: bool, big: bool) -> list[dict]:
    """Per moved reservation and per run, 20,000 jobs on each overload system (the first
    only with ``quick``), 10^5 on one cluster with ``big``."""
    cases = [(20_000, system) for system in OVERLOAD_SYSTEMS]
    cases = cases[:1] if quick else cases + ([(100_000, "1 x 128")] if big else [])
    rows = []
    for n, system in cases:
        frame, clusters = (
            conservative_overload(n, OVERLOAD_SYSTEMS[system]),
            OVERLOAD_SYSTEMS[system],
        )
        seconds, res = median_time(
            lambda f=frame, c=clusters: simulate(f, c, "conservative", "first_fit"),
            1 if quick or n > 20_000 else 3,
            clock=time.process_time,
            warmup=lambda f=frame, c=clusters: simulate(f.iloc[:500], c, "conservative"),
        )
        moves = res.counters.get("reservations_moved")
        run = f"{n:,} jobs, {system}"
        if moves is None:
            per_move = "no move counter"
        else:
            per_move = f"{seconds / max(moves, 1) * 1e9:.0f} ns ({moves:,} moves)"
        rows.append(
            {
                "target of": "conservative, per moved reservation",
                "run": run,
                "measured": per_move,
                "target": f"<= {MOVE_TARGET_NS:g} ns",
                "met": "-"
                if moves is None
                else ("yes" if seconds / max(moves, 1) * 1e9 <= MOVE_TARGET_NS else "NO"),
            }
        )
        target = n == 20_000
        rows.append(
            {
                "target of": "conservative under overload",
                "run": run,
                "measured": f"{seconds:.2f} s CPU",
                "target": f"< {CONSERVATIVE_TARGET_S:g} s" if target else "-",
                "met": ("yes" if seconds < CONSERVATIVE_TARGET_S else "NO") if target else "-",
            }
        )
    return rows


def layout_rows(jobs_per_cluster: int) -> list[dict]:
    table = layout_experiment(jobs_per_cluster, repeat=5)
    return [
        {
            "target of": f"state layout, {jobs_per_cluster:,} jobs per cluster",
            "run": row["run"],
            "measured": f"{row['x plain']:.2f}x the plain loop ({row['pairs']})",
            "target": f"<= {LAYOUT_TARGET:g}x the plain loop" if engine else "- (a mirror)",
            "met": ("yes" if row["x plain"] <= LAYOUT_TARGET else "NO") if engine else "-",
        }
        for row in table.iloc[1:].to_dict("records")
        for engine in [row["run"].startswith("engine")]
    ]


def tla_scores_rows() -> list[dict]:
    rows = []
    for frames in (False, True):
        seconds = public_seconds(1_000, 100, 5, frames)
        rows.append(
            {
                "target of": "tla_scores",
                "run": "1,000 waiting, 100 running, 5 clusters, "
                + ("frames" if frames else "lists of records"),
                "measured": f"{seconds * 1e3:.3f} ms wall",
                "target": "<= 1 ms",
                "met": "yes" if seconds <= 1e-3 else "NO",
            }
        )
    return rows


def tla_rows() -> list[dict]:
    table = whole_trace_table(quick=True)
    if isinstance(table, str):
        return [{"target of": "TLA", "run": "A1 whole, high load", "measured": table,
                 "target": "< 10 s", "met": "not run"}]  # fmt: skip
    r = table.iloc[0]
    return [{"target of": "TLA", "run": f"{r['run']} ({r['jobs']} jobs)",
             "measured": f"{r['wall (s)']} s wall", "target": r["target"], "met": r["met"]}]  # fmt: skip


def memory_rows(full: bool) -> list[dict]:
    return [
        {
            "target of": "peak memory per job",
            "run": f"Jones Section 4, 8 clusters, {r['jobs']} jobs, {r['strategy']}",
            "measured": r["B/job"] + ("" if r["B/job"].startswith(("not", "failed")) else " B/job"),
            "target": r["target"],
            "met": r["met"],
        }
        for _, r in memory_table(full).iterrows()
    ]


def compile_rows() -> list[dict]:
    table, _ = compile_table(opt0=False)
    r = table.iloc[0]
    return [
        {
            "target of": "full compile, empty cache",
            "run": f"the six apps' kernels ({r.get('signatures', '-')} signatures)",
            "measured": f"{r['wall (s)']} s wall, {r.get('CPU (s)', '-')} s CPU",
            "target": r["target"],
            "met": r.get("met", "-"),
        }
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="Jones at 100,000 jobs per cluster, one conservative row, no compile")  # fmt: skip
    parser.add_argument("--conservative-1e5", action="store_true",
                        help="also the 10^5-job conservative row (minutes)")  # fmt: skip
    parser.add_argument("--full-memory", action="store_true",
                        help="also 3.2 x 10^7 jobs in the memory rows (about 4-5 GB each)")  # fmt: skip
    args = parser.parse_args()
    print(f"{platform.platform()} | Python {platform.python_version()} | numpy {np.__version__}"
          f" | numba {numba.__version__}")  # fmt: skip
    n = 100_000 if args.quick else SECTION6.jobs_per_cluster
    rows = (
        conservative_rows(args.quick, args.conservative_1e5)
        + layout_rows(n)
        + tla_scores_rows()
        + memory_rows(args.full_memory)
        + ([] if args.quick else compile_rows())
        + jones_rows(n)
        + tla_rows()
    )
    with pd.option_context("display.width", 240, "display.max_colwidth", 80):
        print("\nSpeed and memory targets (issues 24 and 55):")
        print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
