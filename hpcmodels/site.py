"""``python -m hpcmodels site`` (``make site``): the suite as a static, offline website in
``build/site``, built with Sphinx and MyST-NB from what is stored, never re-executed.

The pages are staged in ``build/site-src`` (nothing in the checkout is written):
``docs/site`` (the configuration and the front page), every notebook of ``notebooks/``
with its stored outputs and a first cell saying how to open it live, the report
(a summary page and a page per paper, from the results ``make reproduce`` saves in
``build/results``; else a page saying so), and the notes of ``docs/``.

A static page cannot run an explorer, so the staged copy of a notebook (never the
notebook itself: nbval checks its stored outputs) also shows, under each explorer call,
the picture of that explorer at its defaults (``figures/explorers``, written by
``make explorer-pictures``) with the command that runs it live; every figure output gets
a numbered caption and alt text from the section it is in; the first cell links the
paper where its own text prints a DOI or stable link, and a download of the notebook;
mentions of ``docs/readings.md`` link to the Readings page."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .errors import check_bool, check_path
from .papers.records import read_notebook

__all__ = ["stage", "build_site"]

ROOT = Path(__file__).resolve().parents[1]
LIVE = (
    "*Static page: the outputs as stored in the repository. To run it and move the "
    "explorers' controls, open it live from a checkout: `make lab` (JupyterLab) or "
    "`make app NOTEBOOK={number}` (this notebook as an app).*"
)
# The paper of each notebook, by number: a DOI or stable link only where the paper's own
# text (the copies the notebooks were written from) prints one; the others have none
# verified, and their notebooks cite them by reference only.
PAPER_LINKS = {
    "01": ("https://doi.org/10.1016/j.jpdc.2013.07.018", "DOI 10.1016/j.jpdc.2013.07.018"),
    "03": (
        "https://digitalcommons.unl.edu/csearticles/59",
        "the University of Nebraska-Lincoln's open-access copy (no DOI printed in it)",
    ),
}
EXPLORERS = ROOT / "figures" / "explorers"  # NN_<explorer>.png, pictures.json
CALL = re.compile(r"\s*(\w+_explorer)\(")
RUN_LIVE = "run it live to move its controls: `make app NOTEBOOK={number}` or `make lab`"
NO_REPORT = """# Reproduction report

The report is made from a reproduction run: `make reproduce` saves every notebook's
results in `build/results`, and `make site` then shows them here, a page per paper.
"""


def _markdown(source: str) -> dict:
    """A markdown cell of ``source``."""
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def _first_cell(number: str, name: str) -> dict:
    """The staged notebook's first cell after its title: how to open it live, its
    download and, where the paper prints one, the paper's link."""
    lines = [
        LIVE.format(number=number),
        "",
        f"{{download}}`Download this notebook ({name}) <../downloads/{name}>`",
    ]
    if number in PAPER_LINKS:
        url, what = PAPER_LINKS[number]
        lines += ["", "```{container} paper-link", f"The paper: <{url}> ({what}).", "```"]
    cell = _markdown("\n".join(lines))
    cell["id"] = "open-live"
    return cell


