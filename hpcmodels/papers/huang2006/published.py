"""Huang & Chang 2006's printed numbers and settings, as data: the log (Section 2),
the two systems (Section 2: one 384-processor cluster; Sections 3-4: the five-site
grid), the load factors and slowdown ratios, the policies, allocation methods and
co-allocation heuristics compared, and Tables 1-3 and 5-9 as printed (strings, so that
a cell keeps its printed precision). Also our readings of the paper's columns (the two
median-fit readings, ``docs/readings.md``) and the orderings Section 3 claims.
"""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd

from ...errors import InvalidType, check_real
from ...multicluster import Cluster

FULL_LOG = "SDSC-SP2-1998-4.2"
CLEANED_LOG = "SDSC-SP2-1998-4.2-cln"
LOG_RECORDS = 73496  # Section 2: records of the SDSC SP2 log
TOTAL_JOBS = 56490  # Section 2 and Table 1: completed jobs used
SINGLE_CLUSTER = [Cluster("SDSC SP2 x3", 384)]
GRID = [Cluster(f"site {i + 1}", p) for i, p in enumerate((8, 128, 128, 128, 50))]
LOAD_FACTORS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
SLOWDOWNS = (1.0, 2.0, 4.0, 5.0)
RANDOM_SEEDS = tuple(range(20))
"""Seeds of random fit's runs; its cells are the mean over them."""
POLICIES = {  # Table 2/3 column -> selection
    "FCFS": "fcfs",
    "First Available": "first_available",
    "Smallest First": "smallest_first",
    "Largest First": "largest_first",
    "Backfilling": "conservative",
}
METHODS = {  # Table 5/6 column -> allocation ("Median Fit": the lower-median reading)
    "First Fit": "first_fit",
    "Median Fit": "median_fit",
    "Random Fit": "random_fit",
    "Best Fit": "best_fit",
    "Worst Fit": "worst_fit",
}
MEDIAN_UPPER = "Median Fit (upper median)"
READINGS = {MEDIAN_UPPER: "Median Fit"}
"""Our extra columns of Tables 5-6, each another reading of a paper's column."""
OTHER_ALLOCATIONS = {MEDIAN_UPPER: "median_fit_upper"}
OUR_METHODS = [*METHODS, *OTHER_ALLOCATIONS]
READING_NOTES = {
    "Median Fit": "reading: lower median of the fitting sites (median_fit)",
    MEDIAN_UPPER: "reading: upper median of the fitting sites (median_fit_upper)",
}
HEURISTICS = {
    "Best Fit with Fixed Order": "fixed_order",
    "Best Fit with Smaller First": "smaller_first",
    "Best Fit with Larger First": "larger_first",
}
CI_METRICS = ("mean_wait", "mean_waiting_ratio")

# ------------------------------------------------------------------ published numbers
TABLE1 = pd.DataFrame(  # per queue: jobs, max runtime, mean runtime, max procs, mean procs
    [(4053, 21922, "267.13", 8, "3"), (6795, 64411, "6746.27", 128, "16"),
     (26067, 118561, "5657.81", 128, "12"), (19398, 64817, "5935.92", 128, "6"),
     (177, 42262, "462.46", 50, "4")],
    index=pd.Index([1, 2, 3, 4, 5], name="queue"),
    columns=["jobs", "max_runtime", "mean_runtime", "max_procs", "mean_procs"],
)  # fmt: skip
TABLE2 = pd.DataFrame(  # average waiting time (s)
    [["102.71", "49.17", "47.40", "51.86", "50.73"],
     ["335.20", "142.49", "134.14", "150.79", "157.63"],
     ["956.25", "370.18", "343.39", "417.00", "396.85"],
     ["2815.84", "938.98", "833.67", "1075.84", "1082.79"],
     ["8328.50", "2280.82", "1909.66", "3059.78", "2863.94"],
     ["350945.34", "51191.40", "49653.18", "95794.07", "65481.10"]],
    index=pd.Index(LOAD_FACTORS, name="load factor"), columns=list(POLICIES),
)  # fmt: skip
TABLE3 = pd.DataFrame(  # average waiting ratio
    [["0.77", "0.17", "0.15", "0.21", "0.16"], ["1.89", "0.51", "0.40", "0.53", "0.53"],
     ["4.08", "0.86", "0.79", "1.15", "0.85"], ["10.38", "1.68", "1.29", "2.03", "1.75"],
     ["26.92", "3.15", "2.19", "5.27", "3.22"], ["840.93", "62.63", "21.99", "153.65", "50.72"]],
    index=pd.Index(LOAD_FACTORS, name="load factor"), columns=list(POLICIES),
)  # fmt: skip
TABLE5 = pd.DataFrame(  # average waiting time (s), FCFS + fixed-order co-allocation
    [["50.36"] * 5, ["61.71", "65.08", "80.10", "60.48", "93.93"],
     ["117.57", "166.13", "92.48", "64.05", "530.58"],
     ["200.71", "959.88", "133.83", "99.44", "2219.90"]],
    index=pd.Index(SLOWDOWNS, name="slowdown ratio"), columns=list(METHODS),
)  # fmt: skip
TABLE6 = pd.DataFrame(  # average waiting ratio
    [["0.37"] * 5, ["0.47", "0.50", "0.65", "0.47", "0.76"],
     ["0.90", "1.28", "0.86", "0.51", "5.06"], ["1.88", "10.11", "1.14", "0.75", "23.11"]],
    index=pd.Index(SLOWDOWNS, name="slowdown ratio"), columns=list(METHODS),
)  # fmt: skip
TABLE7 = pd.DataFrame(  # waiting time (s), best fit with each heuristic
    [["50.36", "50.36", "50.36"], ["60.48", "60.13", "60.23"], ["64.05", "64.07", "63.71"],
     ["99.44", "176.57", "66.12"]],
    index=pd.Index(SLOWDOWNS, name="slowdown ratio"), columns=list(HEURISTICS),
)  # fmt: skip
TABLE8 = pd.DataFrame(  # waiting ratio
    [["0.37"] * 3, ["0.47"] * 3, ["0.51"] * 3, ["0.75", "1.61", "0.53"]],
    index=pd.Index(SLOWDOWNS, name="slowdown ratio"), columns=list(HEURISTICS),
)  # fmt: skip
TABLE9 = pd.DataFrame(  # single-pool centralized queue vs the integrated approach
    [["200.71", "28.54", "1.88", "0.08"], ["117.57", "23.68", "0.90", "0.07"],
     ["61.71", "23.30", "0.47", "0.07"], ["50.36", "22.18", "0.37", "0.06"]],
    index=pd.Index([5.0, 4.0, 2.0, 1.0], name="slowdown ratio"),
    columns=["wait single-pool", "wait integrated", "ratio single-pool", "ratio integrated"],
)  # fmt: skip

