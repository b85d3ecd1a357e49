"""Notebook 06, across the papers: the methods of the five papers on one common ground
(:mod:`.ground`: one system, two workloads), run on common random numbers and compared
by paired differences (:mod:`.methods`)."""

from .ground import SIZES, WORKLOADS, ground_clusters, ground_jobs
from .methods import METHODS, METRICS, MODEL_OUTSIDE, SELECTIONS, Method, run_method

__all__ = [
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
