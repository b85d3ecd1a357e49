"""Wrong container types (issue 25, class 2): plain tuples, dicts, generators, None, a
DataFrame without the needed columns, a list instead of a frame, a string where a
number or a path is expected. Each is either accepted by a documented conversion (and
then gives the same result as the documented type) or refused with an InvalidType (also
a TypeError) or InvalidParameter naming the argument; never an AttributeError,
KeyError, IndexError, 'unhashable' TypeError or a float() error."""

import numpy as np
import pandas as pd
import pytest

from hpcmodels.bandwidth import (
    Network,
    Residual,
    advance_residuals,
    allot_bandwidth,
    link_demand,
    ppbw_from_bsbw,
    progress_rate,
    saturation,
    slowdown_factors,
    start_residual,
)
from hpcmodels.bandwidth.experiment import Setup, coallocation_penalty, run_point, workload
from hpcmodels.errors import HpcmodelsError, InvalidType
from hpcmodels.mdp import CoallocationMDP, modified_policy_iteration, solve, value_iteration
from hpcmodels.multicluster import (
    Cluster,
    RunningJob,
    TLAOptions,
    WaitingJob,
    simulate,
    tla_scores,
)
from hpcmodels.papers.ensemble import (
    ensemble_statistic,
    ensemble_value,
    mean_of_k,
    paired_claim,
    statistic_of_k,
    summarize,
)
from hpcmodels.queueing import (
    SpikeSlack,
    UniformSlack,
    algorithm1,
    cluster_response_times,
    erlang_c,
    mean_miss_rate_of,
    mean_response_time_of,
    omr_allocation,
    ort_allocation,
    waiting_time_cdf,
    weighted_allocation,
)
from hpcmodels.stats import batch_means_ci, t_interval
from hpcmodels.workloads import swf_frame
from hpcmodels.workloads.clean import (
    apply_filter,
    completed_only,
    positive_runtime_and_procs,
    processors,
)
from hpcmodels.workloads.models.feitelson96 import feitelson96, offered_load
from hpcmodels.workloads.models.jann97 import fit_hyper_erlang, raw_moments
from hpcmodels.workloads.models.lublin99 import daily_cycle_weights, lublin99
from hpcmodels.workloads.transforms import (
    estimate_inaccuracy,
    merge_logs,
    queue_summary,
    queue_to_site,
    scale_runtimes,
    scale_to_loading,
    speed_vectors,
    split_wide_jobs,
    system_loading,
)

JOBS = pd.DataFrame({"submit": [0.0, 1.0], "runtime": [5.0, 3.0], "procs": [2, 1]})
CLUSTERS = [Cluster("a", 8), Cluster("b", 4, 2.0)]
SWF = swf_frame(submit=[0.0, 10.0], runtime=[5.0, 3.0], procs=[20, 1])
SWF_Q = swf_frame(submit=[0.0, 10.0], runtime=[5.0, 3.0], procs=[2, 1], queue=[1, 2])
MDP = CoallocationMDP(0.5, 0.5, 0.5, truncation=3)
SMALL = Setup(jobs_per_cluster=5)
WAIT = [WaitingJob(1, 0, 1)]
V = [1.0, 2.0, 3.0]


def gen(values):
    return (v for v in values)


def assert_named(call, name: str, error=HpcmodelsError) -> HpcmodelsError:
    with pytest.raises(error) as info:
        call()
    assert name.lower() in str(info.value).lower(), str(info.value)
    return info.value


# ---------------------------------------------------------------- refused, with InvalidType
# (each of these raised a plain TypeError or AttributeError before)

