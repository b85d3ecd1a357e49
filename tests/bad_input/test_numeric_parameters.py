"""Bad input to the public functions is an InvalidParameter naming the parameter and the
value (NaN, inf, negative, zero, wrong type, empty); valid input gives the right value."""

import numpy as np
import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter, check_int, check_real
from hpcmodels.multicluster import Cluster, simulate
from hpcmodels.queueing.dispatch import simulate_dispatch
from hpcmodels.queueing.mmm import MAX_SERVERS, erlang_b, erlang_c, mean_waiting_time
from hpcmodels.queueing.slack import SpikeSlack
from hpcmodels.queueing.system import MultiCluster, Stream
from hpcmodels.workloads import swf_frame
from hpcmodels.workloads.transforms import (
    scale_to_loading,
    speed_vectors,
    split_wide_jobs,
    system_loading,
)

NAN, INF = float("nan"), float("inf")
JOBS = pd.DataFrame({"submit": [0.0, 1.0], "runtime": [5.0, 3.0], "procs": [2, 1]})
SWF = swf_frame(submit=[0.0, 10.0], runtime=[5.0, 3.0], procs=[20, 1])


# ---------------------------------------------------------------- shared checks


@pytest.mark.parametrize("value", [NAN, INF, 2.5, "4", None, True, 0, -3])
def test_check_int_rejects_non_whole_or_out_of_range(value):
    with pytest.raises(InvalidParameter, match=r"count must be a whole number >= 1, got"):
        check_int("count", value, minimum=1)


def test_check_int_accepts_integers_and_integral_floats():
    for value in (4, 4.0, np.int32(4), np.float64(4.0)):
        number = check_int("count", value, minimum=1, maximum=4)
        assert number == 4 and type(number) is int
    with pytest.raises(InvalidParameter, match="<= 4"):
        check_int("count", 5, maximum=4)


@pytest.mark.parametrize(
    "value", [NAN, INF, -INF, "1", None, True, pytest.param(10**400, id="10**400"), 0]
)
def test_check_real_rejects_non_finite_wrong_kind_or_out_of_range(value):
    with pytest.raises(InvalidParameter, match=r"rate must be a finite number > 0, got"):
        check_real("rate", value, above=0)


def test_check_real_returns_a_float():
    assert check_real("x", 3, at_least=1) == 3.0 and type(check_real("x", np.float32(2))) is float


# ---------------------------------------------------------------- Cluster


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"procs": NAN}, r"cluster 'a': procs .* got nan"),
        ({"procs": INF}, r"procs .* got inf"),
        ({"procs": 2.5}, r"procs .* got 2\.5"),
        ({"procs": "4"}, r"procs .* got '4'"),
        ({"procs": None}, r"procs .* got None"),
        ({"procs": True}, r"procs .* got True"),
        ({"procs": 2**63}, r"procs .* <= 9007199254740992, got 9223372036854775808"),
        ({"speed": "1"}, r"cluster 'a': speed .* got '1'"),
        ({"speed": None}, r"speed .* got None"),
        ({"speed": NAN}, r"speed .* got nan"),
        ({"speed": 0}, r"speed must be a finite number > 0, got 0"),
    ],
)
def test_cluster_rejects_bad_procs_and_speed(kw, match):
    with pytest.raises(InvalidParameter, match=match):
        Cluster("a", **{"procs": 4, **kw})


def test_cluster_accepts_an_integral_float_count_as_an_int():
    c = Cluster("a", 4.0, 2)
    assert c.procs == 4 and type(c.procs) is int and type(c.speed) is float
    assert c == Cluster("a", 4, 2.0)


# ---------------------------------------------------------------- MultiCluster


@pytest.mark.parametrize(
    ("nodes", "speeds", "match"),
    [
        ((2.5, 3), (1, 1), r"nodes\[0\] .* got 2\.5"),
        ((NAN, 3), (1, 1), r"nodes\[0\] .* got nan"),
        ((INF, 3), (1, 1), r"nodes\[0\] .* got inf"),
        (("4", 3), (1, 1), r"nodes\[0\] .* got '4'"),
        ((3, 2**63), (1, 1), r"nodes\[1\] .* got 9223372036854775808"),
        (None, (1,), r"nodes .* got None"),
        ((), (), r"nodes .* at least one"),
        ((2, 3), (NAN, 1), r"speeds\[0\] .* got nan"),
        ((2, 3), ("1", 1), r"speeds\[0\] .* got '1'"),
        ((2, 3), (1, 0), r"speeds\[1\] .* got 0"),
        ((2, 3), None, r"speeds .* got None"),
        ((2, 3), (1,), r"nodes has 2 clusters but speeds has 1"),
    ],
)
def test_multicluster_rejects_bad_nodes_and_speeds(nodes, speeds, match):
    with pytest.raises(InvalidParameter, match=match):
        MultiCluster(nodes, speeds)


