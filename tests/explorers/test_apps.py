"""The explorers-only apps (``make app NOTEBOOK=NN``, ``notebooks/apps/``) in a real
browser: each opens to a usable explorer that has drawn a chart or a table, with no
error on the page and no request leaving the machine. How fast they open is measured by
``benchmarks/bench_apps.py``, not asserted here."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest
from browser import (
    SCREENSHOTS,
    charts,
    launch,
    outside_requests,
    real_drawing,
    set_slider,
    table_rows,
    voila_app,
)
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
APPS = sorted((ROOT / "notebooks" / "apps").glob("[0-9][0-9]_app.ipynb"))
USABLE = ".widget-slider, .widget-dropdown, .widget-button, .widget-select-multiple"


@contextlib.contextmanager
def opened(app: Path, tmp_path: Path, height: int = 1000):
    """A page showing ``app`` served by Voilà from a copy of ``notebooks/apps``, and the
    list of its requests to other machines."""
    shutil.copytree(app.parent, tmp_path / "apps")
    with voila_app(tmp_path / "apps", None, name=app.name) as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": height})
        outside = outside_requests(page)
        page.goto(url, timeout=600_000)
        yield page, outside
        browser.close()


def test_every_notebook_has_an_app():
    numbers = {p.name[:2] for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    assert {p.name[:2] for p in APPS} == numbers


@pytest.mark.parametrize("app", APPS, ids=[p.name[:2] for p in APPS])
def test_the_app_opens_to_a_working_explorer_offline(app, tmp_path):
    with opened(app, tmp_path) as (page, outside):
        page.locator(USABLE).first.wait_for(state="visible", timeout=600_000)
        page.locator("#loading").wait_for(state="hidden", timeout=600_000)
        drawn = page.locator('img[src^="data:image/png;base64,"], table')
        drawn.first.wait_for(state="attached", timeout=120_000)
        assert page.get_by_text("Traceback").count() == 0
        assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"app_{app.name[:2]}.png", full_page=True)
    assert not outside, f"requests left the machine: {sorted(set(outside))[:5]}"


def test_the_mdp_app_shows_the_papers_table_beside_ours_where_the_paper_prints_one(tmp_path):
    """05's app opens at Fig. 2's setting: the paper's table beside ours with the cells
    that differ counted; a load the paper did not print says where its tables are; Fig.
    4's setting (load 0.9, p 0.8, mu3 0.8, x1 1) shows Fig. 4."""
    from hpcmodels.mdp import solve
    from hpcmodels.papers.filippopoulos.model import model
    from hpcmodels.papers.filippopoulos.published import EXPERIMENT_1, FIG2

    ours = solve(model(30, **EXPERIMENT_1)).policy_table(1, 15, 15).to_numpy()
    differ = int((ours != FIG2).sum())
    with opened(ROOT / "notebooks" / "apps" / "05_app.ipynb", tmp_path) as (page, _):
        page.get_by_text("the paper's Fig. 2 (this setting").wait_for(timeout=300_000)
        assert page.get_by_text(f"{differ} of {FIG2.size} cells differ from ours").count() == 1
        assert len(charts(page)) == 1 and real_drawing(charts(page)[0])
        set_slider(page, "rho1", "0.81")
        page.get_by_text("the paper prints no policy at this setting").wait_for(timeout=60_000)
        for label, value in (("rho1", "0.9"), ("rho2", "0.9"), ("p (1-component)", "0.8"),
                             ("mu3", "0.8")):  # fmt: skip
            set_slider(page, label, value)
        page.get_by_text("the paper's Fig. 4 (this setting").wait_for(timeout=60_000)
        page.get_by_text("computing").wait_for(state="hidden", timeout=60_000)
        assert len(charts(page)) == 1 and real_drawing(charts(page)[0])
        page.screenshot(path=SCREENSHOTS / "app_05_fig4.png", full_page=True)


def test_the_allocation_app_shows_table_3_beside_ours_at_its_setting(tmp_path):
    """03's app opens at Table 3's setting (workload 0.1, slack max 30 s): the paper's
    fractions beside ours with the differences; another workload says where they are."""
    with opened(ROOT / "notebooks" / "apps" / "03_app.ipynb", tmp_path, 1200) as (page, _):
        page.get_by_text("the paper's Table 3 (this setting)").wait_for(timeout=300_000)
        rows = table_rows(page.locator("table").first.locator(".."))
        assert rows["ORT: paper"][:2] == ["0.752", "0.248"]
        assert rows["ORT: ours"][:2] == ["0.7524", "0.2476"]
        assert rows["ORT: difference"][:2] == ["+0.0004", "-0.0004"]
        set_slider(page, "workload", "0.2")
        page.get_by_text("the paper prints no fractions at this setting").wait_for(timeout=60_000)
        page.screenshot(path=SCREENSHOTS / "app_03_off_table.png", full_page=True)