TYPE_CASES = [
    (lambda: simulate(None, CLUSTERS), "jobs"),
    (lambda: simulate([{"submit": 0, "runtime": 1, "procs": 1}], CLUSTERS), "jobs"),
    (lambda: simulate({"submit": [0.0], "runtime": [1.0], "procs": [1]}, CLUSTERS), "jobs"),
    (lambda: simulate(JOBS, None), "clusters"),
    (lambda: simulate(JOBS, "ab"), "clusters"),
    (lambda: simulate(JOBS, {"a": 8}), "clusters"),
    (lambda: simulate(JOBS, [("a", 8)]), "clusters"),
    (lambda: simulate(JOBS, CLUSTERS, allocation="tla", tla={"depth": 2}), "tla"),
    (lambda: simulate(JOBS, CLUSTERS, coallocation="a1", network={"bsbw": 1}), "network"),
    (lambda: simulate(JOBS, CLUSTERS, seed="0"), "seed"),
    (lambda: simulate(JOBS, CLUSTERS, slowdown=None), "slowdown"),
    (lambda: TLAOptions(depth="3"), "depth"),
    (lambda: Cluster(None, 4), "name"),
    (lambda: Cluster(["a"], 4), "name"),
    (lambda: Cluster("a", "4"), "procs"),
    (lambda: tla_scores(None, [], WAIT), "clusters"),
    (lambda: tla_scores(CLUSTERS, None, WAIT), "running"),
    (lambda: tla_scores(CLUSTERS, [{"cluster": 0}], WAIT), "running[0]"),
    (lambda: tla_scores(CLUSTERS, [0], WAIT), "running[0]"),
    (lambda: tla_scores(CLUSTERS, [], None), "waiting"),
    (lambda: tla_scores(CLUSTERS, [], [(1, 0)]), "waiting[0]"),
    (lambda: tla_scores(CLUSTERS, [], [1]), "waiting[0]"),
    (lambda: tla_scores(CLUSTERS, [], WaitingJob(1, 0, 1)), "waiting"),
    (lambda: tla_scores(CLUSTERS, [], [WaitingJob("1", 0, 1)]), "waiting[0].procs"),
    (lambda: tla_scores(CLUSTERS, [], WAIT, "5"), "now"),
    (lambda: ppbw_from_bsbw("1", 4), "bsbw"),
    (lambda: ppbw_from_bsbw(None, 4), "bsbw"),
    (lambda: link_demand([1], 4, 1.0), "local_nodes"),
    (lambda: saturation(None, [1.0]), "demand"),
    (lambda: saturation("1", [1.0]), "demand"),
    (lambda: saturation({"a": 1}, [1.0]), "demand"),
    (lambda: saturation([[1.0]], ["1"]), "capacity"),
    (lambda: allot_bandwidth([[1.0], [1.0, 2.0]], [1.0]), "demand"),
    (lambda: allot_bandwidth([[1.0]], None), "capacity"),
    (lambda: slowdown_factors(None, [[1.0]]), "demand"),
    (lambda: progress_rate("0.5", 0.5), "slowdown"),
    (lambda: progress_rate(0.5, None), "compute_fraction"),
    (lambda: Network(bsbw="500"), "bsbw"),
    (lambda: Network(bsbw=None), "bsbw"),
    (lambda: Network(bsbw=1, link_mbps=None), "link_mbps"),
    (lambda: Network(bsbw=1, link_mbps="1000"), "link_mbps"),
    (lambda: Network(bsbw=1, link_mbps={"a": 1}), "link_mbps"),
    (lambda: Network(bsbw=1).link_capacities("2"), "clusters"),
    (lambda: Network(bsbw=1).link_capacities(None), "clusters"),
    (lambda: start_residual("1", 0.5), "execution_time"),
    (lambda: start_residual(None, 0.5), "execution_time"),
    (lambda: advance_residuals((1.0, 1.0), 0.5, 0.5), "r"),
    (lambda: advance_residuals(None, 0.5, 0.5), "r"),
    (lambda: advance_residuals(Residual(1, 1), "0.5", 0.5), "dt"),
    (lambda: Residual("1", 1), "tp"),
    (lambda: Residual(None, 1), "tp"),
    (lambda: Setup(link_mbps="1000"), "link_mbps"),
    (lambda: Setup(compute_fraction=None), "compute_fraction"),
    (lambda: workload(None), "setup"),
    (lambda: workload({"clusters": 2}), "setup"),
    (lambda: workload([4, 100]), "setup"),
    (lambda: workload(SMALL, "0"), "seed"),
    (lambda: workload(SMALL, [0]), "seed"),
    (lambda: run_point("a1", None), "setup"),
    (lambda: run_point("a1", {"clusters": 2}), "setup"),
    (lambda: run_point("a1", SMALL, bsbw="500"), "bsbw"),
    (lambda: run_point("fixed_penalty", SMALL, penalty="2"), "penalty"),
    (lambda: coallocation_penalty(None), "result_jobs"),
    (lambda: coallocation_penalty([{"cluster": -1}]), "result_jobs"),
    (lambda: batch_means_ci(None), "values"),
    (lambda: batch_means_ci(np.arange(100.0), "20"), "batches"),
    (lambda: erlang_c(2, None), "offered_load"),
    (lambda: waiting_time_cdf(2, 1.0, 0.5, None), "x"),
    (lambda: waiting_time_cdf(2, 1.0, 0.5, "1"), "x"),
    (lambda: waiting_time_cdf(2, 1.0, 0.5, {"a": 1}), "x"),
    (lambda: weighted_allocation(None, [1.0]), "nodes"),
    (lambda: weighted_allocation(["4", "4"], [1.0, 1.0]), "nodes"),
    (lambda: weighted_allocation({"a": 4}, [1.0]), "nodes"),
    (lambda: weighted_allocation([4, 4], ["a", "b"]), "rates"),
    (lambda: ort_allocation([4, 4], [1.0, 1.0], "1"), "arrival_rate"),
    (lambda: ort_allocation([4, 4], [1.0, 1.0], None), "arrival_rate"),
    (lambda: ort_allocation([4, 4], [1.0, 1.0], [1.0]), "arrival_rate"),
    (lambda: UniformSlack("0", 5.0), "lo"),
    (lambda: SpikeSlack(None, (1.0,)), "values"),
    (lambda: SpikeSlack(["1", "5"], (0.5, 0.5)), "values"),
    (lambda: cluster_response_times([4, 4], [1.0, 1.0], 1.0, None), "fractions"),
    (lambda: cluster_response_times([4, 4], [1.0, 1.0], 1.0, {"a": 0.5}), "fractions"),
    (lambda: algorithm1(0, None, [1.0], 1.0), "nodes"),
    (lambda: algorithm1(1, [4, 4], [1.0, 1.0], 1.0, None), "packed"),
    (lambda: merge_logs(None), "frames"),
    (lambda: merge_logs(SWF), "frames"),
    (lambda: merge_logs({"a": SWF}), "frames"),
    (lambda: merge_logs([SWF, None]), "frames[1]"),
    (lambda: merge_logs([SWF, [1, 2]]), "frames[1]"),
    (lambda: merge_logs(["a.swf"]), "frames[0]"),
    (lambda: merge_logs([SWF], align="no"), "align"),
    (lambda: split_wide_jobs(None, 8), "frame"),
    (lambda: split_wide_jobs([{"job": 1, "procs": 20}], 8), "frame"),
    (lambda: split_wide_jobs(SWF, "8"), "max_procs"),
    (lambda: queue_to_site(None, {1: 0}), "frame"),
    (lambda: queue_to_site([{"queue": 1}], {1: 0}), "frame"),
    (lambda: queue_to_site(SWF_Q, None), "mapping"),
    (lambda: queue_to_site(SWF_Q, [0, 1]), "mapping"),
    (lambda: queue_to_site(SWF_Q, "ab"), "mapping"),
    (lambda: queue_to_site(SWF_Q, {1: "x", 2: 0}), "mapping[1]"),
    (lambda: queue_to_site(SWF_Q, {1: None, 2: 0}), "mapping[1]"),
    (lambda: scale_runtimes(None, 2.0), "frame"),
    (lambda: scale_runtimes([1.0], 2.0), "frame"),
    (lambda: scale_runtimes(SWF, "2"), "factor"),
    (lambda: scale_runtimes(SWF, [2.0]), "factor"),
    (lambda: system_loading(None, 8), "frame"),
    (lambda: system_loading(SWF, "8"), "total_processors"),
    (lambda: scale_to_loading(SWF, 8, "1"), "target"),
    (lambda: speed_vectors(None, 0.1), "nodes"),
    (lambda: speed_vectors("44", 0.1), "nodes"),
    (lambda: speed_vectors({4: 1, 5: 1}, 0.1), "nodes"),
    (lambda: speed_vectors([4, 4], "0.1"), "sh"),
    (lambda: speed_vectors([4, 4], 0.1, 1, "0"), "seed"),
    (lambda: estimate_inaccuracy(None, 2.0), "frame"),
    (lambda: estimate_inaccuracy([1.0, 2.0], 2.0), "frame"),
    (lambda: estimate_inaccuracy(SWF, None), "factor"),
    (lambda: queue_summary(None), "frame"),
    (lambda: queue_summary([1, 2]), "frame"),
    (lambda: positive_runtime_and_procs(None), "frame"),
    (lambda: positive_runtime_and_procs([1]), "frame"),
    (lambda: completed_only(None), "frame"),
    (lambda: apply_filter(None, "shih2013"), "frame"),
    (lambda: processors(None), "frame"),
    (lambda: daily_cycle_weights(None), "params"),
    (lambda: daily_cycle_weights({"a": 1}), "params"),
    (lambda: raw_moments(None), "samples"),
    (lambda: raw_moments("abc"), "samples"),
    (lambda: fit_hyper_erlang({"m1": 1}), "samples"),
    (lambda: CoallocationMDP("0.5", 0.5, 0.5), "lam1"),
    (lambda: CoallocationMDP(0.5, 0.5, 0.5, truncation="3"), "truncation"),
    (lambda: solve(None), "mdp"),
    (lambda: solve({"lam1": 0.5}), "mdp"),
    (lambda: value_iteration(None), "mdp"),
    (lambda: value_iteration(MDP, tol="1e-6"), "tol"),
    (lambda: value_iteration(MDP, start="abc"), "start"),
    (lambda: value_iteration(MDP, start={"a": 1}), "start"),
    (lambda: modified_policy_iteration(MDP, cycles="4"), "cycles"),
    (
        lambda: MDP.post_action((0, 0, 0, 0, 0, 0), 0) and solve(MDP).policy_table(q1_max=None),
        "q1_max",
    ),  # fmt: skip
    (lambda: summarize(None), "values"),
    (lambda: summarize("abc"), "values"),
    (lambda: summarize({"a": 1.0}), "values"),
    (lambda: mean_of_k(V, "2"), "k"),
    (lambda: mean_of_k(V, 1, confidence="0.9"), "confidence"),
    (lambda: mean_of_k(V, 1, confidence=None), "confidence"),
    (lambda: statistic_of_k(None, lambda m: m[:, 0]), "table"),
    (lambda: statistic_of_k([[1.0], [2.0]], None), "statistic"),
    (lambda: statistic_of_k([[1.0], [2.0]], "mean"), "statistic"),
    (lambda: ensemble_value("i", "q", 1.0, None, kind="percent"), "values"),
    (
        lambda: ensemble_statistic("i", "q", 1.0, [[1.0], [2.0]], None, kind="percent"),
        "statistic",
    ),  # fmt: skip
    (lambda: paired_claim("i", "c", None, V), "a"),
    (lambda: paired_claim("i", "c", V, "abc"), "b"),
    (lambda: t_interval(None), "values"),
    (lambda: t_interval({"a": 1.0}), "values"),
    (lambda: t_interval(V, "0.9"), "confidence"),
    (lambda: t_interval(V, None), "confidence"),
]


