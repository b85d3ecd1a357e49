import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hpcmodels.queueing import (
    erlang_b,
    erlang_c,
    mean_response_time,
    mean_waiting_time,
    waiting_time_cdf,
)
from hpcmodels.queueing.mmm import erlang_c_and_slope

from oracles import erlang_c_eq8


def test_erlang_c_textbook_values():
    assert erlang_c(1, 0.5) == pytest.approx(0.5)  # M/M/1: P(wait) = rho
    assert erlang_c(2, 1.0) == pytest.approx(1 / 3)
    assert erlang_b(2, 1.0) == pytest.approx(0.2)
    assert erlang_c(3, 0.0) == 0.0


@given(st.integers(1, 80), st.floats(0.01, 0.995))
def test_erlang_c_agrees_with_eq8(m, rho):
    assert erlang_c(m, m * rho) == pytest.approx(erlang_c_eq8(m, m * rho), rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("m", [200, 500, 2000])
def test_erlang_c_is_stable_for_many_servers(m):
    for rho in (0.5, 0.9, 0.99):
        c = erlang_c(m, rho * m)
        assert 0.0 <= c <= 1.0
        assert c == pytest.approx(erlang_c_eq8(m, rho * m), rel=1e-9, abs=1e-300)


@given(st.integers(1, 40), st.floats(0.05, 0.95))
def test_erlang_c_slope_matches_finite_difference(m, rho):
    a = m * rho
    h = 1e-6 * max(a, 1)
    _, slope = erlang_c_and_slope(m, a)
    fd = (erlang_c(m, a + h) - erlang_c(m, a - h)) / (2 * h)
    assert slope == pytest.approx(fd, rel=1e-5, abs=1e-9)


def test_mm1_response_and_waiting():
    u, lam = 0.5, 0.3
    assert mean_response_time(1, u, lam) == pytest.approx(1 / (u - lam))
    assert mean_waiting_time(1, u, lam) == pytest.approx(lam / (u * (u - lam)))


def test_waiting_time_cdf_eq14():
    m, u, lam = 4, 0.25, 0.8
    c = erlang_c(m, lam / u)
    x = np.array([0.0, 1.0, 10.0])
    expected = 1 - c * np.exp(-(m * u - lam) * x)
    assert waiting_time_cdf(m, u, lam, x) == pytest.approx(expected)
    assert waiting_time_cdf(m, u, lam, 0.0) == pytest.approx(1 - c)
    assert np.all(np.diff(waiting_time_cdf(m, u, lam, np.linspace(0, 50, 20))) > 0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: erlang_c(3, 3.0), "unstable"),
        (lambda: erlang_c(3, 4.5), "unstable"),
        (lambda: erlang_c(0, 0.5), "servers"),
        (lambda: erlang_c(2.5, 0.5), "servers"),
        (lambda: erlang_c(2, -1.0), "offered_load"),
        (lambda: mean_response_time(2, 0.0, 0.1), "rate"),
        (lambda: mean_response_time(2, 0.5, 1.0), "unstable"),
        (lambda: waiting_time_cdf(2, 0.5, 0.5, -1.0), ">= 0"),
    ],
)
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_erlang_c_is_a_probability_increasing_in_load():
    loads = np.linspace(0.1, 9.9, 50)
    values = [erlang_c(10, a) for a in loads]
    assert all(0 <= v <= 1 for v in values)
    assert all(b > a for a, b in zip(values, values[1:], strict=False))
    assert math.isclose(values[-1], erlang_c_eq8(10, 9.9), rel_tol=1e-12)
