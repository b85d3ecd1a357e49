"""Huang & Chang 2006 at paper scale: the points of the store (:mod:`hpcmodels.papers.store`),
one replicate of a table row each, and the tables' rows judged on the store by the rules
of :mod:`hpcmodels.papers.ensemble`."""

from __future__ import annotations

import pandas as pd

from ...errors import InvalidParameter
from ..verdicts import claim
from .published import (
    CLEANED_LOG,
    GRID,
    HEURISTICS,
    LOAD_FACTORS,
    METHODS,
    OTHER_ALLOCATIONS,
    POLICIES,
    PRINTED_TABLES,
    READING_NOTES,
    READINGS,
    SINGLE_CLUSTER,
    SLOWDOWNS,
    TABLE9,
)
from .rows import cell_cause, ratio_check, ratio_note
from .simulation import simulate_run
from .workload import other_input_of

ENSEMBLE_REPLICATES = 20
"""Replicates of every table cell at paper scale (the whole log each time)."""


def ensemble_key(item: str, label: str, row: float, column: str) -> str:
    """The store's item key of one cell: ``item | quantity`` as :func:`table_rows`
    names it."""
    return f"{item} | {label} {row:g}, {column}"


ENSEMBLE_LOG = CLEANED_LOG
"""The log of the committed store: the cleaned SDSC SP2 log (the one the machine that
computed it had). Fixed rather than taken from what a machine has (:func:`load_jobs` prefers
the full log), so the store's points are the same everywhere; the full log, where
present, is the quick notebook's (``prefer_full_log``)."""


def ensemble_points() -> list[dict]:
    """Tables 2-3 and 5-9 at paper scale: the whole :data:`ENSEMBLE_LOG`,
    :data:`ENSEMBLE_REPLICATES` replicates of each load factor and slowdown ratio.
    Replicate ``r`` multiplies every runtime by :func:`~hpcmodels.papers.ensemble.runtime_scale`
    of ``r`` and seeds random fit with ``r``."""
    log = ENSEMBLE_LOG
    grid = [("load", lf) for lf in LOAD_FACTORS] + [("slowdown", s) for s in SLOWDOWNS]
    return [
        dict(log=log, study=study, x=float(x), replicate=r)
        for r in range(ENSEMBLE_REPLICATES)
        for study, x in grid
    ]


def ensemble_point(log: str, study: str, x: float, replicate: int) -> dict:
    """One replicate of one row of the tables (:func:`ensemble_points`): at load factor
    ``x`` the five policies of Tables 2-3 on one cluster; at slowdown ratio ``x`` every
    run of Tables 5-9 on the grid (both median-fit readings, random fit with seed
    ``replicate``). Returns ``{item key: value}``. ``replicate`` is a whole number in [0,
    10**6 - 1] (:data:`hpcmodels.bounds.MAX_REPLICATES`)."""
    from ..ensemble import runtime_scale

    if study not in ("load", "slowdown"):
        raise InvalidParameter(f"unknown study {study!r}; choose 'load' or 'slowdown'")
    scale = runtime_scale(replicate)  # checks replicate: a whole number in [0, 10**6 - 1]
    replicate = int(replicate)
    out = {}
    if study == "load":
        for name, sel in POLICIES.items():
            m = simulate_run(log, SINGLE_CLUSTER, sel, load_factor=float(x) * scale)
            out[ensemble_key("Table 2", "load factor", x, name)] = m["mean_wait"]
            out[ensemble_key("Table 3", "load factor", x, name)] = m["mean_waiting_ratio"]
        return out

    def run(selection: str, allocation: str, coallocation: str) -> dict:
        return simulate_run(
            log,
            GRID,
            selection,
            allocation,
            coallocation=coallocation,
            slowdown=float(x),
            load_factor=scale,
            seed=replicate,
        )

    for name, alloc in {**METHODS, **OTHER_ALLOCATIONS}.items():
        m = run("fcfs", alloc, "fixed_order")
        out[ensemble_key("Table 5", "slowdown", x, name)] = m["mean_wait"]
        out[ensemble_key("Table 6", "slowdown", x, name)] = m["mean_waiting_ratio"]
        if name == "First Fit":
            out[ensemble_key("Table 9", "slowdown", x, "wait single-pool")] = m["mean_wait"]
            out[ensemble_key("Table 9", "slowdown", x, "ratio single-pool")] = m[
                "mean_waiting_ratio"
            ]
    for name, heuristic in HEURISTICS.items():
        m = run("fcfs", "best_fit", heuristic)
        out[ensemble_key("Table 7", "slowdown", x, name)] = m["mean_wait"]
        out[ensemble_key("Table 8", "slowdown", x, name)] = m["mean_waiting_ratio"]
    m = run("smallest_first", "best_fit", "larger_first")
    out[ensemble_key("Table 9", "slowdown", x, "wait integrated")] = m["mean_wait"]
    out[ensemble_key("Table 9", "slowdown", x, "ratio integrated")] = m["mean_waiting_ratio"]
    return out


