"""Shared state arrays (issue 55's memory per job): which fields of a fresh state share
one array, which must not, and that sharing never changes a result (the rules:
``state.new_state``'s docstring). Each case runs twice, with sharing and with
``new_state(share=False)`` (every field its own array), and the two schedules must be
bit-identical."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pytest

from hpcmodels.bandwidth import SECTION6, Network, workload
from hpcmodels.errors import InvalidParameter
from hpcmodels.multicluster import Cluster, engine, simulate
from hpcmodels.multicluster.state import NAMES, RUN_ONLY, new_state

CLUSTERS = [Cluster("a", 10), Cluster("b", 8, 1.5), Cluster("c", 12)]
JONES = SECTION6.scaled(1_500)  # 3 x 500 jobs drawn per cluster, sorted by submit


def _jobs(ordered: bool = True, n: int = 600) -> pd.DataFrame:
    """An overloaded workload with ``origin``; ``ordered=False`` shuffles its rows (the
    submit times no longer sorted)."""
    rng = np.random.default_rng(5)
    jobs = pd.DataFrame(
        {
            "submit": np.cumsum(rng.exponential(3.0, n)),
            "runtime": rng.exponential(60.0, n),
            "procs": rng.integers(1, 13, n),
            "origin": rng.integers(0, 3, n),
        }
    )
    return jobs if ordered else jobs.sample(frac=1.0, random_state=1, ignore_index=True)


def _estimated() -> pd.DataFrame:
    """:func:`_jobs` with estimates 1-3 x the run times (as backfilling's users give)."""
    jobs = _jobs()
    factor = np.random.default_rng(6).uniform(1.0, 3.0, len(jobs))
    return jobs.assign(estimate=jobs["runtime"] * factor)


DYNAMIC = dict(allocation="local_first", coallocation="larger_first", network=Network(bsbw=700.0))
CASES = {
    # name: (jobs, clusters, selection, keyword arguments of simulate)
    "fcfs sorted": (_jobs, CLUSTERS, "fcfs", {}),
    "fcfs unsorted": (lambda: _jobs(False), CLUSTERS, "fcfs", {}),
    "largest first": (_jobs, CLUSTERS, "largest_first", {}),
    "smallest first unsorted": (lambda: _jobs(False), CLUSTERS, "smallest_first", {}),
    "conservative": (_jobs, CLUSTERS, "conservative", {"allocation": "best_fit"}),
    "crowding": (_jobs, CLUSTERS, "fcfs", {"rate_model": ("crowding", [2, 0.5])}),
    "conservative estimated": (_estimated, CLUSTERS, "conservative", {"allocation": "best_fit"}),
    "crowding estimated": (_estimated, CLUSTERS, "easy",
                           {"rate_model": ("crowding", [2, 0.5])}),
    "migration only": (lambda: workload(JONES, 1), JONES.system, "first_available",
                       {"allocation": "local_first"}),
    "dynamic co-allocation": (lambda: workload(JONES, 1), JONES.system, "first_available",
                              DYNAMIC),
}  # fmt: skip
SHARED = {
    # name: (at_rank is order, qrank is order, anchor is start, rem_est is rem and pend end)
    "fcfs sorted": (True, True, True, True),
    "fcfs unsorted": (True, False, True, True),
    "largest first": (False, False, True, True),
    "smallest first unsorted": (False, False, True, True),
    "conservative": (True, True, True, True),
    "crowding": (True, True, False, True),
    "conservative estimated": (True, True, True, False),
    "crowding estimated": (True, True, False, False),
    "migration only": (True, True, True, True),
    "dynamic co-allocation": (True, True, False, True),
}


def _prepared(jobs, clusters, selection, options):
    options = dict(options)
    allocation = options.pop("allocation", "first_fit")
    return engine.prepare_run(
        jobs, clusters, selection, allocation, **(engine.SIMULATE_DEFAULTS | options)
    )


def _bits(values) -> np.ndarray:
    values = np.asarray(values)
    return values.view(np.int64) if values.dtype == np.float64 else values


@pytest.mark.parametrize("case", CASES)
def test_which_arrays_are_shared(case):
    make, clusters, selection, options = CASES[case]
    jobs = make()
    state = _prepared(jobs, clusters, selection, options).state
    at_rank, qrank, anchor, exact = SHARED[case]
    assert np.shares_memory(state.at_rank, state.order) == at_rank
    assert np.shares_memory(state.qrank, state.order) == qrank
    assert np.shares_memory(state.anchor, state.start) == anchor
    assert np.shares_memory(state.rem_est, state.rem) == exact
    assert np.shares_memory(state.pend, state.end) == exact
    for name in ("submit", "runtime", "procs", "origin"):  # the input's columns themselves
        assert np.shares_memory(getattr(state, name), jobs[name].to_numpy()), name
    # no estimate column: the runtime's array
    assert np.shares_memory(state.estimate, state.runtime) == ("estimate" not in jobs)
    for a, b in (("start", "end"), ("order", "heap"), ("rate", "pend"), ("rem", "end")):
        assert not np.shares_memory(getattr(state, a), getattr(state, b))


@pytest.mark.parametrize("case", CASES)
def test_sharing_never_changes_a_result(case, monkeypatch):
    make, clusters, selection, options = CASES[case]
    jobs = make()
    before = jobs.copy(deep=True)
    shared = simulate(jobs, clusters, selection, **options, debug=True)
    pd.testing.assert_frame_equal(jobs, before)  # the shared input columns were not written
    monkeypatch.setattr(engine, "new_state", functools.partial(new_state, share=False))
    alone = _prepared(jobs, clusters, selection, options).state
    for a, b in (("at_rank", "order"), ("qrank", "order"), ("anchor", "start")):
        assert not np.shares_memory(getattr(alone, a), getattr(alone, b))
    assert not np.shares_memory(alone.submit, jobs["submit"].to_numpy())
    separate = simulate(jobs, clusters, selection, **options, debug=True)
    for column in ("start", "end", "cluster"):
        assert np.array_equal(_bits(shared.jobs[column]), _bits(separate.jobs[column])), column
    assert shared.metrics.keys() == separate.metrics.keys()
    for key, value in shared.metrics.items():
        assert np.array_equal(_bits(value), _bits(separate.metrics[key])), key
    assert shared.counters == separate.counters
    assert (shared.allocation != separate.allocation).nnz == 0
    assert shared.allocation.dtype == separate.allocation.dtype


def test_integer_columns_are_read_as_before():
    """procs and origin given as int64 are the columns themselves; as floats (4.0 read as
    4) they are converted: the same run either way."""
    jobs = _jobs()
    as_float = jobs.astype({"procs": float, "origin": float})
    data, converted = engine._as_jobs(jobs), engine._as_jobs(as_float)
    for name in ("procs", "origin"):
        assert np.shares_memory(data[name], jobs[name].to_numpy())
        assert data[name].dtype == converted[name].dtype == np.int64
        assert np.array_equal(data[name], converted[name])
    a = simulate(jobs, CLUSTERS, "fcfs", "local_first")
    b = simulate(as_float, CLUSTERS, "fcfs", "local_first")
    for column in ("start", "end", "cluster"):
        assert np.array_equal(_bits(a.jobs[column]), _bits(b.jobs[column]))


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("procs", 0, r"procs = (np\.float64\()?0\.0"),
        ("procs", 2**53 + 2, r"procs = (np\.float64\()?9007199254740994\.0"),
        ("origin", -1, r"origin = (np\.float64\()?-1\.0"),
    ],
)
def test_integer_columns_out_of_range_are_named_as_before(column, value, message):
    """A value out of range leaves the int64 path: the float64 reading names it."""
    jobs = _jobs(n=5)
    jobs.loc[2, column] = value
    with pytest.raises(InvalidParameter, match=message):
        simulate(jobs, CLUSTERS, "fcfs", "local_first")


