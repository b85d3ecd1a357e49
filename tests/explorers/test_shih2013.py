"""Notebook 01's explorers in a real browser: Voilà serves them, headless Debian chromium
driven by Playwright changes a control, and the page must show the right numbers and a
real chart (a PNG of the right size, not a blank or broken one)."""

import time

import pytest
from browser import (
    SCREENSHOTS,
    assert_real_charts,
    goto,
    launch,
    set_slider,
    table_rows,
    voila_app,
)
from playwright.sync_api import sync_playwright

from logs import SDSC, need_log


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """A Voilà server on a notebook holding notebook 01's two explorers."""
    with voila_app(tmp_path_factory.mktemp("voila"), [
        "from hpcmodels.explorers import tla_snapshot_explorer\ntla_snapshot_explorer()",
        "from hpcmodels.explorers import tla_run_explorer\ntla_run_explorer(n_jobs=2000)",
    ], "tla.ipynb") as url:  # fmt: skip
        yield url


def test_snapshot_explorer_recomputes_when_r2_ends_early(app):
    """Fig. 4 with r2 ending at its estimate (5): TLA puts job 1 on B (ATT 10 on A, 8.25
    on B). Typing 1 into r2's end (Fig. 9's actual end) must give 7.75 on A, 8.25 on B and
    the choice A, with the chart redrawn."""
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        goto(page, app, 300)  # Voila runs every cell first
        page.get_by_text("TLA allocates job 1 to cluster B").wait_for(timeout=120_000)
        table = page.locator("table").last.inner_text()
        assert "ATT\t10\t8.25" in table  # job 1 on A, on B: each column at one precision
        assert_real_charts(page)

        set_slider(page, "r2 end", "1")
        page.get_by_text("TLA allocates job 1 to cluster A").wait_for(timeout=60_000)
        table = page.locator("table").last.inner_text()
        assert "7.75" in table and "8.25" in table
        assert_real_charts(page)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "tla_snapshot_explorer.png", full_page=True)
        browser.close()


def test_run_explorer_runs_the_four_methods_and_depth_one_is_fastest_first(app):
    """Run (A1, medium load, first 2,000 jobs): the progress bar fills, a table of the
    four methods' ATT and a chart appear. Then the depth slider moved one step right
    (depth 1) and Run again: TLA's ATT equals fastest first's (depth 1 decides as FF)."""
    need_log(SDSC)  # A1 is the SDSC SP2 log
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1400})
        goto(page, app, 300)  # Voila runs every cell first
        page.get_by_text("TLA allocates job 1 to cluster B").wait_for(timeout=120_000)
        assert_real_charts(page, 1)  # the snapshot explorer's

        page.get_by_role("button", name="Run").click()
        page.get_by_text("TLA improvement over the best").wait_for(timeout=120_000)
        assert_real_charts(page, 2)
        bar = page.locator(".widget-hprogress", has_text="runs").locator(".progress-bar")
        assert bar.evaluate("b => b.style.width") == "100%"  # four runs of four
        full = _att_table(page)
        assert set(full) == {"BF", "FF", "AI2", "TLA"} and full["TLA"] != full["FF"]

        handle = page.locator(".widget-slider", has_text="simulation depth").locator(".noUi-handle")
        handle.focus()
        page.keyboard.press("ArrowRight")
        readout = page.locator(".widget-slider", has_text="simulation depth")
        assert readout.locator(".widget-readout").inner_text().strip() == "1"
        page.get_by_role("button", name="Run").click()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # the new table replaces the old one when done
            depth1 = _att_table(page)
            if depth1 != full:
                break
            time.sleep(0.5)
        assert depth1 != full, "the table did not change after the second run"
        assert_real_charts(page, 2)
        assert depth1["TLA"] == depth1["FF"]
        page.screenshot(path=SCREENSHOTS / "tla_run_explorer.png", full_page=True)
        browser.close()


def _att_table(page) -> dict[str, str]:
    """The run explorer's table (the page's last table): method -> ATT as shown."""
    return {method: cells[0] for method, cells in table_rows(page).items()}
