"""The report: every paper's rows gathered into ``build/REPORT.md`` and into the static
site's report pages. The top of the papers layer: it reads what the notebooks saved
(:meth:`~hpcmodels.papers.verdicts.Collector.save`, :func:`save_findings`) and the
paper-scale store, and no paper imports it.

``python -m hpcmodels reproduce`` gathers every ``build/results/<paper>.csv`` into
``build/REPORT.md`` (:func:`write_report`), which opens with a summary (paper x verdict
counts) and closes with the verdict policy of :mod:`hpcmodels.papers.verdicts`;
``make site`` stages the same sections as web pages (:func:`write_site_report`). Files
read back that cannot be read as what they should be are a
:class:`~hpcmodels.errors.CorruptFile` naming the file and what to do
(:mod:`hpcmodels.papers.records`).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import CorruptFile, check_frame, check_path
from .records import REWRITE, ROOT, read_record, read_table, read_text, restore, why
from .report_pages import WIDE_TABLES, markdown_tables, paper_page, picture, relative
from .report_tables import compact, notebook_sections
from .verdicts import ALIKE, VERDICT_MEANINGS, VERDICTS, tolerance_table

__all__ = [
    "RESULT_COLUMNS",
    "FINDING_COLUMNS",
    "save_findings",
    "paper_sections",
    "write_report",
    "write_site_report",
]

RESULT_COLUMNS = ["title", "item", "quantity", "paper", "ours", "diff", "verdict", "reason"]
"""The columns of a notebook's results (``build/results/<paper>.csv``; ``kind`` may be
missing in results saved before kinds were recorded)."""


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


def _links(paper: str, report_dir: Path) -> str:
    """Links from the report to the paper's notebook and figures (paths relative to the
    report, so they work in a checkout and on the forge)."""

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
        cause = f"{type(err).__name__}: {why(err)}"
        raise CorruptFile(path, f"is not a record of a run ({cause}); {REWRITE}") from None


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


def write_site_report(
    results_dir: str | Path, folder: str | Path, store_dir: str | Path | None = None
) -> list[Path]:
    """Stage the report for the site in ``folder``: ``report.md`` (the summary, each
    paper linked to its page, the across-papers findings, the policy and the store's
    changes) and ``report/<paper>.md`` with its picture ``report/<paper>.png``. Returns
    the pages written."""
    results_dir = check_path("results_dir", results_dir)
    folder = check_path("folder", folder)
    store_dir = check_path("store_dir", store_dir, optional=True)
    sections = paper_sections(results_dir, store_dir)
    pages = folder / "report"
    pages.mkdir(parents=True, exist_ok=True)
    written = []
    for section in sections:
        stem = section.path.stem
        picture(section.rows, section.title, pages / f"{stem}.png")
        page = pages / f"{stem}.md"
        page.write_text(paper_page(section, f"{stem}.png"))
        written.append(page)
    table = summary_table(sections, lambda s: f"[{s.title}](report/{s.path.stem}.md)")
    index = [
        "# Reproduction report",
        "",
        "Items per verdict in the quick run (`make reproduce`); the last column counts "
        "them at paper scale (`results/`). Each paper's page shows its items, linked to "
        "the notebook section that computes them, with the reasons folded under them.",
        "",
        _markdown_table(table),
        "",
        "```{toctree}",
        ":hidden:",
        "",
        *(f"report/{p.stem}" for p in written),
        "```",
        "",
    ]
    findings = _findings_section(results_dir, ROOT / "build", store_dir)  # ../notebooks
    findings = [line.replace("](../", "](") for line in findings]
    index += [WIDE_TABLES, ""] + findings + (policy_lines() if sections else []) + _store_changes()
    report = folder / "report.md"
    report.write_text("\n".join(index) + "\n")
    return [report, *written]
