"""What a paper-scale replicate is (issue 24), for the papers whose replicates perturb a
trace: Shih's Table 4 and Huang's tables. A user comparing our ensembles with the paper
relies on replicate 0 being the log as it is, on replicate r scaling every runtime by
the common factor of :func:`hpcmodels.papers.ensemble.runtime_scale` and nothing else, on the
four Shih methods seeing the same jobs and speed vector, and on Shih's first ten
vectors being the quick run's ten."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hpcmodels.papers import huang2006 as huang
from hpcmodels.papers import shih2013 as shih
from hpcmodels.papers import store
from hpcmodels.papers.ensemble import runtime_scale
from hpcmodels.papers.shih2013.workloads import jobs_at_load, workload_spec
from hpcmodels.workloads.transforms import speed_vectors

from logs import SDSC, need_log


def test_shih_trace_replicates_scale_runtimes_and_nothing_else():
    need_log(SDSC)
    base = jobs_at_load("A1", "low", None, 0)
    assert shih.replicate_jobs("A1", "low", 0).equals(base)  # replicate 0: the log itself
    third = shih.replicate_jobs("A1", "low", 3)
    assert np.array_equal(third["runtime"], base["runtime"] * runtime_scale(3))
    assert third[["submit", "procs"]].equals(base[["submit", "procs"]])
    assert not np.array_equal(third["runtime"], base["runtime"])


def test_shih_model_replicates_are_workload_seeds():
    a, b = shih.replicate_jobs("E1", "low", 1), shih.replicate_jobs("E1", "low", 2)
    assert len(a) == len(b) == shih.ENSEMBLE_JOBS["E"]
    assert not a["runtime"].equals(b["runtime"])
    assert a.equals(jobs_at_load("E1", "low", shih.ENSEMBLE_JOBS["E"], 1))


def test_shih_first_ten_vectors_are_the_quick_runs():
    w = workload_spec("A2")
    twenty = speed_vectors(w.clusters, 0.2, shih.ENSEMBLE_VECTORS, seed=0)
    assert np.array_equal(twenty[:10], speed_vectors(w.clusters, 0.2, 10, seed=0))


def test_shih_points_cover_every_present_workload_and_each_gives_four_methods():
    points = [p for p in shih.ensemble_points() if p["study"] == "table4"]
    assert {p["replicate"] for p in points} == set(range(shih.ENSEMBLE_VECTORS))
    assert {(p["wid"], p["load"], p["sh"]) for p in points} >= {
        (w, lo, sh) for w in ("D1", "D2", "E1", "E2") for lo in shih.LOADS for sh in shih.SH_LEVELS
    }
    out = shih.ensemble_point(**dict(points[0], wid="E2", load="low", sh=0.1, replicate=4))
    assert out == shih.table4_point("E2", "low", 0.1, 4)
    methods = [k.split(": ")[-1] for k in out]
    assert methods == [f"{m} ATT (s)" for m in shih.METHODS]
    assert all(np.isfinite(v) and v > 0 for v in out.values())


@pytest.mark.parametrize("study, x", [("load", 2.0), ("slowdown", 4.0)])
def test_huang_replicates_scale_runtimes_by_the_common_factor(study, x):
    need_log(huang.CLEANED_LOG)
    point = dict(log=huang.ENSEMBLE_LOG, study=study, x=x)
    zero = huang.ensemble_point(**point, replicate=0)
    again = huang.ensemble_point(**point, replicate=0)
    assert zero == again  # a replicate is reproducible
    if study == "load":  # replicate r is the run at load factor x * runtime_scale(r)
        scaled = huang.simulate_run(huang.ENSEMBLE_LOG, huang.SINGLE_CLUSTER, "fcfs",
                                    load_factor=x * runtime_scale(5))  # fmt: skip
        five = huang.ensemble_point(**point, replicate=5)
        assert five[huang.ensemble_key("Table 2", "load factor", x, "FCFS")] == scaled["mean_wait"]
    else:
        assert set(zero) >= {huang.ensemble_key("Table 9", "slowdown", x, c)
                             for c in huang.TABLE9.columns}  # fmt: skip


def test_huang_points_are_fixed_on_the_stores_log():
    assert {p["log"] for p in huang.ensemble_points()} == {huang.ENSEMBLE_LOG}
    assert len(huang.ensemble_points()) == huang.ENSEMBLE_REPLICATES * (
        len(huang.LOAD_FACTORS) + len(huang.SLOWDOWNS)
    )


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: shih.replicate_jobs("Z9", "low", 0), "workload"),
        (lambda: shih.replicate_jobs("E1", "extreme", 0), "load"),
        (lambda: shih.replicate_jobs("E1", "low", -1), "replicate"),
        (lambda: shih.replicate_jobs("E1", "low", 1.5), "replicate"),
        (lambda: shih.replicate_jobs("E1", "low", float("nan")), "replicate"),
        (lambda: shih.replicate_jobs("E1", "low", "3"), "replicate"),
        (lambda: huang.ensemble_point(huang.ENSEMBLE_LOG, "speed", 1.0, 0), "study"),
        (lambda: huang.ensemble_point(huang.ENSEMBLE_LOG, "load", 1.0, -2), "replicate"),
        (lambda: store.relative_spread(None), "store"),
        (lambda: store.relative_spread(pd.DataFrame({"item": ["a"]})), "'value'"),
    ],
)
def test_bad_input_is_an_error_naming_the_field(call, field):
    with pytest.raises(ValueError) as err:
        call()
    assert field in str(err.value)


def test_relative_spread_of_a_store():
    frame = pd.DataFrame({"item": ["a", "a", "b", "b", "z", "z"],
                          "value": [1.0, 3.0, 10.0, 10.0, -1.0, 1.0]})  # fmt: skip
    spread = store.relative_spread(frame)
    assert spread["a"] == pytest.approx(np.sqrt(2) / 2) and spread["b"] == 0.0
    assert np.isnan(spread["z"])  # a mean of 0: no relative spread
