"""Parameter sweeps: one function over a grid of points, on Dask, with a Parquet cache.

``sweep(func, grid)`` calls ``func(**point)`` for every row of ``grid`` and returns one
frame: the grid's columns, the result columns (``func`` returns a dict or a Series) and
``error``: ``None`` where the point succeeded, otherwise the exception's type, message
and traceback. A failed point never sinks the others: an exception in ``func`` is caught
where it runs, and a point whose worker died (a crash, the out-of-memory killer) is
reported as ``KilledWorker`` once Dask gives up on it. ``func`` is a module-level
function, a bound method, a :func:`functools.partial` of one or a callable instance (a
lambda or a function defined inside another is refused: workers import functions by
name).

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
hash of everything that can change its result (:func:`point_key`), so a point is reused
only by the code that computed it:

* ``func``'s qualified name and its compiled code;
* the state ``func`` carries: the instance of a bound method, the arguments of a
  :func:`functools.partial`, the fields of a callable instance, the variables a closure
  captured (a decorator's arguments), in the canonical form of parameters below;
* the source of every module of this package (the source each loaded module was
  compiled from), whichever of them the point calls, and the package version;
* the source of the module ``func`` lives in when it lies outside the package (a
  script, a module beside a notebook) and of every module outside the installed
  packages that it reaches, transitively (a helper module it imports); for a function
  with no module file (a notebook cell) its source must be readable, and the values,
  functions, classes and modules it reads from its namespace are keyed (a constant set
  in another cell counts);
* the Python version and the versions of the installed distributions that code
  imports (numpy, pandas, numba, ...);
* the point's parameters, and the code of the classes of enum and dataclass values.

What cannot be keyed safely is refused with an
:class:`~hpcmodels.errors.InvalidParameter` naming ``func`` and why, ``cache=None``
running it uncached: a function whose source cannot be read, state without a canonical
form (a method of a plain object, a partial or closure holding an open file or a lock, a
notebook function reading a DataFrame from its namespace: make the state a dataclass or
pass it as a parameter), a module whose loaded code differs from its file (edited since
it was imported and not reloaded). Keys are computed from the code *loaded* in the
process, not from today's files, and the process that runs each point (a Dask worker)
checks before and after the point that it holds the key's code: a worker started before
an edit reports the point as a ``StaleCode`` error (restart the workers) rather than
caching an old result under the new key. :mod:`hpcmodels.code_keys` says how, and what
it does not see (code monkeypatched at run time, a partial reload, data files read at
run time). Keying costs 0.3-0.8 s the first time in a process (the package's loaded
modules are compiled once to be compared with their files), then about 10 ms per sweep
and about 0.4 ms per point where it runs (next to some 2 ms to write its Parquet file).

A rerun reads the points it has and computes only the others, so an interrupted sweep
resumes where it stopped; failed points are not cached. ``cache=None`` keeps nothing;
otherwise ``cache`` is a non-empty ``str`` or ``os.PathLike`` naming a folder (created
when missing): ``""``, which would be the current folder, a bool, a number or another
object is an :class:`~hpcmodels.errors.InvalidParameter` naming ``cache``, as is a
``progress`` that is not a bool.

Parameters are hashed from a typed canonical form (numbers, strings, sequences,
mappings, NumPy arrays, dataclasses and enums): ``inf`` and ``"inf"``, ``{1: x}`` and
``{"1": x}``, ``1`` and ``True`` get different keys, as do an enum member and its name
or value, two dataclasses of one name in two modules, a named tuple and a tuple, a
``float`` subclass and a float (a type other than a builtin one is keyed by its module
and qualified name), while a NumPy scalar and the Python number of the same value, or a
tuple and a list, get one. Anything else is an error naming the parameter, since its
``repr`` may not be stable between processes.

A point that raises (any exception but ``KeyboardInterrupt``, ``sys.exit`` included) is
that point's failure. A script that starts the local cluster from its top-level code
outside ``if __name__ == "__main__":`` is stopped with one sentence saying so (the
workers import the script, which would start the sweep again in each of them). Workload data should reach a
worker once, not per point: pass a log's *name* and load it in ``func`` through a
per-process cache (e.g. :func:`functools.lru_cache`), or scatter it and pass the future.
"""

