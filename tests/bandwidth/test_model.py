"""Jones 2005's bandwidth model: Eq. 1 / Eq. 8 by hand, the allotment's properties,
A1 against the paper's brute-force loops, and Eqs. 6-7 against a time-stepped job."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.bandwidth import (
    Network,
    Residual,
    advance_residuals,
    allot_bandwidth,
    batch_means_ci,
    link_demand,
    ppbw_from_bsbw,
    progress_rate,
    saturation,
    slowdown_factors,
    start_residual,
)
from hpcmodels.bandwidth.model import demand_kernel
from hpcmodels.bandwidth.modules import A1, B1, B2, B3, B4, a1_ranges, module_split


def test_batch_means_ci_of_a_short_series_is_nan():
    assert np.isnan(batch_means_ci(np.ones(10)))  # fewer than two values per batch
    assert batch_means_ci(np.arange(400.0)) > 0


def test_fig5_example_by_hand():
    # six nodes over three clusters, three of them on cluster 1 (Fig. 5, Eq. 2)
    ppbw = 10.0
    assert link_demand(3, 6, ppbw) == pytest.approx((3 * ppbw) * ((6 - 3) * 3) / ((6 - 1) * 3))
    assert link_demand(3, 6, ppbw) == pytest.approx(18.0)
    assert link_demand(2, 6, ppbw) == pytest.approx(2 * ppbw * 4 / 5)
    assert link_demand(1, 6, ppbw) == pytest.approx(ppbw)
    assert link_demand(6, 6, ppbw) == 0.0  # all local: nothing crosses the link
    assert link_demand(0, 6, ppbw) == 0.0


@pytest.mark.parametrize("n", [2, 6, 10, 37, 90])
def test_eq8_halves_need_exactly_bsbw(n):
    ppbw = ppbw_from_bsbw(500.0, n)
    assert ppbw == pytest.approx(500.0 * 4 * (n - 1) / n**2)
    if n % 2 == 0:
        assert link_demand(n // 2, n, ppbw) == pytest.approx(500.0)
    for k in range(n + 1):  # the kernel's closed form is Eq. 1 with Eq. 8
        assert demand_kernel(k, n, 500.0) == pytest.approx(link_demand(k, n, ppbw))


def test_allotment_by_hand():
    # two jobs of 600 Mbps on a 1000 Mbps link: each gets 500, also on its other link
    demand = np.array([[600.0, 600.0, 0.0], [600.0, 0.0, 300.0]])
    out = allot_bandwidth(demand, [1000.0, 1000.0, 1000.0])
    np.testing.assert_allclose(out, [[500, 500, 0], [500, 0, 250]])
    np.testing.assert_allclose(slowdown_factors(demand, out), [5 / 6, 5 / 6])
    np.testing.assert_allclose(
        saturation(demand, [1000.0] * 3), [1000 / 1200, 1000 / 600, 1000 / 300]
    )
    # most saturated link first: job 0 is cut to 1/2 on link 1; job 1 then shares link 0
    demand = np.array([[400.0, 800.0], [900.0, 0.0]])
    out = allot_bandwidth(demand, [1000.0, 400.0])
    np.testing.assert_allclose(out, [[200, 400], [800, 0]])


@st.composite
def demands(draw):
    jobs = draw(st.integers(1, 6))
    links = draw(st.integers(1, 5))
    values = st.one_of(st.just(0.0), st.floats(1.0, 2000.0))
    d = np.array(draw(st.lists(values, min_size=jobs * links, max_size=jobs * links)))
    cap = np.array(draw(st.lists(st.floats(100.0, 3000.0), min_size=links, max_size=links)))
    return d.reshape(jobs, links), cap


@settings(max_examples=300, deadline=None)
@given(demands())
def test_allotment_properties(case):
    demand, cap = case
    out = allot_bandwidth(demand, cap)
    assert np.all(out <= demand * (1 + 1e-12))
    assert np.all(out.sum(axis=0) <= cap * (1 + 1e-9) + 1e-9), "a link over capacity"
    if np.all(demand.sum(axis=0) <= cap):
        np.testing.assert_array_equal(out, demand)
    for j in range(demand.shape[0]):  # one ratio per job on every link it spans
        spans = demand[j] > 0
        if spans.any():
            ratios = out[j, spans] / demand[j, spans]
            assert np.ptp(ratios) <= 1e-9
            if ratios[0] < 1 - 1e-9:  # a cut job is cut by a link that is then full
                full = out[:, spans].sum(axis=0) >= cap[spans] * (1 - 1e-9)
                assert full.any()


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: link_demand(7, 6, 1.0), "local_nodes"),
        (lambda: link_demand(1.5, 6, 1.0), "local_nodes"),
        (lambda: link_demand(1, 6, float("nan")), "ppbw"),
        (lambda: ppbw_from_bsbw(float("inf"), 4), "bsbw"),
        (lambda: ppbw_from_bsbw(100.0, 0), "total_nodes"),
        (lambda: ppbw_from_bsbw("100", 4), "bsbw"),
        (lambda: allot_bandwidth([[1.0, -1.0]], [1.0, 1.0]), "demand"),
        (lambda: allot_bandwidth([[1.0, 1.0]], [1.0]), "links"),
        (lambda: allot_bandwidth([1.0], [1.0]), "demand"),
        (lambda: allot_bandwidth([[np.nan]], [1.0]), "demand"),
        (lambda: progress_rate(0.0, 0.7), "slowdown"),
        (lambda: progress_rate(0.5, 1.5), "compute_fraction"),
        (lambda: Network(bsbw=-1.0), "bsbw"),
        (lambda: Network(bsbw=100.0, chunk=1.5), "chunk"),
        (lambda: Network(bsbw=100.0, link_mbps=0.0), "link_mbps"),
        (lambda: Network(bsbw=100.0, link_mbps=(1000.0, 1000.0)).link_capacities(3), "link_mbps"),
        (lambda: advance_residuals(Residual(1.0, 1.0), 5.0, 0.5), "dt"),
        (lambda: advance_residuals(Residual(1.0, 1.0), 0.5, float("nan")), "sd"),
        (lambda: start_residual(float("nan"), 0.7), "execution_time"),
        (lambda: start_residual(100.0, 1.5), "compute_fraction"),
        (lambda: saturation([[1.0, 2.0]], [1.0]), "links"),
        (lambda: saturation([[float("inf")]], [1.0]), "demand"),
        (lambda: slowdown_factors([[1.0]], [[1.0, 1.0]]), "allotted"),
        (lambda: batch_means_ci(["a", "b"]), "values"),
        (lambda: batch_means_ci(np.full(100, np.nan)), "values"),
    ],
)
def test_bad_input_names_the_field(call, field):
    with pytest.raises(ValueError, match=field):
        call()


# ---------------------------------------------------------------- A1 (Eqs. 9-11)


def _a1_brute_force(free, load, cap, p, bsbw, lslt):
    """The paper's m nested loops 0..p, first solution: X_i <= free_i, sum = p and on
    every link the job's demand within LSLT x capacity - load."""
    for xs in itertools.product(*(range(p + 1) for _ in free)):
        if sum(xs) != p:
            continue
        ok = all(
            x <= f and (x == 0 or demand_kernel(x, p, bsbw) <= lslt * c - ld + 1e-9)
            for x, f, ld, c in zip(xs, free, load, cap, strict=True)
        )
        if ok:
            return list(xs)
    return None


