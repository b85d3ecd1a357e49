"""The state-layout experiment (``benchmarks/state_layout.py``, issue 55) times one
Migration Only loop over two layouts of the state against the engine; its ratios mean
something only if that loop is the engine's algorithm. Here it gives the engine's
schedule bit for bit, with time stamps near zero and near 10^9 s."""

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from hpcmodels.bandwidth import SECTION6, workload

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import state_layout  # noqa: E402  (a benchmark script, found on the path above)


@pytest.mark.parametrize("offset", [0.0, 1e9])
def test_the_mirror_loop_gives_the_engines_schedule_in_both_layouts(offset):
    setup = replace(SECTION6, jobs_per_cluster=1_500)
    jobs = workload(setup, 3)
    jobs["submit"] += offset
    prepare, runs = state_layout.layouts(jobs, setup)
    state_layout.check_schedules(prepare, runs)
    state = runs["mirror, plain arrays"](prepare())
    assert (state.clus >= 0).all() and state.ctr[state_layout.QLEN] == 0
    assert (state.clus != jobs["origin"].to_numpy()).mean() > 0.01  # migrations happened
