"""Notebook 06's common ground and comparisons (hpcmodels/papers/across): the ground is
Shih 2013's A2 configuration (so a method run here equals its run in notebook 01), the
replicates are common random numbers, and the paired comparisons and win map say what
the runs say (checked against hand-made runs)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hpcmodels.bandwidth import SECTION6, run_point
from hpcmodels.bandwidth.experiment import workload
from hpcmodels.errors import InvalidParameter
from hpcmodels.explorers.across import across_explorer
from hpcmodels.multicluster import simulate
from hpcmodels.papers import store as paper_store
from hpcmodels.papers.across import (
    GROUPS,
    METHODS,
    SIZES,
    available_workloads,
    decision,
    ground_clusters,
    ground_jobs,
    run_method,
)
from hpcmodels.papers.across import ensemble as full
from hpcmodels.papers.across.compare import ground_point, ground_runs, paired_differences, win_map
from hpcmodels.papers.across.findings import CLAIMS, CarriedClaim, carried_claims
from hpcmodels.papers.across.methods import Links
from hpcmodels.papers.ensemble import runtime_scale
from hpcmodels.papers.filippopoulos.model import model as fk_model
from hpcmodels.papers.filippopoulos.policies import EXPERIMENT_STEPS
from hpcmodels.papers.huang2006.published import GRID
from hpcmodels.papers.huang2006.simulation import simulate_run
from hpcmodels.papers.huang2006.workload import completed_jobs
from hpcmodels.papers.report import FINDING_COLUMNS
from hpcmodels.papers.shih2013.published import LOADS
from hpcmodels.papers.shih2013.section4 import configuration_point
from hpcmodels.papers.shih2013.workloads import jobs_at_load, workload_jobs
from hpcmodels.workloads.transforms import speed_vectors, system_loading

from logs import SDSC, need_log


@pytest.fixture
def sdsc():
    """Skip (naming the log) where the SDSC SP2 log is absent."""
    need_log(SDSC)


@pytest.mark.usefixtures("sdsc")
@pytest.mark.parametrize("load", list(LOADS))
def test_the_log_at_a_load_is_shihs_a2_workload_at_that_load(load):
    ours = ground_jobs("SDSC SP2", load, 0, n_jobs=2_000)
    shih = jobs_at_load("A2", load, 2_000, 0).reset_index(drop=True)
    pd.testing.assert_frame_equal(ours.drop(columns="origin"), shih, check_dtype=False)
    assert system_loading(ours, sum(SIZES)) == pytest.approx(LOADS[load], rel=1e-12)


@pytest.mark.usefixtures("sdsc")
def test_a_log_replicate_scales_every_runtime_after_the_load():
    base = ground_jobs("SDSC SP2", "high", 0, n_jobs=500)
    other = ground_jobs("SDSC SP2", "high", 3, n_jobs=500)
    assert np.allclose(other["runtime"], base["runtime"] * runtime_scale(3), rtol=1e-15)
    assert other["runtime"].iloc[0] != base["runtime"].iloc[0]
    assert other["submit"].equals(base["submit"])


@pytest.mark.usefixtures("sdsc")
def test_a_log_job_arrives_at_the_cluster_of_its_queue():
    jobs = ground_jobs("SDSC SP2", "low", 0)
    queue = workload_jobs("A2").reset_index(drop=True)["queue"]
    assert jobs["origin"].tolist() == queue.map({2: 0, 3: 1, 4: 2, 5: 3, 1: 4}).tolist()
    assert (jobs["procs"] <= np.asarray(SIZES)[jobs["origin"]]).all()


def test_a_model_job_arrives_where_it_fits_in_proportion_to_size():
    jobs = ground_jobs("Lublin99", "high", 4)
    sizes = np.asarray(SIZES)
    assert (jobs["procs"] <= sizes[jobs["origin"]]).all()
    narrow = jobs[jobs["procs"] <= 8]
    share = np.bincount(narrow["origin"], minlength=5) / len(narrow)
    assert np.allclose(share, sizes / sizes.sum(), atol=0.01)
    assert jobs["origin"].equals(ground_jobs("Lublin99", "high", 4)["origin"])
    assert not jobs["origin"].equals(ground_jobs("Lublin99", "high", 5)["origin"])


def test_a_model_replicate_is_its_own_stream_at_the_load():
    a = ground_jobs("Lublin99", "low", 1, n_jobs=1_000)
    b = ground_jobs("Lublin99", "low", 2, n_jobs=1_000)
    assert not a["submit"].equals(b["submit"])
    assert a.equals(ground_jobs("Lublin99", "low", 1, n_jobs=1_000))
    for jobs in (a, b):
        assert system_loading(jobs, sum(SIZES)) == pytest.approx(0.5, rel=1e-12)
        assert jobs["procs"].max() <= max(SIZES)


@pytest.mark.parametrize("sh", [0.0, 0.1, 0.2])
def test_replicate_r_is_speed_vector_r_keeping_the_capacity(sh):
    vectors = speed_vectors(SIZES, sh, 12, seed=0)
    for r in (0, 5, 11):
        speeds = np.array([c.speed for c in ground_clusters(sh, r)])
        assert np.allclose(speeds, vectors[r], rtol=1e-15)
        assert float(np.dot(speeds, SIZES)) == pytest.approx(sum(SIZES), rel=1e-12)  # Eq. 4
        assert [c.procs for c in ground_clusters(sh, r)] == list(SIZES)


@pytest.mark.usefixtures("sdsc")
@pytest.mark.parametrize("method, shih", [("TLA", "TLA"), ("AI2", "AI2"), ("Best Fit", "BF"),
                                          ("Fastest First", "FF")])  # fmt: skip
def test_a_shih_method_here_equals_its_run_in_notebook_01(method, shih):
    """The same configuration, A2 at medium load on speed vector 2 of SH 0.1, through
    06's run_method and through Shih's own sweep point."""
    jobs = ground_jobs("SDSC SP2", "medium", 0, n_jobs=1_500)
    ours = run_method(method, jobs, ground_clusters(0.1, 2))
    theirs = configuration_point("A2", "medium", 0.1, 2, shih, n_vectors=10, n_jobs=1_500,
                                 tla=None, seed=0)  # fmt: skip
    assert ours["att"] == theirs["att"]
    assert ours["utilization"] == theirs["utilization"]


@pytest.mark.parametrize("method, strategy", [("A1", "a1"), ("B3", "b3"), ("Jones First-Fit",
                         "first_fit"), ("Migration Only", "migration_only"), ("No Share",
                         "no_share")])  # fmt: skip
def test_a_jones_method_here_equals_its_run_in_notebook_04(method, strategy):
    """Jones's own set-up (4 clusters, its synthetic workload) through 06's run_method
    with the same links, and through notebook 04's run_point."""
    setup = SECTION6.scaled(1_500)
    links = Links(bsbw=400.0, lslt=0.9, chunk=0.7)
    ours = run_method(method, workload(setup, 2), setup.system, "FPFS", links=links)
    theirs = run_point(strategy, setup, bsbw=400.0, lslt=0.9, chunk=0.7, seed=2)
    assert ours["att"] == theirs["att"]
    assert ours["coallocated"] == theirs["coallocated"]


