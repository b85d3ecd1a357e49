"""EASY and conservative backfilling against an independent plain-Python scheduler
(``tests/backfill_reference.py``, which imports nothing from the engine) on the cleaned
SDSC SP2 log, on notebook 06's ground (Shih's A2 system at SH 0.1, the log scaled to
Shih's three loads, exact estimates): every job must start at the same time on the same
cluster.

``make test`` runs a 5,000-job slice that starts at t = 3e7 s, where an ulp of a time
stamp is 3.7e-9 s (issue 50: EASY skipped a third of the jobs it should have started
at high load, and every earlier check ran near t = 0); ``make verify`` runs the whole
log (``-m verify``)."""

import numpy as np
import pytest
from backfill_reference import ALLOCATIONS, conservative_reference, easy_reference

from hpcmodels.papers.across.ground import ground_clusters, ground_jobs
from hpcmodels.papers.shih2013.published import LOADS

from logs import SDSC, need_log

REFERENCES = {"easy": easy_reference, "conservative": conservative_reference}
SLICE_START, SLICE_JOBS = 3e7, 5000


def _differing(jobs, selection, allocation, replicate=0):
    """Jobs whose start or cluster differ between the engine and the reference."""
    from hpcmodels.multicluster import simulate

    clusters = ground_clusters(0.1, replicate)
    res = simulate(jobs, clusters, selection, allocation)
    start, _, cluster = REFERENCES[selection](
        jobs["submit"], jobs["runtime"], jobs["procs"], jobs["runtime"],
        [c.procs for c in clusters], [c.speed for c in clusters], allocation,
    )  # fmt: skip
    same = (res.jobs["start"].to_numpy() == start) & (res.jobs["cluster"].to_numpy() == cluster)
    return int((~same).sum())


def _slice(load: str) -> "pd.DataFrame":  # noqa: F821
    jobs = ground_jobs("SDSC SP2", load, 0)
    first = int(np.searchsorted(jobs["submit"].to_numpy(), SLICE_START))
    return jobs.iloc[first : first + SLICE_JOBS].reset_index(drop=True)


@pytest.mark.parametrize("allocation", ALLOCATIONS)
@pytest.mark.parametrize("selection", list(REFERENCES))
@pytest.mark.parametrize("load", list(LOADS))
def test_a_slice_of_the_log_at_large_time_stamps_matches_the_reference(load, selection, allocation):
    need_log(SDSC)
    jobs = _slice(load)
    assert jobs["submit"].iloc[0] >= SLICE_START and len(jobs) == SLICE_JOBS
    assert _differing(jobs, selection, allocation) == 0


@pytest.mark.verify
@pytest.mark.parametrize("replicate", (0, 1))
@pytest.mark.parametrize("allocation", ALLOCATIONS)
@pytest.mark.parametrize("selection", list(REFERENCES))
@pytest.mark.parametrize("load", list(LOADS))
def test_the_whole_log_matches_the_reference(load, selection, allocation, replicate):
    need_log(SDSC)
    jobs = ground_jobs("SDSC SP2", load, replicate)
    assert len(jobs) == 54_034
    assert _differing(jobs, selection, allocation, replicate) == 0