@settings(max_examples=300, deadline=None)
@given(
    m=st.integers(2, 4),
    p=st.integers(2, 14),
    data=st.data(),
    bsbw=st.floats(10.0, 900.0),
    lslt=st.sampled_from([0.4, 0.8, 1.0, 1.2]),
)
def test_a1_is_the_brute_force_first_solution(m, p, data, bsbw, lslt):
    free = np.array(data.draw(st.lists(st.integers(0, 14), min_size=m, max_size=m)), np.int64)
    cap = np.full(m, 300.0)
    load = np.array(data.draw(st.lists(st.floats(0.0, 300.0 * lslt), min_size=m, max_size=m)))
    sites, widths = np.empty(m, np.int64), np.empty(m, np.int64)
    used = module_split(A1, free, load, cap, p, bsbw, lslt, 0.8, sites, widths, 0)
    expected = _a1_brute_force(free, load, cap, p, bsbw, lslt)
    if expected is None:
        assert used == 0
        return
    ours = [0] * m
    for k in range(used):
        ours[sites[k]] = widths[k]
    assert ours == expected
    for i in range(m):  # never beyond the threshold
        assert (
            load[i] + demand_kernel(ours[i], p, bsbw) <= lslt * cap[i] * (1 + 1e-9) or ours[i] == 0
        )


