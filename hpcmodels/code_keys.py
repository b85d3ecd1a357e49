"""The code a sweep point runs, as parts of its cache key (:mod:`hpcmodels.sweep`).

A cached point may be reused only by the code that computed it, so its key names that
code by content, not by name:

* **the package**: every module of ``hpcmodels`` (:func:`package_sources`), whatever the
  point calls, so an edited helper anywhere in the package computes its points again;
* **user code**: the file of the module the point function lives in (a script, a module
  beside a notebook) and of every module outside the installed packages that its import
  statements name (function bodies too), transitively (a helper module it imports, and
  the modules those import; one not imported yet by the file it would be loaded from),
  and of the modules of the classes and functions its state holds; a function typed in
  a notebook cell or at a prompt, with no file, is keyed by its compiled code, the
  modules it imports and the values, functions, classes and modules it reads from its
  namespace (a constant of another cell counts);
* **state carried by the callable**: the instance a bound method is bound to, the
  arguments of a :func:`functools.partial`, the fields of a callable instance, the
  variables a closure captured (a decorator's arguments), each in the typed canonical
  form of the parameters (:func:`canonical`);
* **the environment**: the Python version and the versions of the installed
  distributions the code imports (the package's static imports, the modules user code
  reaches), so an upgraded library computes its points again.

What cannot be keyed is refused (:class:`Uncacheable`, which the sweep reports as an
``InvalidParameter`` naming the function and why): a function whose source cannot be
read, a bound instance or captured value without a canonical form (an object that is
not a number, string, sequence, mapping, array, enum or dataclass), a module whose
loaded code differs from its file.

**Loaded code, not files.** A process may hold code older than its files (a module
edited and not reloaded, a Dask worker started before an edit). A module's part of the
key is the digest of the source its *loaded* code was compiled from: the first time a
process needs it, the module's functions (and methods, and its top-level constants)
are compared with a fresh compilation of the file; when they match, that digest stays
the module's until the module is reloaded (:func:`loaded_digest`), even if the file is
edited later; when they differ, the code in memory has no known source and is not
keyed. (A module imported through an import hook that rewrites code, such as pytest's
assertion rewriting, cannot be compared with a plain compilation: it is keyed by its
file as first seen.) The process that runs a point checks its own loaded code against
the key's (:func:`differences`) before and after the point, so a stale worker's result
is that point's :class:`StaleCode` error instead of a cached result under the new key.

Not seen: modules imported by a computed name (``importlib.import_module(name)``), code
replaced at run time (an attribute monkeypatched onto a module, a module global rebound
by a function or another module), a package partly reloaded (an old function object
kept by a module that was not reloaded), files a point reads at run time (workload logs
are pinned by checksum in the package's code) and environment variables.

Cost (measured on 2 busy cores): per process, each source file is read and hashed once
per change (size or modification time) and each loaded module compiled once when first
checked: about 0.3 s in a process that loaded one paper's sweep (30 package modules),
0.8 s with all 135 loaded. Then a sweep's keys cost a ``stat`` per package file and a
few identity checks per loaded module (about 10 ms a sweep, 0.01 ms a point), and the
check where a point runs about 0.2 ms, twice a point.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import dis
import enum
import functools
import hashlib
import importlib.machinery
import importlib.metadata
import inspect
import json
import math
import os
import platform
import site
import sys
import sysconfig
import types
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from .errors import InvalidParameter

__all__ = [
    "PACKAGE",
    "Reach",
    "StaleCode",
    "Uncacheable",
    "canonical",
    "check_running",
    "code_digest",
    "differences",
    "digest",
    "loaded_digest",
    "package_sources",
    "python_version",
]

PACKAGE = __name__.rpartition(".")[0]
ROOT = Path(__file__).resolve().parent
_MISSING = object()
_LOADED_LIMIT = 4096


class Uncacheable(Exception):
    """Why a callable cannot be keyed; :func:`hpcmodels.sweep.sweep` reports it as an
    InvalidParameter naming the function."""


class StaleCode(RuntimeError):
    """The process running a point holds other code than the sweep's cache key was
    computed from (a worker started before an edit, a module edited and not reloaded)."""


def digest(obj) -> str:
    """SHA-256 of ``obj``'s JSON form (sorted keys)."""
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def python_version() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}"


def _type_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


# ------------------------------------------------------------------ canonical values


