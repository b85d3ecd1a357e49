"""The Parallel Workloads Archive logs the papers use: catalogue, lookup, checked download.

``load_archive_log(name)`` finds a log by its archive file name (without ``.swf.gz``):

1. in ``$HPCMODELS_DATA`` (a folder of ``<name>.swf.gz`` or ``<name>.swf`` files),
2. in the user cache (``~/.cache/hpcmodels`` on Linux; ``$HPCMODELS_CACHE`` overrides),
3. else it downloads the file from the archive into the cache with pooch.

Integrity. The catalogue's pinned SHA-256 is the hash of the archive's ``.swf.gz``
file. Every ``.swf.gz`` copy of a pinned log, local or downloaded, is checked against
it; a mismatch is an error that says where to put a good copy. A log is marked
``verified=True`` (``df.attrs["verified"]``) only when that check was made:

* a plain (decompressed) ``<name>.swf`` copy cannot be checked against the hash of the
  gzip, so it is used as found and marked ``verified=False``;
* a log with no published checksum is likewise used as found, ``verified=False``.

:func:`logs_read` records, for every log read, the SHA-256 that identifies it: the
pinned hash (``pinned=True``) when it was checked, else the file's own hash
(``pinned=False``).

A copy that cannot be read (no read permission, a corrupt gzip) makes
:func:`is_available` return False; :func:`load_archive_log` then raises
:class:`LogNotAvailable` naming the file and the reason.
"""

from __future__ import annotations

import hashlib
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..errors import InvalidType, LogNotAvailable, UnknownLogError, check_bool
from .swf import read_swf

__all__ = [
    "ArchiveLog",
    "CATALOGUE",
    "LogNotAvailable",
    "catalogue",
    "find_archive_log",
    "archive_log_path",
    "load_archive_log",
    "is_available",
    "logs_read",
]

ARCHIVE = "https://www.cs.huji.ac.il/labs/parallel/workload"


@dataclass(frozen=True)
class ArchiveLog:
    """One log of the archive: file name, folder, SHA-256 (if known), what it is."""

    name: str
    folder: str
    sha256: str | None
    description: str
    used_by: str = ""

    @property
    def filename(self) -> str:
        return f"{self.name}.swf.gz"

    @property
    def url(self) -> str:
        return f"{ARCHIVE}/{self.folder}/{self.filename}"


_LOGS = [
    ArchiveLog("SDSC-SP2-1998-4.2-cln", "l_sdsc_sp2",
               "e03fe48be50c4ab04d6bb2285296d9c3399e9c1f27ee79b754ad32a14abd9bac",
               "SDSC IBM SP2, 128 nodes, Apr 1998 - Apr 2000, cleaned (59,715 jobs)",
               "Shih 2013 (A1, A2); Huang 2006 (when the full log is absent, docs/readings.md)"),
    ArchiveLog("SDSC-SP2-1998-4.2", "l_sdsc_sp2", None,
               "SDSC IBM SP2, full log before cleaning (73,496 jobs)",
               "Huang 2006 (56,490 completed jobs)"),
    ArchiveLog("NASA-iPSC-1993-3.1-cln", "l_nasa_ipsc",
               "5589ae9b2fb78e3bf92de097497cf33a91607de1ad54563e43533f7827597f29",
               "NASA Ames iPSC/860, 128 nodes, Oct - Dec 1993, cleaned (18,239 jobs)",
               "tests"),
    ArchiveLog("RICC-2010-2", "l_ricc",
               "38b7c5c9843d9a9f3d61a2d8b927f6d39b68b368fb713886b5f2ce3499f2ec82",
               "RIKEN RICC, 8192 cores, May - Sep 2010 (447,794 jobs)", "scale tests"),
    ArchiveLog("ANL-Intrepid-2009-1", "l_anl_int", None,
               "ANL Intrepid Blue Gene/P, Jan - Sep 2009 (68,936 jobs)", "Shih 2013 (C1, C2)"),
    *[
        ArchiveLog(f"DAS2-fs{k}-2003-1", "l_das2", None,
                   f"DAS-2 cluster fs{k}, 2003 ({'144' if k == 0 else '64'} CPUs)",
                   "Shih 2013 (B1, B2: the five merged)")
        for k in range(5)
    ],
    ArchiveLog("CTC-SP2-1996-3.1-cln", "l_ctc_sp2",
               "9fa28ac16c4386fb81b72a91d8bd8888281df2948a9d912769d387c5ee285bb4",
               "CTC IBM SP2, 512 nodes, Jun 1996 - May 1997, cleaned",
               "Jann 1997 model fit (Shih 2013 F1, F2)"),
    ArchiveLog("LANL-CM5-1994-4.1-cln", "l_lanl_cm5", None,
               "LANL CM-5, 1024 nodes, Oct 1994 - Sep 1996, cleaned", ""),
]  # fmt: skip
CATALOGUE: dict[str, ArchiveLog] = {log.name: log for log in _LOGS}


