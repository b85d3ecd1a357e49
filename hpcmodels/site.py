"""``python -m hpcmodels site`` (``make site``): the suite as a static, offline website in
``build/site``, built with Sphinx and MyST-NB from what is stored, never re-executed.

The pages are staged in ``build/site-src`` (nothing in the checkout is written):
``docs/site`` (the configuration and the front page), every notebook of ``notebooks/``
with its stored outputs and a first cell saying how to open it live, the report
(``build/REPORT.md`` after ``make reproduce``; else a page saying so) with its links
pointed at the staged notebooks and figures, and the notes of ``docs/``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .errors import check_bool, check_path
from .papers.report import read_notebook, read_text

__all__ = ["stage", "build_site"]

ROOT = Path(__file__).resolve().parents[1]
LIVE = (
    "*Static page: the outputs as stored in the repository. To run it and move the "
    "explorers' controls, open it live from a checkout: `make lab` (JupyterLab) or "
    "`make app NOTEBOOK={number}` (this notebook as an app).*"
)
NO_REPORT = """# Reproduction report

The report is written by a reproduction run: `make reproduce` writes `build/REPORT.md`,
and `make site` then includes it here.
"""


def _notebook(source: Path, target: Path) -> None:
    """Copy a notebook with a first markdown cell saying how to open it live (a notebook
    that cannot be read is a :class:`~hpcmodels.errors.CorruptFile` saying to restore
    it)."""
    nb = read_notebook(source)
    note = {"cell_type": "markdown", "id": "open-live", "metadata": {},
            "source": LIVE.format(number=source.name[:2])}  # fmt: skip
    cells = nb["cells"]
    at = 1 if cells and cells[0]["cell_type"] == "markdown" else 0  # after the title
    nb["cells"] = [*cells[:at], note, *cells[at:]]
    target.write_text(json.dumps(nb))


def _report(build: Path, target: Path) -> None:
    """The report with its links to ``../notebooks`` and ``../figures`` made local; a
    report that is no UTF-8 text is a :class:`~hpcmodels.errors.CorruptFile` saying to
    write it again or delete it."""
    report = build / "REPORT.md"
    if not report.exists():
        target.write_text(NO_REPORT)
        return
    remedy = "rerun `make reproduce` to write it again, or delete it (the site then says how)"
    text = re.sub(r"\]\(\.\./(notebooks|figures)/", r"](\1/", read_text(report, remedy))
    target.write_text(text)


def stage(folder: Path, build: Path | None = None) -> Path:
    """Stage every page of the site in ``folder`` (emptied first); ``build``: where the
    report is read (``None``: ``build/``); both are non-empty folder names
    (:func:`~hpcmodels.errors.check_path`)."""
    folder = check_path("folder", folder)
    build = check_path("build", build, optional=True) or ROOT / "build"
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(ROOT / "docs" / "site", folder)
    for page in sorted((ROOT / "docs").glob("*.md")):
        shutil.copy(page, folder / page.name)
    (folder / "notebooks").mkdir()
    for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        _notebook(nb, folder / "notebooks" / nb.name)
    shutil.copytree(ROOT / "figures", folder / "figures")
    _report(build, folder / "report.md")
    return folder


def build_site(out: Path | None = None, *, build: Path | None = None, quiet: bool = True) -> Path:
    """Stage the pages and build the HTML site in ``out`` (default ``build/site``);
    returns the front page. Sphinx's failure exits with its message. ``quiet`` (a bool):
    Sphinx's output only when it fails. ``out`` and ``build`` are None (the defaults) or
    non-empty folder names: ``""`` is an :class:`~hpcmodels.errors.InvalidParameter`
    naming it, not the default."""
    quiet = check_bool("quiet", quiet)
    build = check_path("build", build, optional=True) or ROOT / "build"
    out = check_path("out", out, optional=True) or build / "site"
    source = stage(build / "site-src", build)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-j", "auto", str(source), str(out)]
    done = subprocess.run(command + (["-q"] if quiet else []), capture_output=quiet, text=True)
    if done.returncode:
        raise SystemExit(f"the site did not build (sphinx exit {done.returncode}):\n"
                         f"{done.stderr if quiet else ''}")  # fmt: skip
    return out / "index.html"
