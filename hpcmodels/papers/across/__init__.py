"""Notebook 06, across the papers: the methods of the five papers on one common ground
(:mod:`.ground`: one system, two workloads), run on common random numbers and compared
by paired differences (:mod:`.methods`); at full scale in the store (:mod:`.ensemble`); Filippopoulos & Karatza's decision
in its own model (:mod:`.decision`)."""

from .compare import (
    QUICK_JOBS,
    QUICK_REPLICATES,
    ground_point,
    ground_runs,
    paired_differences,
    win_map,
)
from .decision import (
    DECISION_CLAIMS,
    RULES,
    decision_costs,
    decision_findings,
    decision_rules,
    decision_runs,
)
from .ensemble import (
    FULL_REPLICATES,
    SWEEPS,
    ensemble_cost,
    ensemble_findings,
    ensemble_point,
    ensemble_points,
    ensemble_runs,
)
from .findings import CLAIMS, CarriedClaim, carried_claims
from .ground import SIZES, WORKLOADS, available_workloads, ground_clusters, ground_jobs
from .methods import (
    GROUPS,
    METHODS,
    METRICS,
    MODEL_OUTSIDE,
    SELECTIONS,
    Links,
    Method,
    methods_table,
    run_method,
)

TITLE = "Across the papers: which method wins where"

__all__ = [
    "DECISION_CLAIMS",
    "RULES",
    "decision_costs",
    "decision_findings",
    "decision_rules",
    "decision_runs",
    "FULL_REPLICATES",
    "SWEEPS",
    "ensemble_cost",
    "ensemble_findings",
    "ensemble_point",
    "ensemble_points",
    "ensemble_runs",
    "CLAIMS",
    "GROUPS",
    "Links",
    "QUICK_JOBS",
    "QUICK_REPLICATES",
    "TITLE",
    "available_workloads",
    "CarriedClaim",
    "carried_claims",
    "ground_point",
    "ground_runs",
    "methods_table",
    "paired_differences",
    "win_map",
    "METHODS",
    "METRICS",
    "MODEL_OUTSIDE",
    "SELECTIONS",
    "SIZES",
    "WORKLOADS",
    "Method",
    "ground_clusters",
    "ground_jobs",
    "run_method",
]