@pytest.mark.parametrize("case", ["dynamic co-allocation", "conservative"])
def test_finish_run_drops_only_the_running_engines_arrays(case):
    """finish_run empties the fields of RUN_ONLY (nothing after the run reads them) and
    the split entries' job-sized offsets and counts (once the allocation matrix has
    what it needs of them), and keeps the result's, the split entries and the inputs;
    the Result is simulate's."""
    make, clusters, selection, options = CASES[case]
    jobs = make()
    prepared = _prepared(jobs, clusters, selection, options)
    prepared.state = engine.run_to_end(prepared.state, prepared.rate_code, prepared.params)
    state = prepared.state
    dropped = (*RUN_ONLY, "split_off", "split_len")
    kept = {name: np.array(getattr(state, name)) for name in NAMES if name not in dropped}
    job_sized = ("order", "hpos", "rem", "split_len")
    assert all(getattr(state, name).size == len(jobs) for name in job_sized)
    result = engine.finish_run(prepared)
    for name in NAMES:
        if name in dropped:
            assert getattr(state, name).size == 0, name
        elif name != "slowdown":
            assert np.array_equal(_bits(getattr(state, name)), _bits(kept[name])), name
    again = simulate(jobs, clusters, selection, **options)
    for column in ("start", "end", "cluster"):
        assert np.array_equal(_bits(result.jobs[column]), _bits(again.jobs[column]))
    assert (result.allocation != again.allocation).nnz == 0
    assert result.metrics == again.metrics


