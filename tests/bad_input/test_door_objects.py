"""Objects checked at the door (issue 51, class 1): the public functions of the
explorers, of notebook 06 (``hpcmodels.papers.across``) and ``raise_failures`` meet a
hostile caller's frames and objects (no DataFrame, a column missing or of text, a
repeated run, a lone string for a sequence, an object of another class) with an
:class:`~hpcmodels.errors.InvalidParameter` (or :class:`~hpcmodels.errors.InvalidType`)
naming the argument, before anything deep runs; and degenerate but valid data (one
method left, one workload, one replicate, a metric equal in every run, an empty frame
after filtering) gives a correct result instead of a crash deep inside pandas."""

from __future__ import annotations

import contextlib
import io

import ipywidgets as w
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.explorers import across as across_explorers
from hpcmodels.explorers import core, policy_explorer, tla_run_explorer
from hpcmodels.explorers.he2006 import beside_paper
from hpcmodels.explorers.huang2006 import printed_for
from hpcmodels.explorers.printed import Printed, beside_printed, decimals_of, stored, stored_values
from hpcmodels.explorers.shih2013 import snapshot_printed, table4_printed
from hpcmodels.multicluster import Cluster
from hpcmodels.papers.across import (
    available_workloads,
    carried_claims,
    decision_costs,
    decision_findings,
    decision_runs,
    ensemble_cost,
    ensemble_findings,
    ensemble_points,
    ensemble_runs,
    ground_point,
    ground_runs,
    paired_differences,
    win_map,
)
from hpcmodels.papers.across.decision import RULES
from hpcmodels.papers.across.findings import CLAIMS
from hpcmodels.sweep import raise_failures

REFUSED = (InvalidParameter, InvalidType)
CLUSTERS = [Cluster("a", 4), Cluster("b", 8)]
JOBS = pd.DataFrame({"submit": [0.0, 1.0, 2.0], "runtime": [5.0, 6.0, 4.0], "procs": [2, 3, 1]})


def _runs(
    methods=("TLA", "Best Fit", "First Fit"),
    *,
    replicates=3,
    workloads=("Lublin99",),
    loads=("low", "high"),
    shs=(0.0, 0.2),
    value=None,
    selection="FCFS",
) -> pd.DataFrame:
    """Runs as :func:`ground_runs` gives them, with random metrics (or ``value`` in every
    run: a constant column)."""
    rng = np.random.default_rng(0)
    rows = []
    for workload in workloads:
        for load in loads:
            for sh in shs:
                for r in range(replicates):
                    for m in methods:
                        x = rng.uniform(100, 200) if value is None else value
                        rows.append(
                            dict(
                                workload=workload,
                                load=load,
                                sh=sh,
                                bsbw=500.0,
                                selection=selection,
                                replicate=r,
                                method=m,
                                att=x,
                                mean_bounded_slowdown=x / 10,
                                mean_wait=x / 2,
                                utilization=0.5,
                                coallocated=0.0,
                                seconds_per_job=1e-5,
                            )
                        )
    return pd.DataFrame(rows)


def _decisions(rules=RULES, *, experiments=("e1", "e2"), replications=3, value=None):
    """Runs as :func:`decision_runs` gives them."""
    rng = np.random.default_rng(1)
    rows = [
        dict(
            experiment=e,
            rule=rule,
            replication=r,
            average_cost=rng.uniform(5, 6) if value is None else value,
            exact=5.5,
            coallocating_states=3,
        )
        for e in experiments
        for rule in rules
        for r in range(replications)
    ]
    return pd.DataFrame(rows)