@pytest.mark.usefixtures("sdsc")
@pytest.mark.parametrize("method, selection, coallocation", [
    ("Larger First", "fcfs", "larger_first"), ("Smaller First", "fcfs", "smaller_first"),
    ("Fixed Order", "fcfs", "fixed_order"), ("Integrated", "smallest_first", "larger_first")])  # fmt: skip
def test_a_huang_heuristic_here_equals_its_run_in_notebook_02(method, selection, coallocation):
    """Huang's grid and log at slowdown ratio 2, through 06's run_method (links=None:
    Huang's fixed ratio) and through notebook 02's simulate_run."""
    jobs = completed_jobs(SDSC)[["submit", "runtime", "procs"]].iloc[:3_000]
    ours = run_method(method, jobs, GRID, "FCFS", links=None, slowdown=2.0)
    theirs = simulate(jobs, GRID, selection, "best_fit", coallocation=coallocation, slowdown=2.0)
    assert ours["att"] == theirs.metrics["att"]
    assert ours["mean_wait"] == theirs.metrics["mean_wait"]
    table_run = simulate_run(SDSC, GRID, selection, "best_fit", coallocation, slowdown=2.0)
    whole = run_method(method, completed_jobs(SDSC)[["submit", "runtime", "procs"]], GRID,
                       links=None, slowdown=2.0)  # fmt: skip
    assert whole["mean_wait"] == table_run["mean_wait"]


