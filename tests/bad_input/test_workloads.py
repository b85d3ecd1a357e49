"""Hardening of the workload-log catalogue (hpcmodels.workloads.archive) and of the
Jann97 "parameters missing" error: integrity of plain copies, unreadable files, the
public names of ``hpcmodels.workloads``, unknown log names.

No test uses the network: every one runs with ``HPCMODELS_OFFLINE=1`` and with
``HPCMODELS_DATA`` / ``HPCMODELS_CACHE`` in a tmp folder.

Unreadable files: tests may run as root, who reads a file whatever its mode, so a
``chmod 000`` proves nothing there. The tests below therefore deny reading by patching
``pathlib.Path.open`` for that one file (``Path.read_bytes`` goes through it too), which
is what the OS does for a user without read permission; the real ``chmod`` test runs
only when not root.
"""

import dataclasses
import errno
import gzip
import hashlib
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

from hpcmodels.errors import HpcmodelsError, LogNotAvailable, UnknownLogError
from hpcmodels.workloads import archive
from hpcmodels.workloads.models.jann97 import CTC_LOG, Jann97ParametersMissing, jann97

ROW = "1 0 10 100 8 -1 -1 8 200 -1 1 3 1 -1 2 -1 -1 -1\n"
PINNED = "SDSC-SP2-1998-4.2-cln"  # a log whose .swf.gz hash the catalogue pins
UNPINNED = "ANL-Intrepid-2009-1"  # a log with no published checksum


@pytest.fixture
def env(tmp_path, monkeypatch):
    """Empty data and cache folders, offline, and no log read yet in this process."""
    (tmp_path / "data").mkdir()
    monkeypatch.setenv("HPCMODELS_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("HPCMODELS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HPCMODELS_OFFLINE", "1")
    monkeypatch.setattr(archive, "_READ", {})
    return tmp_path / "data"


def _deny_reading(monkeypatch, target: pathlib.Path) -> None:
    """Make opening ``target`` fail as it does for a user without read permission."""
    real_open = pathlib.Path.open

    def guarded_open(self, *args, **kwargs):
        if pathlib.Path(self) == target:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", guarded_open)


# --- 1. integrity: a plain .swf copy cannot be checked against the .gz hash -------------
def test_plain_swf_copy_of_a_pinned_log_is_not_marked_verified(env):
    plain = env / f"{PINNED}.swf"
    plain.write_text(ROW)
    df = archive.load_archive_log(PINNED)
    assert len(df) == 1
    assert df.attrs["verified"] is False
    (record,) = archive.logs_read()
    assert record["file"] == str(plain)
    assert record["pinned"] is False
    assert record["sha256"] == hashlib.sha256(plain.read_bytes()).hexdigest()
    assert record["sha256"] != archive.CATALOGUE[PINNED].sha256
    json.dumps(archive.logs_read())  # the reproduction report writes it as JSON


def test_gz_copy_matching_the_pinned_hash_is_verified(env, monkeypatch):
    data = gzip.compress(ROW.encode(), mtime=0)
    good = hashlib.sha256(data).hexdigest()
    log = dataclasses.replace(archive.CATALOGUE[PINNED], sha256=good)
    monkeypatch.setitem(archive.CATALOGUE, PINNED, log)
    (env / f"{PINNED}.swf.gz").write_bytes(data)
    df = archive.load_archive_log(PINNED)
    assert df.attrs["verified"] is True
    (record,) = archive.logs_read()
    assert record["pinned"] is True and record["sha256"] == good


def test_module_docstring_states_the_plain_copy_rule():
    doc = " ".join(archive.__doc__.split())
    assert "plain" in doc and "verified=False" in doc


# --- 2. Jann97ParametersMissing names a log the catalogue accepts ----------------------
def test_jann97_missing_parameters_names_a_catalogued_log():
    with pytest.raises(Jann97ParametersMissing) as info:
        jann97()
    message = str(info.value)
    named = re.findall(r"catalogue name '([^']+)'", message)
    named += re.findall(r"load_archive_log\('([^']+)'\)", message)
    assert len(named) == 2, message
    for name in named:
        assert name in archive.CATALOGUE, f"{name!r} in the message is not catalogued"
        assert archive._entry(name).name == name
    assert CTC_LOG in archive.CATALOGUE
    assert archive.CATALOGUE[CTC_LOG].folder == "l_ctc_sp2"


def test_jann97_missing_parameters_is_an_hpcmodels_error():
    assert issubclass(Jann97ParametersMissing, HpcmodelsError)
    with pytest.raises(HpcmodelsError):
        jann97()
    with pytest.raises(ValueError):  # still what callers may already catch
        jann97()


# --- 3. unreadable files ---------------------------------------------------------------
@pytest.mark.parametrize(
    "name, filename",
    [
        (PINNED, f"{PINNED}.swf.gz"),  # hashed before use
        (PINNED, f"{PINNED}.swf"),  # plain copy: not hashed
        (UNPINNED, f"{UNPINNED}.swf.gz"),  # no published hash
    ],
)
def test_unreadable_copy_is_unavailable_and_a_clear_error(env, monkeypatch, name, filename):
    path = env / filename
    path.write_bytes(gzip.compress(ROW.encode()) if filename.endswith(".gz") else ROW.encode())
    _deny_reading(monkeypatch, path)

    assert archive.is_available(name) is False
    table = archive.catalogue()
    assert len(table) == len(archive.CATALOGUE)
    assert not table.set_index("name").loc[name, "available"]
    with pytest.raises(LogNotAvailable, match=re.escape(str(path))) as info:
        archive.load_archive_log(name)
    assert "Permission denied" in str(info.value)
    with pytest.raises(LogNotAvailable, match=re.escape(str(path))):
        archive.find_archive_log(name)


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="root reads a file whatever its mode; the patched test above covers this case",
)
def test_unreadable_copy_with_real_permissions(env):
    path = env / f"{UNPINNED}.swf.gz"
    path.write_bytes(gzip.compress(ROW.encode()))
    path.chmod(0)
    try:
        assert archive.is_available(UNPINNED) is False
        assert len(archive.catalogue()) == len(archive.CATALOGUE)
        with pytest.raises(LogNotAvailable, match=re.escape(str(path))):
            archive.load_archive_log(UNPINNED)
    finally:
        path.chmod(0o600)