RUNS = _runs()
DECISIONS = _decisions()
# the columns of each result where it has rows: a degenerate result keeps them
PAIRED_COLUMNS = list(paired_differences(RUNS, "att", "TLA").columns)
WIN_COLUMNS = list(win_map(RUNS, "att").columns)
CARRIED_COLUMNS = list(carried_claims(RUNS).columns)
COST_COLUMNS = list(decision_costs(DECISIONS).columns)
DECISION_COLUMNS = list(decision_findings(DECISIONS).columns)
STORE = pd.DataFrame(
    {
        "item": ["Lublin99 | low | SH 0 | BSBW 500 | FCFS | TLA | att"] * 2,
        "value": [1.0, 2.0],
        "sweep": "allocation",
        "workload": "Lublin99",
        "load": "low",
        "sh": 0.0,
        "bsbw": 500.0,
        "selection": "FCFS",
        "replicate": [0, 1],
    }
)
TEXT_METRIC = RUNS.assign(att=RUNS["att"].astype(str))
TWICE = pd.concat([RUNS, RUNS.iloc[:1]], ignore_index=True)
UNPAIRED = RUNS.iloc[1:]  # TLA lacks replicate 0 at the first setting
NAN_METRIC = RUNS.assign(att=np.where(RUNS.index == 4, np.nan, RUNS["att"]))
UNKNOWN_METHODS = RUNS.assign(
    method=RUNS["method"].map({"TLA": "X", "Best Fit": "Y", "First Fit": "Z"})
)


def _ground_runs(*args, **levels):
    """ground_runs at these levels, as a call to make later."""
    return lambda: ground_runs(*args, **levels, replicates=2, progress=False)


def _ground_point(**options):
    """ground_point of 50 Lublin99 jobs with these options, as a call to make later."""
    return lambda: ground_point("Lublin99", "low", 0.0, 0, **options, n_jobs=50)


def _quiet(call):
    """``call()`` with what an explorer prints at construction kept out of the log."""
    with contextlib.redirect_stdout(io.StringIO()):
        return call()


# ------------------------------------------------------------------- hostile objects

