"""Hand-computed schedules for every selection, allocation and co-allocation policy.

Every case is computed by hand in its comments from the package docstring of
:mod:`hpcmodels.multicluster` and asserted against both the engine and the pure-Python
oracle (``tests/engine_oracle.py``). Jobs are written ``Jk (submit, runtime, procs[,
estimate])``; clusters ``A(procs, speed)``; ``[s, e) X`` means "runs from s to e on
cluster X"; "free" counts processors.
"""

import math

import numpy as np
import pandas as pd
import pytest

from hpcmodels.multicluster import Cluster, simulate

from engine_oracle import oracle, oracle_metrics

A, B, C = 0, 1, 2
CO = -1  # co-allocated


def frame(jobs):
    """Rows ``(submit, runtime, procs)`` or ``(submit, runtime, procs, estimate)``."""
    cols = ["submit", "runtime", "procs", "estimate"][: len(jobs[0])]
    df = pd.DataFrame([list(j) for j in jobs], columns=cols)
    df["procs"] = df["procs"].astype(np.int64)
    for c in cols:
        if c != "procs":
            df[c] = df[c].astype(float)
    return df


def clusters_of(spec):
    return [Cluster(f"c{i}", p, s) for i, (p, s) in enumerate(spec)]


def check(jobs, spec, selection, allocation, expected, **kw):
    """Assert the oracle and the engine both give ``expected``: (start, end, cluster)
    per job in input order."""
    df = frame(jobs)
    want_start = [e[0] for e in expected]
    want_end = [e[1] for e in expected]
    want_cluster = [e[2] for e in expected]

    ref = oracle(df, spec, selection, allocation, **kw)
    assert list(ref["start"]) == pytest.approx(want_start), "oracle start"
    assert list(ref["end"]) == pytest.approx(want_end), "oracle end"
    assert list(ref["cluster"]) == want_cluster, "oracle cluster"

    res = simulate(df, clusters_of(spec), selection, allocation, **kw)
    got = res.jobs
    assert len(got) == len(df)
    for col in df.columns:  # the input columns are kept, in input order
        assert list(got[col]) == pytest.approx(list(df[col]))
    assert list(got["start"]) == pytest.approx(want_start), "engine start"
    assert list(got["end"]) == pytest.approx(want_end), "engine end"
    assert [int(c) for c in got["cluster"]] == want_cluster, "engine cluster"
    return res


# ---------------------------------------------------------------- selection policies

# One cluster A(4, 1). J0 (0, 10, 3), J1 (1, 5, 2), J2 (2, 2, 1).
# t=0: J0 [0, 10), free 1. t=1: J1 needs 2 > 1, waits. t=2: J2 (1 proc) fits the 1 free.
#   fcfs: the head J1 blocks, J2 waits; t=10: J1 [10, 15), J2 [10, 12) (free 4-2-1).
#   first_available: J2 [2, 4).  At t=10 J1 [10, 15).
#   conservative: at t=2, J1 holds [10, 15) x 2; J2 fits [2, 4) (3 + 1 <= 4) -> starts.
#   easy: head J1, shadow 10 (J0's predicted end), extra 4-2 = 2; J2 ends 4 <= 10 -> starts.
CASE_BACKFILL = [(0, 10, 3), (1, 5, 2), (2, 2, 1)]


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        ("fcfs", [(0, 10, A), (10, 15, A), (10, 12, A)]),
        ("first_available", [(0, 10, A), (10, 15, A), (2, 4, A)]),
        ("conservative", [(0, 10, A), (10, 15, A), (2, 4, A)]),
        ("easy", [(0, 10, A), (10, 15, A), (2, 4, A)]),
    ],
)
def test_fcfs_blocks_and_the_others_backfill(selection, expected):
    check(CASE_BACKFILL, [(4, 1.0)], selection, "first_fit", expected)


