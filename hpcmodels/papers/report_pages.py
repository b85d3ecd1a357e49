"""The report as people read it: compact Markdown tables for ``build/REPORT.md`` and one
web page per paper for the static site (``make site``), both from the rows of
:func:`~hpcmodels.papers.report_tables.compact`.

``build/REPORT.md`` stays plain Markdown (a code host shows it as is): each paper's
items in one table per kind of quantity, with *item, paper, ours (quick), ours (paper
scale)* and both verdicts, and the reasons listed under the table, numbered as the
rows that have one. A site page opens with the paper's verdict counts at both scales
and a picture (the paper's value against ours, per kind, coloured by verdict), then
the same tables as HTML that fit the text column: each row's item links to the
notebook section that computes it, and its reasons are folded under it.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

import pandas as pd

from ..errors import check_frame, check_path
from .report_tables import KIND_GROUPS, MISSING, Section

__all__ = ["VERDICT_COLOURS", "markdown_tables", "html_tables", "verdict_counts", "picture"]

VERDICT_COLOURS = {
    "exact": "#1b7837",
    "within tolerance": "#5aae61",
    "qualitative": "#2166ac",
    "differs": "#d6604d",
    "reconstructed model": "#8073ac",
    "not run": "#9e9e9e",
    "not computed": "#d9d9d9",
}
"""One colour per verdict, on every picture and page of the report."""
HEADER = [
    "item",
    "paper",
    "ours, quick",
    "ours, paper scale",
    "verdict, quick",
    "verdict, paper scale",
]
_COMPACT = [
    "group",
    "item",
    "quantity",
    "paper",
    "quick",
    "scale",
    "verdict",
    "scale verdict",
    "reason",
    "scale reason",
    "spread",
    "section",
]


def _md(text: str) -> str:
    """``text`` safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _reasons(row) -> list[tuple[str, str]]:
    """A row's reasons worth reading: (which scale, text), the spread of its runs kept
    with the paper scale's."""
    parts = []
    if row["reason"] != MISSING:
        parts.append(("quick", row["reason"]))
    scale = "; ".join(t for t in (row["scale reason"], row["spread"]) if t != MISSING)
    if scale:
        parts.append(("paper scale", scale))
    return parts


