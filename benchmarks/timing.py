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


def paired_ratio(
    base: Callable[[], Any],
    other: Callable[[], Any],
    repeat: int = 3,
    clock: Callable[[], float] = time.process_time,
    prepare: Callable[[], Any] | None = None,
) -> dict[str, Any]:
    """``other``'s time over ``base``'s, measured in pairs: after a warm-up call of each,
    ``repeat`` times ``base`` then ``other`` back to back, one ratio per pair. A ratio of
    two medians taken minutes apart carries the machine's drift (identical runs here vary
    by about 20 %); a pair shares it. With ``prepare``, each ``other`` call is
    ``other(prepare())`` and only ``other`` is timed (e.g. ``prepare`` builds the state
    that ``other`` runs). Returns the median ratio, the lowest and highest, the median
    time of each and the last results."""

    def arguments() -> tuple:
        return () if prepare is None else (prepare(),)

    base()
    other(*arguments())
    base_times, other_times, ratios = [], [], []
    for _ in range(repeat):
        start = clock()
        base_result = base()
        base_end = clock()
        argument = arguments()
        middle = clock()
        other_result = other(*argument)
        end = clock()
        base_times.append(base_end - start)
        other_times.append(end - middle)
        ratios.append((end - middle) / (base_end - start))
    return {
        "ratio": float(np.median(ratios)),
        "low": min(ratios),
        "high": max(ratios),
        "base_s": float(np.median(base_times)),
        "other_s": float(np.median(other_times)),
        "base_result": base_result,
        "other_result": other_result,
    }