HOSTILE = [
    # notebook 06's comparisons: runs, metric, baseline, claims
    ("paired_differences runs list", lambda: paired_differences([1], "att", "TLA"), "runs"),
    (
        "paired_differences text metric",
        lambda: paired_differences(TEXT_METRIC, "att", "TLA"),
        "runs column 'att'",
    ),
    (
        "paired_differences NaN metric",
        lambda: paired_differences(NAN_METRIC, "att", "TLA"),
        "runs column 'att'",
    ),
    (
        "paired_differences a run twice",
        lambda: paired_differences(TWICE, "att", "TLA"),
        "runs holds more than one row",
    ),
    (
        "paired_differences unpaired",
        lambda: paired_differences(UNPAIRED, "att", "TLA"),
        "runs: method 'TLA' ran 2 of the 3 replicates",
    ),
    (
        "paired_differences baseline list",
        lambda: paired_differences(RUNS, "att", ["TLA"]),
        "baseline",
    ),
    ("paired_differences baseline None", lambda: paired_differences(RUNS, "att", None), "baseline"),
    ("win_map text metric", lambda: win_map(TEXT_METRIC, "att"), "runs column 'att'"),
    ("win_map a run twice", lambda: win_map(TWICE, "att"), "runs holds more than one row"),
    ("win_map unpaired", lambda: win_map(UNPAIRED, "att"), "runs: method 'TLA'"),
    ("win_map one method", lambda: win_map(_runs(("TLA",)), "att"), "two methods"),
    ("carried_claims text metric", lambda: carried_claims(TEXT_METRIC), "runs column 'att'"),
    ("carried_claims a run twice", lambda: carried_claims(TWICE), "runs holds more than one"),
    ("carried_claims one claim alone", lambda: carried_claims(RUNS, CLAIMS[0]), "claims"),
    ("carried_claims claims None", lambda: carried_claims(RUNS, None), "claims"),
    ("carried_claims claims text", lambda: carried_claims(RUNS, "TLA"), "claims"),
    ("carried_claims a claim of no class", lambda: carried_claims(RUNS, [1]), r"claims\[0\]"),
    (
        "paired_table baseline list",
        lambda: across_explorers.paired_table(RUNS, "att", ["TLA"]),
        "baseline",
    ),
    (
        "paired_table a run twice",
        lambda: across_explorers.paired_table(TWICE, "att", "TLA"),
        "runs holds more than one row",
    ),
    (
        "claims_table text metric",
        lambda: across_explorers.claims_table(TEXT_METRIC, "att"),
        "runs column 'att'",
    ),
    ("claims_table bad metric", lambda: across_explorers.claims_table(RUNS, ["att"]), "metric"),
    (
        "across_explorer text metric",
        lambda: across_explorers.across_explorer(TEXT_METRIC),
        "runs column 'att'",
    ),
    (
        "across_explorer a run twice",
        lambda: across_explorers.across_explorer(TWICE),
        "runs holds more than one row",
    ),
    (
        "across_explorer no known method",
        lambda: across_explorers.across_explorer(UNKNOWN_METHODS),
        "runs holds no method",
    ),
    (
        "across_explorer unpaired",
        lambda: across_explorers.across_explorer(UNPAIRED),
        "runs: method 'TLA'",
    ),
    # notebook 06's builders: every level checked before any point runs
    ("ground_runs one workload as text", _ground_runs("Lublin99"), "workloads"),
    ("ground_runs unknown workload", _ground_runs(("CTC",)), r"workloads\[0\]"),
    ("ground_runs unknown load", _ground_runs(loads=("extreme",)), r"loads\[0\]"),
    ("ground_runs SH as text", _ground_runs(shs=("x",)), r"shs\[0\]"),
    ("ground_runs negative SH", _ground_runs(shs=(-1.0,)), r"shs\[0\]"),
    ("ground_runs SH None", _ground_runs(shs=None), "shs"),
    ("ground_runs unknown selection", _ground_runs(selections=("LIFO",)), r"selections\[0\]"),
    ("ground_runs BSBW as text", _ground_runs(bsbws=("fast",)), r"bsbws\[0\]"),
    ("ground_runs one method as text", _ground_runs(methods="TLA"), "methods"),
    ("ground_point BSBW as text", _ground_point(bsbw="x"), "bsbw"),
    ("ground_point BSBW None", _ground_point(bsbw=None), "bsbw"),
    ("ground_point one method as text", _ground_point(methods="TLA"), "methods"),
    ("ground_point methods None", _ground_point(methods=None), "methods"),
    ("available_workloads one as text", lambda: available_workloads("Lublin99"), "workloads"),
    ("available_workloads None", lambda: available_workloads(None), "workloads"),
    # Filippopoulos & Karatza's decision
    ("decision_runs experiments None", lambda: decision_runs(None), "experiments"),
    ("decision_runs experiments text", lambda: decision_runs("abc"), "experiments"),
    ("decision_runs experiments dict", lambda: decision_runs({"x": {}}), "experiments"),
    ("decision_runs parameters no dict", lambda: decision_runs([("x", 3)]), r"experiments\[0\]"),
    ("decision_runs unnamed experiment", lambda: decision_runs([(3, {})]), r"experiments\[0\]"),
    (
        "decision_runs unknown parameter",
        lambda: decision_runs([("x", {"bogus": 1})]),
        r"experiments\[0\] \('x'\) sets unknown parameter",
    ),
    (
        "decision_costs text cost",
        lambda: decision_costs(DECISIONS.assign(average_cost="5")),
        "runs column 'average_cost'",
    ),
    (
        "decision_findings text cost",
        lambda: decision_findings(DECISIONS.assign(average_cost="5")),
        "runs column 'average_cost'",
    ),
    (
        "decision_costs a run twice",
        lambda: decision_costs(pd.concat([DECISIONS, DECISIONS.iloc[:1]])),
        "runs holds more than one row",
    ),
    (
        "decision_findings unpaired",
        lambda: decision_findings(DECISIONS[DECISIONS.index != 6]),
        "runs: rules",
    ),
    # the full-scale store of notebook 06
    ("ensemble_cost None", lambda: ensemble_cost(None), "point"),
    ("ensemble_cost empty dict", lambda: ensemble_cost({}), "point lacks"),
    (
        "ensemble_cost unknown sweep",
        lambda: ensemble_cost(dict(ensemble_points(2)[0], sweep="bogus")),
        r"point\['sweep'\]",
    ),
    (
        "ensemble_cost selection of another sweep",
        lambda: ensemble_cost(dict(ensemble_points(2)[0], selection="EASY")),
        r"point\['selection'\]",
    ),
    (
        "ensemble_runs items not text",
        lambda: ensemble_runs(STORE.assign(item=[3, 4])),
        "store column 'item'",
    ),
    (
        "ensemble_runs values as text",
        lambda: ensemble_runs(STORE.assign(value=["1", "2"])),
        "store column 'value'",
    ),
    (
        "ensemble_runs an item twice",
        lambda: ensemble_runs(STORE.assign(replicate=0)),
        "store holds more than one row",
    ),
    (
        "ensemble_findings values as text",
        lambda: ensemble_findings(STORE.assign(value=["1", "2"])),
        "store column 'value'",
    ),
    # the explorers' printed numbers
    ("beside_printed printed None", lambda: beside_printed(None, [1.0]), "printed"),
    (
        "beside_printed one Printed alone",
        lambda: beside_printed(Printed("T", "q", "1.5"), [1.0]),
        "printed",
    ),
    (
        "beside_printed ours a number",
        lambda: beside_printed([Printed("T", "q", "1.5")], 1.0),
        "ours",
    ),
    ("beside_printed ours None", lambda: beside_printed([Printed("T", "q", "1.5")], None), "ours"),
    ("Printed scale text", lambda: Printed("T", "q", "1.5", scale="abc"), "Printed.scale"),
    ("Printed quantity None", lambda: Printed("T", None, "1.5"), "Printed.quantity"),
    ("Printed source a number", lambda: Printed(3, "q", "1.5"), "Printed.source"),
    ("decimals_of a float", lambda: decimals_of(50.30), "printed"),
    ("decimals_of None", lambda: decimals_of(None), "printed"),
    ("stored a list", lambda: stored(["he2006"]), "paper"),
    ("stored_values a list", lambda: stored_values(["he2006"], "x"), "paper"),
    ("stored_values item None", lambda: stored_values("jones2005", None), "item"),
    ("stored_values item a list", lambda: stored_values("jones2005", ["x"]), "item"),
    # He's, Huang's and Shih's explorers
    ("beside_paper ours a list", lambda: beside_paper([1], _fractions()), "ours"),
    ("beside_paper paper a list", lambda: beside_paper(_fractions(), [1]), "paper"),
    (
        "beside_paper a strategy missing",
        lambda: beside_paper(_fractions(), _fractions().rename(index={"ORT": "Weighted"})),
        "ours lacks the paper's strateg",
    ),
    (
        "beside_paper a cluster missing",
        lambda: beside_paper(_fractions(), _fractions().assign(**{"cluster 3": 0.1})),
        r"ours lacks column\(s\) \['cluster 3'\]",
    ),
    (
        "beside_paper text fractions",
        lambda: beside_paper(_fractions().astype(str), _fractions()),
        "ours column 'cluster 1'",
    ),
    ("policy_explorer jobs a list", lambda: policy_explorer([1, 2], CLUSTERS), "jobs"),
    ("policy_explorer jobs None", lambda: policy_explorer(None, CLUSTERS), "jobs"),
    (
        "policy_explorer jobs without procs",
        lambda: policy_explorer(JOBS.drop(columns="procs"), CLUSTERS),
        r"jobs lacks column\(s\)",
    ),
    (
        "policy_explorer procs as text",
        lambda: policy_explorer(JOBS.assign(procs=["a", "b", "c"]), CLUSTERS),
        "jobs column 'procs'",
    ),
    ("policy_explorer no job", lambda: policy_explorer(JOBS.iloc[:0], CLUSTERS), "jobs is empty"),
    ("policy_explorer clusters None", lambda: policy_explorer(JOBS, None), "clusters"),
    (
        "policy_explorer one Cluster alone",
        lambda: policy_explorer(JOBS, Cluster("a", 4)),
        "clusters",
    ),
    ("policy_explorer clusters as numbers", lambda: policy_explorer(JOBS, [4, 8]), "clusters"),
    ("policy_explorer no cluster", lambda: policy_explorer(JOBS, []), "cluster"),
    (
        "printed_for clusters None",
        lambda: printed_for("A", None, "fcfs", "first_fit", None, 1.0, 1.0),
        "clusters",
    ),
    (
        "printed_for name None",
        lambda: printed_for(None, CLUSTERS, "fcfs", "first_fit", None, 1.0, 1.0),
        "name",
    ),
    ("tla_run_explorer no workload", lambda: tla_run_explorer(()), "workloads is empty"),
    ("tla_run_explorer one workload as text", lambda: tla_run_explorer("A1"), "workloads"),
    ("tla_run_explorer unknown workload", lambda: tla_run_explorer(("Z9",)), r"workloads\[0\]"),
    ("tla_run_explorer workloads None", lambda: tla_run_explorer(None), "workloads"),
    ("table4_printed workload a list", lambda: table4_printed(["A1"], "low", 0.0), "wid"),
    ("table4_printed unknown load", lambda: table4_printed("A1", "extreme", 0.0), "load"),
    ("snapshot_printed jobs None", lambda: snapshot_printed(None, 1.0, {}), "jobs"),
    # the explorers' shared core
    ("figure width as text", lambda: core.figure("a", 2), "width"),
    ("figure negative height", lambda: core.figure(2, -1), "height"),
    ("figure no column", lambda: core.figure(2, 2, ncols=0), "ncols"),
    ("dropdown value not offered", lambda: core.dropdown(["a"], "b", "colour"), "colour"),
    ("slider of no slider class", lambda: core.slider(int, 1, 0, 2, 1, "n"), "kind"),
    ("live update None", lambda: core.live(None, []), "update"),
    ("live controls None", lambda: core.live(lambda: None, None), "controls"),
    ("live a control of no widget", lambda: core.live(lambda: None, [3]), r"controls\[0\]"),
    ("serial run None", lambda: core.serial(None), "run"),
    ("serial status text", lambda: core.serial(lambda: None, "busy"), "status"),
    ("show no figure", lambda: core.show(None), "fig"),
    # a sweep's failures
    ("raise_failures frame None", lambda: raise_failures(None, "x"), "frame"),
    ("raise_failures frame a list", lambda: raise_failures([{"error": None}], "x"), "frame"),
    (
        "raise_failures no error column",
        lambda: raise_failures(pd.DataFrame({"a": [1]}), "x"),
        r"frame lacks column\(s\) \['error'\]",
    ),
    (
        "raise_failures what a number",
        lambda: raise_failures(pd.DataFrame({"a": [1], "error": [None]}), 3),
        "what",
    ),
]


