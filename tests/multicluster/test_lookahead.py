"""TLA and AI2 (Shih 2013): the Fig. 4 snapshot, a brute-force scorer, and every engine
decision checked against the scoring step on the state it was made in."""

import numba
import numpy as np
import pandas as pd
import pytest
from drawn_jobs import clusters_of
from engine_checks import assert_invariants
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster import (
    Cluster,
    RunningJob,
    TLAOptions,
    WaitingJob,
    simulate,
    tla_scores,
)
from hpcmodels.multicluster.allocation import ALLOCATIONS
from hpcmodels.multicluster.engine import SELECTIONS, build_state, run_to_end
from hpcmodels.multicluster.heap import release_heap
from hpcmodels.multicluster.state import TLA_ACTIVATIONS, TLA_CHANGES
from hpcmodels.multicluster.tla_branch import Snapshot, release_key
from hpcmodels.multicluster.tla_scoring import _score_lockstep, score_clusters, simulate_branch

SNAPSHOT = (
    [Cluster("A", 9, 2.0), Cluster("B", 9, 1.0)],
    [RunningJob("A", 1, 5.0), RunningJob("B", 4, 5.0)],
    [WaitingJob(3, -5, 10), WaitingJob(6, -4, 2), WaitingJob(2, -2, 8), WaitingJob(7, -2, 2)],
)


def test_fig4_snapshot_scores():
    """The reconstruction of Fig. 4 (docs/readings.md): job 1 on A gives turnarounds 10,
    10, 11, 9 (ATT 10, as Table 1 prints); on B 15, 5, 6, 7 (ATT 8.25; the paper prints
    6 for job 4 and ATT 8, a slip: job 4 cannot start before t = 4). TLA picks B."""
    scores = tla_scores(*SNAPSHOT)
    assert scores["A"].turnaround == [10, 10, 11, 9] and scores["A"].att == 10
    assert scores["B"].turnaround == [15, 5, 6, 7] and scores["B"].att == 8.25
    assert min(scores, key=lambda c: scores[c].att) == "B"


def brute_force_scores(clusters, running, waiting, now, policy="fastest_first"):
    """Fig. 3 by enumeration: job k starts at the earliest candidate time (an end time or
    the previous start) at or after the previous start where some cluster has its
    processors free, counting every job running over that instant."""
    names = [c.name for c in clusters]
    out = {}
    for c0 in range(len(clusters)):
        jobs = [(names.index(r.cluster), r.procs, now, max(r.end, now)) for r in running]
        busy = sum(p for c, p, _, _ in jobs if c == c0)
        if clusters[c0].procs - busy < waiting[0].procs:
            continue
        prev, tts = now, []
        for k, w in enumerate(waiting):
            times = sorted({prev} | {e for *_, e in jobs if e >= prev})
            for t in times:
                free = [cl.procs - sum(p for c, p, s, e in jobs if c == i and s <= t < e)
                        for i, cl in enumerate(clusters)]  # fmt: skip
                cands = [i for i in range(len(clusters)) if free[i] >= w.procs]
                if k == 0:
                    cands = [c0]
                if cands:
                    break
            if policy == "fastest_first":
                c = min(cands, key=lambda i: (-clusters[i].speed, i))
            else:  # best fit
                c = min(cands, key=lambda i: (free[i], i))
            run = w.estimate / clusters[c].speed
            jobs.append((c, w.procs, t, t + run))
            tts.append(t + run - w.submit)
            prev = t
        out[names[c0]] = tts
    return out


@st.composite
def snapshots(draw):
    m = draw(st.integers(1, 3))
    clusters = [Cluster(f"c{i}", draw(st.integers(1, 6)), draw(st.sampled_from((0.5, 1.0, 2.0))))
                for i in range(m)]  # fmt: skip
    running = []
    for cl in clusters:
        left = cl.procs
        for _ in range(draw(st.integers(0, 2))):
            if left == 0:
                break
            p = draw(st.integers(1, left))
            left -= p
            running.append(RunningJob(cl.name, p, float(draw(st.integers(0, 20)))))
    widest = max(c.procs for c in clusters)
    waiting = [WaitingJob(draw(st.integers(1, widest)), float(-draw(st.integers(0, 10))),
                          float(draw(st.integers(1, 12))))
               for _ in range(draw(st.integers(1, 6)))]  # fmt: skip
    return clusters, running, waiting


