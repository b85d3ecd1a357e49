"""The sweep points every builder runs (:func:`hpcmodels.sweep.sweep`): one
:func:`~hpcmodels.bandwidth.run_point` call as a point (:func:`strategy_point`), its
keyword arguments (:func:`sweep_point`) and a list of them run as one sweep (:func:`sweep_runs`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ...bandwidth import Setup, run_point
from ...bounds import MAX_SEED
from ...errors import check_int
from ...sweep import sweep_results


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` as a workload seed, a whole number in [0, 2**63 - 1]
    (:data:`hpcmodels.bounds.MAX_SEED`); checked by every builder before its sweep runs."""
    return check_int(name, seed, minimum=0, maximum=MAX_SEED)


def with_clusters(setup: Setup, clusters: int) -> Setup:
    return replace(setup, clusters=clusters)


# run_point's measured results (its other keys repeat the point's parameters)
RUN_RESULTS = (
    "jobs",
    "att",
    "att_ci",
    "mean_wait",
    "coallocated",
    "penalty",
    "max_link_level",
    "module_calls",
    "seconds",
)


def strategy_point(
    strategy: str,
    setup: Setup,
    *,
    bsbw: float,
    lslt: float,
    chunk: float,
    fixed_penalty: float | None,
    selection: str,
    seed: int,
) -> dict:
    """:func:`run_point` as a sweep point (``fixed_penalty``: its ``penalty=``, None for
    every strategy but ``"fixed_penalty"``; the result's ``penalty`` is the measured
    one): the results :data:`RUN_RESULTS`."""
    r = run_point(
        strategy,
        setup,
        bsbw=bsbw,
        lslt=lslt,
        chunk=chunk,
        penalty=fixed_penalty,
        selection=selection,
        seed=seed,
    )
    return {k: r[k] for k in RUN_RESULTS}


def sweep_point(
    strategy: str,
    setup: Setup,
    *,
    bsbw: float = 500.0,
    lslt: float = 1.0,
    chunk: float = 0.8,
    penalty: float | None = None,
    selection: str = "first_available",
    seed: int = 0,
) -> dict:
    """The keyword arguments of :func:`strategy_point` for one :func:`run_point` call
    (``seed`` checked: :func:`check_seed`)."""
    return dict(
        strategy=strategy,
        setup=setup,
        bsbw=float(bsbw),
        lslt=float(lslt),
        chunk=float(chunk),
        fixed_penalty=penalty,
        selection=selection,
        seed=check_seed(seed),
    )


def sweep_runs(
    points: list[dict], *, cache: str | Path | None, client, progress: bool, desc: str
) -> list[dict]:
    """:func:`run_point`'s dicts for ``points`` (:func:`sweep_point`'s), run as one sweep."""
    results = sweep_results(
        strategy_point, points, cache=cache, client=client, progress=progress, desc=desc
    )
    return [
        {
            "strategy": p["strategy"],
            "bsbw": p["bsbw"],
            "lslt": p["lslt"],
            "chunk": p["chunk"],
            "selection": p["selection"],
            "seed": p["seed"],
            **{k: r[k] for k in RUN_RESULTS},
        }
        for p, r in zip(points, results, strict=True)
    ]
