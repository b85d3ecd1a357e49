import gzip

import numpy as np
import pandas as pd
import pytest

from hpcmodels.workloads import SWF_COLUMNS, SWFError, read_swf, swf_frame, write_swf

from logs import SDSC, need_log


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return path


ROW = "1 0 10 100 8 -1 -1 8 200 -1 1 3 1 -1 2 -1 -1 -1"


def test_small_file_types_unknowns_and_header(tmp_path):
    path = _write(
        tmp_path / "a.swf",
        [
            "; Version: 2.2",
            "; MaxProcs: 128",
            "; Note: one",
            "; Note: two",
            ROW,
            "",
            "2 5 0 50 4 -1 -1 4 60 -1 0 3 1 -1 1 -1 -1 -1",
        ],
    )
    df = read_swf(path)
    assert list(df.columns) == list(SWF_COLUMNS)
    assert df["job"].dtype == np.int64 and df["runtime"].dtype == np.float64
    assert df.loc[0, "runtime"] == 100 and np.isnan(df.loc[0, "avg_cpu"])
    assert df.attrs["MaxProcs"] == 128 and df.attrs["Version"] == 2.2
    assert df.attrs["Note"] == ["one", "two"]
    assert df.attrs["skipped"] == 0


def test_gzip_and_plain_read_the_same(tmp_path):
    plain = _write(tmp_path / "b.swf", [ROW])
    packed = tmp_path / "b.swf.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    pd.testing.assert_frame_equal(read_swf(plain), read_swf(packed), check_like=False)


def test_write_round_trip(tmp_path):
    df = swf_frame(submit=[0, 5.0, 7], runtime=[10, 20.5, 1], procs=[1, 2, 64], status=[1, 1, 0])
    df.attrs = {"MaxProcs": 64, "Note": ["a", "b"]}
    again = read_swf(write_swf(df, tmp_path / "r.swf.gz"))
    pd.testing.assert_frame_equal(df, again[list(SWF_COLUMNS)])
    assert again.attrs["MaxProcs"] == 64 and again.attrs["Note"] == ["a", "b"]


def test_real_log_round_trip(tmp_path):
    df = need_log(SDSC)
    again = read_swf(write_swf(df, tmp_path / "sdsc.swf"))
    pd.testing.assert_frame_equal(df, again)
    assert again.attrs["header"] == df.attrs["header"]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (lambda f: f[:10], "status", "expected 18 fields, found 10"),
        (lambda f: [*f[:3], "12x", *f[4:]], "runtime", "not a number"),
        (lambda f: [*f[:4], "-5", *f[5:]], "procs", r"invalid value -5 \(only -1 may be negative"),
    ],
)
def test_corrupted_real_log_names_line_and_field(tmp_path, change, field, message):
    df = need_log(SDSC)
    lines = gzip.decompress(open(df.attrs["source"], "rb").read()).decode().splitlines()
    target = len(df.attrs["header"]) + 1000  # 0-based index of a data line
    lines[target] = " ".join(change(lines[target].split()))
    path = _write(tmp_path / "bad.swf", lines)
    with pytest.raises(SWFError, match=f"line {target + 1}: field '{field}': {message}"):
        read_swf(path)
    skipped = read_swf(path, on_error="skip")
    assert len(skipped) == len(df) - 1
    assert skipped.attrs["skipped"] == 1 and skipped.attrs["skipped_lines"] == [target + 1]


def test_skip_counts_every_bad_line(tmp_path):
    path = _write(tmp_path / "c.swf", [ROW, "2 x", ROW.replace("1 0 10", "3 0 -7"), ROW])
    df = read_swf(path, on_error="skip")
    assert len(df) == 2 and df.attrs["skipped"] == 2 and df.attrs["skipped_lines"] == [2, 3]
    with pytest.raises(ValueError, match="on_error"):
        read_swf(path, on_error="ignore")


def test_swf_frame_checks_columns():
    with pytest.raises(ValueError, match="not SWF columns"):
        swf_frame(submit=[0], runtime=[1], nodes=[2])
    with pytest.raises(ValueError, match="missing SWF columns"):
        write_swf(pd.DataFrame({"submit": [0]}), "never.swf")
