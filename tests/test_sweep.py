"""hpcmodels.sweep on real Dask clusters: failures reported per point (an exception, a
worker killed mid-sweep), resumption from the Parquet cache, the same results serially
and on one or two workers, and bad input named."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import cloudpickle
import numpy as np
import pandas as pd
import pytest
from distributed import Client, LocalCluster

from hpcmodels.errors import InvalidParameter
from hpcmodels.multicluster import Cluster, simulate
from hpcmodels.sweep import (
    SCHEDULER_ENV,
    close,
    point_key,
    raise_failures,
    sweep,
    sweep_results,
)

# the workers unpickle this module's functions by value (tests/ is not on their path)
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def _log(folder: str, i: int) -> None:
    with open(Path(folder) / f"{i}-{os.getpid()}-{np.random.default_rng().integers(1e12)}", "w"):
        pass


def point(i: int, log: str, fail: tuple = (), kill: tuple = ()) -> dict:
    """A point that records that it ran; raises when told to (unless a flag file
    ``cured`` exists), or kills its worker the first time it runs (a crash mid-sweep)."""
    _log(log, i)
    if i in fail and not (Path(log) / "cured").exists():
        raise RuntimeError(f"point {i} fails on purpose")
    if i in kill and not (Path(log) / f"killed-{i}").exists():
        (Path(log) / f"killed-{i}").touch()
        os._exit(3)  # the worker process dies, as under the out-of-memory killer
    return {"square": i * i, "pid": os.getpid()}


def engine_point(seed: int, allocation: str) -> dict:
    """A small multi-cluster simulation: random fit draws from the seed."""
    rng = np.random.default_rng(seed)
    n = 300
    jobs = pd.DataFrame({"submit": np.cumsum(rng.exponential(5.0, n)),
                         "runtime": rng.exponential(40.0, n),
                         "procs": rng.integers(1, 9, n)})  # fmt: skip
    res = simulate(jobs, [Cluster("a", 8), Cluster("b", 16, 2.0)], "fcfs", allocation, seed=seed)
    return {"att": res.metrics["att"], "ends": float(res.jobs["end"].sum())}


@pytest.fixture(scope="module")
def two_workers():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=":0")  # fmt: skip
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def _ran(log: Path) -> list[int]:
    return sorted(int(p.name.split("-")[0]) for p in log.iterdir() if p.name[0].isdigit())


def test_a_failed_point_and_a_killed_worker_do_not_sink_the_sweep(two_workers, tmp_path):
    log, cache = tmp_path / "log", tmp_path / "cache"
    log.mkdir()
    grid = [dict(i=i, log=str(log), fail=(3,), kill=(5,)) for i in range(12)]
    out = sweep(point, grid, cache=cache, client=two_workers, progress=False)
    assert (log / "killed-5").exists()  # a worker died mid-sweep
    assert list(out["i"]) == list(range(12))  # grid order, grid columns kept
    ok = out["error"].isna()
    assert list(ok) == [i != 3 for i in range(12)]  # every other point is returned
    assert list(out.loc[ok, "square"]) == [i * i for i in range(12) if i != 3]
    assert out.loc[3, "error"].startswith("RuntimeError: point 3 fails on purpose")
    assert "Traceback" in out.loc[3, "error"]
    assert _ran(log).count(5) == 2  # the point on the dead worker ran again elsewhere
    assert len(list(cache.rglob("*.parquet"))) == 11  # the failed point is not cached

    (log / "cured").touch()
    for entry in log.iterdir():
        if entry.name[0].isdigit():
            entry.unlink()
    again = sweep(point, grid, cache=cache, client=two_workers, progress=False)
    assert _ran(log) == [3]  # only the missing point was computed
    assert again["error"].isna().all() and list(again["square"]) == [i * i for i in range(12)]
    assert len(list(cache.rglob("*.parquet"))) == 12


def test_same_results_serially_and_on_one_or_two_workers(two_workers):
    grid = pd.DataFrame([dict(seed=s, allocation=a) for s in range(6)
                         for a in ("random_fit", "best_fit")])  # fmt: skip
    serial = sweep(engine_point, grid, client="serial", progress=False)
    on_two = sweep(engine_point, grid, client=two_workers, progress=False)
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=":0") as one, \
            Client(one) as client:  # fmt: skip
        on_one = sweep(engine_point, grid, client=client, progress=False)
    assert serial["error"].isna().all()
    pd.testing.assert_frame_equal(serial, on_two)
    pd.testing.assert_frame_equal(serial, on_one)
    assert serial["att"].nunique() > 1  # the seeds matter


def test_the_cache_returns_what_was_computed_without_running_again(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    grid = [dict(i=i, log=str(log)) for i in range(4)]
    first = sweep(point, grid, cache=tmp_path / "c", client="serial", progress=False)
    n_runs = len(list(log.iterdir()))
    second = sweep(point, grid, cache=tmp_path / "c", client="serial", progress=False)
    assert len(list(log.iterdir())) == n_runs == 4  # a rerun is free
    pd.testing.assert_frame_equal(first, second)  # ints stay ints


def test_a_scheduler_from_the_environment_is_attached_once(two_workers, monkeypatch, tmp_path):
    address = two_workers.scheduler.address
    monkeypatch.setenv(SCHEDULER_ENV, address)
    grid = [dict(i=i, log=str(tmp_path)) for i in range(4)]
    first = sweep(point, grid, progress=False)
    assert first["error"].isna().all() and os.getpid() not in set(first["pid"])  # on workers
    clients = two_workers.run_on_scheduler(_clients)
    sweep(point, grid, progress=False)
    assert two_workers.run_on_scheduler(_clients) == clients  # the same client again
    close()
    assert two_workers.run_on_scheduler(_clients) == clients - 1


def _clients(dask_scheduler) -> int:
    return len(dask_scheduler.clients)


def test_serial_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(SCHEDULER_ENV, "serial")
    out = sweep(point, [dict(i=2, log=str(tmp_path))], progress=False)
    assert out.loc[0, "pid"] == os.getpid()


@dataclass(frozen=True)
class Knob:
    depth: int
    label: str = "x"


def test_an_edited_package_computes_its_points_again(monkeypatch):
    """The key holds the package version and its sources' fingerprint."""
    from hpcmodels import __version__
    from hpcmodels import sweep as sweep_module

    key = point_key(engine_point, {"seed": 1})
    assert sweep_module.package_version().startswith(f"{__version__}+")
    monkeypatch.setattr(sweep_module, "package_version", lambda: f"{__version__}+edited")
    assert point_key(engine_point, {"seed": 1}) != key


