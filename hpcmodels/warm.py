"""Compile the kernels the apps need once, at set-up (issue 52):
``python -m hpcmodels warm [NN ...]``.

The JIT compiles a ``cache=True`` kernel the first time a process calls it with a type
signature its disk cache (``__pycache__/*.nbi``, ``*.nbc`` beside the source, ignored by
git) lacks. On a fresh clone that cache is empty, and the first opening of an app
compiled every kernel its explorers run before it showed a control (app 04: 173 s, then
2 s once cached). Warming runs each app's code cells (``notebooks/apps/NN_app.ipynb``),
each app in a fresh Python process as Voila's kernel would, so every signature the first
opening needs is compiled and written to the cache, and the opening loads it. Each run
counts the kernels compiled (:func:`hpcmodels.kernel_cache.compilations`): a second
warm run, or the first opening after it, compiles none.

``make reproduce`` (the README's first command) warms first; on a warm cache warming
costs each app's opening time and compiles nothing. (This module leaves the compiler to
:mod:`~hpcmodels.kernel_cache`, so that editing it keeps the cached kernels:
:func:`~hpcmodels.kernel_cache.kernel_sources`.)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import InvalidParameter, InvalidType, check_path

__all__ = ["APPS", "AppRun", "app_notebooks", "describe", "run_app", "warm"]

APPS = Path(__file__).resolve().parent.parent / "notebooks" / "apps"
"""The explorers-only apps, ``NN_app.ipynb`` (``make app NOTEBOOK=NN``)."""


@dataclass(frozen=True)
class AppRun:
    """One app's cells run in a fresh process: the app (``"04"``), the seconds its cells
    took, how many kernels were compiled on the way (0: all loaded from the cache), and
    the error that stopped it (``""`` when none: ``"LogNotAvailable: ..."`` when the
    app's workload log is missing)."""

    app: str
    seconds: float
    compiled: int
    error: str = ""


def app_notebooks(apps: Sequence[str] | None = None, folder: Path = APPS) -> list[Path]:
    """The app notebooks ``folder/NN_app.ipynb`` named by ``apps`` (two-digit numbers such
    as ``"04"``; ``None`` or empty: every app), in order. An entry that names no app is an
    :class:`~hpcmodels.errors.InvalidParameter` naming ``apps`` and the apps there are."""
    folder = check_path("folder", folder)
    found = {p.name[:2]: p for p in sorted(folder.glob("[0-9][0-9]_app.ipynb"))}
    if apps is None:
        return list(found.values())
    if isinstance(apps, str | bytes) or not isinstance(apps, Sequence):
        raise InvalidType(f"apps must be a list of app numbers such as ['04'], got {apps!r}")
    unknown = [a for a in apps if not isinstance(a, str) or a not in found]
    if unknown:
        raise InvalidParameter(
            f"apps must name apps of {folder} ({', '.join(found) or 'none there'}), "
            f"got {unknown[0]!r}"
        )
    return [found[a] for a in (apps or list(found))]


def run_app(notebook: Path) -> AppRun:
    """Run ``notebook``'s code cells in this process, as a Voilà app opens (its folder as
    the working directory, output discarded), counting the kernels compiled. An error
    stops the run and is returned in :attr:`AppRun.error`, never raised."""
    import nbformat

    from .kernel_cache import compilations

    notebook = check_path("notebook", notebook, folder=False)
    if not notebook.is_file():
        raise InvalidParameter(f"notebook must be a notebook file, got {str(notebook)!r}")
    cells = [c.source for c in nbformat.read(notebook, as_version=4).cells if c.cell_type == "code"]
    start, error = time.perf_counter(), ""
    here = Path.cwd()
    with compilations() as compiled:
        try:
            os.chdir(notebook.parent)
            scope: dict = {"__name__": "__main__"}
            with contextlib.redirect_stdout(io.StringIO()):
                for source in cells:
                    exec(compile(source, str(notebook), "exec"), scope)  # noqa: S102
        except Exception as err:  # reported by the caller: one app failing warms the others
            error = f"{type(err).__name__}: {err}"
        finally:
            os.chdir(here)
    return AppRun(notebook.name[:2], time.perf_counter() - start, compiled.count, error)


def warm(apps: Sequence[str] | None = None, folder: Path = APPS) -> list[AppRun]:
    """Run every app of ``apps`` (:func:`app_notebooks`) in a fresh Python process, so that
    the kernels its first opening needs are compiled and cached; returns each run, printing a
    line per app as it ends."""
    runs = []
    for notebook in app_notebooks(apps, folder):
        env = dict(os.environ, MPLBACKEND="Agg")
        done = subprocess.run(
            [sys.executable, "-m", "hpcmodels.warm", str(notebook)],
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            run = AppRun(notebook.name[:2], float("nan"), 0, f"exit {done.returncode}: {last}")
        else:
            run = AppRun(**json.loads(done.stdout.strip().splitlines()[-1]))
        runs.append(run)
        print(describe(run), flush=True)
    return runs


def describe(run: AppRun) -> str:
    """One line on ``run``: the app, its seconds and kernels compiled, or its error."""
    text = f"app {run.app}: {run.seconds:.1f} s, {run.compiled} kernels compiled"
    return f"{text}; stopped by {run.error}" if run.error else text


if __name__ == "__main__":  # warm()'s child: one app, its AppRun as JSON on the last line
    print(json.dumps(run_app(Path(sys.argv[1])).__dict__))
