"""Command line: ``python -m hpcmodels reproduce [notebook ...]`` and ``report``.

``reproduce`` executes notebooks with papermill at their quick defaults (or with
``-p name value`` overrides), keeps the executed copies in ``build/notebooks/``, and
writes ``build/REPORT.md`` from the results every notebook saved in ``build/results/``.
``reproduce --full`` first computes each selected paper's paper-scale store
(``results/<paper>.parquet`` and its provenance, :mod:`hpcmodels.papers.store`: every
item as an ensemble of single runs at the paper's own size), its sweeps on Dask
(``--scheduler``, else ``HPCMODELS_DASK_SCHEDULER``, else a local cluster) with finished
points kept in ``build/full/cache`` (an interrupted run resumes), then runs the notebooks
at their quick defaults; ``build/REPORT.md`` shows each item's quick and paper-scale
verdicts side by side.

``verify [PAPER ...] [--sample FRACTION]`` recomputes the stored runs (all, or a random
share of each store's points) with today's code on Dask, as ``reproduce --full``
computes them, and prints every item that drifted beyond 1e-12 relative with its stored
and new value; it exits non-zero if any did.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import time
from pathlib import Path

from .errors import check_bool
from .papers.records import read_notebook, read_record
from .papers.report import write_report

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
BUILD = Path(os.environ.get("HPCMODELS_BUILD", ROOT / "build"))
FULL = "full"  # build/full/cache: the sweep points of --full's paper-scale ensembles


def _matches(selector: str, notebook: Path) -> bool:
    """A number selects by the notebook's number ("3" and "03" pick 03, "0" none);
    other text by a name prefix or one of the ``_``-separated words."""
    number = notebook.stem.split("_")[0]
    if selector.isdigit():
        return number.isdigit() and int(selector) == int(number)
    return bool(selector) and (
        notebook.name.startswith(selector) or selector in notebook.stem.split("_")
    )


def find_notebooks(selectors: list[str]) -> list[Path]:
    """All notebooks, or those a selector picks: its number ("03" or "3"), a name prefix
    ("03_he") or one of its ``_``-separated words ("he2006"; "05" does not pick
    "jones2005", and "0" picks nothing rather than every notebook)."""
    available = sorted(p for p in NOTEBOOKS.glob("[0-9]*.ipynb"))
    if not available:
        raise SystemExit(
            f"no notebooks in {NOTEBOOKS}: the notebooks are not part of the "
            "installed package; run from a checkout of the project"
        )
    if not selectors:
        return available
    chosen = []
    for sel in selectors:
        matches = [p for p in available if _matches(sel, p)]
        if not matches:
            names = ", ".join(p.name for p in available)
            raise SystemExit(f"no notebook matches {sel!r}; available: {names}")
        chosen += [m for m in matches if m not in chosen]
    return chosen


def _parse_value(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _kind(value) -> str:
    """The kind of a parameter value, for the type check (an int is also a float)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number" if isinstance(value, float) else "int"
    if isinstance(value, list | tuple):
        return "sequence"
    return type(value).__name__


SET_BY_REPRODUCE = ("results_dir", "figures_dir")
"""Notebook parameters ``reproduce`` sets itself (where a run writes): not ``-p`` names."""


def check_parameters(notebooks: list[Path], parameters: dict) -> None:
    """Every ``-p`` name is a parameter of every selected notebook (its ``parameters``
    cell), and its value has the kind of that parameter's default (int, number, bool,
    str, sequence; an int is accepted for a number): a clear error before anything runs.
    A selected notebook that cannot be read is a :class:`~hpcmodels.errors.CorruptFile`
    saying to restore it."""
    import papermill

    for name in parameters:
        if name in SET_BY_REPRODUCE:
            raise SystemExit(
                f"-p {name}: reproduce sets it (build/ for the default run, a folder of its "
                f"own under build/runs/ for a run with -p), so that the committed figures "
                f"and results stay as they are; run the notebook with papermill to choose it"
            )
    for nb in notebooks:
        read_notebook(nb)  # truncated, not JSON, not UTF-8: one sentence, not papermill's trace
        declared = papermill.inspect_notebook(str(nb))
        for name, value in parameters.items():
            if name not in declared:
                raise SystemExit(
                    f"{nb.name} has no parameter {name!r}; its parameters: "
                    f"{', '.join(declared)} (select the notebooks that have it)"
                )
            default = _parse_value(declared[name]["default"])
            if default is None:
                continue
            want, got = _kind(default), _kind(value)
            if want != got and not (want == "number" and got == "int"):
                raise SystemExit(
                    f"parameter {name!r} of {nb.name} must be of kind {want} "
                    f"(default {declared[name]['default']}), got {value!r} ({got})"
                )


