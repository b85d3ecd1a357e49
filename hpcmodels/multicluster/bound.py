"""Whether a run's average turnaround time exceeds a level, stopping as soon as it must.

A search for the point where a strategy's ATT crosses a limit (Jones 2005's break-even
penalties, a bisection) only needs the sign of ``ATT - level``. Past the crossing a run
can be far into overload, its queue growing without bound, and costs many times a
stable run. :func:`turnaround_above` runs the engine in windows (``run`` pauses at a
time; a later call goes on to the same schedule) and after each window computes a
lower bound of the final ATT from the state (:func:`turnaround_floor`); once the bound
exceeds the level the answer is certain and the run stops. A run whose ATT does not
exceed the level is run to its end, so its value is :func:`.engine.simulate`'s exactly.

The bound at a pause at time ``T`` (every event up to ``T`` processed) over the ``n``
kept jobs: a finished job counts its turnaround ``end - submit``; a running job ends
after ``T``, so at least ``T - submit``; a waiting job starts after ``T`` and runs at
least ``runtime / fastest speed``; a job not yet submitted at least ``runtime /
fastest speed`` (no job runs faster than on the fastest cluster: a co-allocated job
runs at the slowest site's speed, slowed by its penalty or the links). Their mean is
at most the run's ATT in exact arithmetic. Summed in floating point over up to 3.2e7
jobs the two means can each be off by about ``n x 2**-53`` relative (3.6e-9), so the run
stops only when the floor exceeds the level by more than :data:`FLOOR_SLACK` relative:
a floor within that of the level runs on (the engine's rule for pruning bounds,
:mod:`.rates`).
"""

from __future__ import annotations

import numba
import numpy as np

from ..errors import InvalidParameter, check_int, check_real
from .engine import (
    DONE,
    NEED_ROOM,
    SIMULATE_DEFAULTS,
    Result,
    finish_run,
    grow_split,
    prepare_run,
    run,
)

__all__ = ["FLOOR_SLACK", "turnaround_above", "turnaround_floor"]

FLOOR_SLACK = 1e-6
"""Relative margin by which the floor must exceed the level (module docstring)."""


@numba.njit(cache=True)
def turnaround_floor(state, t):
    """A lower bound of the final average turnaround time of the paused ``state``
    (every event up to ``t`` processed): module docstring."""
    fastest = state.speed.max()
    submit, runtime, start, end, rem = (
        state.submit,
        state.runtime,
        state.start,
        state.end,
        state.rem,
    )
    total = 0.0
    n = submit.size
    for j in range(n):
        if start[j] == start[j]:  # started: ended by t, or ends after t
            if rem[j] == 0.0 and end[j] <= t:
                total += end[j] - submit[j]
            else:
                total += max(t - submit[j], 0.0)
        elif submit[j] <= t:  # waiting: starts after t
            total += t - submit[j] + runtime[j] / fastest
        else:
            total += runtime[j] / fastest
    return total / n


def turnaround_above(
    jobs,
    clusters,
    level: float,
    selection: str = "fcfs",
    allocation: str = "first_fit",
    *,
    windows: int = 32,
    **options,
) -> tuple[float, Result | None]:
    """Run :func:`.engine.simulate`'s run (same arguments, ``options`` its keywords) in
    ``windows`` equal windows of the submit span, and stop once the lower bound of the
    ATT (:func:`turnaround_floor`) exceeds ``level``. Returns ``(value, result)``: the
    run's ATT and its :class:`Result` when it ran to the end (the same as simulate's),
    else the bound (> ``level`` by more than :data:`FLOOR_SLACK` relative) and ``None``. ``level`` is a finite number, ``windows``
    a whole number >= 1."""
    level = check_real("level", level)
    windows = check_int("windows", windows, minimum=1)
    prepared = prepare_run(jobs, clusters, selection, allocation, **_options(options))
    if isinstance(prepared, Result):  # every job left out: no turnaround
        return float("nan"), prepared
    state = prepared.state
    first, last = state.submit.min(), state.submit.max()
    for k in range(1, windows + 1):
        until = np.inf if k == windows else first + (last - first) * k / windows
        while (code := run(state, prepared.rate_code, prepared.params, until)) == NEED_ROOM:
            state = grow_split(state)
        if code == DONE:
            break
        floor = turnaround_floor(state, until)
        if floor - level > FLOOR_SLACK * abs(level):
            return float(floor), None
    prepared.state = state
    result = finish_run(prepared)
    return float(result.metrics["att"]), result


def _options(options: dict) -> dict:
    unknown = sorted(set(options) - set(SIMULATE_DEFAULTS))
    if unknown:
        raise InvalidParameter(
            f"turnaround_above: unknown option(s) {unknown}; it takes simulate's: "
            f"{sorted(SIMULATE_DEFAULTS)}"
        )
    return SIMULATE_DEFAULTS | options