@pytest.mark.parametrize(("call", "name"), TYPE_CASES)
def test_a_wrong_container_is_an_invalid_type_naming_the_argument(call, name):
    err = assert_named(call, name, InvalidType)
    assert isinstance(err, TypeError) and isinstance(err, ValueError)


# ---------------------------------------------------------------- refused, wrong contents

VALUE_CASES = [
    (lambda: simulate(pd.DataFrame({"submit": [0.0]}), CLUSTERS), "jobs"),
    (lambda: simulate(JOBS.assign(procs=["2", "1"]), CLUSTERS), "procs"),
    (lambda: simulate(JOBS.assign(procs=[None, 1]), CLUSTERS), "jobs column 'procs'"),
    (
        lambda: simulate(JOBS.assign(origin=["0", "1"]), CLUSTERS, "fcfs", "local_first"),
        "origin",
    ),  # fmt: skip
    (lambda: simulate(JOBS, CLUSTERS, allocation="local_first"), "origin"),
    (lambda: simulate(JOBS, CLUSTERS, selection=None), "selection"),
    (lambda: simulate(JOBS, CLUSTERS, selection=["fcfs"]), "selection"),
    (lambda: simulate(JOBS, CLUSTERS, coallocation=["fixed_order"]), "coallocation"),
    (lambda: simulate(JOBS, CLUSTERS, rate_model="crowding"), "rate_model"),
    (lambda: simulate(JOBS, CLUSTERS, rate_model={"crowding": [1, 0.5]}), "rate_model"),
    (lambda: simulate(JOBS, CLUSTERS, rate_model=(["crowding"], [1, 0.5])), "rate model"),
    (lambda: simulate(JOBS, CLUSTERS, rate_model=("crowding", None)), "rate_model"),
    (lambda: simulate(JOBS, CLUSTERS, rate_model=("crowding", "1 0.5")), "rate_model"),
    (lambda: TLAOptions(policy=["best_fit"]), "policy"),
    (lambda: TLAOptions(metric=None), "metric"),
    (lambda: tla_scores(CLUSTERS, [], WAIT, policy=None), "policy"),
    (lambda: Network(bsbw=1, link_mbps=[[1.0, 2.0]]), "link_mbps"),
    (lambda: run_point(["a1"], SMALL), "strategy"),
    (lambda: run_point("a1", SMALL, selection=["fcfs"]), "selection"),
    (lambda: coallocation_penalty(pd.DataFrame({"cluster": [-1]})), "result_jobs"),
    (lambda: ort_allocation([4, 4], [1.0, 1.0], 1.0, method=None), "method"),
    (lambda: omr_allocation([4, 4], [1.0, 1.0], 1.0, None), "slack"),
    (lambda: omr_allocation([4, 4], [1.0, 1.0], 1.0, "05"), "slack"),
    (lambda: omr_allocation([4, 4], [1.0, 1.0], 1.0, {"lo": 0, "hi": 5}), "slack"),
    (lambda: weighted_allocation([[4, 4]], [[1.0, 1.0]]), "nodes"),
    (lambda: mean_miss_rate_of([4, 4], [1.0, 1.0], 1.0, [0.5, 0.5], None), "slack"),
    (lambda: algorithm1("ort", [4, 4], [1.0, 1.0], 1.0), "objective"),
    (lambda: merge_logs([]), "frames"),
    (lambda: merge_logs([pd.DataFrame({"x": [1]})], align=False), "frames[0]"),
    (lambda: split_wide_jobs(pd.DataFrame({"job": [1]}), 8), "frame"),
    (lambda: split_wide_jobs(pd.DataFrame({"job": [1], "procs": ["20"]}), 8), "procs"),
    (lambda: queue_to_site(pd.DataFrame({"x": [1]}), {1: 0}), "frame"),
    (lambda: system_loading(SWF.assign(submit=["0", "10"]), 8), "submit"),
    (lambda: estimate_inaccuracy(pd.DataFrame({"x": [1]}), 2.0), "frame"),
    (lambda: queue_summary(pd.DataFrame({"x": [1]})), "frame"),
    (
        lambda: positive_runtime_and_procs(pd.DataFrame({"runtime": ["1"], "procs": ["1"]})),
        "frame column",
    ),  # fmt: skip
    (lambda: completed_only(pd.DataFrame({"x": [1]})), "frame"),
    (lambda: processors(pd.DataFrame({"x": [1]})), "frame"),
    (lambda: apply_filter(SWF, None), "filter name"),
    (lambda: apply_filter(SWF, ["shih2013"]), "filter name"),
    (lambda: lublin99(5, generator=["numpy"]), "generator"),
    (lambda: feitelson96(5, params={"think_time": 0}), "params"),
    (lambda: feitelson96(5, seed="0"), "seed"),
    (lambda: offered_load(None, 8), "frame"),
    (lambda: offered_load(pd.DataFrame({"x": [1]}), 8), "frame"),
    (lambda: fit_hyper_erlang((1.0, 3.0)), "moments"),
    (lambda: MDP.with_(bogus=1), "bogus"),
    (lambda: MDP.index(None), "state"),
    (lambda: MDP.index("000000"), "state"),
    (lambda: MDP.index((0, 0)), "state"),
    (lambda: MDP.post_action(None, 0), "state"),
    (lambda: MDP.post_action((0, 0, 0, 0, 0, 0), "1"), "action d"),
    (lambda: MDP.events(None), "state"),
    (lambda: MDP.check_policy(None), "policy"),
    (lambda: MDP.check_policy(["0"] * MDP.n_states), "policy"),
    (lambda: solve(MDP, method=None), "method"),
    (lambda: solve(MDP, method=["value_iteration"]), "method"),
    (lambda: solve(MDP, bogus=1), "bogus"),
    (lambda: solve(MDP, method="value_iteration", cycles=3), "cycles"),
    (lambda: solve(MDP).action(None), "state"),
    (lambda: ensemble_value("i", "q", 1.0, V, kind=None), "kind"),
    (lambda: ensemble_value("i", "q", 1.0, V, kind=["percent"]), "kind"),
    (lambda: statistic_of_k([[1.0], [2.0]], lambda m: "x"), "statistic"),
]