def _runs(diffs: dict[str, list[float]], base: list[float]) -> pd.DataFrame:
    rows = [dict(workload="w", load="low", sh=0.0, bsbw=500.0, selection="FCFS", replicate=r, method="B",
                 att=v) for r, v in enumerate(base)]  # fmt: skip
    for name, values in diffs.items():
        rows += [dict(workload="w", load="low", sh=0.0, bsbw=500.0, selection="FCFS", replicate=r,
                      method=name, att=b + d) for r, (b, d) in enumerate(zip(base, values, strict=True))]  # fmt: skip
    return pd.DataFrame(rows)


def test_paired_differences_read_the_pairs_not_the_spread():
    """Runs whose values spread widely but whose differences are steady: A is better on
    every replicate (paired), although the two ranges overlap; C is within noise."""
    base = [100.0, 300.0, 500.0, 700.0]
    runs = _runs({"A": [-10.0, -12.0, -9.0, -11.0], "C": [5.0, -5.0, 4.0, -4.0]}, base)
    table = paired_differences(runs, "att", "B").set_index("method")
    assert table.loc["A", "diff"] == pytest.approx(-10.5)
    assert table.loc["A", "verdict"] == "better"
    assert table.loc["A", "wins"] == 4
    assert table.loc["A", "relative"] == pytest.approx(-10.5 / 400)
    assert table.loc["C", "verdict"] == "no difference"
    wins = win_map(runs, "att").iloc[0]
    assert (wins["winner"], wins["runner_up"], bool(wins["clear"])) == ("A", "B", True)


def test_a_win_within_noise_is_not_clear():
    runs = _runs({"A": [-3.0, 2.0, -4.0, 1.0]}, [100.0, 90.0, 95.0, 105.0])
    wins = win_map(runs, "att").iloc[0]
    assert wins["winner"] == "A" and not bool(wins["clear"])


