"""He, Jarvis, Spooner, Jiang, Dillenberger, Nudd (IEEE TPDS 17(2), 2006; :data:`CITATION`):
the published numbers, the functions that rebuild each table and figure from
``hpcmodels.queueing``, and the checks that turn them into report rows.

Modules, along the paper's sections: :mod:`.published` (the printed numbers, settings and
readings as data); :mod:`.analytic` (Sections 3-4 and 5.7: the exact allocations, Fig.
8b), :mod:`.eq16` (Eq. 16 as printed) and :mod:`.tables` (Tables 3 and 4);
:mod:`.simulation` (Section 5: Figs. 3-8a); :mod:`.select`, :mod:`.percent`,
:mod:`.causes` and :mod:`.rows` (the quick run's report rows); :mod:`.ensemble`,
:mod:`.paired` and :mod:`.scale` (the paper-scale store and its rows). The readings of
the paper's ambiguous passages are listed below and in ``docs/readings.md``.

Shape: published numbers (``TABLE3_PAPER``, ``TABLE4_PAPER``, ``TEXT_NUMBERS``) ->
frames (:func:`table3`, :func:`table4`, :func:`fig3` ... :func:`fig8b`) -> report rows
(:func:`omr_reading_rows`, :func:`table4_checks`, :func:`fig3_checks` ...
:func:`fig8_checks`, :func:`bounded_pareto_rows`). A simulated figure is one sweep
(:func:`hpcmodels.sweep.sweep`, on Dask) of :func:`simulate_point`, one job stream per
algorithm, configuration and seed, summarised per configuration (:func:`simulate_cases`).

Paper scale (the end of the module): every case of every simulated figure, 20 seeds of
500,000-job streams each, is a point of the store ``results/he2006.parquet``
(:func:`ensemble_points`, :func:`ensemble_point`; :mod:`hpcmodels.papers.store`);
:func:`ensemble_rows` judges every simulated row on it by :mod:`hpcmodels.papers.ensemble`'s
rule, under the quick rows' item and quantity.

Set-ups (Section 5): mean job size 84 s on a speed-1 node; workload w means
``lambda = w sum_i m_i u_i``; 500,000 jobs per stream, the middle 300,000 measured, five
runs per point. Choices where the paper is silent, used throughout and stated in the
notebook:

* Fig. 5's slack (not given): uniform on [0, 10] as in Fig. 4.
* Fig. 6's slack upper limits (not given): 10, 20, ..., 60 s, on the Table 2 system.
* Figs. 7a/7b use the Table 2 system (not restated in Section 5.6), two-stage
  hyperexponential arrivals with balanced means, Bounded Pareto sizes (15, 4241, 1).
* Fig. 8 (approximate allocation): the fractions computed at the initial workload are
  kept while the workload moves. Fig. 8a is simulated (ORT-RR, common random numbers);
  the thresholds of Fig. 8b are solved exactly from the M/M/m model (random splitting,
  Eq. 10), since a 3 % threshold is below the noise of a short simulation.

Readings of ambiguous passages. Each alternative is computed beside the default, and the
report row says which one the default follows and which one matches the print:

* OMR (Eqs. 16-18). Default: Eq. 16 with the exponent ``m_i`` in the second term of the
  bracket, as in Eq. 9 (the miss rate of an M/M/m cluster is Erlang C times the slack's
  Laplace transform, Eqs. 14-15), solved exactly (:data:`OMR_READINGS`). Alternatives:
  Algorithm 1 as published, with its tolerances 1e-3 and 1e-4
  (:func:`hpcmodels.queueing.algorithm1`); and Eq. 16 as printed, whose exponent ``k``
  stands outside the sum over ``k``: read as the sum's last index, ``k = m_i - 1``
  (:func:`printed_miss_rate`, :func:`omr_printed_allocation`).
* Percentages (:data:`PERCENT_READINGS`). "A outperforms B by x %" is by default
  ``(B - A)/B``, the other reading ``(B - A)/A``; a decrease from ``R0`` to ``R1`` is
  ``(R0 - R1)/R0`` or ``(R0 - R1)/R1``; "deteriorates by 3 %, as compared with the
  accurate allocation" (Fig. 8) is ``(approximate - accurate)/accurate`` or
  ``/approximate``. Every printed percentage is computed under both; its verdict is for
  the reading nearer the printed value (:func:`percent_row`).
"""

from __future__ import annotations