@pytest.mark.parametrize(("call", "name"), VALUE_CASES)
def test_wrong_contents_are_an_hpcmodels_error_naming_the_argument(call, name):
    assert_named(call, name)


# ---------------------------------------------------------------- documented conversions


def test_simulate_reads_clusters_from_a_tuple_or_a_generator():
    expected = simulate(JOBS, CLUSTERS).metrics
    assert simulate(JOBS, tuple(CLUSTERS)).metrics == expected
    assert simulate(JOBS, gen(CLUSTERS)).metrics == expected


def test_simulate_takes_the_rate_model_as_a_list_or_tuple_and_params_as_any_sequence():
    expected = simulate(JOBS, CLUSTERS, rate_model=("crowding", [1, 0.5])).metrics
    for model in (["crowding", (1, 0.5)], ("crowding", np.array([1, 0.5])),
                  ("crowding", gen([1, 0.5]))):  # fmt: skip
        assert simulate(JOBS, CLUSTERS, rate_model=model).metrics == expected


def test_simulate_reads_an_object_column_of_numbers():
    assert simulate(JOBS.astype(object), CLUSTERS).metrics == simulate(JOBS, CLUSTERS).metrics


def test_tla_scores_takes_plain_tuples_and_generators():
    expected = tla_scores(CLUSTERS, [RunningJob(0, 1, 5.0)], [WaitingJob(1, 0, 1)])
    assert tla_scores(CLUSTERS, [(0, 1, 5.0)], [(1, 0, 1)]) == expected
    assert tla_scores(gen(CLUSTERS), gen([(0, 1, 5.0)]), gen([[1, 0, 1]])) == expected


