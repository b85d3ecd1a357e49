"""Notebook 06's explorer in a real browser (Voilà + headless chromium): the page shows
the win map and the paired table of the runs; choosing the co-allocation group redraws
both, and the table's numbers are the package's paired differences of those runs."""

from __future__ import annotations

import time

import pandas as pd
import pytest
from browser import SCREENSHOTS, assert_real_charts, charts, goto, launch, real_drawing, voila_app
from playwright.sync_api import sync_playwright

from hpcmodels.explorers.across import paired_table
from hpcmodels.papers.across import ground_runs

SETUP = """
import pandas as pd
from hpcmodels.papers.across import ground_runs
from hpcmodels.explorers import across_explorer
common = dict(workloads=("Lublin99",), loads=("low", "high"), replicates=3, n_jobs=300,
              progress=False, client="serial")
allocation = ground_runs(shs=(0.0, 0.2), bsbws=(200.0, 800.0),
                         methods=("Best Fit", "TLA", "First Fit"), **common)
coallocation = ground_runs(shs=(0.1,), bsbws=(200.0, 800.0), selections=("FPFS",),
                           methods=("Migration Only", "B3", "A1"), **common)
runs = pd.concat([allocation, coallocation], ignore_index=True)
"""


def _runs() -> tuple[pd.DataFrame, pd.DataFrame]:
    common = dict(workloads=("Lublin99",), loads=("low", "high"), replicates=3, n_jobs=300,
                  progress=False, client="serial")  # fmt: skip
    allocation = ground_runs(
        shs=(0.0, 0.2), bsbws=(200.0, 800.0), methods=("Best Fit", "TLA", "First Fit"), **common
    )
    coallocation = ground_runs(shs=(0.1,), bsbws=(200.0, 800.0), selections=("FPFS",),
                               methods=("Migration Only", "B3", "A1"), **common)  # fmt: skip
    return allocation, coallocation


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with voila_app(tmp_path_factory.mktemp("voila"), [SETUP, "across_explorer(runs)"],
                   "across.ipynb") as url:  # fmt: skip
        yield url


def _table(page) -> list[list[str]]:
    return page.locator("table").last.evaluate(
        "t => [...t.tBodies[0].rows].map(r => [...r.querySelectorAll('td')]"
        ".map(c => c.innerText.trim()))"
    )


def test_the_group_choice_redraws_the_map_and_the_paired_table(app):
    allocation, coallocation = _runs()
    allocation = allocation[allocation["bsbw"] == 200.0]  # the map's axes: load x SH
    first = paired_table(allocation, "att", "Best Fit")
    # co-allocation varies load and BSBW at one SH: its map (and table) spans both BSBWs
    second = paired_table(coallocation, "att", "Migration Only")
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1500, "height": 1600})
        goto(page, app, 300)  # Voila runs every cell first
        page.get_by_text("3 paired replicates per cell").wait_for(timeout=120_000)
        assert_real_charts(page, 1)
        _every(page)
        rows = _table(page)
        assert len(rows) == len(first)
        assert [r[4] for r in rows] == first["method"].tolist()
        assert [float(r[5]) for r in rows] == first["difference (%)"].tolist()

        page.locator(".widget-dropdown", has_text="methods of").locator("select").select_option(
            "co-allocation"
        )
        # the group's choice redraws more than once (it re-offers methods, axes and the
        # level of the third setting): read the table once it shows what is expected
        rows = _settle(page, second, "the group")
        assert all(r[10] in ("better than Migration Only", "worse than Migration Only",
                             "within noise") for r in rows)  # fmt: skip
        assert_real_charts(page, 1)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "across_explorer.png", full_page=True)
        browser.close()


def _every(page) -> None:
    """Tick "show every method against the baseline" and wait for the paired table."""
    page.locator(".widget-checkbox", has_text="every method").locator("input").check()
    page.get_by_text("rows)").first.wait_for(timeout=120_000)


def _select(page, label: str, value) -> None:
    page.locator(".widget-dropdown", has_text=label).locator("select").select_option(value)


def _settle(page, expected: pd.DataFrame, what: str, columns=(4, 5)) -> list[list[str]]:
    """Wait until the table shows ``expected``'s methods and differences (columns 4, 5)."""
    want = [[m, f"{d:g}"] for m, d in zip(expected["method"], expected["difference (%)"],
                                          strict=True)]  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        rows = _table(page)
        seen = [[r[columns[0]], f"{float(r[columns[1]]):g}"] for r in rows]
        if seen == want:
            return rows
        assert time.monotonic() < deadline, f"{what}: the table shows {seen}, not {want}"
        time.sleep(0.3)


def _new_chart(page, before: bytes, what: str) -> bytes:
    deadline = time.monotonic() + 60
    while True:
        found = charts(page)
        if len(found) == 1 and found[0] != before and real_drawing(found[0]):
            return found[0]
        assert time.monotonic() < deadline, f"{what}: the map was not redrawn"
        time.sleep(0.3)


def test_metric_axes_methods_and_baseline_each_redraw_the_map_and_table(app):
    """Each control in turn, on the allocation group: the table becomes the package's
    paired differences of the runs it now selects, and the map is drawn anew."""
    every_bsbw, _ = _runs()
    allocation = every_bsbw[every_bsbw["bsbw"] == 200.0]  # the map's axes: load x SH
    slowdown = "mean_bounded_slowdown"
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1500, "height": 1600})
        page.set_default_timeout(120_000)  # a busy machine: each redraw reruns the paired table
        goto(page, app, 300)
        page.get_by_text("3 paired replicates per cell").wait_for(timeout=120_000)
        assert_real_charts(page, 1)
        chart = charts(page)[0]
        _every(page)

        _select(page, "metric", "mean bounded slowdown")
        _settle(page, paired_table(allocation, slowdown, "Best Fit"), "metric")
        chart = _new_chart(page, chart, "metric")

        _select(page, "baseline", "TLA")
        rows = _settle(page, paired_table(allocation, slowdown, "TLA"), "baseline")
        assert {r[10] for r in rows} <= {"better than TLA", "worse than TLA", "within noise"}

        _select(page, "map axes", "load x BSBW")  # the third setting is now SH: 0 first
        at_zero = every_bsbw[every_bsbw["sh"] == 0.0]
        # the rows _settle matched: a choice of axes redraws twice (the axes, then the
        # level of the third setting they re-offer), and a second read can land mid-redraw,
        # where the last table on the page is still the map's
        rows = _settle(page, paired_table(at_zero, slowdown, "TLA"), "axes")
        assert {float(r[2]) for r in rows} == {0.0}
        chart = _new_chart(page, chart, "axes")
        _select(page, "at SH", "0.2")
        at_02 = every_bsbw[every_bsbw["sh"] == 0.2]
        _settle(page, paired_table(at_02, slowdown, "TLA"), "the level of SH")
        chart = _new_chart(page, chart, "the level of SH")

        page.locator(".widget-select-multiple select").select_option(["TLA", "First Fit"])
        two = at_02[at_02["method"].isin(["TLA", "First Fit"])]
        rows = _settle(page, paired_table(two, slowdown, "TLA"), "methods")
        cells = two["load"].nunique() * two["bsbw"].nunique()
        assert [r[4] for r in rows] == ["First Fit"] * cells  # one row per map cell
        _new_chart(page, chart, "methods")

        page.locator(".widget-select-multiple select").select_option(["First Fit"])
        page.get_by_text("choose at least two methods").wait_for(timeout=60_000)
        browser.close()
