"""Integers and seeds without bounds (issue 51): every count, size, number of jobs,
completions, replicates, iterations, servers, clusters or processors, and every seed,
of the public functions has a documented range (:mod:`hpcmodels.bounds`) checked before
it reaches NumPy or numba. A huge (2**63, 10**30), negative, fractional, bool, string,
None or NaN value is an InvalidParameter (or InvalidType) naming the parameter, raised at
once: never a loop that does not end (2**63 completions), a numba typing error (10**30)
or a seed handed to NumPy unchecked. One valid call per function shows that the bound
admits its real use (the papers' scale where that call is cheap)."""

import faulthandler
import signal
import time

import numpy as np
import pandas as pd
import pytest

from hpcmodels import bounds
from hpcmodels.bandwidth import (
    SECTION4,
    SECTION6,
    Network,
    Setup,
    link_demand,
    ppbw_from_bsbw,
    run_point,
    workload,
)
from hpcmodels.errors import InvalidParameter, check_ints
from hpcmodels.explorers import (
    bandwidth_explorer,
    link_saturation_explorer,
    mdp_explorer,
    tla_run_explorer,
)
from hpcmodels.mdp import (
    CoallocationMDP,
    modified_policy_iteration,
    policy_iteration,
    solve,
    value_iteration,
)
from hpcmodels.mdp.simulate import simulate_policy
from hpcmodels.multicluster import Cluster, TLAOptions, WaitingJob, simulate, tla_scores
from hpcmodels.multicluster.dispatch import dispatch
from hpcmodels.papers import across, he2006, huang2006, jones2005, shih2013
from hpcmodels.papers import filippopoulos as fk
from hpcmodels.papers.across.decision import decision_runs
from hpcmodels.papers.ensemble import runtime_scale, with_replicates
from hpcmodels.papers.full_scale import FULL_SCALE
from hpcmodels.papers.jones2005.section4_scale import section4_point
from hpcmodels.papers.store import verify_store
from hpcmodels.queueing import (
    SpikeSlack,
    UniformSlack,
    algorithm1,
    erlang_b,
    erlang_c,
    mean_response_time,
    mean_waiting_time,
    ort_allocation,
    waiting_time_cdf,
)
from hpcmodels.queueing.dispatch import replicate, simulate_dispatch
from hpcmodels.queueing.system import MultiCluster, Stream
from hpcmodels.workloads import swf_frame
from hpcmodels.workloads.models.feitelson96 import Feitelson96Params, feitelson96, offered_load
from hpcmodels.workloads.models.jann97 import (
    CTC_RANGES,
    HyperErlang,
    Jann97Params,
    fit_hyper_erlang,
    fit_jann97,
    jann97,
)
from hpcmodels.workloads.models.lublin99 import lublin99, scaled_parameters
from hpcmodels.workloads.transforms import (
    estimate_inaccuracy,
    scale_to_loading,
    speed_vectors,
    split_wide_jobs,
    system_loading,
)

NAN = float("nan")
BAD = {
    "2**63": 2**63,
    "10**30": 10**30,
    "-1": -1,
    "2.5": 2.5,
    "True": True,
    "'3'": "3",
    "None": None,
    "nan": NAN,
}
TIMEOUT = 30  # seconds: a check is immediate; a hang (2**63 completions) is a failure

JOBS = pd.DataFrame({"submit": [0.0, 1.0], "runtime": [5.0, 3.0], "procs": [2, 1]})
SWF = swf_frame(submit=[0.0, 10.0], runtime=[5.0, 3.0], procs=[20, 1])
SMALL_MDP = CoallocationMDP(0.8, 0.8, 0.6, truncation=5)
SETUP = Setup(jobs_per_cluster=50)
SYSTEM = MultiCluster((2, 3), (1.0, 1.0))
STREAM = Stream(0.02)
RUN = {"n_jobs": 200, "warmup": 0, "cooldown": 0}
HE = he2006.ensemble_points(he2006.SimSettings(2000, 0, 0, 1), 1)[0]
HUANG_LOG = huang2006.ENSEMBLE_LOG
CHEAP_ACROSS = dict(
    sweep="co-allocation", workload="Lublin99", load="low", sh=0.1, bsbw=200.0, selection="FCFS"
)
FK_POINT = dict(figure="Fig. 5", rho=0.8, mu3=0.7, p=0.6, c1=2.0, c2=1.0)
CLAIM_ROW = {"kind": "claim", "reason": ""}


def _jann_params() -> Jann97Params:
    """Made-up parameters on the ten CTC ranges (as tests/workloads/test_jann97.py)."""
    inter = [HyperErlang(0.3, 1 / 3000, 1 / 300, 1) for _ in CTC_RANGES]
    run = [HyperErlang(0.25, 1 / 20_000, 1 / 400, 1) for _ in CTC_RANGES]
    return Jann97Params(interarrival=inter, runtime=run, source="test parameters")


def _solution():
    return solve(SMALL_MDP)


def _rng():
    return np.random.default_rng(0)