def test_bandwidth_arrays_accept_tuples_frames_and_generators():
    expected = saturation([[1.0, 0.5]], [2.0, 2.0])
    assert np.array_equal(saturation(((1.0, 0.5),), (2.0, 2.0)), expected)
    assert np.array_equal(saturation(gen([[1.0, 0.5]]), gen([2.0, 2.0])), expected)
    frame = pd.DataFrame({"a": [1.0], "b": [0.5]})
    assert np.array_equal(allot_bandwidth(frame, [2.0, 2.0]), allot_bandwidth([[1.0, 0.5]], [2, 2]))


def test_network_link_list_becomes_a_hashable_tuple():
    net = Network(bsbw=1, link_mbps=[1000, 500.0])
    assert net.link_mbps == (1000.0, 500.0) and hash(net) == hash(Network(1, (1000.0, 500.0)))
    assert net.link_capacities(2.0).tolist() == [1000.0, 500.0]


def test_queueing_sequences_accept_tuples_series_and_generators():
    expected = weighted_allocation([4, 4], [1.0, 2.0])
    assert np.array_equal(weighted_allocation((4, 4), (1.0, 2.0)), expected)
    assert np.array_equal(weighted_allocation(pd.Series([4.0, 4.0]), gen([1.0, 2.0])), expected)
    args = ([4, 4], [1.0, 1.0], 1.0)
    rt = mean_response_time_of(*args, [0.5, 0.5])
    assert mean_response_time_of(*args, (0.5, 0.5)) == rt
    assert mean_response_time_of(*args, gen([0.5, 0.5])) == rt
    omr = omr_allocation(*args, (0.0, 5.0))
    assert np.array_equal(omr_allocation(*args, [0.0, 5.0]), omr)
    assert np.array_equal(omr_allocation(*args, UniformSlack(0, 5)), omr)
    cdf = waiting_time_cdf(2, 1.0, 0.5, [1.0, 2.0])
    assert np.array_equal(waiting_time_cdf(2, 1.0, 0.5, (1.0, 2.0)), cdf)
    assert np.array_equal(waiting_time_cdf(2, 1.0, 0.5, gen([1.0, 2.0])), cdf)


