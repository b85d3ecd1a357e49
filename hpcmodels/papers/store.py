"""The paper-scale store: every paper's ensembles, computed once and committed.

``results/<paper>.parquet`` holds one row per single run and item: ``item`` (a stable
key), ``replicate``, ``value``, then the keyword arguments of the paper's point function
that produced it (scalars only), so that any row can be recomputed.
``results/<paper>.provenance.json`` says how the file was made: package version, commit,
source fingerprint, command, machine, start and end time and the wall time of each
sweep. Nobody edits these files by hand: ``python -m hpcmodels reproduce --full``
writes them (:func:`compute_store`), the report and the notebooks read them
(:func:`read_store`), and a test recomputes the cheapest point of every kind of run.

Checking the store: :data:`KINDS` names, per paper, the parameters that make a *kind*
of run (a method, module, policy, section or figure); :func:`kind_points` gives the
cheapest stored point of every kind (:func:`checked_points`: all but
:data:`SLOW_KINDS`), :func:`recompute_point` computes a point again and :func:`drift`
lists every item of it that moved (``make test`` and ``reproduce --full
--missing-only`` do this for every kind); :func:`verify_store` recomputes the whole store or a random share of its points
on Dask (``python -m hpcmodels verify``).

A paper takes part by defining, in its module under :mod:`hpcmodels.papers`:

* ``ensemble_points() -> list[dict]``: the paper-scale points, each the keyword
  arguments of ``ensemble_point`` (scalars; ``replicate`` among them);
* ``ensemble_point(**point) -> dict[str, float]``: one single run, every item it
  measures as ``{item key: value}``;
* ``ensemble_rows(store) -> list[dict]``: the report rows judged from the store by the
  rules of :mod:`hpcmodels.papers.ensemble` (item and quantity as the quick rows name them).

The schema, checked on every read and before every write (issue 51, "the results store
trusts what it reads"):

* columns: ``item`` (strings, none missing), ``replicate`` (an integer dtype, every index
  in ``[0, 10**6 - 1]``), ``value`` (a float dtype, every value finite: the store keeps
  finite values only), then the point's parameters, each a scalar column: bool, integer,
  float (NaN where a point has no such parameter) or strings. Column names are unique
  strings.
* the unique key is (``item``, ``replicate``): one row per single run and item. An item
  names one setting, so all its rows share every parameter but ``replicate`` (a point is
  its parameters, the replicate among them; a point holds several items, an item never
  spans two settings). Both hold on every committed store (checked when this was
  written: 36,300 + 3,600 + 8,880 + 2,960 + 5,510 + 5,590 rows, no duplicated key, no
  item with two settings), and :func:`values` relies on them: a duplicated row would be
  counted twice, an item over two settings would mix them. A duplicated key is an error
  naming it.
* :func:`compute_store` writes the SHA-256 of the Parquet file (and its row count) into
  the provenance (``sha256``, ``rows``); :func:`read_store` hashes the file's bytes and
  refuses one whose digest differs (a flipped byte, a hand edit). A store written before
  checksums (no ``sha256`` in its provenance, or no provenance) is still read, marked
  ``frame.attrs["checksum"] == "unchecked"`` (``"verified"`` otherwise, the digest in
  ``attrs["sha256"]``), until ``reproduce --full --missing-only`` rewrites it: with
  nothing to compute, that run leaves every row, value and dtype as it is (with the same
  pandas and pyarrow, the Parquet bytes too) and adds the checksum.
* the provenance is a JSON object whose ``paper`` is the store's and whose fields have
  their types (:func:`read_provenance`).

A file that breaks any of this is a :class:`~hpcmodels.errors.CorruptStore` naming it
(also an :class:`~hpcmodels.errors.InvalidParameter`; ``python -m hpcmodels`` prints it in
one line and exits with 2), never a raw Arrow or JSON error.

Pairing: two items' runs pair by their ``replicate`` index, never by position.
:func:`runs` gives an item's runs as a Series indexed by ``replicate``, which
:func:`hpcmodels.papers.ensemble.paired_claim` joins on that index (a replicate only one
side holds is left out, and the row says how many and which); :func:`values` gives a
plain array only when its positions are the indices ``0, 1, ..., n - 1`` (a gap is an
error naming the missing replicates), so two arrays of :func:`values` of the same length
pair index by index.

``reproduce --full --missing-only`` (:func:`compute_store` with ``missing_only``) keeps
only rows it can vouch for: the existing store is read as above (a tampered row is
refused, not kept), a store without its provenance is refused (its rows would otherwise
be re-stamped with today's commit: compute it again without ``missing_only``), and the
rewritten store keeps its columns' dtypes (integer columns stay integer).
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import math
import numbers
import os
import platform
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from ..bounds import MAX_REPLICATES
from ..errors import (
    CorruptStore,
    InvalidParameter,
    InvalidType,
    check_bool,
    check_choice,
    check_frame,
    check_path,
    check_real,
)

__all__ = [
    "RESULTS",
    "STORE_COLUMNS",
    "STORE_KEY",
    "ensemble_papers",
    "store_path",
    "read_store",
    "read_provenance",
    "compute_store",
    "values",
    "runs",
    "relative_spread",
    "point_rows",
    "KINDS",
    "SLOW_KINDS",
    "kind_points",
    "checked_points",
    "recompute_point",
    "drift",
    "verify_store",
    "SCALE_COLUMNS",
    "paper_scale",
    "beside",
]

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
STORE_COLUMNS = ("item", "replicate", "value")
STORE_KEY = ("item", "replicate")
"""The store's unique key: one row per single run (``replicate``) and ``item``."""
PAPERS = ("shih2013", "huang2006", "he2006", "jones2005", "filippopoulos", "across")


