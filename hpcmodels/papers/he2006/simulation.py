"""He et al. 2006: the simulated figures of Section 5 (Figs. 3-8a): one sweep of
simulate_point per figure, summarised per case."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ...bounds import MAX_JOBS, MAX_REPLICATES, MAX_SEED
from ...errors import InvalidParameter, InvalidType, check_int, check_real
from ...queueing import (
    UniformSlack,
)
from ...queueing.dispatch import simulate_dispatch
from ...queueing.system import MultiCluster, Stream
from ...stats import t_interval
from ...sweep import raise_failures, sweep
from .analytic import analytic_mr, analytic_r, fractions, size_system, speed_system
from .published import (
    ALGORITHMS,
    CHANGES,
    CVS,
    FIG3_SLACK,
    FIG4_SLACK,
    SLACK_UPPERS,
    STEPS,
    TABLE2,
    WORKLOADS,
)


@dataclass(frozen=True)
class SimSettings:
    """Length and number of the simulated job streams of every point: ``n_jobs`` jobs
    per stream, the first ``warmup`` and the last ``cooldown`` of them not measured,
    ``seeds`` runs (seeds ``0 .. seeds - 1``, common random numbers across algorithms).

    The defaults are the notebook's quick settings; :meth:`paper` gives Section 5.1's
    500,000 jobs (first and last 100,000 trimmed) and five runs.

    ``n_jobs`` is a whole number in [1, 10**8] (:data:`hpcmodels.bounds.MAX_JOBS`),
    ``warmup`` and ``cooldown`` ones in [0, 10**8] with ``warmup + cooldown < n_jobs``,
    ``seeds`` one in [1, 10**6] (:data:`hpcmodels.bounds.MAX_REPLICATES`); integral
    floats are stored as ints, anything else is an
    :class:`~hpcmodels.errors.InvalidParameter` naming the field.
    """

    n_jobs: int = 100_000
    warmup: int = 20_000
    cooldown: int = 20_000
    seeds: int = 3

    def __post_init__(self) -> None:
        limits = {
            "n_jobs": (1, MAX_JOBS),
            "warmup": (0, MAX_JOBS),
            "cooldown": (0, MAX_JOBS),
            "seeds": (1, MAX_REPLICATES),
        }
        for name, (low, high) in limits.items():
            value = check_int(f"SimSettings.{name}", getattr(self, name), minimum=low, maximum=high)
            object.__setattr__(self, name, value)
        if self.warmup + self.cooldown >= self.n_jobs:
            raise InvalidParameter(
                f"SimSettings needs warmup + cooldown < n_jobs, got {self.warmup} + "
                f"{self.cooldown} vs {self.n_jobs}"
            )

    @classmethod
    def paper(cls) -> SimSettings:
        return cls(500_000, 100_000, 100_000, 5)

    @classmethod
    def scaled(cls, n_jobs: int, seeds: int) -> SimSettings:
        """``n_jobs`` per stream, warm-up and cool-down a fifth of the stream each."""
        n_jobs = check_int("SimSettings.n_jobs", n_jobs, minimum=1, maximum=MAX_JOBS)
        return cls(n_jobs, n_jobs // 5, n_jobs // 5, seeds)


def simulate_point(
    system: MultiCluster,
    workload: float,
    algorithm: str,
    seed: int,
    n_jobs: int,
    warmup: int,
    cooldown: int,
    slack: UniformSlack = FIG3_SLACK,
    arrival_cv: float = 1.0,
    sizes: str = "exponential",
    alloc_workload: float | None = None,
) -> dict[str, float]:
    """One simulated job stream, the point function of the figures' sweeps:
    ``algorithm`` (:data:`ALGORITHMS`) on ``system`` at ``workload``, with the fractions
    computed at ``alloc_workload`` (default ``workload``; Fig. 8 keeps those of another
    workload); jobs with ``slack``, inter-arrival CV ``arrival_cv`` and ``sizes``
    (:class:`~hpcmodels.queueing.system.Stream`); run ``seed`` of ``n_jobs`` jobs, the
    first ``warmup`` and last ``cooldown`` not measured.

    Returns the measured ``mean_response`` and ``miss_rate``, and the M/M/m prediction
    for the same fractions under random dispatch, ``analytic_response`` and
    ``analytic_miss`` (NaN for the dynamic DLL/DLM; ``inf`` and 1 where the fractions
    saturate a cluster). ``seed`` (a whole number in [0, 2**63 - 1] or a Generator),
    ``n_jobs`` (in [1, 10**8]), ``warmup`` and ``cooldown`` (in [0, 10**8]) as
    :func:`hpcmodels.queueing.dispatch.simulate_dispatch` takes them, checked first.
    """
    n_jobs = check_int("n_jobs", n_jobs, minimum=1, maximum=MAX_JOBS)
    warmup = check_int("warmup", warmup, minimum=0, maximum=MAX_JOBS)
    cooldown = check_int("cooldown", cooldown, minimum=0, maximum=MAX_JOBS)
    if not isinstance(seed, np.random.Generator):
        seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    if algorithm not in ALGORITHMS:
        raise InvalidParameter(f"unknown algorithm {algorithm!r}; choose from {list(ALGORITHMS)}")
    strategy, dispatcher = ALGORITHMS[algorithm]
    lam = system.arrival_rate(workload)
    alpha = fractions(
        strategy, system, system.arrival_rate(_alloc(alloc_workload, workload)), slack
    )
    run = simulate_dispatch(
        system,
        alpha,
        dispatcher,
        Stream(lam, arrival_cv=arrival_cv, sizes=sizes),
        slack=slack,
        n_jobs=n_jobs,
        warmup=warmup,
        cooldown=cooldown,
        seed=seed,
    )
    return {
        "mean_response": run.mean_response,
        "miss_rate": run.miss_rate,
        **_model_values(system, lam, alpha, slack, dispatcher),
    }


def _alloc(alloc_workload: float | None, workload: float) -> float:
    """The workload the fractions are computed at: ``workload`` when ``alloc_workload``
    is None, else ``alloc_workload``, a number in (0, 1) (0 is an
    :class:`~hpcmodels.errors.InvalidParameter` naming it, not a request for the
    default)."""
    if alloc_workload is None:
        return workload
    value = check_real("alloc_workload", alloc_workload, above=0)
    if value >= 1:
        raise InvalidParameter(f"alloc_workload must lie in (0, 1), got {alloc_workload!r}")
    return value


def _model_values(system, lam, alpha, slack, dispatcher: str) -> dict[str, float]:
    """The M/M/m values of fractions ``alpha`` under random splitting (NaN for the
    dynamic dispatchers, which have no fractions)."""
    dynamic = dispatcher in ("dll", "dlm")
    return {
        "analytic_response": np.nan if dynamic else analytic_r(system, lam, alpha),
        "analytic_miss": np.nan if dynamic else analytic_mr(system, lam, alpha, slack),
    }


def case_model(
    system: MultiCluster,
    workload: float,
    algorithm: str,
    slack=FIG3_SLACK,
    alloc_workload: float | None = None,
    **_,
) -> dict[str, float]:
    """:func:`simulate_point`'s model values of one case without simulating it (the
    keyword arguments of a :data:`Case`; those of the stream are ignored)."""
    strategy, dispatcher = ALGORITHMS[algorithm]
    alpha = fractions(
        strategy, system, system.arrival_rate(_alloc(alloc_workload, workload)), slack
    )
    return _model_values(system, system.arrival_rate(workload), alpha, slack, dispatcher)


Case = tuple[dict, dict]
"""One simulated configuration of a figure with one algorithm: its labels (the frame's
columns, e.g. ``{"workload": 0.5}``) and the keyword arguments of :func:`simulate_point`
but those of the run (``seed``, ``n_jobs``, ``warmup``, ``cooldown``)."""


def algorithm_cases(configurations: Iterable[Case], algorithms: Iterable[str]) -> list[Case]:
    """Every algorithm at every configuration (``(labels, keyword arguments)`` without
    ``algorithm``), algorithms innermost."""
    algorithms = list(algorithms)
    for name in algorithms:
        if name not in ALGORITHMS:
            raise InvalidParameter(f"unknown algorithm {name!r}; choose from {list(ALGORITHMS)}")
    return [
        (labels, {**kwargs, "algorithm": name})
        for labels, kwargs in configurations
        for name in algorithms
    ]


def point_grid(cases: Sequence[Case], settings: SimSettings) -> list[dict]:
    """The sweep's grid: :func:`simulate_point`'s keyword arguments for every case and
    every seed of ``settings`` (seeds innermost)."""
    run = {"n_jobs": settings.n_jobs, "warmup": settings.warmup, "cooldown": settings.cooldown}
    return [
        {**kwargs, "seed": seed, **run} for _, kwargs in cases for seed in range(settings.seeds)
    ]


def summarise_seeds(runs: pd.DataFrame, cases: Sequence[Case], seeds: int) -> pd.DataFrame:
    """One row per case from the sweep over :func:`point_grid` (``runs``, in grid order:
    each case's ``seeds`` rows in turn).

    Columns: the case's labels, ``algorithm``, ``mean_response`` and ``response_ci``
    (95 % half-width over the seeds, :func:`hpcmodels.stats.t_interval`), ``miss_rate``
    and ``miss_ci``, the per-seed values ``response_runs`` and ``miss_runs`` (seeds are
    common random numbers across algorithms), and ``analytic_response``,
    ``analytic_miss`` (:func:`simulate_point`). ``seeds`` is a whole number in [1, 10**6]
    (:data:`hpcmodels.bounds.MAX_REPLICATES`).
    """
    seeds = check_int("seeds", seeds, minimum=1, maximum=MAX_REPLICATES)
    if len(runs) != len(cases) * seeds:
        raise InvalidParameter(f"{len(runs)} runs for {len(cases)} cases of {seeds} seeds each")
    rows = []
    for k, (labels, kwargs) in enumerate(cases):
        block = runs.iloc[k * seeds : (k + 1) * seeds]
        r, r_ci = t_interval(block["mean_response"])
        mr, mr_ci = t_interval(block["miss_rate"])
        rows.append(
            {
                **labels,
                "algorithm": kwargs["algorithm"],
                "mean_response": r,
                "response_ci": r_ci,
                "miss_rate": mr,
                "miss_ci": mr_ci,
                "response_runs": tuple(block["mean_response"]),
                "miss_runs": tuple(block["miss_rate"]),
                "analytic_response": block["analytic_response"].iloc[0],
                "analytic_miss": block["analytic_miss"].iloc[0],
            }
        )
    return pd.DataFrame(rows)


def simulate_cases(
    cases: Sequence[Case],
    settings: SimSettings,
    *,
    desc: str,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Simulate every case once per seed, one :func:`hpcmodels.sweep.sweep` of
    :func:`simulate_point` over :func:`point_grid` (``client``, ``cache``, ``progress``
    and ``desc`` as there), summarised per case (:func:`summarise_seeds`, whose columns
    the frame has). A failed point is a ``RuntimeError`` naming how many failed, the
    first one's parameters and its error (:func:`hpcmodels.sweep.raise_failures`).
    ``settings`` must be a :class:`SimSettings` (whose counts are checked)."""
    if not isinstance(settings, SimSettings):
        raise InvalidType(f"settings must be a SimSettings, got {type(settings).__name__}")
    grid = point_grid(cases, settings)
    runs = sweep(simulate_point, grid, cache=cache, client=client, progress=progress, desc=desc)
    raise_failures(runs, f"simulate_point ({desc})")
    return summarise_seeds(runs, cases, settings.seeds)


def fig3(
    settings: SimSettings,
    workloads: Sequence[float] = WORKLOADS,
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Figs. 3a/3b: response time and miss rate against workload (Table 2, slack U[0,30]).
    Columns: ``workload`` and those of :func:`summarise_seeds`. ``client``, ``cache`` and
    ``progress`` go to :func:`hpcmodels.sweep.sweep`: where the points run (default:
    ``HPCMODELS_DASK_SCHEDULER``, else a LocalCluster), a folder that keeps finished
    points (a rerun computes only the others), progress bar."""
    return simulate_cases(
        fig3_cases(workloads),
        settings,
        desc="Fig. 3",
        client=client,
        cache=cache,
        progress=progress,
    )


def fig3_cases(workloads: Sequence[float] = WORKLOADS) -> list[Case]:
    """Fig. 3's cases: every algorithm at every workload (Table 2, slack U[0, 30])."""
    configs = [({"workload": w}, {"system": TABLE2, "workload": w}) for w in workloads]
    return algorithm_cases(configs, ALGORITHMS)


STEP_ALGORITHMS = ("ORT-RR", "OMR-RR", "W-RR", "DLL", "DLM")


def step_cases(
    label: str, build: Callable[[int, int], MultiCluster], workload: float = 0.5
) -> list[Case]:
    """One configuration per step of :data:`STEPS` (``build(first, second)``, labelled
    ``label``: "[21,1]" ...), slack U[0,10], with the algorithms of Figs. 4-5."""
    configs = [
        ({label: f"[{a},{b}]"}, {"system": build(a, b), "workload": workload, "slack": FIG4_SLACK})
        for a, b in STEPS
    ]
    return algorithm_cases(configs, STEP_ALGORITHMS)


def _step_sweep(
    label: str,
    build: Callable[[int, int], MultiCluster],
    settings: SimSettings,
    workload: float,
    desc: str,
    **options,
) -> pd.DataFrame:
    return simulate_cases(step_cases(label, build, workload), settings, desc=desc, **options)


def fig4(
    settings: SimSettings,
    workload: float = 0.5,
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Figs. 4a/4b: speed difference [21,1] ... [6,6], 4 x 4 nodes, slack U[0,10]
    (sweep options as :func:`fig3`)."""
    return _step_sweep(
        "speeds",
        speed_system,
        settings,
        workload,
        "Fig. 4",
        client=client,
        cache=cache,
        progress=progress,
    )


def fig5(
    settings: SimSettings,
    workload: float = 0.5,
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Figs. 5a/5b: cluster-size difference [21,1] ... [6,6], speed 10, slack U[0,10]
    (sweep options as :func:`fig3`)."""
    return _step_sweep(
        "nodes",
        size_system,
        settings,
        workload,
        "Fig. 5",
        client=client,
        cache=cache,
        progress=progress,
    )


def fig6(
    settings: SimSettings,
    uppers: Sequence[float] = SLACK_UPPERS,
    workload: float = 0.8,
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Figs. 6a/6b: slack uniform on [0, upper] at workload 0.8 (Table 2 system; sweep
    options as :func:`fig3`)."""
    return simulate_cases(
        fig6_cases(uppers, workload),
        settings,
        desc="Fig. 6",
        client=client,
        cache=cache,
        progress=progress,
    )


def fig6_cases(uppers: Sequence[float] = SLACK_UPPERS, workload: float = 0.8) -> list[Case]:
    """Fig. 6's cases: OMR-RR, W-RR and DLM per slack upper limit (Table 2 system)."""
    configs = [
        (
            {"slack_upper": s},
            {"system": TABLE2, "workload": workload, "slack": UniformSlack(0.0, s)},
        )
        for s in uppers
    ]
    return algorithm_cases(configs, ["OMR-RR", "W-RR", "DLM"])


def fig7a(
    settings: SimSettings,
    cvs: Sequence[float] = CVS,
    workload: float = 0.3,
    sizes: str = "bounded_pareto",
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Fig. 7a: CV of inter-arrival times 1.0-3.0 at workload 0.3, Bounded Pareto sizes
    (``sizes="exponential"`` gives the control with the sizes of Figs. 3-6; sweep options
    as :func:`fig3`)."""
    return simulate_cases(
        fig7a_cases(cvs, workload, sizes),
        settings,
        desc="Fig. 7a",
        client=client,
        cache=cache,
        progress=progress,
    )


def fig7a_cases(
    cvs: Sequence[float] = CVS, workload: float = 0.3, sizes: str = "bounded_pareto"
) -> list[Case]:
    """Fig. 7a's cases: ORT-RR, W-RR and DLL per CV of the inter-arrival times."""
    configs = [
        (
            {"cv": cv, "workload": workload},
            {"system": TABLE2, "workload": workload, "arrival_cv": cv, "sizes": sizes},
        )
        for cv in cvs
    ]
    return algorithm_cases(configs, ["ORT-RR", "W-RR", "DLL"])


def fig7b(
    settings: SimSettings,
    workloads: Sequence[float] = WORKLOADS,
    cv: float = 3.0,
    sizes: str = "bounded_pareto",
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Fig. 7b: workload 0.1-0.9 at CV 3.0, Bounded Pareto sizes (``sizes`` as
    :func:`fig7a`; sweep options as :func:`fig3`)."""
    return simulate_cases(
        fig7b_cases(workloads, cv, sizes),
        settings,
        desc="Fig. 7b",
        client=client,
        cache=cache,
        progress=progress,
    )


def fig7b_cases(
    workloads: Sequence[float] = WORKLOADS, cv: float = 3.0, sizes: str = "bounded_pareto"
) -> list[Case]:
    """Fig. 7b's cases: ORT-RR, W-RR and DLL per workload at CV ``cv``."""
    configs = [
        ({"workload": w}, {"system": TABLE2, "workload": w, "arrival_cv": cv, "sizes": sizes})
        for w in workloads
    ]
    return algorithm_cases(configs, ["ORT-RR", "W-RR", "DLL"])


def fig8a(
    settings: SimSettings,
    initial: float = 0.3,
    changes: Sequence[float] = CHANGES,
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Fig. 8a: approximate (ORT-RR with the fractions kept from ``initial``) versus
    accurate allocation (ORT-RR recomputed), and W-RR, per relative workload change
    (sweep options as :func:`fig3`)."""
    return simulate_cases(
        fig8a_cases(initial, changes),
        settings,
        desc="Fig. 8a",
        client=client,
        cache=cache,
        progress=progress,
    )


def fig8a_cases(initial: float = 0.3, changes: Sequence[float] = CHANGES) -> list[Case]:
    """Fig. 8a's cases: ORT-RR with the fractions of ``initial`` kept (approximate) and
    recomputed (accurate), and W-RR (weighted), per relative workload change."""

    def configs(label: str, alloc: float | None) -> list[Case]:
        return [
            (
                {"change": c, "workload": initial * (1 + c), "allocation": label},
                {"system": TABLE2, "workload": initial * (1 + c), "alloc_workload": alloc},
            )
            for c in changes
        ]

    return [
        *algorithm_cases(configs("approximate", initial), ["ORT-RR"]),
        *algorithm_cases(configs("accurate", None), ["ORT-RR"]),
        *algorithm_cases(configs("weighted", None), ["W-RR"]),
    ]


def fig7_control(
    settings: SimSettings,
    workloads: Sequence[float] = (0.1, 0.3, 0.9),
    cv: float = 3.0,
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """The Fig. 7 points at CV 3 with exponential sizes instead of Bounded Pareto ones
    (same arrivals, same seeds): what the heavy tail does to the printed gains (sweep
    options as :func:`fig3`)."""
    return fig7b(
        settings, workloads, cv, sizes="exponential", client=client, cache=cache, progress=progress
    )


def fig7_control_cases(workloads: Sequence[float] = (0.1, 0.3, 0.9), cv: float = 3.0) -> list[Case]:
    """:func:`fig7_control`'s cases: Fig. 7b's with exponential sizes."""
    return fig7b_cases(workloads, cv, sizes="exponential")
