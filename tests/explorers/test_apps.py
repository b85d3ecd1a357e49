"""The explorers-only apps (``make app NOTEBOOK=NN``, ``notebooks/apps/``) in a real
browser: each opens to a usable explorer that has drawn a chart or a table, with no
error on the page and no request leaving the machine. How fast they open is measured by
``benchmarks/bench_apps.py``, not asserted here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from browser import SCREENSHOTS, launch, outside_requests, voila_app
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
APPS = sorted((ROOT / "notebooks" / "apps").glob("[0-9][0-9]_app.ipynb"))
USABLE = ".widget-slider, .widget-dropdown, .widget-button, .widget-select-multiple"


def test_every_notebook_has_an_app():
    numbers = {p.name[:2] for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    assert {p.name[:2] for p in APPS} == numbers


@pytest.mark.parametrize("app", APPS, ids=[p.name[:2] for p in APPS])
def test_the_app_opens_to_a_working_explorer_offline(app, tmp_path):
    folder = tmp_path / "apps"
    shutil.copytree(app.parent, folder)
    with voila_app(folder, None, name=app.name) as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        outside = outside_requests(page)
        page.goto(url, timeout=600_000)
        page.locator(USABLE).first.wait_for(state="visible", timeout=600_000)
        page.locator("#loading").wait_for(state="hidden", timeout=600_000)
        drawn = page.locator('img[src^="data:image/png;base64,"], table')
        drawn.first.wait_for(state="attached", timeout=120_000)
        assert page.get_by_text("Traceback").count() == 0
        assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"app_{app.name[:2]}.png", full_page=True)
        browser.close()
    assert not outside, f"requests left the machine: {sorted(set(outside))[:5]}"
