import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hpcmodels.workloads import swf_frame
from hpcmodels.workloads.clean import apply_filter, completed_only, positive_runtime_and_procs
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

from logs import SDSC, need_log

# Huang & Chang 2006, Table 1 (queues 1, 2, 5 match the cleaned log exactly; docs/readings.md):
# jobs, max runtime, mean runtime (printed truncated to 2 decimals), max processors
HUANG_TABLE1 = {
    1: (4053, 21922, 267.13, 8),
    2: (6795, 64411, 6746.27, 128),
    5: (177, 42262, 462.46, 50),
}


def test_sdsc_counts():
    df = need_log(SDSC)
    assert len(df) == 59_715
    assert len(positive_runtime_and_procs(df)) == 54_034  # Shih prints 54,041 (older version)
    assert len(completed_only(df)) == 43_117
    counts = df["queue"].value_counts().to_dict()
    assert counts == {1: 5244, 2: 9965, 3: 30141, 4: 14009, 5: 283, 6: 73}


def test_huang_table1_queues_1_2_5():
    table = queue_summary(completed_only(need_log(SDSC)))
    for queue, (jobs, max_rt, mean_rt, max_procs) in HUANG_TABLE1.items():
        row = table.loc[queue]
        assert row["jobs"] == jobs and row["max_runtime"] == max_rt
        assert np.floor(row["mean_runtime"] * 100) / 100 == pytest.approx(mean_rt)
        assert row["max_procs"] == max_procs


def test_shih_table3_original_loading_a1_a2():
    jobs = positive_runtime_and_procs(need_log(SDSC))
    assert round(system_loading(jobs, 128 * 5), 2) == 0.17  # A1
    assert round(system_loading(jobs, 128 * 3 + 50 + 8), 2) == 0.24  # A2
    maxima = queue_summary(jobs).loc[1:5, "max_procs"].tolist()
    assert maxima == [8, 128, 128, 128, 50]  # Shih's A2 cluster sizes


def test_full_sdsc_log_gives_huang_56490():
    df = completed_only(need_log("SDSC-SP2-1998-4.2"))
    assert len(df) == 56_490


def test_anl_intrepid_split_gives_88205():
    jobs = positive_runtime_and_procs(need_log("ANL-Intrepid-2009-1"))
    assert len(jobs) == 68_936
    assert len(split_wide_jobs(jobs, 8192)) == 88_205


def test_das2_merged_gives_416836():
    logs = [need_log(f"DAS2-fs{k}-2003-1") for k in range(5)]
    assert len(positive_runtime_and_procs(merge_logs(logs))) == 416_836


def _jobs(n=6):
    return swf_frame(
        submit=np.arange(n) * 10.0,
        runtime=np.full(n, 100.0),
        procs=np.arange(1, n + 1),
        status=[1, 0] * (n // 2),
        queue=[1, 2] * (n // 2),
    )


def test_filters_by_name_and_fallback_to_requested_processors():
    df = _jobs()
    df.loc[0, "procs"] = np.nan
    df.loc[0, "req_procs"] = 4
    df.loc[1, "runtime"] = 0
    kept = apply_filter(df, "shih2013")
    assert len(kept) == 5 and kept.loc[0, "procs"] == 4
    assert kept.attrs["filters"] == ["positive_runtime_and_procs"]
    assert len(apply_filter(df, "huang2006")) == 3
    with pytest.raises(ValueError, match="unknown filter"):
        apply_filter(df, "tidy")


@given(st.lists(st.integers(1, 30_000), min_size=1, max_size=40), st.integers(1, 9000))
def test_split_preserves_processors_and_caps_width(widths, cap):
    df = swf_frame(submit=np.zeros(len(widths)), runtime=np.ones(len(widths)), procs=widths)
    out = split_wide_jobs(df, cap)
    assert out["procs"].max() <= cap and (out["procs"] > 0).all()
    assert out.groupby("split_from")["procs"].sum().tolist() == widths
    expected = sum(-(-w // cap) for w in widths)
    assert len(out) == expected


def test_split_example_of_the_paper():
    out = split_wide_jobs(swf_frame(submit=[0], runtime=[5], procs=[20_000]), 8192)
    assert out["procs"].tolist() == [8192, 8192, 3616]


def test_merge_aligns_on_unix_start_time():
    a, b = _jobs(2), _jobs(2)
    a.attrs["UnixStartTime"], b.attrs["UnixStartTime"] = 1000, 1005
    merged = merge_logs([a, b])
    assert merged["submit"].tolist() == [0, 5, 10, 15]
    assert merged["site"].tolist() == [0, 1, 0, 1] and merged["job"].tolist() == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="UnixStartTime"):
        merge_logs([_jobs(2), a])


def test_queue_to_site_and_unmapped_queues():
    df = _jobs()
    assert queue_to_site(df, {1: 0, 2: 1})["site"].tolist() == [0, 1] * 3
    with pytest.raises(ValueError, match="queues without a site"):
        queue_to_site(df, {1: 0})


def test_scaling_runtimes_reaches_the_target_loading():
    df = _jobs()
    scaled = scale_to_loading(df, 16, 0.75)
    assert system_loading(scaled, 16) == pytest.approx(0.75)
    assert scaled.attrs["runtime_factor"] == pytest.approx(0.75 / system_loading(df, 16))
    assert scale_runtimes(df, 2.0)["runtime"].tolist() == [200.0] * 6
    with pytest.raises(ValueError, match="> 0"):
        scale_runtimes(df, 0)


@given(
    st.lists(st.integers(1, 512), min_size=2, max_size=12),
    st.sampled_from([0.0, 0.1, 0.2]),
    st.integers(0, 2**31),
)
def test_speed_vectors_satisfy_eqs_3_and_4(nodes, sh, seed):
    v = speed_vectors(nodes, sh, 3, seed)
    assert v.shape == (3, len(nodes)) and (v > 0).all()
    assert np.mean((v - 1) ** 2, axis=1) == pytest.approx(np.full(3, sh), abs=1e-9)
    assert v @ np.asarray(nodes, float) == pytest.approx(np.full(3, float(sum(nodes))))


def test_speed_vectors_are_seeded():
    a = speed_vectors([128] * 5, 0.1, 10, seed=4)
    assert np.array_equal(a, speed_vectors([128] * 5, 0.1, 10, seed=4))
    assert not np.array_equal(a, speed_vectors([128] * 5, 0.1, 10, seed=5))
    with pytest.raises(ValueError, match="SH"):
        speed_vectors([1, 2], -0.1)


def test_f_model_estimates():
    df = swf_frame(submit=np.zeros(20_000), runtime=np.full(20_000, 100.0), procs=np.ones(20_000))
    est = estimate_inaccuracy(df, 4.0, seed=1)["estimate"]
    assert est.between(25.0, 400.0).all()
    assert (est > 100).mean() == pytest.approx(0.5, abs=0.02)
    assert estimate_inaccuracy(df, 1.0)["estimate"].eq(100.0).all()
    with pytest.raises(ValueError, match="inaccuracy factor"):
        estimate_inaccuracy(df, 0.5)


def test_queue_summary_columns():
    table = queue_summary(_jobs())
    assert list(table.columns) == ["jobs", "max_runtime", "mean_runtime", "max_procs", "mean_procs"]
    assert isinstance(table, pd.DataFrame) and table.loc[2, "max_procs"] == 6
