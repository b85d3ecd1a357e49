"""The paper beside ours in the explorers, without a browser: which printed number each
setting finds, ours against it at a fixed precision, and our paper-scale runs from the
store."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.explorers.across import claims_table
from hpcmodels.explorers.huang2006 import printed_for
from hpcmodels.explorers.jones2005 import baselines_printed
from hpcmodels.explorers.printed import Printed, beside_printed, decimals_of
from hpcmodels.explorers.shih2013 import snapshot_printed, table4_printed
from hpcmodels.papers import huang2006, jones2005, shih2013
from hpcmodels.papers.store import read_store, values


def test_ours_is_shown_one_decimal_finer_than_the_paper_with_the_difference():
    table = beside_printed(
        [Printed("Table 5", "wait", "50.36"), Printed("Table 4", "gain", "45", exact=True)],
        [50.3649, 44.25],
    )
    assert table.loc["wait"].tolist() == [
        "Table 5",
        "50.36",
        "50.365",
        "+0.005",
        "not in the store",
    ]
    assert table.loc["gain", "ours (this run)"] == "44.2"  # 44.25 to one decimal
    assert table.loc["gain", "ours - paper"] == "-0.8"
    assert table.loc["gain", "ours at paper scale"] == "deterministic: one run is exact"
    assert [decimals_of(x) for x in ("45", "0.08", "1087", "7.750")] == [0, 2, 0, 3]


def test_the_paper_scale_column_gives_the_mean_and_the_range_of_the_runs():
    cell = beside_printed([Printed("T", "q", "1.5", np.array([1.0, 2.0, 4.5]))], [1.0])
    assert cell["ours at paper scale"].iloc[0] == "2.50 (runs 1.00 to 4.50, 3 runs)"


def test_a_count_mismatch_between_printed_and_ours_is_an_error():
    with pytest.raises(InvalidParameter, match="2 printed numbers but 1"):
        beside_printed([Printed("T", "a", "1"), Printed("T", "b", "2")], [1.0])


def test_table_1_and_fig_9_are_found_only_at_their_snapshots():
    jobs = shih2013.SNAPSHOT_WAITING
    printed, ours = snapshot_printed(jobs, 5.0, shih2013.snapshot_scores())
    assert [p.paper for p in printed[:5]] == [*shih2013.TABLE1["score A"], "10"]
    assert ours[:4] == list(shih2013.snapshot_scores()["A"].turnaround)
    printed, ours = snapshot_printed(jobs, 1.0, shih2013.snapshot_scores(1.0))
    assert [p.paper for p in printed] == ["7.75", "8.25"] and ours == [7.75, 8.25]
    moved = [jobs[0]._replace(procs=4), *jobs[1:]]
    assert snapshot_printed(moved, 5.0, shih2013.snapshot_scores()) == ([], [])
    assert snapshot_printed(jobs, 2.0, shih2013.snapshot_scores(2.0)) == ([], [])


def test_table_4_cells_come_with_their_paper_scale_improvements():
    store = read_store("shih2013")
    cell = table4_printed("A1", "medium", 0.0)
    assert cell.paper == "45"
    keys = [shih2013.ensemble_key("Table 4", "A1", "medium", 0.0, f"{m} ATT (s)")
            for m in shih2013.METHODS]  # fmt: skip
    att = np.column_stack([values(store, k) for k in keys])
    best = att[:, :3].min(axis=1)
    np.testing.assert_allclose(cell.scale, 100 * (best - att[:, 3]) / best)
    assert table4_printed("D1", "medium", 0.1) is None  # the paper's text does not place it


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        (("fcfs", "worst_fit", "fixed_order", 1.0, 4.0), [("Table 5", "530.58"), ("Table 6", "5.06")]),
        (("fcfs", "best_fit", "larger_first", 1.0, 5.0), [("Table 7", "66.12"), ("Table 8", "0.53")]),
        (("smallest_first", "best_fit", "larger_first", 1.0, 1.0),
         [("Table 9", "22.18"), ("Table 9", "0.06")]),
        (("fcfs", "best_fit", "fixed_order", 1.5, 4.0), []),  # load factor 1.5 on the grid
        (("fcfs", "best_fit", "fixed_order", 1.0, 3.0), []),  # a slowdown not printed
        (("easy", "best_fit", "fixed_order", 1.0, 4.0), []),  # a policy not printed
    ],
)  # fmt: skip
def test_huang_cells_are_the_printed_ones_of_the_configuration(setting, expected):
    cells = printed_for("A", huang2006.GRID, *setting)
    assert [(p.source, p.paper) for _, p in cells] == expected
    assert [m for m, _ in cells] == ["mean_wait", "mean_waiting_ratio"][: len(cells)]
    for _, p in cells:
        assert p.scale is not None and len(p.scale) == huang2006.ENSEMBLE_REPLICATES


def test_huang_tables_2_and_3_on_the_single_cluster_ignore_allocation_and_slowdown():
    a = printed_for("A", huang2006.SINGLE_CLUSTER, "conservative", "first_fit", None, 2.5, 1.0)
    b = printed_for("A", huang2006.SINGLE_CLUSTER, "conservative", "worst_fit", "fixed_order",
                    2.5, 5.0)  # fmt: skip
    assert [(p.source, p.paper) for _, p in a] == [("Table 2", "1082.79"), ("Table 3", "1.75")]
    assert [p.paper for _, p in a] == [p.paper for _, p in b]
    assert printed_for("A", huang2006.SINGLE_CLUSTER, "fcfs", "first_fit", None, 1.25, 1.0) == []


def test_jones_baselines_only_at_section_6s_clusters():
    store = read_store("jones2005")
    printed = baselines_printed(4)
    assert [p.paper for p in printed] == ["1087", "735"]
    key = jones2005.ensemble_key("baseline", "ideal", "first_available", 0.0, 0.0)
    np.testing.assert_array_equal(printed[1].scale, values(store, key))
    assert baselines_printed(2) == [] and baselines_printed(8) == []


def _runs(better: list[float], worse: list[float], method_b: str = "Best Fit") -> pd.DataFrame:
    rows = []
    for r, (b, w) in enumerate(zip(better, worse, strict=True)):
        for method, att in (("TLA", b), (method_b, w)):
            rows.append(dict(workload="Lublin99", load="low", sh=0.0, bsbw=500.0,
                             selection="FCFS", replicate=r, method=method, att=att,
                             mean_wait=att / 2, mean_bounded_slowdown=1.0))  # fmt: skip
    return pd.DataFrame(rows)


def test_the_claims_table_counts_where_a_claim_holds_and_only_on_its_metric():
    held = claims_table(_runs([10, 11, 9, 10], [20, 21, 19, 22]), "att")
    assert held["the paper says"].tolist() == ["TLA beats best fit"]
    assert held[["holds", "within noise", "reversed"]].iloc[0].tolist() == [1, 0, 0]
    flipped = claims_table(_runs([20, 21, 19, 22], [10, 11, 9, 10]), "att")
    assert flipped["reversed"].tolist() == [1]
    assert claims_table(_runs([10, 11, 9, 10], [20, 21, 19, 22]), "mean_wait").empty
    assert claims_table(_runs([1, 2], [3, 4], method_b="Worst Fit"), "att").empty


@pytest.mark.parametrize("ours", [math.nan, math.inf, "12", None, True])
def test_ours_must_be_a_finite_number_named_by_its_quantity(ours):
    with pytest.raises(InvalidParameter, match=r"ours\[0\] \(wait\)"):
        beside_printed([Printed("T", "wait", "1.5")], [ours])


@pytest.mark.parametrize("paper", ["", "n/a", "nan", "inf", None, 1.5])
def test_a_printed_value_must_be_a_number_as_text(paper):
    with pytest.raises(InvalidParameter, match="Printed.paper"):
        Printed("T", "q", paper)


def test_beside_printed_refuses_what_is_not_a_printed_number():
    with pytest.raises(InvalidType, match=r"printed\[0\] must be a Printed"):
        beside_printed([("T", "q", "1")], [1.0])
    assert beside_printed([], []).empty


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("load_factor", dict(load_factor=math.nan)),
        ("load_factor", dict(load_factor="1")),
        ("slowdown", dict(slowdown=math.inf)),
        ("slowdown", dict(slowdown=0.5)),
        ("selection", dict(selection=None)),
        ("coallocation", dict(coallocation=3)),
    ],
)
def test_printed_cells_name_the_bad_field(field, kwargs):
    args = dict(selection="fcfs", allocation="first_fit", coallocation="fixed_order",
                load_factor=1.0, slowdown=5.0) | kwargs  # fmt: skip
    with pytest.raises(InvalidParameter, match=field):
        huang2006.printed_cells(huang2006.GRID, **args)


@pytest.mark.parametrize(
    ("field", "args"),
    [("sh", ("A1", "low", math.nan)), ("sh", ("A1", "low", "0")), ("wid", (None, "low", 0.0)),
     ("load", ("A1", 0.5, 0.0))],
)  # fmt: skip
def test_table4_improvements_names_the_bad_field(field, args):
    with pytest.raises(InvalidParameter, match=field):
        shih2013.table4_improvements(read_store("shih2013"), *args)
    assert shih2013.table4_improvements(read_store("shih2013"), "Z9", "low", 0.0) is None


@pytest.mark.parametrize("clusters", [math.nan, 0, "4", 4.5])
def test_baselines_refuse_a_bad_number_of_clusters(clusters):
    with pytest.raises(InvalidParameter, match="clusters"):
        baselines_printed(clusters)


@pytest.mark.parametrize("metric", ["turnaround", None, ""])
def test_the_claims_table_refuses_an_unknown_metric(metric):
    with pytest.raises(InvalidParameter, match="metric must be one of"):
        claims_table(_runs([1, 2], [3, 4]), metric)