def test_a_sweep_gives_every_method_at_every_replicate_on_the_same_jobs():
    runs = ground_runs(("Lublin99",), ("medium",), (0.1,), methods=("Best Fit", "ORT, random"),
                       replicates=2, n_jobs=300, progress=False, client="serial")  # fmt: skip
    assert len(runs) == 4
    assert set(runs["method"]) == {"Best Fit", "ORT, random"}
    point = ground_point("Lublin99", "medium", 0.1, 1, methods=("Best Fit",), n_jobs=300)
    row = runs[(runs["replicate"] == 1) & (runs["method"] == "Best Fit")].iloc[0]
    assert row["att"] == point["Best Fit | att"]
    assert (runs["seconds_per_job"] > 0).all()


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: ground_jobs("CTC", "low", 0), "workload"),
        (lambda: ground_jobs("Lublin99", "extreme", 0), "load"),
        (lambda: ground_jobs("Lublin99", "low", -1), "replicate"),
        (lambda: ground_jobs("Lublin99", "low", 0, n_jobs=1), "n_jobs"),
        (lambda: ground_clusters(float("nan"), 0), "sh"),
        (lambda: ground_clusters(0.1, 1.5), "replicate"),
        (lambda: run_method("SJF", pd.DataFrame(), ground_clusters(0, 0)), "method"),
        (lambda: run_method("TLA", pd.DataFrame(), ground_clusters(0, 0), "LIFO"), "selection"),
        (lambda: paired_differences(pd.DataFrame(), "att", "B"), "runs"),
        (lambda: paired_differences(_runs({}, [1.0, 2.0]), "speed", "B"), "metric"),
        (lambda: paired_differences(_runs({}, [1.0, 2.0]), "att", "Z"), "baseline"),
        (lambda: win_map(_runs({}, [1.0, 2.0]), "att"), "two methods"),
        (lambda: ground_runs(replicates=1), "replicates"),
        (lambda: run_method("A1", _tiny(), ground_clusters(0, 0), links=None), "links"),
        (lambda: run_method("A1", _tiny(), ground_clusters(0, 0), links=500.0), "links"),
        (
            lambda: run_method("Fixed Order", _tiny(), ground_clusters(0, 0), slowdown=0.5),
            "slowdown",
        ),
        (lambda: run_method("TLA", _tiny(), ground_clusters(0, 0), seed=-2), "seed"),
        (lambda: ground_runs(methods=("TLA", "SJF")), "method"),
        (lambda: ground_point("Lublin99", "low", float("inf"), 0, n_jobs=100), "sh"),
        (lambda: available_workloads(("SDSC SP2", "CTC")), "workload"),
        (lambda: Links(bsbw=float("nan")), "bsbw"),
        (lambda: Links(chunk=1.5), "chunk"),
        (lambda: Links(link_mbps="fast"), "link_mbps"),
        (lambda: across_explorer("runs.csv"), "runs must be a pandas DataFrame"),
        (
            lambda: across_explorer(
                _runs({}, [1.0, 2.0]).iloc[:0].assign(mean_bounded_slowdown=[], mean_wait=[])
            ),
            "runs is empty",
        ),  # fmt: skip
    ],
)
def test_bad_input_is_refused_naming_the_field(call, field):
    """Every public function of the module meets hostile input with an error naming it."""
    with pytest.raises(InvalidParameter, match=field):
        call()


def _tiny() -> pd.DataFrame:
    return pd.DataFrame({"submit": [0.0, 1.0], "runtime": [5.0, 5.0], "procs": [4, 200],
                         "origin": [0, 1]})  # fmt: skip


def test_every_method_names_its_paper_and_kind():
    for name, method in METHODS.items():
        assert method.name == name and method.paper
        assert (method.allocation is None) != (method.fractions is None)


def _two_settings(diffs_low: list[float], diffs_high: list[float]) -> pd.DataFrame:
    """TLA against Best Fit at two loads, four replicates each (differences given)."""
    base = [1000.0, 1200.0, 900.0, 1100.0]
    rows = []
    for load, diffs in (("low", diffs_low), ("high", diffs_high)):
        for r, (b, d) in enumerate(zip(base, diffs, strict=True)):
            common = dict(workload="w", load=load, sh=0.0, bsbw=500.0, selection="FCFS",
                          replicate=r)  # fmt: skip
            rows += [dict(common, method="Best Fit", att=b), dict(common, method="TLA", att=b + d)]
    return pd.DataFrame(rows)


def test_a_carried_claim_counts_where_it_holds_and_where_it_turns():
    runs = _two_settings([-100.0, -110.0, -90.0, -105.0], [50.0, 55.0, 45.0, 52.0])
    claims = (CarriedClaim("Shih 2013", "Table 4", "TLA beats best fit", "TLA", "Best Fit"),
              CarriedClaim("Huang 2006", "x", "B3 beats A1", "B3", "A1", "FPFS"))  # fmt: skip
    table = carried_claims(runs, claims)
    assert len(table) == 1  # the runs hold no B3 / A1: that claim is not judged
    row = table.iloc[0]
    assert (row["holds"], row["within_noise"], row["reversed"]) == (1, 0, 1)
    assert row["best_relative"] == pytest.approx(-101.25 / 1050)
    assert row["worst_relative"] == pytest.approx(50.5 / 1050)
    assert "holds at 1 of 2 settings" in row["finding"]
    assert "largest loss +4.8 %" in row["finding"] and "w, high load" in row["finding"]


