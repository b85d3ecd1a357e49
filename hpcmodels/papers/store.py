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
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import (
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
    "ensemble_papers",
    "store_path",
    "read_store",
    "read_provenance",
    "compute_store",
    "values",
    "relative_spread",
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


def read_store(paper: str, folder: str | Path | None = None) -> pd.DataFrame | None:
    """The paper's store, or ``None`` when it has not been computed."""
    path = store_path(paper, folder)
    if not path.exists():
        return None
    frame = pd.read_parquet(path)
    missing = [c for c in STORE_COLUMNS if c not in frame]
    if missing:
        raise InvalidParameter(f"{path} lacks column(s) {missing}: not a paper-scale store")
    return frame


def read_provenance(paper: str, folder: str | Path | None = None) -> dict | None:
    path = store_path(paper, folder).with_suffix(".provenance.json")
    return json.loads(path.read_text()) if path.exists() else None


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
    from ..sweep import _cache_path, cache_folder, point_key

    folder = cache_folder(cache)
    if folder is None:
        return 0
    return sum(_cache_path(folder, point_key(func, p)).exists() for p in points)


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

    ``missing_only``: keep the stored rows of the points that are still the paper's and
    compute only the points the store lacks, after checking that today's code
    reproduces the cheapest stored rows to 1e-12 (else an InvalidParameter: results
    moved, compute everything). The provenance then lists each sweep with the commit,
    source fingerprint, command and times of the call that computed it.

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
    kept, earlier = None, None
    old = read_store(paper, folder) if missing_only else None
    if old is not None:
        _check_reproduced(paper, old)
        stored = _stored_points(old)
        columns = sorted(c for c in old.columns if c not in ("item", "value"))
        have = [set(p) <= set(columns) and _point_key(p, columns) in stored for p in points]
        kept = [stored[_point_key(p, columns)] for p, h in zip(points, have, strict=True) if h]
        points = [p for p, h in zip(points, have, strict=True) if not h]
        earlier = read_provenance(paper, folder) or {}
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
    frame = _rows(points, results) if points else pd.DataFrame(columns=list(STORE_COLUMNS))
    if kept:
        frame = pd.concat([*kept, frame], ignore_index=True)
        frame = frame.sort_values(["item", "replicate"], kind="stable", ignore_index=True)
    path = store_path(paper, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(path, index=False)
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
    }
    path.with_suffix(".provenance.json").write_text(json.dumps(provenance, indent=1) + "\n")
    return path


def values(store: pd.DataFrame, item: str) -> np.ndarray:
    """The item's single-run values in replicate order; an item the store lacks is an
    error naming it."""
    rows = store[store["item"] == item].sort_values("replicate", kind="stable")
    if rows.empty:
        raise InvalidParameter(f"the store has no rows for item {item!r}")
    return rows["value"].to_numpy(float)


def relative_spread(store: pd.DataFrame) -> pd.Series:
    """Each item's sample standard deviation over its replicates divided by the absolute
    mean (NaN for a mean of 0): how far one run of the item moves, per item."""
    if not isinstance(store, pd.DataFrame) or not {"item", "value"} <= set(store.columns):
        raise InvalidParameter(
            "store must be a paper-scale store frame with columns 'item' and "
            f"'value', got {type(store).__name__}"
        )
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
    "filippopoulos": ("figure",),
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


def recompute_point(paper: str, point: dict) -> dict[str, float]:
    """A stored point computed again with today's code: ``{item: value}``."""
    return dict(_module(paper).ensemble_point(**point))


def point_rows(store: pd.DataFrame, point: dict) -> pd.DataFrame:
    """The stored rows of ``point`` (every item of that single run)."""
    mask = np.ones(len(store), bool)
    for key, value in point.items():
        column = store[key]
        if value is None:
            mask &= column.isna().to_numpy()
        else:
            mask &= (column == value).to_numpy()
    return store[mask]


def drift(rows: pd.DataFrame, now: dict[str, float], rtol: float = 1e-12) -> pd.DataFrame:
    """The items of one point whose stored value (``rows``) and recomputed value
    (``now``; the store keeps finite values only, so a non-finite one counts as absent)
    differ by more than ``rtol`` relative, or that only one side has (NaN on the other):
    columns ``item``, ``replicate``, ``stored``, ``now``, ``relative``."""
    check_frame("rows", rows, ["item", "value", "replicate"])
    if not isinstance(now, Mapping):
        raise InvalidType(f"now must be a mapping of item to value, got {type(now).__name__}")
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


def paper_scale(paper: str, folder: str | Path | None = None) -> pd.DataFrame | None:
    """The paper's report rows judged on its store (``None`` when it has no store yet)."""
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


def beside(quick: pd.DataFrame, scale: pd.DataFrame | None) -> pd.DataFrame:
    """The quick rows with the paper-scale value, verdict and reason beside them,
    matched on item and quantity (the n-th of a repeated pair with the n-th); rows of
    the paper scale that the quick run lacks come last, with empty quick columns. No
    store: the paper-scale columns say ``not computed``."""
    frame = quick.copy()
    if scale is None or scale.empty:
        for column in SCALE_COLUMNS:
            frame[column] = "" if column != SCALE_COLUMNS[1] else "not computed"
        return frame
    key = ["item", "quantity", "_n"]
    other = scale.assign(**{SCALE_COLUMNS[0]: scale.apply(_scale_text, axis=1)})
    other = other.rename(columns={"verdict": SCALE_COLUMNS[1], "reason": SCALE_COLUMNS[2]})
    other = other.assign(_n=other.groupby(["item", "quantity"]).cumcount())
    left = frame.assign(_n=frame.groupby(["item", "quantity"]).cumcount())
    merged = left.merge(other[key + SCALE_COLUMNS], on=key, how="left", indicator=True)
    extra = other.merge(left[key], on=key, how="left", indicator=True)
    extra = extra[extra["_merge"] == "left_only"]
    merged = merged.drop(columns="_merge")
    merged[SCALE_COLUMNS[1]] = merged[SCALE_COLUMNS[1]].fillna("not computed")
    merged[[SCALE_COLUMNS[0], SCALE_COLUMNS[2]]] = merged[
        [SCALE_COLUMNS[0], SCALE_COLUMNS[2]]
    ].fillna("")
    if not extra.empty:
        rest = extra[["item", "quantity", "kind", "paper"] + SCALE_COLUMNS].assign(verdict="")
        merged = pd.concat([merged, rest], ignore_index=True)
    return merged.drop(columns="_n")
