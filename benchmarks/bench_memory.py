"""Peak memory per job of a paper-scale ``simulate`` run (issue 55's memory target).

Jones 2005's Section 4 set-up on 8 clusters (:data:`hpcmodels.bandwidth.SECTION4`, the
store's largest runs: 4,000,000 jobs per cluster, 3.2 x 10^7 in all) at two sizes,
10^6 jobs (125,000 per cluster) and 3.2 x 10^7, for Migration Only and for dynamic
co-allocation (``first_fit`` on Jones's network, the bandwidth-centric rates). Each
point runs in a fresh Python process (so one point's freed memory does not hide the
next one's): it imports the package, compiles or loads the kernels on a 1,600-job run,
then resets the kernel's peak-resident-size counter (``/proc/self/clear_refs``) and
reads ``VmRSS``/``VmHWM`` from ``/proc/self/status`` (Linux only):

* ``input B/job``: the resident size the job table adds (:func:`~hpcmodels.bandwidth.
  experiment.workload`, which draws per cluster, concatenates and sorts);
* ``run B/job``: the peak during :func:`~hpcmodels.bandwidth.run_point` above the
  resident size just before it (the engine's state, the result table, the metrics);
* ``B/job``: the peak of the whole process above its size before the workload was
  drawn (input and run: what a reader needs beyond the libraries), the number the
  target (<= 150 bytes per job) is about;
* ``process peak``: the whole process's peak, the libraries and the compiled kernels
  included (about 0.3 GB of it before any job).

The floor of ``B/job`` is the workload's own drawing (8 frames concatenated, then
sorted): its transient peak is about 117 bytes per job, above the 36 it keeps, so a run
whose own peak is lower (Migration Only since the state shares its read-only arrays)
reads 117. Measured numbers: ``docs/performance.md``, "Memory per job".

Run: ``python benchmarks/bench_memory.py`` (10^6 jobs, seconds);
``--full`` adds 3.2 x 10^7 jobs (about 4-5 GB and minutes per point: leave the
machine to it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pandas as pd

SIZES = {"10^6": 125_000, "3.2 x 10^7": 4_000_000}
STRATEGIES = ("migration_only", "first_fit")
TARGET = 150.0
"""Bytes per job (issue 55): <= 5 GB for 3.2 x 10^7 jobs."""

CHILD = """
import dataclasses, gc, json, sys, time
from hpcmodels.bandwidth import run_point
from hpcmodels.bandwidth.experiment import SECTION4, workload

def status():
    out = {}
    for line in open("/proc/self/status"):
        key, value = line.split(":", 1)
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) * 1024
    return out

def reset_peak():
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")

strategy, per = sys.argv[1], int(sys.argv[2])
setup = dataclasses.replace(SECTION4, clusters=8, jobs_per_cluster=per)
run_point(strategy, dataclasses.replace(setup, jobs_per_cluster=200))  # kernels
gc.collect()
reset_peak()
before = status()
jobs = workload(setup, 1)  # not the warm-up's seed-0 frame: a fresh one
gc.collect()
with_input = status()
reset_peak()
began = time.perf_counter()
row = run_point(strategy, setup, seed=1)
seconds = time.perf_counter() - began
after = status()
n = len(jobs)
print(json.dumps({
    "jobs": n,
    "input": (with_input["VmRSS"] - before["VmRSS"]) / n,
    "run": (after["VmHWM"] - with_input["VmRSS"]) / n,
    "total": (max(after["VmHWM"], with_input["VmHWM"]) - before["VmRSS"]) / n,
    "peak": max(after["VmHWM"], with_input["VmHWM"]),
    "seconds": seconds,
    "att": row["att"],
}))
"""


def measure(strategy: str, jobs_per_cluster: int) -> dict:
    """One point in a fresh process (module docstring); its JSON line as a dict."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, strategy, str(jobs_per_cluster)],
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONWARNINGS": "ignore"},
        check=False,
    )
    if done.returncode:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:]
        return {"error": tail[0] if tail else f"exit {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def memory_table(full: bool) -> pd.DataFrame:
    """The table: one row per size and strategy (3.2 x 10^7 only with ``full``)."""
    # a throwaway point per strategy fills numba's cache first: a measured child that
    # compiled split its bytes wrongly (input 117 and run 16 B/job instead of 36 and 79)
    for strategy in STRATEGIES:
        measure(strategy, 25)
    rows = []
    for size, per in SIZES.items():
        for strategy in STRATEGIES:
            row = {"jobs": size, "strategy": strategy, "target": f"<= {TARGET:g} B/job"}
            if per > SIZES["10^6"] and not full:
                rows.append(row | {"B/job": "not run (--full)", "met": "-"})
                continue
            m = measure(strategy, per)
            if "error" in m:
                rows.append(row | {"B/job": f"failed: {m['error']}", "met": "-"})
                continue
            rows.append(
                row
                | {
                    "input B/job": f"{m['input']:.0f}",
                    "run B/job": f"{m['run']:.0f}",
                    "B/job": f"{m['total']:.0f}",
                    "process peak": f"{m['peak'] / 1e9:.2f} GB",
                    "run (s)": f"{m['seconds']:.1f}",
                    "met": "yes" if m["total"] <= TARGET else "NO",
                }
            )
    return pd.DataFrame(rows).fillna("-")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also 3.2 x 10^7 jobs (4-5 GB)")
    args = parser.parse_args()
    with pd.option_context("display.width", 200):
        print(memory_table(args.full).to_string(index=False))


if __name__ == "__main__":
    main()
