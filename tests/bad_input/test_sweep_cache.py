"""The sweep cache never serves one point another's result (issue 25). A researcher
caching a sweep relies on: keys that keep parameter types apart (``inf`` is not
``"inf"``, ``{1: x}`` is not ``{"1": x}``); keys that change when their own function or
script changes; a function whose source cannot be read refused rather than cached
blindly; a point calling ``sys.exit`` reported as that point's failure; and a script
without the ``__main__`` guard told so in one sentence instead of a hang or a cascade of
worker errors."""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest

from hpcmodels.errors import InvalidParameter
from hpcmodels.sweep import point_key, sweep

ROOT = Path(__file__).resolve().parents[2]


def f(x) -> dict:
    return {"y": 1.0}


@pytest.mark.parametrize(
    "a, b",
    [
        (math.inf, "inf"),
        (-math.inf, "-inf"),
        (math.nan, "nan"),
        ({1: "a"}, {"1": "a"}),
        ({None: 1}, {"None": 1}),
        (True, 1),
        (1, 1.0),
        ("1", 1),
        ([1, 2], {0: 1, 1: 2}),
    ],
)
def test_values_of_different_types_get_different_keys(a, b):
    assert point_key(f, {"x": a}) != point_key(f, {"x": b})


@pytest.mark.parametrize(
    "a, b",
    [
        (np.float64(math.inf), math.inf),
        (np.int64(3), 3),
        ((1, 2), [1, 2]),
        ({"b": 1, "a": 2}, {"a": 2, "b": 1}),
        ({1: "x", "1": "y"}, {"1": "y", 1: "x"}),
    ],
)
def test_the_same_value_gets_one_key(a, b):
    assert point_key(f, {"x": a}) == point_key(f, {"x": b})


def _module(path: Path, name: str, body: str) -> types.ModuleType:
    path.write_text(textwrap.dedent(body))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_an_edited_user_function_or_its_script_computes_again(tmp_path):
    name = "user_sweep_module"
    try:
        path = tmp_path / f"{name}.py"
        one = _module(path, name, "def g(x):\n    return {'y': x + 1}\n")
        cache = tmp_path / "cache"
        first = sweep(one.g, [{"x": 1}], cache=cache, client="serial", progress=False)
        assert first["y"].tolist() == [2]
        two = _module(path, name, "def g(x):\n    return {'y': x + 2}\n")
        assert point_key(two.g, {"x": 1}) != point_key(one.g, {"x": 1})
        again = sweep(two.g, [{"x": 1}], cache=cache, client="serial", progress=False)
        assert again["y"].tolist() == [3]  # not the cached 2
        # the function unchanged, a constant of its script edited: computed again
        three = _module(path, name, "K = 5\ndef g(x):\n    return {'y': x + 2}\n")
        assert point_key(three.g, {"x": 1}) != point_key(two.g, {"x": 1})
    finally:
        sys.modules.pop(name, None)


def test_a_function_without_readable_source_is_not_cached(tmp_path):
    module = types.ModuleType("typed_at_a_prompt")
    exec("def h(x):\n    return {'y': x}\n", module.__dict__)
    sys.modules[module.__name__] = module
    try:
        with pytest.raises(InvalidParameter, match="cannot cache typed_at_a_prompt.h"):
            sweep(module.h, [{"x": 1}], cache=tmp_path, client="serial", progress=False)
        ran = sweep(module.h, [{"x": 1}], client="serial", progress=False)  # uncached: runs
        assert ran["y"].tolist() == [1]
    finally:
        sys.modules.pop(module.__name__)


def exits(i: int) -> dict:
    if i == 1:
        sys.exit(3)
    return {"y": float(i)}


def interrupts(i: int) -> dict:
    raise KeyboardInterrupt


def test_a_point_calling_sys_exit_is_that_points_failure():
    frame = sweep(exits, [{"i": 0}, {"i": 1}, {"i": 2}], client="serial", progress=False)
    assert frame["error"].isna().tolist() == [True, False, True]
    assert frame.loc[1, "error"].startswith("SystemExit: 3")
    assert frame.loc[[0, 2], "y"].tolist() == [0.0, 2.0]


def test_ctrl_c_still_stops_the_sweep():
    with pytest.raises(KeyboardInterrupt):
        sweep(interrupts, [{"i": 0}], client="serial", progress=False)


SCRIPT = """
from hpcmodels.sweep import unguarded_line

print("top", unguarded_line())

def main():
    print("called", unguarded_line())

{tail}
"""


@pytest.mark.parametrize(
    "tail, expected",
    [
        ('if __name__ == "__main__":\n    print("guard", unguarded_line())\n    main()',
         ["top 4", "guard None", "called None"]),
        ("main()", ["top 4", "called 9"]),
        ("if '__main__' == __name__:\n    main()", ["top 4", "called None"]),
    ],
)  # fmt: skip
def test_the_guard_is_read_from_the_script(tmp_path, tail, expected):
    script = tmp_path / "script.py"
    script.write_text(SCRIPT.format(tail=tail))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120, check=True)  # fmt: skip
    assert out.stdout.split("\n")[:-1] == expected


def test_a_script_without_the_guard_is_told_in_one_sentence(tmp_path):
    script = tmp_path / "unguarded.py"
    script.write_text("from hpcmodels.sweep import sweep\n\n"
                      "def g(i):\n    return {'y': i}\n\n"
                      "sweep(g, [{'i': 1}, {'i': 2}])\n")  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "HPCMODELS_DASK_SCHEDULER"}
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120, env=env)  # fmt: skip
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert "line 6, starts a local Dask cluster outside 'if __name__ == \"__main__\":'" in last
    assert "Nanny" not in out.stderr and "bootstrapping" not in out.stderr
