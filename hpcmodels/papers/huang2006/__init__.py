"""Huang & Chang (PDPTA 2006): the published tables and the functions that rebuild them
with ``hpcmodels.multicluster`` (notebook ``02_huang2006_integrated.ipynb``; the
readings below are also in ``docs/readings.md``).

Set-ups (Sections 2-4):

* Section 2: the SDSC SP2 jobs with status "completed" in one queue on a single
  384-processor cluster; load factor f multiplies every runtime (f = 1 ... 4).
* Sections 3-4: a grid of five sites with 8, 128, 128, 128 and 50 processors (site i
  gets the jobs of SP2 queue i) and one central queue over all sites: FCFS ("single-pool
  centralized queue") with one of five allocation methods, co-allocation across sites
  when no single site fits, the co-allocated runtime multiplied by the slowdown ratio.
  Tables 5-6 use the fixed-order co-allocation heuristic; Tables 7-8 best fit with each
  heuristic; Table 9 compares FCFS + first fit + fixed order with the integrated
  approach, smallest first + best fit + larger first.

Which log. The paper used the full log (Section 2: 56,490 completed jobs of 73,496
records). Offline only the cleaned log is available: 43,117 completed jobs, queues 1, 2
and 5 complete, queues 3 and 4 without the jobs the cleaning removed. :func:`load_jobs`
takes the full log when present and says which it used. On the cleaned log no row can
be ``exact`` (another input), and what agreement to expect there is measured:
:func:`cleaning_effect` shows which jobs the cleaning removed (from Table 1 and ours),
and every table runs at a nearly constant ours/paper ratio, its *typical ratio* (the
median over its cells). :func:`ratio_check` flags the cells that break it (beyond the
report's tolerance for the kind, around typical ratio x paper); every row shows its
ratio, and a row that breaks it says so with the numbers (:func:`table_rows`).

Readings:

* The waiting ratio is the mean of the per-job ratios wait / execution time (it
  reproduces Table 3's magnitudes; the ratio of the means is 50-100 times smaller).
* Median fit (Section 3: "the site with the median number of available processors")
  does not say which of the two middle sites when an even number of sites fit. Both
  readings run: ``median_fit``, the lower median (column "Median Fit", the engine's
  default), and ``median_fit_upper``, the upper median (column :data:`MEDIAN_UPPER`).
  Both are compared with the paper's column, and every claim that involves median fit
  is checked under each (:func:`median_readings` puts them side by side).
* Random fit runs once per seed of :data:`RANDOM_SEEDS`; its cells are the mean over
  the seeds with a Student-t 95 % interval (:func:`hpcmodels.stats.t_interval`), which
  the comparison takes as ours' uncertainty.
* The site a job came from does not restrict where it runs (one central queue).

Every table's runs are one sweep (:func:`hpcmodels.sweep.sweep`, on Dask) of
:func:`simulate_run`, one simulation per point (random fit: per seed).

One shape, one module per step: :mod:`.published` (the printed numbers, settings and
readings), :mod:`.workload` (Section 2's log, Table 1), :mod:`.simulation` (the runs, as
frames), :mod:`.rows` (the tables cell by cell), :mod:`.claims` (the conclusions of
Sections 2-4), :mod:`.ensemble` (paper scale).
"""

from .claims import (
    section2_claims,
    section3_claims,
)
from .ensemble import (
    ENSEMBLE_LOG,
    ENSEMBLE_REPLICATES,
    ensemble_cost,
    ensemble_key,
    ensemble_point,
    ensemble_points,
    ensemble_rows,
)
from .published import (
    CI_METRICS,
    CLEANED_LOG,
    FULL_LOG,
    GRID,
    HEURISTICS,
    HIGH_ORDER,
    LOAD_FACTORS,
    LOG_RECORDS,
    LOW_ORDER,
    MEDIAN_UPPER,
    METHODS,
    OTHER_ALLOCATIONS,
    OUR_METHODS,
    POLICIES,
    RANDOM_SEEDS,
    READING_NOTES,
    READINGS,
    SINGLE_CLUSTER,
    SLOWDOWNS,
    TABLE1,
    TABLE2,
    TABLE3,
    TABLE5,
    TABLE6,
    TABLE7,
    TABLE8,
    TABLE9,
    TOTAL_JOBS,
    WHERE_PRINTED,
    PrintedCell,
    printed_cells,
)
from .rows import (
    load_rows,
    ratio_check,
    slowdown_rows,
    table_rows,
    typical_ratios,
)
from .simulation import (
    allocation_by_slowdown,
    allocation_runs,
    median_readings,
    pivot,
    policies_by_load,
    random_fit_seeds,
    simulate_run,
    summarise_runs,
    table9_frame,
)
from .workload import (
    cleaning_effect,
    load_jobs,
    table1,
    totals_rows,
)

PAPER = "huang2006"
TITLE = "Huang & Chang 2006: integrated processor allocation and job scheduling on a grid"
CITATION = (
    "K.-C. Huang, H.-Y. Chang. An integrated processor allocation and job scheduling "
    "approach to workload management on computing grid. PDPTA 2006."
)

__all__ = [
    "PAPER",
    "TITLE",
    "CITATION",
    "section2_claims",
    "section3_claims",
    "ENSEMBLE_LOG",
    "ENSEMBLE_REPLICATES",
    "ensemble_cost",
    "ensemble_key",
    "ensemble_point",
    "ensemble_points",
    "ensemble_rows",
    "CI_METRICS",
    "CLEANED_LOG",
    "FULL_LOG",
    "GRID",
    "HEURISTICS",
    "HIGH_ORDER",
    "LOAD_FACTORS",
    "LOG_RECORDS",
    "LOW_ORDER",
    "MEDIAN_UPPER",
    "METHODS",
    "OTHER_ALLOCATIONS",
    "OUR_METHODS",
    "POLICIES",
    "RANDOM_SEEDS",
    "READING_NOTES",
    "READINGS",
    "SINGLE_CLUSTER",
    "SLOWDOWNS",
    "TABLE1",
    "TABLE2",
    "TABLE3",
    "TABLE5",
    "TABLE6",
    "TABLE7",
    "TABLE8",
    "TABLE9",
    "TOTAL_JOBS",
    "WHERE_PRINTED",
    "PrintedCell",
    "printed_cells",
    "load_rows",
    "ratio_check",
    "slowdown_rows",
    "table_rows",
    "typical_ratios",
    "allocation_by_slowdown",
    "allocation_runs",
    "median_readings",
    "pivot",
    "policies_by_load",
    "random_fit_seeds",
    "simulate_run",
    "summarise_runs",
    "table9_frame",
    "cleaning_effect",
    "load_jobs",
    "table1",
    "totals_rows",
]