@pytest.mark.parametrize("mean_size", [NAN, INF, 0, -1, "84", None])
def test_multicluster_rejects_bad_mean_size(mean_size):
    with pytest.raises(InvalidParameter, match=r"mean_size .* got"):
        MultiCluster((2, 3), (1, 1), mean_size)


def test_multicluster_accepts_integral_floats_and_numpy_arrays():
    system = MultiCluster(np.array([4.0, 3.0]), np.array([2, 1]))
    assert system.nodes == (4, 3) and all(type(n) is int for n in system.nodes)
    assert system.speeds == (2.0, 1.0) and system == MultiCluster((4, 3), (2.0, 1.0))
    assert MultiCluster(3, 1.0).nodes == (3,)


# ---------------------------------------------------------------- erlang_c


@pytest.mark.parametrize("servers", [NAN, INF, 2.5, "3", None, True, 0, 2**63, MAX_SERVERS + 1])
def test_erlang_c_rejects_bad_servers(servers):
    with pytest.raises(InvalidParameter, match=r"servers must be a whole number >= 1 and <= "):
        erlang_c(servers, 1.0)
    with pytest.raises(InvalidParameter, match="servers"):
        erlang_b(servers, 1.0)


@pytest.mark.parametrize("load", [NAN, INF, -1.0, "1", None])
def test_erlang_c_rejects_bad_offered_load(load):
    with pytest.raises(InvalidParameter, match=r"offered_load .* got"):
        erlang_c(3, load)


def test_erlang_c_accepts_an_integral_float_server_count():
    assert erlang_c(4.0, 1.0) == erlang_c(4, 1.0) == pytest.approx(1 / 49)
    assert mean_waiting_time(4.0, 1.0, 1.0) == mean_waiting_time(4, 1.0, 1.0)
    with pytest.raises(InvalidParameter, match="rate"):
        mean_waiting_time(4, "1", 1.0)


# ---------------------------------------------------------------- simulate


@pytest.mark.parametrize("seed", [1.5, -1, NAN, "1", None, True])
def test_simulate_rejects_a_bad_seed(seed):
    with pytest.raises(InvalidParameter, match=r"seed must be a whole number >= 0"):
        simulate(JOBS, [Cluster("a", 4)], seed=seed)


def test_simulate_checks_the_seed_even_when_every_job_is_dropped():
    with pytest.raises(InvalidParameter, match="seed"):
        simulate(JOBS.assign(procs=9), [Cluster("a", 4)], seed=1.5, drop_too_wide=True)


def test_simulate_accepts_an_integral_float_seed():
    jobs = pd.DataFrame({"submit": np.zeros(20), "runtime": np.ones(20), "procs": np.ones(20)})
    clusters = [Cluster("a", 4), Cluster("b", 4)]
    a = simulate(jobs, clusters, allocation="random_fit", seed=2.0).jobs
    b = simulate(jobs, clusters, allocation="random_fit", seed=2).jobs
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("make", [lambda cs: (c for c in cs), iter, tuple])
def test_simulate_lists_the_clusters_of_any_iterable(make):
    clusters = [Cluster("a", 4), Cluster("b", 2)]
    result = simulate(JOBS, make(clusters))
    assert result.clusters == clusters
    assert result.allocation.shape == (2, 2)


@pytest.mark.parametrize(
    ("clusters", "match"),
    [(None, "clusters .* got None"), (Cluster("a", 4), "clusters .* got Cluster"),
     ([], "at least one cluster"), ([("a", 4)], "Cluster objects")],
)  # fmt: skip
def test_simulate_rejects_bad_clusters(clusters, match):
    with pytest.raises(InvalidParameter, match=match):
        simulate(JOBS, clusters)


def test_simulate_rejects_more_than_2_to_the_53_processors_in_all():
    with pytest.raises(InvalidParameter, match="processors in all"):
        simulate(JOBS, [Cluster("a", 2**53), Cluster("b", 2**53)])


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"drop_too_wide": "no"}, r"drop_too_wide must be True or False, got 'no'"),
        ({"debug": "yes"}, r"debug must be True or False, got 'yes'"),
        ({"rate_model": "x"}, r"rate_model must be a \(name, params\) pair, got 'x'"),
        ({"rate_model": ("crowding", "a")}, r"rate model parameters .* 'a'"),
    ],
)
def test_simulate_rejects_bad_flags_and_rate_models(kw, match):
    with pytest.raises(InvalidParameter, match=match):
        simulate(JOBS, [Cluster("a", 4)], **kw)


