"""Paper-versus-ours comparisons, their verdicts, one tolerance policy, and the report.

Every reproduced item is a row ``item, quantity, kind, paper, ours, diff, verdict,
reason``. The verdicts:

* ``exact``: ours rounds to the printed value (at the paper's printed precision), on the
  paper's own input; a row computed on another input (another log, a shortened run, a
  reconstructed model) is never ``exact``;
* ``within tolerance``: ``|ours - paper|`` is at most the tolerance of the quantity's
  kind (:data:`TOLERANCES`), or, where ours is an estimate with a 95 % confidence
  interval, at most that interval's half-width (our run cannot tell the two apart);
* ``qualitative``: a claim of the paper (an ordering, a trend) that holds in our results;
* ``differs``: none of these; the reason is a measured statement (a number the notebook
  computes), never a guess;
* ``reconstructed model``: ours comes from a documented reconstruction of a model whose
  original parameters are lost, so the comparison says nothing about the paper;
* ``not run``: the item needs data that is not available here (the reason names it).

The tolerances are set here, once, per kind of quantity; paper modules name the kind
(:func:`compare_value`) and never a threshold of their own. Claims that two things are
"close", "alike" or "approximately the same" use :data:`ALIKE`.

A notebook collects its rows in a :class:`Collector` and saves them as CSV under
``build/results/``; ``python -m hpcmodels reproduce`` gathers every CSV into
``build/REPORT.md``, which opens with a summary (paper x verdict counts) and this policy.
The files read back (:func:`read_text`, :func:`read_record`, :func:`read_table`,
:func:`read_notebook`) that cannot be read as what they should be are a
:class:`~hpcmodels.errors.CorruptFile` naming the file and what to do.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import CorruptFile, InvalidParameter, check_bool, check_frame, check_path

__all__ = [
    "VERDICTS",
    "TOLERANCES",
    "ALIKE",
    "Tolerance",
    "tolerance_table",
    "alike",
    "compare_value",
    "compare_claim",
    "claim",
    "fmt_series",
    "not_run",
    "log_missing",
    "missing_frame",
    "missing_of",
    "shown",
    "Collector",
    "write_report",
    "view",
]

REWRITE = "rerun `make reproduce` (python -m hpcmodels reproduce) to write it again, or delete it"
"""What to do about a corrupt file of ``build/``: the run that wrote it writes it again."""
RESULT_COLUMNS = ["title", "item", "quantity", "paper", "ours", "diff", "verdict", "reason"]
"""The columns of a notebook's results (``build/results/<paper>.csv``; ``kind`` may be
missing in results saved before kinds were recorded)."""


def restore(path: Path) -> str:
    """What to do about a corrupt file of the checkout: restore it from git."""
    try:
        where = Path(path).resolve().relative_to(ROOT)
    except ValueError:
        where = Path(path)
    return f"restore it from git (git checkout -- {where.as_posix()})"


def _why(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return lines[0] if lines else type(err).__name__


def read_text(path: Path, remedy: str = REWRITE) -> str:
    """The UTF-8 text of ``path``, a file the package reads back; one that cannot be read
    (not UTF-8, a folder, not readable) is a :class:`~hpcmodels.errors.CorruptFile`
    naming it, why, and ``remedy``: what to do."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CorruptFile(path, f"cannot be read as UTF-8 text ({_why(err)}); {remedy}") from None


def read_record(path: Path, remedy: str = REWRITE) -> dict:
    """The JSON object of ``path`` (a record: how results were made, a notebook), else a
    :class:`~hpcmodels.errors.CorruptFile` as :func:`read_text` gives it."""
    try:
        record = json.loads(read_text(path, remedy))
    except json.JSONDecodeError as err:
        raise CorruptFile(path, f"is not JSON ({_why(err)}); {remedy}") from None
    if not isinstance(record, dict):
        raise CorruptFile(path, f"holds a JSON {type(record).__name__}, not an object; {remedy}")
    return record


