"""Figs. 5-9 at the paper's scale (Section 6: 60 replications of 2,000,000
completions): the store's points (:func:`ensemble_points`, :func:`ensemble_point`, read
by :mod:`hpcmodels.papers.store` by name) and the statements judged on the paired runs
(:func:`ensemble_rows`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...bounds import MAX_COMPLETIONS, MAX_REPLICATES
from ...errors import InvalidParameter, check_choice, check_int
from ...mdp import CoallocationMDP, solve
from ...mdp.simulate import simulate_policy
from ..ensemble import paired_claim, summarize
from ..store import values
from ..verdicts import alike, compare_claim, fmt_series
from .model import check_truncation, heuristic_actions, model
from .policies import coallocation_extent, coallocation_threshold
from .published import (
    ENSEMBLE_COMPLETIONS,
    ENSEMBLE_REPLICATES,
    LOADS,
    MU3S,
    PS,
    SIM_CLAIMS,
    SIM_FIGURES,
    STATEMENTS,
)
from .published import full_point as _full
from .readings import reading_key, reading_point, reading_points, readings_cause, stored_readings
from .simulation import POLICIES

ENSEMBLE_SEED = 0  # replicate r runs on stream r of SeedSequence(0), as the notebook's runs


def ensemble_key(figure: str, policy: str, x: str, value: float) -> str:
    """The store's item key of one policy's run at one point of a figure."""
    return f"{figure} | {policy} average cost at {x} = {value:g}"


def ensemble_points(
    replicates: int = ENSEMBLE_REPLICATES, completions: int = ENSEMBLE_COMPLETIONS
) -> list[dict]:
    """The store's points: :func:`simulation_points` and, once each, the exact values of
    every reading at every residual cell (:func:`~.readings.reading_points`, study
    ``"readings"``, issue 53)."""
    return simulation_points(replicates, completions) + reading_points()


def simulation_points(
    replicates: int = ENSEMBLE_REPLICATES, completions: int = ENSEMBLE_COMPLETIONS
) -> list[dict]:
    """Figs. 5 and 7-9 at the paper's scale (Section 6): every point of
    :data:`SIM_FIGURES`, ``replicates`` single runs of ``completions`` job completions
    each (the paper: 60 replications of 2,000,000), the truncated chain at Delta = 30 as
    in the notebook. One point is one replicate of all three policies: the same random
    numbers for each (common random numbers), so they are compared run by run.

    ``replicates`` is a whole number in [1, 10**6] and ``completions`` one in [1, 10**10]
    (:mod:`hpcmodels.bounds`)."""
    replicates = check_int("replicates", replicates, minimum=1, maximum=MAX_REPLICATES)
    completions = check_int("completions", completions, minimum=1, maximum=MAX_COMPLETIONS)
    return [
        {
            "figure": figure,
            **_full(point),
            "completions": completions,
            "truncation": 30,
            "replicate": r,
        }
        for r in range(replicates)
        for figure, (_, points) in SIM_FIGURES.items()
        for point in points
    ]


_SOLVED: dict[tuple, object] = {}


def _optimal(mdp: CoallocationMDP, key: tuple):
    """The optimal policy of ``mdp`` (kept per process: a Dask worker solves each
    parameter point once for its 60 replicates)."""
    if key not in _SOLVED:
        _SOLVED[key] = solve(mdp)
    return _SOLVED[key]


def ensemble_point(
    figure: str,
    rho: float,
    mu3: float,
    p: float,
    c1: float,
    c2: float,
    truncation: int,
    replicate: int,
    completions: int | None = None,
    study: str | None = None,
    reading: str | None = None,
) -> dict[str, float]:
    """One replicate at one point of ``figure``: the average cost of the optimal,
    heuristic and local policies in one run each (warm-up 5 %), all three on random
    stream ``replicate`` of ``SeedSequence(ENSEMBLE_SEED)``: ``{item key: cost}``.
    ``completions`` is a whole number in [1, 10**10], ``truncation`` one in [1, 1000]
    and ``replicate`` one in [0, 10**6 - 1] (:mod:`hpcmodels.bounds`).

    ``study="readings"`` (no ``completions``): the three policies' exact costs under
    ``reading`` instead (:func:`~.readings.reading_point`, keyed by
    :func:`~.readings.reading_key`); any other study is an InvalidParameter."""
    if figure not in SIM_FIGURES:
        raise InvalidParameter(f"unknown figure {figure!r}; choose one of {list(SIM_FIGURES)}")
    truncation = check_truncation(truncation)
    replicate = check_int("replicate", replicate, minimum=0, maximum=MAX_REPLICATES - 1)
    params = dict(rho=rho, mu3=mu3, p=p, c1=c1, c2=c2)
    x = SIM_FIGURES[figure][0]
    if study is not None:
        check_choice("study", study, ["readings"])
        costs = reading_point(reading, params, truncation)
        return {reading_key(figure, reading, k, x, params[x]): v for k, v in costs.items()}
    if reading is not None:
        raise InvalidParameter(f"reading {reading!r} needs study='readings'")
    completions = check_int("completions", completions, minimum=1, maximum=MAX_COMPLETIONS)
    params = {k: float(v) for k, v in params.items()}
    mdp = model(truncation, **params)
    out = {}
    solved = _optimal(mdp, (truncation, *params.values()))
    for policy in POLICIES:
        chosen = solved if policy == "optimal" else policy
        runs = simulate_policy(
            mdp,
            chosen,
            completions=completions,
            replications=1,
            seed=ENSEMBLE_SEED,
            truncated=True,
            first=replicate,
        )
        out[ensemble_key(figure, policy, x, params[x])] = float(runs["average_cost"].iloc[0])
    return out


def ensemble_cost(point: dict) -> float:
    """Relative cost of recomputing a point: events grow with the completions (and a
    little with the load, through lost arrivals at the truncation); a readings point
    (no completions) by its states, times its load."""
    if point.get("completions") is None:
        return 6 * (point["truncation"] + 1) * (2 * point["truncation"] + 1) * (1 + point["rho"])
    return point["completions"] * (1 + point["rho"])


def ensemble_runs(store: pd.DataFrame, figure: str) -> dict[tuple[float, str], np.ndarray]:
    """The store's runs of ``figure``: ``{(x value, policy): costs in replicate order}``
    over :data:`SIM_FIGURES`'s points (a missing one is an error naming it)."""
    x, points = SIM_FIGURES[figure]
    runs = {}
    for point in points:
        k = _full(point)[x]
        for policy in POLICIES:
            runs[k, policy] = values(store, ensemble_key(figure, policy, x, k))
    return runs