# (id, call of the bad value v, the parameter's name in the message, None is valid)
CASES = [
    # ---------------------------------------------------------------- multicluster
    ("simulate seed", lambda v: simulate(JOBS, [Cluster("a", 4)], seed=v), "seed", False),
    ("Cluster procs", lambda v: Cluster("a", v), "procs", False),
    ("TLAOptions depth", lambda v: TLAOptions(depth=v), "depth", True),
    (
        "TLAOptions allocation_depth",
        lambda v: TLAOptions(allocation_depth=v),
        "allocation_depth",
        False,
    ),
    (
        "tla_scores depth",
        lambda v: tla_scores([Cluster("a", 4)], [], [WaitingJob(1, 0.0, 1.0)], depth=v),
        "depth",
        True,
    ),
    ("dispatch seed", lambda v: dispatch(JOBS, [Cluster("a", 4)], [1.0], seed=v), "seed", False),
    (
        "Network.link_capacities clusters",
        lambda v: Network(500.0).link_capacities(v),
        "clusters",
        False,
    ),
    # ---------------------------------------------------------------- queueing
    ("erlang_b servers", lambda v: erlang_b(v, 1.0), "servers", False),
    ("erlang_c servers", lambda v: erlang_c(v, 1.0), "servers", False),
    ("mean_waiting_time servers", lambda v: mean_waiting_time(v, 1.0, 0.5), "servers", False),
    ("mean_response_time servers", lambda v: mean_response_time(v, 1.0, 0.5), "servers", False),
    ("waiting_time_cdf servers", lambda v: waiting_time_cdf(v, 1.0, 0.5, 1.0), "servers", False),
    ("MultiCluster nodes", lambda v: MultiCluster((v, 3), (1.0, 1.0)), r"nodes\[0\]", False),
    ("ort_allocation nodes", lambda v: ort_allocation([v, 3], [1.0, 1.0], 0.5), "nodes", False),
    (
        "algorithm1 max_outer",
        lambda v: algorithm1(0, [2, 3], [1.0, 1.0], 1.0, max_outer=v),
        "max_outer",
        False,
    ),
    (
        "simulate_dispatch n_jobs",
        lambda v: simulate_dispatch(SYSTEM, [0.5, 0.5], "random", STREAM, **{**RUN, "n_jobs": v}),
        "n_jobs",
        False,
    ),
    (
        "simulate_dispatch warmup",
        lambda v: simulate_dispatch(SYSTEM, [0.5, 0.5], "random", STREAM, **{**RUN, "warmup": v}),
        "warmup",
        False,
    ),
    (
        "simulate_dispatch cooldown",
        lambda v: simulate_dispatch(SYSTEM, [0.5, 0.5], "random", STREAM, **{**RUN, "cooldown": v}),
        "cooldown",
        False,
    ),
    (
        "simulate_dispatch seed",
        lambda v: simulate_dispatch(SYSTEM, [0.5, 0.5], "random", STREAM, seed=v, **RUN),
        "seed",
        False,
    ),
    (
        "replicate seeds",
        lambda v: replicate(SYSTEM, [0.5, 0.5], "random", STREAM, seeds=[v], **RUN),
        r"seeds\[0\]",
        False,
    ),
    ("Stream.interarrivals n", lambda v: STREAM.interarrivals(_rng(), v), "n", False),
    ("Stream.job_sizes n", lambda v: STREAM.job_sizes(_rng(), v), "n", False),
    ("UniformSlack.sample n", lambda v: UniformSlack(0.0, 30.0).sample(_rng(), v), "n", False),
    ("SpikeSlack.sample n", lambda v: SpikeSlack((1.0,), (1.0,)).sample(_rng(), v), "n", False),
    # ---------------------------------------------------------------- mdp
    (
        "CoallocationMDP truncation",
        lambda v: CoallocationMDP(0.8, 0.8, 0.6, truncation=v),
        "truncation",
        False,
    ),
    (
        "value_iteration max_iter",
        lambda v: value_iteration(SMALL_MDP, max_iter=v),
        "max_iter",
        False,
    ),
    (
        "policy_iteration max_iter",
        lambda v: policy_iteration(SMALL_MDP, max_iter=v),
        "max_iter",
        False,
    ),
    (
        "modified_policy_iteration max_iter",
        lambda v: modified_policy_iteration(SMALL_MDP, max_iter=v),
        "max_iter",
        False,
    ),
    (
        "modified_policy_iteration cycles",
        lambda v: modified_policy_iteration(SMALL_MDP, cycles=v),
        "cycles",
        False,
    ),
    ("Solution.policy_table q1_max", lambda v: _solution().policy_table(1, v, 3), "q1_max", False),
    ("Solution.policy_table q2_max", lambda v: _solution().policy_table(1, 3, v), "q2_max", False),
    ("Solution.policy_table x1", lambda v: _solution().policy_table(v, 3, 3), "x1", False),
    (
        "simulate_policy completions",
        lambda v: simulate_policy(SMALL_MDP, "local", completions=v, replications=1),
        "completions",
        False,
    ),
    (
        "simulate_policy replications",
        lambda v: simulate_policy(SMALL_MDP, "local", completions=10, replications=v),
        "replications",
        False,
    ),
    (
        "simulate_policy first",
        lambda v: simulate_policy(SMALL_MDP, "local", completions=10, replications=1, first=v),
        "first",
        False,
    ),
    (
        "simulate_policy seed",
        lambda v: simulate_policy(SMALL_MDP, "local", completions=10, replications=1, seed=v),
        "seed",
        False,
    ),
    # ---------------------------------------------------------------- bandwidth
    ("Setup clusters", lambda v: Setup(clusters=v), "clusters", False),
    ("Setup nodes", lambda v: Setup(nodes=v), "nodes", False),
    ("Setup jobs_per_cluster", lambda v: Setup(jobs_per_cluster=v), "jobs_per_cluster", False),
    ("Setup min_nodes", lambda v: Setup(min_nodes=v), "min_nodes", False),
    ("Setup max_nodes", lambda v: Setup(max_nodes=v), "max_nodes", False),
    ("Setup.scaled jobs_per_cluster", lambda v: SECTION6.scaled(v), "jobs_per_cluster", False),
    ("workload seed", lambda v: workload(SETUP, seed=v), "seed", False),
    ("run_point seed", lambda v: run_point("no_share", SETUP, seed=v), "seed", False),
    ("ppbw_from_bsbw total_nodes", lambda v: ppbw_from_bsbw(500.0, v), "total_nodes", False),
    ("link_demand local_nodes", lambda v: link_demand(v, 10, 1.0), "local_nodes", False),
    ("link_demand total_nodes", lambda v: link_demand(1, v, 1.0), "total_nodes", False),
    # ---------------------------------------------------------------- workloads
    ("swf_frame n", lambda v: swf_frame(v), "n", True),
    ("split_wide_jobs max_procs", lambda v: split_wide_jobs(SWF, v), "max_procs", False),
    (
        "system_loading total_processors",
        lambda v: system_loading(SWF, v),
        "total_processors",
        False,
    ),
    (
        "scale_to_loading total_processors",
        lambda v: scale_to_loading(SWF, v, 0.5),
        "total_processors",
        False,
    ),
    ("speed_vectors nodes", lambda v: speed_vectors([4, v], 0.1, 2), r"nodes\[1\]", False),
    ("speed_vectors n_vectors", lambda v: speed_vectors([4, 3], 0.1, v), "n_vectors", False),
    ("speed_vectors seed", lambda v: speed_vectors([4, 3], 0.1, 2, v), "seed", False),
    (
        "speed_vectors max_tries",
        lambda v: speed_vectors([4, 3], 0.1, 2, max_tries=v),
        "max_tries",
        False,
    ),
    ("estimate_inaccuracy seed", lambda v: estimate_inaccuracy(SWF, 2.0, seed=v), "seed", False),
    ("lublin99 n_jobs", lambda v: lublin99(v), "n_jobs", False),
    ("lublin99 machine_size", lambda v: lublin99(10, v), "machine_size", False),
    ("lublin99 seed", lambda v: lublin99(10, 128, v), "seed", False),
    (
        "lublin99 scaled_parameters machine_size",
        lambda v: scaled_parameters(v),
        "machine_size",
        False,
    ),
    ("feitelson96 n_jobs", lambda v: feitelson96(v), "n_jobs", False),
    ("feitelson96 machine_size", lambda v: feitelson96(10, v), "machine_size", False),
    ("feitelson96 seed", lambda v: feitelson96(10, 128, v), "seed", False),
    (
        "Feitelson96Params.size_weights machine_size",
        lambda v: Feitelson96Params().size_weights(v),
        "machine_size",
        False,
    ),
    (
        "Feitelson96Params.mean_work machine_size",
        lambda v: Feitelson96Params().mean_work(v),
        "machine_size",
        False,
    ),
    (
        "Feitelson96Params run_length_max",
        lambda v: Feitelson96Params(run_length_max=v),
        "run_length_max",
        False,
    ),
    (
        "feitelson96 offered_load machine_size",
        lambda v: offered_load(SWF, v),
        "machine_size",
        False,
    ),
    ("jann97 n_jobs", lambda v: jann97(v, params=_jann_params()), "n_jobs", False),
    ("jann97 machine_size", lambda v: jann97(10, v, params=_jann_params()), "machine_size", False),
    ("jann97 seed", lambda v: jann97(10, 322, v, params=_jann_params()), "seed", False),
    (
        "Jann97Params machine_size",
        lambda v: Jann97Params(
            interarrival=_jann_params().interarrival, runtime=_jann_params().runtime, machine_size=v
        ),
        "machine_size",
        False,
    ),
    ("HyperErlang order", lambda v: HyperErlang(0.5, 1.0, 2.0, v), "order", False),
    (
        "HyperErlang.sample size",
        lambda v: HyperErlang(0.5, 1.0, 2.0, 1).sample(_rng(), v),
        "size",
        False,
    ),
    ("HyperErlang.raw_moment k", lambda v: HyperErlang(0.5, 1.0, 2.0, 1).raw_moment(v), "k", False),
    (
        "fit_hyper_erlang order",
        lambda v: fit_hyper_erlang((1.0, 3.0, 15.0), order=v),
        "order",
        True,
    ),
    (
        "fit_hyper_erlang max_order",
        lambda v: fit_hyper_erlang((1.0, 3.0, 15.0), max_order=v),
        "max_order",
        False,
    ),
    ("fit_jann97 max_procs", lambda v: fit_jann97(SWF, max_procs=v), "max_procs", False),
    ("fit_jann97 min_jobs", lambda v: fit_jann97(SWF, min_jobs=v), "min_jobs", False),
    # ---------------------------------------------------------------- papers: Filippopoulos
    ("fk model truncation", lambda v: fk.model(v), "truncation", False),
    (
        "fk policy_comparison truncation",
        lambda v: fk.policy_comparison("Fig. 2", v),
        "truncation",
        False,
    ),
    (
        "fk truncation_study truncations",
        lambda v: fk.truncation_study("Fig. 2", [v], progress=False),
        r"truncations\[0\]",
        False,
    ),
    (
        "fk stopping_study iterations",
        lambda v: fk.stopping_study("Fig. 2", [v]),
        r"iterations\[0\]",
        False,
    ),
    (
        "fk stopping_study truncation",
        lambda v: fk.stopping_study("Fig. 2", (300,), v),
        "truncation",
        False,
    ),
    (
        "fk beyond_window truncations",
        lambda v: fk.beyond_window("Fig. 2", [v]),
        r"truncations\[0\]",
        False,
    ),
    (
        "fk coallocation_extent truncation",
        lambda v: fk.coallocation_extent([], v),
        "truncation",
        False,
    ),
    (
        "fk coallocation_extent window",
        lambda v: fk.coallocation_extent([], 30, (v, 15)),
        r"window\[0\]",
        False,
    ),
    (
        "fk coallocation_threshold truncation",
        lambda v: fk.coallocation_threshold(truncation=v),
        "truncation",
        False,
    ),
    (
        "fk complexity_rows truncation",
        lambda v: fk.complexity_rows(pd.DataFrame(), v),
        "truncation",
        False,
    ),
    ("fk policy_claims truncation", lambda v: fk.policy_claims(v), "truncation", False),
    ("fk policy_claims larger", lambda v: fk.policy_claims(30, v), "larger", False),
    ("fk policy_rows truncation", lambda v: fk.policy_rows("Fig. 2", v), "truncation", False),
    ("fk exact_check truncation", lambda v: fk.exact_check(pd.DataFrame(), v), "truncation", False),
    (
        "fk policy_cost completions",
        lambda v: fk.policy_cost(
            {}, "local", completions=v, replications=2, seed=0, truncation=30, truncated=True
        ),
        "completions",
        False,
    ),
    (
        "fk policy_costs completions",
        lambda v: fk.policy_costs([{}], "x", completions=v, replications=2, progress=False),
        "completions",
        False,
    ),
    (
        "fk policy_costs replications",
        lambda v: fk.policy_costs([{}], "x", completions=10, replications=v, progress=False),
        "replications",
        False,
    ),
    (
        "fk policy_costs seed",
        lambda v: fk.policy_costs(
            [{}], "x", completions=10, replications=2, seed=v, progress=False
        ),
        "seed",
        False,
    ),
    (
        "fk policy_costs truncation",
        lambda v: fk.policy_costs(
            [{}], "x", completions=10, replications=2, truncation=v, progress=False
        ),
        "truncation",
        False,
    ),
    (
        "fk ensemble_points replicates",
        lambda v: fk.ensemble_points(replicates=v),
        "replicates",
        False,
    ),
    (
        "fk ensemble_points completions",
        lambda v: fk.ensemble_points(completions=v),
        "completions",
        False,
    ),
    (
        "fk ensemble_point completions",
        lambda v: fk.ensemble_point(**FK_POINT, completions=v, truncation=30, replicate=0),
        "completions",
        False,
    ),
    (
        "fk ensemble_point truncation",
        lambda v: fk.ensemble_point(**FK_POINT, completions=100, truncation=v, replicate=0),
        "truncation",
        False,
    ),
    (
        "fk ensemble_point replicate",
        lambda v: fk.ensemble_point(**FK_POINT, completions=100, truncation=30, replicate=v),
        "replicate",
        False,
    ),
    # ---------------------------------------------------------------- papers: across
    (
        "across decision_runs completions",
        lambda v: decision_runs((), completions=v),
        "completions",
        False,
    ),
    (
        "across decision_runs replications",
        lambda v: decision_runs((), replications=v),
        "replications",
        False,
    ),
    (
        "across decision_runs truncation",
        lambda v: decision_runs((), truncation=v),
        "truncation",
        False,
    ),
    ("across decision_runs seed", lambda v: decision_runs((), seed=v), "seed", False),
    ("across ensemble_points replicates", lambda v: across.ensemble_points(v), "replicates", False),
    (
        "across ensemble_point replicate",
        lambda v: across.ensemble_point(**CHEAP_ACROSS, replicate=v),
        "replicate",
        False,
    ),
    (
        "across ground_point replicate",
        lambda v: across.ground_point("Lublin99", "low", 0.1, v, n_jobs=50),
        "replicate",
        False,
    ),
    (
        "across ground_point n_jobs",
        lambda v: across.ground_point("Lublin99", "low", 0.1, 0, n_jobs=v),
        "n_jobs",
        True,
    ),
    (
        "across ground_runs replicates",
        lambda v: across.ground_runs((), replicates=v),
        "replicates",
        False,
    ),
    ("across ground_runs n_jobs", lambda v: across.ground_runs((), n_jobs=v), "n_jobs", True),
    (
        "across ground_clusters replicate",
        lambda v: across.ground_clusters(0.1, v),
        "replicate",
        False,
    ),
    (
        "across ground_jobs replicate",
        lambda v: across.ground_jobs("Lublin99", "low", v),
        "replicate",
        False,
    ),
    (
        "across ground_jobs n_jobs",
        lambda v: across.ground_jobs("Lublin99", "low", 0, v),
        "n_jobs",
        True,
    ),
    (
        "across run_method seed",
        lambda v: across.run_method("First Fit", JOBS, [Cluster("a", 4)], seed=v),
        "seed",
        False,
    ),
    # ---------------------------------------------------------------- papers: He
    ("he SimSettings n_jobs", lambda v: he2006.SimSettings(n_jobs=v), "n_jobs", False),
    ("he SimSettings warmup", lambda v: he2006.SimSettings(warmup=v), "warmup", False),
    ("he SimSettings cooldown", lambda v: he2006.SimSettings(cooldown=v), "cooldown", False),
    ("he SimSettings seeds", lambda v: he2006.SimSettings(seeds=v), "seeds", False),
    ("he SimSettings.scaled n_jobs", lambda v: he2006.SimSettings.scaled(v, 3), "n_jobs", False),
    (
        "he simulate_point n_jobs",
        lambda v: he2006.simulate_point(SYSTEM, 0.3, "ORT-RR", 0, v, 0, 0),
        "n_jobs",
        False,
    ),
    (
        "he simulate_point seed",
        lambda v: he2006.simulate_point(SYSTEM, 0.3, "ORT-RR", v, 200, 0, 0),
        "seed",
        False,
    ),
    (
        "he summarise_seeds seeds",
        lambda v: he2006.summarise_seeds(pd.DataFrame(), [], v),
        "seeds",
        False,
    ),
    (
        "he ensemble_points replicates",
        lambda v: he2006.ensemble_points(he2006.SimSettings(), v),
        "replicates",
        False,
    ),
    (
        "he ensemble_point n_jobs",
        lambda v: he2006.ensemble_point(**{**HE, "n_jobs": v}),
        "n_jobs",
        False,
    ),
    (
        "he ensemble_point warmup",
        lambda v: he2006.ensemble_point(**{**HE, "warmup": v}),
        "warmup",
        False,
    ),
    (
        "he ensemble_point cooldown",
        lambda v: he2006.ensemble_point(**{**HE, "cooldown": v}),
        "cooldown",
        False,
    ),
    (
        "he ensemble_point replicate",
        lambda v: he2006.ensemble_point(**{**HE, "replicate": v}),
        "replicate",
        False,
    ),
    # ---------------------------------------------------------------- papers: Huang
    (
        "huang simulate_run seed",
        lambda v: huang2006.simulate_run(HUANG_LOG, huang2006.GRID, "fcfs", seed=v),
        "seed",
        False,
    ),
    (
        "huang allocation_runs seeds",
        lambda v: huang2006.allocation_runs(HUANG_LOG, seeds=[v], progress=False),
        r"seeds\[0\]",
        False,
    ),
    (
        "huang allocation_by_slowdown seeds",
        lambda v: huang2006.allocation_by_slowdown(HUANG_LOG, seeds=[v], progress=False),
        r"seeds\[0\]",
        False,
    ),
    (
        "huang ensemble_point replicate",
        lambda v: huang2006.ensemble_point(HUANG_LOG, "load", 1.0, v),
        "replicate",
        False,
    ),
    ("huang load_rows n_jobs", lambda v: huang2006.load_rows(None, HUANG_LOG, v), "n_jobs", True),
    (
        "huang slowdown_rows n_jobs",
        lambda v: huang2006.slowdown_rows(None, HUANG_LOG, v),
        "n_jobs",
        True,
    ),
    (
        "huang table_rows n_jobs",
        lambda v: huang2006.table_rows("T", None, None, "x", HUANG_LOG, n_jobs=v),
        "n_jobs",
        True,
    ),
    (
        "huang typical_ratios n_jobs",
        lambda v: huang2006.typical_ratios(None, None, v),
        "n_jobs",
        True,
    ),
    # ---------------------------------------------------------------- papers: Jones
    ("jones penalty_point seed", lambda v: jones2005.penalty_point(SETUP, 500.0, v), "seed", False),
    (
        "jones penalty_curves clusters",
        lambda v: jones2005.penalty_curves(v, [500.0], progress=False),
        "clusters",
        False,
    ),
    (
        "jones penalty_curves seed",
        lambda v: jones2005.penalty_curves(4, [500.0], seed=v, progress=False),
        "seed",
        False,
    ),
    ("jones limits clusters", lambda v: jones2005.limits([v], progress=False), "clusters", False),
    ("jones limits seed", lambda v: jones2005.limits([4], seed=v, progress=False), "seed", False),
    (
        "jones break_even_point seed",
        lambda v: jones2005.break_even_point(SETUP, "no_share", v, (0.0, 3000.0), (1.0, 2.0), 8),
        "seed",
        False,
    ),
    (
        "jones break_even_point iterations",
        lambda v: jones2005.break_even_point(SETUP, "no_share", 0, (0.0, 3000.0), (1.0, 2.0), v),
        "iterations",
        False,
    ),
    (
        "jones break_even clusters",
        lambda v: jones2005.break_even(v, progress=False),
        "clusters",
        False,
    ),
    (
        "jones break_even seeds",
        lambda v: jones2005.break_even(4, seeds=[v], progress=False),
        r"seeds\[0\]",
        False,
    ),
    (
        "jones break_even iterations",
        lambda v: jones2005.break_even(4, iterations=v, progress=False),
        "iterations",
        False,
    ),
    ("jones baselines seed", lambda v: jones2005.baselines(seed=v, progress=False), "seed", False),
    (
        "jones surface_grid seed",
        lambda v: jones2005.surface_grid(seed=v, progress=False),
        "seed",
        False,
    ),
    ("jones fig13 seed", lambda v: jones2005.fig13(seed=v, progress=False), "seed", False),
    ("jones decision_states n", lambda v: jones2005.decision_states(v), "n", False),
    ("jones decision_states seed", lambda v: jones2005.decision_states(10, seed=v), "seed", False),
    ("jones decision_times n", lambda v: jones2005.decision_times(v), "n", False),
    (
        "jones decision_times repeat",
        lambda v: jones2005.decision_times(10, repeat=v),
        "repeat",
        False,
    ),
    ("jones decision_times seed", lambda v: jones2005.decision_times(10, seed=v), "seed", False),
    (
        "jones ensemble_point jobs_per_cluster",
        lambda v: jones2005.ensemble_point(
            "baseline",
            "no_share",
            v,
            0,
            selection="first_available",
            bsbw=500.0,
            lslt=1.0,
            chunk=0.8,
        ),
        "jobs_per_cluster",
        False,
    ),
    (
        "jones ensemble_point replicate",
        lambda v: jones2005.ensemble_point(
            "baseline",
            "no_share",
            50,
            v,
            selection="first_available",
            bsbw=500.0,
            lslt=1.0,
            chunk=0.8,
        ),
        "replicate",
        False,
    ),
    (
        "jones section4_point jobs_per_cluster",
        lambda v: section4_point("section4 limit", "no_share", v, 2, 0),
        "jobs_per_cluster",
        False,
    ),
    (
        "jones section4_point clusters",
        lambda v: section4_point("section4 limit", "no_share", 50, v, 0),
        "clusters",
        False,
    ),
    (
        "jones section4_point replicate",
        lambda v: section4_point("section4 limit", "no_share", 50, 2, v),
        "replicate",
        False,
    ),
    (
        "jones strategy_point seed",
        lambda v: jones2005.strategy_point(
            "no_share",
            SETUP,
            bsbw=500.0,
            lslt=1.0,
            chunk=0.8,
            fixed_penalty=None,
            selection="first_available",
            seed=v,
        ),
        "seed",
        False,
    ),
    # ---------------------------------------------------------------- papers: Shih
    (
        "shih configuration_point vector",
        lambda v: shih2013.configuration_point(
            "D1", "low", 0.1, v, "FF", n_vectors=2, n_jobs=100, tla=None, seed=0
        ),
        "vector",
        False,
    ),
    (
        "shih configuration_point n_vectors",
        lambda v: shih2013.configuration_point(
            "D1", "low", 0.1, 0, "FF", n_vectors=v, n_jobs=100, tla=None, seed=0
        ),
        "n_vectors",
        False,
    ),
    (
        "shih configuration_point n_jobs",
        lambda v: shih2013.configuration_point(
            "D1", "low", 0.1, 0, "FF", n_vectors=2, n_jobs=v, tla=None, seed=0
        ),
        "n_jobs",
        True,
    ),
    (
        "shih configuration_point seed",
        lambda v: shih2013.configuration_point(
            "D1", "low", 0.1, 0, "FF", n_vectors=2, n_jobs=100, tla=None, seed=v
        ),
        "seed",
        False,
    ),
    (
        "shih run_configurations n_vectors",
        lambda v: shih2013.run_configurations([], [], [], n_vectors=v),
        "n_vectors",
        False,
    ),
    (
        "shih run_configurations n_jobs",
        lambda v: shih2013.run_configurations(["D1"], [], [], n_jobs=v),
        "n_jobs",
        True,
    ),
    (
        "shih run_configurations seed",
        lambda v: shih2013.run_configurations([], [], [], seed=v),
        "seed",
        False,
    ),
    (
        "shih vector_spread n_vectors",
        lambda v: shih2013.vector_spread("D1", "low", 0.1, n_vectors=v),
        "n_vectors",
        False,
    ),
    (
        "shih vector_spread n_jobs",
        lambda v: shih2013.vector_spread("D1", "low", 0.1, n_jobs=v),
        "n_jobs",
        True,
    ),
    (
        "shih vector_spread seed",
        lambda v: shih2013.vector_spread("D1", "low", 0.1, seed=v),
        "seed",
        False,
    ),
    (
        "shih study_point n_jobs",
        lambda v: shih2013.study_point("D1", "low", "FF", n_jobs=v, seed=0),
        "n_jobs",
        True,
    ),
    (
        "shih study_point seed",
        lambda v: shih2013.study_point("D1", "low", "FF", n_jobs=100, seed=v),
        "seed",
        False,
    ),
    ("shih depth_study depths", lambda v: shih2013.depth_study("D1", "low", [v]), "depth", True),
    (
        "shih depth_study n_jobs",
        lambda v: shih2013.depth_study("D1", "low", [1], n_jobs=v),
        "n_jobs",
        True,
    ),
    (
        "shih inaccuracy_study n_jobs",
        lambda v: shih2013.inaccuracy_study("D1", "low", n_jobs=v),
        "n_jobs",
        True,
    ),
    (
        "shih inaccuracy_study seed",
        lambda v: shih2013.inaccuracy_study("D1", "low", seed=v),
        "seed",
        False,
    ),
    (
        "shih tla_knob_study depths",
        lambda v: shih2013.tla_knob_study("D1", "low", depths=[v]),
        "depth",
        True,
    ),
    (
        "shih tla_knob_study allocation_depths",
        lambda v: shih2013.tla_knob_study("D1", "low", allocation_depths=[v]),
        "allocation_depth",
        False,
    ),
    (
        "shih tla_knob_study n_jobs",
        lambda v: shih2013.tla_knob_study("D1", "low", n_jobs=v),
        "n_jobs",
        True,
    ),
    ("shih decision_seconds q", lambda v: shih2013.decision_seconds(v, 10, 5), "q", False),
    ("shih decision_seconds r", lambda v: shih2013.decision_seconds(10, v, 5), "r", False),
    ("shih decision_seconds m", lambda v: shih2013.decision_seconds(10, 10, v), "m", False),
    (
        "shih decision_seconds repeat",
        lambda v: shih2013.decision_seconds(10, 10, 5, repeat=v),
        "repeat",
        False,
    ),
    (
        "shih decision_seconds seed",
        lambda v: shih2013.decision_seconds(10, 10, 5, seed=v),
        "seed",
        False,
    ),
    ("shih scoring_times qs", lambda v: shih2013.scoring_times(qs=[v]), r"qs\[0\]", False),
    ("shih scoring_times rs", lambda v: shih2013.scoring_times(rs=[v]), r"rs\[0\]", False),
    ("shih scoring_times m", lambda v: shih2013.scoring_times(m=v), "m", False),
    (
        "shih workload_jobs n_jobs",
        lambda v: shih2013.workload_jobs("D1", n_jobs=v),
        "n_jobs",
        False,
    ),
    ("shih workload_jobs seed", lambda v: shih2013.workload_jobs("A1", seed=v), "seed", False),
    ("shih table3 n_jobs", lambda v: shih2013.table3(n_jobs=v), "n_jobs", False),
    ("shih table3 seed", lambda v: shih2013.table3(seed=v), "seed", False),
    (
        "shih scaled_jobs n_jobs",
        lambda v: shih2013.scaled_jobs("D1", 0.5, n_jobs=v),
        "n_jobs",
        True,
    ),
    ("shih scaled_jobs seed", lambda v: shih2013.scaled_jobs("D1", 0.5, seed=v), "seed", False),
    (
        "shih replicate_jobs replicate",
        lambda v: shih2013.replicate_jobs("D1", "low", v),
        "replicate",
        False,
    ),
    (
        "shih table4_point replicate",
        lambda v: shih2013.table4_point("D1", "low", 0.1, v),
        "replicate",
        False,
    ),
    (
        "shih ensemble_point replicate",
        lambda v: shih2013.ensemble_point("table4", "D1", "low", 0.1, v),
        "replicate",
        False,
    ),
    (
        "shih section5_point replicate",
        lambda v: shih2013.section5_point("fig10", "A1", "high", v),
        "replicate",
        False,
    ),
    (
        "shih section5_point depth",
        lambda v: shih2013.section5_point("fig10", "A1", "high", 0, depth=v),
        "depth",
        False,
    ),
    (
        "shih section5_point allocation_depth",
        lambda v: shih2013.section5_point("fig13", "A2", "high", 0, allocation_depth=v),
        "allocation_depth",
        False,
    ),
    # ---------------------------------------------------------------- papers: shared
    ("runtime_scale replicate", lambda v: runtime_scale(v), "replicate", False),
    (
        "with_replicates replicates",
        lambda v: with_replicates(CLAIM_ROW, v, "cost"),
        "replicates",
        False,
    ),
    ("verify_store seed", lambda v: verify_store("he2006", seed=v, progress=False), "seed", False),
    # ---------------------------------------------------------------- explorers
    (
        "bandwidth_explorer jobs_per_cluster",
        lambda v: bandwidth_explorer(v),
        "jobs_per_cluster",
        False,
    ),
    (
        "bandwidth_explorer clusters",
        lambda v: bandwidth_explorer(100, clusters=v),
        "clusters",
        False,
    ),
    ("mdp_explorer truncation", lambda v: mdp_explorer(truncation=v), "truncation", False),
    ("mdp_explorer x1", lambda v: mdp_explorer(x1=v), "x1", False),
    ("tla_run_explorer n_jobs", lambda v: tla_run_explorer(n_jobs=v), "n_jobs", False),
    (
        "link_saturation_explorer jobs",
        lambda v: link_saturation_explorer(((v, 2, 1),)),
        r"jobs\[0\]\[0\]",
        False,
    ),
]


