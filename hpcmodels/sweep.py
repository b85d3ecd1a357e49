"""Parameter sweeps: one function over a grid of points, on Dask, with a Parquet cache.

``sweep(func, grid)`` calls ``func(**point)`` for every row of ``grid`` and returns one
frame: the grid's columns, the result columns (``func`` returns a dict or a Series) and
``error``: ``None`` where the point succeeded, otherwise the exception's type, message
and traceback. A failed point never sinks the others: an exception in ``func`` is caught
where it runs, and a point whose worker died (a crash, the out-of-memory killer) is
reported as ``KilledWorker`` once Dask gives up on it.

Where the points run (``client=``):

* ``None`` (default): the scheduler named by ``HPCMODELS_DASK_SCHEDULER`` (an address
  such as ``tcp://host:8786``, or the path of a scheduler file), else one
  ``distributed.LocalCluster`` per process, started on first use and shared by every
  later sweep: one worker process per core, one thread each, so numba kernels run in
  parallel and each worker compiles them once (from numba's on-disk cache);
* a ``distributed.Client``: that cluster (a ``dask-jobqueue`` SLURM or PBS cluster, say);
* ``"serial"``: in this process, one point after another, no Dask
  (``HPCMODELS_DASK_SCHEDULER=serial`` makes it the default).

The cache (``cache=`` a folder): one Parquet file per finished point, named by a stable
hash of ``func``'s qualified name and source code (with the whole file of a user module
or script it lives in), the point's parameters and the package version (with a
fingerprint of the package's source files, so edited code never reuses old points). A
``func`` whose source cannot be read is not cached (an error says so). A rerun reads the
points it has and computes only the others, so an interrupted sweep resumes where it
stopped; failed points are not cached. ``cache=None`` keeps nothing; otherwise
``cache`` is a non-empty ``str`` or ``os.PathLike`` naming a folder (created when
missing): ``""``, which would be the current folder, a bool, a number or another
object is an :class:`~hpcmodels.errors.InvalidParameter` naming ``cache``, as is a
``progress`` that is not a bool.

Parameters are hashed from a typed canonical form (numbers, strings, sequences,
mappings, NumPy arrays, dataclasses and enums): ``inf`` and ``"inf"``, ``{1: x}`` and
``{"1": x}``, ``1`` and ``True`` get different keys, while a NumPy scalar and the Python
number of the same value, or a tuple and a list, get one. Anything else is an error
naming the parameter, since its ``repr`` may not be stable between processes.

A point that raises (any exception but ``KeyboardInterrupt``, ``sys.exit`` included) is
that point's failure. A script that starts the local cluster from its top-level code
outside ``if __name__ == "__main__":`` is stopped with one sentence saying so (the
workers import the script, which would start the sweep again in each of them). Workload data should reach a
worker once, not per point: pass a log's *name* and load it in ``func`` through a
per-process cache (e.g. :func:`functools.lru_cache`), or scatter it and pass the future.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import functools
import hashlib
import inspect
import json
import math
import os
import sys
import traceback
import warnings
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .errors import InvalidParameter, InvalidType, check_bool, check_path

__all__ = [
    "cache_folder",
    "sweep",
    "sweep_results",
    "raise_failures",
    "point_key",
    "local_client",
    "SCHEDULER_ENV",
    "SERIAL",
]

SCHEDULER_ENV = "HPCMODELS_DASK_SCHEDULER"
SERIAL = "serial"
ERROR = "error"
_LOCAL: dict[str, Any] = {}  # the shared LocalCluster and its client, started on first use


# ------------------------------------------------------------------ points and their keys


def _points(grid) -> list[dict]:
    """The grid as a list of keyword dicts (a DataFrame's rows, or a list of mappings)."""
    if isinstance(grid, pd.DataFrame):
        rows = grid.to_dict("records")
    elif isinstance(grid, Iterable) and not isinstance(grid, str | bytes | Mapping):
        rows = list(grid)
    else:
        raise InvalidParameter(
            f"grid must be a DataFrame or a list of dicts, got {type(grid).__name__}"
        )
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise InvalidParameter(
                f"grid row {i} must be a dict of keyword arguments, got {row!r:.60}"
            )
        for name in row:
            if not isinstance(name, str) or not name.isidentifier():
                raise InvalidParameter(
                    f"grid row {i}: parameter name {name!r} is not an identifier"
                )
            if name == ERROR:
                raise InvalidParameter(f"grid row {i}: {ERROR!r} is the name of the error column")
    return [dict(row) for row in rows]


def _canonical(value, name: str):
    """A JSON-able form of a parameter that is the same in every process and keeps its
    type: strings stay JSON strings, a non-finite float becomes ``{"float": "inf"}``,
    a mapping a sorted list of typed (key, value) pairs."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        value = float(value)
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    if isinstance(value, np.ndarray):
        return {"ndarray": str(value.dtype), "values": _canonical(value.tolist(), name)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {
            f.name: _canonical(getattr(value, f.name), f"{name}.{f.name}")
            for f in dataclasses.fields(value)
        }
        return {"dataclass": type(value).__qualname__, "fields": fields}
    if isinstance(value, Mapping):
        pairs = [
            [_canonical(k, f"{name} key {k!r}"), _canonical(v, f"{name}[{k!r}]")]
            for k, v in value.items()
        ]
        return {"mapping": sorted(pairs, key=lambda kv: json.dumps(kv[0], sort_keys=True))}
    if isinstance(value, list | tuple | range):
        return [_canonical(v, f"{name}[{i}]") for i, v in enumerate(value)]
    raise InvalidParameter(
        f"parameter {name} = {value!r:.60} ({type(value).__name__}) has no stable form for the "
        "cache key: pass numbers, strings, sequences, dicts, arrays or dataclasses"
    )


def _qualified_name(func: Callable) -> str:
    module = getattr(func, "__module__", None)
    name = getattr(func, "__qualname__", None)
    if module is None or name is None or "<lambda>" in name or "<locals>" in name:
        raise InvalidParameter(
            f"func must be a module-level function (its name keys the cache and workers "
            f"import it), got {func!r:.80}"
        )
    return f"{module}.{name}"


@functools.cache
def package_version() -> str:
    """The package version and a fingerprint of its source files: a cached point is
    reused only by the code that computed it (an edited model, even without a new
    version number, computes its points again)."""
    from . import __version__

    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:16]}"


@functools.lru_cache(maxsize=256)
def code_fingerprint(func: Callable) -> str | None:
    """A hash of ``func``'s source and, when it lives outside this package, of its whole
    module file (a script's helper functions and constants count too); ``None`` when the
    source cannot be read (a compiled function, code typed at a bare prompt)."""
    digest = hashlib.sha256()
    try:
        digest.update(inspect.getsource(func).encode())
    except (OSError, TypeError):
        return None
    module = sys.modules.get(getattr(func, "__module__", ""))
    path = getattr(module, "__file__", None)
    package = Path(__file__).resolve().parent
    if path and package not in Path(path).resolve().parents:
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            return None
    return digest.hexdigest()


def point_key(func: Callable, point: Mapping) -> str:
    """The cache key of one point: SHA-256 over ``func``'s qualified name and
    :func:`code_fingerprint`, the point's canonical parameters and
    :func:`package_version`."""
    payload = {
        "func": _qualified_name(func),
        "code": code_fingerprint(func),
        "params": {k: _canonical(v, k) for k, v in sorted(point.items())},
        "version": package_version(),
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# ------------------------------------------------------------------ running one point


def run_point(func: Callable, point: dict) -> dict:
    """``func(**point)`` as a dict of results, or ``{"error": ...}`` with the exception's
    type, message and traceback. Runs where the point runs (a worker, or this process)."""
    try:
        result = func(**point)
        if isinstance(result, pd.Series):
            result = result.to_dict()
        if not isinstance(result, Mapping):
            raise InvalidType(
                f"{_qualified_name(func)} returned {type(result).__name__}, not a dict or a Series"
            )
        clash = [k for k in result if k in point or k == ERROR]
        if clash:
            raise InvalidParameter(f"result columns {clash} clash with the grid's or 'error'")
        return {**result, ERROR: None}
    except KeyboardInterrupt:
        raise
    except (
        BaseException
    ) as err:  # every failure (sys.exit too) is the point's, none sinks the sweep
        return {ERROR: f"{type(err).__name__}: {err}\n{traceback.format_exc()}"}


# ------------------------------------------------------------------ the cache


def cache_folder(cache: object) -> Path | None:
    """The sweep cache's folder: ``None`` for ``cache=None`` (keep nothing), else
    ``cache`` as a :class:`~pathlib.Path` if it is a non-empty ``str`` or
    ``os.PathLike``; ``""`` (the current folder, by accident), a bool, a number, bytes
    or another object, or a file where the folder should be, is an
    :class:`~hpcmodels.errors.InvalidParameter` naming ``cache``
    (:func:`~hpcmodels.errors.check_path`)."""
    return check_path("cache", cache, optional=True)


def _cache_path(cache: Path, key: str) -> Path:
    return cache / key[:2] / f"{key}.parquet"


def _read_cached(cache: Path, key: str) -> dict | None:
    path = _cache_path(cache, key)
    if not path.exists():
        return None
    try:
        return pd.read_parquet(path).to_dict("records")[0]  # (iloc[0] would upcast ints)
    except Exception:  # a file cut short by an interrupted write: compute the point again
        return None


def _write_cached(cache: Path, key: str, result: dict) -> None:
    path = _cache_path(cache, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    frame = pd.DataFrame([{k: v for k, v in result.items() if k != ERROR}])
    frame.to_parquet(tmp, index=False)
    tmp.replace(path)  # atomic: a reader never sees half a file


# ------------------------------------------------------------------ clients


def _main_guard(test: ast.expr) -> bool:
    """Whether ``test`` is ``__name__ == "__main__"`` (either way round)."""
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return False
    sides = {ast.unparse(test.left), ast.unparse(test.comparators[0])}
    return "__name__" in sides and bool(sides & {"'__main__'", '"__main__"'})


def unguarded_line() -> int | None:
    """The line of the running script's top-level code (``__main__`` with a file) that
    is starting the local cluster outside ``if __name__ == "__main__":``, or ``None``
    (guarded, a notebook, an interactive session, a library call)."""
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    if not path:
        return None
    frame = inspect.currentframe()
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__main__":
            break
        frame = frame.f_back
    if frame is None:
        return None
    line = frame.f_lineno
    try:
        tree = ast.parse(Path(frame.f_code.co_filename).read_text())
    except (OSError, SyntaxError, ValueError):
        return None
    guarded = any(
        isinstance(node, ast.If)
        and _main_guard(node.test)
        and node.lineno <= line <= (node.end_lineno or node.lineno)
        for node in tree.body
    )
    return None if guarded else line


def local_client():
    """The process's shared ``LocalCluster`` client, started on first use: one worker
    process per core, one thread each. From a script's top-level code outside
    ``if __name__ == "__main__":`` it stops with one sentence (module docstring)."""
    from distributed import Client, LocalCluster

    client = _LOCAL.get("client")
    if client is None or client.status not in ("running", "connecting"):
        line = unguarded_line()
        if line is not None:
            script = sys.modules["__main__"].__file__
            raise RuntimeError(
                f"{script}, line {line}, starts a local Dask cluster outside "
                "'if __name__ == \"__main__\":', and its worker processes import the script, "
                f"so put the sweep under that guard (or set {SCHEDULER_ENV}=serial)"
            )
        cluster = LocalCluster(
            n_workers=os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
        )
        client = Client(cluster)
        _LOCAL.update(cluster=cluster, client=client)
    return client


def close() -> None:
    """Close the clients (and the LocalCluster) this module started or attached; the
    next sweep starts again."""
    for key in [k for k in _LOCAL if k != "cluster"] + ["cluster"]:  # clients first
        item = _LOCAL.pop(key, None)
        if item is not None:
            item.close()


def _attached(where: str):
    """One client per scheduler named in :data:`SCHEDULER_ENV` (an address, or the path
    of a scheduler file), kept for the process's later sweeps."""
    from distributed import Client

    client = _LOCAL.get(where)
    if client is None or client.status not in ("running", "connecting"):
        client = Client(scheduler_file=where) if os.path.exists(where) else Client(where)
        _LOCAL[where] = client
    return client


def _resolve(client):
    """The client to run on, or :data:`SERIAL`."""
    if client is None:
        where = os.environ.get(SCHEDULER_ENV, "").strip()
        if where == SERIAL:
            return SERIAL
        if where:
            return _attached(where)
        return local_client()
    if isinstance(client, str):
        if client == SERIAL:
            return SERIAL
        raise InvalidParameter(
            f"client must be a distributed.Client, None or 'serial', got {client!r}"
        )
    if not hasattr(client, "map") or not hasattr(client, "submit"):
        raise InvalidParameter(
            f"client must be a distributed.Client, None or 'serial', got {client!r:.60}"
        )
    return client


# ------------------------------------------------------------------ the sweep


def sweep(
    func: Callable[..., Mapping],
    grid,
    *,
    cache: str | Path | None = None,
    client=None,
    progress: bool = True,
    desc: str | None = None,
) -> pd.DataFrame:
    """Call ``func(**point)`` for every point of ``grid``; one row per point, in grid
    order: the grid's columns, the result columns and ``error`` (module docstring).
    ``cache``: None or a folder (:func:`cache_folder`); ``progress``: a bool."""
    cache_dir = cache_folder(cache)
    progress = check_bool("progress", progress)
    points = _points(grid)
    name = _qualified_name(func)
    keys = [point_key(func, p) for p in points]
    if cache_dir is not None and code_fingerprint(func) is None:
        raise InvalidParameter(
            f"cannot cache {name}: its source code cannot be read, so an "
            "edited version would get its old results; pass cache=None "
            "or define it in a module file"
        )
    results: list[dict | None] = [None] * len(points)
    if cache_dir is not None:
        for i, key in enumerate(keys):
            results[i] = _read_cached(cache_dir, key)
    todo = [i for i, r in enumerate(results) if r is None]

    from tqdm.auto import tqdm

    bar = tqdm(
        total=len(points),
        initial=len(points) - len(todo),
        disable=not progress,
        desc=desc or name.rsplit(".", 1)[-1],
    )

    def done(i: int, result: dict) -> None:
        results[i] = result
        if cache_dir is not None and result.get(ERROR) is None:
            try:
                _write_cached(cache_dir, keys[i], result)
            except Exception as err:  # an unstorable result is returned, not cached
                warnings.warn(
                    f"point {i} of {name} not cached ({type(err).__name__}: {err})", stacklevel=3
                )
        bar.update()

    try:
        where = _resolve(client) if todo else SERIAL
        if where == SERIAL:
            for i in todo:
                done(i, run_point(func, points[i]))
        else:
            _run_on(where, func, points, keys, todo, done)
    finally:
        bar.close()
    rows = [
        {**p, **{k: v for k, v in r.items() if k != ERROR}, ERROR: r.get(ERROR)}
        for p, r in zip(points, results, strict=True)
    ]
    frame = pd.DataFrame(rows)
    if ERROR not in frame:
        frame[ERROR] = pd.Series(dtype=object)
    frame[ERROR] = frame[ERROR].astype(object).where(frame[ERROR].notna(), None)
    frame.attrs["grid"] = sorted({k for p in points for k in p})
    return frame


def raise_failures(frame: pd.DataFrame, what: str) -> pd.DataFrame:
    """``frame`` (a :func:`sweep` result) unchanged when every point succeeded; else a
    ``RuntimeError`` naming how many points of ``what`` failed, the first one's
    parameters and its error. For builders whose frames must be whole."""
    failed = frame[frame[ERROR].notna()]
    if failed.empty:
        return frame
    first = failed.iloc[0]
    params = {
        k: v.item() if isinstance(v, np.generic) else v
        for k, v in first.items()
        if k != ERROR and k in frame.attrs.get("grid", k)
    }
    raise RuntimeError(
        f"{len(failed)} of {len(frame)} points of {what} failed; the first, "
        f"{params!r:.300}: {first[ERROR]}"
    )


def sweep_results(
    func: Callable[..., Mapping], grid: list[dict], *, what: str = "", **options
) -> list[dict]:
    """The results of ``sweep(func, grid, **options)``, one dict per point in grid order
    without the grid's columns, for builders whose frames must be whole: a failed point
    raises (:func:`raise_failures`, naming ``func`` and ``what``, by default the sweep's
    ``desc``). ``cache`` and ``progress`` are checked as :func:`sweep` checks them, even
    for an empty grid."""
    cache_folder(options.get("cache"))
    check_bool("progress", options.get("progress", True))
    if not grid:
        return []
    frame = sweep(func, grid, **options)
    what = what or options.get("desc") or ""
    raise_failures(frame, f"{func.__name__} ({what})" if what else func.__name__)
    return frame.drop(columns=[*frame.attrs["grid"], ERROR]).to_dict("records")


def _run_on(client, func, points, keys, todo, done) -> None:
    """The points ``todo`` on a Dask cluster, reporting each as it finishes."""
    from distributed import as_completed

    futures = client.map(
        run_point,
        [func] * len(todo),
        [points[i] for i in todo],
        key=[f"{func.__name__}-{keys[i][:16]}-{n}" for n, i in enumerate(todo)],
        pure=False,
    )
    index = {f.key: i for f, i in zip(futures, todo, strict=True)}
    for future in as_completed(futures):
        i = index[future.key]
        try:
            result = future.result()
        except Exception as err:  # the worker died (KilledWorker) or the task was lost
            result = {ERROR: f"{type(err).__name__}: {err}"}
        done(i, result)
        future.release()