def ensemble_costs(store: pd.DataFrame) -> pd.DataFrame:
    """Every figure's point and policy at paper scale: the mean of the runs, its
    Student-t 95 % half-width (as the paper's interval over its 60 replications), the
    single-run range and the number of runs (:func:`policy_costs`'s columns, plus
    ``figure``, ``x``, ``low``, ``high``, ``replicates``)."""
    rows = []
    for figure, (x, _) in SIM_FIGURES.items():
        for (k, policy), costs in ensemble_runs(store, figure).items():
            s = summarize(costs)
            rows.append(
                {
                    "figure": figure,
                    "x": x,
                    x: k,
                    "policy": policy,
                    "average_cost": s.mean,
                    "ci": s.ci,
                    "low": s.low,
                    "high": s.high,
                    "replicates": s.n,
                }
            )
    return pd.DataFrame(rows)


def _paired_cells(cells, *, higher_is_better: bool = False) -> dict:
    """Each cell ``(label, a, b)``: "a beats b" on the paired runs
    (:func:`hpcmodels.papers.ensemble.paired_claim`). Returns the cells sorted into ``better``,
    ``unresolved`` (the paired 95 % CI contains 0) and ``reversed``, each a list of
    ``label (mean +- ci)`` texts, and ``text`` listing every cell."""
    out = {"better": [], "unresolved": [], "reversed": [], "all": [], "n": 0}
    for label, a, b in cells:
        r = paired_claim("", "", a, b, higher_is_better=higher_is_better)
        text = f"{label}: {r['mean']:+.3g} ± {r['ci']:.2g}"
        out["n"] = r["replicates"]
        out["all"].append(text)
        if r["verdict"] == "qualitative":
            out["better"].append(text)
        elif "contains 0" in r["reason"]:
            out["unresolved"].append(text)
        else:
            out["reversed"].append(text)
    return out


