"""Numba's on-disk cache of the package's kernels, kept in step with their source.

numba caches each ``cache=True`` kernel beside its source file (``__pycache__/*.nbi``,
``*.nbc``) and keys the entry by that one file. A kernel compiled with kernels of other
files carries their machine code, so after an edit to a callee in another file numba
loads the caller's stale code: an edited rate model in ``multicluster/rates.py`` would
not run inside the engine's loop (``engine.py`` unchanged), nor a new selection policy
added to the table in ``multicluster/selection/__init__.py``, and nothing would say so
(numba issue 6845; measured here: a counter added to ``bandwidth_rates`` stayed at 0
through a whole run until the cache was deleted).

So at import, :func:`refresh` compares a fingerprint of the kernel sources (every module
that mentions numba, and every package module they import, transitively:
:func:`kernel_sources`) with the one stored beside the cache, and when they differ
deletes the package's cached kernels, which then compile again from today's source
(about 3 minutes here, once per edit). An edit to a module no kernel can reach (the
report, the CLI, the notebooks) keeps the cache. A read-only install keeps its cache
elsewhere and is not edited: nothing is done there.

:func:`compilations` counts the kernels numba compiles in a block rather than loading
them from this cache (``python -m hpcmodels warm`` reports it per app,
:mod:`hpcmodels.warm`).
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ROOT",
    "STAMP",
    "Compilations",
    "compilations",
    "kernel_sources",
    "fingerprint",
    "refresh",
]

ROOT = Path(__file__).resolve().parent
STAMP = "kernel-sources.sha256"
"""The file, in the package's top ``__pycache__``, holding a quick key of the source
files (:func:`_quick_key`) and the fingerprint of the kernel sources the cached kernels
were compiled from."""


def _folder(root) -> Path:
    """``root`` as an existing folder, else an InvalidParameter naming it."""
    from .errors import InvalidParameter

    if not isinstance(root, str | os.PathLike) or not Path(root).is_dir():
        raise InvalidParameter(f"root must be a package folder, got {root!r}")
    return Path(root)


def _imported(path: Path, tree: ast.AST, modules: dict[Path, str]) -> list[Path]:
    """The package modules that ``path`` imports relatively (``from .x import y``,
    ``from .. import x``)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = path.parent
        for _ in range(node.level - 1):
            base = base.parent
        target = base.joinpath(*(node.module or "").split(".")) if node.module else base
        candidates = [target.with_suffix(".py"), target / "__init__.py"]
        candidates += [target / f"{alias.name}.py" for alias in node.names]
        found += [c for c in candidates if c in modules]
    return found


def kernel_sources(root: Path = ROOT) -> list[Path]:
    """The package files whose code numba may compile into a kernel: every module whose
    source mentions numba, and every package module those import, transitively."""
    modules = {p: p.read_text(encoding="utf-8") for p in _folder(root).rglob("*.py")}
    todo = [p for p, text in modules.items() if "numba" in text]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo += _imported(path, ast.parse(modules[path], filename=str(path)), modules)
    return sorted(seen)


def fingerprint(root: Path = ROOT) -> str:
    """SHA-256 of the kernel sources' paths (relative to ``root``) and contents."""
    root = _folder(root)
    digest = hashlib.sha256()
    for path in kernel_sources(root):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _cache_folders(root: Path) -> list[Path]:
    """Where numba keeps the package's cached kernels: each source folder's
    ``__pycache__``, or with ``NUMBA_CACHE_DIR`` set, that folder's place there (numba's
    own naming, ``_CacheLocator.get_suitable_cache_subpath``)."""
    sources = sorted({p.parent for p in root.rglob("*.py")})
    folders = [d / "__pycache__" for d in sources]
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        from numba.core.caching import _CacheLocator

        folders += [
            Path(user, _CacheLocator.get_suitable_cache_subpath(d / "x.py")) for d in sources
        ]
    return [f for f in folders if f.is_dir()]


def _quick_key(root: Path) -> str:
    """The package's source files' paths, sizes and modification times: when these are
    as recorded, no source changed and the fingerprint need not be computed."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        info = path.stat()
        digest.update(
            f"{path.relative_to(root).as_posix()} {info.st_size} {info.st_mtime_ns}".encode()
        )
    return digest.hexdigest()


def refresh(root: Path = ROOT) -> int:
    """Delete the package's cached kernels when the kernel sources differ from those
    they were compiled from (:data:`STAMP`), and record today's; returns how many cache
    files were deleted (0 when the sources are unchanged or the install is read-only).
    When no source file was touched since the last call it costs a few ms."""
    root = _folder(root)
    stamp = root / "__pycache__" / STAMP
    quick = _quick_key(root)
    try:
        recorded = stamp.read_text().split() if stamp.is_file() else []
        if recorded[:1] == [quick]:
            return 0
        today = fingerprint(root)
        deleted = 0
        if recorded[1:] != [today]:
            for folder in _cache_folders(root):
                for cached in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
                    cached.unlink(missing_ok=True)
                    deleted += 1
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(f"{quick}\n{today}\n")
    except OSError:  # read-only: numba caches elsewhere, and nobody edits this copy
        return 0
    return deleted


@dataclass
class Compilations:
    """How many kernels numba compiled (rather than loaded from its cache) inside a
    :func:`compilations` block; final when the block ends."""

    count: int = 0


@contextlib.contextmanager
def compilations() -> Iterator[Compilations]:
    """Count the kernels numba compiles inside the block (its ``numba:compile`` events,
    one per signature compiled, callees included; a signature loaded from the disk cache
    or already compiled in this process counts none)."""
    from numba.core import event

    counted = Compilations()
    with event.install_recorder("numba:compile") as recorder:
        try:
            yield counted
        finally:
            counted.count = sum(1 for _, ev in recorder.buffer if ev.is_start)
