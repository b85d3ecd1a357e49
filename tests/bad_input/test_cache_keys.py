"""The sweep cache keys everything that can change a point's result (issue 51): the
state a callable carries (a bound method's instance, a partial's arguments, a closure's
variables), the helper modules it calls, the code actually loaded in the process that
runs the point (a Dask worker started before an edit must not poison the cache), and a
parameter's type (an enum member is not its name, two dataclasses of one name in two
modules are not one). What cannot be keyed is refused with the reason and
``cache=None`` as the way out.

Each test is the hostile call and the clean outcome. Temporary modules are written to
``tmp_path``, imported, edited and reloaded; the worker test starts a one-worker
``LocalCluster``."""

from __future__ import annotations

import collections
import enum
import functools
import importlib
import linecache
import os
import site
import sys
import textwrap
import threading
import time
import types
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter
from hpcmodels.sweep import point_key, run_point, sweep

QUIET = dict(client="serial", progress=False)
pytestmark = pytest.mark.filterwarnings("error:point .* not cached")  # every result is stored


def f(x) -> dict:
    return {"y": 1.0}


@pytest.fixture
def modules(tmp_path, monkeypatch):
    """A folder on ``sys.path`` for temporary modules; ``write(name, text)`` writes one
    (with a later modification time than the last version, as an edit would have) and
    the modules imported from it are forgotten afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)

    def write(name: str, text: str) -> Path:
        path = tmp_path.joinpath(*name.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        old = path.stat().st_mtime_ns if path.exists() else 0
        path.write_text(textwrap.dedent(text))
        stamp = max(time.time_ns(), old + 2 * 10**9)  # seen by .pyc checks and the key
        os.utime(path, ns=(stamp, stamp))
        importlib.invalidate_caches()
        return path

    yield write
    for name, module in list(sys.modules.items()):
        if name not in before and str(getattr(module, "__file__", "")).startswith(str(tmp_path)):
            sys.modules.pop(name)


# ------------------------------------------------------------------ values and their types


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    LOW = 1


class Tone(enum.StrEnum):
    RED = "red"


class Pair(NamedTuple):
    a: int
    b: int


class Seconds(float):
    pass


@pytest.mark.parametrize(
    "a, b",
    [
        (Color.RED, "Color.RED"),  # the old key of the member was this string
        (Color.RED, "RED"),
        (Level.LOW, 1),  # an IntEnum is an int
        (Tone.RED, "red"),  # a StrEnum is a str
        (Pair(1, 2), (1, 2)),
        (Seconds(1.5), 1.5),
        (collections.OrderedDict(a=1), {"a": 1}),
        (np.zeros((0, 3)), np.zeros(0)),  # two empty arrays of different shapes
    ],
    ids=[
        "enum-qualname",
        "enum-name",
        "IntEnum",
        "StrEnum",
        "namedtuple",
        "float-subclass",
        "OrderedDict",
        "array-shape",
    ],
)
def test_a_value_of_another_type_gets_another_key(a, b):
    assert point_key(f, {"x": a}) != point_key(f, {"x": b})


SHAPES = """
    import enum
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Knob:
        depth: int

        def deeper(self):
            return self.depth * {factor}

    class Mode(enum.Enum):
        FAST = 1