def test_keys_are_stable_and_tell_points_apart():
    a = point_key(engine_point, {"seed": 1, "allocation": "random_fit"})
    assert a == point_key(engine_point, {"allocation": "random_fit", "seed": np.int64(1)})
    assert a != point_key(engine_point, {"seed": 2, "allocation": "random_fit"})
    assert a != point_key(point, {"seed": 1, "allocation": "random_fit"})
    k = point_key(engine_point, {"knob": Knob(3), "arr": np.arange(3), "t": (1.5, None)})
    assert k == point_key(engine_point, {"knob": Knob(3), "arr": np.arange(3), "t": [1.5, None]})
    assert k != point_key(engine_point, {"knob": Knob(4), "arr": np.arange(3), "t": (1.5, None)})


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: sweep(point, "i=1", client="serial"), "grid must be"),
        (lambda: sweep(point, [1, 2], client="serial"), "grid row 0"),
        (lambda: sweep(point, [{"error": 1}], client="serial"), "error column"),
        (lambda: sweep(point, [{"not an id": 1}], client="serial"), "not an identifier"),
        (lambda: sweep(lambda i: {}, [{"i": 1}], client="serial"), "module-level"),
        (lambda: sweep(point, [{"i": object()}], client="serial"), "parameter i"),
        (lambda: sweep(point, [{"i": 1, "log": "."}], client="threads"), "client must be"),
        (lambda: sweep(point, [{"i": 1, "log": "."}], client=3), "client must be"),
    ],
)
def test_bad_input_is_named(call, match):
    with pytest.raises(InvalidParameter, match=match):
        call()


def bad_result(i: int):
    return [i]


def test_a_result_that_is_not_a_dict_is_that_point_s_error():
    out = sweep(bad_result, [{"i": 1}], client="serial", progress=False)
    error = out.loc[0, "error"]  # InvalidType: one of ours, and a TypeError
    assert error.startswith("InvalidType") and "not a dict" in error


def test_raise_failures_names_the_first_failed_point(tmp_path):
    grid = [dict(i=i, log=str(tmp_path), fail=(2,)) for i in range(3)]
    out = sweep(point, grid, client="serial", progress=False)
    with pytest.raises(RuntimeError, match=r"1 of 3 points of squares failed; the first, .*'i': 2"):
        raise_failures(out, "squares")
    assert raise_failures(out[out["i"] < 2], "squares") is not None


def test_an_empty_grid_gives_an_empty_frame():
    out = sweep(point, [], client="serial", progress=False)
    assert out.empty and "error" in out


def test_sweep_results_are_the_results_alone_or_an_error(tmp_path):
    grid = [dict(i=i, log=str(tmp_path)) for i in range(3)]
    results = sweep_results(point, grid, client="serial", progress=False, desc="squares")
    assert [r["square"] for r in results] == [0, 1, 4] and "i" not in results[0]
    assert sweep_results(point, [], client="serial") == []
    with pytest.raises(RuntimeError, match=r"of point \(squares\) failed"):
        sweep_results(point, [dict(i=1, log=str(tmp_path), fail=(1,))], client="serial",
                      progress=False, desc="squares")  # fmt: skip