def markdown_tables(rows: pd.DataFrame, notebook_link: str = "") -> list[str]:
    """The Markdown lines of one paper's tables (:func:`compact` rows): a heading and a
    table per kind, then the reasons of its rows, numbered like the ``[n]`` after their
    items. ``notebook_link``: the notebook's path relative to the report; each item
    links to it, its section named in the link's title."""
    check_frame("rows", rows, _COMPACT)
    lines: list[str] = []
    for group, table in rows.groupby("group", sort=False):
        lines += [
            f"### {KIND_GROUPS[group]}",
            "",
            "| " + " | ".join(HEADER) + " |",
            "|" + "---|" * len(HEADER),
        ]
        notes = []
        for row in table.to_dict("records"):
            item = _md(f"{row['item']}: {row['quantity']}")
            section = row["section"]
            if notebook_link:
                title = f' "{_md(section.title)}"' if section else ""
                item = f"[{item}]({notebook_link}{title})"
            reasons = _reasons(row)
            if reasons:
                notes.append("; ".join(f"*{which}:* {_md(text)}" for which, text in reasons))
                item += f" [{len(notes)}]"
            cells = [
                item,
                *(_md(row[c]) for c in ("paper", "quick", "scale", "verdict", "scale verdict")),
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        if notes:
            lines += ["Reasons:", ""] + [f"{k}. {note}" for k, note in enumerate(notes, 1)]
            lines.append("")
    return lines


STYLE = """<style>
table.report { width: 100%; table-layout: fixed; border-collapse: collapse; font-size: 0.85em; }
table.report th, table.report td { overflow-wrap: anywhere; vertical-align: top;
  padding: 0.2em 0.4em; border-bottom: 1px solid var(--color-background-border); }
table.report th { text-align: left; }
table.report td.number { text-align: right; font-variant-numeric: tabular-nums; }
table.report col.item { width: 34%; } table.report col.value { width: 14%; }
table.report col.verdict { width: 12%; }
table.report tr.why td { border-bottom: 1px solid var(--color-background-border); }
table.report details summary { cursor: pointer; color: var(--color-foreground-secondary); }
table.report.counts { width: auto; table-layout: auto; }
span.verdict { display: inline-block; padding: 0 0.35em; border-radius: 0.3em;
  color: white; font-size: 0.9em; }
span.verdict.light { color: black; }
</style>"""


WIDE_TABLES = """<style>
article table.docutils { width: 100%; table-layout: fixed; font-size: 0.85em; }
article table.docutils td, article table.docutils th { overflow-wrap: anywhere; }
</style>"""
"""Markdown tables of the report's first page wrap inside the text column."""


def _badge(verdict: str) -> str:
    colour = VERDICT_COLOURS.get(verdict)
    if colour is None:
        return html.escape(verdict)
    light = " light" if verdict == "not computed" else ""
    return f'<span class="verdict{light}" style="background:{colour}">{html.escape(verdict)}</span>'


def html_tables(rows: pd.DataFrame, notebook_page: str) -> list[str]:
    """One paper's tables as HTML for a site page (:func:`compact` rows): a heading and a
    table per kind; each item links to ``notebook_page#<section id>``, and a row's
    reasons are folded (``<details>``) in a line under it."""
    check_frame("rows", rows, _COMPACT)
    lines = [STYLE, ""]
    for group, table in rows.groupby("group", sort=False):
        numeric = group != "claim"
        value_class = ' class="number"' if numeric else ""
        lines += [
            f"## {KIND_GROUPS[group]}",
            "",
            '<table class="report">',
            '<colgroup><col class="item"><col class="value"><col class="value">'
            '<col class="value"><col class="verdict"><col class="verdict"></colgroup>',
            "<thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in HEADER) + "</tr></thead>",
            "<tbody>",
        ]
        for row in table.to_dict("records"):
            section: Section | None = row["section"]
            href = f"{notebook_page}#{section.anchor}" if section else notebook_page
            title = html.escape(section.title if section else "the notebook", quote=True)
            item = (
                f'<a href="{href}" title="computed in: {title}">{html.escape(row["item"])}</a>'
                f"<br><small>{html.escape(row['quantity'])}</small>"
            )
            values = "".join(
                f"<td{value_class}>{html.escape(row[c])}</td>" for c in ("paper", "quick", "scale")
            )
            lines.append(
                f"<tr><td>{item}</td>{values}<td>{_badge(row['verdict'])}</td>"
                f"<td>{_badge(row['scale verdict'])}</td></tr>"
            )
            reasons = _reasons(row)
            if reasons:
                body = "".join(
                    f"<p><b>{which}:</b> {html.escape(text)}</p>" for which, text in reasons
                )
                lines.append(
                    f'<tr class="why"><td colspan="6"><details><summary>why</summary>'
                    f"{body}</details></td></tr>"
                )
        lines += ["</tbody></table>", ""]
    return lines


def verdict_counts(rows: pd.DataFrame) -> pd.DataFrame:
    """Verdict x scale counts of one paper's rows (:func:`compact`), verdicts in the
    order of :data:`VERDICT_COLOURS`, only those that occur."""
    check_frame("rows", rows, _COMPACT)
    quick = rows["verdict"][rows["verdict"] != MISSING].value_counts()
    scale = rows["scale verdict"][rows["scale verdict"] != MISSING].value_counts()
    verdicts = [v for v in VERDICT_COLOURS if quick.get(v, 0) or scale.get(v, 0)]
    return pd.DataFrame(
        {
            "verdict": verdicts,
            "quick": [int(quick.get(v, 0)) for v in verdicts],
            "paper scale": [int(scale.get(v, 0)) for v in verdicts],
        }
    )


def _numbers(rows: pd.DataFrame, column: str) -> pd.Series:
    """A formatted column back as numbers (the text is ours; "—" is NaN)."""
    text = rows[column].str.split(" ± ").str[0].str.replace(",", "", regex=False)
    return pd.to_numeric(text, errors="coerce")


def picture(rows: pd.DataFrame, title: str, path: str | Path) -> Path:
    """Save the paper's picture: one panel per kind of number, the paper's value against
    ours (filled: at paper scale; open: quick, where no paper-scale value exists),
    coloured by the verdict at that scale, with the line ours = paper; a last panel
    counts every item's verdicts at both scales. Returns ``path`` (a PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    check_frame("rows", rows, _COMPACT)
    path = check_path("path", path, folder=False)
    groups = [g for g in KIND_GROUPS if g not in ("claim", "") and (rows["group"] == g).any()]
    columns = min(len(groups) + 1, 2)
    lines = -(-(len(groups) + 1) // columns)
    fig, grid = plt.subplots(lines, columns, figsize=(4.2 * columns, 3.4 * lines), squeeze=False)
    axes = list(grid.ravel())
    for ax in axes[len(groups) + 1 :]:
        ax.set_visible(False)
    axes = axes[: len(groups) + 1]
    for ax, group in zip(axes, groups, strict=False):
        table = rows[rows["group"] == group]
        paper = _numbers(table, "paper")
        scale, quick = _numbers(table, "scale"), _numbers(table, "quick")
        at_scale = scale.notna()
        for verdicts, ours, filled in (
            (table["scale verdict"], scale, at_scale),
            (table["verdict"], quick, ~at_scale & quick.notna()),
        ):
            colours = [VERDICT_COLOURS.get(v, "black") for v in verdicts[filled]]
            ax.scatter(
                paper[filled],
                ours[filled],
                s=22,
                linewidths=1.2,
                facecolors=colours if filled is at_scale else "none",
                edgecolors=colours,
            )
        both = pd.concat([paper, scale.where(at_scale, quick)]).dropna()
        if len(both):
            lo, hi = float(both.min()), float(both.max())
            ax.plot([lo, hi], [lo, hi], color="0.5", lw=0.8, zorder=0)
            if lo > 0 and hi / lo > 20:
                ax.set_xscale("log")
                ax.set_yscale("log")
        ax.set_title(KIND_GROUPS[group].split(" (")[0], fontsize=10)
        ax.set_xlabel("paper")
        ax.set_ylabel("ours")
    counts = verdict_counts(rows)
    ax = axes[-1]
    left = pd.Series([0, 0], index=["quick", "paper scale"], dtype=float)
    for row in counts.to_dict("records"):
        widths = pd.Series([row["quick"], row["paper scale"]], index=left.index)
        ax.barh(
            left.index,
            widths,
            left=left,
            color=VERDICT_COLOURS[row["verdict"]],
            label=row["verdict"],
        )
        left += widths
    ax.invert_yaxis()
    ax.set_title("items by verdict", fontsize=10)
    ax.set_xlabel("items")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=2)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


def relative(target: Path, start: Path) -> str:
    """``target`` as a POSIX path relative to the folder ``start``."""
    return Path(os.path.relpath(target, start)).as_posix()


def _counts_html(rows: pd.DataFrame) -> str:
    """The verdict counts at both scales as a small HTML table (the page's first lines)."""
    counts = verdict_counts(rows)
    body = "".join(
        f'<tr><td>{_badge(r["verdict"])}</td><td class="number">{r["quick"]:,}</td>'
        f'<td class="number">{r["paper scale"]:,}</td></tr>'
        for r in counts.to_dict("records")
    )
    return (
        '<table class="report counts"><thead><tr><th>verdict</th><th>items, quick</th>'
        f"<th>items, paper scale</th></tr></thead><tbody>{body}</tbody></table>"
    )


def paper_page(section, picture_name: str) -> str:
    """A paper's site page (MyST Markdown, staged in ``report/``): title, verdict counts
    at both scales, the picture, links, how it was made, then :func:`html_tables`.
    ``section`` is a :class:`~hpcmodels.papers.report.PaperSection`."""
    notebook = section.notebook.name if section.notebook else None
    figures = sorted(
        (Path(__file__).resolve().parents[2] / "figures").glob(f"{section.path.stem}_*.png")
    )
    links = [f"[{notebook}](../notebooks/{notebook})"] if notebook else []
    links += [f"[{f.stem}](../figures/{f.name})" for f in figures]
    alt = (
        f"{section.title}: the paper's values against ours, one panel per kind of number, "
        "points coloured by verdict, and the items' verdict counts at both scales"
    )
    lines = [
        f"# {section.title}",
        "",
        f"{section.counts}. At paper scale: {section.scale_counts}.",
        "",
        STYLE,
        "",
        _counts_html(section.rows),
        "",
        f"```{{figure}} {picture_name}",
        f":alt: {alt}",
        "",
        "The paper's value against ours, per kind of number: filled at paper scale, open "
        "where only the quick run has a value; colour: the verdict at that scale; grey "
        "line: ours = paper. Right: every item's verdict at both scales.",
        "```",
        "",
    ]
    if links:
        lines += ["Notebook and figures: " + " · ".join(links) + ".", ""]
    lines += section.made
    if notebook:
        page = f"../notebooks/{Path(notebook).with_suffix('.html').name}"
        lines += html_tables(section.rows, page)[2:]  # the style is already on the page
    return "\n".join(lines) + "\n"