def test_a1_ranges_match_eq9():
    p, bsbw, avail = 40, 500.0, 300.0
    ppbw = ppbw_from_bsbw(bsbw, p)
    root = math.sqrt(p**2 - 4 * avail * (p - 1) / ppbw)
    n1, n2 = 0.5 * (p - root), 0.5 * (p + root)  # Eq. 9
    lo1, hi1, lo2, hi2 = a1_ranges(p, 100, avail, bsbw)
    assert (lo1, hi1, lo2, hi2) == (0, math.floor(n1), math.ceil(n2), p)
    assert a1_ranges(p, 25, avail, bsbw)[3] == 25  # Eq. 10: capped by the free nodes
    assert a1_ranges(p, 100, bsbw, bsbw) == (0, p, 1, 0)  # enough for any split


# ---------------------------------------------------------------- B modules


def _split(code, free, load, p, lslt=1.0, chunk=0.8):
    m = len(free)
    sites, widths = np.empty(m, np.int64), np.empty(m, np.int64)
    used = module_split(code, np.array(free, np.int64), np.array(load, float), np.full(m, 1000.0),
                        p, 500.0, lslt, chunk, sites, widths, 0)  # fmt: skip
    return {int(sites[k]): int(widths[k]) for k in range(used)}


def test_b_modules_by_hand():
    free, load = [20, 35, 10, 30], [0.0, 900.0, 300.0, 1000.0]
    # link 3 is at 100 %: discounted; eligible clusters 0, 1, 2 with 65 free nodes
    assert _split(B1, free, load, 50) == {1: 35, 0: 15}
    assert _split(B2, free, load, 50) == {0: 20, 2: 10, 1: 20}
    assert _split(B3, free, load, 50, chunk=0.7) == {1: 35, 0: 15}  # 35 >= 0.7 x 50
    assert _split(B3, free, load, 50, chunk=0.8) == {}  # 35 < 40: declines
    assert _split(B4, free, load, 50) == {0: 20, 1: 20, 2: 10}
    assert _split(B1, free, load, 70) == {}  # only 65 eligible
    assert _split(B1, free, load, 70, lslt=1.2) == {1: 35, 3: 30, 0: 5}


def _b_rules(code, free, load, cap, p, lslt, chunk):
    """Section 5's class B rules as plain Python: discount the links at or above LSLT,
    order the rest (stable sort by key, ties by index), take whole clusters in that
    order (B4: one node at a time, round robin in index order). [(site, nodes), ...]."""
    m = len(free)
    eligible = [load[c] < lslt * cap[c] for c in range(m)]
    if sum(free[c] for c in range(m) if eligible[c]) < p:
        return []
    if code == B4:
        counts, rest = [0] * m, p
        while rest > 0:
            for c in range(m):
                if rest > 0 and eligible[c] and counts[c] < free[c]:
                    counts[c] += 1
                    rest -= 1
        return [(c, counts[c]) for c in range(m) if counts[c] > 0]
    order = sorted(range(m), key=lambda c: (load[c] / cap[c] if code == B2 else -free[c], c))
    if code == B3:
        first = next((c for c in order if eligible[c]), None)
        if first is None or free[first] < math.ceil(chunk * p - 1e-9):
            return []
    taken, rest = [], p
    for c in order:
        if rest > 0 and eligible[c] and free[c] > 0:
            taken.append((c, min(free[c], rest)))
            rest -= taken[-1][1]
    return taken