def _cells_cause(cells: dict, why: str = "cause not identified") -> str:
    parts = []
    if cells["reversed"]:
        parts.append("reversed on the paired runs at " + "; ".join(cells["reversed"]) + f": {why}")
    if cells["unresolved"]:
        parts.append(
            "the paired 95 % CI contains 0 at "
            + "; ".join(cells["unresolved"])
            + f": {cells['n']} runs cannot tell them apart"
        )
    return "; ".join(parts)


def _holds(cells: dict) -> bool:
    return not cells["reversed"] and not cells["unresolved"]


def _row(
    key: str,
    holds: bool,
    ours: str,
    *,
    cause: str = "",
    paper: str = "",
    replicates: int = 0,
    note: str = "",
) -> dict:
    """A paper-scale claim row under :data:`SIM_CLAIMS`'s item and quantity."""
    item, quantity = SIM_CLAIMS[key]
    row = compare_claim(
        item, quantity, paper or quantity, bool(holds), ours, cause=cause, note=note
    )
    row["replicates"] = replicates
    return row


def _close_at(runs: dict, ks, a: str = "heuristic", b: str = "optimal") -> tuple[dict, str]:
    """Whether ``a`` is "close" to ``b`` at each ``k`` (the report's one meaning,
    :func:`alike`, on the means of the runs and their 95 % half-widths) and the paired
    gap ``a - b`` at each, as text."""
    close, parts = {}, []
    for k in ks:
        sa, sb, d = summarize(runs[k, a]), summarize(runs[k, b]), summarize(runs[k, a] - runs[k, b])
        close[k] = alike([sa.mean, sb.mean], [sa.ci, sb.ci])
        parts.append(
            f"{k:g}: {d.mean:+.3g} ± {d.ci:.2g} ({100 * d.mean / sb.mean:+.1f} %"
            f"{'' if close[k] else ', not close'})"
        )
    return close, f"{a} - {b} on the paired runs: " + "; ".join(parts)


def _far(close: dict, ks, why: str | None = None) -> str:
    """The cause of a "close" claim that fails: where the gap is beyond both limits, and
    ``why`` (the readings tried there, :func:`~.readings.readings_cause`; None: "cause
    not identified")."""
    far = ", ".join(f"{k:g}" for k in ks if not close[k])
    return f"beyond 5 % and the 95 % intervals at {far}; {why or 'cause not identified'}"


def _spoken(key: str) -> tuple[str, list[float]]:
    """Statement ``key``'s figure's x and the points it speaks of
    (:data:`~.published.STATEMENTS`)."""
    st = STATEMENTS[key]
    x, points = SIM_FIGURES[st.item]
    xs = [_full(point)[x] for point in points]
    return x, [k for k, keep in zip(xs, st.at(xs), strict=True) if keep]


def _statement_cells(key: str, runs: dict, *, higher_is_better: bool = False) -> dict:
    """A "beats" statement on the paired runs: its policy ``a`` against ``b`` at every
    point it speaks of (:func:`_paired_cells`)."""
    st = STATEMENTS[key]
    x, ks = _spoken(key)
    return _paired_cells(
        [(f"{x} = {k:g}", runs[k, st.a], runs[k, st.b]) for k in ks],
        higher_is_better=higher_is_better,
    )


def _close_row(key: str, store: pd.DataFrame, **row) -> tuple[dict, dict]:
    """A "close" statement on the paired runs: the row (the gap at every point of the
    figure; it holds when close at every point it speaks of) and the verdict by point."""
    st = STATEMENTS[key]
    x, points = SIM_FIGURES[st.item]
    runs = ensemble_runs(store, st.item)
    close, gap = _close_at(runs, [_full(p)[x] for p in points])
    _, ks = _spoken(key)
    why = readings_cause(stored_readings(store), key, [k for k in ks if not close[k]], runs)
    return _row(key, all(close[k] for k in ks), gap, cause=_far(close, ks, why), **row), close


