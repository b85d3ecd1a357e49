import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hpcmodels.queueing import (
    SpikeSlack,
    UniformSlack,
    algorithm1,
    mean_miss_rate_of,
    mean_response_time_of,
    omr_allocation,
    ort_allocation,
    saturation_rate,
    weighted_allocation,
)
from hpcmodels.queueing.allocation import OMR, ORT, _marginal

from oracles import minimise_independently, miss_rate_eq16, response_time_eq9

NODES = [3, 5, 7, 9]
RATES = np.array([20, 16, 12, 8]) / 84  # He 2006 Table 2, mean job size 84 s
LAM_S = saturation_rate(NODES, RATES)


def test_table3_ort_and_weighted_fractions():
    assert ort_allocation(NODES, RATES, 0.1 * LAM_S) == pytest.approx(
        [0.752, 0.248, 0, 0], abs=5e-4
    )
    assert weighted_allocation(NODES, RATES) == pytest.approx(
        [0.203, 0.270, 0.284, 0.243], abs=5e-4
    )


@pytest.mark.parametrize(
    ("speeds", "expected"),
    [((21, 1), (1.0, 0.0)), ((18, 2), (1.0, 0.0)), ((15, 3), (0.962, 0.013))],
)
def test_table4_ort_rows(speeds, expected):
    rates = np.array([speeds[0]] + [speeds[1]] * 3) / 84
    lam = 0.5 * saturation_rate([4] * 4, rates)
    alpha = ort_allocation([4] * 4, rates, lam)
    assert alpha[0] == pytest.approx(expected[0], abs=5e-4)
    assert alpha[1:] == pytest.approx([expected[1]] * 3, abs=5e-4)


CONFIGS = [
    (NODES, RATES, 0.1),
    (NODES, RATES, 0.5),
    (NODES, RATES, 0.9),
    ([4, 4, 4, 4], np.array([15, 3, 3, 3]) / 84, 0.5),
    ([1, 2, 8], np.array([0.3, 0.1, 0.05]), 0.6),
    ([16, 1], np.array([0.02, 0.5]), 0.3),
    # flat marginals: a many-node cluster's marginal is 1/u to the last bit at light load
    ([1, 14], np.array([0.75, 0.5]), 0.03125),
    ([12, 1, 1, 16], np.array([0.5, 1.0, 1.0, 1.0]), 0.5625),
]


@pytest.mark.parametrize(("m", "u", "w"), CONFIGS)
def test_ort_reaches_the_independent_constrained_minimum(m, u, w):
    lam = w * saturation_rate(m, u)
    ours = ort_allocation(m, u, lam)
    ref = minimise_independently(response_time_eq9, m, u, lam)
    assert ours == pytest.approx(ref, abs=1e-6)
    # and it is never worse than the reference on the objective itself
    assert mean_response_time_of(m, u, lam, ours) <= mean_response_time_of(
        m, u, lam, ref / ref.sum()
    ) * (1 + 1e-12)


@pytest.mark.parametrize(("m", "u", "w"), CONFIGS)
@pytest.mark.parametrize("slack", [(0.0, 30.0), (5.0, 10.0), (3.0, 3.0)])
def test_omr_reaches_the_independent_constrained_minimum(m, u, w, slack):
    lam = w * saturation_rate(m, u)
    spec = SpikeSlack((slack[0],), (1.0,)) if slack[0] == slack[1] else slack
    ours = omr_allocation(m, u, lam, spec)

    def cost(mi, ui, x):
        return miss_rate_eq16(mi, ui, x, *slack)

    ref = minimise_independently(cost, m, u, lam)
    ours_mr = mean_miss_rate_of(m, u, lam, ours, spec)
    ref_mr = mean_miss_rate_of(m, u, lam, ref / ref.sum(), spec)
    assert ours_mr <= ref_mr * (1 + 1e-9) + 1e-15
    if ref_mr > 1e-9:  # a flat objective does not pin the fractions down
        assert ours == pytest.approx(ref, abs=1e-6)


def test_spike_slack_eq19_mixes_spikes():
    lam = 0.5 * LAM_S
    spikes = SpikeSlack((5.0, 20.0), (0.3, 0.7))
    alpha = omr_allocation(NODES, RATES, lam, spikes)
    single = [
        mean_miss_rate_of(NODES, RATES, lam, alpha, SpikeSlack((s,), (1.0,))) for s in (5, 20)
    ]
    assert mean_miss_rate_of(NODES, RATES, lam, alpha, spikes) == pytest.approx(
        0.3 * single[0] + 0.7 * single[1]
    )