@settings(max_examples=300, deadline=None)
@given(snapshots(), st.sampled_from(("fastest_first", "best_fit")))
def test_scores_match_brute_force(snapshot, policy):
    clusters, running, waiting = snapshot
    got = tla_scores(clusters, running, waiting, 0.0, policy=policy)
    want = brute_force_scores(clusters, running, waiting, 0.0, policy)
    assert set(got) == set(want)
    for name, tts in want.items():
        assert got[name].turnaround == pytest.approx(tts, abs=1e-9)
        assert got[name].att == pytest.approx(np.mean(tts), abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(snapshots())
def test_one_waiting_job_goes_where_fastest_first_puts_it(snapshot):
    clusters, running, waiting = snapshot
    scores = tla_scores(clusters, running, waiting[:1])
    assume(scores)  # the job fits somewhere now
    best = min(scores, key=lambda c: (scores[c].att, [x.name for x in clusters].index(c)))
    fits = [c for c in clusters if c.name in scores]
    assert best == max(fits, key=lambda c: c.speed).name  # max keeps the first of ties


def one_by_one(snap, policy, metric):
    """score_clusters' rule with each branch simulated alone by simulate_branch."""
    m, n = snap.free.size, snap.procs.size
    scores, best, plan = np.full(m, np.inf), -1, None
    for c in range(m):
        if snap.free[c] < snap.procs[0]:
            continue
        clus, start, cost = np.empty(n, np.int64), np.empty(n), np.empty(n)
        rng = np.zeros(1, np.uint64)
        scores[c] = simulate_branch(c, snap, policy, metric, rng, (clus, start, cost))
        if best < 0 or scores[c] < scores[best] - 1e-9 * abs(scores[best]):
            best, plan = c, (clus, start)
    return scores, best, plan


@pytest.mark.parametrize("policy", ["fastest_first", "best_fit", "worst_fit"])
def test_branches_scored_together_equal_branches_scored_alone(policy):
    """score_clusters runs the branches in lock step and stops a branch whose state
    equals another's: bit for bit the scores, winner and plan of simulating each branch
    alone, on snapshots where many branches merge (equal speeds, integer times: ties)."""
    rng = np.random.default_rng(11)
    code, merges = ALLOCATIONS.index(policy), 0
    for trial in range(300):
        m = int(rng.integers(2, 7))
        cap = rng.integers(4, 33, m)
        speed = np.ones(m) if trial % 2 else rng.choice([0.5, 1.0, 1.5, 2.0], m)
        free = cap.copy()
        rel = []
        for c in range(m):
            while free[c] > 2 and rng.random() < 0.7:
                p = int(rng.integers(1, free[c]))
                free[c] -= p
                rel.append((float(rng.integers(0, 50)), c, p))
        n = int(rng.integers(1, 80))
        wprocs = rng.integers(1, cap.max() + 1, n)
        wprocs[0] = rng.integers(1, max(free.max(), 1) + 1)
        west = rng.integers(0, 40, n).astype(float) if trial % 3 else rng.exponential(20.0, n)
        wsubmit = -rng.integers(0, 30, n).astype(float)
        n_rel = len(rel)
        keys = release_key(np.array([r[1] for r in rel], np.int64),
                           np.array([r[2] for r in rel], np.int64))  # fmt: skip
        heap0 = release_heap(np.array([r[0] for r in rel]), keys, n_rel + n)
        t = float(rng.integers(0, 5))
        snap = Snapshot(speed, free, heap0, n_rel, wprocs, wsubmit, west, t)
        for metric in (0, 1):
            want, want_best, want_plan = one_by_one(snap, code, metric)
            scores, clus, start = np.empty(m), np.empty(n, np.int64), np.empty(n)
            best = score_clusters(snap, np.ones(m, np.bool_), code, metric,
                                  np.zeros(1, np.uint64), scores, (clus, start))  # fmt: skip
            assert best == want_best and np.array_equal(scores, want)
            if best >= 0:
                assert np.array_equal(clus, want_plan[0]) and np.array_equal(start, want_plan[1])
            cands = np.flatnonzero(free >= wprocs[0])
            if cands.size:
                shape = (cands.size, n)
                out = (np.empty(shape, np.int64), np.empty(shape), np.empty(shape),
                       np.empty(shape, np.uint64))  # fmt: skip
                merges += _score_lockstep(cands, snap, code, metric, np.zeros(1, np.uint64), out,
                                          np.empty(cands.size),
                                          np.empty(0, np.int64), np.empty((4, 1)),
                                          np.zeros((5, 1), np.int64))  # fmt: skip
    assert merges > 100  # the merging path is exercised


@numba.njit
def _forget_memo(state):
    state.memo_i = np.zeros((5, 1), np.int64)


@pytest.mark.parametrize("selection", ["fcfs", "easy", "first_available"])
@pytest.mark.parametrize("options", [TLAOptions(), TLAOptions(depth=6, metric="bounded_slowdown"),
                                     TLAOptions(policy="best_fit", allocation_depth=3),
                                     TLAOptions(policy="worst_fit")])  # fmt: skip
def test_decisions_resumed_from_the_memo_equal_decisions_without_it(selection, options):
    """The engine keeps TLA's winning simulation and the next decision resumes from it
    where its state is the memo's: the same schedule and counters as a run without the
    memo, with exact estimates (the memo is then used at most decisions) and without."""
    rng = np.random.default_rng(17)
    n = 600
    runtime = rng.integers(1, 400, n).astype(float)
    for estimate in (runtime, runtime * rng.choice([1.0, 1.5, 3.0], n)):
        df = pd.DataFrame({"submit": np.sort(rng.integers(0, 9000, n)).astype(float),
                           "runtime": runtime, "procs": rng.integers(1, 9, n),
                           "estimate": estimate})  # fmt: skip
        spec = [(12, 1.0), (12, 1.0), (10, 1.0), (12, 2.0)]
        res = simulate(df, clusters_of(spec), selection, "tla", tla=options, debug=True)
        assert res.counters["tla_activations"] > (50 if selection == "fcfs" else 2)
        data = {k: df[k].to_numpy(float) for k in ("submit", "runtime", "estimate")}
        data["procs"] = df["procs"].to_numpy(np.int64)
        cap, speed = np.array([p for p, _ in spec]), np.array([s for _, s in spec])
        state = build_state(data, cap, speed, SELECTIONS.index(selection),
                            ALLOCATIONS.index("tla"), 0, 1.0, 0, True, options)  # fmt: skip
        _forget_memo(state)
        state = run_to_end(state)
        assert np.array_equal(state.start, res.jobs["start"].to_numpy())
        assert np.array_equal(state.end, res.jobs["end"].to_numpy())
        assert np.array_equal(state.clus, res.jobs["cluster"].to_numpy())
        assert state.ctr[TLA_ACTIVATIONS] == res.counters["tla_activations"]
        assert state.ctr[TLA_CHANGES] == res.counters["tla_changes"]


@pytest.mark.parametrize("speeds", [(1.0, 1.0, 1.0), (1.0, 1.5, 2.0)])
def test_the_activation_counters_nest_and_depth_one_tells_clusters_apart_only_by_speed(speeds):
    """Shih 2013's 'activated' read three ways (issue 53): at least two clusters fit
    (``tla_two_fit``) >= the look-ahead ran (``tla_activations``: two fit and another
    job waits) >= its scores told two fitting clusters apart (``tla_distinct``). At
    depth 1 a score is the job's own cost, so equal speeds never tell clusters apart
    and distinct speeds always do."""
    rng = np.random.default_rng(5)
    n = 400
    df = pd.DataFrame(
        {
            "submit": np.sort(rng.integers(0, 6000, n)).astype(float),
            "runtime": rng.integers(1, 400, n).astype(float),
            "procs": rng.integers(1, 9, n),
        }
    )
    spec = [(12, s) for s in speeds]
    for depth in (1, None):
        res = simulate(df, clusters_of(spec), "fcfs", "tla", tla=TLAOptions(depth=depth))
        c = res.counters
        assert c["tla_two_fit"] >= c["tla_activations"] >= c["tla_distinct"] >= 0
        assert c["tla_activations"] > 50
        if depth == 1:
            same = len(set(speeds)) == 1
            assert c["tla_distinct"] == (0 if same else c["tla_activations"])
        else:
            assert c["tla_distinct"] > 0


# ------------------------------------------------------------------ engine decisions


@st.composite
def workloads(draw):
    spec = [(draw(st.integers(2, 6)), draw(st.sampled_from((0.5, 1.0, 2.0))))
            for _ in range(draw(st.integers(2, 3)))]  # fmt: skip
    n = draw(st.integers(2, 14))
    widest = max(p for p, _ in spec)
    df = pd.DataFrame(
        {"submit": sorted(float(draw(st.integers(0, 12))) for _ in range(n)),
         "runtime": [float(draw(st.integers(1, 10))) for _ in range(n)],
         "procs": [draw(st.integers(1, widest)) for _ in range(n)]}
    )  # fmt: skip
    return spec, df


def decision_states(res, df, spec):
    """For every started job, in start order (then queue order), the snapshot just
    before its placement: running jobs (including those started earlier in the same
    session), the waiting jobs with it first, and the cluster the engine chose."""
    got = res.jobs
    start, end, clus = got["start"].to_numpy(), got["end"].to_numpy(), got["cluster"].to_numpy()
    names = [f"c{i}" for i in range(len(spec))]
    order = sorted(range(len(df)), key=lambda j: (start[j], j))
    for pos, j in enumerate(order):
        t = start[j]
        done = order[:pos]
        running = [RunningJob(names[clus[i]], int(df.procs[i]), end[i])
                   for i in done if end[i] > t]  # fmt: skip
        waiting = [j] + [i for i in range(len(df)) if i not in done and i != j
                         and df.submit[i] <= t]  # fmt: skip
        waiting = [WaitingJob(int(df.procs[i]), df.submit[i], df.runtime[i]) for i in waiting]
        yield t, running, waiting, clus[j]


def free_now(spec, running):
    free = [p for p, _ in spec]
    for r in running:
        free[int(r.cluster[1:])] -= r.procs
    return free


@settings(max_examples=150, deadline=None)
@given(workloads(), st.sampled_from((None, 1)))
def test_engine_decisions_are_the_scoring_steps(data, depth):
    """With estimates = run times, each TLA decision of the engine equals the lowest
    score of ``tla_scores`` on the state it was made in (ties: lowest index), or fastest
    first where TLA is not activated (one candidate cluster, or nothing else waits)."""
    spec, df = data
    res = simulate(df, clusters_of(spec), "fcfs", "tla", tla=TLAOptions(depth=depth), debug=True)
    assert_invariants(res, df, spec)
    for t, running, waiting, chosen in decision_states(res, df, spec):
        free = free_now(spec, running)
        fits = [c for c in range(len(spec)) if free[c] >= waiting[0].procs]
        fastest = min(fits, key=lambda c: (-spec[c][1], c))
        if len(fits) < 2 or len(waiting) < 2:
            assert chosen == fastest
            continue
        scores = tla_scores(clusters_of(spec), running, waiting, t, depth=depth)
        best = None
        for c in fits:  # the kernel's rule: lower by more than 1e-9 relative
            s = scores[f"c{c}"].att
            if best is None or s < scores[f"c{best}"].att * (1 - 1e-9):
                best = c
        assert chosen == best


@settings(max_examples=100, deadline=None)
@given(workloads())
def test_depth_one_schedules_as_fastest_first(data):
    spec, df = data
    tla = simulate(df, clusters_of(spec), "fcfs", "tla", tla=TLAOptions(depth=1))
    ff = simulate(df, clusters_of(spec), "fcfs", "fastest_first")
    pd.testing.assert_frame_equal(tla.jobs, ff.jobs)
    assert tla.counters["tla_changes"] == 0


@settings(max_examples=150, deadline=None)
@given(workloads())
def test_ai2_decisions_compare_session_power(data):
    """Each AI2 decision: best fit when its session (the following head jobs by fastest
    first while they fit) consumes strictly more processors x speed than fastest
    first's, else fastest first."""
    spec, df = data
    res = simulate(df, clusters_of(spec), "fcfs", "ai2", debug=True)
    assert_invariants(res, df, spec)
    speed = [s for _, s in spec]

    def power(first, free, waiting):
        free = list(free)
        free[first] -= waiting[0].procs
        total = waiting[0].procs * speed[first]
        for w in waiting[1:]:
            cands = [c for c in range(len(spec)) if free[c] >= w.procs]
            if not cands:
                break
            c = min(cands, key=lambda c: (-speed[c], c))
            free[c] -= w.procs
            total += w.procs * speed[c]
        return total

    for _, running, waiting, chosen in decision_states(res, df, spec):
        free = free_now(spec, running)
        fits = [c for c in range(len(spec)) if free[c] >= waiting[0].procs]
        ff = min(fits, key=lambda c: (-speed[c], c))
        bf = min(fits, key=lambda c: (free[c], c))
        want = bf if power(bf, free, waiting) > power(ff, free, waiting) else ff
        assert chosen == want


def test_allocation_depth_follows_the_winning_simulation():
    """Allocation depth 4 on a busy stream: a valid schedule (debug invariants), fewer
    activations than depth 1 of allocation (decisions are taken from one simulation)."""
    rng = np.random.default_rng(3)
    n = 300
    df = pd.DataFrame({"submit": np.sort(rng.integers(0, 3000, n)).astype(float),
                       "runtime": rng.integers(1, 200, n).astype(float),
                       "procs": rng.integers(1, 9, n)})  # fmt: skip
    spec = [(8, 1.0), (8, 2.0), (6, 0.5)]
    one = simulate(df, clusters_of(spec), "fcfs", "tla", debug=True)
    four = simulate(df, clusters_of(spec), "fcfs", "tla", tla=TLAOptions(allocation_depth=4),
                    debug=True)  # fmt: skip
    assert_invariants(four, df, spec)
    assert four.counters["tla_activations"] < one.counters["tla_activations"]


def test_random_fit_inside_the_simulation_is_seeded():
    rng = np.random.default_rng(5)
    n = 200
    df = pd.DataFrame({"submit": np.sort(rng.integers(0, 2000, n)).astype(float),
                       "runtime": rng.integers(1, 200, n).astype(float),
                       "procs": rng.integers(1, 9, n)})  # fmt: skip
    clusters = clusters_of([(8, 1.0), (8, 2.0), (6, 0.5)])
    opts = TLAOptions(policy="random_fit")
    a = simulate(df, clusters, "fcfs", "tla", tla=opts, seed=1)
    b = simulate(df, clusters, "fcfs", "tla", tla=opts, seed=1)
    pd.testing.assert_frame_equal(a.jobs, b.jobs)


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "kwargs, match",
    [({"depth": 0}, "depth"), ({"depth": 2.5}, "depth"), ({"allocation_depth": True},
     "allocation_depth"), ({"policy": "median_fit"}, "policy"), ({"metric": "wait"}, "metric")],
)  # fmt: skip
def test_bad_tla_options_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        TLAOptions(**kwargs)