def _module(paper: str):
    if paper not in PAPERS:
        raise InvalidParameter(f"unknown paper {paper!r}; choose one of {list(PAPERS)}")
    return importlib.import_module(f"hpcmodels.papers.{paper}")


def ensemble_papers() -> list[str]:
    """The papers whose modules define paper-scale ensembles (module docstring)."""
    return [p for p in PAPERS if hasattr(_module(p), "ensemble_points")]


def store_path(paper: str, folder: str | Path | None = None) -> Path:
    """``<folder>/<paper>.parquet`` (``folder=None``: the repository's ``results/``).
    ``folder`` is None or a non-empty ``str`` or ``os.PathLike``: ``""`` (not the default
    folder, nor the current one), a bool or a number is an
    :class:`~hpcmodels.errors.InvalidParameter` naming ``folder``."""
    folder = check_path("folder", folder, optional=True)
    _module(paper)
    return (RESULTS if folder is None else folder) / f"{paper}.parquet"


def _provenance_path(paper: str, folder: str | Path | None) -> Path:
    return store_path(paper, folder).with_suffix(".provenance.json")


def _is_text(column: pd.Series) -> bool:
    """Strings (a string dtype, or an object column of strings and missing values)."""
    if isinstance(column.dtype, pd.StringDtype):
        return True
    return column.dtype == object and pd.api.types.infer_dtype(column, skipna=True) in (
        "string",
        "empty",
    )


def _key_problem(frame: pd.DataFrame) -> str | None:
    """The first duplicated (item, replicate) of ``frame``, in words (None: unique)."""
    twice = frame.duplicated(list(STORE_KEY), keep=False)
    if not twice.any():
        return None
    first = frame.loc[twice, list(STORE_KEY)].iloc[0]
    n = int(((frame["item"] == first["item"]) & (frame["replicate"] == first["replicate"])).sum())
    return (
        f"the key (item, replicate) = ({first['item']!r}, {int(first['replicate'])}) is held "
        f"by {n} rows ({int(frame.duplicated(list(STORE_KEY)).sum())} duplicated row(s) in "
        "all): (item, replicate) must be unique, one row per single run and item"
    )


def _column_problem(frame: pd.DataFrame, exact: bool = True) -> str | None:
    """What is wrong with ``frame``'s columns ``item``, ``replicate`` and ``value`` (their
    presence and types; None: nothing). ``exact``: ``value`` of a float dtype, as a
    stored file has it; else any real dtype (a frame built by hand)."""
    missing = [c for c in STORE_COLUMNS if c not in frame.columns]
    if missing:
        return f"lacks column(s) {missing}: not a paper-scale store"
    if not _is_text(frame["item"]) or frame["item"].isna().any():
        return f"column 'item' must hold strings, none missing (dtype {frame['item'].dtype})"
    replicate = frame["replicate"]
    if not pd.api.types.is_integer_dtype(replicate) or pd.api.types.is_bool_dtype(replicate):
        return f"column 'replicate' must have an integer dtype, got {replicate.dtype}"
    if replicate.isna().any() or (len(replicate) and not 0 <= replicate.min()):
        return "column 'replicate' must hold indices >= 0, none missing"
    if len(replicate) and replicate.max() > MAX_REPLICATES - 1:
        return f"column 'replicate' must hold indices <= {MAX_REPLICATES - 1}"
    value = frame["value"]
    real = pd.api.types.is_numeric_dtype(value) and value.dtype.kind in "iuf"
    if not (pd.api.types.is_float_dtype(value) if exact else real):
        kind = "a float" if exact else "a real number"
        return f"column 'value' must have {kind} dtype, got {value.dtype}"
    if not np.isfinite(value.to_numpy(float)).all():
        return "column 'value' must hold finite numbers (the store keeps finite values only)"
    return None


def _schema_problem(frame: pd.DataFrame) -> str | None:
    """What breaks the store's schema (module docstring) in ``frame``, in words; None
    when nothing does."""
    names = list(frame.columns)
    if not all(isinstance(c, str) for c in names) or len(set(names)) != len(names):
        return f"column names must be unique strings, got {names}"
    problem = _column_problem(frame)
    if problem:
        return problem
    params = [c for c in names if c not in STORE_COLUMNS]
    for c in params:
        if not (_is_text(frame[c]) or frame[c].dtype.kind in "biuf"):
            return (
                f"parameter column {c!r} must hold scalars (bools, numbers or strings), "
                f"got dtype {frame[c].dtype}"
            )
    problem = _key_problem(frame)
    if problem:
        return problem
    settings = frame.drop_duplicates(["item", *params]) if params else frame.head(0)
    mixed = settings["item"].duplicated(keep=False)
    if mixed.any():
        item = settings.loc[mixed, "item"].iloc[0]
        return (
            f"item {item!r} is stored with {int((settings['item'] == item).sum())} different "
            "settings (parameters other than replicate): an item's runs must be runs of one "
            "setting"
        )
    return None


