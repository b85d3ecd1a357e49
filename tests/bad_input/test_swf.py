"""Hardening of the SWF reader and writer (hpcmodels.workloads.swf).

1. a wrong field count on every line is an error (not a silent column shift);
2. one grammar whichever parser runs (the fast C parser or the line-by-line fallback);
3. values that are not valid SWF (negative other than -1, non-integer or inexact ids);
4. ``write_swf`` refuses what it cannot write and writes floats exactly;
5. a corrupt gzip names the file.

Then a round-trip property and a fuzz test on real lines of the SDSC SP2 log.
"""

import gzip
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.errors import HpcmodelsError
from hpcmodels.workloads import SWF_COLUMNS, SWFError, read_swf, swf_frame, write_swf
from hpcmodels.workloads import swf as swf_module

from logs import SDSC, need_log

ROW = "1 0 10 100 8 -1 -1 8 200 -1 1 3 1 -1 2 -1 -1 -1"
HEADER = "; Version: 2.2"


def _write(path: Path, lines: list[str], ending: str = "\n") -> Path:
    path.write_bytes((ending.join(lines) + ending).encode())
    return path


def _row(**fields: str) -> str:
    """ROW with some fields replaced by the given texts."""
    values = ROW.split()
    for name, text in fields.items():
        values[SWF_COLUMNS.index(name)] = text
    return " ".join(values)


