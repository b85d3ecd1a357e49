"""Filippopoulos & Karatza's optimal co-allocation decision beside the rules the other
papers' co-allocators follow, on the MDP's own two-cluster system.

The MDP's system (:mod:`hpcmodels.mdp.model`): cluster 1 of two nodes and cluster 2 of
one, each with its own FCFS queue; a 2-component job of queue 1 may be co-allocated on
one node of cluster 1 and the node of cluster 2, *pre-empting* cluster 2's job, and is
then served at rate ``mu3``. The engine serves one global queue and never pre-empts, so
this comparison is made in the MDP's model, not in the engine: each rule is a
stationary policy on the MDP's states, and its long-run average cost
``E[c1 (q1 + x1 + x2 + x11) + c2 q2]`` is computed exactly on the truncated chain
(:meth:`~hpcmodels.mdp.model.CoallocationMDP.average_cost`: the MDP's own prediction)
and simulated on the same truncated chain (:func:`~hpcmodels.mdp.simulate.simulate_policy`
with ``truncated=True``, as notebook 05's store; paired: every rule runs on the same
streams), so the two must agree within the simulation's interval. (Untruncated, the
system grows without bound under several rules at these loads, and a policy solved on
the truncated chain says nothing past it.)

Rules (:data:`RULES`):

* ``optimal (MDP)``: the solved policy (:func:`~hpcmodels.mdp.solve.solve`).
* ``optimal, no pre-emption``: the optimal rule kept only where cluster 2 is idle
  (``q2 = 0``): the part of it a non-pre-emptive scheduler can carry out. The gap to
  the optimum is what pre-emption is worth.
* ``split when it fits``: co-allocate the head job exactly when it does not fit on
  cluster 1 alone (one node free) and cluster 2 is idle. On two clusters this is what
  Huang & Chang's heuristics (every order gives the same split) and Jones's First-Fit do;
  Jones's A1 and B modules read link loads that this model does not have.
* ``F&K heuristic``: the paper's Section 6 rule ``p c1 q1 > c2 q2`` with ``x1 = 1``
  (:func:`hpcmodels.papers.filippopoulos.model.heuristic_actions`), which pre-empts.
* ``never (No Share)``: no co-allocation.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ...bounds import (
    MAX_SEED,
    check_completions,
)
from ...errors import InvalidParameter, InvalidType, check_each, check_frame, check_int
from ...mdp import CoallocationMDP, solve
from ...mdp.simulate import simulate_policy
from ...stats import t_interval
from ..filippopoulos.model import check_truncation, heuristic_actions, model
from ..filippopoulos.policies import EXPERIMENT_STEPS
from .compare import relative_difference
from .findings import CARRIED_COLUMNS

__all__ = [
    "DECISION_CLAIMS",
    "RULES",
    "decision_costs",
    "decision_findings",
    "decision_rules",
    "decision_runs",
]

RULES = (
    "optimal (MDP)",
    "optimal, no pre-emption",
    "split when it fits",
    "F&K heuristic",
    "never (No Share)",
)
QUICK_COMPLETIONS = 200_000
QUICK_REPLICATIONS = 10
RUN_COLUMNS = ["experiment", "rule", "replication", "average_cost", "exact", "coallocating_states"]
COST_COLUMNS = [
    "experiment",
    "rule",
    "exact",
    "simulated",
    "ci",
    "vs_optimal",
    "vs_optimal_ci",
    "relative",
]
"""The columns of :func:`decision_costs`' frame."""
PARAMETERS = {"rho", *inspect.signature(CoallocationMDP.from_loads).parameters} - {"truncation"}
"""What an experiment may set (:func:`hpcmodels.papers.filippopoulos.model.model`)."""


def _experiment(name: str, value: object) -> tuple[str, dict]:
    """One ``(name, parameters)`` pair of :func:`decision_runs`' ``experiments``."""
    if not isinstance(value, tuple | list) or len(value) != 2:
        raise InvalidType(f"{name} must be a (name, parameters) pair, got {value!r:.80}")
    label, params = value
    if not isinstance(label, str) or not isinstance(params, Mapping):
        raise InvalidType(
            f"{name} must be a (name, parameters) pair: a str and a dict, got {value!r:.80}"
        )
    unknown = sorted(set(params) - PARAMETERS)
    if unknown:
        raise InvalidParameter(
            f"{name} ({label!r}) sets unknown parameter(s) {unknown}; known: {sorted(PARAMETERS)}"
        )
    return label, dict(params)