def read_notebook(path: Path) -> dict:
    """The JSON of the notebook ``path`` of the checkout, with its list of cells; else a
    :class:`~hpcmodels.errors.CorruptFile` saying to restore it from git."""
    notebook = read_record(path, restore(path))
    if not isinstance(notebook.get("cells"), list):
        raise CorruptFile(path, f"is not a notebook (no list of cells); {restore(path)}")
    return notebook


def read_table(path: Path, columns, remedy: str = REWRITE, **options) -> pd.DataFrame:
    """The CSV table of ``path`` holding every one of ``columns`` (``options`` go to
    ``pd.read_csv``); a file that is no such table (not UTF-8, empty, a row with more
    fields than the header, a column missing) is a
    :class:`~hpcmodels.errors.CorruptFile` naming it, why, and ``remedy``."""
    try:
        with warnings.catch_warnings():  # a row longer than the header: an error, not a shift
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(path, index_col=False, encoding="utf-8", **options)
    except pd.errors.ParserWarning:
        raise CorruptFile(path, f"has a row longer than its header; {remedy}") from None
    except (OSError, ValueError) as err:
        raise CorruptFile(path, f"is not a readable CSV table ({_why(err)}); {remedy}") from None
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise CorruptFile(path, f"lacks column(s) {missing}; {remedy}")
    return frame


VERDICTS = ("exact", "within tolerance", "qualitative", "differs", "reconstructed model", "not run")
COLUMNS = ["item", "quantity", "kind", "paper", "ours", "diff", "verdict", "reason"]
VERDICT_MEANINGS = {
    "exact": "ours rounds to the printed value, on the paper's own input",
    "within tolerance": "within the tolerance of the quantity's kind (below), or inside our "
    "95 % confidence interval",
    "qualitative": "a claim of the paper (an ordering, a trend) that holds in ours",
    "differs": "none of these; the reason is a measured statement",
    "reconstructed model": "ours comes from a documented reconstruction of a lost model: "
    "says nothing about the paper",
    "not run": "needs data not available here (the reason names it)",
}


@dataclass(frozen=True)
class Tolerance:
    """How far ours may lie from the paper's value for one kind of quantity."""

    absolute: float = 0.0
    relative: float = 0.0
    what: str = ""
    why: str = ""
    unit: str = "absolute"
    exact: bool = True  # False: an approximate value is never matched exactly

    def of(self, paper: float) -> float:
        """The tolerance for a printed value ``paper``."""
        return max(self.absolute, self.relative * abs(paper))

    def text(self) -> str:
        if self.relative:
            return f"{self.relative:.0%} of the paper's value"
        if self.absolute:
            return f"{self.absolute:g} {self.unit}"
        return "none (exact only)"


TOLERANCES: dict[str, Tolerance] = {
    "fraction": Tolerance(
        absolute=0.01,
        what="shares, probabilities and utilisations in [0, 1]",
        why="printed to two or three decimals; one unit of the second decimal",
    ),
    "percent": Tolerance(
        absolute=2.0,
        unit="percentage points",
        what="percentages and percentage-point gains",
        why="printed as whole percents or one decimal, mostly read off simulated curves",
    ),
    "time": Tolerance(
        relative=0.05,
        what="simulated means: times, waiting ratios, slowdowns, turnaround",
        why="trace- and model-driven averages move by a few percent with event-order "
        "details the papers do not state",
    ),
    "count": Tolerance(
        what="counts that follow from the input and the rules (jobs, states)",
        why="deterministic: the same input and rules give the same count",
    ),
    "approximate": Tolerance(
        relative=0.10,
        what="values the paper states as approximate or reads off a figure",
        why="the paper's own 'about' or the precision of reading a plot (never exact)",
        exact=False,
    ),
}

ALIKE = 0.05
"""Relative spread within which a paper's "close", "alike" or "approximately the same"
holds: ``(max - min) / min <= ALIKE`` (or the values' 95 % confidence intervals overlap,
where they have them)."""


def tolerance_table() -> pd.DataFrame:
    """The tolerance policy as a table (README and the top of REPORT.md show it)."""
    return pd.DataFrame(
        [(kind, t.what, t.text(), t.why) for kind, t in TOLERANCES.items()],
        columns=["kind", "quantities", "tolerance", "why"],
    )


