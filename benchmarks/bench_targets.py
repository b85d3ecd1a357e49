"""Issue 24's speed targets in one run, one table: what the paper-scale stores need.

* Jones 2005, Section 6.1 set-up (1.6 million jobs at 400,000 per cluster): the engine's
  Migration Only point against the plain reference loop of ``bench_bandwidth`` (target
  at most 1.0x its CPU time, the same ATT; beside it, with no target, the engine's event
  loop alone on a state built outside the timing), and each co-allocating module (A1,
  B1-B4) against the engine's Migration Only point (target at most 2x).
* Conservative backfilling under overload with requested times 1-3x the run time
  (``bench_engine.conservative_overload``): 20,000 jobs in < 1 s (10^5 jobs in < 10 s
  with ``--conservative-1e5``).
* TLA (Shih 2013) on the whole A1 trace at high load in < 10 s (``bench_tla``).

Each row comes from the benchmark that owns it (the same functions, so the numbers
agree with ``make bench``); this script only gathers the target rows. CPU seconds for
Jones (``process_time``), wall seconds for the others, as their benchmarks measure.

Run: ``python benchmarks/bench_targets.py`` (about 5 minutes here); ``--quick`` runs
Jones at 100,000 jobs per cluster and one conservative row.
"""

from __future__ import annotations

import argparse
import platform

import numba
import numpy as np
import pandas as pd
from bench_bandwidth import run_table
from bench_engine import conservative_table
from bench_tla import whole_trace_table

from hpcmodels.bandwidth import SECTION6


def jones_rows(jobs_per_cluster: int) -> list[dict]:
    table = run_table(jobs_per_cluster)
    return [{"target of": f"Jones, {jobs_per_cluster:,} jobs per cluster", "run": r["run"],
             "measured": f"{r['CPU (s)']} s CPU, {r['ratio']}", "target": r["target"],
             "met": r["met"]}
            for _, r in table[(table["target"] != "-") | table["run"].str.contains("loop alone")
                              ].iterrows()]  # fmt: skip


def conservative_rows(quick: bool, big: bool) -> list[dict]:
    table = conservative_table(quick, repeat=1, big=big)
    return [{"target of": "conservative under overload", "run": f"{r['jobs']} jobs, {r['clusters']}",
             "measured": r["ours (s)"] + ("" if r["ours (s)"].startswith("not run") else ", wall s"),
             "target": r["target"], "met": r["met"]}
            for _, r in table.iterrows()]  # fmt: skip


def tla_rows() -> list[dict]:
    table = whole_trace_table(quick=True)
    if isinstance(table, str):
        return [{"target of": "TLA", "run": "A1 whole, high load", "measured": table,
                 "target": "< 10 s", "met": "not run"}]  # fmt: skip
    r = table.iloc[0]
    return [{"target of": "TLA", "run": f"{r['run']} ({r['jobs']} jobs)",
             "measured": f"{r['wall (s)']} s wall", "target": r["target"], "met": r["met"]}]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="Jones at 100,000 jobs per cluster, one conservative row")  # fmt: skip
    parser.add_argument("--conservative-1e5", action="store_true",
                        help="also the 10^5-job conservative rows (minutes each)")  # fmt: skip
    args = parser.parse_args()
    print(f"{platform.platform()} | Python {platform.python_version()} | numpy {np.__version__}"
          f" | numba {numba.__version__}")  # fmt: skip
    n = 100_000 if args.quick else SECTION6.jobs_per_cluster
    rows = jones_rows(n) + conservative_rows(args.quick, args.conservative_1e5) + tla_rows()
    with pd.option_context("display.width", 220, "display.max_colwidth", 70):
        print("\nIssue 24's speed targets:")
        print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