def decision_rules(mdp: CoallocationMDP) -> dict[str, np.ndarray]:
    """Each rule of :data:`RULES` as one action per state of ``mdp`` (module docstring)."""
    if not isinstance(mdp, CoallocationMDP):
        raise InvalidType(f"mdp must be a CoallocationMDP, got {type(mdp).__name__}")
    q1, q2, _, x1, _, _ = mdp.states.T
    optimal = solve(mdp).policy.astype(np.int8)
    idle = q2 == 0
    return {
        "optimal (MDP)": optimal,
        "optimal, no pre-emption": (optimal.astype(bool) & idle).astype(np.int8),
        "split when it fits": (mdp.can_coallocate & (x1 == 1) & idle).astype(np.int8),
        "F&K heuristic": heuristic_actions(mdp),
        "never (No Share)": np.zeros(mdp.n_states, np.int8),
    }


def decision_runs(
    experiments=EXPERIMENT_STEPS,
    *,
    completions: int = QUICK_COMPLETIONS,
    replications: int = QUICK_REPLICATIONS,
    truncation: int = 30,
    seed: int = 0,
) -> pd.DataFrame:
    """Every rule at each ``(name, parameters)`` of ``experiments`` (default: notebook
    05's four, Fig. 2's experiment to Figs. 3-4's one parameter at a time): one row per
    replication with the simulated average cost (``replications`` runs of ``completions``
    completions on the chain truncated at ``truncation``, stream ``r`` of
    ``SeedSequence(seed)`` for every rule), the exact cost and how many states
    co-allocate.

    ``completions`` is a whole number in [1, 10**10], ``replications`` one in [2, 10**6]
    with ``completions x replications`` at most 10**12, ``truncation`` one in [1, 1000]
    and ``seed`` one in [0, 2**63 - 1] (:mod:`hpcmodels.bounds`); ``experiments`` a
    sequence of ``(name, parameters)`` pairs, a str and a dict of
    :func:`~hpcmodels.papers.filippopoulos.model.model`'s parameters (:data:`PARAMETERS`),
    every model built (its parameters checked) before any simulation. The columns are
    :data:`RUN_COLUMNS`."""
    completions, replications = check_completions(completions, replications, least=2)
    truncation = check_truncation(truncation)
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    experiments = check_each("experiments", experiments, _experiment)
    models = [(name, model(truncation, **params)) for name, params in experiments]
    rows = []
    for name, mdp in models:
        for rule, actions in decision_rules(mdp).items():
            runs = simulate_policy(
                mdp,
                actions,
                completions=completions,
                replications=replications,
                seed=seed,
                truncated=True,
            )
            exact = mdp.average_cost(actions)
            for r, cost in zip(runs["replication"], runs["average_cost"], strict=True):
                rows.append(
                    dict(
                        experiment=name,
                        rule=rule,
                        replication=int(r),
                        average_cost=float(cost),
                        exact=exact,
                        coallocating_states=int(actions.sum()),
                    )
                )
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def _check(runs: pd.DataFrame, *numeric: str) -> pd.DataFrame:
    """``runs`` of :func:`decision_runs`: its keys, one row per replication of a rule in
    an experiment, ``numeric`` finite numbers."""
    keys = ["experiment", "rule", "replication"]
    return check_frame("runs", runs, keys, numeric=numeric, unique=keys)


def _paired(runs: pd.DataFrame, rule: str, baseline: str) -> pd.DataFrame:
    wide = runs.pivot_table(
        index=["experiment", "replication"], columns="rule", values="average_cost", sort=False
    )
    rows = []
    for experiment, group in wide.groupby(level=0, sort=False):
        gaps = group[[rule, baseline]].isna().any(axis=1)
        if gaps.any():
            raise InvalidParameter(
                f"runs: rules {rule!r} and {baseline!r} were not run on the same replications "
                f"of experiment {experiment!r} (replication {gaps.idxmax()[1]!r}): the "
                "comparison is paired"
            )
        d = (group[rule] - group[baseline]).to_numpy()
        mean, half = t_interval(d)
        rows.append(
            dict(
                experiment=experiment,
                diff=mean,
                ci=half,
                relative=relative_difference(mean, group[baseline].mean()),
                verdict="better"
                if mean + half < 0
                else "worse"
                if mean - half > 0
                else "no difference",
            )
        )
    return pd.DataFrame(rows)