def alike(values, cis=None) -> bool:
    """Whether ``values`` are "approximately the same" (:data:`ALIKE`): their relative
    spread is at most ``ALIKE``, or, given 95 % half-widths ``cis``, every pair's
    intervals overlap."""
    x = [float(v) for v in values]
    if not x or not all(math.isfinite(v) for v in x):
        raise InvalidParameter(f"alike needs finite values, got {values!r}")
    lo, hi = min(x), max(x)
    if hi - lo <= ALIKE * abs(lo):
        return True
    if cis is None:
        return False
    c = [float(v) for v in cis]
    return all(
        abs(a - b) <= ca + cb
        for a, ca in zip(x, c, strict=True)
        for b, cb in zip(x, c, strict=True)
    )


def _decimals(printed: str) -> int:
    text = printed.strip().lstrip("+-")
    return len(text.split(".", 1)[1]) if "." in text else 0


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def compare_value(
    item: str,
    quantity: str,
    paper: float | str,
    ours: float,
    *,
    kind: str,
    ci: float | None = None,
    other_input: str = "",
    note: str = "",
    cause: str = "",
) -> dict:
    """Compare one number under the tolerance policy.

    ``paper`` may be given as the printed string ("0.752") so that its printed precision
    decides what counts as ``exact``. ``kind`` is a key of :data:`TOLERANCES`; ``ci`` our
    95 % confidence half-width, when ours is an estimate; ``other_input`` names how our
    input differs from the paper's (then the row cannot be ``exact``); ``note`` is shown
    whatever the verdict (run length, reading); ``cause`` only when the row differs: a
    measured statement of why."""
    if kind not in TOLERANCES:
        raise InvalidParameter(f"unknown kind {kind!r}; choose one of {list(TOLERANCES)}")
    printed = paper if isinstance(paper, str) else repr(paper)
    p = float(printed)
    diff = ours - p
    finite = math.isfinite(ours)
    half_unit = 0.5 * 10.0 ** (-_decimals(printed))
    tol = TOLERANCES[kind].of(p)
    by_ci = ci is not None and math.isfinite(ci) and ci > tol
    if by_ci:
        tol = ci
    rounds = finite and TOLERANCES[kind].exact and abs(diff) <= half_unit * (1 + 1e-9)
    context = _join(f"input: {other_input}" if other_input else "", note)
    if rounds and not other_input:
        verdict, reason = "exact", context
    elif finite and (rounds or abs(diff) <= tol * (1 + 1e-12)):
        bound = "the 95 % CI half-width" if by_ci else f"{kind} tolerance"
        verdict, reason = "within tolerance", _join(f"|diff| <= {tol:.3g} ({bound})", context)
    else:
        verdict, reason = "differs", _join(cause or "no reason recorded", context)
    return dict(
        item=item,
        quantity=quantity,
        kind=kind,
        paper=p,
        ours=ours,
        diff=diff,
        verdict=verdict,
        reason=reason,
    )


def not_run(item: str, quantity: str, paper, missing: str, *, kind: str = "") -> dict:
    """An item that could not be computed here, naming what is missing."""
    return dict(
        item=item,
        quantity=quantity,
        kind=kind,
        paper=paper,
        ours=None,
        diff=None,
        verdict="not run",
        reason=missing,
    )


def log_missing(err: Exception) -> str:
    """A missing workload log (a :class:`~hpcmodels.errors.LogNotAvailable`) as one
    sentence for a report row or a notebook: which log and how to get it, without this
    machine's folders (stored notebook outputs must read the same on every machine)."""
    return (
        f"log missing: {str(err).split(';')[0]}; download it from the Parallel Workloads "
        "Archive (hpcmodels.workloads.catalogue() gives its address) into the folder "
        "HPCMODELS_DATA names"
    )


