"""Out of range in disguise (issue 25, class 1): numbers that overflow an integer cast,
bools taken as numbers, inf where a finite value is required, NaN, and values outside a
documented range are an HpcmodelsError whose message names the argument, at every
public entry point; never a wrapped int64, an OverflowError, a hang or a silently wrong
result. Integral floats where a count is documented to accept them keep working."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hpcmodels.bandwidth import (
    Network,
    Residual,
    advance_residuals,
    link_demand,
    ppbw_from_bsbw,
    progress_rate,
    saturation,
    slowdown_factors,
    start_residual,
)
from hpcmodels.bandwidth.experiment import Setup, coallocation_penalty, run_point, workload
from hpcmodels.errors import HpcmodelsError
from hpcmodels.mdp import CoallocationMDP, modified_policy_iteration, solve
from hpcmodels.multicluster import Cluster, TLAOptions, WaitingJob, simulate, tla_scores
from hpcmodels.papers.ensemble import mean_of_k, paired_claim, statistic_of_k, summarize
from hpcmodels.queueing import (
    SpikeSlack,
    algorithm1,
    cluster_response_times,
    omr_allocation,
    ort_allocation,
    waiting_time_cdf,
    weighted_allocation,
)
from hpcmodels.stats import batch_means_ci, t_interval
from hpcmodels.workloads import swf_frame
from hpcmodels.workloads.models.feitelson96 import feitelson96
from hpcmodels.workloads.models.jann97 import raw_moments
from hpcmodels.workloads.models.lublin99 import lublin99
from hpcmodels.workloads.transforms import (
    estimate_inaccuracy,
    queue_to_site,
    scale_runtimes,
    split_wide_jobs,
    system_loading,
)

NAN, INF = float("nan"), float("inf")
CLUSTERS = [Cluster("a", 8), Cluster("b", 4, 2.0)]
SWF = swf_frame(submit=[0.0, 10.0], runtime=[5.0, 3.0], procs=[20, 1])
SWF_Q = swf_frame(submit=[0.0, 10.0], runtime=[5.0, 3.0], procs=[2, 1], queue=[1, 2])
MDP = CoallocationMDP(0.5, 0.5, 0.5, truncation=3)
SMALL = Setup(jobs_per_cluster=5)


def jobs(**columns) -> pd.DataFrame:
    return pd.DataFrame({"submit": [0.0, 1.0], "runtime": [5.0, 3.0], "procs": [2, 1], **columns})


def assert_named(call, name: str) -> HpcmodelsError:
    with pytest.raises(HpcmodelsError) as info:
        call()
    assert name.lower() in str(info.value).lower(), str(info.value)
    return info.value


# ---------------------------------------------------------------- the two examples


def test_a_1e19_processor_job_is_refused_not_run_on_8_processors():
    err = assert_named(lambda: simulate(jobs(procs=[1e19, 1.0]), CLUSTERS), "procs")
    assert "1e+19" in str(err) and "2**53" in str(err)


def test_a_tla_depth_of_2_to_the_70_is_refused_before_the_engine():
    assert_named(lambda: TLAOptions(depth=2**70), "depth")
    assert_named(lambda: TLAOptions(allocation_depth=2**70), "allocation_depth")


def test_tla_depth_accepts_an_integral_float_as_an_int():
    options = TLAOptions(depth=4.0, allocation_depth=np.int64(2))
    assert options.depth == 4 and type(options.depth) is int
    assert options.allocation_depth == 2 and type(options.allocation_depth) is int


# ---------------------------------------------------------------- multicluster

SIMULATE_CASES = [
    (dict(jobs=jobs(procs=[2**63, 1])), "procs"),
    (dict(jobs=jobs(procs=[True, True])), "procs"),
    (dict(jobs=jobs(procs=[1.5, 1.0])), "procs"),
    (dict(jobs=jobs(submit=[True, False])), "submit"),
    (dict(jobs=jobs(runtime=[True, True])), "runtime"),
    (dict(jobs=jobs(estimate=[NAN, 1.0]), selection="easy"), "estimate"),
    (dict(jobs=jobs(origin=[True, False]), allocation="local_first"), "origin"),
    (dict(jobs=jobs(origin=[0.5, 1.0]), allocation="local_first"), "origin"),
    (dict(jobs=jobs(origin=[2**62, 0]), allocation="local_first"), "origin"),
    (dict(slowdown=INF, coallocation="fixed_order"), "slowdown"),
    (dict(slowdown=NAN), "slowdown"),
    (dict(slowdown=True), "slowdown"),
    (dict(slowdown=0.5), "slowdown"),
    (dict(seed=True), "seed"),
    (dict(seed=NAN), "seed"),
    (dict(rate_model=("crowding", [1, INF])), "rate model"),
    (dict(rate_model=("crowding", [1, 0.0])), "rate factor"),
    (dict(rate_model=("crowding", [1, -1.0])), "rate factor"),
    (dict(rate_model=("crowding", [1, 1.5])), "rate factor"),
    (dict(rate_model=("crowding", [True, 0.5])), "rate model"),
    (dict(rate_model=("crowding", [1.5, 0.5])), "threshold"),
    (dict(rate_model=("crowding", [])), "rate_model"),
    (dict(rate_model=("bandwidth", [])), "rate model"),
    (dict(debug=1), "debug"),
    (dict(drop_too_wide="yes"), "drop_too_wide"),
]


@pytest.mark.parametrize(("kw", "name"), SIMULATE_CASES)
def test_simulate_refuses_out_of_range_values(kw, name):
    kw = dict(kw)
    assert_named(lambda: simulate(kw.pop("jobs", jobs()), CLUSTERS, **kw), name)


def test_an_end_time_that_overflows_is_refused():
    slow = [Cluster("slow", 8, 0.5)]  # 1e308 s of work take 2e308 s here
    assert_named(lambda: simulate(jobs(runtime=[1e308, 1.0]), slow), "runtime")


def test_simulate_accepts_integral_float_columns_as_counts():
    as_ints = simulate(jobs(origin=[0, 1]), CLUSTERS, allocation="local_first")
    as_floats = simulate(
        jobs(procs=[2.0, 1.0], origin=[0.0, 1.0]), CLUSTERS, allocation="local_first"
    )
    assert as_floats.metrics == as_ints.metrics


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: TLAOptions(depth=True), "depth"),
        (lambda: TLAOptions(depth=INF), "depth"),
        (lambda: TLAOptions(depth=NAN), "depth"),
        (lambda: TLAOptions(allocation_depth=0), "allocation_depth"),
        (lambda: Cluster("a", 1e19), "procs"),
        (lambda: Cluster("a", True), "procs"),
        (lambda: Cluster("a", 4, INF), "speed"),
        (lambda: Cluster("a", 4, True), "speed"),
        (lambda: tla_scores(CLUSTERS, [], [WaitingJob(1, 0, 1)], INF), "now"),
        (lambda: tla_scores(CLUSTERS, [], [WaitingJob(1, 0, 1)], True), "now"),
        (lambda: tla_scores(CLUSTERS, [], [WaitingJob(1, 0, 1)], depth=2**70), "depth"),
        (lambda: tla_scores(CLUSTERS, [], [WaitingJob(1e19, 0, 1)]), "waiting[0].procs"),
        (lambda: tla_scores(CLUSTERS, [], [WaitingJob(True, 0, 1)]), "waiting[0].procs"),
        (lambda: tla_scores(CLUSTERS, [], [WaitingJob(1, True, 1)]), "waiting[0].submit"),
        (lambda: tla_scores(CLUSTERS, [], [WaitingJob(1, 0, INF)]), "waiting[0].estimate"),
        (lambda: tla_scores(CLUSTERS, [(0, 1e19, 5)], [WaitingJob(1, 0, 1)]), "running[0].procs"),
        (lambda: tla_scores(CLUSTERS, [(True, 1, 5)], [WaitingJob(1, 0, 1)]), "running[0]"),
        (lambda: tla_scores(CLUSTERS, [(0, 1, INF)], [WaitingJob(1, 0, 1)]), "running[0].end"),
    ],
)
def test_multicluster_knobs_refuse_out_of_range_values(call, name):
    assert_named(call, name)


@given(st.integers(min_value=2**53 + 2, max_value=2**80))
def test_any_processor_count_beyond_2_to_the_53_is_refused(procs):
    assert_named(lambda: simulate(jobs(procs=[float(procs), 1.0]), CLUSTERS), "procs")
    assert_named(lambda: Cluster("a", procs), "procs")


@given(st.integers(min_value=2**62 + 1, max_value=2**100) | st.integers(max_value=0))
def test_tla_depths_outside_1_to_2_to_the_62_are_refused(depth):
    assert_named(lambda: TLAOptions(depth=depth), "depth")


@given(st.floats(min_value=1.0, max_value=1e6))
def test_slowdown_at_least_1_is_accepted_and_below_1_refused(slowdown):
    simulate(jobs(), CLUSTERS, coallocation="fixed_order", slowdown=slowdown)
    assert_named(lambda: simulate(jobs(), CLUSTERS, slowdown=1.0 - slowdown / 2e6), "slowdown")


# ---------------------------------------------------------------- bandwidth


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: ppbw_from_bsbw(INF, 4), "bsbw"),
        (lambda: ppbw_from_bsbw(True, 4), "bsbw"),
        (lambda: ppbw_from_bsbw(1.0, 1e300), "total_nodes"),
        (lambda: ppbw_from_bsbw(1.0, True), "total_nodes"),
        (lambda: link_demand(True, 4, 1.0), "local_nodes"),
        (lambda: link_demand(1, 4, INF), "ppbw"),
        (lambda: saturation([[INF]], [1.0]), "demand"),
        (lambda: saturation([[True]], [1.0]), "demand"),
        (lambda: saturation([[1.0]], [True]), "capacity"),
        (lambda: slowdown_factors([[1.0]], [[2.0]]), "allotted"),  # a factor above 1
        (lambda: slowdown_factors([[1.0]], [[INF]]), "allotted"),
        (lambda: progress_rate(1.5, 0.5), "slowdown"),
        (lambda: progress_rate(0.5, True), "compute_fraction"),
        (lambda: Network(bsbw=INF), "bsbw"),
        (lambda: Network(bsbw=True), "bsbw"),
        (lambda: Network(bsbw=1, lslt=NAN), "lslt"),
        (lambda: Network(bsbw=1, chunk=1.5), "chunk"),
        (lambda: Network(bsbw=1, link_mbps=True), "link_mbps"),
        (lambda: Network(bsbw=1, link_mbps=[True, 5.0]), "link_mbps"),
        (lambda: Network(bsbw=1, dynamic=1), "dynamic"),
        (lambda: Network(bsbw=1).link_capacities(-1), "clusters"),
        (lambda: Network(bsbw=1).link_capacities(True), "clusters"),
        (lambda: start_residual(INF, 0.5), "execution_time"),
        (lambda: start_residual(True, 0.5), "execution_time"),
        (lambda: start_residual(1.0, NAN), "compute_fraction"),
        (lambda: advance_residuals(Residual(1, 1), 0.5, True), "sd"),
        (lambda: advance_residuals(Residual(1, 1), True, 0.5), "dt"),
        (lambda: Residual(INF, 1), "tp"),
        (lambda: Residual(1, -1), "tc"),
        (lambda: Residual(1, 1, 1.5), "sd"),  # a slowdown factor above 1
        (lambda: Setup(clusters=2**70), "clusters"),
        (lambda: Setup(link_mbps=True), "link_mbps"),
        (lambda: Setup(mean_runtime=np.float64(INF)), "mean_runtime"),
        (lambda: Setup(compute_fraction=NAN), "compute_fraction"),
        (lambda: workload(SMALL, True), "seed"),
        (lambda: run_point("a1", SMALL, bsbw=INF), "bsbw"),
        (lambda: run_point("no_share", SMALL, bsbw=NAN), "bsbw"),
        (lambda: run_point("b3", SMALL, chunk=2.0), "chunk"),
        (lambda: run_point("fixed_penalty", SMALL, penalty=True), "penalty"),
        (lambda: run_point("no_share", SMALL, debug=2), "debug"),
        (lambda: batch_means_ci(np.arange(100.0), 0), "batches"),
        (lambda: batch_means_ci(np.arange(100.0), 2.5), "batches"),
        (lambda: batch_means_ci([True, False] * 30), "values"),
        (
            lambda: coallocation_penalty(
                pd.DataFrame({"cluster": [-1], "runtime": [1.0], "start": [0.0], "end": [INF]})
            ),
            "result_jobs",
        ),
    ],
)
def test_bandwidth_refuses_out_of_range_values(call, name):
    assert_named(call, name)


def test_setup_and_workload_read_integral_floats_as_ints():
    assert Setup(nodes=100.0).nodes == 100 and type(Setup(nodes=100.0).nodes) is int
    assert workload(SMALL, 3.0) is workload(SMALL, 3)  # one cache entry


@given(st.floats(min_value=1e-6, max_value=1.0), st.floats(0.0, 1.0))
def test_progress_rate_in_range_is_at_most_1_and_a_factor_above_1_is_refused(sd, k):
    assert 0 < progress_rate(sd, k) <= 1.0 + 1e-12
    assert_named(lambda: progress_rate(1.0 + sd, k), "slowdown")
    assert_named(lambda: Residual(1.0, 1.0, 1.0 + sd), "sd")


# ---------------------------------------------------------------- queueing


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: weighted_allocation([1e19, 4], [1.0, 1.0]), "nodes"),
        (lambda: weighted_allocation([True, True], [1.0, 1.0]), "nodes"),
        (lambda: weighted_allocation([1.5, 4], [1.0, 1.0]), "nodes"),
        (lambda: weighted_allocation([4, 4], [True, 1.0]), "rates"),
        (lambda: weighted_allocation([4, 4], [INF, 1.0]), "rates"),
        (lambda: ort_allocation([4, 4], [1.0, 1.0], True), "arrival_rate"),
        (lambda: ort_allocation([4, 4], [1.0, 1.0], INF), "arrival_rate"),
        (lambda: ort_allocation([4, 4], [1.0, 1.0], NAN), "arrival_rate"),
        (lambda: omr_allocation([4, 4], [1.0, 1.0], 1.0, (0.0, INF)), "slack"),
        (lambda: omr_allocation([4, 4], [1.0, 1.0], 1.0, (True, 5.0)), "slack"),
        (lambda: SpikeSlack((True, 5.0), (0.5, 0.5)), "values"),
        (lambda: SpikeSlack((1.0, 5.0), (True, False)), "weights"),
        (lambda: waiting_time_cdf(2, 1.0, 0.5, NAN), "x"),
        (lambda: waiting_time_cdf(2, 1.0, 0.5, [True]), "x"),
        (lambda: cluster_response_times([4, 4], [1.0, 1.0], 1.0, [True, False]), "fractions"),
        (lambda: cluster_response_times([4, 4], [1.0, 1.0], True, [0.5, 0.5]), "arrival_rate"),
        (lambda: algorithm1(7, [4, 4], [1.0, 1.0], 1.0), "objective"),
        (lambda: algorithm1(True, [4, 4], [1.0, 1.0], 1.0), "objective"),
        (lambda: algorithm1(0, [1e19, 4], [1.0, 1.0], 1.0), "nodes"),
        (lambda: algorithm1(0, [0, 4], [1.0, 1.0], 1.0), "nodes"),
        (lambda: algorithm1(0, [4, 4], [NAN, 1.0], 1.0), "rates"),
        (lambda: algorithm1(0, [4, 4], [1.0, 1.0], INF), "lam"),
        (lambda: algorithm1(0, [4, 4], [1.0, 1.0], 100.0), "lam"),
        (lambda: algorithm1(0, [4, 4], [1.0, 1.0], 1.0, v_valve=NAN), "v_valve"),
        (lambda: algorithm1(0, [4, 4], [1.0, 1.0], 1.0, alpha_valve=-1.0), "alpha_valve"),
        (lambda: algorithm1(0, [4, 4], [1.0, 1.0], 1.0, xi=2.0), "xi"),
        (lambda: algorithm1(0, [4, 4], [1.0, 1.0], 1.0, max_outer=True), "max_outer"),
    ],
)
def test_queueing_refuses_out_of_range_values(call, name):
    assert_named(call, name)


def test_waiting_time_cdf_of_inf_is_1():
    assert waiting_time_cdf(2, 1.0, 0.5, INF) == 1.0


@given(st.integers(min_value=10**9 + 1, max_value=2**90))
def test_cluster_sizes_beyond_10_to_the_9_are_refused(nodes):
    assert_named(lambda: weighted_allocation([float(nodes), 4.0], [1.0, 1.0]), "nodes")


# ---------------------------------------------------------------- workloads


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: split_wide_jobs(SWF, True), "max_procs"),
        (lambda: split_wide_jobs(swf_frame(submit=[0.0], runtime=[1.0], procs=[1e19]), 8), "procs"),
        (lambda: split_wide_jobs(swf_frame(submit=[0.0], runtime=[1.0], procs=[20.5]), 8), "procs"),
        (lambda: split_wide_jobs(swf_frame(submit=[0.0], runtime=[1.0], procs=[INF]), 8), "procs"),
        (lambda: split_wide_jobs(pd.DataFrame({"job": [1], "procs": [True]}), 8), "procs"),
        (lambda: scale_runtimes(SWF, True), "factor"),
        (lambda: scale_runtimes(SWF, INF), "factor"),
        (lambda: scale_runtimes(SWF, 1e308), "factor"),  # 5 s x 1e308 overflows
        (lambda: system_loading(SWF, True), "total_processors"),
        (lambda: system_loading(SWF.assign(submit=[0.0, INF]), 8), "submit"),
        (lambda: system_loading(SWF.assign(runtime=[INF, 3.0]), 8), "runtime"),
        (lambda: system_loading(SWF.assign(runtime=[-5.0, 3.0]), 8), "runtime"),
        (lambda: system_loading(SWF.assign(procs=[True, True]), 8), "procs"),
        (lambda: estimate_inaccuracy(SWF, True), "factor"),
        (lambda: estimate_inaccuracy(SWF, 1e308), "factor"),
        (lambda: queue_to_site(SWF_Q, {1: True, 2: 0}), "mapping"),
        (lambda: queue_to_site(SWF_Q, {1: 1.5, 2: 0}), "mapping"),
        (lambda: queue_to_site(SWF_Q, {1: -1, 2: 0}), "mapping"),
        (lambda: queue_to_site(SWF_Q, {1: INF, 2: 0}), "mapping"),
        (lambda: lublin99(2**70), "n_jobs"),
        (lambda: lublin99(5, 2**70), "machine_size"),
        (lambda: lublin99(5, typed=2), "typed"),
        (lambda: lublin99(5, exact_clock="no"), "exact_clock"),
        (lambda: feitelson96(2**70), "n_jobs"),
        (lambda: feitelson96(5, 2**70), "machine_size"),
        (lambda: feitelson96(5, 128, True), "seed"),
        (lambda: feitelson96(5, 128, -1), "seed"),
        (lambda: raw_moments([True, False]), "samples"),
        (lambda: raw_moments([1e300, 1e300]), "samples"),
    ],
)
def test_workloads_refuse_out_of_range_values(call, name):
    assert_named(call, name)


def test_split_wide_jobs_with_the_widest_width_splits_nothing():
    out = split_wide_jobs(SWF, 2.0**53)  # processor counts are at most 2**53 (issue 51)
    assert out["procs"].tolist() == [20, 1] and out.attrs["split_at"] == 2**53
    with pytest.raises(HpcmodelsError, match="max_procs"):
        split_wide_jobs(SWF, 1e19)


@given(st.integers(1, 64), st.integers(1, 200))
def test_split_pieces_sum_to_the_job_and_none_is_wider(max_procs, procs):
    out = split_wide_jobs(swf_frame(submit=[0.0], runtime=[1.0], procs=[procs]), max_procs)
    assert out["procs"].sum() == procs and out["procs"].max() <= max_procs


# ---------------------------------------------------------------- mdp


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: CoallocationMDP(0.5, 0.5, 0.5, truncation=2**70), "truncation"),
        (lambda: CoallocationMDP(0.5, 0.5, 0.5, truncation=True), "truncation"),
        (lambda: CoallocationMDP(True, 0.5, 0.5), "lam1"),
        (lambda: CoallocationMDP(INF, 0.5, 0.5), "lam1"),
        (lambda: MDP.with_(truncation=2**70), "truncation"),
        (lambda: MDP.index((99, 0, 0, 0, 0, 0)), "state"),
        (lambda: MDP.index((0.5, 0, 0, 0, 0, 0)), "state[0]"),
        (lambda: MDP.post_action((0, 0, 0, 0, 0, 0), 7), "action d"),
        (lambda: MDP.post_action((99, 0, 1, 5, 5, 5), 0), "state"),
        (lambda: MDP.events((-5, 0, 0, 9, 0, 0)), "state"),
        (lambda: MDP.check_policy(np.full(MDP.n_states, 0.5)), "policy"),
        (lambda: modified_policy_iteration(MDP, cycles=2**70), "cycles"),
        (lambda: modified_policy_iteration(MDP, cycles=True), "cycles"),
        (lambda: solve(MDP, tol=INF), "tol"),
        (lambda: solve(MDP).policy_table(x1=True), "x1"),
        (lambda: solve(MDP).policy_table(q1_max=2.5), "q1_max"),
        (lambda: solve(MDP).action((99, 0, 0, 0, 0, 0)), "state"),
    ],
)
def test_mdp_refuses_out_of_range_values(call, name):
    assert_named(call, name)


@given(st.integers(min_value=1001, max_value=2**80))
def test_truncations_beyond_1000_are_refused_at_once(delta):
    assert_named(lambda: CoallocationMDP(0.5, 0.5, 0.5, truncation=delta), "truncation")


# ---------------------------------------------------------------- ensemble and stats


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: summarize([True, False]), "values"),
        (lambda: summarize([1e308, 1e308]), "values"),  # the mean overflows
        (lambda: mean_of_k([1.0, 2.0], True), "k"),
        (lambda: mean_of_k([1.0, 2.0], 2**70), "k"),
        (lambda: mean_of_k([1.0, 2.0], 10**9), "k"),
        (lambda: mean_of_k([1.0, 2.0], 1, confidence=True), "confidence"),
        (lambda: mean_of_k([1.0, 2.0], 1, confidence=NAN), "confidence"),
        (lambda: statistic_of_k([[1.0], [2.0]], lambda m: m[:, 0], confidence=1.5), "confidence"),
        (lambda: statistic_of_k([[True], [False]], lambda m: m[:, 0]), "table"),
        (lambda: paired_claim("i", "c", [True, False], [1.0, 2.0]), "a"),
        (
            lambda: paired_claim("i", "c", [1.0, 2.0], [1.0, 3.0], higher_is_better="no"),
            "higher_is_better",
        ),  # fmt: skip
        (lambda: t_interval([1.0, 2.0], True), "confidence"),
        (lambda: t_interval([True, False]), "values"),
        (lambda: t_interval([1e308, 1e308, -1e308]), "values"),
    ],
)
def test_ensemble_and_stats_refuse_out_of_range_values(call, name):
    assert_named(call, name)


@given(st.integers(min_value=1001, max_value=2**70) | st.integers(max_value=0))
def test_k_outside_1_to_1000_is_refused(k):
    assert_named(lambda: mean_of_k([1.0, 2.0, 3.0], k), "k")


@given(st.floats(allow_nan=True, allow_infinity=True).filter(lambda c: not 0 < c < 1))
def test_confidence_outside_the_open_unit_interval_is_refused(confidence):
    assert_named(lambda: t_interval([1.0, 2.0, 3.0], confidence), "confidence")


def test_a_large_but_finite_series_still_works():
    mean, half = t_interval([1e150, 2e150])
    assert math.isfinite(mean) and math.isfinite(half)
