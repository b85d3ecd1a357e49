"""numba's cache of the package's kernels follows an edited callee (hpcmodels.kernel_cache):
numba keys a cached kernel by its own file only, so a caller compiled with an older
callee would run the old code."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hpcmodels import kernel_cache
from hpcmodels.errors import InvalidParameter

CALLEE = "import numba\n\n\n@numba.njit(cache=True)\ndef value():\n    return {}\n"
CALLER = textwrap.dedent(
    """\
    import numba

    from .callee import value


    @numba.njit(cache=True)
    def read():
        return value()
    """
)
INIT = textwrap.dedent(
    """\
    from pathlib import Path

    from hpcmodels.kernel_cache import refresh

    refresh(Path(__file__).parent)
    """
)


def toy(tmp_path: Path, refreshing: bool = True) -> Path:
    """A package ``toy`` of two cached kernels in two files, and a module no kernel
    reaches; its ``__init__`` refreshes its cache as hpcmodels' does."""
    root = tmp_path / "toy"
    root.mkdir()
    (root / "__init__.py").write_text(INIT if refreshing else "")
    (root / "callee.py").write_text(CALLEE.format(1))
    (root / "caller.py").write_text(CALLER)
    (root / "notes.py").write_text("TEXT = 'no kernel reads this'\n")
    return root


def fake_cache(root: Path) -> list[Path]:
    files = [root / "__pycache__" / f"caller.read-7.py311.{ext}" for ext in ("nbi", "nbc")]
    files[0].parent.mkdir(exist_ok=True)
    for f in files:
        f.write_bytes(b"cached")
    return files


def test_the_kernel_sources_are_the_kernels_and_what_they_import():
    names = {p.relative_to(kernel_cache.ROOT).as_posix() for p in kernel_cache.kernel_sources()}
    assert {
        "multicluster/engine.py",
        "multicluster/rates.py",
        "multicluster/selection/__init__.py",
        "multicluster/selection/conservative.py",
        "bandwidth/modules.py",
        "mdp/solve.py",
        "errors.py",  # no kernel, but imported by kernel modules
    } <= names
    assert not {"cli.py", "papers/report.py", "site.py"} & names


def test_the_cache_is_deleted_when_a_kernel_source_changes_and_only_then(tmp_path):
    root = toy(tmp_path, refreshing=False)
    first = fake_cache(root)
    assert kernel_cache.refresh(root) == 2  # never recorded: the cache may be stale
    assert not any(f.exists() for f in first)
    kept = fake_cache(root)
    assert kernel_cache.refresh(root) == 0
    (root / "notes.py").write_text("TEXT = 'edited, and still no kernel reads this'\n")
    assert kernel_cache.refresh(root) == 0
    assert all(f.exists() for f in kept)
    (root / "callee.py").write_text(CALLEE.format(2))
    assert kernel_cache.refresh(root) == 2
    assert not any(f.exists() for f in kept)


def test_a_caller_runs_the_edited_callee(tmp_path):
    root = toy(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("NUMBA_DISABLE_JIT", None)

    def read() -> str:
        code = "from toy.caller import read; print(read())"
        return subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.strip()

    assert read() == "1"
    assert list((root / "__pycache__").glob("caller.read-*.nbi"))  # the caller was cached
    assert read() == "1"  # from the cache
    (root / "callee.py").write_text(CALLEE.format(22))
    assert read() == "22"


@pytest.mark.parametrize("root", [None, 3, "no/such/folder", Path(__file__)])
def test_a_root_that_is_no_folder_is_refused(root):
    for call in (kernel_cache.refresh, kernel_cache.kernel_sources, kernel_cache.fingerprint):
        with pytest.raises(InvalidParameter, match="root must be a package folder"):
            call(root)