def missing_frame(reason: str) -> pd.DataFrame:
    """An empty frame standing for a result that needs data missing here:
    ``attrs["missing"]`` says, in one sentence, what is missing and how to get it. A
    paper module's ``build_*`` functions return it instead of failing, pass it on when
    it is their input (:func:`missing_of`), and their rows functions turn it into
    ``not run`` rows."""
    frame = pd.DataFrame()
    frame.attrs["missing"] = reason
    return frame


def shown(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` as a notebook displays it: itself, or when it stands for missing data
    (:func:`missing_frame`) one cell ``not run`` holding the reason, so that a table
    that could not be made says why instead of showing nothing."""
    reason = missing_of(frame)
    return frame if reason is None else pd.DataFrame({"not run": [reason]})


def missing_of(*inputs) -> str | None:
    """Why the first of ``inputs`` that stands for missing data (a frame from
    :func:`missing_frame`) is missing, or None when none does; other values are
    ignored."""
    for value in inputs:
        if isinstance(value, pd.DataFrame) and value.attrs.get("missing"):
            return str(value.attrs["missing"])
    return None


def compare_claim(
    item: str,
    quantity: str,
    claim: str,
    holds: bool,
    ours: str,
    *,
    cause: str = "",
    note: str = "",
) -> dict:
    """A qualitative statement of the paper (an ordering, a trend) checked on ours:
    ``qualitative`` when it holds, else ``differs`` with ``cause`` (a measured statement;
    ``ours`` should carry the numbers). ``holds`` is a bool (a NumPy bool too); a
    string such as ``"no"``, a number or None is an
    :class:`~hpcmodels.errors.InvalidType` naming it."""
    if check_bool("holds", holds):
        verdict, reason = "qualitative", note
    else:
        verdict, reason = "differs", _join(cause or "the claim does not hold in ours", note)
    return dict(
        item=item,
        quantity=quantity,
        kind="claim",
        paper=claim,
        ours=ours,
        diff=None,
        verdict=verdict,
        reason=reason,
    )


def claim(item: str, text: str, holds, ours: str, *, cause: str = "", note: str = "") -> dict:
    """A claim whose quantity is its own text (:func:`compare_claim`)."""
    return compare_claim(item, text, text, bool(holds), ours, cause=cause, note=note)


def fmt_series(values: Mapping | pd.Series, sep: str = ", ") -> str:
    """``key: value`` pairs in one line, numeric keys as ``:g`` (a claim's ``ours``)."""
    items = values.items()
    return sep.join(f"{k:g}: {v}" if isinstance(k, int | float) else f"{k}: {v}" for k, v in items)


@dataclass
class Collector:
    """The rows of one paper's reproduction, in the order the notebook adds them."""

    paper: str
    title: str
    rows: list[dict] = field(default_factory=list)

    def add(self, rows: dict | list[dict] | pd.DataFrame) -> pd.DataFrame:
        """Add rows; returns them as a DataFrame so a notebook cell can show them."""
        if isinstance(rows, pd.DataFrame):
            new = rows[COLUMNS].to_dict("records")
        elif isinstance(rows, dict):
            new = [rows]
        else:
            new = list(rows)
        for row in new:
            if row["verdict"] not in VERDICTS:
                raise InvalidParameter(f"unknown verdict {row['verdict']!r} in {row}")
        self.rows.extend(new)
        return pd.DataFrame(new, columns=COLUMNS)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=COLUMNS)

    def save(self, results_dir: str | Path) -> Path:
        """Write the rows as ``<results_dir>/<paper>.csv`` (``results_dir``: a non-empty
        folder name, :func:`~hpcmodels.errors.check_path`) and return its path."""
        out = check_path("results_dir", results_dir)
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{self.paper}.csv"
        frame = self.frame()
        frame.insert(0, "title", self.title)
        frame.to_csv(path, index=False)
        from ..workloads.archive import logs_read

        # a fresh record for this run; `python -m hpcmodels reproduce` adds how it ran
        path.with_suffix(".json").write_text(json.dumps({"logs": logs_read()}))
        return path


def _cell(value) -> str:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return value.replace("|", "\\|").replace("\n", " ")
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _markdown_table(frame: pd.DataFrame) -> str:
    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _provenance_lines(info: dict) -> list[str]:
    """How a section's results were made: the run (when ``reproduce`` made it) and the
    workload logs read, each with its file and SHA-256."""
    lines = []
    if "notebook" in info:
        lines.append(
            f"Run: `{info['notebook']}` with parameters {info.get('parameters')}, "
            f"commit {info.get('commit')}, data folder `{info.get('data') or '-'}`, "
            f"{info.get('date')}."
        )
    if "logs" in info:
        logs = [
            f"`{e['log']}` (file `{e['file']}`, sha256 `{e['sha256'][:12]}…`, "
            + (
                "pinned checksum checked)"
                if e["pinned"]
                else "not checked against a pinned checksum)"
            )
            for e in info["logs"]
        ]
        lines.append("Logs read: " + ("; ".join(logs) if logs else "none (no workload log)") + ".")
    return lines


ROOT = Path(__file__).resolve().parents[2]


def _links(paper: str, report_dir: Path) -> str:
    """Links from the report to the paper's notebook and figures (paths relative to the
    report, so they work in a checkout and on the forge)."""
    import os

    def rel(path: Path) -> str:
        return Path(os.path.relpath(path, report_dir)).as_posix()

    notebooks = sorted((ROOT / "notebooks").glob(f"*{paper}*.ipynb"))
    figures = sorted((ROOT / "figures").glob(f"{paper}_*.png"))
    links = [f"[{nb.name}]({rel(nb)})" for nb in notebooks]
    links += [f"[{fig.stem.removeprefix(paper + '_')}]({rel(fig)})" for fig in figures]
    return " · ".join(links)


def _notebook_order(results: Path) -> str:
    """Sections in notebook order (01 ... 05), results of no notebook last."""
    notebooks = sorted((ROOT / "notebooks").glob(f"*{results.stem}*.ipynb"))
    return notebooks[0].name if notebooks else f"~{results.stem}"


def _anchor(title: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    keep = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -_")
    return keep.replace(" ", "-")


FINDINGS_SUFFIX = ".findings.csv"
"""Notebook 06's findings (:func:`save_findings`): beside the papers' rows, not among them."""
FINDING_COLUMNS = [
    "paper",
    "source",
    "claim",
    "selection",
    "settings",
    "holds",
    "within_noise",
    "reversed",
    "finding",
]


def save_findings(findings: pd.DataFrame, results_dir: str | Path, name: str = "across") -> Path:
    """Save notebook 06's findings (:func:`hpcmodels.papers.across.findings.carried_claims`)
    as ``<results_dir>/<name>.findings.csv``, for the report's "Across papers" section."""
    check_frame("findings", findings, FINDING_COLUMNS)
    out = check_path("results_dir", results_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}{FINDINGS_SUFFIX}"
    findings[FINDING_COLUMNS].to_csv(path, index=False)
    return path


def _findings_section(
    results_dir: Path, report_dir: Path, store_dir: str | Path | None = None
) -> list[str]:
    """The report's "Across papers" section, from the saved findings (none: no section),
    then the same findings on notebook 06's full-scale store when it exists."""
    paths = sorted(results_dir.glob(f"*{FINDINGS_SUFFIX}"))
    if not paths:
        return []
    parts = [
        "## Across papers",
        "",
        "Each paper's own comparisons carried over to one common ground (one system, the "
        "SDSC SP2 log and a Lublin99 stream, Shih's loads and speed heterogeneity, Jones's "
        "links), judged at every setting on paired replicates: a comparison *holds* where "
        "the 95 % interval of the paired difference lies on its side of zero. Not verdicts "
        "on the papers: findings about where their results carry over.",
        "",
    ]
    for path in paths:
        name = path.name.removesuffix(FINDINGS_SUFFIX)
        links = _links(name, report_dir)
        if links:
            parts += [f"Notebook and figures: {links}.", ""]
        frame = read_table(path, FINDING_COLUMNS)
        parts += [_markdown_table(frame.astype(object)), ""]
    return parts + _full_findings(store_dir)


def _full_findings(store_dir: Path | None) -> list[str]:
    """Notebook 06's findings judged on its full-scale store (none before it is computed)."""
    from .across import ensemble_findings
    from .store import read_provenance, read_store

    store = read_store("across", store_dir)
    if store is None:
        return []
    info = read_provenance("across", store_dir) or {}
    findings = ensemble_findings(store)
    return [
        f"At full scale (`results/across.parquet`: the whole SDSC SP2 log and 50,000-job "
        f"Lublin99 streams, {int(store['replicate'].nunique())} paired replicates per "
        f"setting; {_sweeps_text(info)}):",
        "",
        _markdown_table(findings[FINDING_COLUMNS].astype(object)),
        "",
    ]


STORE_CHANGES = Path(__file__).resolve().parents[2] / "docs" / "store_changes.md"
"""What each regeneration of the paper-scale store moved (the project's record, kept by
hand beside the commits that regenerate ``results/``): the report's last section."""


def _store_changes() -> list[str]:
    """The report's section on what the store's regenerations moved (none without the
    record, e.g. in an installed package)."""
    if not STORE_CHANGES.exists():
        return []
    lines = read_text(STORE_CHANGES, restore(STORE_CHANGES)).splitlines()
    body = lines[1:] if lines and lines[0].startswith("# ") else lines
    body = ["#" + line if line.startswith("#") else line for line in body]  # one level down
    return ["## Changes to the stored results", *body, ""]


def _sweeps_text(info: dict) -> str:
    """Every sweep of a store's provenance with the commit that computed it: a store
    point is one replicate of a setting (it may hold several single runs, e.g. every
    method on the same jobs), so points are counted as points."""
    sweeps = info.get("sweeps", [])
    text = [
        f"{s['points']:,} points in {s['wall_seconds']:,.0f} s at commit "
        f"{str(s.get('commit', info.get('commit', '?')))[:12]}"
        for s in sweeps
    ]
    head = f"{len(sweeps)} sweeps: " if len(sweeps) > 1 else ""
    return head + "; ".join(text) if text else "no sweep recorded"


def _read_results(path: Path) -> pd.DataFrame:
    """A notebook's results (:meth:`Collector.save`): the columns of
    :data:`RESULT_COLUMNS`, a verdict of :data:`VERDICTS` on every row; else a
    :class:`~hpcmodels.errors.CorruptFile`."""
    text = dict.fromkeys(["title", "item", "quantity", "kind", "verdict", "reason"], str)
    frame = read_table(path, RESULT_COLUMNS, dtype=text)
    bad = ~frame["verdict"].isin(VERDICTS)
    if bad.any():
        k = int(bad.to_numpy().argmax())
        verdict = frame["verdict"].iloc[k]
        raise CorruptFile(
            path,
            f"row {k + 1} (after the header) has the verdict {verdict!r}, not one of "
            f"{list(VERDICTS)}; {REWRITE}",
        )
    frame["paper"] = frame["paper"].astype(object)
    if "kind" not in frame:  # results saved before kinds were recorded
        frame.insert(frame.columns.get_loc("quantity") + 1, "kind", "")
    frame["kind"] = frame["kind"].astype(object).where(frame["kind"].notna(), "")
    return frame


def _title(frame: pd.DataFrame, path: Path) -> str:
    """A section's title: its results' (the paper-scale rows the quick run lacks have
    none), else the file's name (results with no row)."""
    titles = frame["title"].dropna()
    return str(titles.iloc[0]) if len(titles) else path.stem


def _run_lines(path: Path) -> list[str]:
    """How a section's results were made, from ``<paper>.json`` beside them (none: no
    line)."""
    if not path.exists():
        return []
    try:
        return [*_provenance_lines(read_record(path)), ""]
    except (KeyError, TypeError) as err:  # a record whose logs are not as saved
        why = f"{type(err).__name__}: {_why(err)}"
        raise CorruptFile(path, f"is not a record of a run ({why}); {REWRITE}") from None


def _counts(frame: pd.DataFrame, column: str = "verdict") -> str:
    counts = frame[column].value_counts()
    return ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts.get(v, 0))


ENSEMBLE_RULE = (
    "Paper scale: every item at its paper's own size, as a distribution of single runs "
    "(replicates: a seed per run for synthetic workloads; for traces a speed vector and a "
    "common 1 ± 1e-4 runtime scale), committed in `results/<paper>.parquet` with its "
    "provenance. A printed value that is the mean of k runs of the paper is compared with "
    "the distribution of our mean of k runs, resampled from our replicates: `within "
    "tolerance` when the printed value lies in its central 95 % range or within the "
    "tolerance of its kind of our mean, else `differs`, saying how many standard "
    "deviations of our mean of k runs away (for a deterministic trace, whose runs differ "
    "only by the 1 ± 1e-4 runtime scale, the distance in the quantity's units and as a "
    "share of its tolerance instead: its spread is the schedule's sensitivity, not "
    "sampling error). A claim that A beats B is judged on the paired "
    "differences A - B over the same replicates: it holds (`qualitative`) when their 95 % "
    "confidence interval lies on the claimed side of zero; it rests on at least 10 paired "
    "replicates, or its reason says why fewer, with the measured cost "
    "(`hpcmodels.papers.ensemble`)."
)


