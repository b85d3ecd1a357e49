"""The profile kernels' array moves and 64-wide compares (:mod:`hpcmodels.multicluster.vector`)
against NumPy, and their refusals."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster.vector import at_least_mask, move_items, trailing_zeros


@numba.njit
def _mask(a, start, x):
    return at_least_mask(a, start, x)


@numba.njit
def _move(a, dst, src, n):
    move_items(a, dst, src, n)


@numba.njit
def _ctz(x):
    return trailing_zeros(x)


@settings(max_examples=300, deadline=None)
@given(
    size=st.integers(1, 200),
    dst=st.integers(0, 200),
    src=st.integers(0, 200),
    n=st.integers(0, 200),
    two_d=st.booleans(),
    floats=st.booleans(),
)
def test_move_items_is_a_copy_of_the_source_range(size, dst, src, n, two_d, floats):
    """Any in-range move, overlapping either way, equals NumPy's copy of the source
    range; the other items stay."""
    dst, src = min(dst, size), min(src, size)
    n = min(n, size - max(dst, src))
    a = np.arange(size, dtype=float if floats else np.int64) * 3 + 1
    want = a.copy()
    want[dst : dst + n] = a[src : src + n].copy()
    got = a.reshape(2, -1).copy() if two_d and size % 2 == 0 else a.copy()
    _move(got, dst, src, n)
    np.testing.assert_array_equal(got.reshape(-1), want)


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(st.integers(-(2**62), 2**62), min_size=64, max_size=150),
    start=st.integers(0, 86),
    x=st.one_of(st.integers(-(2**62), 2**62), st.integers(-3, 3)),
    small=st.booleans(),
)
def test_at_least_mask_against_a_loop(values, start, x, small):
    a = np.array(values, np.int64)
    if small:
        a %= 7
    start = min(start, a.size - 64)
    want = sum(1 << i for i in range(64) if a[start + i] >= x)
    got = _mask(a, start, x)
    assert got & (2**64 - 1) == want  # an int64: bit 63 is the sign


@given(x=st.integers(-(2**63), 2**63 - 1))
def test_trailing_zeros_is_the_lowest_set_bit(x):
    want = 64 if x == 0 else (x & -x).bit_length() - 1
    assert _ctz(x) == want


def test_moves_and_masks_outside_the_array_are_refused():
    a = np.arange(100, dtype=np.int64)
    for dst, src, n in ((-1, 0, 3), (0, -1, 3), (98, 0, 3), (0, 98, 3), (0, 0, -1), (0, 0, 101)):
        with pytest.raises(IndexError, match="move_items"):
            _move(a, dst, src, n)
    np.testing.assert_array_equal(a, np.arange(100))  # nothing moved
    for start in (-1, 37, 100):
        with pytest.raises(IndexError, match="at_least_mask"):
            _mask(a, start, 5)
    with pytest.raises(IndexError):
        _mask(np.arange(63, dtype=np.int64), 0, 5)


def test_arrays_of_another_kind_do_not_compile():
    """A float array has no at-least mask; a strided view has no flat index."""
    with pytest.raises(numba.core.errors.TypingError):
        _mask(np.arange(64.0), 0, 5)
    with pytest.raises(numba.core.errors.TypingError):
        _move(np.arange(20, dtype=np.int64)[::2], 0, 1, 3)
    with pytest.raises(numba.core.errors.TypingError):
        _mask(np.zeros((64, 2), np.int64, order="F"), 0, 5)