# ---------------------------------------------------------------- split_wide_jobs


@pytest.mark.parametrize("max_procs", [2.5, NAN, INF, "8", None, True, 0])
def test_split_wide_jobs_rejects_a_bad_max_procs(max_procs):
    with pytest.raises(InvalidParameter, match=r"max_procs must be a whole number >= 1 and <= "):
        split_wide_jobs(SWF, max_procs)


def test_split_wide_jobs_accepts_an_integral_float_and_a_frame_without_req_procs():
    assert split_wide_jobs(SWF, 8.0)["procs"].tolist() == [8, 8, 4, 1]
    assert split_wide_jobs(SWF, 8.0).attrs["split_at"] == 8
    plain = SWF[["job", "submit", "runtime", "procs"]]
    assert split_wide_jobs(plain, 8)["procs"].tolist() == [8, 8, 4, 1]
    assert len(split_wide_jobs(SWF.iloc[:0], 8)) == 0


@pytest.mark.parametrize(("frame", "match"), [(None, "frame must be a pandas DataFrame"),
                                              (SWF.drop(columns="procs"), "procs")])  # fmt: skip
def test_split_wide_jobs_rejects_a_bad_frame(frame, match):
    with pytest.raises(InvalidParameter, match=match):
        split_wide_jobs(frame, 8)


# ---------------------------------------------------------------- scale_to_loading


@pytest.mark.parametrize("runtime", [0.0, NAN])
def test_scale_to_loading_needs_positive_total_work(runtime):
    with pytest.raises(InvalidParameter, match=r"total work .* must be > 0"):
        scale_to_loading(SWF.assign(runtime=runtime), 8, 0.5)


def test_scale_to_loading_names_a_negative_runtime():
    with pytest.raises(InvalidParameter, match=r"frame column 'runtime'.* >= 0"):
        scale_to_loading(SWF.assign(runtime=-5.0), 8, 0.5)


@pytest.mark.parametrize("total", [NAN, INF, 2.5, "8", None, 0])
def test_scale_to_loading_rejects_bad_total_processors(total):
    with pytest.raises(InvalidParameter, match=r"total_processors must be a whole number >= 1"):
        scale_to_loading(SWF, total, 0.5)


@pytest.mark.parametrize("target", [NAN, INF, 0, -1, "1", None])
def test_scale_to_loading_rejects_a_bad_target(target):
    with pytest.raises(InvalidParameter, match=r"target .* got"):
        scale_to_loading(SWF, 8, target)


def test_scale_to_loading_on_a_frame_without_req_procs():
    plain = SWF[["submit", "runtime", "procs"]]
    assert system_loading(scale_to_loading(plain, 8, 0.5), 8) == pytest.approx(0.5)
    with pytest.raises(InvalidParameter, match="frame must be a pandas DataFrame"):
        scale_to_loading(None, 8, 0.5)


# ---------------------------------------------------------------- speed_vectors


@pytest.mark.parametrize(
    ("nodes", "match"),
    [
        ([4, NAN, 3], r"nodes\[1\] .* got nan"),
        ([4, INF], r"nodes\[1\] .* got inf"),
        ([4, 2.5], r"nodes\[1\] .* got 2\.5"),
        (["4", 3], r"nodes\[0\] .* got '4'"),
        ([4, 0], r"nodes\[1\] .* got 0"),
        (None, r"nodes .* got None"),
        ("43", r"nodes .* got '43'"),
        ([4], "at least two clusters"),
        ([], "at least two clusters"),
    ],
)
def test_speed_vectors_validates_nodes_up_front(nodes, match):
    with pytest.raises(InvalidParameter, match=match):
        speed_vectors(nodes, 0.1, 2)


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"sh": "0.1"}, r"SH .* got '0\.1'"),
        ({"sh": None}, r"SH .* got None"),
        ({"n_vectors": 2.5}, r"n_vectors .* got 2\.5"),
        ({"n_vectors": -1}, r"n_vectors .* got -1"),
        ({"n_vectors": None}, r"n_vectors .* got None"),
        ({"seed": 1.5}, r"seed .* got 1\.5"),
        ({"seed": -1}, r"seed .* got -1"),
        ({"seed": None}, r"seed .* got None"),
        ({"max_tries": 0}, r"max_tries .* got 0"),
    ],
)
def test_speed_vectors_rejects_bad_parameters(kw, match):
    with pytest.raises(InvalidParameter, match=match):
        speed_vectors(**{"nodes": [4, 3], "sh": 0.1, "n_vectors": 2, **kw})