def _plain(markdown: str) -> str:
    """``markdown`` as one line of plain text: no heading marks, emphasis, code marks or
    link targets."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"^#+\s*|[*`_]", "", text, flags=re.M)
    return " ".join(text.split())


def _first_sentence(markdown: str, limit: int = 240) -> str:
    """The first sentence of ``markdown``'s prose (headings left out), at most ``limit``
    characters."""
    prose = _plain("\n".join(line for line in markdown.splitlines() if not line.startswith("#")))
    # a sentence ends before a capital: "Fig. 6" or "e.g. a" do not end one
    sentence = re.split(r"(?<=[.:;])\s+(?=[A-Z])", prose, maxsplit=1)[0]
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


def _figure_cell(output: dict, caption: str, alt: str, name: str) -> dict:
    """A code cell of one image ``output`` shown as a figure (its input removed)."""
    meta = {
        "tags": ["remove-input"],
        "mystnb": {"figure": {"caption": caption, "name": name}, "image": {"alt": alt}},
    }
    return {
        "cell_type": "code",
        "execution_count": None,
        "metadata": meta,
        "outputs": [output],
        "source": "# the figure above, captioned for the site",
    }


def _figures(cell: dict, heading: str, before: str, index: int) -> list[dict]:
    """``cell`` split so that each image it outputs is a figure with a caption (the
    section's ``heading``) and alt text (the heading and the first sentence of the
    markdown ``before`` the cell); its other outputs stay in order between them, under
    the cell's code. MyST-NB's figure metadata applies to every output of a cell, tables
    included, so the images are moved to cells of their own."""
    images = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
    tags = cell["metadata"].get("tags", [])
    if not images or any(t.startswith(("hide", "remove")) for t in tags):
        return [cell]
    about = _first_sentence(before)
    cells, current, k = [], {**cell, "outputs": []}, 0
    for output in cell["outputs"]:
        if "image/png" not in output.get("data", {}):
            current["outputs"].append(output)
            continue
        if current["outputs"] or not cells:  # the cell's code always comes first
            cells.append(current)
        k += 1
        part = f" ({k} of {len(images)})" if len(images) > 1 else ""
        alt = f"Chart: {heading}{part}" + (f". {about}" if about else "")
        cells.append(_figure_cell(output, f"{heading}{part}", alt, f"figure-{index}-{k}"))
        current = {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {"tags": ["remove-input"]},
            "outputs": [],
            "source": "# the outputs above, continued",
        }
    return [*cells, current] if current["outputs"] else cells


def _explorer_picture(call: str, number: str, pictures: dict[str, dict]) -> dict:
    """A markdown cell showing the picture of explorer ``call`` of notebook ``number`` at
    its defaults, captioned with how to run it live (without a picture, that line)."""
    file = f"{number}_{call}.png"
    if file not in pictures:
        return _markdown(f"*`{call}` needs a kernel: {RUN_LIVE.format(number=number)}.*")
    what = pictures[file].get("description") or f"the explorer {call}"
    alt = f"Picture of the {call.replace('_', ' ')} at its defaults: {_plain(what)}"
    return _markdown(
        "\n".join(
            [
                f"```{{figure}} ../figures/explorers/{file}",
                f":alt: {alt}",
                f":name: picture-{call}",
                ":figclass: explorer-picture",
                "",
                f"`{call}` at its defaults, a picture: {RUN_LIVE.format(number=number)}.",
                "```",
            ]
        )
    )


def _readings(markdown: str) -> str:
    """``markdown`` with its mentions of ``docs/readings.md`` linking the Readings page."""
    markdown = re.sub(r"\]\((\.\./)?docs/readings\.md", "](../readings.md", markdown)
    return re.sub(
        r"(?<!\[)`docs/readings\.md`(?!\])", "[`docs/readings.md`](../readings.md)", markdown
    )


def _notebook(source: Path, target: Path) -> None:
    """Copy a notebook for the site: a first markdown cell saying how to open it live
    (with its download and its paper's link), each explorer's picture under its call,
    captioned figures, linked readings (a notebook that cannot be read is a
    :class:`~hpcmodels.errors.CorruptFile` saying to restore it)."""
    nb = read_notebook(source)
    number = source.name[:2]
    index = EXPLORERS / "pictures.json"
    pictures = json.loads(index.read_text()) if index.exists() else {}
    cells, heading, before = [], source.stem, ""
    for i, cell in enumerate(nb["cells"]):
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            cells.append({**cell, "source": _readings(text)})
            titles = re.findall(r"^#+\s+(.+)$", text, flags=re.M)
            heading, before = (_plain(titles[-1]) if titles else heading), text
            continue
        cells += _figures(cell, heading, before, i) if cell["cell_type"] == "code" else [cell]
        call = CALL.match(text) if cell["cell_type"] == "code" else None
        if call:
            cells.append(_explorer_picture(call.group(1), number, pictures))
        before = ""
    at = 1 if cells and cells[0]["cell_type"] == "markdown" else 0  # after the title
    nb["cells"] = [*cells[:at], _first_cell(number, source.name), *cells[at:]]
    target.write_text(json.dumps(nb))


def _report(build: Path, target: Path) -> None:
    """The report's pages, from the results ``make reproduce`` saved in
    ``build/results`` (:func:`~hpcmodels.papers.report.write_site_report`: a
    summary page and one page per paper); none saved: a page saying how to make them.
    A results file that cannot be read is a :class:`~hpcmodels.errors.CorruptFile`
    saying to write it again."""
    from .papers.report import write_site_report

    results = build / "results"
    if not results.is_dir() or not any(results.glob("*.csv")):
        (target / "report.md").write_text(NO_REPORT)
        return
    write_site_report(results, target)


def stage(folder: Path, build: Path | None = None) -> Path:
    """Stage every page of the site in ``folder`` (emptied first); ``build``: where the
    report is read (``None``: ``build/``); both are non-empty folder names
    (:func:`~hpcmodels.errors.check_path`)."""
    folder = check_path("folder", folder)
    build = check_path("build", build, optional=True) or ROOT / "build"
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(ROOT / "docs" / "site", folder)
    for page in sorted((ROOT / "docs").glob("*.md")):
        shutil.copy(page, folder / page.name)
    (folder / "notebooks").mkdir()
    (folder / "downloads").mkdir()  # the notebooks as they are, for their pages' download
    for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        _notebook(nb, folder / "notebooks" / nb.name)
        shutil.copy(nb, folder / "downloads" / nb.name)
    shutil.copytree(ROOT / "figures", folder / "figures")
    _report(build, folder)
    return folder


def build_site(out: Path | None = None, *, build: Path | None = None, quiet: bool = True) -> Path:
    """Stage the pages and build the HTML site in ``out`` (default ``build/site``);
    returns the front page. Sphinx's failure exits with its message. ``quiet`` (a bool):
    Sphinx's output only when it fails. ``out`` and ``build`` are None (the defaults) or
    non-empty folder names: ``""`` is an :class:`~hpcmodels.errors.InvalidParameter`
    naming it, not the default."""
    quiet = check_bool("quiet", quiet)
    build = check_path("build", build, optional=True) or ROOT / "build"
    out = check_path("out", out, optional=True) or build / "site"
    source = stage(build / "site-src", build)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-j", "auto", str(source), str(out)]
    done = subprocess.run(command + (["-q"] if quiet else []), capture_output=quiet, text=True)
    if done.returncode:
        raise SystemExit(
            f"the site did not build (sphinx exit {done.returncode}):\n"
            f"{done.stderr if quiet else ''}"
        )
    return out / "index.html"