def test_a_claim_that_never_wins_says_so():
    runs = _two_settings([1.0, -1.0, 2.0, -2.0], [30.0, 35.0, 25.0, 32.0])
    row = carried_claims(runs, CLAIMS[:1]).iloc[0]
    assert (row["holds"], row["within_noise"], row["reversed"]) == (0, 1, 1)
    assert "never better on average" in row["finding"]


def test_every_carried_claim_names_methods_of_the_suite():
    for c in CLAIMS:
        assert c.better in METHODS and c.worse in METHODS
        assert METHODS[c.better].group == METHODS[c.worse].group


@pytest.mark.parametrize(
    "runs, claims, field",
    [
        ("runs.parquet", CLAIMS, "runs must be a pandas DataFrame"),
        (pd.DataFrame({"method": []}), CLAIMS, "runs lacks"),
        (_two_settings([1.0] * 4, [1.0] * 4), ["TLA beats best fit"], "CarriedClaim"),
        (
            _two_settings([1.0] * 4, [1.0] * 4),
            [CarriedClaim("p", "s", "c", "TLA", "Best Fit", metric="speed")],
            "metric",
        ),  # fmt: skip
    ],
)
def test_carried_claims_refuse_bad_input(runs, claims, field):
    with pytest.raises(InvalidParameter, match=field):
        carried_claims(runs, claims)


def test_methods_with_the_same_schedule_share_the_win():
    runs = _runs({"A": [-10.0, -12.0, -9.0, -11.0], "C": [-10.0, -12.0, -9.0, -11.0]},
                 [100.0, 300.0, 500.0, 700.0])  # fmt: skip
    wins = win_map(runs, "att").iloc[0]
    assert (wins["winner"], wins["runner_up"], bool(wins["clear"])) == ("A = C", "B", True)
    alike = win_map(_runs({"A": [0.0, 0.0]}, [1.0, 2.0]), "att").iloc[0]
    assert alike["winner"] == "A = B" and alike["runner_up"] is None and not alike["clear"]


def test_the_explorers_table_says_what_and_in_which_unit():
    from hpcmodels.explorers.across import paired_table

    runs = _runs({"A": [-10.0, -12.0, -9.0, -11.0]}, [100.0, 300.0, 500.0, 700.0])
    table = paired_table(runs, "att", "B")
    assert list(table.columns) == [
        "workload", "load", "SH", "BSBW (Mbps)", "method", "difference (%)",
        "mean paired difference (s)", "95 % half-width (s)", "replicates won", "replicates",
        "verdict",
    ]  # fmt: skip
    row = table.iloc[0]
    assert (row["difference (%)"], row["verdict"]) == (-2.6, "better than B")
    slowdown = paired_table(
        runs.assign(mean_bounded_slowdown=runs["att"]), "mean_bounded_slowdown", "B"
    )
    assert "mean paired difference" in slowdown.columns


# ---- full scale: the store's points (hpcmodels.papers.across.ensemble) ----

CHEAP = dict(sweep="co-allocation", workload="Lublin99", load="low", sh=0.1, bsbw=200.0,
             selection="FCFS")  # fmt: skip


def test_the_full_sweeps_are_the_notebooks_at_every_load_ten_replicates():
    points = full.ensemble_points()
    # 2 workloads x 3 loads x (3 SH + 2 backfilling selections + 3 BSBW x 2 selections) x 10
    assert len(points) == 2 * 3 * (3 + 2 + 6) * 10 == 660
    assert len({tuple(sorted(p.items())) for p in points}) == len(points)
    assert {p["replicate"] for p in points} == set(range(full.FULL_REPLICATES))
    assert set(full.SWEEPS["allocation"].methods) == set(GROUPS["allocation"])
    assert set(full.SWEEPS["co-allocation"].methods) == set(GROUPS["co-allocation"])
    assert "across" in paper_store.ensemble_papers()