def _bad_cases():
    for name, call, param, none_valid in CASES:
        for label, value in BAD.items():
            if value is None and none_valid:
                continue
            yield pytest.param(call, param, value, id=f"{name}={label}")


@pytest.fixture
def deadline():
    """A hang fails the test: SIGALRM stops Python code after TIMEOUT seconds (and again
    every second, should a sweep catch it as one point's failure and go on), and a
    compiled loop (which never returns to Python) ends the process a bit later."""

    def expired(*_):
        signal.alarm(1)
        raise TimeoutError(f"no answer within {TIMEOUT} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(TIMEOUT)
    faulthandler.dump_traceback_later(2 * TIMEOUT, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(("call", "param", "value"), list(_bad_cases()))
def test_a_bad_count_or_seed_is_refused_at_once_naming_it(call, param, value, deadline):
    started = time.perf_counter()
    with pytest.raises(InvalidParameter, match=rf"(?<!\w){param}(?!\w)") as caught:
        call(value)
    assert time.perf_counter() - started < TIMEOUT
    message = str(caught.value)
    assert "Traceback" not in message and len(message) < 2000


def test_every_case_names_a_distinct_function_and_parameter():
    names = [name for name, *_ in CASES]
    assert len(names) == len(set(names))


# ------------------------------------------------------------------ the bounds themselves


def test_the_bounds_are_the_documented_numbers():
    assert bounds.MAX_SEED == 2**63 - 1 == np.iinfo(np.int64).max
    assert bounds.MAX_JOBS == 10**8 and bounds.MAX_REPLICATES == 10**6
    assert bounds.MAX_COMPLETIONS == 10**10 and bounds.MAX_TOTAL_COMPLETIONS == 10**12
    assert bounds.MAX_PROCS == 2**53 and bounds.MAX_CLUSTERS == 10**6
    assert bounds.MAX_ITERATIONS == 10**6


def test_the_largest_seed_is_numpys_and_int64s():
    a = simulate_dispatch(SYSTEM, [0.5, 0.5], "random", STREAM, seed=2**63 - 1, **RUN)
    b = simulate_dispatch(
        SYSTEM, [0.5, 0.5], "random", STREAM, seed=np.random.default_rng(2**63 - 1), **RUN
    )
    assert a == b
    assert np.array([bounds.MAX_SEED], np.int64)[0] == bounds.MAX_SEED


def test_the_paper_and_notebook_sizes_lie_within_the_bounds():
    """``reproduce --full`` and the notebooks' quick defaults pass these counts."""
    shih, jones = FULL_SCALE["shih2013"], FULL_SCALE["jones2005"]
    sizes = [n for n in shih["n_jobs"].values() if n is not None]
    assert check_ints("n_jobs", sizes, minimum=1, maximum=bounds.MAX_JOBS) == sizes
    assert shih["n_vectors"] <= bounds.MAX_REPLICATES
    he = FULL_SCALE["he2006"]
    settings = he2006.SimSettings.scaled(he["n_jobs"], he["seeds"])
    assert settings == he2006.SimSettings.paper()
    largest = SECTION4.scaled(jones["section4_jobs"])  # 4,000,000 jobs per cluster
    assert Setup(clusters=8, jobs_per_cluster=largest.jobs_per_cluster).clusters == 8
    assert SECTION6.scaled(jones["section6_jobs"]).jobs_per_cluster == 400_000
    fkf = FULL_SCALE["filippopoulos"]
    assert fkf["completions"] <= bounds.MAX_COMPLETIONS
    assert fkf["completions"] * fkf["replications"] <= bounds.MAX_TOTAL_COMPLETIONS
    assert FULL_SCALE["across"]["n_jobs"] <= bounds.MAX_JOBS


# ------------------------------------------------------------------ valid calls: the bound
# admits real use (paper-scale counts where the call stays cheap)


def test_simulate_policy_runs_at_its_bounds_edges_and_refuses_the_product():
    runs = simulate_policy(
        SMALL_MDP,
        "local",
        completions=1_000,
        replications=2,
        first=bounds.MAX_REPLICATES - 1,
        seed=bounds.MAX_SEED,
    )
    assert list(runs["replication"]) == [bounds.MAX_REPLICATES - 1, bounds.MAX_REPLICATES]
    assert np.isfinite(runs["average_cost"]).all()
    with pytest.raises(InvalidParameter, match="completions x replications"):
        simulate_policy(SMALL_MDP, "local", completions=10**10, replications=101)


def test_the_mdp_solvers_and_tables_take_their_counts():
    assert value_iteration(SMALL_MDP, max_iter=bounds.MAX_ITERATIONS).converged
    assert policy_iteration(SMALL_MDP, max_iter=1000.0).converged
    assert modified_policy_iteration(SMALL_MDP, max_iter=10_000, cycles=4).converged
    assert _solution().policy_table(1, 5, 5).shape == (5, 6)
    assert CoallocationMDP(0.8, 0.8, 0.6, truncation=30.0).truncation == 30


def test_the_multicluster_and_queueing_functions_take_their_counts():
    assert simulate(JOBS, [Cluster("a", 4)], seed=bounds.MAX_SEED).metrics["jobs"] == 2
    assert len(dispatch(JOBS, [Cluster("a", 4)], [1.0], seed=bounds.MAX_SEED)) == 2
    assert TLAOptions(depth=640, allocation_depth=16).depth == 640
    assert set(tla_scores([Cluster("a", 4)], [], [WaitingJob(1, 0.0, 1.0)], depth=1)) == {"a"}
    assert Network(500.0).link_capacities(8).shape == (8,)
    assert erlang_b(100, 50.0) < erlang_c(100, 50.0) < 1
    assert mean_response_time(4, 1.0, 0.5) > mean_waiting_time(4, 1.0, 0.5)
    assert 0 < waiting_time_cdf(4, 1.0, 0.5, 1.0) <= 1
    assert ort_allocation([2, 3], [1.0, 1.0], 0.5).sum() == pytest.approx(1.0)
    assert algorithm1(0, [2, 3], [1.0, 1.0], 1.0, max_outer=10_000).converged
    run = simulate_dispatch(
        SYSTEM,
        [0.5, 0.5],
        "random",
        STREAM,
        n_jobs=500_000,
        warmup=100_000,
        cooldown=100_000,
        seed=4,
    )
    assert run.jobs == 300_000  # He 2006, Section 5.1's stream
    assert len(replicate(SYSTEM, [0.5, 0.5], "random", STREAM, seeds=range(3), **RUN)) == 3
    rng = _rng()
    assert STREAM.interarrivals(rng, 5).shape == STREAM.job_sizes(rng, 5).shape == (5,)
    assert UniformSlack(0.0, 30.0).sample(rng, 3).shape == (3,)
    assert SpikeSlack((1.0,), (1.0,)).sample(rng, 3).shape == (3,)


def test_the_bandwidth_experiment_takes_its_counts():
    assert Setup(clusters=8, jobs_per_cluster=4_000_000, max_nodes=90).clusters == 8
    assert len(workload(SETUP, seed=bounds.MAX_SEED)) == 200
    assert run_point("no_share", SETUP, seed=3)["jobs"] == 200
    assert ppbw_from_bsbw(500.0, 40) > 0 and link_demand(10, 40, 1.0) > 0


def test_the_workload_functions_take_their_counts():
    assert len(swf_frame(3)) == 3
    assert split_wide_jobs(SWF, 8192)["procs"].tolist() == [20, 1]
    assert system_loading(SWF, 442) > 0
    assert system_loading(scale_to_loading(SWF, 442, 0.5), 442) == pytest.approx(0.5)
    assert speed_vectors([128, 128, 64, 64, 58], 0.2, 10, bounds.MAX_SEED).shape == (10, 5)
    assert len(estimate_inaccuracy(SWF, 2.0, seed=bounds.MAX_SEED)) == 2
    assert len(lublin99(1000, 128, bounds.MAX_SEED)) == 1000
    assert len(scaled_parameters(322)) == 2
    assert len(feitelson96(1000, 128, bounds.MAX_SEED)) == 1000
    assert len(feitelson96(100, 128, [1, 2])) == 100
    assert Feitelson96Params().size_weights(128).shape == (128,)
    assert Feitelson96Params().mean_work(128) > 0 and offered_load(SWF, 128) > 0
    assert len(jann97(1000, 322, bounds.MAX_SEED, params=_jann_params())) == 1000
    he = HyperErlang(0.5, 1.0, 2.0, 3)
    assert he.sample(_rng(), 10).shape == (10,) and he.raw_moment(3) > 0
    assert fit_hyper_erlang((1.0, 3.0, 15.0), max_order=30).order >= 1


def test_fit_jann97_takes_its_counts_on_a_log():
    rng = np.random.default_rng(1)
    submit = np.cumsum(rng.exponential(100.0, 2000))
    log = swf_frame(
        submit=submit, runtime=rng.exponential(500.0, 2000) + 1, procs=rng.integers(1, 9, 2000)
    )
    params = fit_jann97(log, ranges=((1, 4), (5, 8)), max_procs=322, period=None, min_jobs=3)
    assert len(params.ranges) == 2


def test_the_filippopoulos_builders_take_the_papers_counts():
    assert fk.model(30.0).truncation == 30
    empty = fk.policy_costs([], "x", completions=2_000_000, replications=60, progress=False)
    assert empty.empty  # the paper's 60 runs of 2,000,000 completions are admitted
    cost = fk.policy_cost(
        {},
        "local",
        completions=2_000,
        replications=2,
        seed=bounds.MAX_SEED,
        truncation=30,
        truncated=True,
    )
    assert np.isfinite(cost["average_cost"])
    points = fk.ensemble_points(replicates=60, completions=2_000_000)
    assert {p.get("completions") for p in points if "study" not in p} == {2_000_000}
    items = fk.ensemble_point(**FK_POINT, completions=2_000, truncation=30, replicate=59)
    assert len(items) == 3
    assert len(fk.stopping_study("Fig. 2", (300,), 30)) == 2
    assert fk.coallocation_extent([{"rho": 0.8}], 30, (15, 15)).shape[0] == 1


def test_the_across_builders_take_their_counts():
    assert decision_runs((), completions=2_000_000, replications=60).empty
    assert len(across.ensemble_points(10)) == 660
    assert across.ground_runs((), replicates=10, n_jobs=100_000).empty
    assert len(across.ground_clusters(0.1, 9)) == 5
    assert len(across.ground_jobs("Lublin99", "low", 9, 100_000)) == 50_000  # all of them
    out = across.run_method("First Fit", JOBS, [Cluster("a", 4)], seed=bounds.MAX_SEED)
    assert out["att"] > 0


def test_the_he_builders_take_the_papers_counts():
    paper = he2006.SimSettings(500_000, 100_000, 100_000, 5)
    assert paper == he2006.SimSettings.paper() == he2006.SimSettings(500_000.0, 1e5, 1e5, 5.0)
    assert len(he2006.ensemble_points(paper, 20)) == 20 * len(he2006.ensemble_points(paper, 1))
    point = {**HE, "n_jobs": 2_000, "warmup": 400, "cooldown": 400, "replicate": 19}
    assert len(he2006.ensemble_point(**point)) == 2
    run = he2006.simulate_point(SYSTEM, 0.3, "ORT-RR", 4, 2_000, 400, 400)
    assert run["mean_response"] > 0
    with pytest.raises(InvalidParameter, match="warmup \\+ cooldown < n_jobs"):
        he2006.SimSettings(10, 5, 5, 1)


def test_the_huang_functions_take_their_counts():
    metrics = huang2006.simulate_run(HUANG_LOG, huang2006.SINGLE_CLUSTER, "fcfs", seed=19)
    assert metrics["jobs"] > 0
    runs = huang2006.allocation_runs(HUANG_LOG, slowdowns=(), seeds=range(20), progress=False)
    assert runs.empty  # the notebook's 20 random-fit seeds are admitted


def test_the_jones_functions_take_their_counts():
    frees, loads, ps = jones2005.decision_states(100, seed=bounds.MAX_SEED)
    assert frees.shape == loads.shape == (100, 4) and ps.shape == (100,)
    assert len(jones2005.decision_times(100, repeat=1)) == 5
    assert jones2005.break_even(8, seeds=(), iterations=8, progress=False) == []
    assert jones2005.penalty_curves(8, [], progress=False).empty
    point = dict(selection="first_available", bsbw=500.0, lslt=1.0, chunk=0.8)
    assert len(jones2005.ensemble_point("baseline", "no_share", 50, 9, **point)) == 1
    assert len(section4_point("section4 limit", "no_share", 50, 8, 2)) == 1


def test_the_shih_functions_take_their_counts():
    assert shih2013.run_configurations([], [], [], n_vectors=10, n_jobs=50_000).empty
    assert len(shih2013.workload_jobs("D1", n_jobs=5_000, seed=bounds.MAX_SEED)) == 5_000
    assert len(shih2013.scaled_jobs("D1", 0.5, n_jobs=100, seed=3)) == 100
    assert shih2013.decision_seconds(10, 10, 5, repeat=1) > 0
    assert shih2013.scoring_times(qs=(10,), rs=(0,), m=5).shape == (1, 1)
    run = shih2013.configuration_point(
        "D1", "low", 0.1, 9, "FF", n_vectors=10, n_jobs=100, tla=None, seed=0
    )
    assert run["jobs"] == 100
    assert len(shih2013.replicate_jobs("D1", "low", 19)) == 50_000


def test_the_shared_paper_helpers_take_their_counts():
    assert runtime_scale(bounds.MAX_REPLICATES - 1) != 1.0
    assert with_replicates(CLAIM_ROW, 10)["replicates"] == 10


def test_the_explorers_take_their_counts():
    assert bandwidth_explorer(5_000, clusters=4) is not None
    assert mdp_explorer(truncation=30, x1=1) is not None
    assert tla_run_explorer(n_jobs=5_000) is not None
    assert link_saturation_explorer(((3, 2, 1), (4, 4, 0))) is not None