from ...queueing import weighted_allocation
from .analytic import (
    allocation_summary,
    change_threshold,
    deterioration,
    fig8b,
    fractions,
    improvement,
    improvement_of_better,
    omr_thresholds,
    size_system,
    speed_system,
)
from .ensemble import (
    ENSEMBLE_REPLICATES,
    ENSEMBLE_SETTINGS,
    ENSEMBLE_STUDIES,
    MEASURES,
    PAPER_RUNS,
    ensemble_cost,
    ensemble_item,
    ensemble_point,
    ensemble_points,
    store_frames,
)
from .eq16 import omr_printed_allocation, printed_miss_rate, printed_wait_probability
from .percent import Reading, decrease_readings, gain_readings, minimum_row, percent_row
from .published import (
    ALGORITHMS,
    CHANGES,
    CVS,
    FIG3_SLACK,
    FIG4_SLACK,
    MEAN_JOB_SIZE_PAPER,
    OMR_READINGS,
    PERCENT_READINGS,
    SLACK_UPPERS,
    STEPS,
    STRATEGIES,
    TABLE2,
    TABLE3_PAPER,
    TABLE4_PAPER,
    TEXT_NUMBERS,
    WORKLOADS,
)
from .rows import (
    bounded_pareto_rows,
    fig3_checks,
    fig4_checks,
    fig5_checks,
    fig6_checks,
    fig7_checks,
    fig8_checks,
)
from .scale import (
    ensemble_rows,
    fig3_scale_rows,
    fig4_scale_rows,
    fig5_scale_rows,
    fig6_scale_rows,
    fig7_scale_rows,
    fig8_scale_rows,
)
from .simulation import (
    STEP_ALGORITHMS,
    Case,
    SimSettings,
    algorithm_cases,
    case_model,
    fig3,
    fig3_cases,
    fig4,
    fig5,
    fig6,
    fig6_cases,
    fig7_control,
    fig7_control_cases,
    fig7a,
    fig7a_cases,
    fig7b,
    fig7b_cases,
    fig8a,
    fig8a_cases,
    point_grid,
    simulate_cases,
    simulate_point,
    step_cases,
    summarise_seeds,
)
from .tables import (
    omr_reading_rows,
    omr_readings,
    published_fractions,
    table3,
    table4,
    table4_checks,
)

PAPER = "he2006"
TITLE = "He et al. 2006: ORT and OMR workload allocation in multiclusters (IEEE TPDS 17(2))"
CITATION = (
    "L. He, S. A. Jarvis, D. P. Spooner, H. Jiang, D. N. Dillenberger, G. R. Nudd. "
    "Allocating non-real-time and soft real-time jobs in multiclusters. "
    "IEEE Trans. Parallel and Distributed Systems 17(2):99-112, 2006."
)

__all__ = [
    "published_fractions",
    "algorithm_cases",
    "ALGORITHMS",
    "allocation_summary",
    "bounded_pareto_rows",
    "Case",
    "case_model",
    "change_threshold",
    "CHANGES",
    "CITATION",
    "CVS",
    "decrease_readings",
    "deterioration",
    "ensemble_cost",
    "ensemble_item",
    "ensemble_point",
    "ensemble_points",
    "ENSEMBLE_REPLICATES",
    "ensemble_rows",
    "ENSEMBLE_SETTINGS",
    "ENSEMBLE_STUDIES",
    "fig3",
    "fig3_cases",
    "fig3_checks",
    "fig3_scale_rows",
    "FIG3_SLACK",
    "fig4",
    "fig4_checks",
    "fig4_scale_rows",
    "FIG4_SLACK",
    "fig5",
    "fig5_checks",
    "fig5_scale_rows",
    "fig6",
    "fig6_cases",
    "fig6_checks",
    "fig6_scale_rows",
    "fig7_checks",
    "fig7_control",
    "fig7_control_cases",
    "fig7_scale_rows",
    "fig7a",
    "fig7a_cases",
    "fig7b",
    "fig7b_cases",
    "fig8_checks",
    "fig8_scale_rows",
    "fig8a",
    "fig8a_cases",
    "fig8b",
    "fractions",
    "gain_readings",
    "improvement",
    "improvement_of_better",
    "MEAN_JOB_SIZE_PAPER",
    "MEASURES",
    "minimum_row",
    "omr_printed_allocation",
    "omr_reading_rows",
    "OMR_READINGS",
    "omr_readings",
    "omr_thresholds",
    "PAPER",
    "PAPER_RUNS",
    "PERCENT_READINGS",
    "percent_row",
    "point_grid",
    "printed_miss_rate",
    "printed_wait_probability",
    "Reading",
    "SimSettings",
    "simulate_cases",
    "simulate_point",
    "size_system",
    "SLACK_UPPERS",
    "speed_system",
    "STEP_ALGORITHMS",
    "step_cases",
    "STEPS",
    "store_frames",
    "STRATEGIES",
    "summarise_seeds",
    "TABLE2",
    "table3",
    "TABLE3_PAPER",
    "table4",
    "table4_checks",
    "TABLE4_PAPER",
    "TEXT_NUMBERS",
    "TITLE",
    "weighted_allocation",
    "WORKLOADS",
]