systems = st.integers(1, 6).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(1, 40), min_size=n, max_size=n),
        st.lists(st.floats(0.01, 1.0), min_size=n, max_size=n),
        st.floats(0.02, 0.97),
    )
)


@given(systems, st.sampled_from(["ort", "omr"]))
def test_kkt_conditions_hold(system, which):
    m, u, w = system
    u = np.asarray(u)
    lam = w * saturation_rate(m, u)
    if which == "ort":
        alpha, objective, packed = ort_allocation(m, u, lam), ORT, (0, np.zeros(2), np.ones(1))
    else:
        alpha = omr_allocation(m, u, lam, (0, 30))
        objective, packed = OMR, UniformSlack(0, 30).packed()
    assert alpha.sum() == pytest.approx(1, abs=1e-12)
    assert np.all(alpha >= 0) and np.all(alpha * lam < np.asarray(m) * u)
    g = np.array([_marginal(objective, m[i], u[i], alpha[i] * lam, *packed) for i in range(len(m))])
    capped = alpha * lam >= (1 - 1e-9) * np.asarray(m) * u  # at the stability limit
    active = (alpha > 1e-9) & ~capped
    if not active.any():
        return
    v = g[active].max()
    scale = max(abs(v), 1e-300)
    assert np.ptp(g[active]) <= 1e-6 * scale + 1e-14  # equal marginals (Eq. 12b / 18b)
    idle = alpha <= 1e-9
    assert np.all(g[idle] >= v * (1 - 1e-6) - 1e-14)  # idle clusters cost more at 0
    assert np.all(g[capped] <= v * (1 + 1e-6) + 1e-14)  # capped ones would take more


@given(systems)
def test_ort_never_worse_than_weighted(system):
    m, u, w = system
    lam = w * saturation_rate(m, u)
    ort = mean_response_time_of(m, u, lam, ort_allocation(m, u, lam))
    weighted = mean_response_time_of(m, u, lam, weighted_allocation(m, u))
    assert ort <= weighted * (1 + 1e-10)


def test_algorithm1_as_published():
    r = algorithm1(ORT, NODES, RATES, 0.9 * LAM_S)
    assert r.converged and abs(r.fraction_sum - 1) <= 1e-4
    assert r.fractions == pytest.approx(ort_allocation(NODES, RATES, 0.9 * LAM_S), abs=1e-3)
    # At workload 0.1 the printed tolerances cannot be met together: the sum of the
    # fractions jumps over [1 - 1e-4, 1 + 1e-4] and the published loop would not end.
    low = algorithm1(ORT, NODES, RATES, 0.1 * LAM_S)
    assert not low.converged
    assert ort_allocation(NODES, RATES, 0.1 * LAM_S, method="algorithm1") == pytest.approx(
        low.fractions
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ort_allocation([3, 0], [0.1, 0.1], 0.1), "nodes must be >= 1"),
        (lambda: ort_allocation([3, -2], [0.1, 0.1], 0.1), "nodes must be >= 1"),
        (lambda: ort_allocation([3, 2.5], [0.1, 0.1], 0.1), "whole numbers"),
        (lambda: ort_allocation([3, 2], [0.1, 0.0], 0.1), "rates must be finite and > 0"),
        (lambda: ort_allocation([3, 2], [0.1, -1.0], 0.1), "rates must be finite and > 0"),
        (lambda: ort_allocation([3, 2], [0.1], 0.1), "2 clusters but rates has 1"),
        (lambda: ort_allocation([3, 2], [0.1, 0.1], 0.5), "unstable system"),
        (lambda: ort_allocation([3, 2], [0.1, 0.1], 0.0), "arrival_rate must be"),
        (lambda: omr_allocation([3, 2], [0.1, 0.1], 0.7), "unstable system"),
        (lambda: omr_allocation([3, 2], [0.1, 0.1], 0.1, (10, 5)), "lo=10"),
        (lambda: omr_allocation([3, 2], [0.1, 0.1], 0.1, (-1, 5)), ">= 0"),
        (lambda: omr_allocation([3, 2], [0.1, 0.1], 0.1, "wide"), "slack must be"),
        (lambda: SpikeSlack((1.0, 2.0), (0.5, 0.6)), "sum to 1"),
        (lambda: ort_allocation([3, 2], [0.1, 0.1], 0.1, method="newton"), "unknown method"),
        (lambda: mean_response_time_of([3, 2], [0.1, 0.1], 0.1, [0.5, 0.4]), "sum to 1"),
        (lambda: mean_response_time_of([3, 2], [0.1, 0.1], 0.1, [1.2, -0.2]), ">= 0"),
        (lambda: mean_response_time_of([3, 2], [0.1, 0.1], 0.4, [0.0, 1.0]), "saturates"),
    ],
)
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