def ensemble_rows(store: pd.DataFrame) -> list[dict]:
    """Section 6's statements on Figs. 5-9 (:data:`~.published.STATEMENTS`) judged on
    the store (:mod:`hpcmodels.papers.ensemble`): the paper prints no number of these
    figures, so every row is a claim. "A beats B" holds when, at every point it speaks
    of, the paired differences of the same replicates have a 95 % interval on the
    claimed side of zero; "close" keeps the report's one meaning (:func:`alike`: within
    5 %, or the 95 % intervals overlap) on the means of the runs. Fig. 8's threshold is
    the exact one (:func:`coallocation_threshold`)."""
    r5 = ensemble_runs(store, "Fig. 5")
    n = len(r5[LOADS[0], "optimal"])
    runs = f"{n} runs of {int(store['completions'].iloc[0]):,} completions per point"
    common = dict(replicates=n, note=runs)
    rows = []

    # Fig. 5: close at moderate load, behind above 0.85, better than local everywhere
    row, close5 = _close_row("fig5 close", store, **common)
    rows.append(row)
    _, high = _spoken("fig5 behind")
    behind = _statement_cells("fig5 behind", r5)
    near = [f"the heuristic is close to optimal at rho = {k:g}" for k in high if close5[k]]
    rows.append(
        _row(
            "fig5 behind",
            _holds(behind) and not any(close5[k] for k in high),
            "optimal - heuristic, paired: " + "; ".join(behind["all"]),
            cause="; ".join(filter(None, [_cells_cause(behind), *near])),
            **common,
        )
    )
    beats = _statement_cells("fig5 beats local", r5)
    x5, loads = _spoken("fig5 beats local")
    reversed_at = [
        k for k in loads if any(t.startswith(f"{x5} = {k:g}:") for t in beats["reversed"])
    ]
    why = readings_cause(stored_readings(store), "fig5 beats local", reversed_at, r5)
    rows.append(
        _row(
            "fig5 beats local",
            _holds(beats),
            "heuristic - local, paired: " + "; ".join(beats["all"]),
            cause=_cells_cause(beats, why or "cause not identified"),
            **common,
        )
    )

    # Fig. 6: the reduction of optimal over local, per replicate, load after load
    red = {k: 100 * (1 - r5[k, "optimal"] / r5[k, "local"]) for k in LOADS}
    steps = _paired_cells(
        [(f"{a:g} -> {b:g}", red[b], red[a]) for a, b in zip(LOADS, LOADS[1:], strict=False)],
        higher_is_better=True,
    )
    per_load = "; ".join(
        f"{k:g}: {summarize(v).mean:.1f} ± {summarize(v).ci:.1f}" for k, v in red.items()
    )
    truncation = int(store["truncation"].iloc[0])
    extent = coallocation_extent([{"rho": k} for k in LOADS], truncation).set_index("rho")
    rows.append(
        _row(
            "fig6 grows",
            _holds(steps),
            f"% reduction 100 (1 - optimal/local) per run, by load: {per_load}; its "
            "change from load to load, paired: " + "; ".join(steps["all"]),
            cause=_cells_cause(
                steps,
                "the optimum co-allocates in fewer window states "
                "as the load rises (" + fmt_series(extent["optimal"]) + "; Sec. 5 row)",
            ),
            **common,
        )
    )

    # Fig. 7: equal costs
    rows.append(_close_row("fig7 close", store, **common)[0])

    # Fig. 8: mu3 at load 0.8
    r8 = ensemble_runs(store, "Fig. 8")
    threshold = coallocation_threshold(0.8, truncation=truncation)
    ext8 = coallocation_extent([{"rho": 0.8, "mu3": k} for k in MU3S], truncation).set_index("mu3")
    states = "; ".join(
        f"{k:g}: {ext8.at[k, 'heuristic_x1_1']} vs {ext8.at[k, 'optimal_x1_1']}" for k in ext8.index
    )
    opt = _statement_cells("fig8 beneficial", r8)
    rows.append(
        _row(
            "fig8 beneficial",
            threshold <= 0.5 and _holds(opt),
            f"the optimum first co-allocates at mu3 = {threshold:g}; optimal - local, "
            "paired: " + "; ".join(opt["all"]),
            paper=STATEMENTS["fig8 beneficial"].quote,
            cause=_cells_cause(opt) or f"the optimum first co-allocates at mu3 = {threshold:g}",
            **common,
        )
    )
    well = _statement_cells("fig8 very well", r8)
    rows.append(
        _row(
            "fig8 very well",
            _holds(well),
            "heuristic - local, paired: " + "; ".join(well["all"]),
            paper=STATEMENTS["fig8 very well"].quote,
            cause=_cells_cause(
                well,
                "the heuristic's rule p c1 q1 > c2 q2 ignores "
                "mu3: co-allocating window states (x1 = 1), heuristic "
                f"vs optimum, by mu3: {states}",
            ),
            **common,
        )
    )
    row, close8 = _close_row("fig8 close", store, **common)
    rows.append(row)
    _, lows = _spoken("fig8 fails")
    fails = _statement_cells("fig8 fails", r8)
    _, gap_low = _close_at(r8, lows)
    rows.append(
        _row(
            "fig8 fails",
            _holds(fails) and not any(close8[k] for k in lows),
            "local - heuristic, paired: " + "; ".join(fails["all"]) + f"; {gap_low}",
            paper=STATEMENTS["fig8 fails"].quote,
            cause=_cells_cause(fails) or "the heuristic is close to the optimum there",
            **common,
        )
    )

    # Fig. 9: p at load 0.8
    r9 = ensemble_runs(store, "Fig. 9")
    rows.append(_close_row("fig9 close", store, **common)[0])
    means = {k: float(np.mean(r9[k, "optimal"])) for k in PS}
    top = max(means, key=means.get)
    ends = [k for k in (min(PS), max(PS)) if k != top]
    above = _paired_cells(
        [(f"p = {top:g} vs {k:g}", r9[top, "optimal"], r9[k, "optimal"]) for k in ends],
        higher_is_better=True,
    )
    interior = top not in (min(PS), max(PS))
    rows.append(
        _row(
            "fig9 balanced",
            interior and _holds(above),
            "optimal cost by p: "
            + "; ".join(
                f"{k:g}: {summarize(r9[k, 'optimal']).mean:.2f} ± "
                f"{summarize(r9[k, 'optimal']).ci:.2g}"
                for k in PS
            )
            + (
                f"; highest at p = {top:g}, above the ends, paired: " + "; ".join(above["all"])
                if interior
                else ""
            ),
            cause=_cells_cause(above)
            if interior
            else f"the optimal cost is highest at p = {top:g}, an end of the range",
            **common,
        )
    )
    return rows