def test_a_stored_point_is_every_methods_whole_run_at_its_setting_without_timings():
    point = dict(CHEAP, replicate=1)
    items = full.ensemble_point(**point)
    run = ground_point("Lublin99", "low", 0.1, 1, "FCFS", full.SWEEPS["co-allocation"].methods,
                       None, 200.0)  # fmt: skip
    prefix = "Lublin99 | low | SH 0.1 | BSBW 200 | FCFS | "
    expected = {prefix + k: v for k, v in run.items() if not k.endswith("seconds_per_job")}
    assert items == expected
    assert len(items) == len(full.SWEEPS["co-allocation"].methods) * len(full.STORED)


def test_the_stored_runs_read_back_as_the_runs_and_give_findings():
    points = [dict(CHEAP, replicate=r) for r in range(3)]
    results = [full.ensemble_point(**p) for p in points]
    frame = paper_store._rows(points, results)
    runs = full.ensemble_runs(frame)
    assert len(runs) == 3 * len(full.SWEEPS["co-allocation"].methods)
    row = runs[(runs["replicate"] == 2) & (runs["method"] == "B3")].iloc[0]
    assert row["att"] == results[2]["Lublin99 | low | SH 0.1 | BSBW 200 | FCFS | B3 | att"]
    assert row[["workload", "load", "sh", "bsbw", "selection"]].tolist() == [
        "Lublin99", "low", 0.1, 200.0, "FCFS"]  # fmt: skip
    findings = full.ensemble_findings(frame)
    assert set(findings["claim"]) >= {c.claim for c in CLAIMS if c.selection == "FCFS"
                                      and {c.better, c.worse} <= set(runs["method"])}  # fmt: skip
    assert (findings["replicates"] == 3).all()


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: full.ensemble_runs([1, 2]), "store"),
        (lambda: full.ensemble_runs(pd.DataFrame({"item": []})), "store"),
        (lambda: full.ensemble_point(**dict(CHEAP, sweep="nope"), replicate=0), "sweep"),
        (lambda: full.ensemble_point(**dict(CHEAP, load="huge"), replicate=0), "load"),
        (lambda: full.ensemble_point(**dict(CHEAP, sh=float("nan")), replicate=0), "sh"),
    ],
)
def test_full_scale_bad_input_names_the_field(call, field):
    with pytest.raises(InvalidParameter, match=field):
        call()


def test_a_store_of_foreign_items_is_refused():
    frame = paper_store._rows([dict(CHEAP, replicate=0)], [{"no separators": 1.0}])
    with pytest.raises(InvalidParameter, match="store has items"):
        full.ensemble_runs(frame)
    with pytest.raises(InvalidParameter, match="store is empty"):
        full.ensemble_runs(frame.iloc[:0])


# ---- Filippopoulos & Karatza's decision in its own model (decision.py) ----


def test_each_rule_is_a_policy_of_the_mdp_and_the_non_preemptive_ones_leave_cluster_2_alone():
    mdp = fk_model(12)
    rules = decision.decision_rules(mdp)
    assert list(rules) == list(decision.RULES)
    q1, q2, g, x1, x2, x11 = mdp.states.T
    for actions in rules.values():
        mdp.check_policy(actions)  # 1 only where co-allocation is allowed
    optimal = rules["optimal (MDP)"].astype(bool)
    kept = rules["optimal, no pre-emption"].astype(bool)
    assert (kept == (optimal & (q2 == 0))).all() and (q2[optimal] > 0).any()
    split = rules["split when it fits"].astype(bool)
    assert (split == (mdp.can_coallocate & (x1 == 1) & (q2 == 0))).all()
    assert not rules["never (No Share)"].any()