def test_bad_snapshots_are_named():
    clusters, running, waiting = SNAPSHOT
    with pytest.raises(ValueError, match="waiting is empty"):
        tla_scores(clusters, running, [])
    with pytest.raises(ValueError, match=r"running\[0\].cluster 'Z'"):
        tla_scores(clusters, [RunningJob("Z", 1, 5.0)], waiting)
    with pytest.raises(ValueError, match=r"waiting\[1\].estimate"):
        tla_scores(clusters, running, [waiting[0], WaitingJob(1, 0.0, float("nan"))])
    with pytest.raises(ValueError, match="hold more than"):
        tla_scores(clusters, [RunningJob("A", 10, 5.0)], waiting)
    with pytest.raises(ValueError, match="more than any cluster"):
        tla_scores(clusters, running, [WaitingJob(10, 0.0, 1.0)])


def test_tla_takes_at_most_2_to_the_43_minus_1_processors_per_job():
    """A release's processors and cluster are packed in one int64 (``procs << 20 |
    cluster``): a wider job under TLA is refused, naming it, not packed wrong (issue 54:
    the lock step packed it wrong before, silently)."""
    big = 2**43
    cl = [Cluster("a", big), Cluster("b", big)]
    df = pd.DataFrame({"submit": [0.0, 0.0], "runtime": [1.0, 1.0], "procs": [big - 1, big]})
    with pytest.raises(ValueError, match=r"job 1 has 8796093022208 processors: .*'tla'"):
        simulate(df, cl, "fcfs", "tla")
    with pytest.raises(ValueError, match=r"waiting\[0\].procs"):
        tla_scores(cl, [], [WaitingJob(big, 0.0, 1.0)])
    with pytest.raises(ValueError, match=r"running\[0\].procs"):
        tla_scores(cl, [RunningJob("a", big, 5.0)], [WaitingJob(1, 0.0, 1.0)])
    scores = tla_scores(cl, [RunningJob("a", big - 1, 5.0)], [WaitingJob(big - 1, 0.0, 1.0)] * 2)
    assert set(scores) == {"b"}  # on a one processor is free until 5
    assert scores["b"].starts == [0.0, 1.0] and scores["b"].clusters == ["b", "b"]


def test_look_ahead_is_not_combined_with_coallocation():
    df = pd.DataFrame({"submit": [0.0], "runtime": [1.0], "procs": [1]})
    with pytest.raises(ValueError, match="look-ahead"):
        simulate(df, clusters_of([(2, 1.0)]), "fcfs", "tla", coallocation="fixed_order")
    with pytest.raises(ValueError, match="tla must be"):
        simulate(df, clusters_of([(2, 1.0)]), "fcfs", "tla", tla={"depth": 3})


@settings(max_examples=40, deadline=None)
@given(workloads(), st.sampled_from(("first_available", "smallest_first", "conservative", "easy")))
def test_look_ahead_under_every_selection_keeps_the_invariants(data, selection):
    """TLA and AI2 under the other selections (the paper's future work): the schedules
    are valid (debug invariants, no job before its submit, processors conserved)."""
    spec, df = data
    for allocation in ("tla", "ai2"):
        res = simulate(df, clusters_of(spec), selection, allocation, debug=True)
        assert_invariants(res, df, spec)