"""


def test_same_named_dataclasses_and_enums_of_two_modules_get_two_keys(modules):
    modules("shapes_one", SHAPES.format(factor=2))
    modules("shapes_two", SHAPES.format(factor=2))
    import shapes_one
    import shapes_two

    assert point_key(f, {"x": shapes_one.Knob(1)}) != point_key(f, {"x": shapes_two.Knob(1)})
    assert point_key(f, {"x": shapes_one.Mode.FAST}) != point_key(f, {"x": shapes_two.Mode.FAST})
    assert point_key(f, {"x": shapes_one.Knob(1)}) == point_key(f, {"x": shapes_one.Knob(1)})


def deeper_point(knob) -> dict:
    return {"y": knob.deeper()}


def test_an_edited_parameter_class_computes_its_points_again(modules, tmp_path):
    modules("shapes_edit", SHAPES.format(factor=2))
    import shapes_edit

    cache = tmp_path / "cache"
    assert sweep(deeper_point, [{"knob": shapes_edit.Knob(5)}], cache=cache, **QUIET)["y"][0] == 10
    modules("shapes_edit", SHAPES.format(factor=3))
    importlib.reload(shapes_edit)
    assert sweep(deeper_point, [{"knob": shapes_edit.Knob(5)}], cache=cache, **QUIET)["y"][0] == 15


# ------------------------------------------------------------------ state a callable carries


@dataclass(frozen=True)
class Scaler:
    factor: float

    def point(self, x) -> dict:
        return {"y": x * self.factor}

    def __call__(self, x) -> dict:
        return {"y": x * self.factor}


class Counter:  # state in a plain object: no stable form
    def __init__(self, start: int) -> None:
        self.start = start

    def point(self, x) -> dict:
        return {"y": x + self.start}


def test_two_instances_bound_methods_do_not_share_a_result(tmp_path):
    cache = tmp_path / "cache"
    assert sweep(Scaler(2).point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 2
    assert sweep(Scaler(3).point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 3  # not 2
    assert len(list(cache.rglob("*.parquet"))) == 2
    assert point_key(Scaler(2).point, {"x": 1}) == point_key(Scaler(2).point, {"x": 1})


def test_two_callable_instances_do_not_share_a_result(tmp_path):
    cache = tmp_path / "cache"
    assert sweep(Scaler(2), [{"x": 1}], cache=cache, **QUIET)["y"][0] == 2
    assert sweep(Scaler(3), [{"x": 1}], cache=cache, **QUIET)["y"][0] == 3


def test_a_method_of_an_object_without_a_stable_form_is_refused_not_cached(tmp_path):
    refused = r"(?s)cannot cache .*Counter\.point: the instance of .*no stable form.*cache=None"
    with pytest.raises(InvalidParameter, match=refused):
        sweep(Counter(1).point, [{"x": 1}], cache=tmp_path / "cache", **QUIET)
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").rglob("*.parquet"))
    assert sweep(Counter(1).point, [{"x": 1}], **QUIET)["y"][0] == 2  # uncached: runs


def scaled_point(x, factor=1.0) -> dict:
    return {"y": x * factor}


def test_two_partials_do_not_share_a_result(tmp_path):
    cache = tmp_path / "cache"
    two, three = (functools.partial(scaled_point, factor=k) for k in (2, 3))
    assert sweep(two, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 2
    assert sweep(three, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 3


def test_a_partial_holding_an_object_without_a_stable_form_is_refused(tmp_path):
    lock = functools.partial(scaled_point, factor=threading.Lock())
    refused = r"(?s)cannot cache .*scaled_point: keyword 'factor'.*no stable form.*cache=None"
    with pytest.raises(InvalidParameter, match=refused):
        sweep(lock, [{"x": 1}], cache=tmp_path, **QUIET)


def scaling(factor):
    """A decorator factory: the factor lives in the wrapper's closure."""

    def decorate(point):
        @functools.wraps(point)
        def wrapper(**kw):
            return {k: v * factor for k, v in point(**kw).items()}

        return wrapper

    return decorate


def base_point(x) -> dict:
    return {"y": float(x)}


double = scaling(2)(base_point)  # both named base_point (functools.wraps)
triple = scaling(3)(base_point)
locked = scaling(threading.Lock())(base_point)