# A(4, 1). J0 (0, 10, 4), J1 (1, 5, 3), J2 (2, 5, 1), J3 (3, 5, 2), J4 (4, 5, 1).
# Nothing fits before t=10, when J0 frees all 4 processors.
#   smallest_first order (procs, arrival): J2, J4, J3, J1. J2 -> free 3, J4 -> 2, J3 -> 0,
#     J1 waits; t=15 all three end, J1 [15, 20).
#   largest_first order (-procs, arrival): J1, J3, J2, J4. J1 -> free 1, J3 no, J2 -> 0,
#     J4 no; t=15 (J1, J2 end, free 4): order J3, J4 -> both [15, 20).
#   fcfs: J1 -> 1, J2 -> 0, J3 blocks; t=15: J3 -> 2, J4 -> 1.
#   first_available: J1 -> 1, J2 -> 0, J3 no, J4 no; t=15 as fcfs.
CASE_ORDER = [(0, 10, 4), (1, 5, 3), (2, 5, 1), (3, 5, 2), (4, 5, 1)]


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        ("smallest_first", [(0, 10, A), (15, 20, A), (10, 15, A), (10, 15, A), (10, 15, A)]),
        ("largest_first", [(0, 10, A), (10, 15, A), (10, 15, A), (15, 20, A), (15, 20, A)]),
        ("fcfs", [(0, 10, A), (10, 15, A), (10, 15, A), (15, 20, A), (15, 20, A)]),
        ("first_available", [(0, 10, A), (10, 15, A), (10, 15, A), (15, 20, A), (15, 20, A)]),
    ],
)
def test_queue_orders(selection, expected):
    check(CASE_ORDER, [(4, 1.0)], selection, "first_fit", expected)


def test_arrival_order_is_by_submit_time_then_input_order():
    # A(1, 1). Input rows: J0 (5, 1, 1), J1 (0, 3, 1), J2 (0, 2, 1).
    # Arrival order J1, J2 (tie at 0: input order), J0. fcfs:
    # t=0: J1 [0, 3); J2 waits. t=3: J2 [3, 5). t=5: J2 ends, then J0 arrives: [5, 6).
    check(
        [(5, 1, 1), (0, 3, 1), (0, 2, 1)],
        [(1, 1.0)],
        "fcfs",
        "first_fit",
        [(5, 6, A), (0, 3, A), (3, 5, A)],
    )


# A(4, 1). J0 (0, 10, 3), J1 (1, 4, 3), J2 (2, 10, 4), J3 (3, 12, 1).
# conservative:
#   t=0: J0 [0, 10), free 1.
#   t=1: J1 reserved [10, 14) x3 (at 1: 3+3 > 4).
#   t=2: J2 (4 procs): not at 2 (J0), not at 10 (J1 holds 3) -> reserved [14, 24).
#   t=3: J3 (1 proc, 12 s) fits now (free 1) but [3, 15) overlaps J2's [14, 24) x4:
#        4+1 > 4, so it must NOT start (it would delay J2). At 10 and 14 the same;
#        reserved [24, 36).
#   t=10: J0 ends; J1 starts [10, 14). t=14: J2 [14, 24). t=24: J3 [24, 36).
# easy:
#   t=1: head J1, shadow 10 (J0's predicted end, free 4 then), extra 4-3 = 1.
#   t=3: J3 fits (free 1), ends 15 > 10 but uses 1 <= extra 1 -> backfilled [3, 15).
#   t=10: free 3 -> J1 [10, 14); J2 head, shadow 15 (free 4 when J3 ends).
#   t=15: J2 [15, 25) -- one second later than under conservative: EASY lets J3 delay
#   the non-head job J2.
# first_available: J3 starts at 3 too, and then exactly as easy.
# fcfs: J3 waits behind J2 -> same as conservative.
CASE_CONSERVATIVE = [(0, 10, 3), (1, 4, 3), (2, 10, 4), (3, 12, 1)]
CONSERVATIVE_SCHEDULE = [(0, 10, A), (10, 14, A), (14, 24, A), (24, 36, A)]
EASY_SCHEDULE = [(0, 10, A), (10, 14, A), (15, 25, A), (3, 15, A)]


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        ("conservative", CONSERVATIVE_SCHEDULE),
        ("fcfs", CONSERVATIVE_SCHEDULE),
        ("easy", EASY_SCHEDULE),
        ("first_available", EASY_SCHEDULE),
    ],
)
def test_conservative_does_not_start_a_job_that_delays_a_later_reservation(selection, expected):
    check(CASE_CONSERVATIVE, [(4, 1.0)], selection, "first_fit", expected)


