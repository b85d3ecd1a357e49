"""``make site``: the static site of the stored notebooks, built and opened in headless
chromium. Every page loads with no request leaving the machine, every figure renders,
every link between pages reaches a page of the site, and the search finds a method."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from browser import SCREENSHOTS, launch
from playwright.sync_api import sync_playwright

from hpcmodels.site import ROOT, build_site, stage

NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    build = tmp_path_factory.mktemp("build")
    (build / "REPORT.md").write_text(
        "# Report\n\nSee [notebook 01](../notebooks/01_shih2013_tla.ipynb) and "
        "![a figure](../figures/shih2013_table4.png).\n"
    )
    return build_site(build / "site", build=build).parent


def test_staging_adds_how_to_open_live_and_points_the_reports_links_at_the_site(tmp_path):
    (tmp_path / "REPORT.md").write_text("[nb](../notebooks/03_he2006_ort_omr.ipynb) "
                                        "![f](../figures/x.png) [web](https://example.org)")  # fmt: skip
    folder = stage(tmp_path / "src", tmp_path)
    assert (folder / "report.md").read_text() == (
        "[nb](notebooks/03_he2006_ort_omr.ipynb) ![f](figures/x.png) [web](https://example.org)"
    )
    nb = json.loads((folder / "notebooks" / "03_he2006_ort_omr.ipynb").read_text())
    assert "make app NOTEBOOK=03" in nb["cells"][1]["source"]
    original = json.loads((ROOT / "notebooks" / "03_he2006_ort_omr.ipynb").read_text())
    assert len(nb["cells"]) == len(original["cells"]) + 1  # outputs kept, nothing executed
    assert nb["cells"][2] == original["cells"][1]
    (tmp_path / "REPORT.md").unlink()
    assert "make reproduce" in (stage(tmp_path / "src", tmp_path) / "report.md").read_text()


def _pages(site: Path) -> list[Path]:
    return [site / "index.html", site / "report.html", site / "readings.html",
            site / "architecture.html", *(site / "notebooks" / f"{n}.html" for n in NOTEBOOKS)]  # fmt: skip


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