def test_corrupt_gzip_of_an_unpinned_log_names_the_file(env):
    path = env / f"{UNPINNED}.swf.gz"
    path.write_bytes(gzip.compress(ROW.encode())[:-12])  # truncated
    with pytest.raises(LogNotAvailable, match=re.escape(str(path))):
        archive.load_archive_log(UNPINNED)


# --- 4. public names of hpcmodels.workloads ----------------------------------------------
def test_archive_functions_are_exported_from_hpcmodels_workloads():
    import hpcmodels.workloads as workloads

    for name in ("load_archive_log", "LogNotAvailable", "catalogue", "is_available"):
        assert name in workloads.__all__
        assert getattr(workloads, name) is getattr(archive, name)
    assert workloads.LogNotAvailable is LogNotAvailable


@pytest.mark.parametrize(
    "statement",
    [
        "from hpcmodels.workloads import load_archive_log, LogNotAvailable, catalogue, is_available",
        "import hpcmodels.workloads.archive",
        "import hpcmodels.workloads.models.jann97",
        "import hpcmodels.errors, hpcmodels.workloads.swf, hpcmodels.workloads",
    ],
)
def test_no_circular_import(statement):
    """Each import order works in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", statement], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# --- 5. unknown log names ----------------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [archive.load_archive_log, archive.archive_log_path, archive.find_archive_log,
     archive.is_available],
)  # fmt: skip
def test_unknown_log_is_a_value_error_and_a_key_error_listing_the_catalogue(env, call):
    with pytest.raises(UnknownLogError) as info:
        call("NOPE-2000")
    error = info.value
    assert isinstance(error, ValueError) and isinstance(error, KeyError)
    assert isinstance(error, HpcmodelsError)
    message = str(error)
    assert "NOPE-2000" in message and not message.startswith('"')
    for name in archive.CATALOGUE:
        assert name in message


@pytest.mark.parametrize("name", [None, 3, b"SDSC-SP2-1998-4.2-cln", ["SDSC-SP2-1998-4.2-cln"]])
@pytest.mark.parametrize(
    "call",
    [archive.load_archive_log, archive.archive_log_path, archive.find_archive_log,
     archive.is_available],
)  # fmt: skip
def test_a_log_name_that_is_no_string_is_a_type_error_listing_the_catalogue(env, call, name):
    """Issue 51 (left from round two): load_archive_log(None) raised AttributeError."""
    from hpcmodels.errors import InvalidType

    with pytest.raises(InvalidType, match="name must be a log's name") as info:
        call(name)
    assert isinstance(info.value, TypeError) and "SDSC-SP2-1998-4.2-cln" in str(info.value)


# --- 6. merging logs ---------------------------------------------------------------------
@pytest.mark.parametrize("start", ["abc", "1e9", None, float("nan"), float("inf"), True, [1]])
def test_merge_logs_refuses_a_unix_start_time_that_is_no_number(start):
    """Issue 51 (left from round two): a non-numeric UnixStartTime raised a TypeError
    from deep inside (comparing an int with a str)."""
    import pandas as pd

    from hpcmodels.errors import InvalidParameter
    from hpcmodels.workloads.transforms import merge_logs

    good = pd.DataFrame({"submit": [0.0, 10.0]})
    good.attrs["UnixStartTime"] = 5
    bad = pd.DataFrame({"submit": [0.0, 1.0]})
    bad.attrs["UnixStartTime"] = start
    field = "UnixStartTime" if start is None else "frames[1].attrs['UnixStartTime']"
    with pytest.raises(InvalidParameter, match=re.escape(field)):
        merge_logs([good, bad])
    assert len(merge_logs([good, bad], align=False)) == 4  # not aligned: the header unused