def catalogue() -> pd.DataFrame:
    """The catalogue as a table, with whether each log is available here."""
    rows = [
        dict(
            name=log.name,
            description=log.description,
            used_by=log.used_by,
            url=log.url,
            sha256=log.sha256 or "",
            available=is_available(log.name),
        )
        for log in _LOGS
    ]
    return pd.DataFrame(rows)


def _entry(name: str) -> ArchiveLog:
    if not isinstance(name, str):
        raise InvalidType(
            f"name must be a log's name (a string; the catalogue has: {', '.join(CATALOGUE)}), "
            f"got {type(name).__name__}"
        )
    key = name.removesuffix(".gz").removesuffix(".swf")
    if key not in CATALOGUE:
        raise UnknownLogError(f"unknown log {name!r}; the catalogue has: {', '.join(CATALOGUE)}")
    return CATALOGUE[key]


def _cache_dir() -> Path:
    if os.environ.get("HPCMODELS_CACHE"):
        return Path(os.environ["HPCMODELS_CACHE"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("hpcmodels"))


def _candidates(log: ArchiveLog) -> list[Path]:
    folders = [Path(p) for p in os.environ.get("HPCMODELS_DATA", "").split(os.pathsep) if p]
    folders.append(_cache_dir())
    return [f / n for f in folders for n in (log.filename, f"{log.name}.swf")]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _where_to_put(log: ArchiveLog) -> str:
    data = os.environ.get("HPCMODELS_DATA") or "<a folder of your choice>"
    return (
        f"download {log.url} by hand and put it in {data} (then set HPCMODELS_DATA "
        f"to that folder) or in {_cache_dir()}"
    )


def _network_reason(err: Exception) -> str:
    """A download failure in a few words (never the library's multi-line exception
    text, which a report would show cut mid-word)."""
    import requests

    if isinstance(err, requests.HTTPError) and err.response is not None:
        return f"the archive answered HTTP {err.response.status_code}"
    if isinstance(err, requests.Timeout):
        return "the connection timed out"
    if isinstance(err, requests.ConnectionError | ConnectionError):
        return "the archive could not be reached: no network here, or the site is down"
    return f"{type(err).__name__} while downloading"


def _checkable(log: ArchiveLog, path: Path) -> bool:
    """Whether the catalogue's pinned hash applies to ``path``: it is the hash of the
    archive's ``.swf.gz`` file, so a plain ``.swf`` copy cannot be checked against it."""
    return log.sha256 is not None and path.suffix == ".gz"


def _unreadable(log: ArchiveLog, path: Path, err: Exception) -> LogNotAvailable:
    """The error for a copy that exists but cannot be read (permissions, corrupt gzip)."""
    reason = getattr(err, "strerror", None) or str(err)
    return LogNotAvailable(
        f"cannot read {path} ({type(err).__name__}: {reason}); make it "
        f"readable or replace it: {_where_to_put(log)}."
    )


def _verify(log: ArchiveLog, path: Path) -> None:
    """Check a local copy: readable, and equal to the pinned hash where that applies.
    Raises :class:`LogNotAvailable` naming the file otherwise."""
    try:
        if not _checkable(log, path):
            with path.open("rb") as fh:  # not hashed: only check it can be read
                fh.read(1)
            return
        found = _sha256(path)
    except OSError as err:
        raise _unreadable(log, path, err) from err
    if found != log.sha256:
        raise LogNotAvailable(
            f"checksum mismatch for {path}: expected sha256 {log.sha256}, found {found}. "
            f"The file is corrupt or another version; {_where_to_put(log)}."
        )


def find_archive_log(name: str) -> Path | None:
    """The local copy of a log, or None. A ``.swf.gz`` copy of a pinned log is checked
    against its SHA-256; a copy that is corrupt by that check or cannot be read raises
    :class:`LogNotAvailable` naming the file."""
    log = _entry(name)
    for path in _candidates(log):
        try:
            found = path.is_file()
        except OSError as err:  # e.g. a folder that may not be searched
            raise _unreadable(log, path, err) from err
        if found:
            _verify(log, path)
            return path
    return None


def is_available(name: str) -> bool:
    """Whether a good, readable local copy exists (no download is attempted)."""
    try:
        return find_archive_log(name) is not None
    except LogNotAvailable:
        return False


OFFLINE_ENV = "HPCMODELS_OFFLINE"


def downloads_allowed() -> bool:
    """Whether a missing log may be downloaded: yes unless ``HPCMODELS_OFFLINE`` is set
    (to anything but ``0``)."""
    return os.environ.get(OFFLINE_ENV, "") in ("", "0")


def archive_log_path(name: str, *, download: bool | None = None) -> Path:
    """Path of a log: local copy, else downloaded (pooch, checksum-pinned where a hash is
    catalogued) to the cache. ``download=None`` downloads unless the user opted out
    (:func:`downloads_allowed`); otherwise ``download`` is a bool (``"no"`` or 0 is an
    :class:`~hpcmodels.errors.InvalidType` naming it)."""
    log = _entry(name)
    if download is None:
        download = downloads_allowed()
    download = check_bool("download", download)
    local = find_archive_log(name)
    if local is not None:
        return local
    if not download:
        raise LogNotAvailable(f"{log.filename} is not available locally; {_where_to_put(log)}.")
    import pooch

    try:
        path = pooch.retrieve(
            log.url,
            known_hash=f"sha256:{log.sha256}" if log.sha256 else None,
            fname=log.filename,
            path=_cache_dir(),
            progressbar=True,
        )
    except ValueError as err:  # pooch: hash mismatch
        raise LogNotAvailable(
            f"the download of {log.url} does not match its pinned sha256 "
            f"checksum; {_where_to_put(log)}."
        ) from err
    except Exception as err:  # network: unreachable archive, HTTP errors
        raise LogNotAvailable(
            f"could not download {log.url} ({_network_reason(err)}); {_where_to_put(log)}."
        ) from err
    return Path(path)


def load_archive_log(
    name: str, *, download: bool | None = None, on_error: str = "raise"
) -> pd.DataFrame:
    """Read a catalogued log (see :func:`archive_log_path` for where it comes from).

    ``df.attrs`` gets the header fields plus ``log`` (the name) and ``verified``
    (whether the file was checked against the pinned checksum: False for a log with no
    published checksum and for a plain ``.swf`` copy, see the module docstring).
    A file that cannot be read or decompressed raises :class:`LogNotAvailable`.
    ``download`` is None or a bool, as there.
    """
    log = _entry(name)
    if download is not None:
        download = check_bool("download", download)
    path = archive_log_path(name, download=download)
    verified = _checkable(log, path)
    try:
        frame = read_swf(path, on_error=on_error)
        sha256 = log.sha256 if verified else _sha256(path)
    except (OSError, EOFError, zlib.error) as err:  # unreadable, or a corrupt gzip
        raise _unreadable(log, path, err) from err
    frame.attrs["log"] = log.name
    frame.attrs["verified"] = verified
    _READ[log.name] = {"log": log.name, "file": str(path), "sha256": sha256, "pinned": verified}
    return frame


_READ: dict[str, dict] = {}


def logs_read() -> list[dict]:
    """Every log this process has read with :func:`load_archive_log`: name, file, SHA-256
    and ``pinned``: whether that hash is the catalogue's pinned one (the file was checked
    against it) or only the file's own (a log with no published checksum, or a plain
    ``.swf`` copy). The reproduction report names them."""
    return [dict(entry) for entry in _READ.values()]
