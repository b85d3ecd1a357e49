"""The full compile of the package's kernels on an empty cache, and what dominates it
(issue 55's compile target: under 90 s on 2 cores).

A fresh clone compiles every kernel on first use. "The full compile" here is what the
six apps' first openings compile (``notebooks/apps/NN_app.ipynb``, as
``python -m hpcmodels warm`` runs them; app 02 runs the engine with every selection and
allocation policy, since one ``simulate`` compiles them all), run in one fresh Python
process whose numba cache is an empty temporary folder (``NUMBA_CACHE_DIR``), so the
cache beside the sources is neither read nor touched. The child records numba's
``numba:compile`` events: each kernel's inclusive time (its callees' compiles
included) and exclusive time (its own typing, lowering, and the LLVM optimisation and
machine code of its library, into which its callees' modules are linked again).

Columns: wall and CPU seconds of the whole compile, kernel signatures compiled, and the
kernels with the largest exclusive times. ``--opt0`` runs the same compile again with
``NUMBA_OPT=0`` (no LLVM optimisation; the kernels run slower, so only a measurement):
the difference to the default is what LLVM's optimisation costs.

Run: ``python benchmarks/bench_compile.py`` (about 3-5 minutes here; twice that with
``--opt0``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

TARGET = 90.0
"""Seconds (issue 55)."""

CHILD = """
import collections, json, os, sys, time
from numba.core import event

stack, own, total, count = [], collections.Counter(), collections.Counter(), collections.Counter()

class Timer(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        name = f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', repr(f))}"
        stack.append([name, time.perf_counter(), 0.0])

    def on_end(self, ev):
        if not stack:
            return
        name, began, inner = stack.pop()
        spent = time.perf_counter() - began
        own[name] += spent - inner
        total[name] += spent
        count[name] += 1
        if stack:
            stack[-1][2] += spent

event.register("numba:compile", Timer())
wall, cpu = time.perf_counter(), time.process_time()
from hpcmodels.warm import app_notebooks, run_app
errors = []
here = os.getcwd()
for notebook in app_notebooks():
    run = run_app(notebook)
    os.chdir(here)
    if run.error:
        errors.append(f"app {run.app}: {run.error}")
print(json.dumps({
    "wall": time.perf_counter() - wall,
    "cpu": time.process_time() - cpu,
    "signatures": sum(count.values()),
    "top": [(k, v, total[k]) for k, v in own.most_common(8)],
    "errors": errors,
}))
"""


def full_compile(opt: str | None = None) -> dict:
    """The full compile (module docstring) in a fresh process on an empty cache;
    ``opt``: a ``NUMBA_OPT`` level for it (None: numba's default)."""
    with tempfile.TemporaryDirectory(prefix="hpcmodels-compile-") as cache:
        env = os.environ | {"NUMBA_CACHE_DIR": cache, "MPLBACKEND": "Agg"}
        if opt is not None:
            env["NUMBA_OPT"] = opt
        done = subprocess.run(
            [sys.executable, "-c", CHILD],
            capture_output=True,
            text=True,
            env=env,
            cwd=Path(__file__).resolve().parent.parent,
            check=False,
        )
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or ["no output"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def compile_table(opt0: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per compile: the default and, with ``opt0``, ``NUMBA_OPT=0``; the
    default's kernels with the largest exclusive times)."""
    rows, top = [], pd.DataFrame()
    for opt in ["default", "0"] if opt0 else ["default"]:
        result = full_compile(None if opt == "default" else opt)
        row = {"NUMBA_OPT": opt, "target": f"< {TARGET:g} s" if opt == "default" else "-"}
        if "error" in result:
            rows.append(row | {"wall (s)": f"failed: {result['error']}"})
            continue
        rows.append(
            row
            | {
                "wall (s)": f"{result['wall']:.1f}",
                "CPU (s)": f"{result['cpu']:.1f}",
                "signatures": result["signatures"],
                "apps failed": "; ".join(result["errors"]) or "none",
                "met": ("yes" if result["wall"] < TARGET else "NO") if opt == "default" else "-",
            }
        )
        if opt == "default":
            top = pd.DataFrame(
                [
                    {"kernel": k, "exclusive (s)": f"{own:.1f}", "inclusive (s)": f"{inc:.1f}"}
                    for k, own, inc in result["top"]
                ]
            )
    return pd.DataFrame(rows).fillna("-"), top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt0", action="store_true", help="also compile with NUMBA_OPT=0")
    args = parser.parse_args()
    table, top = compile_table(args.opt0)
    with pd.option_context("display.width", 200, "display.max_colwidth", 90):
        print(table.to_string(index=False))
        print("\nLargest exclusive compile times (default):")
        print(top.to_string(index=False))


if __name__ == "__main__":
    main()