def _scale_counts(frame: pd.DataFrame) -> str:
    from .store import SCALE_COLUMNS

    done = frame[frame[SCALE_COLUMNS[1]] != "not computed"]
    return _counts(done, SCALE_COLUMNS[1]) if len(done) else "not computed"


@dataclass
class PaperSection:
    """One paper's part of the report: its results file, title, the :func:`compact`
    rows (quick beside paper scale), its notebook (None: no notebook) and the lines
    saying how its results were made."""

    path: Path
    title: str
    rows: pd.DataFrame
    notebook: Path | None
    counts: str
    scale_counts: str
    made: list[str] = field(default_factory=list)


def paper_sections(results_dir: Path, store_dir: Path | None = None) -> list[PaperSection]:
    """Every ``<paper>.csv`` of ``results_dir`` (findings aside) as a :class:`PaperSection`,
    in notebook order, each judged at paper scale on its store in ``store_dir``."""
    from .report_tables import compact, notebook_sections
    from .store import PAPERS, beside, paper_scale, read_provenance

    results = sorted(
        (p for p in results_dir.glob("*.csv") if not p.name.endswith(FINDINGS_SUFFIX)),
        key=_notebook_order,
    )
    sections = []
    for path in results:
        scale = paper_scale(path.stem, store_dir) if path.stem in PAPERS else None
        frame = beside(_read_results(path), scale, numeric=True)
        notebooks = sorted((ROOT / "notebooks").glob(f"*{path.stem}*.ipynb"))
        notebook = notebooks[0] if notebooks else None
        headings = notebook_sections(notebook) if notebook else []
        quick = frame[frame["verdict"] != ""]
        made = _run_lines(path.with_suffix(".json"))
        store = read_provenance(path.stem, store_dir) if path.stem in PAPERS else None
        if store:
            made += [
                f"Paper scale: `results/{path.stem}.parquet`, {store['started']} to "
                f"{store['ended']} on {store['machine']['cpus']} CPUs; "
                f"{_sweeps_text(store)}.",
                "",
            ]
        sections.append(
            PaperSection(
                path=path,
                title=_title(frame, path),
                rows=compact(frame, headings),
                notebook=notebook,
                counts=f"{len(quick)} items: {_counts(quick)}",
                scale_counts=_scale_counts(frame),
                made=made,
            )
        )
    return sections