def canonical(value, name: str, found: set | None = None):
    """A JSON-able form of ``value`` that is the same in every process and keeps its
    type: strings stay JSON strings, a non-finite float is ``{"float": "inf"}``, a
    mapping a sorted list of typed (key, value) pairs; an enum member, a dataclass, a
    subclass of a builtin (a named tuple, an ``int`` subclass, a mapping that is not a
    ``dict``) carries its type's module and qualified name, and the type goes to
    ``found`` (whose modules the key then covers). A NumPy scalar is the Python number
    of its value and a tuple the list of its items. Anything else is an
    InvalidParameter naming ``name`` (its ``repr`` may not be stable between
    processes)."""
    if value is None:
        return None
    kind = type(value)
    if isinstance(value, enum.Enum):  # before int and str: an IntEnum is not its value
        _found(found, kind)
        return {"enum": _type_name(kind), "name": value.name}
    if kind is bool or kind is np.bool_:
        return bool(value)
    if kind is str or kind is np.str_:
        return str(value)
    if kind is int or isinstance(value, np.integer):
        return int(value)
    if kind is float or isinstance(value, np.floating):
        value = float(value)
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, int | float | str):  # a subclass may behave differently
        _found(found, kind)
        base = next(b for b in (int, float, str) if isinstance(value, b))
        return {"type": _type_name(kind), "value": canonical(base(value), name)}
    if kind is np.ndarray:
        return {
            "ndarray": value.dtype.str,
            "shape": list(value.shape),
            "values": canonical(value.tolist(), name, found),
        }
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        _found(found, kind)
        fields = {
            f.name: canonical(getattr(value, f.name), f"{name}.{f.name}", found)
            for f in dataclasses.fields(value)
        }
        return {"dataclass": _type_name(kind), "fields": fields}
    if isinstance(value, Mapping):
        pairs = [
            [canonical(k, f"{name} key {k!r}", found), canonical(v, f"{name}[{k!r}]", found)]
            for k, v in value.items()
        ]
        form = {"mapping": sorted(pairs, key=lambda kv: json.dumps(kv[0], sort_keys=True))}
        if kind is not dict:
            _found(found, kind)
            form["type"] = _type_name(kind)
        return form
    if isinstance(value, list | tuple | range):
        items = [canonical(v, f"{name}[{i}]", found) for i, v in enumerate(value)]
        if kind in (list, tuple, range):
            return items
        _found(found, kind)
        return {"sequence": _type_name(kind), "values": items}
    raise InvalidParameter(
        f"{name} = {value!r:.60} ({type(value).__name__}) has no stable form for the cache "
        "key: pass numbers, strings, sequences, dicts, arrays, enums or dataclasses"
    )


def _found(found: set | None, kind: type) -> None:
    if found is not None:
        found.add(kind)


# ------------------------------------------------------------------ source files


@dataclasses.dataclass(frozen=True, eq=False)
class _Source:
    path: str
    stat: tuple[int, int]
    data: bytes
    digest: str


_SOURCES: dict[str, _Source] = {}


def _source(path: str) -> _Source:
    """The file's bytes and digest, read again only when its size or modification time
    changed (an OSError when it cannot be read)."""
    info = os.stat(path)
    stat = (info.st_mtime_ns, info.st_size)
    known = _SOURCES.get(path)
    if known is None or known.stat != stat:
        data = Path(path).read_bytes()
        known = _Source(path, stat, data, hashlib.sha256(data).hexdigest())
        _SOURCES[path] = known
    return known


@dataclasses.dataclass(frozen=True)
class _Layout:
    names: tuple[str, ...]  # top-level bindings: their objects change when the module reloads
    literals: dict  # top-level NAME = <immutable literal>, bound once, never rebound by `global`
    imports: tuple[tuple[int, str, tuple[str, ...]], ...]  # (level, module, imported names)


def _immutable(value) -> bool:
    if value is None or isinstance(value, bool | int | float | complex | str | bytes):
        return True
    return isinstance(value, tuple | frozenset) and all(_immutable(v) for v in value)