def test_closures_over_different_values_do_not_share_a_result(tmp_path):
    cache = tmp_path / "cache"
    assert sweep(double, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 2
    assert sweep(triple, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 3


def test_a_closure_over_an_object_without_a_stable_form_is_refused(tmp_path):
    refused = r"(?s)cannot cache .*base_point: closure variable 'factor'.*no stable form.*None"
    with pytest.raises(InvalidParameter, match=refused):
        sweep(locked, [{"x": 1}], cache=tmp_path, **QUIET)


# ------------------------------------------------------------------ code the point reaches

HELPERS = """
    SCALE = {scale}

    def scale(x):
        return x * SCALE
"""

POINTS = """
    from .helpers import scale

    def point(x):
        return {"y": scale(x)}
"""


def test_an_edited_helper_module_computes_again_once_it_is_loaded(modules, tmp_path):
    modules("lab51.__init__", "")
    modules("lab51.helpers", HELPERS.format(scale=2))
    modules("lab51.points", POINTS)
    from lab51 import helpers, points

    cache = tmp_path / "cache"
    key = point_key(points.point, {"x": 1})
    assert sweep(points.point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 2
    modules("lab51.helpers", HELPERS.format(scale=3))  # edited, not reloaded: the old code runs
    assert point_key(points.point, {"x": 1}) == key
    assert sweep(points.point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 2
    importlib.reload(helpers)
    importlib.reload(points)
    assert point_key(points.point, {"x": 1}) != key
    assert sweep(points.point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 3  # not the cached 2


def test_a_helper_edited_before_its_first_sweep_is_refused_until_reloaded(modules, tmp_path):
    modules("lab52.__init__", "")
    modules("lab52.helpers", HELPERS.format(scale=2))
    modules("lab52.points", POINTS)
    from lab52 import helpers, points

    modules("lab52.helpers", HELPERS.format(scale=3))  # the process still runs SCALE = 2
    cache = tmp_path / "cache"
    refused = r"cannot cache lab52\.points\.point: module lab52\.helpers's loaded code differs"
    with pytest.raises(InvalidParameter, match=refused):
        sweep(points.point, [{"x": 1}], cache=cache, **QUIET)
    assert sweep(points.point, [{"x": 1}], **QUIET)["y"][0] == 2  # uncached, it runs
    importlib.reload(helpers)
    assert sweep(points.point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 3


LAZY_POINT = """
    def point(x):
        import lazyhelp51  # imported when the point first runs

        return {"y": lazyhelp51.scale(x)}
"""


def test_a_helper_imported_inside_the_function_is_keyed_loaded_or_not(modules, tmp_path):
    modules("lazyhelp51", HELPERS.format(scale=2))
    modules("lazypoint51", LAZY_POINT)
    import lazypoint51

    cache = tmp_path / "cache"
    key = point_key(lazypoint51.point, {"x": 1})  # the helper not loaded: keyed by its file
    assert sweep(lazypoint51.point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 2
    assert point_key(lazypoint51.point, {"x": 1}) == key  # loaded now: the same source
    modules("lazyhelp51", HELPERS.format(scale=3))  # edited, not reloaded: the old code runs
    assert point_key(lazypoint51.point, {"x": 1}) == key
    importlib.reload(sys.modules["lazyhelp51"])
    assert sweep(lazypoint51.point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 3


def _cell(module: types.ModuleType, source: str, number: int) -> None:
    """Run ``source`` in ``module`` as a notebook cell: no file, source in linecache."""
    name = f"<cell-{number}-issue51>"
    source = textwrap.dedent(source)
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    exec(compile(source, name, "exec"), module.__dict__)


@pytest.fixture
def notebook():
    module = types.ModuleType("notebook_issue51")
    sys.modules[module.__name__] = module
    yield module
    sys.modules.pop(module.__name__)
    for name in [n for n in linecache.cache if n.endswith("-issue51>")]:
        linecache.cache.pop(name)


def test_a_notebook_function_is_keyed_by_the_globals_it_reads(notebook, tmp_path):
    _cell(notebook, "SCALE = 2\n", 1)
    _cell(notebook, "def point(x):\n    return {'y': x * SCALE}\n", 2)
    cache = tmp_path / "cache"
    assert sweep(notebook.point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 2
    _cell(notebook, "SCALE = 3\n", 3)  # another cell run again
    assert sweep(notebook.point, [{"x": 1}], cache=cache, **QUIET)["y"][0] == 3


def test_a_notebook_function_reading_a_frame_is_refused(notebook, tmp_path):
    notebook.jobs = pd.DataFrame({"runtime": [1.0, 2.0]})
    _cell(notebook, "def point(x):\n    return {'y': x * jobs['runtime'].sum()}\n", 1)
    refused = r"(?s)cannot cache notebook_issue51\.point: global 'jobs' read by point = .*"
    with pytest.raises(InvalidParameter, match=refused + r"\(DataFrame\) has no stable form"):
        sweep(notebook.point, [{"x": 1}], cache=tmp_path, **QUIET)


def test_another_version_of_an_installed_library_computes_again(monkeypatch):
    from hpcmodels import code_keys

    key = point_key(f, {"x": 1})  # this module imports numpy and pandas
    monkeypatch.setattr(code_keys, "_versions", lambda top: {top: "0+other"})
    assert point_key(f, {"x": 1}) != key


# ------------------------------------------------------------------ the process that runs it

WORKER_POINT = """
    import os

    def point(x, log):
        open(os.path.join(log, "ran-%d" % os.getpid()), "a").close()
        return {{"y": x * {factor}}}
"""


def test_a_process_holding_other_code_reports_it_instead_of_a_result(modules, tmp_path):
    """The check a worker makes, here in this process: ``expect`` names another source
    for the point's module than the one loaded (simulated by editing its digest)."""
    modules("worker51", WORKER_POINT.format(factor=2))
    import worker51

    from hpcmodels.sweep import _CodeKey

    expect = _CodeKey(worker51.point).expectation()
    ok = run_point(worker51.point, {"x": 1, "log": str(tmp_path)}, expect)
    assert ok["y"] == 2 and ok["error"] is None
    expect["modules"]["worker51"] = "0" * 64  # the parent's module is another version
    stale = run_point(worker51.point, {"x": 1, "log": str(tmp_path)}, expect)
    assert stale["error"].startswith("StaleCode: process")
    assert "module worker51" in stale["error"] and "client.restart()" in stale["error"]
    assert len(list(tmp_path.glob("ran-*"))) == 1  # the point did not run again


def test_a_dask_worker_started_before_an_edit_does_not_poison_the_cache(modules, tmp_path):
    from distributed import Client, LocalCluster

    path = modules("worker52", WORKER_POINT.format(factor=2))
    import worker52

    log, cache = tmp_path / "log", tmp_path / "cache"
    log.mkdir()
    grid = [{"x": 1, "log": str(log)}]
    one = dict(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0")
    with LocalCluster(**one) as cluster, Client(cluster) as client:
        client.run(site.addsitedir, str(path.parent))
        assert sweep(worker52.point, grid, cache=cache, client=client, progress=False)["y"][0] == 2
        modules("worker52", WORKER_POINT.format(factor=3))
        importlib.reload(worker52)  # this process has the new code, the worker the old
        stale = sweep(worker52.point, grid, cache=cache, client=client, progress=False)
        assert stale["error"][0].startswith("StaleCode") and "module worker52" in stale["error"][0]
        assert len(list(cache.rglob("*.parquet"))) == 1  # only the first sweep's point
        client.restart()
        client.run(site.addsitedir, str(path.parent))
        fresh = sweep(worker52.point, grid, cache=cache, client=client, progress=False)
        assert fresh["error"][0] is None and fresh["y"][0] == 3
    again = sweep(worker52.point, grid, cache=cache, **QUIET)  # read back: the new result
    assert again["y"][0] == 3 and len(list(log.iterdir())) == 2  # the stale point never ran