PRINTED_TABLES = {
    "Table 2": ("mean_wait", TABLE2, "load factor"),
    "Table 3": ("mean_waiting_ratio", TABLE3, "load factor"),
    "Table 5": ("mean_wait", TABLE5, "slowdown"),
    "Table 6": ("mean_waiting_ratio", TABLE6, "slowdown"),
    "Table 7": ("mean_wait", TABLE7, "slowdown"),
    "Table 8": ("mean_waiting_ratio", TABLE8, "slowdown"),
}
"""Tables 2-3 and 5-8 by item: the engine metric each prints, its printed values, and what
its rows are (load factors on one cluster, slowdown ratios on the grid)."""


LOW_ORDER = ["Best Fit", "First Fit", "Median Fit", "Random Fit", "Worst Fit"]
HIGH_ORDER = ["Best Fit", "Random Fit", "First Fit", "Median Fit", "Worst Fit"]


class PrintedCell(NamedTuple):
    """One printed cell: ``table`` (e.g. "Table 5"), its row (``label`` = ``row``), its
    ``column``, the engine metric it is (``mean_wait`` or ``mean_waiting_ratio``) and
    the value as printed."""

    table: str
    label: str
    row: float
    column: str
    metric: str
    printed: str


WHERE_PRINTED = (
    "the paper prints numbers for one 384-processor cluster at load factors 1, 1.5, 2, "
    "2.5, 3 and 4 (Tables 2-3: each selection policy) and for the five-site grid at load "
    "factor 1 and slowdown ratio 1, 2, 4 or 5: FCFS + fixed-order co-allocation with each "
    "allocation (Tables 5-6), FCFS + best fit with each heuristic (Tables 7-8), and the "
    "integrated approach, smallest first + best fit + larger first (Table 9)"
)


def _pair(
    tables: tuple[str, str], label: str, row: float, columns: tuple[str, str]
) -> list[PrintedCell]:
    """The waiting time and waiting ratio cells of one run: ``tables`` and ``columns``
    name them in the wait table and the ratio table."""
    printed = {item: table for item, (_, table, _) in PRINTED_TABLES.items()}
    printed["Table 9"] = TABLE9
    return [
        PrintedCell(t, label, row, c, metric, printed[t].loc[row, c])
        for t, c, metric in zip(tables, columns, ("mean_wait", "mean_waiting_ratio"), strict=True)
    ]


def printed_cells(
    clusters, selection: str, allocation: str, coallocation: str | None,
    load_factor: float, slowdown: float,
) -> list[PrintedCell]:  # fmt: skip
    """The cells Huang & Chang print for this configuration (empty where they print
    none, :data:`WHERE_PRINTED`): on :data:`SINGLE_CLUSTER` Tables 2-3 (the selection
    policy at the load factor; allocation, co-allocation and slowdown change nothing on
    one cluster); on :data:`GRID` at load factor 1 Tables 5-6 (FCFS, fixed order, the
    allocation), Tables 7-8 (FCFS, best fit, the other heuristics) or Table 9's
    integrated column (smallest first, best fit, larger first)."""
    load_factor = check_real("load_factor", load_factor, above=0)
    slowdown = check_real("slowdown", slowdown, at_least=1)
    for name, value in (("selection", selection), ("allocation", allocation)):
        if not isinstance(value, str):
            raise InvalidType(f"{name} must be a policy name, got {value!r}")
    if coallocation is not None and not isinstance(coallocation, str):
        raise InvalidType(f"coallocation must be a name or None, got {coallocation!r}")
    policies = {v: k for k, v in POLICIES.items()}
    if list(clusters) == SINGLE_CLUSTER:
        if selection in policies and load_factor in LOAD_FACTORS:
            column = policies[selection]
            return _pair(("Table 2", "Table 3"), "load factor", load_factor, (column, column))
        return []
    if list(clusters) != GRID or load_factor != 1.0 or slowdown not in SLOWDOWNS:
        return []
    methods = {v: k for k, v in METHODS.items()}
    heuristics = {v: k for k, v in HEURISTICS.items()}
    if selection == "fcfs" and coallocation == "fixed_order" and allocation in methods:
        column = methods[allocation]
        return _pair(("Table 5", "Table 6"), "slowdown", slowdown, (column, column))
    if selection == "fcfs" and allocation == "best_fit" and coallocation in heuristics:
        column = heuristics[coallocation]
        return _pair(("Table 7", "Table 8"), "slowdown", slowdown, (column, column))
    if (selection, allocation, coallocation) == ("smallest_first", "best_fit", "larger_first"):
        columns = ("wait integrated", "ratio integrated")
        return _pair(("Table 9", "Table 9"), "slowdown", slowdown, columns)
    return []