def _bound(node: ast.AST) -> list[str]:
    """The names a top-level statement binds."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"]
    targets = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
        targets = [node.target]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _top_statements(body: list[ast.stmt]):
    """Module-level statements, into if/try/with/for blocks but not functions or classes."""
    for node in body:
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    yield from _top_statements([s for s in inner if isinstance(s, ast.AST)])


@functools.lru_cache(maxsize=1024)
def _layout(src: _Source) -> _Layout | None:
    """What the checks need from a module's source; None if it is not Python."""
    try:
        tree = ast.parse(src.data, filename=src.path)
    except (SyntaxError, ValueError):
        return None
    rebound = {n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names}
    counts: dict[str, int] = {}
    for node in _top_statements(tree.body):
        for name in _bound(node):
            counts[name] = counts.get(name, 0) + 1
    literals = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if not isinstance(node, ast.Assign | ast.AnnAssign) or not isinstance(target, ast.Name):
            continue
        if isinstance(node, ast.Assign) and len(node.targets) != 1 or node.value is None:
            continue
        try:
            value = ast.literal_eval(node.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
        if _immutable(value) and counts.get(target.id) == 1 and target.id not in rebound:
            literals[target.id] = value
    imports = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports += [(0, a.name, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            imports.append((node.level, node.module or "", tuple(a.name for a in node.names)))
    names = tuple(sorted(n for n in counts if n not in rebound and not n.startswith("__")))
    return _Layout(names, literals, tuple(imports))


@functools.lru_cache(maxsize=256)
def _compiled(src: _Source) -> dict[str, list[types.CodeType]]:
    """The file's code objects by qualified name, compiled as the import system does."""
    out: dict[str, list[types.CodeType]] = {}
    stack = [compile(src.data, src.path, "exec", dont_inherit=True)]
    while stack:
        for const in stack.pop().co_consts:
            if isinstance(const, types.CodeType):
                out.setdefault(const.co_qualname, []).append(const)
                stack.append(const)
    return out


@functools.lru_cache(maxsize=4096)
def _real(path: str) -> str:
    return os.path.realpath(path)


def _same_path(a: str, b: str) -> bool:
    return a == b or _real(a) == _real(b)


# ------------------------------------------------------------------ loaded modules


def _static(obj, name: str):
    """``obj.name`` without running a ``__getattr__`` (a lazy module's, a proxy's)."""
    try:
        return inspect.getattr_static(obj, name, None)
    except Exception:  # an object whose attribute lookup itself fails
        return None


def _own_functions(namespace: dict, path: str) -> list[types.FunctionType]:
    """The functions of a module's namespace compiled from ``path``: its functions, its
    classes' methods (static, class, property), what their decorators wrap."""
    module = namespace.get("__name__")
    stack, seen, out = list(namespace.values()), set(), []
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, types.ModuleType):
            continue
        seen.add(id(obj))
        if isinstance(obj, staticmethod | classmethod):
            stack.append(obj.__func__)
        elif isinstance(obj, property):
            stack += [f for f in (obj.fget, obj.fset, obj.fdel) if f is not None]
        elif isinstance(obj, functools.cached_property):
            stack.append(obj.func)
        elif isinstance(obj, type):
            if obj.__module__ == module:
                stack += list(vars(obj).values())
        elif isinstance(obj, types.FunctionType):
            if _same_path(obj.__code__.co_filename, path):
                out.append(obj)
            wrapped = obj.__dict__.get("__wrapped__")
            if wrapped is not None:
                stack.append(wrapped)
        else:
            for attr in ("py_func", "__wrapped__"):  # a JIT dispatcher, functools' wrappers
                inner = _static(obj, attr)
                if isinstance(inner, types.FunctionType):
                    stack.append(inner)
    return out


def _matches(namespace: dict, path: str, src: _Source, layout: _Layout) -> bool:
    """Whether the loaded module is the file's code: its top-level constants and the
    code of every function compiled from the file (line numbers included)."""
    for name, value in layout.literals.items():
        current = namespace.get(name, _MISSING)
        if type(current) is not type(value) or current != value:
            return False
    try:
        codes = _compiled(src)
    except (SyntaxError, ValueError):
        return False
    for fn in _own_functions(namespace, path):
        if not any(fn.__code__ == c for c in codes.get(fn.__code__.co_qualname, ())):
            return False
    return True


# id(namespace) -> (namespace, tracked names, their objects, digest or None, source checked)
_LOADED: dict[int, tuple[dict, tuple[str, ...], tuple, str | None, _Source]] = {}


def loaded_digest(namespace: dict, path: str) -> str | None:
    """The digest of the source a loaded module's code was compiled from, or None when
    its code matches no readable source (edited since it was imported and not
    reloaded). The first call for a module compares its code with the file; later calls
    return that answer while the module's top-level objects are the same ones (a reload
    replaces them), whatever happened to the file since."""
    entry = _LOADED.get(id(namespace))
    if entry is not None and entry[0] is namespace:
        _, names, objects, known, checked = entry
        if all(namespace.get(n, _MISSING) is o for n, o in zip(names, objects, strict=True)):
            if known is not None:
                return known
            try:  # stale: check again only once the file has changed
                if os.stat(path).st_mtime_ns == checked.stat[0]:
                    return None
            except OSError:
                return None
    try:
        src = _source(path)
    except OSError:
        return None
    layout = _layout(src)
    if layout is None:
        known = None
    elif type(namespace.get("__loader__")) is not importlib.machinery.SourceFileLoader:
        known = src.digest  # an import hook may rewrite the code (pytest's asserts): trusted
    else:
        known = src.digest if _matches(namespace, path, src, layout) else None
    names = layout.names if layout is not None else ()
    if len(_LOADED) >= _LOADED_LIMIT:  # forget the oldest (modules long replaced, mostly)
        try:
            _LOADED.pop(next(iter(_LOADED)))
        except (StopIteration, RuntimeError, KeyError):  # another thread got there first
            pass
    _LOADED[id(namespace)] = (
        namespace,
        names,
        tuple(namespace.get(n, _MISSING) for n in names),
        known,
        src,
    )
    return known


def _module_name(path: Path) -> str:
    parts = [PACKAGE, *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_sources() -> dict[str, str | None]:
    """Every module of the package with the digest of its source: the source its loaded
    code was compiled from for a module this process has imported
    (:func:`loaded_digest`; None if that is unknown), the file's for the others."""
    out: dict[str, str | None] = {}
    for path in sorted(ROOT.rglob("*.py")):
        name = _module_name(path)
        module = sys.modules.get(name)
        file = getattr(module, "__file__", None)
        if file and _same_path(file, str(path)):
            out[name] = loaded_digest(vars(module), file)
        else:
            out[name] = _source(str(path)).digest
    return out


def _package_file(name: str) -> Path | None:
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = ROOT.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_by(path: Path) -> tuple[list[Path], set[str]]:
    """The package files and the outside top-level modules a package file imports."""
    names = _file_imports(str(path), _module_name(path.parent / "__init__.py"))
    files = [found for n in sorted(names) if (found := _package_file(n)) is not None]
    return files, {n.split(".")[0] for n in names} - {PACKAGE}


# ------------------------------------------------------------------ installed code


@functools.cache
def _installed_roots() -> tuple[str, ...]:
    paths = set(sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib", "purelib"))
    paths |= {sysconfig.get_paths().get("platlib")}
    try:
        paths |= set(site.getsitepackages()) | {site.getusersitepackages()}
    except AttributeError:  # an embedded interpreter without site's helpers
        pass
    return tuple(_real(p).rstrip(os.sep) + os.sep for p in paths if p)


def _is_installed(path: str) -> bool:
    return _real(path).startswith(_installed_roots())


@functools.cache
def _distributions() -> Mapping[str, list[str]]:
    return importlib.metadata.packages_distributions()


@functools.cache
def dist_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


@functools.cache
def _versions(top: str) -> dict[str, str]:
    """The installed distributions providing top-level module ``top``, with versions
    (most are named as their module; the full mapping is read only for the others)."""
    version = dist_version(top)
    if version is not None:
        return {top: version}
    names = _distributions().get(top, ())
    return {d: v for d in names if (v := dist_version(d)) is not None}


# ------------------------------------------------------------------ compiled code


def _constant(value):
    if isinstance(value, types.CodeType):
        return ["code", code_digest(value)]
    if isinstance(value, tuple):
        return ["tuple", [_constant(v) for v in value]]
    if isinstance(value, frozenset):
        return ["frozenset", sorted((_constant(v) for v in value), key=json.dumps)]
    return [type(value).__name__, repr(value)]


@functools.lru_cache(maxsize=4096)
def code_digest(code: types.CodeType) -> str:
    """A digest of compiled code, the same in every process of one Python version: its
    bytecode, names, constants (nested code too) and signature, not its file name or
    line numbers."""
    return digest(
        [
            code.co_name,
            code.co_qualname,
            [code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags],
            code.co_code.hex(),
            code.co_exceptiontable.hex(),
            list(code.co_names),
            list(code.co_varnames),
            list(code.co_freevars),
            list(code.co_cellvars),
            [_constant(c) for c in code.co_consts],
        ]
    )


_GLOBAL_OPS = {"LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL"}


@functools.lru_cache(maxsize=4096)
def _global_names(code: types.CodeType) -> frozenset[str]:
    """The global names ``code`` (and code nested in it) reads or writes."""
    names = {i.argval for i in dis.get_instructions(code) if i.opname in _GLOBAL_OPS}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return frozenset(names)


@functools.lru_cache(maxsize=4096)
def _code_imports(code: types.CodeType) -> frozenset[str]:
    """The modules ``code`` (and code nested in it) imports: ``import a.b`` as ``a.b``,
    ``from a import b`` as ``a`` and ``a.b`` (b may be a submodule)."""
    names, current = set(), None
    for ins in dis.get_instructions(code):
        if ins.opname == "IMPORT_NAME":
            current = ins.argval
            names.add(current)
        elif ins.opname == "IMPORT_FROM" and current:
            names.add(f"{current}.{ins.argval}")
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_imports(const)
    return frozenset(names)


def _file_imports(path: str, package: str) -> set[str]:
    """The modules a source file imports anywhere (function bodies too), relative
    imports resolved from ``package``; ``from a import b`` gives ``a`` and ``a.b``."""
    try:
        layout = _layout(_source(path))
    except OSError:
        return set()
    names = set()
    for level, module, imported in layout.imports if layout is not None else ():
        if level:
            base = package.split(".") if package else []
            base = base[: len(base) - (level - 1)] if level > 1 else base
            module = ".".join([*base, module] if module else base)
        if module:
            names.add(module)
            names.update(f"{module}.{n}" for n in imported if n != "*")
    return names


def _spec(name: str):
    """Where module ``name`` would be loaded from, found without importing anything."""
    parent = name.rpartition(".")[0]
    path = None
    if parent:
        module = sys.modules.get(parent)
        if module is not None:
            path = getattr(module, "__path__", None)
        else:
            found = _spec(parent)
            path = getattr(found, "submodule_search_locations", None)
        if path is None:
            return None
    try:
        return importlib.machinery.PathFinder.find_spec(name, path)
    except (ImportError, ValueError, AttributeError):
        return None


def _origin(name: str) -> str | None:
    """The file module ``name`` would be loaded from (without importing it), or None."""
    origin = getattr(_spec(name), "origin", None)
    return origin if origin and os.path.isfile(origin) else None


def _top_installed(top: str) -> bool | None:
    """Whether top-level module ``top`` is installed (its file in the interpreter's or
    the environment's library folders); None when it cannot be found."""
    file = getattr(sys.modules.get(top), "__file__", None) or _origin(top)
    return _is_installed(file) if file else None


# ------------------------------------------------------------------ what a callable reaches


def _home_module(value) -> dict | None:
    """The namespace of the module ``value`` comes from (a function's globals, a class's
    or an object's type's module), or None."""
    if isinstance(value, types.ModuleType):
        return vars(value)
    if isinstance(value, types.FunctionType):
        return value.__globals__
    owner = value if isinstance(value, type) else type(value)
    module = sys.modules.get(getattr(owner, "__module__", None) or "")
    return vars(module) if module is not None else None


class Reach:
    """The code a callable (and the types of a sweep's parameters) can run, gathered as
    key forms; ``modules``, ``files`` and ``dists`` are what the process running a
    point checks against its own (:func:`differences`)."""

    def __init__(self) -> None:
        self.modules: dict[str, str] = {}  # user module -> digest of its loaded source
        self.files: dict[str, str] = {}  # user module -> its file
        self.dists: dict[str, str] = {}  # installed distribution -> version
        self._forms: dict = {}  # id(namespace or function or class) -> form; files seen
        self._held: list = []  # keeps those objects alive, so their ids stay theirs

    # modules ---------------------------------------------------------------

    def _installed(self, top: str):
        if top in sys.stdlib_module_names or top in sys.builtin_module_names:
            return {"stdlib": top}
        versions = _versions(top)  # none for a module installed without its metadata
        self.dists.update(versions)
        return {"installed": top, "dists": versions}

    def _package(self, path: Path) -> dict:
        """The installed distributions the package's code imports from ``path`` on,
        following its imports (the package's own source is in the key as a whole)."""
        todo, seen, outside = [path], {path}, set()
        while todo:
            files, tops = _imported_by(todo.pop())
            outside |= tops
            for found in files:
                if found not in seen:
                    seen.add(found)
                    todo.append(found)
        return {"package": PACKAGE, "imports": [self._installed(t) for t in sorted(outside)]}

    def namespace(self, namespace: dict):
        """The key form of a module (and of what it reaches), or None for a module
        without a file (a notebook's, a prompt's): its callers key what they read."""
        key = id(namespace)
        if key in self._forms:
            return self._forms[key]
        self._held.append(namespace)
        self._forms[key] = {"recursive": namespace.get("__name__")}
        form = self._namespace(namespace)
        self._forms[key] = form
        return form

    def _namespace(self, namespace: dict):
        name = namespace.get("__name__") or "?"
        file = namespace.get("__file__")
        if file and file.startswith("<"):  # code read from standard input: no file
            file = None
        module = sys.modules.get(name)
        current = module is not None and getattr(module, "__dict__", None) is namespace
        if name == PACKAGE or name.startswith(PACKAGE + "."):
            path = _package_file(name)
            form = self._package(path) if path is not None else {"package": PACKAGE}
            if not current and file:  # an old copy of a reloaded package module
                form["stale copy"] = self._user_digest(namespace, name, file)
            return form
        if not file:
            spec = namespace.get("__spec__")
            origin = getattr(spec, "origin", None)
            if name in sys.builtin_module_names or origin in ("built-in", "frozen"):
                return {"stdlib": name}
            if namespace.get("__path__") is not None:  # a namespace package: no code
                return {"namespace package": name}
            return None
        if _is_installed(file):
            return self._installed(name.split(".")[0])
        return self._user(namespace, name, file, current)

    def _user_digest(self, namespace: dict, name: str, file: str) -> str:
        if Path(file).suffix != ".py":  # an extension module: its bytes
            try:
                return _source(file).digest
            except OSError as err:
                raise Uncacheable(f"module {name}'s file {file} cannot be read") from err
        known = loaded_digest(namespace, file)
        if known is None:
            raise Uncacheable(
                f"module {name}'s loaded code differs from its file {file} (edited since "
                "it was imported, and not reloaded), so its results could not be told "
                "apart from the file's; reload the module (importlib.reload) or restart"
            )
        return known

    def _user(self, namespace: dict, name: str, file: str, current: bool) -> dict:
        """A module outside the installed packages: its loaded source's digest and the
        forms of the modules its source imports."""
        own = self._user_digest(namespace, name, file)
        if current:
            self.modules[name], self.files[name] = own, file
        return self._module_form(name, own, file, namespace.get("__package__") or "")

    def _module_form(self, name: str, source: str, file: str, package: str) -> dict:
        """A user module by its source and its imports (function bodies too): the same
        whether it is loaded or not yet."""
        return {
            "module": name,
            "source": source,
            "imports": self._imports(_file_imports(file, package)),
        }

    def _imports(self, names: set[str]) -> dict:
        """The forms of the modules named, loaded or not (:meth:`_unloaded`): an installed
        one by its distribution, whichever of its submodules is named or loaded."""
        out = {}
        for name in sorted(names):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top in sys.builtin_module_names:
                continue
            if top != PACKAGE:
                installed = _top_installed(top)
                if installed is None:  # not importable here: nothing it could run
                    continue
                if installed:
                    out[top] = self._installed(top)
                    continue
            module = sys.modules.get(name)
            if module is not None:
                out[name] = self.namespace(vars(module))
            elif (origin := _origin(name)) is not None:
                out[name] = self._unloaded(name, origin)
        return out

    def _unloaded(self, name: str, origin: str):
        """A module not imported yet, by the file it would be loaded from; the process
        running the point checks it once it has loaded it."""
        key = ("file", origin)
        if key in self._forms:
            return self._forms[key]
        self._forms[key] = {"recursive": name}
        top = name.split(".")[0]
        if top == PACKAGE:
            path = _package_file(name)
            form = self._package(path) if path is not None else {"package": PACKAGE}
        elif _is_installed(origin):
            form = self._installed(top)
        else:
            source = _source(origin).digest
            self.modules[name], self.files[name] = source, origin
            package = name if Path(origin).name == "__init__.py" else name.rpartition(".")[0]
            form = self._module_form(name, source, origin, package)
        self._forms[key] = form
        return form

    # callables and values --------------------------------------------------

    def callable_form(self, obj, where: str):
        """The key form of a callable: its code and the state it carries; Uncacheable
        when some of it has no stable form."""
        if isinstance(obj, functools.partial):
            return {
                "partial": self.callable_form(obj.func, where),
                "args": [
                    self.value_form(a, f"argument {i} of {where}") for i, a in enumerate(obj.args)
                ],
                "keywords": {
                    k: self.value_form(v, f"keyword {k!r} of {where}")
                    for k, v in sorted(obj.keywords.items())
                },
            }
        if isinstance(obj, types.MethodType):
            return {
                "method": self.callable_form(obj.__func__, where),
                "self": self.value_form(obj.__self__, f"the instance of {where}"),
            }
        if isinstance(obj, types.FunctionType):
            return self.function_form(obj)
        if isinstance(obj, type):
            return self.type_form(obj)
        if isinstance(obj, np.ufunc):
            return {"ufunc": obj.__name__, "by": self._installed("numpy")}
        for attr in ("py_func", "__wrapped__"):  # a JIT dispatcher, functools' wrappers
            inner = _static(obj, attr)
            if callable(inner):
                return {
                    "wrapper": _type_name(type(obj)),
                    "by": self.namespace(_home_module(obj) or {}),
                    attr: self.callable_form(inner, where),
                }
        if isinstance(obj, types.BuiltinFunctionType | types.BuiltinMethodType):
            owner = obj.__self__
            module = sys.modules.get(getattr(obj, "__module__", None) or "")
            form = {"builtin": f"{getattr(obj, '__module__', None)}.{obj.__qualname__}"}
            if module is not None:
                form["by"] = self.namespace(vars(module))
            if owner is not None and not isinstance(owner, types.ModuleType):
                form["self"] = self.value_form(owner, f"the object of {where}")
            return form
        if callable(obj):  # an instance with __call__: its fields, its type (the code)
            return {"instance": self.value_form(obj, where)}
        raise Uncacheable(f"{where} ({type(obj).__name__}) is not callable")

    def function_form(self, fn: types.FunctionType):
        """A function: its compiled code, the variables its closure captured, and where
        it has no module file, its defaults and the globals it reads."""
        key = id(fn)
        if key in self._forms:
            return self._forms[key]
        self._held.append(fn)
        where = fn.__qualname__
        self._forms[key] = {"recursive": where}
        namespace = fn.__globals__
        home = self.namespace(namespace)
        form = {
            "function": f"{namespace.get('__name__')}.{where}",
            "code": code_digest(fn.__code__),
            "home": home,
        }
        if fn.__closure__:
            form["closure"] = {
                var: self.value_form(_cell(cell), f"closure variable {var!r} of {where}")
                for var, cell in zip(fn.__code__.co_freevars, fn.__closure__, strict=True)
            }
        if home is None:  # no file holds what it reads: key it here
            form["defaults"] = [
                self.value_form(v, f"a default of {where}") for v in fn.__defaults__ or ()
            ]
            form["kwdefaults"] = {
                k: self.value_form(v, f"the default of {k!r} in {where}")
                for k, v in sorted((fn.__kwdefaults__ or {}).items())
            }
            reads = {}
            for name in sorted(_global_names(fn.__code__)):
                if name in namespace:
                    reads[name] = self.value_form(
                        namespace[name], f"global {name!r} read by {where}"
                    )
                else:
                    reads[name] = "builtin" if hasattr(builtins, name) else "unbound"
            form["globals"] = reads
            form["imports"] = self._imports(_code_imports(fn.__code__))
        self._forms[key] = form
        return form

    def type_form(self, cls: type):
        """A class: its module's form, or where it has no module file, its body."""
        key = id(cls)
        if key in self._forms:
            return self._forms[key]
        self._held.append(cls)
        name = _type_name(cls)
        self._forms[key] = {"recursive": name}
        module = sys.modules.get(cls.__module__)
        home = self.namespace(vars(module)) if module is not None else None
        form = {"type": name, "home": home}
        if home is None:
            body = {}
            for attr, value in sorted(vars(cls).items(), key=lambda kv: kv[0]):
                inner = value
                if isinstance(inner, staticmethod | classmethod):
                    inner = inner.__func__
                elif isinstance(inner, property):
                    inner = [f for f in (inner.fget, inner.fset, inner.fdel) if f is not None]
                if isinstance(inner, types.FunctionType) and _generated(inner):
                    body[attr] = "generated"  # a dataclass's __init__, __repr__...
                elif isinstance(inner, types.FunctionType | list):
                    fns = inner if isinstance(inner, list) else [inner]
                    body[attr] = [self.function_form(f) for f in fns]
                elif not (attr.startswith("_") and attr.endswith("_")):
                    body[attr] = self.value_form(value, f"{name}.{attr}")
            form["body"] = body
            form["bases"] = [self.type_form(b) for b in cls.__bases__ if b is not object]
        self._forms[key] = form
        return form

    def value_form(self, value, where: str):
        """A value a callable carries or reads: a module, class or callable by its code,
        anything else by its canonical form and the code of the types in it."""
        if isinstance(value, types.ModuleType):
            return {"module": value.__name__, "form": self.namespace(vars(value))}
        if isinstance(value, type):
            return self.type_form(value)
        if isinstance(value, _CALLABLES) or any(
            callable(_static(value, a)) for a in ("py_func", "__wrapped__")
        ):
            return self.callable_form(value, where)
        found: set[type] = set()
        try:
            form = canonical(value, where, found)
        except InvalidParameter as err:
            raise Uncacheable(str(err)) from None
        return {"value": form, "types": self.types_form(found)}

    def types_form(self, found: set[type]) -> list:
        """The key forms of the types found in a canonical form (their modules' code)."""
        return [self.type_form(t) for t in sorted(found, key=_type_name)]

    def expectation(self, package: dict[str, str | None]) -> dict:
        """What the process running a point must hold (:func:`differences`)."""
        return {
            "python": python_version(),
            "dists": dict(self.dists),
            "modules": {**package, **self.modules},
            "files": dict(self.files),
        }


_CALLABLES = (
    types.FunctionType,
    types.MethodType,
    functools.partial,
    types.BuiltinFunctionType,
    np.ufunc,
)


def _generated(fn: types.FunctionType) -> bool:
    """Whether ``fn`` was made by a library from text (a dataclass's methods, and the
    guard its ``__repr__`` is wrapped in)."""
    try:
        code = inspect.unwrap(fn).__code__
    except (ValueError, AttributeError):  # a cycle of __wrapped__, a wrapped non-function
        return False
    return code.co_filename == "<string>" or code.co_qualname.startswith("__create_fn__")


def _cell(cell) -> object:
    try:
        return cell.cell_contents
    except ValueError:  # a variable not bound yet
        return None


# ------------------------------------------------------------------ the running process


def differences(expect: Mapping) -> list[str]:
    """What this process runs differently from ``expect`` (:meth:`Reach.expectation`):
    the modules it has loaded whose code is not the key's, the installed distributions
    at other versions, another Python. Modules it has not loaded are not compared (it
    will load today's files, or the point's function came by value)."""
    problems = []
    if expect.get("python") != python_version():
        problems.append(f"Python {python_version()} (the key's: {expect.get('python')})")
    for dist, version in expect.get("dists", {}).items():
        mine = dist_version(dist)
        if mine != version:
            problems.append(f"{dist} {mine} (the key's: {version})")
    files = expect.get("files", {})
    for name, want in expect.get("modules", {}).items():
        module = sys.modules.get(name)
        file = getattr(module, "__file__", None)
        if not file:
            continue
        if name in ("__main__", "__mp_main__") and not _same_path(file, files.get(name, "")):
            continue  # this process's own main program, not the sweep's script
        if Path(file).suffix != ".py":
            continue
        if loaded_digest(vars(module), file) != want:
            problems.append(f"module {name}")
    return problems


def check_running(expect: Mapping | None) -> None:
    """A :class:`StaleCode` error when this process runs other code than ``expect``."""
    if expect is None:
        return
    problems = differences(expect)
    if problems:
        raise StaleCode(
            f"process {os.getpid()} runs other code than the sweep's cache key was computed "
            f"from: {', '.join(problems[:5])}{' ...' if len(problems) > 5 else ''} (a worker "
            "started before an edit, or a module edited and not reloaded); restart the "
            "workers (client.restart()) or this process and run the sweep again: the point "
            "was not cached"
        )