def test_spike_slack_lists_are_stored_as_tuples_and_give_the_same_allocation():
    slack = SpikeSlack([1, 5.0], np.array([0.5, 0.5]))
    assert slack == SpikeSlack((1.0, 5.0), (0.5, 0.5)) and hash(slack)
    args = ([4, 4], [1.0, 1.0], 1.0)
    assert np.array_equal(
        omr_allocation(*args, slack), omr_allocation(*args, SpikeSlack((1, 5), (0.5, 0.5)))
    )


def test_algorithm1_takes_a_slack_object_or_pair_for_packed():
    packed = UniformSlack(0.0, 5.0).packed()
    expected = algorithm1(1, [4, 4], [1.0, 1.0], 1.0, packed)
    assert algorithm1(1, [4, 4], [1.0, 1.0], 1.0, UniformSlack(0, 5)) == expected
    assert algorithm1(1, [4, 4], [1.0, 1.0], 1.0, (0.0, 5.0)) == expected


def test_merge_logs_takes_any_iterable_of_frames():
    expected = merge_logs([SWF, SWF_Q], align=False)
    assert merge_logs((SWF, SWF_Q), align=False).equals(expected)
    assert merge_logs(gen([SWF, SWF_Q]), align=False).equals(expected)


def test_queue_to_site_takes_a_series_and_integral_float_sites():
    expected = queue_to_site(SWF_Q, {1: 0, 2: 1})
    assert queue_to_site(SWF_Q, pd.Series({1: 0, 2: 1})).equals(expected)
    assert queue_to_site(SWF_Q, {1: 0.0, 2: 1.0}).equals(expected)