def exact_check(costs: pd.DataFrame, truncation: int = 30) -> pd.DataFrame:
    """:func:`ensemble_costs`'s frame with each policy's exact long-run average cost on
    the truncated chain (:meth:`CoallocationMDP.average_cost`, from the stationary
    distribution) and ``z``: how many standard errors of the mean of the runs it lies
    from that value (a check of the simulation at paper scale). ``truncation`` is a
    whole number in [1, 1000]."""
    from scipy import stats

    truncation = check_truncation(truncation)

    exact = {}
    for figure, (x, points) in SIM_FIGURES.items():
        for point in points:
            params = _full(point)
            key = tuple(params.values())
            if key not in exact:
                mdp = model(truncation, **params)
                heuristic = heuristic_actions(mdp)
                exact[key] = {
                    "optimal": mdp.average_cost(_optimal(mdp, (truncation, *key)).policy),
                    "heuristic": mdp.average_cost(heuristic),
                    "local": mdp.average_cost(np.zeros_like(heuristic)),
                }
            exact[figure, params[x]] = exact[key]
    out = costs.copy()
    out["exact"] = [exact[r.figure, getattr(r, r.x)][r.policy] for r in out.itertuples()]
    se = out["ci"] / stats.t.ppf(0.975, out["replicates"] - 1)
    out["z"] = (out["average_cost"] - out["exact"]) / se
    return out