# A(4, 1). J0 (0, 10, 2), J1 (1, 10, 4), J2 (2, 12, 2), J3 (3, 7, 2).
# conservative: J1 reserved [10, 20). J2 at 2: [2, 14) overlaps J1 -> reserved [20, 32).
#   J3 at 3: [3, 10) next to J0 (2+2 <= 4), ends before J1's reservation -> starts.
#   t=10: J0, J3 end; J1 [10, 20). t=20: J2 [20, 32).
# easy: head J1, shadow 10, extra 0. J2 ends 14 > 10 and 2 > 0 -> no (it would delay the
#   head). J3 ends 3+7 = 10 <= 10 -> backfilled [3, 10). Then as conservative.
# first_available: J2 fits at 2 -> [2, 14) (delaying the head). J3 at 3: free 0.
#   t=10: J0 ends, free 2: J1 no, J3 [10, 17). t=14: free 2. t=17: J1 [17, 27).
# fcfs: J1 [10, 20); t=20: J2 -> free 2, J3 -> free 0: both start at 20.
CASE_HEAD = [(0, 10, 2), (1, 10, 4), (2, 12, 2), (3, 7, 2)]


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        ("conservative", [(0, 10, A), (10, 20, A), (20, 32, A), (3, 10, A)]),
        ("easy", [(0, 10, A), (10, 20, A), (20, 32, A), (3, 10, A)]),
        ("first_available", [(0, 10, A), (17, 27, A), (2, 14, A), (10, 17, A)]),
        ("fcfs", [(0, 10, A), (10, 20, A), (20, 32, A), (20, 27, A)]),
    ],
)
def test_backfilling_never_delays_the_head(selection, expected):
    check(CASE_HEAD, [(4, 1.0)], selection, "first_fit", expected)


def test_easy_extra_processors_are_consumed_within_a_session():
    # A(8, 1). J0 (0, 10, 6), J1 (1, 5, 7), J2 (2, 20, 1), J3 (2, 20, 1), J4 (2, 8, 1).
    # t=0: J0 [0, 10), free 2. t=1: head J1, shadow 10, extra 8-7 = 1.
    # t=2 (one session): J2 ends 22 > 10, 1 <= extra 1 -> starts, extra 0, free 1.
    #   J3: ends 22 > 10 and 1 > extra 0 -> waits. J4 ends 2+8 = 10 <= 10 -> starts
    #   (consumes nothing), free 0.
    # t=10: J0 and J4 end: free 8-1 = 7 -> J1 [10, 15), free 0; J3 head.
    # t=15: J1 ends -> J3 [15, 35).
    check(
        [(0, 10, 6), (1, 5, 7), (2, 20, 1), (2, 20, 1), (2, 8, 1)],
        [(8, 1.0)],
        "easy",
        "first_fit",
        [(0, 10, A), (10, 15, A), (2, 22, A), (15, 35, A), (2, 10, A)],
    )


def test_easy_judges_backfill_by_the_estimate():
    # A(4, 1). J0 (0, 10, 2) [0, 10), free 2. J1 (1, 5, 4): head, shadow 10, extra 0.
    # t=2: J2 (2, 5, 2, est 9) would really end at 7 but by its estimate at 11 > 10 and
    #   2 > extra 0 -> not backfilled. J3 (2, 5, 2, est 8) ends by estimate at 10 <= 10 ->
    #   backfilled [2, 7), free 0.
    # t=7: J3 ends, free 2; J2 by estimate 7 + 9 = 16 > 10 -> still waits.
    # t=10: J0 ends -> J1 [10, 15); t=15: J2 [15, 20).
    check(
        [(0, 10, 2, 10), (1, 5, 4, 5), (2, 5, 2, 9), (2, 5, 2, 8)],
        [(4, 1.0)],
        "easy",
        "first_fit",
        [(0, 10, A), (10, 15, A), (15, 20, A), (2, 7, A)],
    )


