"""Notebook 04's explorers in a real browser (Voilà + headless chromium): a slider moved,
the right numbers in the table and a real chart on the page."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest
from browser import SCREENSHOTS, assert_real_charts, goto, launch, set_slider, voila_app
from playwright.sync_api import sync_playwright

from hpcmodels.bandwidth import SECTION6, allot_bandwidth, run_point, slowdown_factors
from hpcmodels.bandwidth.model import demand_kernel
from hpcmodels.explorers.jones2005 import LINK_PICTURE_JOBS

JOBS = 2_000  # per cluster, for the explorer


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with voila_app(tmp_path_factory.mktemp("voila"), [
        "from hpcmodels.explorers import link_saturation_explorer\nlink_saturation_explorer()",
        f"from hpcmodels.explorers import bandwidth_explorer\nbandwidth_explorer({JOBS})",
    ], "jones.ipynb") as url:  # fmt: skip
        yield url


def _sd(bsbw: float) -> np.ndarray:
    """Each hand-placed job's slowdown factor, computed here from the model."""
    split = np.array(LINK_PICTURE_JOBS)
    demand = np.array([[demand_kernel(n, row.sum(), bsbw) for n in row] for row in split])
    return slowdown_factors(demand, allot_bandwidth(demand, np.full(3, 1000.0)))


def _explorer_tables(page) -> str:
    """The text of every table below the link picture's (the strategies' table and the
    paper's baselines beside ours)."""
    tables = page.locator("table")
    return "\n".join(tables.nth(k).inner_text() for k in range(1, tables.count()))


def _wait_for_text(page, text: str, timeout: float = 120.0) -> None:
    page.get_by_text(text).first.wait_for(timeout=timeout * 1000)


def _last_column_settles(page, expected: list[str], timeout: float = 60.0) -> bool:
    """The first table's last column equals ``expected`` within ``timeout`` seconds. The
    column is read in one script call: while the output redraws, "the first table" can
    briefly be the explorer's table below, so cells read one by one could mix tables."""
    script = "t => [...t.tBodies[0].rows].map(r => r.cells[r.cells.length - 1].innerText.trim())"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("table").first.evaluate(script) == expected:
            return True
        time.sleep(0.2)
    return False


def test_link_picture_recomputes_the_allotment(app):
    """BSBW 400: link C2 saturates and the three jobs share sd < 1 (the model's values);
    typed down to 200 no link saturates and every sd is 1."""
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1500, "height": 1400})
        goto(page, app, 300)  # Voila runs every cell first
        _wait_for_text(page, "saturated links: C2")
        table = page.locator("table").first.inner_text()
        sd = _sd(400.0)
        assert sd.max() < 1 and f"{sd[0]:.3f}" in table
        assert_real_charts(page, 2)  # the bandwidth explorer below has its own chart

        set_slider(page, "BSBW (Mbps)", "200")
        _wait_for_text(page, "saturated links: none")
        assert np.allclose(_sd(200.0), 1.0)
        assert _last_column_settles(page, ["1"] * 3)  # one precision per column
        assert_real_charts(page, 2)  # the bandwidth explorer below has its own chart
        browser.close()


def test_bandwidth_explorer_reruns_every_strategy(app):
    """Move BSBW to 900: the progress bar fills, A1's ATT in the table is the one
    ``run_point`` gives for that point, and the chart is real."""
    setup = replace(SECTION6, jobs_per_cluster=JOBS)
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1500, "height": 1800})
        goto(page, app, 300)  # Voila runs every cell first
        _wait_for_text(page, "BSBW 500 Mbps, LSLT 100%")
        assert_real_charts(page, 2)
        before = run_point("a1", setup, bsbw=500.0)["att"]
        assert f"{before:.3f}" in _explorer_tables(page)

        set_slider(page, "BSBW (Mbps)", "900", nth=1)  # the link picture has one too
        _wait_for_text(page, "BSBW 900 Mbps, LSLT 100%")
        after = run_point("a1", setup, bsbw=900.0)["att"]
        deadline = time.monotonic() + 60
        while f"{after:.3f}" not in _explorer_tables(page):
            assert time.monotonic() < deadline, "the table did not show the new A1 ATT"
            time.sleep(0.5)
        bar = page.locator(".widget-hprogress", has_text="runs").locator(".progress-bar")
        assert bar.evaluate("b => b.style.width") == "100%"
        assert_real_charts(page, 2)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "jones_explorers.png", full_page=True)
        browser.close()