def _fractions() -> pd.DataFrame:
    return pd.DataFrame({"cluster 1": [0.5, 0.4], "cluster 2": [0.5, 0.6]}, index=["ORT", "OMR"])


@pytest.mark.parametrize("call, names", [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_a_hostile_object_is_refused_at_the_door_naming_the_argument(call, names):
    with pytest.raises(REFUSED, match=names):
        _quiet(call)


def test_a_bad_level_stops_ground_runs_before_any_point_runs(monkeypatch):
    """A bad level of any kind used to run (and fail) every point of the sweep, then end
    as a RuntimeError; now nothing runs."""
    from hpcmodels.papers.across import compare

    monkeypatch.setattr(compare, "sweep_results", lambda *a, **k: pytest.fail("a point ran"))
    for bad in (
        dict(workloads=("CTC",)),
        dict(loads=("x",)),
        dict(shs=(-1,)),
        dict(selections=("LIFO",)),
        dict(bsbws=("x",)),
    ):
        with pytest.raises(REFUSED):
            ground_runs(**bad, replicates=2, progress=False)


def test_a_failed_point_without_a_grid_names_its_parameters():
    """A sweep result whose columns are not text (no ``grid`` attribute) used to end in
    ``argument of type 'int' is not iterable``; now the RuntimeError names the point."""
    frame = pd.DataFrame({0: [7], "x": [2.5], "error": ["boom"]})
    with pytest.raises(RuntimeError, match=r"1 of 1 points of job failed; the first, .*7.*boom"):
        raise_failures(frame, "job")
    assert raise_failures(pd.DataFrame({"a": [], "error": []}), "job").empty


# ------------------------------------------------------------ degenerate, valid data

DEGENERATE = {
    "one method left": _runs(("TLA",)),
    "one workload, one setting": _runs(loads=("low",), shs=(0.0,)),
    "a metric of 0 in every run": _runs(value=0.0),
    "a metric equal in every run": _runs(value=5.0),
    "one replicate": _runs(replicates=1),
    "empty after filtering": RUNS[RUNS["load"] == "extreme"],
}


@pytest.mark.parametrize("name", list(DEGENERATE))
def test_paired_differences_of_degenerate_runs(name):
    runs = DEGENERATE[name]
    table = paired_differences(runs, "att", "TLA")
    assert list(table.columns) == PAIRED_COLUMNS
    others = runs[runs["method"] != "TLA"]
    assert len(table) == len(others.drop_duplicates([*PAIRED_COLUMNS[:5], "method"]))
    if name.startswith("a metric"):  # every difference is 0: no verdict, no relative gap
        assert (table["diff"] == 0).all() and (table["relative"] == 0).all()
        assert (table["verdict"] == "no difference").all()


@pytest.mark.parametrize("name", list(DEGENERATE))
def test_paired_table_of_degenerate_runs(name):
    """One method left used to end in ``KeyError: 'relative'``."""
    table = across_explorers.paired_table(DEGENERATE[name], "att", "TLA")
    assert list(table.columns) == list(across_explorers.COLUMNS.values())[:2] + [
        "SH",
        "BSBW (Mbps)",
        "method",
        "difference (%)",
        "mean paired difference (s)",
        "95 % half-width (s)",
        "replicates won",
        "replicates",
        "verdict",
    ]


@pytest.mark.parametrize("name", [n for n in DEGENERATE if n != "one method left"])
def test_win_map_of_degenerate_runs(name):
    wins = win_map(DEGENERATE[name], "att")
    assert list(wins.columns) == WIN_COLUMNS
    if name.startswith("a metric"):  # every method ties: they share the win
        assert (wins["winner"] == "Best Fit = First Fit = TLA").all()
        assert wins["runner_up"].isna().all() and not wins["clear"].any()


@pytest.mark.parametrize("name", list(DEGENERATE))
def test_carried_claims_and_the_claims_table_of_degenerate_runs(name):
    """A metric of 0 in every run (no job waits at a low load) used to end in
    ``ValueError: Encountered all NA values`` (0 / 0 as the relative gain)."""
    found = carried_claims(DEGENERATE[name])
    assert list(found.columns) == CARRIED_COLUMNS
    claims = across_explorers.claims_table(DEGENERATE[name], "att")
    assert len(claims) == len(found)
    if name == "a metric of 0 in every run":
        assert len(found) == 2 and (found["within_noise"] == found["settings"]).all()
        assert (found["best_relative"] == 0).all()
        assert "never better on average; never worse on average" in found["finding"].iloc[0]
    if name in ("one method left", "empty after filtering"):
        assert found.empty


def test_a_relative_gap_over_a_baseline_of_zero_is_infinite_not_missing():
    runs = _runs(("TLA", "Best Fit"), value=0.0)
    runs.loc[runs["method"] == "TLA", "att"] = 3.0  # TLA waits, Best Fit never does
    table = paired_differences(runs, "att", "Best Fit")
    assert (table["relative"] == np.inf).all() and (table["verdict"] == "worse").all()
    found = carried_claims(runs)
    assert found["worst_relative"].iloc[0] == np.inf


def _drive(box: w.VBox) -> int:
    """Every group, map axes, level and baseline of an across explorer, and each metric
    once, each change redrawing it (an error inside a redraw is raised here); the count
    of views."""
    metric, group, _, _ = box.children[0].children
    axes, fixed, baseline = box.children[1].children
    methods = box.children[2]
    views = 0
    for g in group.options:
        group.value = g
        for m in [o[1] for o in metric.options]:
            metric.value = m
        for a in axes.options:
            axes.value = a
            for f in [o[1] for o in fixed.options]:
                fixed.value = f
                for b in baseline.options:
                    baseline.value = b
                    views += 1
        methods.value = tuple(methods.options[:1])
        methods.value = tuple(methods.options)
    return views


EXPLORED = {
    **{k: v for k, v in DEGENERATE.items() if k != "empty after filtering"},
    "a method missing at one setting": pd.concat(
        [_runs(("TLA", "Best Fit"), shs=(0.0,)), _runs(("TLA",), shs=(0.2,))], ignore_index=True
    ),
    "other methods at each load": pd.concat(
        [_runs(("TLA", "Best Fit"), loads=("low",)), _runs(("TLA", "First Fit"), loads=("high",))],
        ignore_index=True,
    ),
    "two groups": pd.concat(
        [RUNS, _runs(("B3", "A1", "Migration Only"), selection="FPFS", shs=(0.1,))],
        ignore_index=True,
    ),
    "unknown methods beside known ones": pd.concat(
        [_runs(("TLA", "Best Fit")), UNKNOWN_METHODS], ignore_index=True
    ),
}


@pytest.mark.parametrize("name", list(EXPLORED))
def test_the_across_explorer_shows_every_view_of_degenerate_runs(name):
    """A method missing at one setting, or a baseline that did not run at the level
    chosen, used to end the redraw in an InvalidParameter; now the note says so."""
    box = _quiet(lambda: across_explorers.across_explorer(EXPLORED[name]))
    assert _quiet(lambda: _drive(box)) > 0
    note = next(c for c in box.children if isinstance(c, w.HTML)).value  # the note line
    if name == "one method left":
        assert "choose at least two methods" in note


@pytest.mark.parametrize(
    "runs, costs, findings",
    [
        (_decisions(("optimal (MDP)",)), 2, 0),
        (_decisions(("optimal (MDP)", "never (No Share)")), 4, 0),
        (_decisions(("split when it fits", "never (No Share)")), 4, 0),
        (_decisions(experiments=("e",)), 5, 2),
        (_decisions(value=0.0), 10, 2),
        (_decisions(replications=1), 10, 2),
        (_decisions().iloc[:0], 0, 0),
    ],
    ids=[
        "one rule",
        "two rules",
        "no optimum",
        "one experiment",
        "cost 0 everywhere",
        "one replication",
        "empty",
    ],
)
def test_the_decision_tables_of_degenerate_runs(runs, costs, findings):
    """One or two rules left used to end in ``KeyError: 'optimal, no pre-emption'``, an
    empty frame in ``KeyError: 'rule'``."""
    table = decision_costs(runs)
    assert list(table.columns) == COST_COLUMNS and len(table) == costs
    has_optimum = "optimal (MDP)" in set(runs["rule"])
    assert table["vs_optimal"].notna().all() == has_optimum or table.empty
    assert (table.loc[table["rule"] == "optimal (MDP)", "vs_optimal"] == 0).all()
    found = decision_findings(runs)
    assert list(found.columns) == DECISION_COLUMNS and len(found) == findings


def test_decision_runs_builds_every_model_before_simulating(monkeypatch):
    from hpcmodels.papers.across import decision

    monkeypatch.setattr(decision, "simulate_policy", lambda *a, **k: pytest.fail("simulated"))
    with pytest.raises(REFUSED, match="rho1"):
        decision_runs([("fine", {}), ("bad", {"rho1": "high"})])
    assert list(decision_runs(()).columns) == list(DECISIONS.columns)


def test_empty_builders_give_their_columns():
    assert list(ground_runs((), replicates=2, progress=False).columns) == list(RUNS.columns)
    assert available_workloads(()) == ([], {})


def test_ensemble_findings_of_a_store_with_one_method_give_no_claim():
    found = ensemble_findings(STORE)
    assert found.empty and list(found.columns) == CARRIED_COLUMNS


def test_the_explorers_take_degenerate_but_valid_objects():
    """A generator of clusters, one job, one cluster, a generator of printed numbers and
    of ours, no printed number at all: each works as its list would."""
    assert isinstance(_quiet(lambda: policy_explorer(JOBS, iter(CLUSTERS))), w.VBox)
    assert isinstance(_quiet(lambda: policy_explorer(JOBS.iloc[:1], [Cluster("a", 4)])), w.VBox)
    assert isinstance(tla_run_explorer(("D1",), n_jobs=50), w.VBox)
    one = beside_printed((p for p in [Printed("T", "q", "1.5", [1.0, 2.0])]), iter([1.25]))
    assert one["ours (this run)"].tolist() == ["1.25"]
    assert beside_printed([], []).empty
    assert beside_paper(_fractions(), _fractions().iloc[:1]).shape == (3, 2)
    assert Printed("T", "q", "1.5", [1, 2]).scale.dtype == float
    assert isinstance(core.figure(2, 2)[0], Figure)
    assert core.dropdown([("one", 1), ("two", 2)], 2, "n").value == 2
