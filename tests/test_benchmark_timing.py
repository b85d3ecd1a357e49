"""The benchmarks' paired timing (``benchmarks/timing.py``): what a ratio counts.

The speed targets' verdicts (``benchmarks/bench_targets.py``) are ratios from
:func:`paired_ratio`; a clock that only the calls advance shows which time lands where.
"""

import importlib.util
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "timing", Path(__file__).resolve().parents[1] / "benchmarks" / "timing.py"
)
timing = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(timing)


class Clock:
    """A clock that moves only when a step of the benchmark says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def step(self, seconds: float, result=None):
        def run(*args):
            self.now += seconds
            return (result, args)

        return run


def test_a_pair_times_base_then_other_and_reports_their_ratio():
    clock = Clock()
    pair = timing.paired_ratio(clock.step(2.0, "base"), clock.step(3.0, "other"), 4, clock)
    assert pair["ratio"] == pair["low"] == pair["high"] == pytest.approx(1.5)
    assert pair["base_s"] == pytest.approx(2.0) and pair["other_s"] == pytest.approx(3.0)
    assert pair["base_result"] == ("base", ()) and pair["other_result"] == ("other", ())


def test_prepare_is_not_timed_and_its_result_goes_to_other():
    clock = Clock()
    prepared = clock.step(100.0, "state")
    pair = timing.paired_ratio(
        clock.step(2.0), clock.step(1.0, "ran"), 3, clock, prepare=lambda: prepared()[0]
    )
    assert pair["ratio"] == pytest.approx(0.5)  # the 100 s of each prepare() count nowhere
    assert pair["other_s"] == pytest.approx(1.0) and pair["base_s"] == pytest.approx(2.0)
    assert pair["other_result"] == ("ran", ("state",))