def check_kernel(kernel: str | None) -> None:
    """A kernel asked for with ``-k`` must be installed."""
    if kernel is None:
        return
    from jupyter_client.kernelspec import KernelSpecManager

    installed = KernelSpecManager().find_kernel_specs()
    if kernel not in installed:
        raise SystemExit(f"no Jupyter kernel {kernel!r}; installed: {', '.join(sorted(installed))}")


def paper_of(notebook: Path) -> str | None:
    """The paper module (``hpcmodels.papers.<name>``, a module or a package) a notebook
    reproduces: the one whose name appears in the notebook's file name."""
    papers = ROOT / "hpcmodels" / "papers"
    modules = [*papers.glob("*.py"), *(p.parent for p in papers.glob("*/__init__.py"))]
    names = sorted(p.stem for p in modules)
    return next((n for n in names if n in notebook.stem and n not in ("__init__", "report")), None)


def _not_run(notebook: Path, reason: str, out: Path) -> None:
    """Replace the notebook's results with one ``not run`` row (older results of that
    paper would be stale): the report then says why the notebook did not run."""
    import importlib

    import pandas as pd

    from .papers.verdicts import COLUMNS, not_run

    paper = paper_of(notebook)
    if paper is None:
        return
    module = importlib.import_module(f"hpcmodels.papers.{paper}")
    row = not_run(notebook.name, "the whole notebook", None, reason)
    frame = pd.DataFrame([row], columns=COLUMNS)
    frame.insert(0, "title", getattr(module, "TITLE", paper))
    out.mkdir(parents=True, exist_ok=True)
    key = getattr(module, "PAPER", paper)
    frame.to_csv(out / f"{key}.csv", index=False)
    (out / f"{key}.json").unlink(missing_ok=True)  # how an older run was made: stale too


KERNEL = "hpcmodels"  # registered by `make` ("Python (hpcmodels)"); notebooks declare it
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _kernel(kernel: str | None) -> str | None:
    """The kernel to run: the one asked for, else the notebooks' own when it is
    installed, else Python 3 (a plain ``pip install`` registers no kernel)."""
    if kernel is not None:
        return kernel
    from jupyter_client.kernelspec import KernelSpecManager

    return None if KERNEL in KernelSpecManager().find_kernel_specs() else "python3"