from __future__ import annotations

import ast
import functools
import inspect
import os
import sys
import traceback
import types
import warnings
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import code_keys
from .errors import InvalidParameter, InvalidType, check_bool, check_path

__all__ = [
    "cache_folder",
    "sweep",
    "sweep_results",
    "raise_failures",
    "point_key",
    "code_fingerprint",
    "package_version",
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


def _canonical(value, name: str, found: set | None = None):
    """A parameter's typed canonical form (:func:`hpcmodels.code_keys.canonical`)."""
    return code_keys.canonical(value, name, found)


def _qualified_name(func: Callable) -> str:
    """``module.qualname`` of ``func`` (of the function a :func:`functools.partial`
    wraps, of a callable instance's class); a lambda or a function defined inside
    another is an InvalidParameter (workers import module-level functions by name)."""
    target = func
    while isinstance(target, functools.partial):
        target = target.func
    module = getattr(target, "__module__", None)
    name = getattr(target, "__qualname__", None)
    if name is None and callable(target) and not isinstance(target, type):
        module, name = type(target).__module__, type(target).__qualname__
    if module is None or name is None or "<lambda>" in name or "<locals>" in name:
        raise InvalidParameter(
            f"func must be a module-level function (its name keys the cache and workers "
            f"import it), got {func!r:.80}"
        )
    return f"{module}.{name}"


def _short_name(func: Callable) -> str:
    return _qualified_name(func).rsplit(".", 1)[-1]


def package_version() -> str:
    """The package version and a fingerprint of its modules' sources (the source each
    loaded module was compiled from, :func:`hpcmodels.code_keys.package_sources`): a
    cached point is reused only by the code that computed it (an edited model, even
    without a new version number, computes its points again). An InvalidParameter
    when a loaded module's code matches no source (edited since it was imported)."""
    from . import __version__

    sources = code_keys.package_sources()
    stale = sorted(name for name, known in sources.items() if known is None)
    if stale:
        raise InvalidParameter(
            f"cannot cache: the loaded code of {', '.join(stale[:3])} differs from its file "
            "(edited since it was imported, and not reloaded), so its results could not be "
            "told apart from the file's; restart (or reload the module), or pass cache=None"
        )
    return f"{__version__}+{code_keys.digest(sources)[:16]}"


class _CodeKey:
    """The code part of a sweep's cache keys, computed once per sweep: ``func``'s form
    (:class:`hpcmodels.code_keys.Reach`) and the package's fingerprint; ``key`` adds a
    point's parameters and the code of their types."""

    def __init__(self, func: Callable) -> None:
        self.name = _qualified_name(func)
        self.reach = code_keys.Reach()
        _readable(func, self.name)
        try:
            form = self.reach.callable_form(func, self.name)
        except code_keys.Uncacheable as err:
            raise InvalidParameter(
                f"cannot cache {self.name}: {err}; pass cache=None to run it uncached"
            ) from None
        self.digest = code_keys.digest([code_keys.python_version(), form])
        self.version = package_version()

    def key(self, point: Mapping) -> str:
        found: set[type] = set()
        params = {k: _canonical(v, f"parameter {k}", found) for k, v in sorted(point.items())}
        try:
            types_ = self.reach.types_form(found)
        except code_keys.Uncacheable as err:
            raise InvalidParameter(f"cannot cache {self.name}: {err}") from None
        payload = {
            "func": self.name,
            "code": self.digest,
            "params": params,
            "types": types_,
            "version": self.version,
        }
        return code_keys.digest(payload)

    def expectation(self) -> dict:
        """What the process running a point must hold (after every :meth:`key`)."""
        return self.reach.expectation(code_keys.package_sources())


def _readable(func: Callable, name: str) -> None:
    """A function with no module file (a notebook's) must have its source in reach."""
    target = func
    while isinstance(target, functools.partial | types.MethodType):
        target = target.func if isinstance(target, functools.partial) else target.__func__
    file = target.__globals__.get("__file__") if isinstance(target, types.FunctionType) else ""
    if file is None or file.startswith("<"):  # a cell, a prompt, standard input
        try:
            inspect.getsource(target)
        except (OSError, TypeError):
            raise InvalidParameter(
                f"cannot cache {name}: its source code cannot be read, so an "
                "edited version would get its old results; pass cache=None "
                "or define it in a module file"
            ) from None


def code_fingerprint(func: Callable) -> str:
    """A digest of the code ``func`` runs outside the package (whose fingerprint is
    :func:`package_version`) and of the state it carries (module docstring,
    :mod:`hpcmodels.code_keys`); an InvalidParameter saying why when that cannot be
    keyed safely."""
    return _CodeKey(func).digest


def point_key(func: Callable, point: Mapping) -> str:
    """The cache key of one point: SHA-256 over ``func``'s qualified name, its code and
    state (:func:`code_fingerprint`), the point's canonical parameters with the code of
    their types, and :func:`package_version`."""
    return _CodeKey(func).key(point)


def _plain_key(name: str, point: Mapping) -> str:
    """A key for an uncached sweep (it names the Dask tasks): the function's name and
    the point's canonical parameters, which checks that they have one."""
    params = {k: _canonical(v, f"parameter {k}") for k, v in sorted(point.items())}
    return code_keys.digest({"func": name, "params": params})


# ------------------------------------------------------------------ running one point


def run_point(func: Callable, point: dict, expect: Mapping | None = None) -> dict:
    """``func(**point)`` as a dict of results, or ``{"error": ...}`` with the exception's
    type, message and traceback. Runs where the point runs (a worker, or this process).
    With ``expect`` (a cached sweep's :meth:`_CodeKey.expectation`), a process whose
    loaded code is not the key's, before or after the point, reports a
    :class:`~hpcmodels.code_keys.StaleCode` error instead of a result."""
    try:
        code_keys.check_running(expect)
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
        code_keys.check_running(expect)  # modules the point imported are today's files
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


def cache_path(cache: Path, key: str) -> Path:
    return cache / key[:2] / f"{key}.parquet"


def _read_cached(cache: Path, key: str) -> dict | None:
    path = cache_path(cache, key)
    if not path.exists():
        return None
    try:
        return pd.read_parquet(path).to_dict("records")[0]  # (iloc[0] would upcast ints)
    except Exception:  # a file cut short by an interrupted write: compute the point again
        return None


def _write_cached(cache: Path, key: str, result: dict) -> None:
    path = cache_path(cache, key)
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
    expect = None
    if cache_dir is None:
        keys = [_plain_key(name, p) for p in points]
    else:
        code = _CodeKey(func)
        keys = [code.key(p) for p in points]
        expect = code.expectation()
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
                done(i, run_point(func, points[i], expect))
        else:
            _run_on(where, func, points, keys, todo, done, expect)
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
    parameters (its grid columns, else all) and its error. For builders whose frames
    must be whole. ``frame`` is a DataFrame with the ``error`` column (an empty one
    passes), ``what`` a str: else an :class:`~hpcmodels.errors.InvalidParameter`
    naming the argument."""
    from .errors import check_frame

    check_frame("frame", frame, [ERROR])
    if not isinstance(what, str):
        raise InvalidType(f"what must be a str naming the sweep, got {what!r:.80}")
    failed = frame[frame[ERROR].notna()]
    if failed.empty:
        return frame
    first = failed.iloc[0]
    grid = frame.attrs.get("grid", frame.columns)
    params = {
        k: v.item() if isinstance(v, np.generic) else v
        for k, v in first.items()
        if k != ERROR and k in grid
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
    short = _short_name(func)
    raise_failures(frame, f"{short} ({what})" if what else short)
    return frame.drop(columns=[*frame.attrs["grid"], ERROR]).to_dict("records")


def _run_on(client, func, points, keys, todo, done, expect=None) -> None:
    """The points ``todo`` on a Dask cluster, reporting each as it finishes; ``expect``
    (the code the workers must hold) is sent to each worker once."""
    from distributed import as_completed

    if expect is not None and hasattr(client, "scatter"):
        expect = client.scatter([expect], broadcast=True)[0]
    short = _short_name(func)
    futures = client.map(
        run_point,
        [func] * len(todo),
        [points[i] for i in todo],
        [expect] * len(todo),
        key=[f"{short}-{keys[i][:16]}-{n}" for n, i in enumerate(todo)],
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