def test_allocation_rows_filled_in_passes_are_the_one_pass_matrix(monkeypatch):
    """The allocation matrix filled ROWS_PER_PASS rows at a time (here 7, so that passes
    cut through co-allocated rows) is the one built in a single pass."""
    make, clusters, selection, options = CASES["dynamic co-allocation"]
    jobs = make()
    whole = simulate(jobs, clusters, selection, **options).allocation
    monkeypatch.setattr(engine, "ROWS_PER_PASS", 7)
    passes = simulate(jobs, clusters, selection, **options).allocation
    for name in ("data", "indices", "indptr"):
        assert np.array_equal(getattr(whole, name), getattr(passes, name)), name
        assert getattr(whole, name).dtype == getattr(passes, name).dtype == np.int64


def test_a_split_buffer_that_grows_keeps_every_split():
    """grow_split copies only the used split entries (its new tail is never written before
    a kernel writes it): a run whose co-allocated jobs outgrow the buffer several times
    gives the schedule and the allocation of a run whose buffer never had to grow."""
    rng = np.random.default_rng(5)
    n = 400
    jobs = pd.DataFrame({"submit": np.sort(rng.uniform(0, 2e3, n)) + 1e9,
                         "runtime": rng.uniform(1, 100, n),
                         "procs": rng.integers(9, 32, n)})  # fmt: skip
    clusters = [Cluster(f"c{k}", 4) for k in range(8)]  # 3-8 sites per job
    options = engine.SIMULATE_DEFAULTS | dict(coallocation="larger_first", debug=True)
    grown = engine.prepare_run(jobs, clusters, "fcfs", "first_fit", **options)
    roomy = engine.prepare_run(jobs, clusters, "fcfs", "first_fit", **options)
    room = 8 * n
    engine.set_split_buffers(roomy.state, np.empty(room, np.int64), np.empty(room, np.int64))
    sizes = [grown.state.split_site.size]
    while engine.run(grown.state, 0, np.empty(0), np.inf) == engine.NEED_ROOM:
        grown.state = engine.grow_split(grown.state)
        sizes.append(grown.state.split_site.size)
    assert engine.run(roomy.state, 0, np.empty(0), np.inf) == engine.DONE
    assert len(sizes) >= 3 and roomy.state.split_site.size == room  # grew twice; never
    a, b = engine.finish_run(grown), engine.finish_run(roomy)
    assert np.array_equal(a.allocation.toarray(), b.allocation.toarray())
    pd.testing.assert_frame_equal(a.jobs, b.jobs)
    assert (np.diff(a.allocation.indptr) >= 2).all()  # every job co-allocated