def test_easy_shadow_uses_the_predicted_end_of_an_overrunning_job():
    # A(4, 1). J0 (0, 10, 2, est 4) [0, 10). J1 (1, 5, 4): head; J0's predicted end is
    # 4, so shadow 4, extra 0. t=2: J2 (2, 3, 2, est 3) ends 5 > 4 -> not backfilled.
    # No event until t=10 (nothing ends or arrives): J0 ends -> J1 [10, 15); J2 head.
    # t=15: J2 [15, 18).
    check(
        [(0, 10, 2, 4), (1, 5, 4, 5), (2, 3, 2, 3)],
        [(4, 1.0)],
        "easy",
        "first_fit",
        [(0, 10, A), (10, 15, A), (15, 18, A)],
    )
    # With first_available J2 starts at 2 [2, 5), and J1 at 10.
    check(
        [(0, 10, 2, 4), (1, 5, 4, 5), (2, 3, 2, 3)],
        [(4, 1.0)],
        "first_available",
        "first_fit",
        [(0, 10, A), (10, 15, A), (2, 5, A)],
    )


def test_easy_backfills_freely_off_the_head_cluster():
    # A(4, 1), B(4, 1); first_fit. J0 (0, 10, 3) -> A [0, 10) (free A1).
    # J1 (0, 20, 3) -> B [0, 20) (free B1). J2 (1, 5, 4): fits nowhere; its earliest start
    # is 10 on A (20 on B): shadow 10 on A, extra 0.
    # J3 (2, 30, 1): fits A and B; on A (the head's cluster) it ends 32 > 10 and 1 > 0,
    # so A is not a candidate; B is unrestricted -> first_fit over {B}: [2, 32) B.
    # (Reading: the EASY condition filters the candidate clusters; the allocation policy
    # then chooses among those that remain.)
    # t=10: J0 ends, J2 [10, 15) A.
    check(
        [(0, 10, 3), (0, 20, 3), (1, 5, 4), (2, 30, 1)],
        [(4, 1.0), (4, 1.0)],
        "easy",
        "first_fit",
        [(0, 10, A), (0, 20, B), (10, 15, A), (2, 32, B)],
    )


@pytest.mark.parametrize(
    ("allocation", "expected"),
    [
        # J0 (0, 10, 2) ties at t=0 on A (free 2) and B (free 4).
        # first_fit/best_fit: A. Then J1 (1, 10, 4) fits B now: [1, 11) B.
        ("first_fit", [(0, 10, A), (1, 11, B)]),
        ("best_fit", [(0, 10, A), (1, 11, B)]),
        # worst_fit: B (free 4 > 2), so J1 (4 procs, only B) is reserved [10, 20) on B.
        ("worst_fit", [(0, 10, B), (10, 20, B)]),
    ],
)
def test_conservative_places_by_the_allocation_policy_among_tied_clusters(allocation, expected):
    check([(0, 10, 2), (1, 10, 4)], [(2, 1.0), (4, 1.0)], "conservative", allocation, expected)


def test_conservative_recomputes_reservations_at_every_event():
    # A(2, 1), B(2, 2). J0 (0, 20, 2, est 20) -> A [0, 20).
    # J1 (0, 20, 2, est 40) -> B [0, 10) (runtime 20 / speed 2), predicted end 40/2 = 20.
    # J2 (1, 10, 2, est 10): earliest 20 on A, 20 on B -> reserved at 20 on A (lowest).
    # t=10: J1 really ends; recomputed: B is free now -> J2 starts [10, 15) on B.
    check(
        [(0, 20, 2, 20), (0, 20, 2, 40), (1, 10, 2, 10)],
        [(2, 1.0), (2, 2.0)],
        "conservative",
        "first_fit",
        [(0, 20, A), (0, 10, B), (10, 15, B)],
    )