def test_the_mdps_prediction_is_what_its_truncated_chain_simulates():
    steps = EXPERIMENT_STEPS[:1]
    runs = decision.decision_runs(steps, completions=40_000, replications=4, truncation=12)
    costs = decision.decision_costs(runs)
    assert list(costs["rule"]) == list(decision.RULES)
    gap = (costs["simulated"] - costs["exact"]).abs()
    assert (gap <= 4 * costs["ci"]).all(), costs
    assert costs.loc[costs["rule"] == "optimal (MDP)", "vs_optimal"].item() == 0.0


def _synthetic(effect: float) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    rows = []
    for experiment in ("a", "b"):
        for r in range(6):
            common = 10 + rng.normal()
            for rule in decision.RULES:
                cost = common + (effect if rule == "split when it fits" else 0.0)
                rows.append(dict(experiment=experiment, rule=rule, replication=r,
                                 average_cost=cost + 1e-3 * rng.normal(), exact=10.0))  # fmt: skip
    return pd.DataFrame(rows)


def test_decision_findings_count_where_the_optimum_wins_on_paired_runs():
    findings = decision.decision_findings(_synthetic(1.0)).set_index("better")
    assert findings.loc["optimal (MDP)", ["holds", "within_noise", "reversed"]].tolist() == [
        2,
        0,
        0,
    ]
    tie = decision.decision_findings(_synthetic(0.0)).set_index("better")
    assert tie.loc["optimal (MDP)", "within_noise"] == 2
    assert "holds at 0 of 2 experiments" in tie.loc["optimal (MDP)", "finding"]
    assert set(findings.columns) >= set(FINDING_COLUMNS)


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: decision.decision_findings(pd.DataFrame({"rule": []})), "runs"),
        (lambda: decision.decision_costs("runs"), "runs"),
        (lambda: decision.decision_runs(completions=0), "completions"),
        (lambda: decision.decision_runs(replications=1), "replications"),
    ],
)
def test_decision_bad_input_names_the_field(call, field):
    with pytest.raises(InvalidParameter, match=field):
        call()


def test_the_decision_runs_are_notebook_05s_runs_of_the_same_policies():
    """Fig. 5's point at load 0.8 is Fig. 2's experiment: the optimal, heuristic and
    local runs here equal notebook 05's stored runs of the same streams, run by run."""
    from hpcmodels.papers.filippopoulos.ensemble import ensemble_key, ensemble_point

    steps = EXPERIMENT_STEPS[:1]
    runs = decision.decision_runs(steps, completions=30_000, replications=2)
    ours = runs.set_index(["rule", "replication"])["average_cost"]
    names = {"optimal": "optimal (MDP)", "heuristic": "F&K heuristic", "local": "never (No Share)"}
    for replicate in (0, 1):
        theirs = ensemble_point("Fig. 5", rho=0.8, mu3=0.7, p=0.6, c1=2.0, c2=1.0,
                                completions=30_000, truncation=30, replicate=replicate)  # fmt: skip
        for policy, rule in names.items():
            key = ensemble_key("Fig. 5", policy, "rho", 0.8)
            assert ours[rule, replicate] == pytest.approx(theirs[key], rel=1e-12), rule


def test_the_stored_runs_read_back_in_the_loads_order():
    points = [dict(CHEAP, load=load, replicate=0) for load in ("high", "low", "medium")]
    frame = paper_store._rows(points, [full.ensemble_point(**p) for p in points])
    assert list(dict.fromkeys(full.ensemble_runs(frame)["load"])) == ["low", "medium", "high"]


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: full.ensemble_points(replicates=1), "replicates"),
        (lambda: full.ensemble_points(replicates=float("nan")), "replicates"),
        (lambda: decision.decision_rules("an mdp"), "mdp"),
    ],
)
def test_more_bad_input_names_the_field(call, field):
    with pytest.raises(InvalidParameter, match=field):
        call()