@settings(max_examples=400, deadline=None)
@given(
    code=st.sampled_from([B1, B2, B3, B4]),
    m=st.integers(1, 6),
    p=st.integers(1, 30),
    lslt=st.sampled_from([0.5, 0.8, 1.0]),
    chunk=st.sampled_from([0.0, 0.5, 0.8, 1.0]),
    data=st.data(),
)
def test_b_modules_follow_the_rules_in_order(code, m, p, lslt, chunk, data):
    # few distinct loads and free counts, so that ties in the order are common
    free = data.draw(st.lists(st.integers(0, 12), min_size=m, max_size=m))
    load = data.draw(st.lists(st.sampled_from([0.0, 100.0, 250.0, 800.0, 1000.0]),
                              min_size=m, max_size=m))  # fmt: skip
    cap = data.draw(st.lists(st.sampled_from([500.0, 1000.0]), min_size=m, max_size=m))
    sites, widths = np.full(m + 2, -9, np.int64), np.full(m + 2, -9, np.int64)
    used = module_split(code, np.array(free, np.int64), np.array(load), np.array(cap), p,
                        500.0, lslt, chunk, sites, widths, 2)  # fmt: skip
    assert [(int(sites[2 + k]), int(widths[2 + k])) for k in range(used)] == _b_rules(
        code, free, load, cap, p, lslt, chunk
    )
    assert list(sites[:2]) == [-9, -9]  # nothing written before ``off``


# ---------------------------------------------------------------- Eqs. 6-7


def _phases(te, k, changes, phases):
    """Brute force: the job as ``phases`` rounds of computation (K T_E / phases) then
    all-to-all communication ((1 - K) T_E / phases of full-bandwidth time, stretched by
    1 / sd), stepped through the slowdown changes ``[(time, sd), ...]``. Returns the
    finish time and how many computation and communication rounds completed."""
    t, sd_now, i = 0.0, 1.0, 0
    done = {"comp": 0, "comm": 0}
    for _ in range(phases):
        for part, work in (("comp", k * te / phases), ("comm", (1 - k) * te / phases)):
            left = work
            while left > 1e-15:
                stretch = 1.0 if part == "comp" else 1.0 / sd_now
                nxt = changes[i][0] if i < len(changes) else math.inf
                if t + left * stretch <= nxt:
                    t += left * stretch
                    left = 0.0
                else:
                    left -= (nxt - t) / stretch
                    t = nxt
                    sd_now = changes[i][1]
                    i += 1
            done[part] += 1
    return t, done


def _literal(te, k, changes):
    """Eqs. 6-7 applied at every change; the finish time and (tp, tc) just before it."""
    r, t = start_residual(te, k), 0.0
    for when, sd in changes:
        if when - t >= r.te:
            break
        r = advance_residuals(r, when - t, sd)
        assert r.tp > 0 and r.tc > 0  # neither part finishes before the job does
        t = when
    return t + r.te, r


def _rate_form(te, k, changes):
    """The engine's form: T_E of work at 1 / (K + (1 - K) / sd) per second."""
    rem, t, rate = te, 0.0, 1.0
    for when, sd in changes:
        if t + rem / rate <= when:
            break
        rem -= rate * (when - t)
        t, rate = when, progress_rate(sd, k)
    return t + rem / rate


@settings(max_examples=120, deadline=None)
@given(
    te=st.floats(10.0, 1000.0),
    k=st.floats(0.05, 0.95),
    steps=st.lists(st.tuples(st.floats(0.5, 200.0), st.floats(0.1, 1.0)), max_size=8),
)
def test_residual_times_conserve_work(te, k, steps):
    changes, t = [], 0.0
    for gap, sd in steps:
        t += gap
        changes.append((t, sd))
    end_literal, _ = _literal(te, k, changes)
    end_rate = _rate_form(te, k, changes)
    end_steps, done = _phases(te, k, changes, phases=400)
    assert done == {"comp": 400, "comm": 400}  # each part finishes exactly once
    assert end_literal == pytest.approx(end_rate, rel=1e-9)
    # the phased job converges to the proportional one (one phase's worth of error)
    assert end_steps == pytest.approx(end_rate, abs=te / 400 / 0.1 + 1e-6)
    assert end_rate >= te * (1 - 1e-12)  # never faster than on one dedicated cluster