def _assert_same_bits(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Equal frames (NaN where NaN), and every value equal bit for bit (so 0.0 is not -0.0)."""
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    for column in SWF_COLUMNS:
        x, y = (np.nan_to_num(f[column].to_numpy(dtype=float), nan=0.0) for f in (a, b))
        np.testing.assert_array_equal(x.view(np.int64), y.view(np.int64), err_msg=column)


# --- 1. wrong field count on every line --------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "found"),
    [(" 7", 19), (" 7 8", 20), (" 7 8 9 10 11", 23)],
)
def test_extra_fields_on_every_line_are_an_error(tmp_path, extra, found):
    # pandas took the first column as the index when every line had 19 fields
    path = _write(tmp_path / "long.swf", [HEADER, ROW + extra, ROW + extra])
    with pytest.raises(SWFError, match=f"line 2: .*expected 18 fields, found {found}") as err:
        read_swf(path)
    assert err.value.line_number == 2
    skipped = read_swf(path, on_error="skip")
    assert len(skipped) == 0 and skipped.attrs["skipped_lines"] == [2, 3]


@pytest.mark.parametrize("keep", [17, 10, 1])
def test_missing_fields_on_every_line_are_an_error(tmp_path, keep):
    short = " ".join(ROW.split()[:keep])
    path = _write(tmp_path / "short.swf", [HEADER, short, short])
    field = SWF_COLUMNS[keep]  # the first missing one
    with pytest.raises(
        SWFError, match=f"line 2: field '{field}': expected 18 fields, found {keep}"
    ):
        read_swf(path)


# --- 2. one grammar for both parsers ---------------------------------------------------
GOOD = [
    ROW + " ; a trailing comment",
    _row(job="2") + ";no space before the comment",
    "\t " + _row(job="3").replace(" ", "\t") + "  ",  # tabs, leading and trailing blanks
    _row(job="4", submit="1e2", runtime=".5", procs="8.", wait="-1.0"),  # -1.0 is missing
    _row(job="5", submit="0.30000000000000004", runtime="+7", think_time="-0"),
]


def test_good_lines_read_the_same_with_and_without_a_bad_line(tmp_path):
    fast = read_swf(_write(tmp_path / "good.swf", [HEADER, *GOOD]))
    assert fast.attrs["skipped"] == 0 and fast["job"].tolist() == [1, 2, 3, 4, 5]
    assert fast.loc[3, ["submit", "runtime", "procs"]].tolist() == [100.0, 0.5, 8.0]
    assert np.isnan(fast.loc[3, "wait"]) and fast.loc[4, "submit"] == 0.1 + 0.2
    assert not np.signbit(fast.loc[4, "think_time"])  # -0 is read as 0
    for where in range(len(GOOD) + 1):  # a bad line forces the line-by-line parser
        lines = [HEADER, *GOOD[:where], _row(job="9", submit="x"), *GOOD[where:]]
        path = _write(tmp_path / f"bad{where}.swf", lines)
        slow = read_swf(path, on_error="skip")
        assert slow.attrs["skipped_lines"] == [where + 2]
        _assert_same_bits(slow, fast)
        with pytest.raises(SWFError, match=f"line {where + 2}: field 'submit': not a number: 'x'"):
            read_swf(path)


def test_quoted_numbers_are_an_error_in_both_parsers(tmp_path):
    quoted = _row(runtime='"100"')
    message = "line 3: field 'runtime': not a number: '\"100\"'"
    with pytest.raises(SWFError, match=re.escape(message)):
        read_swf(_write(tmp_path / "q.swf", [HEADER, ROW, quoted, ROW]))
    path = _write(tmp_path / "q2.swf", [HEADER, ROW, quoted, "9 x"])
    with pytest.raises(SWFError, match=re.escape(message)):  # the first bad line
        read_swf(path)
    assert read_swf(path, on_error="skip").attrs["skipped_lines"] == [3, 4]


def test_raise_names_the_first_bad_line_not_a_good_commented_one(tmp_path):
    path = _write(tmp_path / "c.swf", [ROW + " ; ok", ROW, _row(submit="x")])
    with pytest.raises(SWFError, match="line 3: field 'submit'") as err:
        read_swf(path)
    assert err.value.line_number == 3


LINE_ENDINGS = ["\n", "\r\n", "\r"]


@pytest.mark.parametrize("ending", LINE_ENDINGS)
def test_line_endings_count_lines_the_same(tmp_path, ending):
    path = _write(tmp_path / "e.swf", [HEADER, ROW, "", ROW, "2 x"], ending=ending)
    with pytest.raises(SWFError, match="line 5: "):
        read_swf(path)
    good = read_swf(_write(tmp_path / "g.swf", [HEADER, ROW, "", ROW], ending=ending))
    assert len(good) == 2 and good.attrs["header"] == [HEADER]


def test_bom_and_indented_header_lines(tmp_path):
    path = tmp_path / "bom.swf"
    path.write_bytes(b"\xef\xbb\xbf" + f"{HEADER}\n  ; MaxProcs: 64\n{ROW}\n".encode())
    df = read_swf(path)
    assert df.attrs["header"] == [HEADER, "  ; MaxProcs: 64"]
    assert df.attrs["Version"] == 2.2 and df.attrs["MaxProcs"] == 64 and len(df) == 1


def test_a_long_bad_line_is_rejected_quickly(tmp_path):
    """The job-line pattern matches in one way only: an ambiguous number pattern
    took minutes on 18 numbers of 3 digits followed by a stray character."""
    line = " ".join(["123456"] * 18) + "x"
    path = _write(tmp_path / "slow.swf", [line, ROW])
    code = "import sys; from hpcmodels.workloads import read_swf; read_swf(sys.argv[1], on_error='skip')"
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, timeout=60)


# tokens chosen to hit where pandas' C parser and Python's float() used to differ
_ODD_TOKENS = ['"100"', "'7'", "true", "FALSE", "nan", "NA", "inf", "-Infinity", "1e400",
               "1_0", "0x1", "+-1", "1e", "e5", ".", "-", "\xa01", "\u0663", "1,5", "1.5.5",
               "9007199254740993", "1.5", "-0.5", "-0", "-1.0", "1.e2", "+7", "#", "\x00"]  # fmt: skip
_TOKENS = st.one_of(
    st.integers(-2, 10**7).map(str),
    st.floats(-2, 1e12, allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(_ODD_TOKENS),
)
_SEPARATORS = st.sampled_from([" ", "  ", "\t", " \t", "\x0b", "\x0c", "\xa0"])


@st.composite
def _swf_line(draw) -> str:
    kind = draw(st.sampled_from(["job", "job", "job", "blank", "comment"]))
    if kind == "blank":
        return draw(st.sampled_from(["", "  ", "\t", "\x0c"]))
    if kind == "comment":
        return draw(st.sampled_from(["; Note: x", "  ; MaxProcs: 5", ";"]))
    tokens = draw(st.lists(_TOKENS, min_size=17, max_size=19))
    if draw(st.booleans()):
        tokens = ROW.split()[: len(tokens)]  # mostly good lines, with a few odd tokens
        for _ in range(draw(st.integers(0, 2))):
            tokens[draw(st.integers(0, len(tokens) - 1))] = draw(_TOKENS)
    line = "".join(t + draw(_SEPARATORS) for t in tokens[:-1]) + tokens[-1]
    return line + draw(st.sampled_from(["", " ", " ; note", ";x"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(_swf_line(), max_size=6), st.sampled_from(LINE_ENDINGS))
def test_fast_parser_never_accepts_what_the_fallback_rejects(lines, ending):
    """Whenever the C parser accepts a file, the line-by-line parser accepts it too, with
    the same values bit for bit; and read_swf's outcome is the line-by-line parser's."""
    text = ending.join(lines) + ending
    fast = swf_module._fast_parse(text.encode())
    slow, skipped = swf_module._slow_parse(text.encode(), "f.swf", "skip")
    if fast is not None:
        assert skipped == []
        np.testing.assert_array_equal(fast.view(np.int64), slow.view(np.int64))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f.swf"
        path.write_bytes(text.encode())
        if skipped:
            with pytest.raises(SWFError) as err:
                read_swf(path)
            assert err.value.line_number == skipped[0]
        frame = read_swf(path, on_error="skip")
    assert frame.attrs["skipped_lines"] == skipped and len(frame) == len(slow)


def test_number_tokens_accepted_alike_by_both_parsers():
    """Every token of up to 3 characters from the characters of numbers: the C parser
    accepts it (with the value float() gives) only if the fallback does."""
    alphabet = "019eE.+-"
    tokens = [a + b + c for a in alphabet for b in ["", *alphabet] for c in ["", *alphabet]]
    for token in dict.fromkeys(tokens):
        text = _row(submit=token) + "\n"
        fast = swf_module._fast_parse(text.encode())
        slow, skipped = swf_module._slow_parse(text.encode(), "t.swf", "skip")
        if fast is not None:
            assert skipped == [], token
            assert fast[0, 1] == slow[0, 1] == float(token), token


# --- 3. values the reader used to let through -----------------------------------------
@pytest.mark.parametrize(
    ("field", "text", "problem"),
    [
        ("submit", "-0.5", "only -1 may be negative"),
        ("runtime", "-1e-9", "only -1 may be negative"),
        ("runtime", "-2", "only -1 may be negative"),
        ("job", "9223372036854775808", "at most 2\\*\\*53 - 1"),  # used to wrap negative
        ("job", "9007199254740993", "at most 2\\*\\*53 - 1"),  # not exact in a float64
        ("job", "1e300", "at most 2\\*\\*53 - 1"),
        ("job", "1.5", "a job id must be a whole number"),
        ("preceding_job", "2.5", "a job id must be a whole number"),
        ("runtime", "1e400", "not a finite number"),
        ("runtime", "inf", "not a number"),
        ("runtime", "nan", "not a number"),
        ("runtime", "NA", "not a number"),
        ("status", "true", "not a number"),
        ("procs", "1_0", "not a number"),
        ("procs", "0x10", "not a number"),
        ("procs", "\u0668", "not a number"),  # an Arabic-Indic 8: float() takes it
        ("procs", "8\xa09", "not a number"),  # a no-break space is not a separator
    ],
)
def test_invalid_values_name_line_field_and_value(tmp_path, field, text, problem):
    path = _write(tmp_path / "v.swf", [HEADER, ROW, _row(**{field: text}), ROW])
    with pytest.raises(SWFError, match=f"line 3: field '{field}': .*{problem}") as err:
        read_swf(path)
    assert err.value.field == field and repr(text)[1:-1] in str(err.value)


@pytest.mark.parametrize(
    ("field", "text", "value"),
    [
        ("job", "9007199254740991", 2**53 - 1),  # the largest exact id
        ("job", "0", 0),
        ("job", "-1", -1),  # unknown job id stays -1 (job is int64)
        ("preceding_job", "9007199254740991", float(2**53 - 1)),
        ("submit", "0.30000000000000004", 0.1 + 0.2),
        ("submit", "1E+2", 100.0),
        ("runtime", "1e20", 1e20),
        ("runtime", "5e-324", 5e-324),
        ("runtime", "-0.0", 0.0),
    ],
)
def test_valid_values_are_read_exactly(tmp_path, field, text, value):
    df = read_swf(_write(tmp_path / "ok.swf", [ROW, _row(**{field: text})]))
    got = df.loc[1, field]
    assert got == value and type(got) is type(df.loc[0, field])
    assert np.signbit(got) == np.signbit(value)  # "-0.0" is read as 0.0


# --- 4. write_swf ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("column", "value", "shown"),
    [
        ("runtime", np.inf, "inf"),
        ("runtime", -np.inf, "-inf"),
        ("runtime", -5.0, "-5.0"),
        ("submit", -0.5, "-0.5"),
        ("job", 1.5, "1.5"),
        ("job", 2.0**53, "9007199254740992.0"),
        ("job", -2.0, "-2.0"),
        ("preceding_job", 0.5, "0.5"),
    ],
)
def test_write_refuses_values_it_cannot_write(tmp_path, column, value, shown):
    df = swf_frame(submit=[0.0, 1.0, 2.0], runtime=[1.0, 2.0, 3.0])
    df.index = [10, 11, 12]
    if column == "job":
        df["job"] = df["job"].astype(float)
    df.loc[11, column] = value
    path = tmp_path / "w.swf"
    with pytest.raises(HpcmodelsError, match=f"column '{column}', row 1 .*: {re.escape(shown)}"):
        write_swf(df, path)
    assert not path.exists()


def test_write_refuses_text_and_line_breaks_in_the_header(tmp_path):
    df = swf_frame(submit=[0.0], runtime=[1.0])
    df["procs"] = ["8"]
    with pytest.raises(HpcmodelsError, match="column 'procs'"):
        write_swf(df, tmp_path / "t.swf")
    df = swf_frame(submit=[0.0], runtime=[1.0])
    df.attrs = {"Note": "two\nlines"}
    with pytest.raises(HpcmodelsError, match="header line .*line break"):
        write_swf(df, tmp_path / "h.swf")
    df.attrs = {"header": ["; Version: 2.2", "Version: 2.2"]}
    with pytest.raises(HpcmodelsError, match="header line .*'Version: 2.2'.*;"):
        write_swf(df, tmp_path / "h.swf")


def test_write_is_exact_for_large_tiny_and_inexact_floats(tmp_path):
    values = [1e20, 2.0**53, 2.0**60 + 2**8, 5e-324, 0.1 + 0.2, 1 / 3, 123456789.123, 1e-7]
    df = swf_frame(runtime=values)
    again = read_swf(write_swf(df, tmp_path / "x.swf"))
    _assert_same_bits(again[list(SWF_COLUMNS)], df)


def test_write_keeps_whole_numbers_integer_looking(tmp_path):
    df = swf_frame(submit=[0, 5.0, 7.5], runtime=[10, 1e6, 0.1 + 0.2])
    lines = write_swf(df, tmp_path / "i.swf").read_text().splitlines()
    assert [line.split()[1:4] for line in lines] == [
        ["0", "-1", "10"],
        ["5", "-1", "1000000"],
        ["7.5", "-1", "0.30000000000000004"],
    ]


def test_synthetic_submit_times_round_trip(tmp_path):
    # the report: %.15g changed 4,767 of 5,000 submit times of a synthetic model
    rng = np.random.default_rng(7)
    df = swf_frame(submit=np.cumsum(rng.exponential(300.0, 5000)), runtime=rng.random(5000))
    again = read_swf(write_swf(df, tmp_path / "s.swf.gz"))
    _assert_same_bits(again[list(SWF_COLUMNS)], df)


# --- 5. corrupt gzip -------------------------------------------------------------------
def _packed() -> bytes:
    return gzip.compress(((HEADER + "\n") + (ROW + "\n") * 200).encode(), mtime=0)


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda d: d[: len(d) // 2], "truncated"),
        (lambda d: d[:5], "truncated"),
        (lambda d: d + b"<html>oops</html>", "17 bytes after the end of the gzip data"),
        (lambda d: d[:-8] + bytes(4) + d[-4:], "corrupt gzip data"),  # CRC
        (lambda d: d[:20] + b"\xff" * 10 + d[30:], "corrupt gzip data"),
    ],
)
def test_corrupt_gzip_names_the_file(tmp_path, damage, problem):
    path = tmp_path / "log.swf.gz"
    path.write_bytes(damage(_packed()))
    with pytest.raises(SWFError, match=f"{re.escape(str(path))}: .*{problem}"):
        read_swf(path)


def test_gzip_padding_and_several_members_are_fine(tmp_path):
    path = tmp_path / "ok.swf.gz"
    path.write_bytes(_packed() + bytes(16))  # zero padding, as gzip allows
    assert len(read_swf(path)) == 200
    path.write_bytes(_packed() + gzip.compress((ROW + "\n").encode()))
    assert len(read_swf(path)) == 201


# --- round-trip property ------------------------------------------------------------------
_IDS = st.one_of(st.just(-1), st.integers(0, 10**7), st.integers(0, 2**53 - 1))
_SMALL = st.floats(0, 1e4, allow_nan=False, allow_infinity=False)
_VALUES = st.one_of(
    st.just(np.nan),
    st.integers(0, 10**10).map(float),
    st.floats(0, 1e12, allow_nan=False, allow_infinity=False),
    st.tuples(_SMALL, _SMALL).map(lambda ab: ab[0] + ab[1]),  # sums like 0.1 + 0.2
    st.sampled_from([0.1 + 0.2, 1 / 3, 2.0**53, 2.0**53 + 2, 1e20, 5e-324]),
)


@st.composite
def _swf_frames(draw) -> pd.DataFrame:
    n = draw(st.integers(0, 12))
    columns = {}
    for name in SWF_COLUMNS:
        if name == "job":
            columns[name] = np.array(draw(st.lists(_IDS, min_size=n, max_size=n)), np.int64)
        elif name == "preceding_job":
            ids = draw(st.lists(_IDS, min_size=n, max_size=n))
            columns[name] = np.array([np.nan if v == -1 else v for v in ids], dtype=float)
        else:
            columns[name] = np.array(draw(st.lists(_VALUES, min_size=n, max_size=n)), float)
    return pd.DataFrame(columns)


@settings(max_examples=100, deadline=None)
@given(_swf_frames(), st.sampled_from(["f.swf", "f.swf.gz"]))
def test_write_then_read_gives_the_same_frame_bit_for_bit(frame, name):
    with tempfile.TemporaryDirectory() as folder:
        again = read_swf(write_swf(frame, Path(folder) / name))
    _assert_same_bits(again, frame)


# --- fuzz: real lines of the SDSC SP2 log, mutated --------------------------------------
HARMLESS = ("crlf", "comment", "blank", "tabs")
HARMFUL = ("extra field", "missing field", "stray character")
STRAY = ["x", "#", '"', ",", "/", "*", "?", "~", "\xa0", "\u00e9", "\x0b"]


def _mutate(line: str, kind: str, rng: np.random.Generator) -> tuple[list[str], str | None]:
    """The text pieces (each ends with its own line ending) replacing ``line``, and the
    field an error must name (None: harmless; "" for a wrong field count)."""
    fields = line.split()
    if kind == "crlf":
        return [line + "\r\n"], None
    if kind == "comment":
        return [line + str(rng.choice([" ; note", ";x", "\t; Note: 5 6 7"])) + "\n"], None
    if kind == "blank":
        return [str(rng.choice(["", "  ", "\t"])) + "\n", line + "\n"], None
    if kind == "tabs":
        return ["\t".join(fields) + "\n"], None
    if kind == "extra field":
        fields.insert(int(rng.integers(0, len(fields) + 1)), str(rng.integers(0, 1000)))
        return [" ".join(fields) + "\n"], ""
    if kind == "missing field":
        del fields[int(rng.integers(0, len(fields)))]
        return [" ".join(fields) + "\n"], ""
    k = int(rng.integers(0, len(fields)))  # a stray character
    at = int(rng.integers(0, len(fields[k]) + 1))
    fields[k] = fields[k][:at] + str(rng.choice(STRAY)) + fields[k][at:]
    return [" ".join(fields) + "\n"], SWF_COLUMNS[k]


@pytest.mark.parametrize("seed", range(24))
def test_fuzzed_real_log_lines(tmp_path, seed):
    log = need_log(SDSC)
    lines = gzip.decompress(Path(log.attrs["source"]).read_bytes()).decode().splitlines()
    header = [line for line in lines if line.startswith(";")]
    jobs = [line for line in lines if not line.startswith(";")][:200]
    expected = log.iloc[:200].reset_index(drop=True)
    rng = np.random.default_rng(seed)
    kinds = HARMLESS if seed % 3 == 0 else HARMLESS + HARMFUL  # some files only harmless
    pieces = [line + "\n" for line in header]
    bad: dict[int, str] = {}  # line number -> field an error must name
    bad_rows = []
    for row, line in enumerate(jobs):
        kind = str(rng.choice(kinds)) if rng.random() < 0.15 else None
        new, field = _mutate(line, kind, rng) if kind else ([line + "\n"], None)
        pieces += new
        if field is not None:
            bad[len(pieces)] = field
            bad_rows.append(row)
    path = tmp_path / "fuzz.swf"
    path.write_bytes("".join(pieces).encode())
    read = read_swf(path, on_error="skip")
    assert read.attrs["skipped_lines"] == list(bad)
    assert read.attrs["header"] == header
    _assert_same_bits(read, expected.drop(index=bad_rows).reset_index(drop=True))
    if bad:
        first = next(iter(bad))
        with pytest.raises(SWFError, match=f"line {first}: ") as err:
            read_swf(path)
        assert err.value.line_number == first
        if bad[first]:
            assert err.value.field == bad[first]
    else:
        _assert_same_bits(read_swf(path), read)


@pytest.mark.parametrize(
    "text", ["-0.99999999999999999999", "-1.00000000000000001", "-99999999999999999999e-20"]
)
def test_a_negative_number_that_only_rounds_to_minus_one_is_not_unknown(tmp_path, text):
    """Issue 51 (from round two): ``-0.99999999999999999999`` reads as -1.0 in a float64,
    but it is not the "unknown" marker -1: a negative value, refused like any other."""
    path = _write(tmp_path / "x.swf", [HEADER, ROW, _row(submit=text)])
    with pytest.raises(SWFError, match=r"only -1 may be negative") as err:
        read_swf(path)
    assert err.value.line_number == 3 and "submit" in str(err.value) and text in str(err.value)
    skipped = read_swf(path, on_error="skip")
    assert skipped.attrs["skipped_lines"] == [3] and len(skipped) == 1


@pytest.mark.parametrize(
    "text", ["-1", "-1.0", "-1.", "-10e-1", "-0000000000000000001", "-1.00000000000000000000"]
)
def test_every_spelling_of_minus_one_is_unknown(tmp_path, text):
    frame = read_swf(_write(tmp_path / "x.swf", [HEADER, _row(submit=text)]))
    assert len(frame) == 1 and np.isnan(frame["submit"].iloc[0])