def decision_costs(runs: pd.DataFrame) -> pd.DataFrame:
    """Per experiment and rule of ``runs`` (:func:`decision_runs`): the exact average
    cost (the MDP's prediction), the simulated one with its 95 % half-width, and the
    paired difference to the optimal rule (half-width, relative to the optimum; NaN when
    ``runs`` lack the optimal rule). ``runs`` holds the columns ``experiment``, ``rule``,
    ``replication`` (one row per replication of a rule in an experiment, the same
    replications for every rule), ``average_cost`` and ``exact`` (finite numbers); empty
    ``runs`` give no row. The columns are :data:`COST_COLUMNS`."""
    _check(runs, "average_cost", "exact")
    rows = []
    for (experiment, rule), group in runs.groupby(["experiment", "rule"], sort=False):
        mean, half = t_interval(group["average_cost"].to_numpy())
        rows.append(
            dict(
                experiment=experiment,
                rule=rule,
                exact=group["exact"].iloc[0],
                simulated=mean,
                ci=half,
            )
        )
    table = pd.DataFrame(rows, columns=COST_COLUMNS)
    optimal = "optimal (MDP)"
    if optimal not in set(runs["rule"]):
        return table
    table.loc[table["rule"] == optimal, ["vs_optimal", "vs_optimal_ci", "relative"]] = 0.0
    for rule in dict.fromkeys(runs["rule"]):
        if rule == optimal:
            continue
        gap = _paired(runs, rule, optimal)
        mine = table["rule"] == rule
        table.loc[mine, "vs_optimal"] = gap["diff"].to_numpy()
        table.loc[mine, "vs_optimal_ci"] = gap["ci"].to_numpy()
        table.loc[mine, "relative"] = gap["relative"].to_numpy()
    return table


DECISION_CLAIMS = (
    (
        "optimal (MDP)",
        "split when it fits",
        "the optimal decision beats splitting a job whenever it fits (the other papers' rule)",
    ),
    (
        "optimal, no pre-emption",
        "split when it fits",
        "without pre-emption, the optimal decision beats splitting whenever it fits",
    ),
)


FINDING_COLUMNS = [c for c in CARRIED_COLUMNS if not c.endswith("_where")]
"""The columns of :func:`decision_findings`' frame: :func:`~.findings.carried_claims`'
but where (the experiments are not settings)."""


def decision_findings(runs: pd.DataFrame) -> pd.DataFrame:
    """The decision's comparisons (:data:`DECISION_CLAIMS`) judged at every experiment
    of ``runs`` by the paired 95 % rule, in the columns of
    :func:`~.findings.carried_claims`: does the optimum beat the rule the engine's
    co-allocators follow, and does it without pre-empting. ``runs`` as
    :func:`decision_costs` takes it (``exact`` not needed); a comparison whose two rules
    are not both in ``runs`` gives no row."""
    _check(runs, "average_cost")
    rows = []
    rules = set(runs["rule"])
    for better, worse, claim in DECISION_CLAIMS:
        if better not in rules or worse not in rules:
            continue
        table = _paired(runs, better, worse)
        counts = table["verdict"].value_counts()
        holds, reversed_ = int(counts.get("better", 0)), int(counts.get("worse", 0))
        noise = len(table) - holds - reversed_
        low, high = table["relative"].min(), table["relative"].max()
        reps = int(runs["replication"].nunique())
        sentence = (
            f"Filippopoulos & Karatza (Sections 5-6, MDP model): {claim} [average cost]: "
            f"holds at {holds} of {len(table)} experiments, within noise at {noise}, "
            f"reversed at {reversed_}; paired difference {100 * low:+.1f} % to "
            f"{100 * high:+.1f} % ({reps} paired runs each)"
        )
        rows.append(
            dict(
                paper="Filippopoulos & Karatza",
                source="Sections 5-6 (MDP model)",
                claim=claim,
                better=better,
                worse=worse,
                selection="FCFS",
                metric="average cost",
                settings=len(table),
                holds=holds,
                within_noise=noise,
                reversed=reversed_,
                best_relative=float(low),
                worst_relative=float(high),
                replicates=reps,
                finding=sentence,
            )
        )
    return pd.DataFrame(rows, columns=FINDING_COLUMNS)