def test_conservative_with_an_overrunning_job():
    # A(3, 1). J0 (0, 10, 2, est 5) [0, 10), free 1; in the profile it counts until
    # max(0 + 5, t).
    # t=6: J1 (6, 3, 2) and J2 (6, 1, 1) arrive. J1's earliest time is 6 (J0 counts until
    # 6 only) but only 1 processor is really free -> J1 keeps the reservation [6, 9) x2.
    # J2: at 6 the profile has J1's 2 -> 2+1 <= 3, and 1 is really free -> [6, 7).
    # t=7: J2 ends; J1 still does not fit (free 1). t=10: J0 ends -> J1 [10, 13).
    check(
        [(0, 10, 2, 5), (6, 3, 2, 3), (6, 1, 1, 1)],
        [(3, 1.0)],
        "conservative",
        "first_fit",
        [(0, 10, A), (10, 13, A), (6, 7, A)],
    )


# ---------------------------------------------------------------- allocation policies

# A(3, 1), B(5, 1), C(4, 1); first_available; all jobs (0, 10, .): procs 2, 2, 2, 3.
# first_fit:  J0 A (A1); J1 B (A1 too few; B3); J2 B (B1); J3 C (only C has 3; C1).
# best_fit:   J0 A (free 3 < 4 < 5; A1); J1 C (B5, C4 -> C2); J2 C (B5, C2 -> C0);
#             J3 B (B5 only).
# worst_fit:  J0 B (B3); J1 C (A3, B3, C4 -> C2); J2 A (A3, B3 tie -> lowest, A1);
#             J3 B (B3 only).
# median_fit: J0: sorted (free, index) [A3, C4, B5], element (3-1)//2 = 1 -> C (C2);
#             J1: [C2, A3, B5] -> A (A1); J2: [C2, B5] -> element 0 -> C (C0); J3 B.
# median_fit_upper: element k // 2 -- J0: [A3, C4, B5] -> C (C2); J1: [C2, A3, B5] -> A
#             (A1); J2: [C2, B5] -> element 1 -> B (B3); J3: [B3] -> B.
# random_fit (seed 0): u = default_rng(0).random(4) = 0.637, 0.270, 0.041, 0.017.
#             J0: 3 candidates, floor(0.637*3) = 1 -> B (B3); J1: [A3, B3, C4],
#             floor(0.270*3) = 0 -> A (A1); J2: [B3, C4], floor(0.041*2) = 0 -> B (B1);
#             J3: [C4], floor(0.017*1) = 0 -> C.
# fastest_first with equal speeds: lowest index, as first_fit.
CASE_PLACE = [(0, 10, 2), (0, 10, 2), (0, 10, 2), (0, 10, 3)]


@pytest.mark.parametrize(
    ("allocation", "where"),
    [
        ("first_fit", [A, B, B, C]),
        ("best_fit", [A, C, C, B]),
        ("worst_fit", [B, C, A, B]),
        ("median_fit", [C, A, C, B]),
        ("median_fit_upper", [C, A, B, B]),
        ("random_fit", [B, A, B, C]),
        ("fastest_first", [A, B, B, C]),
    ],
)
def test_allocation_policies(allocation, where):
    check(
        CASE_PLACE,
        [(3, 1.0), (5, 1.0), (4, 1.0)],
        "first_available",
        allocation,
        [(0, 10, c) for c in where],
    )


def test_random_fit_draws_one_uniform_per_started_job():
    u = np.random.default_rng(0).random(5)
    assert u == pytest.approx([0.63696, 0.26979, 0.04097, 0.01653, 0.81327], abs=1e-5)
    # A(2), B(2), C(2); first_available; all (0, 10, 2) except J4 (0, 10, 1).
    # t=0: J0 [A,B,C] floor(0.637*3) = 1 -> B; J1 [A,C] floor(0.270*2) = 0 -> A;
    #      J2 [C] -> C (draws u2); J3, J4 find no room and draw nothing.
    # t=10: all free. J3 [A,B,C] floor(0.017*3) = 0 -> A; J4 [B,C] floor(0.813*2) = 1 -> C.
    check(
        [(0, 10, 2), (0, 10, 2), (0, 10, 2), (0, 10, 2), (0, 10, 1)],
        [(2, 1.0), (2, 1.0), (2, 1.0)],
        "first_available",
        "random_fit",
        [(0, 10, B), (0, 10, A), (0, 10, C), (10, 20, A), (10, 20, C)],
        seed=0,
    )


