"""Shared timing helper of the benchmark scripts (run as ``python benchmarks/bench_*.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np


def median_time(
    fn: Callable[[], Any],
    repeat: int = 3,
    clock: Callable[[], float] = time.perf_counter,
    warmup: Callable[[], Any] | None = None,
) -> tuple[float, Any]:
    """Median time (s) of ``repeat`` calls after one warm-up call (numba compiles, or
    loads its cache, there), and the last result: wall time by default, or another
    ``clock`` (``time.process_time``: this process's CPU time, which other load on the
    machine does not inflate). ``warmup`` replaces the warm-up call (e.g. the same call
    on a small input, when one call is long)."""
    result = (warmup or fn)()
    times = []
    for _ in range(repeat):
        start = clock()
        result = fn()
        times.append(clock() - start)
    return float(np.median(times)), result
