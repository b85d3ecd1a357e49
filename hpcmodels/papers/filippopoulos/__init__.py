"""Filippopoulos & Karatza (:data:`CITATION`): the published policy tables and
statements, and the functions that rebuild each figure with ``hpcmodels.mdp`` and check
each statement. The readings of the paper's ambiguous passages are in
``docs/readings.md`` (section "Filippopoulos & Karatza").

Experiments (Sections 5-6), all with mu1 = mu2 = 1, beta = 0.05, Delta = 30 unless said:

* Fig. 2: rho1 = rho2 = 0.8, p = 0.6, mu3 = 0.7, c1 = 2, c2 = 1; policy for x1 = 1
  (for x1 = 0 the paper reports "never co-allocate").
* Figs. 3-4: rho1 = rho2 = 0.9, p = 0.8, mu3 = 0.8; policy for x1 = 0 and x1 = 1.
* Fig. 5 (and 6, the % reduction): average cost of the optimal, heuristic and local
  policies for loads 0.5-0.9 (Fig. 2's other parameters); Fig. 7: equal costs
  c1 = c2 = 1, loads 0.5-0.83; Fig. 8: mu3 = 0.4-0.8 at load 0.8; Fig. 9: p = 0.2-0.8 at
  load 0.8. The paper simulates 2,000,000 completions x 60 replications per point; the
  figures' numbers are not in the text, so those items are checked through the claims.

The package goes from the published data (:mod:`.published`: tables, printed numbers,
quoted statements, the figures' points) to build functions returning frames
(:mod:`.policies`, Sections 4-5: ``policy_comparison``, ``truncation_study``,
``stopping_study``, ``reading_study``, ``beyond_window``, ``coallocation_extent``;
:mod:`.simulation`, Section 6: ``policy_costs``; both on :mod:`.model`) and from those
frames to report rows (:mod:`.rows`, Sections 4-5: ``*_rows``, ``*_claims``;
:mod:`.claims`, Section 6: the statements of :data:`STATEMENTS` as data, judged by one
checker). Paper scale is :mod:`.ensemble` (the store's points and the same statements
judged on its paired runs); :mod:`.readings` is what moves the cells that stay
``differs`` (the unstated choices as data, their exact effects, stored as study
"readings"). Every tolerance is a kind of :mod:`hpcmodels.papers.report`;
"close" is its :func:`~hpcmodels.papers.verdicts.alike`.
"""

from __future__ import annotations

from .claims import close_row, fig8_claims, simulation_claims
from .ensemble import (
    ENSEMBLE_SEED,
    ensemble_cost,
    ensemble_costs,
    ensemble_key,
    ensemble_point,
    ensemble_points,
    ensemble_rows,
    ensemble_runs,
    exact_check,
)
from .model import PRINTED_RULE, HeuristicRule, heuristic_actions, model
from .policies import (
    EXPERIMENT_STEPS,
    TRUNCATIONS,
    WINDOW,
    beyond_window,
    coallocation_extent,
    coallocation_threshold,
    policy_comparison,
    reading_study,
    stopping_study,
    truncation_study,
    window_stable_from,
)
from .published import (
    BEYOND_WINDOW,
    ENSEMBLE_COMPLETIONS,
    ENSEMBLE_REPLICATES,
    EQUAL_COST_LOADS,
    EXPERIMENT_1,
    EXPERIMENT_2,
    FIG2,
    FIG3,
    FIG4,
    FIG8_QUOTES,
    LOADS,
    MU3S,
    PAPER_ITERATIONS,
    PAPER_STATES,
    PAPER_TABLES,
    PAPER_THETA,
    PS,
    SIM_CLAIMS,
    SIM_FIGURES,
    STATEMENTS,
    Statement,
)
from .readings import (
    READING_NAMES,
    READINGS,
    RESIDUAL_CELLS,
    Cell,
    Reading,
    reading_costs,
    readings_cause,
    readings_list,
    readings_table,
    stored_readings,
    tornadoes,
)
from .rows import (
    beyond_window_rows,
    complexity_rows,
    extent_claims,
    policy_claims,
    policy_rows,
)
from .simulation import POLICIES, policy_cost, policy_costs

PAPER = "filippopoulos"
TITLE = "Filippopoulos & Karatza: a dynamic programming model of co-allocation in two clusters"
CITATION = (
    "D. Filippopoulos, H. Karatza. A dynamic programming model of two heterogeneous "
    "clusters with co-allocation of jobs."
)

__all__ = [
    "BEYOND_WINDOW",
    "Cell",
    "HeuristicRule",
    "PRINTED_RULE",
    "READINGS",
    "READING_NAMES",
    "RESIDUAL_CELLS",
    "Reading",
    "reading_costs",
    "readings_cause",
    "readings_list",
    "readings_table",
    "stored_readings",
    "tornadoes",
    "CITATION",
    "ENSEMBLE_COMPLETIONS",
    "ENSEMBLE_REPLICATES",
    "ENSEMBLE_SEED",
    "EQUAL_COST_LOADS",
    "EXPERIMENT_1",
    "EXPERIMENT_2",
    "EXPERIMENT_STEPS",
    "FIG2",
    "FIG3",
    "FIG4",
    "FIG8_QUOTES",
    "LOADS",
    "MU3S",
    "PAPER",
    "PAPER_ITERATIONS",
    "PAPER_STATES",
    "PAPER_TABLES",
    "PAPER_THETA",
    "POLICIES",
    "PS",
    "SIM_CLAIMS",
    "SIM_FIGURES",
    "STATEMENTS",
    "Statement",
    "TITLE",
    "TRUNCATIONS",
    "WINDOW",
    "beyond_window",
    "beyond_window_rows",
    "close_row",
    "coallocation_extent",
    "coallocation_threshold",
    "complexity_rows",
    "ensemble_cost",
    "ensemble_costs",
    "ensemble_key",
    "ensemble_point",
    "ensemble_points",
    "ensemble_rows",
    "ensemble_runs",
    "exact_check",
    "extent_claims",
    "fig8_claims",
    "heuristic_actions",
    "model",
    "policy_claims",
    "policy_comparison",
    "policy_cost",
    "policy_costs",
    "policy_rows",
    "reading_study",
    "simulation_claims",
    "stopping_study",
    "truncation_study",
    "window_stable_from",
]