def test_speed_and_fastest_first():
    # A(2, 1), B(2, 2), C(2, 2); fcfs. J0..J2 (0, 10, 2), J3 (1, 10, 2).
    # fastest_first: J0 -> B (speed 2; B, C tie -> lowest) [0, 5): runtime 10 / speed 2.
    #   J1 -> C [0, 5). J2 -> A [0, 10). t=1: J3 waits. t=5: B, C free -> B [5, 10).
    spec = [(2, 1.0), (2, 2.0), (2, 2.0)]
    jobs = [(0, 10, 2), (0, 10, 2), (0, 10, 2), (1, 10, 2)]
    check(jobs, spec, "fcfs", "fastest_first", [(0, 5, B), (0, 5, C), (0, 10, A), (5, 10, B)])
    # first_fit: J0 A [0, 10), J1 B [0, 5), J2 C [0, 5); t=5: J3 -> B [5, 10).
    check(jobs, spec, "fcfs", "first_fit", [(0, 10, A), (0, 5, B), (0, 5, C), (5, 10, B)])


def test_slow_cluster_stretches_runtime():
    # A(1, 0.5): runtime 4 runs 8 s; J1 waits for it.
    check([(0, 4, 1), (1, 1, 1)], [(1, 0.5)], "fcfs", "first_fit", [(0, 8, A), (8, 10, A)])


# ---------------------------------------------------------------- co-allocation


@pytest.mark.parametrize(
    ("heuristic", "expected"),
    [
        # A(3, 4), B(1, 1), C(2, 2); fcfs, first_fit, slowdown 1.5.
        # J0 (0, 10, 4) is wider than every cluster; free A3, B1, C2 (total 6 >= 4).
        # fixed_order: A3, B1 -> slowest speed 1 -> 10 * 1.5 / 1 = 15 s.
        #   J1 (0, 10, 1): free A0 B0 C2 -> C [0, 5).
        ("fixed_order", [(0, 15, CO), (0, 5, C)]),
        # larger_first: A3, C1 (rest) -> slowest 2 -> 7.5 s. Free A0 B1 C1 -> J1 B [0, 10).
        ("larger_first", [(0, 7.5, CO), (0, 10, B)]),
        # smaller_first: B1, C2, A1 (rest) -> slowest 1 -> 15 s. Free A2 -> J1 A [0, 2.5).
        ("smaller_first", [(0, 15, CO), (0, 2.5, A)]),
    ],
)
def test_coallocation_heuristics(heuristic, expected):
    check(
        [(0, 10, 4), (0, 10, 1)],
        [(3, 4.0), (1, 1.0), (2, 2.0)],
        "fcfs",
        "first_fit",
        expected,
        coallocation=heuristic,
        slowdown=1.5,
    )


@pytest.mark.parametrize("heuristic", ["fixed_order", "larger_first", "smaller_first"])
def test_coallocation_skips_sites_without_free_processors(heuristic):
    # A(2, 0.5), B(2, 1), C(2, 1); fcfs, first_fit, slowdown 1.
    # J0 (0, 10, 2) -> A [0, 20). J1 (0, 10, 1) -> B (B1). J2 (0, 10, 3): no single site;
    # free A0 B1 C2 = 3. Every heuristic uses B1 + C2 (A has nothing to give and is not
    # one of J2's sites, so the slowest speed is 1): [0, 10) co-allocated.
    check(
        [(0, 10, 2), (0, 10, 1), (0, 10, 3)],
        [(2, 0.5), (2, 1.0), (2, 1.0)],
        "fcfs",
        "first_fit",
        [(0, 20, A), (0, 10, B), (0, 10, CO)],
        coallocation=heuristic,
    )


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        # A(2, 1), B(2, 1); fixed_order, slowdown 2.
        # J0 (0, 10, 1) -> A (A1). J1 (0, 10, 2) fits B alone -> B [0, 10), no co-allocation.
        # J2 (1, 4, 3): free 1 < 3, waits. J3 (2, 4, 1):
        # fcfs: blocked behind J2. t=10: free A2 B2: J2 -> A2, B1: [10, 18) (4 * 2 / 1);
        #   J3 -> B [10, 14).
        ("fcfs", [(0, 10, A), (0, 10, B), (10, 18, CO), (10, 14, B)]),
        # first_available: J3 -> A [2, 6). t=6: free A1 only. t=10: J2 [10, 18).
        ("first_available", [(0, 10, A), (0, 10, B), (10, 18, CO), (2, 6, A)]),
    ],
)
def test_coallocation_waits_until_the_sites_together_suffice(selection, expected):
    check(
        [(0, 10, 1), (0, 10, 2), (1, 4, 3), (2, 4, 1)],
        [(2, 1.0), (2, 1.0)],
        selection,
        "first_fit",
        expected,
        coallocation="fixed_order",
        slowdown=2.0,
    )


