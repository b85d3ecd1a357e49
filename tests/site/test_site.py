"""``make site``: the static site of the stored notebooks, built and opened in headless
chromium. Every page loads with no request leaving the machine, every figure renders,
every link between pages reaches a page of the site, and the search finds a method."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from browser import SCREENSHOTS, launch
from playwright.sync_api import sync_playwright

from hpcmodels.papers.store import paper_scale
from hpcmodels.papers.verdicts import COLUMNS, Collector, compare_value
from hpcmodels.site import ROOT, build_site, stage

NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


PAPERS = {
    "shih2013": "Shih et al. 2013",
    "huang2006": "Huang & Chang 2006",
    "he2006": "He et al. 2006",
    "jones2005": "Jones et al. 2005",
    "filippopoulos": "Filippopoulos & Karatza",
}


def _results(folder: Path) -> Path:
    """Each paper's results as a notebook saves them, standing in for a quick run (none
    in a fresh clone): the rows its store judges at paper scale, saved by a Collector."""
    for paper, title in PAPERS.items():
        collector = Collector(paper, title)
        collector.add(paper_scale(paper)[COLUMNS].to_dict("records"))
        collector.save(folder)
    return folder


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    build = tmp_path_factory.mktemp("build")
    _results(build / "results")
    return build_site(build / "site", build=build).parent


def test_staging_adds_how_to_open_live_and_a_report_page_per_paper(tmp_path):
    collector = Collector("he2006", "He et al. 2006")
    collector.add(compare_value("Table 3", "w=0.1 ORT cluster 1", "0.752", 0.75, kind="fraction"))
    collector.save(tmp_path / "results")
    folder = stage(tmp_path / "src", tmp_path)
    report = (folder / "report.md").read_text()
    assert "[He et al. 2006](report/he2006.md)" in report and "report/he2006" in report
    page = (folder / "report" / "he2006.md").read_text()
    assert page.startswith("# He et al. 2006\n") and "table-3-fractions-at-workload" in page
    assert (folder / "report" / "he2006.png").stat().st_size > 10_000
    nb = json.loads((folder / "notebooks" / "03_he2006_ort_omr.ipynb").read_text())
    assert "make app NOTEBOOK=03" in nb["cells"][1]["source"]
    original = json.loads((ROOT / "notebooks" / "03_he2006_ort_omr.ipynb").read_text())
    # every cell staged in order, every output kept in order (nothing executed); the
    # staging only adds cells (figures moved to cells of their own, explorers' pictures)
    staged = iter("".join(c["source"]) for c in nb["cells"])
    assert all(any(s == "".join(c["source"]) for s in staged) for c in original["cells"])
    outputs = [o for c in nb["cells"] for o in c.get("outputs", [])]
    assert outputs == [o for c in original["cells"] for o in c.get("outputs", [])]
    assert nb["cells"][2] == original["cells"][1]
    shutil.rmtree(tmp_path / "results")
    assert "make reproduce" in (stage(tmp_path / "src", tmp_path) / "report.md").read_text()


def test_every_docs_page_is_in_the_sites_navigation():
    """Issue 54: the README's speed figures, paper scale and usage moved to pages of
    docs/. Staging copies every ``docs/*.md``, but a page that no toctree of the front
    page lists is reached by no link (Sphinx only warns): each one is listed."""
    index = (ROOT / "docs" / "site" / "index.md").read_text()
    blocks = re.findall(r"```\{toctree\}(.*?)```", index, flags=re.S)
    listed = {line.strip() for block in blocks for line in block.splitlines()}
    pages = {path.stem for path in (ROOT / "docs").glob("*.md")}
    assert {"performance", "scale", "readings", "architecture"} <= pages
    assert not pages - listed, f"not in the site's navigation: {sorted(pages - listed)}"


def _pages(site: Path) -> list[Path]:
    return [
        site / "index.html",
        site / "report.html",
        site / "readings.html",
        site / "architecture.html",
        site / "performance.html",
        site / "scale.html",
        site / "using.html",
        *(site / "notebooks" / f"{n}.html" for n in NOTEBOOKS),
        *(site / "report" / f"{p}.html" for p in PAPERS),
    ]


def test_every_page_loads_offline_with_its_figures_and_working_links(site):
    outside, broken_links, broken_images, figures = [], [], [], {}
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        page.on("request", lambda r: outside.append(r.url)
                if urlparse(r.url).scheme not in ("file", "data", "blob", "about") else None)  # fmt: skip
        for path in _pages(site):
            assert path.exists(), f"{path.name} was not built"
            page.goto(path.as_uri(), wait_until="load", timeout=120_000)
            assert page.title(), path.name
            images = page.locator("img").evaluate_all(
                "imgs => imgs.map(i => [i.getAttribute('src') || '', i.complete && i.naturalWidth])"
            )
            broken_images += [f"{path.name}: {src[:60]}" for src, width in images if not width]
            figures[path.stem] = sum(1 for _, width in images if width)
            for href in page.locator("a[href]").evaluate_all("as => as.map(a => a.href)"):
                url = urlparse(href)
                if url.scheme == "file" and not Path(unquote(url.path)).exists():
                    broken_links.append(f"{path.name} -> {href}")
            if path.name == "index.html":
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=SCREENSHOTS / "site_front.png", full_page=True)
        browser.close()
    assert not outside, f"requests left the machine: {sorted(set(outside))[:5]}"
    assert not broken_images, broken_images[:5]
    assert not broken_links, broken_links[:5]
    no_figure = [n for n in NOTEBOOKS if figures[n] < 1]  # stored outputs, drawn
    assert not no_figure, f"notebook pages without a figure: {no_figure}"


def test_the_front_page_lists_every_notebook_and_the_search_finds_a_method(site):
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto((site / "index.html").as_uri())
        listed = page.locator("a[href*='notebooks/']").evaluate_all(
            "as => as.map(a => a.getAttribute('href'))"
        )
        for name in NOTEBOOKS:
            assert any(name in href for href in listed), f"{name} is not on the front page"
        page.goto((site / "search.html").as_uri() + "?q=temporal")
        hit = page.locator("#search-results a", has_text="Shih")
        hit.first.wait_for(timeout=30_000)
        page.screenshot(path=SCREENSHOTS / "site_search.png", full_page=True)
        browser.close()


@pytest.mark.parametrize("name", NOTEBOOKS, ids=lambda n: n[:2])
def test_each_notebooks_exercise_answers_are_hidden_until_shown(site, name):
    """Each notebook page ends with its exercises; every worked answer (code and output)
    is collapsed, and opening one shows the answer's code and its computed conclusion."""
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        page.goto((site / "notebooks" / f"{name}.html").as_uri())
        page.get_by_role("heading", name="Exercises").first.wait_for(timeout=30_000)
        hidden = page.locator(".tag_exercise-answer details.hide")
        assert 3 <= hidden.count() <= 5
        first = hidden.first
        assert not first.locator(".cell_input").is_visible()
        labels = [s.strip() for s in page.locator(".tag_exercise-answer summary").all_inner_texts()]
        assert labels == ["Show answer"] * hidden.count()  # was "Show code cell content"
        first.locator("summary").click()
        assert first.locator(".cell_input").is_visible()
        assert "# Answer:" in first.locator(".cell_input").inner_text()
        assert first.locator(".cell_output").inner_text().strip()  # its stored conclusion
        if name.startswith("01"):
            first.scroll_into_view_if_needed()
            page.screenshot(path=SCREENSHOTS / "site_exercise.png")
        browser.close()


def _explorer_calls(name: str) -> list[str]:
    """The explorers notebook ``name`` calls, one code cell each (``xyz_explorer(...)``)."""
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())["cells"]
    calls = (
        re.match(r"\s*(\w+_explorer)\(", "".join(c["source"]))
        for c in cells
        if c["cell_type"] == "code"
    )
    return [m.group(1) for m in calls if m]


def _path_like(alt: str) -> bool:
    """An alt text that is a file name or path (MyST-NB's default: the hashed image's)."""
    return bool(re.fullmatch(r"\S*([/\\]\S*|\.(png|svg|jpe?g))|[0-9a-f]{16,}\S*|", alt.strip()))


def test_every_explorer_a_notebook_calls_has_its_picture():
    """``make explorer-pictures`` photographed every explorer the notebooks call: a new
    explorer without a picture would show only a line on the site."""
    pictures = json.loads((ROOT / "figures" / "explorers" / "pictures.json").read_text())
    for name in NOTEBOOKS:
        for call in _explorer_calls(name):
            file = f"{name[:2]}_{call}.png"
            assert file in pictures and (ROOT / "figures" / "explorers" / file).exists(), file
            assert pictures[file]["description"], f"{file}: no description for its alt text"


@pytest.mark.parametrize("name", NOTEBOOKS, ids=lambda n: n[:2])
def test_each_explorer_shows_its_picture_and_how_to_run_it_live(site, name):
    """Under every explorer call, a picture of the explorer at its defaults (it loads,
    with alt text that says what it shows) and the command that runs it live."""
    calls = _explorer_calls(name)
    assert calls, f"{name} calls no explorer"
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        page.goto((site / "notebooks" / f"{name}.html").as_uri(), wait_until="load")
        pictures = page.locator("figure.explorer-picture")
        assert pictures.count() == len(calls), f"{pictures.count()} pictures, {len(calls)} calls"
        for i, call in enumerate(calls):
            figure = pictures.nth(i)
            img = figure.locator("img")
            assert img.evaluate("i => i.complete && i.naturalWidth") > 0, call
            alt = img.get_attribute("alt") or ""
            assert not _path_like(alt) and "explorer" in alt, alt
            caption = figure.locator("figcaption").inner_text()
            assert f"make app NOTEBOOK={name[:2]}" in caption and "make lab" in caption
            # the picture sits right under the cell that calls this explorer
            cell = figure.locator("xpath=preceding::div[contains(@class,'cell_input')][1]")
            assert call in cell.inner_text()
        if name.startswith("03"):
            pictures.first.scroll_into_view_if_needed()
            page.evaluate("window.scrollBy(0, -250)")
            page.screenshot(path=SCREENSHOTS / "site_notebook.png")
        browser.close()


@pytest.mark.parametrize("name", NOTEBOOKS, ids=lambda n: n[:2])
def test_every_figure_has_a_numbered_caption_and_alt_text_that_says_what_it_shows(site, name):
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto((site / "notebooks" / f"{name}.html").as_uri(), wait_until="load")
        images = page.locator("article img").evaluate_all(
            "imgs => imgs.map(i => [i.alt, i.closest('figure') ? "
            "i.closest('figure').querySelector('figcaption').innerText : ''])"
        )
        browser.close()
    assert images, f"{name} has no figure"
    for number, (alt, caption) in enumerate(images, 1):  # numbered within the notebook
        assert caption.startswith(f"Figure {int(name[:2])}.{number}:"), (number, caption[:80])
        assert not _path_like(alt) and len(alt.split()) >= 4, (number, alt)


def test_each_notebook_page_offers_the_notebook_for_download(site):
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        for name in NOTEBOOKS:
            page.goto((site / "notebooks" / f"{name}.html").as_uri())
            link = page.locator("article a.download", has_text="Download").first
            href = urlparse(link.evaluate("a => a.href"))
            served = Path(unquote(href.path))
            assert served.name == f"{name}.ipynb"
            notebook = json.loads(served.read_text())
            assert notebook["cells"], name  # the real notebook, byte for byte
            assert served.read_bytes() == (ROOT / "notebooks" / f"{name}.ipynb").read_bytes()
        browser.close()


def test_code_cells_have_a_copy_button_and_getting_started_leads_the_navigation(site):
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        page.goto((site / "notebooks" / f"{NOTEBOOKS[0]}.html").as_uri(), wait_until="load")
        page.locator(".cell_input").first.hover()
        assert page.locator(".cell_input button.copybtn").count() >= 1
        nav = page.locator(".sidebar-tree a.reference").all_inner_texts()
        assert nav[0].strip() == "Getting started", nav[:3]
        page.goto((site / "getting_started.html").as_uri())
        text = page.locator("article").inner_text()
        for step in ("make lab", "make app NOTEBOOK=03", "papermill", "HPCMODELS_DATA"):
            assert step in text, step
        browser.close()


def test_the_first_page_links_the_paper_and_readings_mentions_link_the_readings_page(site):
    """A DOI or stable link only where the paper's own text prints it; every mention
    of ``docs/readings.md`` in a notebook is a link to the Readings page."""
    papers = Path("/work/shared/papers")
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        for name in NOTEBOOKS:
            page.goto((site / "notebooks" / f"{name}.html").as_uri())
            cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())["cells"]
            prose = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
            readings = page.locator("article a[href*='readings.html']")  # outputs stay text
            assert readings.count() >= prose.count("docs/readings.md"), name
            links = page.locator("article .paper-link a").evaluate_all("as => as.map(a => a.href)")
            if papers.exists():  # each link is printed in the paper's own text
                text = " ".join(t.read_text() for t in papers.glob("*.txt"))
                for link in links:
                    assert link.split("doi.org/")[-1] in text, link
            if name.startswith(("01", "03")):
                assert links, f"{name}: no link to the paper"
        browser.close()


AT_TOP = "id => (t => t >= 0 && t < 300)(document.getElementById(id).getBoundingClientRect().top)"
"""The section ``id`` starts in the window's first 300 pixels (the browser scrolls to an
anchor once the page's images are laid out)."""


@pytest.mark.parametrize("paper", PAPERS)
def test_a_papers_report_page_fits_1280_pixels_opens_with_its_counts_and_links_its_rows(
    site, paper
):
    """A reader's first screen of a paper's report page holds its verdict counts at both
    scales and its picture starts there; no table is wider than a 1280-pixel window (no
    horizontal scrollbar), and an item's link opens the notebook at the section that
    computes it."""
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto((site / "report" / f"{paper}.html").as_uri(), wait_until="load")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 1280, f"{paper}: the page is {width} px wide"
        wide = page.locator("table").evaluate_all(
            "ts => ts.filter(t => t.scrollWidth > t.parentElement.clientWidth + 1).length"
        )
        assert wide == 0, f"{paper}: {wide} tables wider than the text column"
        counts = page.locator("table.counts")
        box = counts.bounding_box()
        assert box and box["y"] + box["height"] <= 900, "the counts are below the first screen"
        heads = counts.locator("th").all_inner_texts()
        assert heads == ["verdict", "items, quick", "items, paper scale"]
        assert page.locator("figure img").first.bounding_box()["y"] < 900
        figure = page.locator("figure img").first
        assert figure.evaluate("i => i.complete && i.naturalWidth") > 0
        assert "coloured by verdict" in figure.get_attribute("alt")
        if paper == "he2006":
            page.screenshot(path=SCREENSHOTS / "site_report_page.png")
        hrefs = page.locator("table.report a[href*='notebooks/']").evaluate_all(
            "as => as.map(a => a.getAttribute('href'))"
        )
        assert hrefs, f"{paper}: no row links to its notebook"
        for href in set(hrefs):  # every anchor is a section of the notebook's page
            target, anchor = href.split("#")
            html = (site / "report" / target).resolve().read_text()
            assert f'id="{anchor}"' in html, f"{paper}: {href} names no section"
        link = page.locator("table.report a[href*='notebooks/']").last
        href = link.get_attribute("href")
        link.click()
        page.wait_for_load_state("load")
        assert page.url.endswith(href.split("/")[-1])
        page.wait_for_function(AT_TOP, arg=href.split("#")[1], timeout=15_000)
        browser.close()