def test_speed_vectors_take_a_tuple_or_a_generator_of_nodes():
    expected = speed_vectors([4, 8], 0.1, 2)
    assert np.array_equal(speed_vectors((4, 8), 0.1, 2), expected)
    assert np.array_equal(speed_vectors(gen([4, 8]), 0.1, 2), expected)


def test_moments_and_series_accept_tuples_and_generators():
    assert raw_moments((1.0, 2.0)) == raw_moments([1.0, 2.0]) == raw_moments(gen([1.0, 2.0]))
    assert t_interval(tuple(V)) == t_interval(V) == t_interval(gen(V))
    assert batch_means_ci(tuple(range(100))) == batch_means_ci(list(range(100)))
    assert summarize(tuple(V)) == summarize(V) == summarize(pd.Series(V)) == summarize(gen(V))
    row = ensemble_value("i", "q", 2.0, gen(V), kind="percent")
    assert row["replicates"] == 3 and row["range_k"] == ensemble_value("i", "q", 2.0, V,
                                                                        kind="percent")["range_k"]  # fmt: skip
    a, b = (1.0, 2.0, 3.0), [0.0, 1.0, 1.0]
    assert paired_claim("i", "c", a, b)["ours"] == paired_claim("i", "c", list(a), b)["ours"]
    table = pd.DataFrame({"x": [1.0, 2.0, 4.0]})
    assert statistic_of_k(table, lambda m: m[:, 0]) == statistic_of_k([[1.0], [2.0], [4.0]],
                                                                       lambda m: m[:, 0])  # fmt: skip


def test_mdp_states_policies_and_starts_accept_lists_tuples_and_arrays():
    assert MDP.index([0, 0, 0, 0, 0, 0]) == MDP.index(np.zeros(6, int)) == 0
    zeros = [0] * MDP.n_states
    assert (MDP.check_policy(tuple(zeros)) == MDP.check_policy(np.zeros(MDP.n_states, bool))).all()
    listed = value_iteration(MDP, start=[0.0] * MDP.n_states).values
    assert np.array_equal(value_iteration(MDP, start=tuple([0.0] * MDP.n_states)).values, listed)
    assert np.array_equal(value_iteration(MDP, start=gen([0.0] * MDP.n_states)).values, listed)
    assert CoallocationMDP(0.5, 0.5, 0.5, truncation=3.0).n_states == MDP.n_states


def test_numpy_scalars_are_numbers():
    assert ppbw_from_bsbw(np.float32(1), np.int64(4)) == ppbw_from_bsbw(1.0, 4)
    assert Cluster("a", np.int32(4), np.float64(2.0)) == Cluster("a", 4, 2.0)