def strip_widgets(path: Path) -> None:
    """Drop the stored outputs of the explorer cells (tagged ``nbval-ignore-output``,
    nothing but widgets): a reader without a kernel sees plain tables and figures, and
    the live explorer appears on run. Cells with progress bars keep their outputs."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        tags = cell.metadata.get("tags", []) if cell.cell_type == "code" else []
        if (
            "nbval-ignore-output" in tags
            and cell.outputs
            and all(WIDGET_VIEW in out.get("data", {}) for out in cell.outputs)
        ):
            cell.outputs = []  # an explorer: nothing but widgets
    nbformat.write(nb, path)


def store(selectors: list[str]) -> int:
    """Maintainers: re-run notebooks in place at their defaults (their stored outputs,
    checked by nbval) and strip the widget outputs."""
    import papermill

    for nb in find_notebooks(selectors):
        print(f"==> {nb.name}", flush=True)
        read_notebook(nb)  # a corrupt one: one sentence (CorruptFile), not papermill's trace
        papermill.execute_notebook(
            str(nb), str(nb), cwd=str(NOTEBOOKS), kernel_name=_kernel(None), progress_bar=True
        )
        strip_widgets(nb)
    return 0


def _commit() -> str:
    import subprocess

    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def run_folder(notebook: Path, parameters: dict) -> Path:
    """Where a run with non-default ``parameters`` keeps its figures, results, report and
    executed notebook: ``build/runs/<notebook>-<hash of the parameters>/``."""
    import hashlib
    import json

    digest = hashlib.sha256(json.dumps(parameters, sort_keys=True, default=str).encode())
    return BUILD / "runs" / f"{notebook.stem}-{digest.hexdigest()[:10]}"


def _provenance(results: Path, notebook: Path, parameters: dict) -> None:
    """Record, beside the paper's results, how they were made (the report shows it); a
    record there that is no JSON object is a :class:`~hpcmodels.errors.CorruptFile`."""
    import json
    from datetime import UTC, datetime

    paper = paper_of(notebook)
    if paper is None:
        return
    import importlib

    key = getattr(importlib.import_module(f"hpcmodels.papers.{paper}"), "PAPER", paper)
    record = results / f"{key}.json"
    info = read_record(record) if record.exists() else {}  # the logs, from the run
    info.update(
        {
            "notebook": notebook.name,
            "parameters": parameters or "defaults",
            "commit": _commit(),
            "data": os.environ.get("HPCMODELS_DATA", ""),
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        }
    )
    record.write_text(json.dumps(info, default=str))


def full_parameters(notebook: Path, overrides: dict) -> dict:
    """A notebook's own parameters at its paper's size (:data:`FULL_SCALE`), then the
    user's ``-p`` overrides: for running one notebook itself at paper scale (``reproduce
    03 -p n_jobs 500000 -p seeds 5``); the paper-scale verdicts come from the store."""
    from .papers.full_scale import FULL_SCALE

    paper = paper_of(notebook)
    return dict(FULL_SCALE.get(paper, {}) if paper else {}, **overrides)


def _report(results: Path, report: Path) -> Path:
    return write_report(results, report)


def compute_stores(
    notebooks: list[Path], *, scheduler: str | None, missing_only: bool = False
) -> list[str]:
    """The paper-scale store of every selected notebook's paper that has ensembles
    (:mod:`hpcmodels.papers.store`), its sweep points cached in ``build/full/cache`` (an
    interrupted run resumes); ``missing_only``: only the points the store lacks
    (:func:`~hpcmodels.papers.store.compute_store`). Returns the papers whose points
    failed. ``missing_only`` is a bool."""
    from .papers.store import compute_store, ensemble_papers

    missing_only = check_bool("missing_only", missing_only)

    papers = ensemble_papers()
    failed = []
    for nb in notebooks:
        paper = paper_of(nb)
        if paper not in papers:
            print(f"==> {nb.name}: no paper-scale ensembles yet (results/ unchanged)", flush=True)
            continue
        print(f"==> {paper}: paper-scale ensembles", flush=True)
        command = "python -m hpcmodels reproduce --full " + nb.name[:2]
        if missing_only:
            command += " --missing-only"
        if scheduler:
            command += f" --scheduler {scheduler}"
        try:
            path = compute_store(
                paper, cache=BUILD / FULL / "cache", command=command, missing_only=missing_only
            )
        except RuntimeError as err:  # a failed point (raise_failures names it)
            print(f"--> {paper}: {err}", flush=True)
            failed.append(paper)
            continue
        print(f"--> {path} written", flush=True)
    return failed


def reproduce(
    selectors: list[str],
    parameters: dict,
    kernel: str | None,
    *,
    full: bool = False,
    scheduler: str | None = None,
    missing_only: bool = False,
) -> int:
    """Run the notebooks; one that fails is reported in one sentence and the others
    still run; ``build/REPORT.md`` is written in any case. A missing workload log makes
    its notebook ``not run`` in the report (the sentence says which log and where to
    put it); any other failure exits non-zero after the report is written. With
    ``parameters``, every notebook writes under its own :func:`run_folder` instead of
    ``figures/`` and ``build/results/``, so the committed figures and the default report
    stay as they are. With ``full``, the selected papers' paper-scale stores are computed
    first (:func:`compute_stores`; ``missing_only``: only the points each store lacks);
    a paper whose points fail is reported and the exit code is non-zero. ``full`` and
    ``missing_only`` are bools."""
    import papermill

    full = check_bool("full", full)
    missing_only = check_bool("missing_only", missing_only)

    from .sweep import SCHEDULER_ENV

    notebooks = find_notebooks(selectors)
    check_parameters(notebooks, parameters)
    check_kernel(kernel)
    if scheduler:
        os.environ[SCHEDULER_ENV] = scheduler  # the notebooks' kernels inherit it
    failed, folders = [], []
    if full:
        failed += compute_stores(notebooks, scheduler=scheduler, missing_only=missing_only)
    for nb in notebooks:
        print(f"==> {nb.name}", flush=True)
        if parameters:
            where = run_folder(nb, parameters)
            results = where / "results"
            run_parameters = dict(
                parameters, figures_dir=str(where / "figures"), results_dir=str(results)
            )
            output = where / nb.name
            folders.append(where)
        else:
            results = BUILD / "results"
            run_parameters, output = {"results_dir": str(results)}, BUILD / "notebooks" / nb.name
        output.parent.mkdir(parents=True, exist_ok=True)
        results.mkdir(parents=True, exist_ok=True)
        try:
            papermill.execute_notebook(
                str(nb),
                str(output),
                parameters=run_parameters,
                cwd=str(NOTEBOOKS),
                kernel_name=_kernel(kernel),
                progress_bar=True,
            )
            _provenance(results, nb, parameters)
        except papermill.PapermillExecutionError as err:
            if err.ename == "LogNotAvailable":
                print(f"--> {nb.name} not run: {err.evalue}", flush=True)
                _not_run(nb, err.evalue, results)
                continue
            print(
                f"--> {nb.name} failed in cell {err.exec_count}: {err.ename}: {err.evalue} "
                f"(traceback in {output})",
                flush=True,
            )
            failed.append(nb.name)
    if parameters:
        for where in folders:
            report = write_report(where / "results", where / "REPORT.md")
            print(f"custom run ({parameters}): figures, results and report in {where}")
    else:
        report = _report(BUILD / "results", BUILD / "REPORT.md")
        print(f"report: {report}")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def _papers(selectors: list[str]) -> list[str]:
    """Papers named directly (``jones2005``) or by their notebooks (``04``); all with a
    store when none is named."""
    from .papers.store import ensemble_papers

    papers = ensemble_papers()
    if not selectors:
        return papers
    chosen = []
    for sel in selectors:
        names = [sel] if sel in papers else [paper_of(nb) for nb in find_notebooks([sel])]
        for name in names:
            if name not in papers:
                raise SystemExit(f"{sel!r}: no paper-scale store (papers with one: {papers})")
            if name not in chosen:
                chosen.append(name)
    return chosen


def verify(selectors: list[str], *, sample: float, seed: int, scheduler: str | None) -> int:
    """Recompute each selected paper's stored points (``sample``: a random share of them)
    and print every drifted item; 1 if any drifted, else 0."""
    import pandas as pd

    from .errors import InvalidParameter, check_real
    from .papers.store import verify_store
    from .sweep import SCHEDULER_ENV

    try:
        sample = check_real("--sample", sample, above=0, at_most=1)
    except InvalidParameter as err:
        raise SystemExit(str(err)) from None
    papers = _papers(selectors)
    if scheduler:
        os.environ[SCHEDULER_ENV] = scheduler
    drifted = 0
    for paper in papers:
        points, values, found = verify_store(paper, sample=sample, seed=seed)
        drifted += len(found)
        print(
            f"{paper}: {points} points recomputed, {values} stored values compared, "
            f"{len(found)} drifted",
            flush=True,
        )
        if len(found):
            with pd.option_context("display.max_rows", None, "display.width", 200):
                print(found.to_string(index=False, float_format="{:.17g}".format), flush=True)
    print("verify: " + (f"{drifted} stored values drifted" if drifted else "no drift"))
    return 1 if drifted else 0


def check_build(folder: Path) -> None:
    """The build folder exists (or can be made) and takes files; else one sentence
    naming ``HPCMODELS_BUILD`` and the path (``SystemExit``, a nonzero exit)."""
    import tempfile

    why = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except FileExistsError:
        why = "it is a file, not a folder"
    except NotADirectoryError:
        why = "a part of its path is a file"
    except OSError as err:
        why = err.strerror or type(err).__name__
    if why:
        raise SystemExit(
            f"cannot write the build folder {folder} ({why}): set HPCMODELS_BUILD "
            "to a folder you can write, or unset it to use build/ in the checkout"
        )


def warm_apps(apps: list[str]) -> int:
    """Compile and cache the kernels of the apps ``apps`` (every app when empty; see
    :mod:`hpcmodels.warm`). Non-zero when an app failed for another reason than a missing
    workload log (that app cannot open here either; the line says which log)."""
    from .warm import warm

    start = time.perf_counter()
    runs = warm(apps)
    failed = [r.app for r in runs if r.error and not r.error.startswith("LogNotAvailable")]
    compiled = sum(r.compiled for r in runs)
    seconds = time.perf_counter() - start
    print(f"warm: {len(runs)} apps in {seconds:.0f} s, {compiled} kernels compiled")
    if failed:
        print(f"warm: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hpcmodels", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("reproduce", help="run notebooks with papermill and write the report")
    rep.add_argument("notebooks", nargs="*", help="notebook names or prefixes (default: all)")
    rep.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help="papermill parameter override",
    )
    rep.add_argument("-k", "--kernel", default=None, help="kernel name (default: notebook's)")
    rep.add_argument(
        "--full",
        action="store_true",
        help="compute the paper-scale stores (results/) first, then the quick runs beside them",
    )
    rep.add_argument(
        "--missing-only",
        action="store_true",
        help="with --full: keep the stored runs (once a sample of them is recomputed equal) "
        "and compute only the points each store lacks",
    )
    rep.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Dask scheduler address or scheduler file for the sweeps "
        "(default: HPCMODELS_DASK_SCHEDULER, else a local cluster)",
    )
    ver = sub.add_parser(
        "verify", help="recompute the stored runs (results/) and list every item that drifted"
    )
    ver.add_argument("papers", nargs="*", help="papers or notebook prefixes (default: all)")
    ver.add_argument(
        "--sample",
        type=float,
        default=1.0,
        metavar="FRACTION",
        help="recompute a random share (0, 1] of each store's points (default: all)",
    )
    ver.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    ver.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Dask scheduler for the recomputation (as reproduce --full)",
    )
    sub.add_parser("report", help="rebuild build/REPORT.md from build/results/")
    st = sub.add_parser("store", help="maintainers: re-run notebooks in place (stored outputs)")
    st.add_argument("notebooks", nargs="*", help="notebook names or prefixes (default: all)")
    sub.add_parser("site", help="a static offline site of the stored notebooks in build/site")
    wa = sub.add_parser(
        "warm", help="compile and cache the kernels the apps need (notebooks/apps), once, at set-up"
    )
    wa.add_argument("apps", nargs="*", help="app numbers such as 04 (default: every app)")
    args = parser.parse_args(argv)
    from .errors import HpcmodelsError

    try:
        return _run(args)
    except HpcmodelsError as err:  # an expected condition: one sentence, no traceback
        print(f"python -m hpcmodels {args.command}: {err}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    """The chosen subcommand (:func:`main` parsed its arguments)."""
    if args.command in ("reproduce", "report", "site"):
        check_build(BUILD)
    if args.command == "reproduce":
        params = {name: _parse_value(value) for name, value in args.parameter}
        if args.missing_only and not args.full:
            raise SystemExit(
                "--missing-only goes with --full (it says which store points to compute)"
            )
        return reproduce(
            args.notebooks,
            params,
            args.kernel,
            full=args.full,
            scheduler=args.scheduler,
            missing_only=args.missing_only,
        )
    if args.command == "store":
        return store(args.notebooks)
    if args.command == "verify":
        return verify(args.papers, sample=args.sample, seed=args.seed, scheduler=args.scheduler)
    if args.command == "warm":
        return warm_apps(args.apps)
    if args.command == "site":
        from .site import build_site

        print(f"site: {build_site(build=BUILD)}")
        return 0
    print(_report(BUILD / "results", BUILD / "REPORT.md"))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
