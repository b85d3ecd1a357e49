"""tla_scores reads its jobs as arrays (issue 55): every accepted form of ``running`` and
``waiting`` (records, a DataFrame, a dict of columns, a 2-D or structured array) gives the
scores of the list of named tuples bit for bit, and a bad value in any form is refused
with the class and words of the scalar check, naming the argument, the first bad row
and its field."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.multicluster import Cluster, RunningJob, WaitingJob, tla_scores

RUN_FIELDS, WAIT_FIELDS = RunningJob._fields, WaitingJob._fields


def bits(scores: dict) -> dict:
    """The scores as bytes: equal only when every float is the same bit for bit."""
    return {
        c: (
            np.float64(s.att).tobytes(),
            np.array(s.turnaround, np.float64).tobytes(),
            tuple(s.clusters),
            np.array(s.starts, np.float64).tobytes(),
        )
        for c, s in scores.items()
    }


def is_number(v) -> bool:
    return isinstance(v, int | float | np.integer | np.floating) and not isinstance(
        v, bool | np.bool_
    )


def columns_of(rows, fields) -> dict:
    return {f: [r[i] for r in rows] for i, f in enumerate(fields)}


def column_array(values):
    """A column as NumPy reads it, but object-typed when it holds a non-number (NumPy
    would make a string column of ``[1.0, "3"]``); names stay a string column."""
    if all(isinstance(v, str) for v in values) or all(is_number(v) for v in values):
        return np.array(values)
    return np.array(values, dtype=object)


def series(values):
    """A Series as pandas reads it, but object-typed when it holds a non-number (pandas
    would read None as NaN in a column of numbers, and as a missing text in names)."""
    return pd.Series(values, dtype=None if all(is_number(v) for v in values) else object)


def frame(rows, fields):
    return pd.DataFrame({f: series(c) for f, c in columns_of(rows, fields).items()})


def table_2d(rows, fields):
    if all(is_number(v) for r in rows for v in r):
        return np.array(rows, np.float64).reshape(len(rows), len(fields))
    out = np.empty((len(rows), len(fields)), dtype=object)
    for k, r in enumerate(rows):
        out[k, :] = list(r)
    return out


def structured(rows, fields):
    """A structured array: each field text, int64 or float64 as its values allow, else
    of objects."""

    def kind(values):
        if all(isinstance(v, str) for v in values):
            return "U8"
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return "i8"
        return "f8" if all(is_number(v) for v in values) else "O"

    kinds = [(f, kind([r[i] for r in rows])) for i, f in enumerate(fields)]
    return np.array([tuple(r) for r in rows], dtype=kinds)


def object_rows(rows, fields):
    out = np.empty(len(rows), dtype=object)
    for k, r in enumerate(rows):
        out[k] = tuple(r)
    return out


FORMS = {
    "named tuples": None,  # the reference: the rows as given
    "plain tuples": lambda rows, fields: [tuple(r) for r in rows],
    "lists": lambda rows, fields: [list(r) for r in rows],
    "generator": lambda rows, fields: (tuple(r) for r in rows),
    "1-D object array of tuples": object_rows,
    "DataFrame": frame,
    "DataFrame, columns reversed": lambda rows, fields: frame(rows, fields)[list(fields)[::-1]],
    "dict of lists": columns_of,
    "dict of arrays": lambda rows, fields: {
        f: column_array(c) for f, c in columns_of(rows, fields).items()
    },
    "dict of Series": lambda rows, fields: {
        f: series(c) for f, c in columns_of(rows, fields).items()
    },
    "2-D array": table_2d,
    "structured array": structured,
}


def form(name, rows, kind):
    build = FORMS[name]
    return list(rows) if build is None else build(rows, kind._fields)


# ----------------------------------------------------------------- same scores, any form
@st.composite
def snapshots(draw):
    """A snapshot at ``now`` (any sign, large or small): 1-4 clusters, running jobs on
    some (by name or index), 1-12 waiting jobs submitted at or before now (whole or
    fractional times), some wider than some clusters."""
    m = draw(st.integers(1, 4))
    clusters = [
        Cluster(f"c{i}", draw(st.integers(1, 8)), draw(st.sampled_from((0.5, 1.0, 2.0))))
        for i in range(m)
    ]
    now = draw(st.sampled_from((0.0, -7.5, 1e9 + 0.25, 123.0)))
    whole = draw(st.booleans())
    time = st.integers(0, 40).map(float) if whole else st.floats(0, 40, allow_subnormal=False)
    by_index = draw(st.booleans())
    running = []
    for c, cl in enumerate(clusters):
        left = cl.procs
        for _ in range(draw(st.integers(0, 3))):
            if left == 0:
                break
            p = draw(st.integers(1, left))
            left -= p
            end = now + draw(time) - 10.0
            running.append(RunningJob(c if by_index else cl.name, p, end))
    widest = max(c.procs for c in clusters)
    waiting = [
        WaitingJob(draw(st.integers(1, widest)), now - draw(time), draw(time))
        for _ in range(draw(st.integers(1, 12)))
    ]
    return clusters, running, waiting, now


@settings(max_examples=60, deadline=None)
@given(
    snapshots(),
    st.sampled_from(sorted(FORMS)),
    st.sampled_from(sorted(FORMS)),
    st.sampled_from((None, 1, 3)),
    st.sampled_from(("fastest_first", "best_fit", "worst_fit", "random_fit")),
)
def test_every_form_gives_the_scores_of_the_named_tuples_bit_for_bit(
    snap, run_form, wait_form, depth, policy
):
    clusters, running, waiting, now = snap
    want = tla_scores(clusters, running, waiting, now, depth=depth, policy=policy)
    got = tla_scores(
        clusters,
        form(run_form, running, RunningJob),
        form(wait_form, waiting, WaitingJob),
        now,
        depth=depth,
        policy=policy,
    )
    assert bits(got) == bits(want)


def test_a_frame_of_1000_waiting_jobs_scores_as_its_records():
    rng = np.random.default_rng(5)
    clusters = [Cluster(f"c{i}", 164) for i in range(5)]
    running = [RunningJob(f"c{i % 5}", 1, float(e)) for i, e in enumerate(rng.uniform(0, 2e3, 100))]
    df = pd.DataFrame(
        {
            "procs": rng.integers(1, 65, 1000),
            "submit": -rng.uniform(0, 5e3, 1000),
            "estimate": rng.exponential(1e3, 1000),
        }
    )
    records = [WaitingJob(*r) for r in df.itertuples(index=False)]
    want = bits(tla_scores(clusters, running, records))
    run_df = pd.DataFrame(running)
    assert bits(tla_scores(clusters, run_df, df)) == want
    assert bits(tla_scores(clusters, run_df.to_dict("list"), df.to_numpy())) == want


def test_only_the_first_depth_waiting_jobs_are_read():
    clusters = [Cluster("a", 4), Cluster("b", 4)]
    good = [(1, 0.0, 1.0), (2, 0.0, 2.0)]
    bad = (1, math.nan, 1.0)
    want = tla_scores(clusters, [], good)
    taken = []

    def jobs():
        for job in [*good, bad, "not a job"]:
            taken.append(job)
            yield job

    assert tla_scores(clusters, [], jobs(), depth=2) == want
    assert taken == good  # the generator was read no further than the depth
    for name in FORMS:
        assert tla_scores(clusters, [], form(name, [*good, bad], WaitingJob), depth=2) == want
    with pytest.raises(InvalidParameter, match=r"waiting\[2\]\.submit"):
        tla_scores(clusters, [], frame([*good, bad], WAIT_FIELDS), depth=3)


# ------------------------------------------------------------- bad values, in every form
CLUSTERS = [Cluster("A", 8, 1.0), Cluster("B", 8, 2.0)]
RUNNING = [("A", 1, 5.0), ("B", 2, 3.0), ("A", 2, 7.0), ("B", 1, 1.0)]
WAITING = [(2, -5.0, 10.0), (3, -4.0, 2.0), (1, -2.0, 8.0), (4, -1.0, 2.0)]
NAN, INF = math.nan, math.inf

# (argument, field, value put in row 2, class, message after "<argument>[2]")
BAD_VALUES = [
    ("waiting", "procs", 0, InvalidParameter, r"\.procs must be a whole number >= 1 .*got 0"),
    ("waiting", "procs", -3, InvalidParameter, r"\.procs must be a whole number .*got -3"),
    ("waiting", "procs", 2.5, InvalidParameter, r"\.procs must be a whole number .*got 2\.5"),
    ("waiting", "procs", 2**43, InvalidParameter, r"\.procs .*<= 8796093022207, got 8796093022208"),
    ("waiting", "procs", NAN, InvalidParameter, r"\.procs must be a whole number .*got nan"),
    ("waiting", "procs", True, InvalidType, r"\.procs must be a whole number .*got True"),
    ("waiting", "procs", "3", InvalidType, r"\.procs must be a whole number .*got '3'"),
    ("waiting", "procs", None, InvalidType, r"\.procs must be a whole number .*got None"),
    ("waiting", "procs", 9, InvalidParameter, r" needs 9 processors, more than any cluster"),
    ("waiting", "submit", NAN, InvalidParameter, r"\.submit must be a finite number, got nan"),
    ("waiting", "submit", -INF, InvalidParameter, r"\.submit must be a finite number, got -inf"),
    ("waiting", "submit", 5.0, InvalidParameter, r"\.submit = 5\.0 is after now = 0\.0"),
    ("waiting", "submit", False, InvalidType, r"\.submit must be a finite number, got False"),
    ("waiting", "submit", "-2", InvalidType, r"\.submit must be a finite number, got '-2'"),
    ("waiting", "estimate", NAN, InvalidParameter, r"\.estimate must be .*>= 0\.0, got nan"),
    ("waiting", "estimate", INF, InvalidParameter, r"\.estimate must be a finite .*got inf"),
    ("waiting", "estimate", -1.0, InvalidParameter, r"\.estimate must be .*>= 0\.0, got -1\.0"),
    ("waiting", "estimate", None, InvalidType, r"\.estimate must be a finite number .*got None"),
    ("running", "cluster", "Z", InvalidParameter, r"\.cluster 'Z' is not one of \['A', 'B'\]"),
    ("running", "cluster", 2, InvalidParameter, r"\.cluster 2: give a name or index 0\.\.1"),
    ("running", "cluster", True, InvalidParameter, r"\.cluster True: give a name or index"),
    ("running", "cluster", None, InvalidParameter, r"\.cluster None: give a name or index"),
    ("running", "procs", 0, InvalidParameter, r"\.procs must be a whole number >= 1 .*got 0"),
    ("running", "procs", 2**43, InvalidParameter, r"\.procs .*, got 8796093022208"),
    ("running", "procs", "2", InvalidType, r"\.procs must be a whole number .*got '2'"),
    ("running", "end", NAN, InvalidParameter, r"\.end must be a finite number, got nan"),
    ("running", "end", INF, InvalidParameter, r"\.end must be a finite number, got inf"),
    ("running", "end", True, InvalidType, r"\.end must be a finite number, got True"),
]


def with_row(rows, k, field, value, fields):
    out = [list(r) for r in rows]
    out[k][fields.index(field)] = value
    return [tuple(r) for r in out]


def snapshot_with(arg, field, value, form_name):
    running, waiting = RUNNING, WAITING
    if arg == "waiting":
        waiting = with_row(WAITING, 2, field, value, WAIT_FIELDS)
    else:
        running = with_row(RUNNING, 2, field, value, RUN_FIELDS)
    run_rows = [RunningJob(*r) for r in running]
    wait_rows = [WaitingJob(*r) for r in waiting]
    return form(form_name, run_rows, RunningJob), form(form_name, wait_rows, WaitingJob)


@pytest.mark.parametrize("form_name", sorted(FORMS))
@pytest.mark.parametrize(("arg", "field", "value", "cls", "message"), BAD_VALUES)
def test_a_bad_value_is_refused_naming_the_argument_row_and_field(
    form_name, arg, field, value, cls, message
):
    running, waiting = snapshot_with(arg, field, value, form_name)
    with pytest.raises(cls, match=rf"^{arg}\[2\]{message}") as caught:
        tla_scores(CLUSTERS, running, waiting)
    assert type(caught.value) is cls


def test_running_jobs_beyond_a_cluster_are_refused_naming_the_cluster_and_row():
    for name in FORMS:
        running, waiting = snapshot_with("running", "procs", 8, name)  # A: 1 + 8 > 8
        with pytest.raises(InvalidParameter, match=r"more than cluster 'A''s 8 .*running\[2\]"):
            tla_scores(CLUSTERS, running, waiting)
        running, waiting = snapshot_with("running", "procs", 7, name)  # A full, not beyond
        assert tla_scores(CLUSTERS, running, waiting).keys() == {"B"}


@pytest.mark.parametrize("form_name", sorted(FORMS))
def test_the_first_bad_row_is_named_then_the_first_rule_it_breaks(form_name):
    waiting = with_row(WAITING, 3, "procs", 0, WAIT_FIELDS)
    waiting = with_row(waiting, 1, "estimate", NAN, WAIT_FIELDS)
    waiting = with_row(waiting, 1, "submit", 1.0, WAIT_FIELDS)
    rows = [WaitingJob(*r) for r in waiting]
    with pytest.raises(InvalidParameter, match=r"^waiting\[1\]\.submit = 1\.0 is after now"):
        tla_scores(CLUSTERS, RUNNING, form(form_name, rows, WaitingJob))
    running = with_row(RUNNING, 1, "end", INF, RUN_FIELDS)
    running = with_row(running, 1, "procs", 0, RUN_FIELDS)
    running = with_row(running, 0, "procs", 9, RUN_FIELDS)  # beyond A already in row 0
    rows = [RunningJob(*r) for r in running]
    with pytest.raises(InvalidParameter, match=r"more than cluster 'A'.*running\[0\]"):
        tla_scores(CLUSTERS, form(form_name, rows, RunningJob), WAITING)
    rows = [rows[3], rows[1]]  # B, 1, 1.0; then B, 0, inf: the procs first
    with pytest.raises(InvalidParameter, match=r"^running\[1\]\.procs"):
        tla_scores(CLUSTERS, form(form_name, rows, RunningJob), WAITING)
    # running is checked before waiting, as with records
    with pytest.raises(InvalidParameter, match=r"^running\[1\]\.procs"):
        tla_scores(CLUSTERS, form(form_name, rows, RunningJob), [(1, math.nan, 1.0)])


def test_a_column_of_the_wrong_kind_is_refused_at_its_first_row():
    base = frame([WaitingJob(*r) for r in WAITING], WAIT_FIELDS)
    cases = [
        ("procs", [True, False, True, True], InvalidType, r"\[0\]\.procs .*got True"),
        ("procs", ["2", "3", "1", "4"], InvalidType, r"\[0\]\.procs .*got '2'"),
        ("submit", np.array(["-5", "-4", "-2", "-1"]), InvalidType, r"\[0\]\.submit .*got '-5'"),
        ("estimate", np.array([1j, 2j, 1j, 1j]), InvalidType, r"\[0\]\.estimate .*got 1j"),
        ("submit", pd.to_datetime(["2020-01-01"] * 4), InvalidType, r"\[0\]\.submit"),
        ("estimate", pd.array([1, 2, None, 4], dtype="Int64"), InvalidParameter,
         r"\[2\]\.estimate .*got nan"),
    ]  # fmt: skip
    for field, column, cls, message in cases:
        df = base.assign(**{field: column})
        for jobs in (df, {f: df[f].to_numpy() for f in WAIT_FIELDS}):
            with pytest.raises(cls, match="^waiting" + message):
                tla_scores(CLUSTERS, RUNNING, jobs)
    bools = np.zeros(4, [("procs", "?"), ("submit", "f8"), ("estimate", "f8")])
    with pytest.raises(InvalidType, match=r"^waiting\[0\]\.procs .*got False"):
        tla_scores(CLUSTERS, RUNNING, bools)
    names = np.array([["A", "1", "5.0"]])  # NumPy made every field text
    with pytest.raises(InvalidType, match=r"^running\[0\]\.procs .*got '1'"):
        tla_scores(CLUSTERS, names, WAITING)


TABLE_CASES = [
    # (running, waiting, class, message)
    (RUNNING, pd.DataFrame(WAITING, columns=["procs", "submit", "runtime"]), InvalidParameter,
     r"^waiting lacks column\(s\) \['estimate'\]"),
    (RUNNING, pd.DataFrame(WAITING, columns=WAIT_FIELDS).assign(runtime=1.0), InvalidParameter,
     r"^waiting has extra column\(s\) \['runtime'\]"),
    (RUNNING, pd.DataFrame([r + (1,) for r in WAITING], columns=[*WAIT_FIELDS, "procs"]),
     InvalidParameter, r"^waiting repeats column\(s\) \['procs'\]"),
    (pd.DataFrame(RUNNING, columns=["cluster", "procs", "end"]).drop(columns="end"), WAITING,
     InvalidParameter, r"^running lacks column\(s\) \['end'\]"),
    (RUNNING, {"procs": [1], "submit": [0.0]}, InvalidParameter,
     r"^waiting lacks key\(s\) \['estimate'\]"),
    (RUNNING, {"procs": [1], "submit": [0.0], "estimate": [1.0], "x": [0]}, InvalidParameter,
     r"^waiting has extra key\(s\) \['x'\]"),
    (RUNNING, {"procs": [1, 2], "submit": [0.0], "estimate": [1.0, 1.0]}, InvalidParameter,
     r"^waiting's columns differ in length: \{'procs': 2, 'submit': 1, 'estimate': 2\}"),
    (RUNNING, {"procs": 1, "submit": 0.0, "estimate": 1.0}, InvalidType,
     r"^waiting\['procs'\] must be a column"),
    (RUNNING, {"procs": np.ones((2, 2)), "submit": [0.0], "estimate": [1.0]}, InvalidParameter,
     r"^waiting\['procs'\] must be 1-dimensional"),
    (RUNNING, np.array(WAITING)[:, :2], InvalidParameter, r"^waiting has 2 columns: give 3"),
    (RUNNING, np.c_[np.array(WAITING), np.ones(4)], InvalidParameter, r"^waiting has 4 columns"),
    (RUNNING, np.array(WAITING)[0], InvalidType, r"^waiting as an array must be 2-dimensional"),
    (RUNNING, np.array(WAITING)[None], InvalidType, r"^waiting as an array must be 2-dim"),
    (RUNNING, np.zeros(2, [("procs", "i8"), ("submit", "f8")]), InvalidParameter,
     r"^waiting lacks field\(s\) \['estimate'\]"),
    (RUNNING, [(1, 0.0, 1.0), (1, 0.0)], InvalidType, r"^waiting\[1\] must be a WaitingJob"),
    (RUNNING, [(1, 0.0, 1.0), {"procs": 1}], InvalidType, r"^waiting\[1\] must be a WaitingJob"),
    (RUNNING, object_rows([(1, 0.0, 1.0), (1, 0.0, 1.0, 2)], WAIT_FIELDS), InvalidType,
     r"^waiting\[1\] must be a WaitingJob"),
    ([("A", 1, 5.0), ("A", 1)], WAITING, InvalidType, r"^running\[1\] must be a RunningJob"),
    (RUNNING, WaitingJob(1, 0.0, 1.0), InvalidType, r"^waiting must be a list of WaitingJob"),
    (RUNNING, "jobs", InvalidType, r"^waiting must be a list"),
    (RUNNING, None, InvalidType, r"^waiting must be a list"),
    (RUNNING, [], InvalidParameter, r"^waiting is empty"),
    (RUNNING, pd.DataFrame(columns=WAIT_FIELDS), InvalidParameter, r"^waiting is empty"),
    (RUNNING, {f: [] for f in WAIT_FIELDS}, InvalidParameter, r"^waiting is empty"),
    (RUNNING, np.empty((0, 3)), InvalidParameter, r"^waiting is empty"),
    (RUNNING, np.zeros(0, [(f, "f8") for f in WAIT_FIELDS]), InvalidParameter, r"^waiting is empty"),
]  # fmt: skip


@pytest.mark.parametrize(("running", "waiting", "cls", "message"), TABLE_CASES)
def test_a_table_of_the_wrong_shape_is_refused_naming_its_columns(running, waiting, cls, message):
    with pytest.raises(cls, match=message) as caught:
        tla_scores(CLUSTERS, running, waiting)
    assert type(caught.value) is cls


def test_no_running_job_may_be_given_as_an_empty_table_too():
    want = tla_scores(CLUSTERS, [], WAITING)
    for empty in (
        pd.DataFrame(columns=RUN_FIELDS),
        {f: [] for f in RUN_FIELDS},
        np.empty((0, 3)),
        np.empty((0, 3), object),
    ):
        assert tla_scores(CLUSTERS, empty, WAITING) == want


def test_a_whole_float_cluster_index_reads_as_the_index():
    """A float 2-D array holds the cluster index as a float: 1.0 is cluster 1 (as check_int
    reads 4.0 as 4); 0.5 and 2.0 (out of range) are not a cluster's index."""
    want = tla_scores(CLUSTERS, [(1, 2, 3.0)], WAITING)
    assert tla_scores(CLUSTERS, np.array([[1.0, 2.0, 3.0]]), WAITING) == want
    assert tla_scores(CLUSTERS, [(1.0, 2, 3.0)], WAITING) == want
    for index in (0.5, 2.0, -1.0, NAN):
        with pytest.raises(InvalidParameter, match=r"^running\[0\]\.cluster .*give a name"):
            tla_scores(CLUSTERS, np.array([[index, 2.0, 3.0]]), WAITING)