def _read(paper: str, folder: str | Path | None) -> tuple[pd.DataFrame | None, dict | None]:
    """The store (checked as the module docstring says, ``attrs["checksum"]`` and
    ``attrs["sha256"]`` set) and its provenance; None for either when absent."""
    path = store_path(paper, folder)
    if not path.exists():
        return None, None
    provenance = read_provenance(paper, folder)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise CorruptStore(path, f"cannot be read ({err.strerror or type(err).__name__})") from None
    digest = hashlib.sha256(data).hexdigest()
    recorded = (provenance or {}).get("sha256")
    if recorded is not None and recorded != digest:
        raise CorruptStore(
            path,
            f"its SHA-256 is {digest[:16]}..., not the {recorded[:16]}... its provenance "
            "records: the file changed after compute_store wrote it (a flipped byte, a hand "
            "edit, a copy from another run); compute the store again with "
            "`python -m hpcmodels reproduce --full`",
        )
    try:
        frame = pd.read_parquet(io.BytesIO(data))
    except Exception as err:  # any failure to decode the bytes is a corrupt file
        why = " ".join(str(err).split())  # one line, as the CLI prints it
        raise CorruptStore(
            path, f"not a readable Parquet file ({len(data)} bytes; {type(err).__name__}: {why})"
        ) from None
    problem = _schema_problem(frame)
    if problem:
        raise CorruptStore(path, problem)
    frame.attrs["checksum"] = "verified" if recorded is not None else "unchecked"
    frame.attrs["sha256"] = digest
    return frame, provenance


def read_store(paper: str, folder: str | Path | None = None) -> pd.DataFrame | None:
    """The paper's store, or ``None`` when it has not been computed. Checked on every
    read (module docstring): a file that cannot be read, breaks the schema (columns, types,
    the unique key (item, replicate)) or whose SHA-256 differs from its provenance's is a
    :class:`~hpcmodels.errors.CorruptStore` naming it; so is its provenance file, read
    with it (:func:`read_provenance`). ``attrs["checksum"]`` says ``"verified"``, or
    ``"unchecked"`` for a store written before checksums (none in its provenance)."""
    return _read(paper, folder)[0]


_TEXT_FIELDS = (
    "paper",
    "package_version",
    "commit",
    "source_fingerprint",
    "command",
    "started",
    "ended",
)
_SWEEP_TEXT = (
    "sweep",
    "commit",
    "source_fingerprint",
    "command",
    "started",
    "ended",
    "kept_checksum",
)
_SWEEP_COUNTS = ("points", "rows", "points_from_cache", "kept_rows")


