"""Parameters read loosely (issue 51): a parameter that cannot apply where it is given is
an error naming it and saying when it applies, a flag is a bool, a path is a path, and
an explorer's argument outside its slider's range is refused rather than moved to the
nearer end. Each test is the hostile call and the clean error it gets; beside each, one
call with a valid value that still works."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from hpcmodels import plots, site
from hpcmodels.bandwidth import Network, run_point
from hpcmodels.bandwidth.experiment import Setup, att_gap
from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.explorers import (
    allocation_explorer,
    bandwidth_explorer,
    link_saturation_explorer,
    mdp_explorer,
    policy_explorer,
)
from hpcmodels.explorers.printed import Printed
from hpcmodels.mdp import CoallocationMDP
from hpcmodels.mdp.simulate import simulate_policy
from hpcmodels.multicluster import Cluster, TLAOptions, simulate
from hpcmodels.papers.across import methods as across_methods
from hpcmodels.papers.across.ground import ground_clusters
from hpcmodels.papers.filippopoulos.policies import truncation_study
from hpcmodels.papers.filippopoulos.simulation import policy_cost, policy_costs
from hpcmodels.papers.he2006 import TABLE2
from hpcmodels.papers.he2006.claims import alike_row, order_row, order_rows
from hpcmodels.papers.he2006.percent import minimum_row
from hpcmodels.papers.he2006.simulation import SimSettings, fig3, simulate_point
from hpcmodels.papers.huang2006.workload import load_jobs
from hpcmodels.papers.report import FINDING_COLUMNS, save_findings, write_report
from hpcmodels.papers.store import compute_store, store_path, verify_store
from hpcmodels.papers.verdicts import Collector, compare_claim
from hpcmodels.queueing.system import MultiCluster
from hpcmodels.sweep import sweep, sweep_results
from hpcmodels.workloads import swf_frame
from hpcmodels.workloads.archive import archive_log_path, load_archive_log
from hpcmodels.workloads.models.jann97 import fit_hyper_erlang
from hpcmodels.workloads.swf import read_swf, write_swf

REFUSED = (InvalidParameter, InvalidType)
CLUSTERS = [Cluster("a", 4), Cluster("b", 4)]
JOBS = pd.DataFrame({"submit": [0.0, 1.0, 2.0], "runtime": [10.0, 10.0, 4.0], "procs": [3, 6, 2]})
NET = Network(bsbw=500.0)
STATIC = Network(bsbw=500.0, dynamic=False)
NOT_FLAGS = ["no", "False", 0, 1, None, 1.0, [True]]
NO_STORE = "/nonexistent/hpcmodels-store"
HUANG_JOBS = pd.DataFrame({"submit": [0.0, 5.0], "runtime": [10.0, 20.0], "procs": [2, 6]})


def _never(*_, **__):
    raise RuntimeError("reached: the argument was read loosely and the work began")


def point(x: int) -> dict:
    """A sweep point function (module level: the cache keys it by its source)."""
    return {"y": 2 * x}


# ---------------------------------------------------------------- simulate's knobs


@pytest.mark.parametrize(
    ("kw", "name"),
    [
        (dict(slowdown=2.0), "slowdown"),  # no co-allocation: nothing to slow down
        (dict(slowdown=1.5, allocation="best_fit"), "slowdown"),
        (dict(slowdown=1.0 + 1e-9, allocation="tla"), "slowdown"),
        (dict(tla=TLAOptions()), "tla"),  # first fit reads no TLA knob
        (dict(tla=TLAOptions(depth=3), allocation="ai2"), "tla"),
        (dict(tla=TLAOptions(), allocation="best_fit", coallocation="fixed_order"), "tla"),
        (dict(network=NET), "network"),  # no co-allocation: no link is ever loaded
        (dict(network=STATIC), "network"),
        (dict(network=STATIC, coallocation="larger_first"), "network"),  # runs at full speed
        (dict(network=NET, allocation="ai2"), "network"),
    ],
)
def test_simulate_refuses_a_knob_that_does_not_apply(kw, name):
    with pytest.raises(REFUSED, match=name):
        simulate(JOBS, CLUSTERS, **kw)


def test_simulate_reads_each_knob_where_it_applies():
    base = simulate(JOBS, CLUSTERS, coallocation="fixed_order")
    slow = simulate(JOBS, CLUSTERS, coallocation="fixed_order", slowdown=2.0)
    co = slow.jobs["cluster"] == -1
    assert co.any() and (slow.jobs["end"] - slow.jobs["start"])[co].tolist() == [20.0]
    assert slow.metrics["att"] > base.metrics["att"]
    narrow = JOBS.assign(procs=[3, 4, 2])  # TLA does not co-allocate
    tla = simulate(narrow, CLUSTERS, allocation="tla", tla=TLAOptions(depth=2))
    assert "tla_activations" in tla.counters
    for module, network in (("a1", NET), ("b3", STATIC), ("larger_first", NET)):
        res = simulate(JOBS, CLUSTERS, coallocation=module, network=network, drop_too_wide=True)
        assert "max_link_level" in res.counters
    for module in ("a1", "b1"):  # a module's co-allocated job does runtime x slowdown of work
        one = simulate(JOBS, CLUSTERS, coallocation=module, network=NET)
        two = simulate(JOBS, CLUSTERS, coallocation=module, network=NET, slowdown=2.0)
        assert (two.jobs["cluster"] == -1).any() and two.metrics["att"] > one.metrics["att"]
    defaults = simulate(narrow, CLUSTERS, slowdown=1.0, tla=None, network=None)
    assert defaults.metrics == simulate(narrow, CLUSTERS).metrics


def test_section_4_runs_pass_tla_knobs_to_the_tla_runs_only():
    from hpcmodels.papers.shih2013 import run_configurations

    runs = run_configurations(
        ["A1"],
        ["low"],
        [0.0],
        n_jobs=300,
        tla=TLAOptions(depth=2),
        client="serial",
        progress=False,
    )
    assert runs["att"].notna().all() and runs["tla_activations"].notna().sum() == 1


def test_the_huang_explorer_passes_its_slowdown_only_to_huang_heuristics(capsys):
    # one cluster: no co-allocation, so the slowdown slider's 6 is not passed to the runs
    policy_explorer(HUANG_JOBS.assign(procs=[2, 3]), [Cluster("a", 4)], slowdown=6.0)
    shown = capsys.readouterr().out
    assert "configuration A:" not in shown and "configuration B:" not in shown
    assert "Styler" in shown  # both runs went through: their table is shown


# ---------------------------------------------------------------- Jones's and 06's points

SMALL = Setup(clusters=2, nodes=20, jobs_per_cluster=300, min_nodes=5, max_nodes=18)


@pytest.mark.parametrize("strategy", ["a1", "b3", "first_fit", "ideal", "migration_only"])
def test_a_jones_point_refuses_a_penalty_it_would_ignore(strategy):
    with pytest.raises(InvalidParameter, match="penalty"):
        run_point(strategy, SMALL, penalty=1.5)
    with pytest.raises(InvalidParameter, match="penalty"):
        att_gap(strategy, SMALL, 1e9, penalty=1.2)


def test_the_fixed_penalty_point_reads_its_penalty():
    row = run_point("fixed_penalty", SMALL, penalty=1.5)
    assert row["coallocated"] > 0 and row["penalty"] == pytest.approx(1.5)
    assert run_point("a1", SMALL, penalty=None)["strategy"] == "a1"


CROSS = pd.DataFrame(
    {"submit": [0.0, 1.0, 2.0], "runtime": [50.0, 50.0, 5.0], "procs": [100, 200, 4]}
).assign(origin=[0, 1, 2])


@pytest.mark.parametrize(
    ("method", "kw"),
    [
        ("TLA", dict(slowdown=2.0)),  # never co-allocates
        ("Migration Only", dict(links=None, slowdown=2.0)),
        ("ORT, round robin", dict(links=None, slowdown=2.0)),  # a dispatcher
        ("Fixed Order", dict(slowdown=2.0)),  # its jobs pay on the (default) links
        ("Jones First-Fit", dict(slowdown=3.0)),
    ],
)
def test_an_across_method_refuses_a_slowdown_it_would_ignore(method, kw):
    with pytest.raises(InvalidParameter, match="slowdown"):
        across_methods.run_method(method, CROSS, ground_clusters(0, 0), **kw)


def test_an_across_method_reads_the_slowdown_where_it_co_allocates_without_links():
    clusters = ground_clusters(0, 0)
    fixed = across_methods.run_method("Fixed Order", CROSS, clusters, links=None, slowdown=2.0)
    plain = across_methods.run_method("Fixed Order", CROSS, clusters, links=None)
    assert fixed["coallocated"] > 0 and fixed["att"] > plain["att"]
    wide = across_methods.Links(bsbw=50.0)
    assert across_methods.run_method("B1", CROSS, clusters, links=wide)["coallocated"] > 0


# ---------------------------------------------------------------- flags


def _mdp() -> CoallocationMDP:
    return CoallocationMDP.from_loads(0.8, 0.8, 0.6, mu3=0.7, c1=2.0, c2=1.0, truncation=5)


FLAG_CALLS = {
    "truncated": lambda v: simulate_policy(
        _mdp(), "local", completions=50, replications=1, truncated=v
    ),
    "policy_cost truncated": lambda v: policy_cost(
        dict(rho=0.8, p=0.6, mu3=0.7),
        "local",
        completions=50,
        replications=1,
        seed=0,
        truncation=5,
        truncated=v,
    ),
    "policy_costs truncated": lambda v: policy_costs(
        [], "x", completions=50, replications=2, truncated=v, client="serial"
    ),
    "progress": lambda v: sweep(point, [{"x": 1}], client="serial", progress=v),
    "sweep_results progress": lambda v: sweep_results(point, [], progress=v),
    "truncation_study progress": lambda v: truncation_study("Fig. 2", (20,), progress=v),
    "policy_costs progress": lambda v: policy_costs(
        [], "x", completions=50, replications=2, progress=v, client="serial"
    ),
    # no store in that folder: the flag is read before anything is computed or written
    "verify_store progress": lambda v: verify_store("he2006", folder=NO_STORE, progress=v),
    "compute_store progress": lambda v: compute_store("no such paper", progress=v),
    "prefer_full": lambda v: load_jobs(prefer_full=v),
    "analytic": lambda v: plots.curves(pd.DataFrame(), "x", "mean_response", analytic=v),
    "logy": lambda v: plots.table_lines(pd.DataFrame(), pd.DataFrame(), "t", "y", logy=v),
    "fallback": lambda v: fit_hyper_erlang(np.array([1.0, 2.0, 4.0]), fallback=v),
    "holds": lambda v: compare_claim("Fig. 1", "q", "the claim", v, "ours"),
    "paired": lambda v: order_rows(pd.DataFrame(), "Fig. 4", paired=v),
    "paper_interior": lambda v: minimum_row("Fig. 8b", "q", "k", {}, paper_interior=v),
    "Printed.exact": lambda v: Printed("Table 1", "q", "1.5", exact=v),
}


@pytest.mark.parametrize("value", NOT_FLAGS, ids=repr)
@pytest.mark.parametrize("call", FLAG_CALLS, ids=str)
def test_a_flag_is_a_bool(call, value):
    name = call.split()[-1]
    got = re.escape(f"got {value!r}")
    with pytest.raises(InvalidType, match=rf"^{name} must be True or False, {got}$"):
        FLAG_CALLS[call](value)


@pytest.mark.parametrize("value", ["no", 0, "False"], ids=repr)
def test_download_is_none_or_a_bool(value):
    with pytest.raises(InvalidType, match="download must be True or False"):
        archive_log_path("SDSC-SP2-1998-4.2-cln", download=value)
    with pytest.raises(InvalidType, match="download must be True or False"):
        load_archive_log("SDSC-SP2-1998-4.2-cln", download=value)


@pytest.mark.parametrize(
    "call",
    [
        lambda v: order_row(pd.DataFrame(), None, paired=v),
        lambda v: alike_row(pd.DataFrame(), "Fig. 4a", paired=v),
    ],
)
def test_the_paired_reading_is_chosen_by_a_bool(call):
    with pytest.raises(InvalidType, match="paired must be True or False"):
        call("yes")


def test_the_cli_and_the_site_read_their_flags_as_bools(monkeypatch):
    from hpcmodels import cli

    monkeypatch.setattr(site, "stage", _never)
    monkeypatch.setattr(cli, "find_notebooks", _never)
    with pytest.raises(InvalidType, match="quiet must be True or False"):
        site.build_site(quiet="no")
    with pytest.raises(InvalidType, match="full must be True or False"):
        cli.reproduce([], {}, None, full="no")
    with pytest.raises(InvalidType, match="missing_only must be True or False"):
        cli.compute_stores([], scheduler=None, missing_only=0)


def test_valid_flags_still_work():
    mdp = _mdp()
    kept = simulate_policy(mdp, "local", completions=200, replications=1, truncated=True)
    same = simulate_policy(mdp, "local", completions=200, replications=1, truncated=np.True_)
    free = simulate_policy(mdp, "local", completions=200, replications=1, truncated=False)
    assert kept.equals(same) and len(free) == 1
    assert sweep(point, [{"x": 2}], client="serial", progress=False)["y"].tolist() == [4]
    assert compare_claim("Fig. 1", "q", "c", np.False_, "ours")["verdict"] == "differs"
    assert compare_claim("Fig. 1", "q", "c", True, "ours")["verdict"] == "qualitative"
    assert Printed("Table 1", "q", "1.5", exact=True).exact is True
    assert len(truncation_study("Fig. 2", (20, 21), progress=False)) == 2
    assert fit_hyper_erlang((1.0, 3.0, 20.0), fallback=True).mean() == pytest.approx(1.0)
    assert load_jobs(prefer_full=False)[1] == "SDSC-SP2-1998-4.2-cln"


# ---------------------------------------------------------------- paths


NOT_FOLDERS = ["", True, False, 0, 1.5, b"cache", ["build"]]


@pytest.mark.parametrize("cache", NOT_FOLDERS, ids=repr)
def test_a_sweep_cache_is_none_or_a_folder(cache, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # "" was this folder
    with pytest.raises(REFUSED, match="cache"):
        sweep(point, [{"x": 1}], cache=cache, client="serial", progress=False)
    with pytest.raises(REFUSED, match="cache"):
        sweep_results(point, [], cache=cache)


@pytest.mark.parametrize("cache", ["", False, 0], ids=repr)
def test_the_paper_functions_that_pass_the_cache_on_refuse_it_too(cache, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = SimSettings(n_jobs=60, warmup=10, cooldown=10, seeds=1)
    with pytest.raises(REFUSED, match="cache"):
        fig3(settings, (0.1,), cache=cache, client="serial", progress=False)
    with pytest.raises(REFUSED, match="cache"):
        compute_store("no such paper", cache=cache)  # checked before the paper


def test_a_file_where_the_cache_folder_should_be_is_refused(tmp_path):
    taken = tmp_path / "notes.txt"
    taken.write_text("not a folder")
    with pytest.raises(InvalidParameter, match="cache must be a folder"):
        sweep(point, [{"x": 1}], cache=taken, client="serial", progress=False)


def test_a_cache_folder_given_as_text_or_a_path_keeps_the_points(tmp_path):
    for folder, cache in ((tmp_path / "a", str(tmp_path / "a")), (tmp_path / "b", tmp_path / "b")):
        first = sweep(point, [{"x": 3}], cache=cache, client="serial", progress=False)
        assert first["y"].tolist() == [6]
        assert len(list(folder.rglob("*.parquet"))) == 1
    assert sweep(point, [{"x": 3}], cache=None, client="serial", progress=False)["y"][0] == 6


@pytest.mark.parametrize("folder", ["", True, 0], ids=repr)
def test_output_folders_are_paths(folder, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # "" was this folder
    fig = plots.plt.figure()
    try:
        with pytest.raises(REFUSED, match="figures_dir"):
            plots.save(fig, "x", folder)
    finally:
        plots.plt.close(fig)
    with pytest.raises(REFUSED, match="results_dir"):
        Collector("he2006", "t").save(folder)
    with pytest.raises(REFUSED, match="results_dir"):
        save_findings(pd.DataFrame(columns=FINDING_COLUMNS), folder)
    with pytest.raises(REFUSED, match="results_dir"):
        write_report(folder, tmp_path / "REPORT.md")
    with pytest.raises(REFUSED, match="store_dir"):
        write_report(tmp_path, tmp_path / "REPORT.md", store_dir=folder)
    with pytest.raises(REFUSED, match="folder"):
        store_path("he2006", folder)  # "" was the committed results/, silently
    with pytest.raises(REFUSED, match="folder"):
        compute_store("no such paper", folder=folder)  # checked before the paper


def test_the_site_refuses_an_empty_folder_before_emptying_it(monkeypatch):
    monkeypatch.setattr(site.shutil, "rmtree", _never)
    monkeypatch.setattr(site.shutil, "copytree", _never)
    with pytest.raises(InvalidParameter, match="folder"):
        site.stage("")  # Path("") is the current folder: it was emptied
    monkeypatch.setattr(site, "stage", _never)
    with pytest.raises(REFUSED, match="out"):
        site.build_site(out="", build=None)
    with pytest.raises(REFUSED, match="build"):
        site.build_site(build="")


@pytest.mark.parametrize("path", ["", True, None, 3], ids=repr)
def test_a_swf_path_is_a_file_name(path):
    with pytest.raises(REFUSED, match="path"):
        read_swf(path)
    with pytest.raises(REFUSED, match="path"):
        write_swf(swf_frame(submit=[0.0], runtime=[5.0], procs=[1]), path)


def test_a_report_or_swf_file_name_that_is_a_folder_is_refused(tmp_path):
    with pytest.raises(InvalidParameter, match="report_path"):
        write_report(tmp_path, tmp_path)
    with pytest.raises(InvalidParameter, match="path"):
        read_swf(tmp_path)


def test_paths_that_name_a_folder_or_a_file_still_work(tmp_path):
    fig = plots.plt.figure()
    try:
        assert plots.save(fig, "x", tmp_path / "figs").exists()
    finally:
        plots.plt.close(fig)
    frame = swf_frame(submit=[0.0, 1.0], runtime=[5.0, 2.0], procs=[1, 4])
    back = read_swf(write_swf(frame, str(tmp_path / "log.swf")))
    assert back["runtime"].tolist() == [5.0, 2.0]
    assert store_path("he2006", tmp_path).parent == tmp_path
    assert store_path("he2006").parent.name == "results"
    assert write_report(tmp_path / "none", tmp_path / "REPORT.md").exists()
    from hpcmodels.errors import check_path

    assert check_path("cache", None, optional=True) is None
    assert check_path("report_path", str(tmp_path / "r.md"), folder=False).name == "r.md"


# ---------------------------------------------------------------- a He point's workloads


def test_a_zero_allocation_workload_is_refused_not_read_as_the_default():
    with pytest.raises(InvalidParameter, match="alloc_workload"):
        simulate_point(TABLE2, 0.5, "ORT-RR", 0, 200, 20, 20, alloc_workload=0.0)
    kept = simulate_point(TABLE2, 0.5, "ORT-RR", 0, 200, 20, 20, alloc_workload=0.1)
    own = simulate_point(TABLE2, 0.5, "ORT-RR", 0, 200, 20, 20)
    assert kept["mean_response"] != own["mean_response"]


# ---------------------------------------------------------------- explorers' sliders


@pytest.mark.parametrize(
    ("call", "name", "value", "bounds"),
    [
        (lambda: mdp_explorer(rho=1.2), "rho", "1.2", r"\[0.3, 0.95\]"),
        (lambda: mdp_explorer(rho=0.1), "rho", "0.1", r"\[0.3, 0.95\]"),
        (lambda: mdp_explorer(p=-0.1), "p", "-0.1", r"\[0.0, 1.0\]"),
        (lambda: mdp_explorer(mu3=2.0), "mu3", "2.0", r"\[0.1, 1.5\]"),
        (lambda: mdp_explorer(truncation=500), "truncation", "500", r"\[5, 100\]"),
        (lambda: mdp_explorer(truncation=30.5), "truncation", "30.5", r"\[5, 100\]"),
        (lambda: mdp_explorer(x1=2), "x1", "2", r"\[0, 1\]"),
        (lambda: mdp_explorer(rho=float("nan")), "rho", "nan", r"\[0.3, 0.95\]"),
        (lambda: allocation_explorer(workload=0.99), "workload", "0.99", r"\[0.02, 0.98\]"),
        (lambda: allocation_explorer(slack_upper=200.0), "slack_upper", "200.0", r"\[1, 120\]"),
        (
            lambda: allocation_explorer(MultiCluster((100, 5), (20, 16))),
            r"system.nodes\[0\]",
            "100",
            r"\[1, 64\]",
        ),
        (
            lambda: allocation_explorer(MultiCluster((3, 5), (20, 60))),
            r"system.speeds\[1\]",
            "60.0",
            r"\[0.5, 40\]",
        ),
        (
            lambda: policy_explorer(HUANG_JOBS, CLUSTERS, load_factor=0.5),
            "load_factor",
            "0.5",
            r"\[1.0, 4.0\]",
        ),
        (
            lambda: policy_explorer(HUANG_JOBS, CLUSTERS, slowdown=8.0),
            "slowdown",
            "8.0",
            r"\[1.0, 6.0\]",
        ),
        (lambda: link_saturation_explorer(bsbw=3000.0), "bsbw", "3000.0", r"\[0, 2000\]"),
        (lambda: link_saturation_explorer(link_mbps=50.0), "link_mbps", "50.0", r"\[100, 2000\]"),
        (
            lambda: link_saturation_explorer(((25, 0, 0), (1, 1, 1))),
            r"jobs\[0\]\[0\]",
            "25",
            r"\[0, 20\]",
        ),
        (lambda: bandwidth_explorer(100, bsbw=50.0), "bsbw", "50.0", r"\[100, 1000\]"),
        (lambda: bandwidth_explorer(100, lslt=1.5), "lslt", "1.5", r"\[0.4, 1.2\]"),
        (lambda: bandwidth_explorer(100, chunk=0.3), "chunk", "0.3", r"\[0.5, 0.95\]"),
        (lambda: bandwidth_explorer(100, clusters=12), "clusters", "12", r"\[2, 8\]"),
    ],
)
def test_an_explorer_refuses_a_value_outside_its_slider(call, name, value, bounds):
    with pytest.raises(InvalidParameter, match=rf"^{name} must be .*{bounds}, got {value}$"):
        call()


def test_an_explorer_refuses_a_value_of_the_wrong_type():
    with pytest.raises(InvalidType, match="x1"):
        mdp_explorer(x1="1")
    with pytest.raises(InvalidType, match="system must be a MultiCluster"):
        allocation_explorer(system=((3, 5), (20, 16)))


def test_explorers_take_values_inside_and_at_the_ends_of_their_sliders():
    box = mdp_explorer(rho=0.95, p=0.0, mu3=1.5, truncation=5, x1=0)
    values = [c.value for c in box.children[0].children]
    assert values == [0.95, 0.95, 0.0, 1.5]
    box = allocation_explorer(MultiCluster((64, 1), (40, 0.5)), workload=0.02, slack_upper=120)
    assert [s.value for s in box.children[1].children] == [64, 1]
    box = policy_explorer(HUANG_JOBS, CLUSTERS, load_factor=4.0, slowdown=6.0)
    assert [s.value for s in box.children[0].children[:2]] == [4.0, 6.0]
    box = link_saturation_explorer(((20, 0, 1), (0, 2, 2)), bsbw=0.0, link_mbps=2000.0)
    assert box.children[0].children[0].value == 20
