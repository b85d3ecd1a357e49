"""Shared timing helper of the benchmark scripts (run as ``python benchmarks/bench_*.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np


def median_time(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """Median wall time (s) of ``repeat`` calls after one warm-up call (numba compiles,
    or loads its cache, there), and the last result."""
    result = fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result