def ensemble_cost(point: dict) -> float:
    """Relative cost of recomputing a point: a load row is 5 runs, a slowdown row 10."""
    return 5.0 if point["study"] == "load" else 10.0


def _ensemble_tables(store: pd.DataFrame):
    """Per table: the published frame, our mean per cell and each cell's replicates."""
    from ..store import values

    tables = dict(PRINTED_TABLES)
    tables["Table 9"] = (None, TABLE9, "slowdown")
    for item, (_, paper, label) in tables.items():
        columns = list(paper.columns) + [c for c in READINGS if item in ("Table 5", "Table 6")]
        runs = {
            (r, c): values(store, ensemble_key(item, label, r, c))
            for r in paper.index
            for c in columns
        }
        means = pd.DataFrame(
            {c: [runs[(r, c)].mean() for r in paper.index] for c in columns}, index=paper.index
        )
        yield item, paper, label, means, runs


def ensemble_rows(store: pd.DataFrame) -> list[dict]:
    """Tables 2-3 and 5-9 cell by cell on the ensembles (:mod:`hpcmodels.papers.ensemble`):
    each printed cell (one run in the paper) against the distribution of our single
    runs; a differing cell's cause is measured as in the quick rows, from the table's
    typical ours/paper ratio over our means (:func:`ratio_check`, :func:`cell_cause`); our
    extra median-fit reading is compared with the paper's median-fit column. Table 9's
    first claim (the integrated approach waits less at every slowdown ratio) is judged
    on the paired differences of each slowdown ratio."""
    from ..ensemble import ensemble_value, paired_claim, with_replicates
    from ..store import values
    from ..verdicts import join_reasons

    log = str(store["log"].iloc[0])
    n = int(store["replicate"].nunique())
    rows = []
    for item, paper, label, means, runs in _ensemble_tables(store):
        readings = READINGS if item in ("Table 5", "Table 6") else None
        check = ratio_check(paper, means, readings=readings)
        for (r, col), c in check.iterrows():
            rows.append(
                ensemble_value(
                    item,
                    f"{label} {r:g}, {col}",
                    c["printed"],
                    runs[(r, col)],
                    kind="time",
                    k=1,
                    other_input=other_input_of(log),
                    note=join_reasons(
                        READING_NOTES.get(col, ""),
                        f"whole log, {n} replicates "
                        "(runtimes x (1 +- 1e-4), random fit seeded by the replicate)",
                        ratio_note(c),
                    ),
                    cause=cell_cause(check, r, col, log, None),
                    deterministic=col != "Random Fit",  # random fit draws from its seed
                )
            )
    losses = []
    for s in SLOWDOWNS:
        row = paired_claim(
            "Table 9",
            f"integrated waits less at slowdown {s:g}",
            values(store, ensemble_key("Table 9", "slowdown", s, "wait integrated")),
            values(store, ensemble_key("Table 9", "slowdown", s, "wait single-pool")),
            a_name="integrated",
            b_name="single-pool",
        )
        if row["verdict"] != "qualitative":
            losses.append(f"{s:g}: {row['ours']}")
    row = claim(
        "Table 9",
        "the integrated approach beats the single-pool queue at every slowdown",
        not losses,
        f"paired over {n} replicates at each slowdown: "
        + ("integrated lower at every one" if not losses else "; ".join(losses)),
        cause="the paired 95 % CI does not lie below 0 at " + "; ".join(losses),
    )
    rows.append(with_replicates(row, n))
    return rows