def summary_table(sections: list[PaperSection], link) -> pd.DataFrame:
    """Paper x verdict counts (quick) with the paper-scale counts; ``link(section)`` is
    the paper's cell (a Markdown link)."""
    summary = []
    for section in sections:
        counts = section.rows["verdict"].value_counts()
        summary.append(
            {
                "paper": link(section),
                **{v: f"{int(counts.get(v, 0)):,}" for v in VERDICTS},
                "items": f"{int((section.rows['verdict'] != '—').sum()):,}",
                "paper scale": section.scale_counts,
            }
        )
    return pd.DataFrame(summary)


def policy_lines() -> list[str]:
    """The verdicts, the tolerances and the paper-scale rule, as the report states them."""
    verdicts = pd.DataFrame(VERDICT_MEANINGS.items(), columns=["verdict", "meaning"])
    return [
        "## Verdicts and tolerances",
        "",
        _markdown_table(verdicts),
        "",
        "Tolerance per kind of quantity (where ours has a 95 % confidence interval, "
        "the tolerance is the larger of this and the interval's half-width):",
        "",
        _markdown_table(tolerance_table()),
        "",
        f'Claims of closeness ("close", "alike", "approximately the same") '
        f"hold when the relative spread is at most {ALIKE:.0%} or the 95 % "
        "confidence intervals overlap.",
        "",
        ENSEMBLE_RULE,
        "",
    ]