def test_coallocation_with_smallest_first():
    # A(2, 1), B(2, 1); smallest_first, larger_first, slowdown 1.
    # J0 (0, 5, 4) spans A2 + B2 [0, 5). J1 (1, 5, 3), J2 (1, 5, 1) wait.
    # t=5: order J2 (1 proc), J1: J2 -> A (A1); J1: free A1 B2 = 3, no single site,
    # larger_first B2, A1 -> [5, 10) co-allocated.
    check(
        [(0, 5, 4), (1, 5, 3), (1, 5, 1)],
        [(2, 1.0), (2, 1.0)],
        "smallest_first",
        "first_fit",
        [(0, 5, CO), (5, 10, CO), (5, 10, A)],
        coallocation="larger_first",
    )


# ---------------------------------------------------------------- simultaneous events


@pytest.mark.parametrize("selection", ["fcfs", "first_available", "smallest_first", "largest_first", "conservative", "easy"])  # fmt: skip
def test_finish_then_submission_at_the_same_time(selection):
    # A(2, 1). J0 (0, 5, 2) [0, 5). J1 (5, 3, 2): at t=5 J0 first frees its 2 processors,
    # then J1 joins and starts [5, 8).
    check([(0, 5, 2), (5, 3, 2)], [(2, 1.0)], selection, "first_fit", [(0, 5, A), (5, 8, A)])


@pytest.mark.parametrize("selection", ["fcfs", "first_available", "smallest_first", "largest_first", "conservative", "easy"])  # fmt: skip
def test_zero_runtime_job_triggers_another_session(selection):
    # A(2, 1). J0 (0, 0, 2) starts and ends at 0; J1 (0, 4, 2) does not fit in that
    # session (free 0) but does in the session its finish triggers at t=0: [0, 4).
    check([(0, 0, 2), (0, 4, 2)], [(2, 1.0)], selection, "first_fit", [(0, 0, A), (0, 4, A)])


# ---------------------------------------------------------------- metrics


def test_metrics_by_hand():
    # A(2, 1), fcfs. J0 (0, 20, 2), J1 (1, 12, 1), J2 (2, 0, 1).
    # t=0: J0 [0, 20). t=20: J1 [20, 32), J2 [20, 20).
    # wait 0, 19, 18; turnaround 20, 31, 18; execution 20, 12, 0.
    # mean_wait = 37/3; att = 69/3 = 23.
    # mean_waiting_ratio over execution > 0: (0/20 + 19/12) / 2 = 19/24.
    # waiting_ratio_of_means = (37/3) / (32/3) = 37/32.
    # bounded slowdown: max(20/20, 1) = 1, max(31/12, 1) = 31/12, max(18/10, 1) = 1.8.
    # utilization = (2*20 + 1*12 + 0) / (2 * (32 - 0)) = 52/64.
    # mean_queue_length: 0 on [0,1), 1 on [1,2), 2 on [2,20), 0 after: (1 + 36)/32.
    jobs = [(0, 20, 2), (1, 12, 1), (2, 0, 1)]
    want = {
        "mean_wait": 37 / 3,
        "att": 23.0,
        "mean_waiting_ratio": 19 / 24,
        "waiting_ratio_of_means": 37 / 32,
        "mean_bounded_slowdown": (1 + 31 / 12 + 1.8) / 3,
        "utilization": 52 / 64,
        "mean_queue_length": 37 / 32,
    }
    res = check(jobs, [(2, 1.0)], "fcfs", "first_fit", [(0, 20, A), (20, 32, A), (20, 20, A)])
    ref = oracle_metrics(
        frame(jobs), oracle(frame(jobs), [(2, 1.0)], "fcfs", "first_fit"), [(2, 1.0)]
    )
    for key, value in want.items():
        assert ref[key] == pytest.approx(value, rel=1e-12), key
        assert res.metrics[key] == pytest.approx(value, rel=1e-12), key


