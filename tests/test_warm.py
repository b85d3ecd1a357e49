"""Warming at set-up (hpcmodels.warm, issue 52): after ``python -m hpcmodels warm`` a
fresh process opening an app loads every kernel it runs from the disk cache and compiles
none, so the app's first opening on a fresh clone shows its controls within seconds."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import nbformat
import numba
import numpy as np
import pytest

from hpcmodels import cli
from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.kernel_cache import compilations
from hpcmodels.warm import APPS, AppRun, app_notebooks, describe, run_app, warm

ROOT = Path(__file__).resolve().parents[1]
NUMBERS = [p.name[:2] for p in sorted(APPS.glob("[0-9][0-9]_app.ipynb"))]


def test_every_app_is_warmed_by_default():
    assert NUMBERS == ["01", "02", "03", "04", "05", "06"]
    assert app_notebooks() == app_notebooks([]) == [APPS / f"{n}_app.ipynb" for n in NUMBERS]
    assert app_notebooks(["04", "01"]) == [APPS / "04_app.ipynb", APPS / "01_app.ipynb"]


def test_compilations_counts_compiling_and_not_calling():
    @numba.njit
    def twice(x):
        return 2 * x

    with compilations() as first:
        twice(1.5)
    with compilations() as again:
        twice(2.5)  # float64 again: compiled already
    with compilations() as other:
        twice(np.int32(3))  # another signature
    assert (first.count, again.count, other.count) == (1, 0, 1)


def git_status() -> str:
    """``git status --porcelain`` of the checkout (what warming must leave as it was)."""
    done = subprocess.run(
        ["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.mark.notebooks
@pytest.mark.parametrize("app", NUMBERS)
def test_after_warming_a_fresh_process_opens_the_app_without_compiling(app):
    before = git_status()
    (warmed,) = warm([app])
    assert git_status() == before  # the cache it wrote is ignored by git
    if warmed.error.startswith("LogNotAvailable"):
        pytest.skip(f"app {app} cannot open here: {warmed.error}")
    assert not warmed.error, describe(warmed)
    (opened,) = warm([app])  # the next opening: a fresh process, as Voila's kernel
    assert not opened.error, describe(opened)
    assert opened.compiled == 0, describe(opened)


def test_make_reproduce_warms_the_apps_before_running_the_notebooks():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nreproduce:", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert [line.strip() for line in recipe] == [
        "$(PY) -m hpcmodels warm",
        "$(PY) -m hpcmodels reproduce",
    ]


@pytest.mark.parametrize(
    "name",
    [
        "hpcmodels/bandwidth/__pycache__/modules.a1_place-120.py311.nbi",
        "hpcmodels/bandwidth/__pycache__/modules.a1_place-120.py311.1.nbc",
        "hpcmodels/__pycache__/kernel-sources.sha256",
    ],
)
def test_the_kernel_cache_is_ignored_by_git(name):
    ignored = subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT)
    assert ignored.returncode == 0, f"{name} is not ignored: warming would dirty git status"


def test_an_app_that_fails_is_reported_not_raised(tmp_path):
    notebook = tmp_path / "07_app.ipynb"
    cells = [nbformat.v4.new_code_cell("raise RuntimeError('broken')")]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), notebook)
    run = run_app(notebook)
    assert (run.app, run.compiled, run.error) == ("07", 0, "RuntimeError: broken")
    assert Path.cwd() != tmp_path  # the working directory is restored
    (child,) = warm(["07"], folder=tmp_path)
    assert child.error == "RuntimeError: broken" and not math.isnan(child.seconds)


@pytest.mark.parametrize(
    ("apps", "error", "match"),
    [
        (
            ["99"],
            InvalidParameter,
            r"apps must name apps of .*\(01, 02, 03, 04, 05, 06\), got '99'",
        ),
        (["4"], InvalidParameter, "apps must name apps .* got '4'"),
        ([4], InvalidParameter, "apps must name apps .* got 4"),
        ("04", InvalidType, "apps must be a list of app numbers"),
        (4, InvalidType, "apps must be a list of app numbers"),
    ],
)
def test_an_app_that_does_not_exist_is_refused_naming_the_argument(apps, error, match):
    with pytest.raises(error, match=match):
        app_notebooks(apps)
    with pytest.raises(error, match=match):
        warm(apps)


def test_a_notebook_or_folder_that_is_not_there_is_refused(tmp_path):
    with pytest.raises(InvalidParameter, match="notebook must be a file name"):
        run_app(tmp_path)
    with pytest.raises(InvalidParameter, match="notebook must be a notebook file"):
        run_app(tmp_path / "missing.ipynb")
    with pytest.raises(InvalidType, match="folder must be a folder name"):
        app_notebooks(None, folder=3)


def test_the_command_refuses_an_unknown_app_in_one_sentence(capsys):
    assert cli.main(["warm", "99"]) == 2
    assert "python -m hpcmodels warm: apps must name apps of" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("error", "code"),
    [("", 0), ("LogNotAvailable: SDSC-SP2 is not here", 0), ("RuntimeError: broken", 1)],
)
def test_the_command_fails_for_a_broken_app_not_for_a_missing_log(monkeypatch, error, code):
    """A missing workload log keeps its app from opening here too: set-up goes on."""
    monkeypatch.setattr("hpcmodels.warm.warm", lambda apps: [AppRun("02", 1.0, 0, error)])
    assert cli.main(["warm", "02"]) == code