def write_report(
    results_dir: str | Path, report_path: str | Path, store_dir: str | Path | None = None
) -> Path:
    """Gather every ``<paper>.csv`` of ``results_dir`` into one Markdown report: a
    summary (paper x verdict counts at both scales, linked to each section), then one
    section per paper (its counts, notebook and figures, how it was made, and its
    compact tables: :func:`~hpcmodels.papers.report_pages.markdown_tables`, reasons
    under each table), the across-papers findings, the tolerance policy and the store's
    changes. Each row shows the quick run beside the paper scale, judged on the paper's
    store in ``store_dir`` (default: the repository's ``results/``;
    :mod:`hpcmodels.papers.store`). The folders and the report's file name are
    non-empty ``str`` or ``os.PathLike`` (``store_dir`` may be None), else an
    :class:`~hpcmodels.errors.InvalidParameter` naming the argument. A results file,
    findings file or run record that cannot be read as what :meth:`Collector.save`,
    :func:`save_findings` and ``reproduce`` write (not UTF-8, not CSV or JSON, a column
    or key missing, an unknown verdict) is a :class:`~hpcmodels.errors.CorruptFile`
    naming it and saying to write it again."""
    from .report_pages import markdown_tables, relative

    results_dir = check_path("results_dir", results_dir)
    report = check_path("report_path", report_path, folder=False)
    store_dir = check_path("store_dir", store_dir, optional=True)
    sections = paper_sections(results_dir, store_dir)
    parts = ["# hpcmodels reproduction report", ""]
    if not sections:
        parts.append(f"No results found in `{results_dir}`: run the notebooks first.")
    else:
        table = summary_table(sections, lambda s: f"[{s.title}](#{_anchor(s.title)})")
        parts += [
            "## Summary",
            "",
            "Items per verdict in the quick run (`make reproduce`), and at paper scale "
            "(`results/`); the verdicts and tolerances are explained after the papers.",
            "",
            _markdown_table(table),
            "",
        ]
    for section in sections:
        parts += [
            f"## {section.title}",
            "",
            f"{section.counts}.",
            "",
            f"At paper scale: {section.scale_counts}.",
            "",
        ]
        links = _links(section.path.stem, report.parent)
        if links:
            parts += [f"Notebook and figures: {links}.", ""]
        parts += section.made
        link = relative(section.notebook, report.parent) if section.notebook else ""
        parts += markdown_tables(section.rows, link)
    parts += _findings_section(Path(results_dir), report.parent, store_dir)
    if sections:
        parts += policy_lines()
    parts += _store_changes()
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("\n".join(parts) + "\n")
    return report


def view(rows: pd.DataFrame | list[dict], digits: int = 4) -> pd.DataFrame:
    """A comparison table as a notebook shows it: numbers rounded, reasons kept whole."""
    frame = pd.DataFrame(rows)
    for column in ("paper", "ours", "diff", "algorithm1"):
        if column in frame:
            frame[column] = [round(v, digits) if isinstance(v, float) else v for v in frame[column]]
    return frame