def test_utilization_counts_every_cluster_and_speed():
    # A(1, 1), B(1, 2); first_fit. J0 (0, 8, 1) -> A [0, 8); J1 (0, 8, 1) -> B [0, 4).
    # utilization = (8 + 4) / (2 * 8) = 0.75; nobody waits: mean_queue_length 0.
    jobs = [(0, 8, 1), (0, 8, 1)]
    res = check(jobs, [(1, 1.0), (1, 2.0)], "fcfs", "first_fit", [(0, 8, A), (0, 4, B)])
    assert res.metrics["utilization"] == pytest.approx(0.75)
    assert res.metrics["mean_queue_length"] == pytest.approx(0.0)
    assert res.metrics["mean_wait"] == pytest.approx(0.0)
    assert res.metrics["mean_waiting_ratio"] == pytest.approx(0.0)
    assert not math.isnan(res.metrics["mean_bounded_slowdown"])


# ---------------------------------------------------------------- bad input
# The exact wording of the engine's messages is a guess; these check a key word only.

GOOD = [(0, 10, 1), (1, 5, 2)]


def bad(jobs, spec=((2, 1.0),), selection="fcfs", allocation="first_fit", match="", **kw):
    df = jobs if isinstance(jobs, pd.DataFrame) else frame(jobs)
    with pytest.raises(ValueError, match=match):
        oracle(df, list(spec), selection, allocation, **kw)
    with pytest.raises(ValueError, match=match):
        simulate(df, clusters_of(spec), selection, allocation, **kw)


def test_bad_input_negative_runtime():
    bad([(0, -1, 1)], match="(?i)runtime")


def test_bad_input_procs_below_one():
    bad([(0, 10, 0)], match="(?i)procs")


def test_bad_input_empty_job_table():
    empty = pd.DataFrame({"submit": [], "runtime": [], "procs": []})
    bad(empty, match="(?i)empty|no jobs")


@pytest.mark.parametrize(
    ("kw", "word"),
    [
        ({"selection": "sjf"}, "sjf"),
        ({"allocation": "next_fit"}, "next_fit"),
        ({"coallocation": "round_robin"}, "round_robin"),
    ],
)
def test_bad_input_unknown_policy_names(kw, word):
    bad(GOOD, match=f"(?i)unknown.*{word}|{word}.*unknown", **kw)


def test_bad_input_job_wider_than_every_cluster():
    bad([(0, 10, 3)], spec=((2, 1.0), (2, 1.0)), match="(?i)wider")


def test_bad_input_job_wider_than_all_clusters_with_coallocation():
    bad([(0, 10, 5)], spec=((2, 1.0), (2, 1.0)), match="(?i)wider", coallocation="fixed_order")


@pytest.mark.parametrize("selection", ["conservative", "easy"])
def test_bad_input_coallocation_with_backfilling(selection):
    bad(GOOD, selection=selection, match="(?i)co-?allocation", coallocation="fixed_order")


def test_drop_too_wide_leaves_jobs_out_and_counts_them():
    jobs = pd.DataFrame({"submit": [0, 1, 2], "runtime": [5, 5, 5], "procs": [2, 9, 1]})
    result = simulate(jobs, [Cluster("a", 4), Cluster("b", 4)], drop_too_wide=True)
    assert result.metrics["dropped"] == 1 and result.metrics["jobs"] == 2
    assert np.isnan(result.jobs.loc[1, "start"]) and result.jobs.loc[1, "cluster"] == -2
    assert result.jobs.loc[[0, 2], "start"].tolist() == [0.0, 2.0]
