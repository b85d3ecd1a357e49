import gzip

import pytest

from hpcmodels.workloads import archive
from hpcmodels.workloads.archive import LogNotAvailable, archive_log_path, load_archive_log

ROW = "1 0 10 100 8 -1 -1 8 200 -1 1 3 1 -1 2 -1 -1 -1\n"


@pytest.fixture
def empty_env(tmp_path, monkeypatch):
    monkeypatch.setenv("HPCMODELS_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("HPCMODELS_CACHE", str(tmp_path / "cache"))
    (tmp_path / "data").mkdir()
    return tmp_path


def test_catalogue_has_the_papers_logs():
    names = set(archive.catalogue()["name"])
    for needed in (
        "SDSC-SP2-1998-4.2-cln",
        "SDSC-SP2-1998-4.2",
        "ANL-Intrepid-2009-1",
        "CTC-SP2-1996-3.1-cln",
        *[f"DAS2-fs{k}-2003-1" for k in range(5)],
    ):
        assert needed in names
    log = archive.CATALOGUE["SDSC-SP2-1998-4.2-cln"]
    assert log.url.endswith("/l_sdsc_sp2/SDSC-SP2-1998-4.2-cln.swf.gz")
    assert len(log.sha256) == 64


def test_unknown_name_lists_the_catalogue():
    with pytest.raises(KeyError, match="catalogue has"):
        load_archive_log("NOPE-2000")


def test_uncheckummed_local_copy_is_found(empty_env):
    (empty_env / "data" / "ANL-Intrepid-2009-1.swf.gz").write_bytes(gzip.compress(ROW.encode()))
    df = load_archive_log("ANL-Intrepid-2009-1", download=False)
    assert len(df) == 1 and df.attrs["log"] == "ANL-Intrepid-2009-1"
    assert df.attrs["verified"] is False


def test_wrong_checksum_is_a_clear_error(empty_env):
    (empty_env / "data" / "SDSC-SP2-1998-4.2-cln.swf.gz").write_bytes(gzip.compress(ROW.encode()))
    with pytest.raises(LogNotAvailable, match="checksum mismatch.*put it in"):
        load_archive_log("SDSC-SP2-1998-4.2-cln")
    assert not archive.is_available("SDSC-SP2-1998-4.2-cln")


def test_offline_without_download_says_where_to_put_the_file(empty_env):
    with pytest.raises(LogNotAvailable, match="not available locally.*HPCMODELS_DATA"):
        archive_log_path("DAS2-fs0-2003-1", download=False)


def test_unreachable_archive_is_a_clear_error(empty_env, monkeypatch):
    # a closed port on this machine stands in for an archive that cannot be reached
    monkeypatch.setattr(archive, "ARCHIVE", "http://127.0.0.1:9/workload")
    with pytest.raises(LogNotAvailable, match="could not download.*put it in") as info:
        archive_log_path("DAS2-fs1-2003-1", download=True)
    message = str(info.value)  # one sentence a report can show whole: no library dump
    assert "could not be reached" in message
    assert "\n" not in message and "HTTPConnectionPool" not in message
    assert "Max retries" not in message


def test_downloads_are_on_unless_the_user_opts_out(empty_env, monkeypatch):
    monkeypatch.setattr(archive, "ARCHIVE", "http://127.0.0.1:9/workload")
    monkeypatch.setenv("HPCMODELS_OFFLINE", "1")  # as in every test run (conftest.py)
    with pytest.raises(LogNotAvailable, match="not available locally"):
        archive_log_path("DAS2-fs1-2003-1")  # no download attempted
    monkeypatch.setenv("HPCMODELS_OFFLINE", "0")
    assert archive.downloads_allowed()
    with pytest.raises(LogNotAvailable, match="could not download"):
        archive_log_path("DAS2-fs1-2003-1")


def test_the_cache_is_searched_after_hpcmodels_data(empty_env):
    cache = empty_env / "cache"
    cache.mkdir()
    (cache / "LANL-CM5-1994-4.1-cln.swf").write_text(ROW)
    assert archive.find_archive_log("LANL-CM5-1994-4.1-cln") == cache / "LANL-CM5-1994-4.1-cln.swf"