def _count(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 0


def _provenance_problem(info, paper: str) -> str | None:
    """What is wrong with a provenance record (its fields and their types), or None."""
    if not isinstance(info, dict):
        return f"must hold a JSON object, got {type(info).__name__}"
    missing = [k for k in (*_TEXT_FIELDS, "machine", "sweeps") if k not in info]
    if missing:
        return f"lacks field(s) {missing}"
    wrong = [k for k in (*_TEXT_FIELDS, "data") if k in info and not isinstance(info[k], str)]
    if wrong:
        return f"field(s) {wrong} must be strings"
    if info["paper"] != paper:
        return f"is the provenance of {info['paper']!r}, not of {paper!r}"
    if not isinstance(info["machine"], dict):
        return "field 'machine' must be a JSON object"
    sha = info.get("sha256")
    if sha is not None and not (
        isinstance(sha, str) and len(sha) == 64 and set(sha) <= set("0123456789abcdef")
    ):
        return f"field 'sha256' must be 64 lowercase hex digits, got {sha!r:.80}"
    if "rows" in info and not _count(info["rows"]):
        return f"field 'rows' must be a whole number >= 0, got {info['rows']!r:.80}"
    sweeps = info["sweeps"]
    if not isinstance(sweeps, list) or not sweeps:
        return "field 'sweeps' must be a non-empty list"
    for i, sweep in enumerate(sweeps):
        if not isinstance(sweep, dict):
            return f"sweeps[{i}] must be a JSON object"
        for k in ("points", "rows", "wall_seconds"):
            if k not in sweep:
                return f"sweeps[{i}] lacks field {k!r}"
        for k in _SWEEP_TEXT:
            if k in sweep and not isinstance(sweep[k], str):
                return f"sweeps[{i}].{k} must be a string, got {sweep[k]!r:.80}"
        for k in _SWEEP_COUNTS:
            if k in sweep and not _count(sweep[k]):
                return f"sweeps[{i}].{k} must be a whole number >= 0, got {sweep[k]!r:.80}"
        wall = sweep["wall_seconds"]
        if not (
            isinstance(wall, int | float)
            and not isinstance(wall, bool)
            and math.isfinite(wall)
            and wall >= 0
        ):
            return f"sweeps[{i}].wall_seconds must be a number of seconds >= 0, got {wall!r:.80}"
    return None


def read_provenance(paper: str, folder: str | Path | None = None) -> dict | None:
    """How the paper's store was made (``<paper>.provenance.json``: package version,
    commit, source fingerprint, command, machine, times, sweeps and, since issue 51, the
    store's ``sha256`` and ``rows``), or ``None`` when there is none. A file that is not
    UTF-8 JSON, not an object, of another paper, or whose fields lack their types is a
    :class:`~hpcmodels.errors.CorruptStore` naming it."""
    path = _provenance_path(paper, folder)
    if not path.exists():
        return None
    try:
        info = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise CorruptStore(path, f"not valid UTF-8 JSON ({' '.join(str(err).split())})") from None
    except OSError as err:
        raise CorruptStore(path, f"cannot be read ({err.strerror or type(err).__name__})") from None
    problem = _provenance_problem(info, paper)
    if problem:
        raise CorruptStore(path, problem)
    return info


def _commit() -> str:
    import subprocess

    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "hpcmodels"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        )
        return out.stdout.strip() + ("+uncommitted package changes" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _rows(points: list[dict], results: list[dict]) -> pd.DataFrame:
    rows = []
    for point, result in zip(points, results, strict=True):
        # a sweep's results carry every point's keys (NaN where a point has no such item)
        mine = {item: float(v) for item, v in result.items() if v is not None and np.isfinite(v)}
        if not mine:
            raise InvalidParameter(f"ensemble point {point} gave no finite value: {result}")
        for item, value in mine.items():
            rows.append({"item": item, "value": value, **point})
    frame = pd.DataFrame(rows)
    frame["replicate"] = frame["replicate"].astype(np.int64)
    return frame.sort_values(["item", "replicate"], kind="stable", ignore_index=True)


def _point_key(point: dict, columns: list[str]) -> tuple:
    """A point's parameters over ``columns`` (None where it has none), to match a point
    with its stored rows (a stored NaN reads None, a stored 2.0 equals 2)."""
    return tuple((c, point.get(c)) for c in columns)


def _stored_points(store: pd.DataFrame) -> dict[tuple, pd.DataFrame]:
    params = sorted(c for c in store.columns if c not in ("item", "value"))
    return {
        _point_key(_parameters(rows.iloc[0]), params): rows
        for _, rows in store.groupby(params, dropna=False, sort=False)
    }


def _check_only_adds(paper: str, stored: dict[tuple, pd.DataFrame], listed: set) -> None:
    """``--missing-only`` adds points, it never drops one: a stored point that today's
    ``ensemble_points()`` no longer lists is an :class:`InvalidParameter` naming one, and
    nothing is written. Without its workload log (``HPCMODELS_DATA`` unset, no download)
    a paper lists none of that log's points, and the run used to drop their stored rows
    without a word."""
    dropped = [key for key in stored if key not in listed]
    if not dropped:
        return
    example = {k: v for k, v in dropped[0] if v is not None}
    raise InvalidParameter(
        f"{paper}: the store holds {len(dropped)} point(s) that today's ensemble "
        f"points do not list (of {len(stored)} stored), e.g. {example}; --missing-only only "
        "adds points. Is a workload log missing (set HPCMODELS_DATA)? To drop points on "
        "purpose, compute the whole store again without --missing-only"
    )


def _check_reproduced(paper: str, store: pd.DataFrame, rtol: float = 1e-12) -> None:
    """Recompute the cheapest stored point of every kind of run (:func:`checked_points`)
    with today's code; an InvalidParameter naming the first point with an item that moved
    beyond ``rtol`` (relative), or that only one side has."""
    for point in checked_points(paper, store):
        moved = drift(point_rows(store, point), recompute_point(paper, point), rtol)
        if not moved.empty:
            first = moved.iloc[0]
            raise InvalidParameter(
                f"{paper}: today's code gives {first['now']!r} for the stored "
                f"{first['item']!r} (replicate {first['replicate']}), stored "
                f"{first['stored']!r} ({len(moved)} item(s) of point {point} moved): results "
                "moved, so compute the whole store again (without missing_only)"
            )


def _cached(func, points: list[dict], cache: str | Path | None) -> int:
    """How many of ``points`` the sweep cache already holds (``cache``: None or a folder,
    :func:`hpcmodels.sweep.cache_folder`)."""
    from ..sweep import cache_folder, cache_path, point_key

    folder = cache_folder(cache)
    if folder is None:
        return 0
    return sum(cache_path(folder, point_key(func, p)).exists() for p in points)


def compute_store(
    paper: str,
    *,
    folder: str | Path | None = None,
    cache: str | Path | None = None,
    client=None,
    progress: bool = True,
    command: str = "",
    missing_only: bool = False,
) -> Path:
    """Run the paper's ensemble points as one sweep (``cache``: a folder of finished
    points, so an interrupted run resumes; ``client``: where they run) and write the
    store and its provenance. A failed point raises, naming it, and writes nothing.

    ``missing_only``: keep the stored rows and compute only the points the store lacks
    (a stored point that ``ensemble_points()`` no longer lists is an InvalidParameter
    naming it: it only adds), after reading the store as
    :func:`read_store` does (its schema, and its SHA-256 against the provenance's: a
    tampered or corrupt store is a :class:`~hpcmodels.errors.CorruptStore`, nothing
    kept), refusing a store without its provenance (a CorruptStore naming the missing
    file: its rows' commit is unknown) and checking that today's code reproduces the
    cheapest stored rows to 1e-12 (else an InvalidParameter: results moved, compute
    everything). The provenance then lists each sweep with the commit, source
    fingerprint, command and times of the call that computed it, and, for the rows
    kept, how many (``kept_rows``) and whether their checksum was ``verified`` or
    ``unchecked`` (``kept_checksum``: a store written before checksums). With nothing to
    compute, the store is written back unchanged (rows, values, dtypes) with its checksum.

    Every write checks the store's schema first (an InvalidParameter naming the
    duplicated key or the bad column, nothing written), then writes the Parquet file and
    the provenance with the file's ``sha256`` and ``rows``, each through a temporary file.

    ``folder`` and ``cache`` are None or non-empty folder names, ``progress`` and
    ``missing_only`` bools, all checked before any work."""
    from ..sweep import cache_folder, package_version, sweep_results

    missing_only = check_bool("missing_only", missing_only)
    progress = check_bool("progress", progress)
    cache_folder(cache)
    store_path(paper, folder)  # the paper and the folder
    module = _module(paper)
    if not hasattr(module, "ensemble_points"):
        raise InvalidParameter(f"paper {paper!r} has no paper-scale ensembles yet")
    points = module.ensemble_points()
    for point in points:
        if "replicate" not in point:
            raise InvalidParameter(f"{paper}: ensemble point {point} has no 'replicate'")
    kept = None
    old, earlier = _read(paper, folder) if missing_only else (None, None)
    if old is not None:
        if earlier is None:
            raise CorruptStore(
                _provenance_path(paper, folder),
                "missing: the stored runs have no record of the commit that computed them "
                "nor a checksum, so --missing-only cannot keep them (it would stamp them "
                "with today's commit); compute the whole store again, without --missing-only",
            )
        stored = _stored_points(old)
        columns = sorted(c for c in old.columns if c not in ("item", "value"))
        have = [set(p) <= set(columns) and _point_key(p, columns) in stored for p in points]
        kept = [stored[_point_key(p, columns)] for p, h in zip(points, have, strict=True) if h]
        listed = {_point_key(p, columns) for p, h in zip(points, have, strict=True) if h}
        _check_only_adds(paper, stored, listed)
        _check_reproduced(paper, old)
        points = [p for p, h in zip(points, have, strict=True) if not h]
    started = datetime.now(UTC)
    commit, fingerprint = _commit(), package_version()  # the code that computes the runs
    from_cache = _cached(module.ensemble_point, points, cache)
    began = time.perf_counter()
    results = sweep_results(
        module.ensemble_point,
        points,
        cache=cache,
        client=client,
        progress=progress,
        desc=f"{paper} ensembles",
    )
    wall = time.perf_counter() - began
    # no empty frame joins the kept rows: pandas would make their integer columns floats
    parts = [*(kept or []), *([_rows(points, results)] if points else [])]
    frame = pd.concat(parts, ignore_index=True) if parts else _empty_store()
    frame = frame.sort_values(list(STORE_KEY), kind="stable", ignore_index=True)
    frame.attrs = {}  # pandas would write the read store's attrs (its checksum) into the file
    problem = _schema_problem(frame)
    if problem:
        raise InvalidParameter(f"{paper}: the store to write breaks its schema: {problem}")
    path = store_path(paper, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    data = buffer.getvalue()
    from .. import __version__

    ended = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    made = {
        "commit": commit,
        "source_fingerprint": fingerprint,
        "command": command or "python -m hpcmodels reproduce --full",
        "started": started.strftime("%Y-%m-%d %H:%M:%S UTC"),
        "ended": ended,
    }
    sweep = {
        "sweep": f"{paper} ensembles",
        "points": len(points),
        "rows": len(frame) - sum(len(k) for k in kept or []),
        "wall_seconds": round(wall, 1),
    }
    if from_cache:
        sweep["points_from_cache"] = from_cache  # computed earlier, by the same code
    if old is not None:  # the rows kept, and whether their file's checksum was verified
        sweep["kept_rows"] = len(frame) - sweep["rows"]
        sweep["kept_checksum"] = old.attrs["checksum"]
    sweeps = [sweep]
    if earlier:  # each earlier sweep keeps the commit and times of the call that made it
        sweeps = [
            {**s, **{k: s.get(k, earlier.get(k)) for k in made}} for s in earlier["sweeps"]
        ] + [{**sweep, **made}]
    provenance = {
        "paper": paper,
        "package_version": __version__,
        **made,
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "processor": platform.processor(),
        },
        "sweeps": sweeps,
        "data": os.environ.get("HPCMODELS_DATA", ""),
        "rows": len(frame),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    _replace(path, data)
    _replace(_provenance_path(paper, folder), (json.dumps(provenance, indent=1) + "\n").encode())
    return path


def _empty_store() -> pd.DataFrame:
    """A store of no rows, with the schema's dtypes."""
    return pd.DataFrame(
        {
            "item": pd.Series([], dtype=object),
            "replicate": pd.Series([], dtype=np.int64),
            "value": pd.Series([], dtype=float),
        }
    )


def _replace(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it, so a reader never
    sees half a file."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _store_frame(store, name: str = "store", columns=STORE_COLUMNS) -> pd.DataFrame:
    """``store`` checked at the door of a helper: a DataFrame with ``columns`` of the
    schema's types and no duplicated (item, replicate) key, else an
    :class:`~hpcmodels.errors.InvalidParameter` (:class:`~hpcmodels.errors.InvalidType`
    for no DataFrame) naming ``name``."""
    check_frame(name, store, columns)
    if "replicate" in columns:
        problem = _column_problem(store, exact=False)
    else:
        value = store["value"]
        real = pd.api.types.is_numeric_dtype(value) and value.dtype.kind in "iuf"
        problem = None if real else f"column 'value' must hold numbers, got dtype {value.dtype}"
    if problem is None and "replicate" in store.columns:
        problem = _key_problem(store)
    if problem:
        raise InvalidParameter(f"{name}: {problem}")
    return store


def _item(item) -> str:
    if not isinstance(item, str):
        raise InvalidType(f"item must be a string (an item key of the store), got {item!r:.80}")
    return item


def runs(store: pd.DataFrame, item: str) -> pd.Series:
    """The item's single-run values as a Series indexed by ``replicate`` (sorted), named
    ``item``: the form that pairs two items by replicate index
    (:func:`hpcmodels.papers.ensemble.paired_claim` joins two such Series on it). ``store``
    is a DataFrame with the schema's ``item``, ``replicate`` and ``value`` and no
    duplicated (item, replicate) (else an InvalidParameter naming ``store``); an item the
    store lacks is an error naming it."""
    store, item = _store_frame(store), _item(item)
    rows = store[store["item"] == item]
    if rows.empty:
        raise InvalidParameter(f"the store has no rows for item {item!r}")
    index = pd.Index(rows["replicate"].to_numpy(np.int64), name="replicate")
    return pd.Series(rows["value"].to_numpy(float), index=index, name=item).sort_index()


def values(store: pd.DataFrame, item: str) -> np.ndarray:
    """The item's single-run values in replicate order, when its replicates are ``0, 1,
    ..., n - 1``: position i is replicate i, so two items' arrays of the same length pair
    index by index. An item with a gap (a replicate missing below its largest) is an
    InvalidParameter naming the item and the missing replicates, never an array whose
    positions would pair the wrong runs (use :func:`runs` to pair what both items hold).
    An item the store lacks, and a ``store`` that is no store frame (:func:`runs`), are
    errors naming them."""
    series = runs(store, item)
    index = series.index.to_numpy()
    if index[-1] != len(index) - 1:  # sorted and unique: 0..n-1 exactly when the last is n-1
        missing = sorted(set(range(int(index[-1]) + 1)) - set(index.tolist()))
        shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
        raise InvalidParameter(
            f"item {item!r} lacks replicate(s) {shown} of 0 to {int(index[-1])}: its values "
            "by position would pair the wrong runs; pair by replicate index with store.runs"
        )
    return series.to_numpy()


def relative_spread(store: pd.DataFrame) -> pd.Series:
    """Each item's sample standard deviation over its replicates divided by the absolute
    mean (NaN for a mean of 0): how far one run of the item moves, per item. ``store`` is
    a DataFrame with columns ``item`` and ``value`` (numbers); where it has ``replicate``,
    a duplicated (item, replicate) is an error (it would count one run twice)."""
    store = _store_frame(store, columns=["item", "value"])
    grouped = store.groupby("item")["value"]
    mean = grouped.mean().abs()
    return (grouped.std(ddof=1) / mean.where(mean > 0)).rename("relative sd")


def _parameters(row: pd.Series) -> dict:
    point = {}
    for key, value in row.items():
        if key in ("item", "value"):
            continue
        if isinstance(value, float) and np.isnan(value):
            value = None
        elif isinstance(value, np.generic):
            value = value.item()
        point[key] = value
    return point


KINDS = {
    "shih2013": ("study", "wid", "policy"),
    "huang2006": ("study",),
    "he2006": ("study", "algorithm", "allocation"),
    "jones2005": ("study", "strategy", "selection", "limit"),
    "filippopoulos": ("study", "figure"),
    "across": ("sweep", "selection", "workload"),
}
"""Per paper, the point parameters whose values make a kind of run: Shih's studies
(Table 4's four methods, Section 5's figures) per workload and inner policy; Huang's
load and slowdown tables; He's dispatchers per figure; Jones's strategies and modules
per section and FPFS reading; Filippopoulos's figures (each point runs the optimal,
heuristic and local policies); notebook 06's sweeps per queue policy and workload."""


def _points(store: pd.DataFrame) -> pd.DataFrame:
    """One row per stored point (its parameters), in store order."""
    return store.drop_duplicates([c for c in store.columns if c not in ("item", "value")])


def kind_points(paper: str, store: pd.DataFrame) -> list[dict]:
    """The cheapest stored point (the paper's ``ensemble_cost``) of every kind of run
    (:data:`KINDS`), as keyword arguments of its ``ensemble_point``."""
    columns = KINDS[check_choice("paper", paper, list(KINDS))]
    check_frame("store", store, ["item", "value", "replicate"])
    columns = [c for c in columns if c in store]
    cost = getattr(_module(paper), "ensemble_cost", lambda point: 0.0)
    firsts = _points(store)
    points = [_parameters(r) for _, r in firsts.iterrows()]
    best: dict[tuple, dict] = {}
    for point in points:
        kind = tuple(_text(point.get(c)) for c in columns)
        if kind not in best or cost(point) < cost(best[kind]):
            best[kind] = point
    return list(best.values())


SLOW_KINDS = {("jones2005", "section4 break-even")}
"""(paper, study) kinds that :func:`checked_points` leaves to :func:`verify_store`: Jones's
Section 4 break-even bisections, about 22 runs of 8 to 32 million jobs each (minutes to
an hour per point); their runs are Section 4 First-Fit runs at a penalty, the kind the
curve points check."""


def checked_points(paper: str, store: pd.DataFrame) -> list[dict]:
    """:func:`kind_points` but :data:`SLOW_KINDS`: what ``make test`` and ``reproduce --full
    --missing-only`` recompute."""
    return [p for p in kind_points(paper, store) if (paper, p.get("study")) not in SLOW_KINDS]


def _text(value) -> str:
    """A parameter as text: None and NaN alike, 2.0 and 2 alike."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "None"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _point(point, name: str = "point") -> Mapping:
    """A point: a mapping of parameter names (strings) to scalars (None, bools, numbers,
    strings), else an InvalidType naming ``name``."""
    if not isinstance(point, Mapping):
        raise InvalidType(
            f"{name} must be a mapping of parameter to value, got {type(point).__name__}"
        )
    for key, value in point.items():
        if not isinstance(key, str):
            raise InvalidType(f"{name}'s parameter names must be strings, got {key!r:.80}")
        if value is not None and not isinstance(value, str | numbers.Number):
            raise InvalidType(f"{name}[{key!r}] must be a scalar, got {value!r:.80}")
    return point


def recompute_point(paper: str, point: dict) -> dict[str, float]:
    """A stored point computed again with today's code: ``{item: value}``. ``point`` is a
    mapping of parameter names to scalars (else an InvalidType naming it)."""
    module = _module(paper)
    return dict(module.ensemble_point(**_point(point)))


def point_rows(store: pd.DataFrame, point: dict) -> pd.DataFrame:
    """The stored rows of ``point`` (every item of that single run): the rows whose
    every parameter of ``point`` equals its value (None or NaN: the rows without it).
    ``store`` is a DataFrame with ``item`` and ``value`` holding every parameter of
    ``point``, a mapping of parameter names to scalars; else an error naming them."""
    check_frame("store", store, ["item", "value"])
    point = _point(point)
    check_frame("store", store, list(point))
    mask = np.ones(len(store), bool)
    for key, value in point.items():
        column = store[key]
        if value is None or (isinstance(value, float) and np.isnan(value)):
            mask &= column.isna().to_numpy()
        else:
            mask &= (column == value).to_numpy()
    return store[mask]


def drift(rows: pd.DataFrame, now: dict[str, float], rtol: float = 1e-12) -> pd.DataFrame:
    """The items of one point whose stored value (``rows``) and recomputed value
    (``now``; the store keeps finite values only, so a non-finite one counts as absent)
    differ by more than ``rtol`` relative, or that only one side has (NaN on the other):
    columns ``item``, ``replicate``, ``stored``, ``now``, ``relative``."""
    rows = _store_frame(rows, "rows")
    if rows["replicate"].nunique() > 1:
        raise InvalidParameter(
            "rows must be the rows of one point (one replicate), got replicates "
            f"{sorted(rows['replicate'].unique().tolist())[:10]}"
        )
    if not isinstance(now, Mapping):
        raise InvalidType(f"now must be a mapping of item to value, got {type(now).__name__}")
    for k, v in now.items():
        if not isinstance(k, str):
            raise InvalidType(f"now's items must be strings, got {k!r:.80}")
        if v is not None and (not isinstance(v, numbers.Real) or isinstance(v, bool)):
            raise InvalidType(f"now[{k!r}] must be a number or None, got {v!r:.80}")
    rtol = check_real("rtol", rtol, at_least=0)
    stored = dict(zip(rows["item"], rows["value"], strict=True))
    now = {k: float(v) for k, v in now.items() if v is not None and np.isfinite(v)}
    replicate = int(rows["replicate"].iloc[0]) if len(rows) else -1
    out = []
    for item in sorted(set(stored) | set(now)):
        old, new = stored.get(item, np.nan), now.get(item, np.nan)
        if abs(new - old) <= rtol * abs(old):  # False when either is NaN
            continue
        relative = abs(new - old) / abs(old) if old else np.inf
        out.append(dict(item=item, replicate=replicate, stored=old, now=new, relative=relative))
    return pd.DataFrame(out, columns=["item", "replicate", "stored", "now", "relative"])


def verify_store(
    paper: str,
    *,
    sample: float = 1.0,
    seed: int = 0,
    folder: str | Path | None = None,
    client=None,
    progress: bool = True,
    rtol: float = 1e-12,
) -> tuple[int, int, pd.DataFrame]:
    """Recompute every stored point of ``paper`` (or a random share ``sample`` in (0, 1]
    of them, drawn with ``seed``) with today's code, as ``reproduce --full`` computes
    them (a Dask sweep, no cache), and compare every item. Returns (points recomputed,
    values compared, the drifted items with their point's parameters). ``progress`` is
    a bool; ``seed`` a whole number in [0, 2**63 - 1]."""
    from ..bounds import MAX_SEED
    from ..errors import check_int
    from ..sweep import sweep_results

    progress = check_bool("progress", progress)

    sample = check_real("sample", sample, above=0, at_most=1)
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    store = read_store(paper, folder)
    if store is None:
        raise InvalidParameter(f"{paper} has no store: run reproduce --full first")
    points = [_parameters(r) for _, r in _points(store).iterrows()]
    if sample < 1:
        rng = np.random.default_rng(seed)
        k = max(1, int(np.ceil(sample * len(points))))
        points = [points[i] for i in sorted(rng.choice(len(points), k, replace=False))]
    results = sweep_results(
        _module(paper).ensemble_point,
        points,
        cache=None,
        client=client,
        progress=progress,
        desc=f"{paper} verify",
    )
    drifted, compared = [], 0
    for point, result in zip(points, results, strict=True):
        rows = point_rows(store, point)
        compared += len(rows)
        found = drift(rows, result, rtol)
        if len(found):
            drifted.append(found.assign(**{k: _text(v) for k, v in point.items()}))
    frame = pd.concat(drifted, ignore_index=True) if drifted else drift(store.head(0), {})
    return len(points), compared, frame


SCALE_COLUMNS = ["paper scale", "verdict (paper scale)", "reason (paper scale)"]
_SCALE_ROW = ["kind", "paper", "ours", "verdict", "reason"]  # with item and quantity


def paper_scale(paper: str, folder: str | Path | None = None) -> pd.DataFrame | None:
    """The paper's report rows judged on its store (``None`` when it has no store yet).
    ``paper`` is one of :data:`PAPERS`, ``folder`` as :func:`store_path`; the store is
    read and checked by :func:`read_store`."""
    check_choice("paper", paper, PAPERS)
    store = read_store(paper, folder)
    if store is None or not hasattr(_module(paper), "ensemble_rows"):
        return None
    return pd.DataFrame(_module(paper).ensemble_rows(store))


def _scale_text(row) -> str:
    if row["kind"] == "claim":
        return str(row["ours"])
    if row["verdict"] == "not run" or pd.isna(row.get("mean")):
        return ""  # a log missing here: the verdict and reason say which
    ci = "" if pd.isna(row["ci"]) else f" ± {row['ci']:.3g}"
    return (
        f"{row['mean']:.4g}{ci} (runs {row['low']:.4g} to {row['high']:.4g}, "
        f"{int(row['replicates'])} runs)"
    )


SCALE_NUMBERS = ["scale mean", "scale ci", "scale low", "scale high", "scale replicates"]
"""The paper-scale numbers :func:`beside` keeps with ``numeric=True`` (NaN where none)."""


def beside(
    quick: pd.DataFrame, scale: pd.DataFrame | None, *, numeric: bool = False
) -> pd.DataFrame:
    """The quick rows with the paper-scale value, verdict and reason beside them,
    matched on item and quantity (the n-th of a repeated pair with the n-th); rows of
    the paper scale that the quick run lacks come last, with empty quick columns. No
    store: the paper-scale columns say ``not computed``. ``quick`` is a DataFrame with
    ``item`` and ``quantity``, ``scale`` None or a DataFrame of report rows (``item``,
    ``quantity``, ``kind``, ``paper``, ``ours``, ``verdict``, ``reason``; with ``mean``,
    also ``ci``, ``low``, ``high`` and ``replicates``), else an error naming them.
    ``numeric``: also the columns :data:`SCALE_NUMBERS` (the report's compact tables
    format them by kind)."""
    check_frame("quick", quick, ["item", "quantity"])
    check_bool("numeric", numeric)
    if scale is not None and not check_frame("scale", scale, []).empty:  # empty: no rows
        check_frame("scale", scale, ["item", "quantity", *_SCALE_ROW])
        if "mean" in scale.columns:
            check_frame("scale", scale, ["ci", "low", "high", "replicates"])
    frame = quick.copy()
    kept = SCALE_NUMBERS if numeric else []
    if scale is None or scale.empty:
        for column in SCALE_COLUMNS:
            frame[column] = "" if column != SCALE_COLUMNS[1] else "not computed"
        return frame.assign(**dict.fromkeys(kept, float("nan")))
    key = ["item", "quantity", "_n"]
    other = scale.assign(**{SCALE_COLUMNS[0]: scale.apply(_scale_text, axis=1)})
    for column in SCALE_NUMBERS:
        source = column.removeprefix("scale ")
        other[column] = (
            pd.to_numeric(other[source], errors="coerce") if source in other else float("nan")
        )
    other = other.rename(columns={"verdict": SCALE_COLUMNS[1], "reason": SCALE_COLUMNS[2]})
    other = other.assign(_n=other.groupby(["item", "quantity"]).cumcount())
    left = frame.assign(_n=frame.groupby(["item", "quantity"]).cumcount())
    merged = left.merge(other[key + SCALE_COLUMNS + kept], on=key, how="left", indicator=True)
    extra = other.merge(left[key], on=key, how="left", indicator=True)
    extra = extra[extra["_merge"] == "left_only"]
    merged = merged.drop(columns="_merge")
    merged[SCALE_COLUMNS[1]] = merged[SCALE_COLUMNS[1]].fillna("not computed")
    merged[[SCALE_COLUMNS[0], SCALE_COLUMNS[2]]] = merged[
        [SCALE_COLUMNS[0], SCALE_COLUMNS[2]]
    ].fillna("")
    if not extra.empty:
        rest = extra[["item", "quantity", "kind", "paper"] + SCALE_COLUMNS + kept]
        rest = rest.assign(verdict="")
        merged = pd.concat([merged, rest], ignore_index=True)
    return merged.drop(columns="_n")