def test_speed_vectors_accepts_integral_floats():
    assert np.array_equal(speed_vectors([4.0, 3.0], 0.1, 2.0, 3), speed_vectors([4, 3], 0.1, 2, 3))
    assert speed_vectors([4, 3], 0.0, 0).shape == (0, 2)


# ---------------------------------------------------------------- simulate_dispatch

SYSTEM = MultiCluster((2, 3), (1.0, 1.0))


def dispatch(**kw):
    args = {"fractions": [0.5, 0.5], "dispatcher": "random", "stream": Stream(0.02),
            "n_jobs": 200, "warmup": 0, "cooldown": 0, **kw}  # fmt: skip
    system = args.pop("system", SYSTEM)
    return simulate_dispatch(system, args.pop("fractions"), args.pop("dispatcher"),
                             args.pop("stream"), **args)  # fmt: skip


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"warmup": 1.5}, r"warmup must be a whole number >= 0 and <= 100000000, got 1\.5"),
        ({"warmup": NAN}, r"warmup .* got nan"),
        ({"warmup": "1"}, r"warmup .* got '1'"),
        ({"cooldown": 1.5}, r"cooldown .* got 1\.5"),
        ({"cooldown": None}, r"cooldown .* got None"),
        ({"n_jobs": 200.5}, r"n_jobs .* got 200\.5"),
        ({"n_jobs": NAN}, r"n_jobs .* got nan"),
        ({"n_jobs": "100"}, r"n_jobs .* got '100'"),
        ({"n_jobs": 0}, r"n_jobs .* got 0"),
        ({"seed": 1.5}, r"seed .* got 1\.5"),
        ({"seed": -1}, r"seed .* got -1"),
        ({"seed": None}, r"seed .* got None"),
        ({"fractions": "ab"}, r"fractions .* 'ab'"),
        ({"fractions": [0.5, "a"]}, r"fractions .* 'a'"),
        ({"system": None}, r"system must be a MultiCluster, got None"),
        ({"stream": None}, r"stream must be a Stream, got None"),
        ({"slack": ("a", 1)}, r"slack lower limit lo .* got 'a'"),
    ],
)
def test_simulate_dispatch_rejects_bad_parameters(kw, match):
    with pytest.raises(InvalidParameter, match=match):
        dispatch(**kw)


def test_spike_slack_rejects_nan_weights():
    with pytest.raises(InvalidParameter, match=r"spike weights .*nan"):
        SpikeSlack((1.0,), (NAN,))


def test_simulate_dispatch_counts_whole_jobs():
    result = dispatch(warmup=2.0, cooldown=1, n_jobs=200.0)
    assert result.jobs == 197 and type(result.jobs) is int
    assert result.shares.sum() == pytest.approx(1.0)


# ---------------------------------------------------------------- Stream


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"mean_size": 0}, r"mean_size must be a finite number > 0, got 0"),
        ({"mean_size": NAN}, r"mean_size .* got nan"),
        ({"mean_size": INF}, r"mean_size .* got inf"),
        ({"mean_size": -1}, r"mean_size .* got -1"),
        ({"mean_size": "84"}, r"mean_size .* got '84'"),
        ({"mean_size": None}, r"mean_size .* got None"),
        ({"arrival_rate": "1"}, r"arrival_rate .* got '1'"),
        ({"arrival_rate": None}, r"arrival_rate .* got None"),
        ({"arrival_cv": "1"}, r"arrival_cv .* got '1'"),
        ({"arrival_cv": None}, r"arrival_cv .* got None"),
        ({"arrival_cv": 1e200}, r"arrival_cv .* 1e\+200"),
        ({"pareto": (1, 2)}, r"pareto must be .*\(k, q, alpha\).* got \(1, 2\)"),
        ({"pareto": None}, r"pareto .* got None"),
        ({"pareto": ("a", 2, 1)}, r"pareto.* got 'a'"),
        ({"pareto": (1, INF, 1)}, r"pareto.* got inf"),
        ({"pareto": (2, 1, 1)}, r"0 < k < q"),
    ],
)
def test_stream_rejects_bad_parameters(kw, match):
    with pytest.raises(InvalidParameter, match=match):
        Stream(**{"arrival_rate": 1.0, **kw})


def test_stream_sizes_have_the_requested_mean():
    rng = np.random.default_rng(0)
    assert Stream(1.0, mean_size=2).job_sizes(rng, 200_000).mean() == pytest.approx(2, rel=0.02)
    assert Stream(1, pareto=(15, 4241, 1)).pareto == (15.0, 4241.0, 1.0)
