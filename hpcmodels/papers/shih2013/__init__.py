"""Shih, Huang, Lee, Chung, Chung. *TLA: temporal look-ahead processor allocation
method for heterogeneous multi-cluster systems.* Journal of Parallel and Distributed
Computing 73, 2013 (notebook ``01_shih2013_tla.ipynb``).

The package reproduces Section 3's worked example (Table 1, Figs. 4 and 9), the
workloads of Table 3, TLA's improvement over best fit, fastest first and AI2 (Table 4,
Figs. 6-7), A2's utilization (Table 5), and Section 5's studies of TLA's knobs (Figs. 5,
8, 10-13), at quick sizes and at paper scale. The readings and reconstructions it
depends on (the Fig. 4 snapshot, the scrambled Table 4, the speed vectors) are in
``docs/readings.md``.

One shape, one module per step:

* :mod:`.published`: the printed numbers, claims and settings, each with its source;
* :mod:`.workloads`: Table 3's workloads (Section 4.1) and Table 3's rows;
* :mod:`.snapshot`: Section 3's scoring step on the snapshot;
* :mod:`.section4`, :mod:`.section5`: the runs, returned as frames;
* :mod:`.rows`: the frames against the published data, as report rows;
* :mod:`.ensemble`, :mod:`.scale_rows`: the paper-scale points and their rows.
"""

from .ensemble import (
    ALL_WAITING,
    FIG10_DEPTHS,
    FIG12_DEPTHS,
    FIG12_POLICIES,
    FIG13_ALLOCATION_DEPTHS,
    SECTION5_REPLICATES,
    SECTION5_RUNS,
    ensemble_cost,
    ensemble_key,
    ensemble_point,
    ensemble_points,
    section5_key,
    section5_point,
    table4_point,
)
from .published import (
    ANL_LOG,
    CLAIMS,
    CTC_LOG,
    DAS2_LOGS,
    FIG9_ATT,
    FIG10_ACTIVATIONS,
    INACCURACY_FACTORS,
    LOADS,
    METHODS,
    R2_ACTUAL_END,
    SDSC_LOG,
    SECTION5_CLAIMS,
    SH_LEVELS,
    SNAPSHOT_CLUSTERS,
    SNAPSHOT_RUNNING,
    SNAPSHOT_WAITING,
    TABLE1,
    TABLE1_AVERAGE,
    TABLE3,
    TABLE4,
    TABLE5,
    Workload,
    paper_claim,
)
from .reading_effects import consistent_set, reading_conclusions, reading_effects, tornado_charts
from .readings import READING_CELLS, READING_REPLICATES, READINGS, reading_point, reading_points
from .rows import (
    SDSC_INPUT,
    activation_rows,
    claim_rows,
    depth_rows,
    section5_claims,
    spread_rows,
    table4_claims,
    table4_rows,
    table5_rows,
)
from .scale_rows import (
    ensemble_rows,
    section5_ensemble_rows,
    section5_label,
    section5_means,
    section5_runs,
    table4_improvements,
)
from .section4 import (
    configuration_point,
    improvement,
    run_configurations,
    table5_frame,
    vector_spread,
)
from .section5 import (
    decision_seconds,
    depth_study,
    inaccuracy_study,
    scoring_times,
    study_point,
    tla_knob_study,
)
from .snapshot import snapshot_rows, snapshot_scores, snapshot_table
from .workloads import (
    ENSEMBLE_JOBS,
    ENSEMBLE_VECTORS,
    replicate_jobs,
    scaled_jobs,
    table3,
    workload_jobs,
)

PAPER = "shih2013"

__all__ = [
    "PAPER",
    "ALL_WAITING",
    "ANL_LOG",
    "CLAIMS",
    "CTC_LOG",
    "DAS2_LOGS",
    "ENSEMBLE_JOBS",
    "ENSEMBLE_VECTORS",
    "FIG9_ATT",
    "FIG10_ACTIVATIONS",
    "FIG10_DEPTHS",
    "FIG12_DEPTHS",
    "FIG12_POLICIES",
    "FIG13_ALLOCATION_DEPTHS",
    "INACCURACY_FACTORS",
    "LOADS",
    "METHODS",
    "R2_ACTUAL_END",
    "READINGS",
    "READING_CELLS",
    "READING_REPLICATES",
    "SDSC_INPUT",
    "SDSC_LOG",
    "SECTION5_CLAIMS",
    "SECTION5_REPLICATES",
    "SECTION5_RUNS",
    "SH_LEVELS",
    "SNAPSHOT_CLUSTERS",
    "SNAPSHOT_RUNNING",
    "SNAPSHOT_WAITING",
    "TABLE1",
    "TABLE1_AVERAGE",
    "TABLE3",
    "TABLE4",
    "TABLE5",
    "Workload",
    "activation_rows",
    "claim_rows",
    "configuration_point",
    "consistent_set",
    "decision_seconds",
    "depth_rows",
    "depth_study",
    "ensemble_cost",
    "ensemble_key",
    "ensemble_point",
    "ensemble_points",
    "ensemble_rows",
    "improvement",
    "inaccuracy_study",
    "paper_claim",
    "reading_conclusions",
    "reading_effects",
    "reading_point",
    "reading_points",
    "replicate_jobs",
    "run_configurations",
    "scaled_jobs",
    "scoring_times",
    "section5_claims",
    "section5_ensemble_rows",
    "section5_key",
    "section5_label",
    "section5_means",
    "section5_point",
    "section5_runs",
    "snapshot_rows",
    "snapshot_scores",
    "snapshot_table",
    "spread_rows",
    "study_point",
    "table3",
    "table4_claims",
    "table4_improvements",
    "table4_point",
    "table4_rows",
    "table5_frame",
    "table5_rows",
    "tla_knob_study",
    "tornado_charts",
    "vector_spread",
    "workload_jobs",
]
