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
    goto,
    launch,
    outside_requests,
    real_drawing,
    set_slider,
    table_rows,
    voila_app,
)
from playwright.sync_api import sync_playwright

from logs import SDSC, need_log

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
        goto(page, url)
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


def _beside(page, quantity: str, timeout: float = 120.0) -> list[str]:
    """The cells of the paper-beside-ours row named ``quantity`` (printed in, the paper,
    ours, ours - paper, ours at paper scale), once the page shows it."""
    row = page.locator("tr", has=page.locator("th", has_text=quantity)).first
    row.wait_for(timeout=timeout * 1000)
    return [c.strip() for c in row.locator("td").all_inner_texts()]


def _consistent(cells: list[str]) -> None:
    """ours - paper as shown is ours minus the paper's printed value."""
    paper, ours, diff = (float(c.replace(",", "")) for c in cells[1:4])
    assert abs(ours - paper - diff) < 1e-9 + 10 ** -(len(cells[3].split(".")[-1]))


def _scale_text(paper: str, scale) -> str:
    """What the explorer shows for our paper-scale runs ``scale`` beside ``paper``."""
    from hpcmodels.explorers.printed import Printed, beside_printed

    return beside_printed([Printed("", "", paper, scale)], [0.0])["ours at paper scale"].iloc[0]


def test_the_tla_app_shows_table_1_fig_9_and_table_4_beside_ours(tmp_path):
    """01's app opens at Fig. 4's snapshot with Table 1 beside ours; r2 ending at 1 shows
    Fig. 9's averages (7.75 and 8.25, ours exact); Run at A1, medium load, SH 0 shows Table
    4's printed 45 beside our improvement and the range of our paper-scale runs."""
    from hpcmodels.papers import shih2013
    from hpcmodels.papers.store import read_store

    need_log(SDSC)  # A1 is the SDSC SP2 log
    with opened(ROOT / "notebooks" / "apps" / "01_app.ipynb", tmp_path, 1600) as (page, _):
        page.get_by_text("the paper's Table 1 (this snapshot)").wait_for(timeout=300_000)
        assert _beside(page, "job 1 on A: job 1's turnaround")[:3] == ["Table 1", "10", "10.0"]
        set_slider(page, "r2 end", "1")
        page.get_by_text("the paper's Fig. 9 (this snapshot)").wait_for(timeout=60_000)
        for cluster, att in (("A", "7.75"), ("B", "8.25")):
            cells = _beside(page, f"job 1 on {cluster}: average turnaround")
            assert cells[:4] == ["Fig. 9", att, f"{float(att):.3f}", "+0.000"]
        set_slider(page, "r2 end", "2")
        page.get_by_text("the paper prints Table 1 only at Fig. 4's snapshot").wait_for(
            timeout=60_000
        )
        page.get_by_role("button", name="Run").click()
        page.get_by_text("the paper's Table 4 (this setting)").wait_for(timeout=300_000)
        cells = _beside(page, "A1, medium load, SH 0: TLA's improvement")
        assert cells[:2] == ["Table 4", "45"]
        _consistent(cells)
        shown = page.get_by_text("TLA improvement over the best of BF, FF, AI2:").inner_text()
        assert f"{float(cells[2]):.1f} %" in shown  # the table's ours is the run's
        store = read_store("shih2013")
        scale = shih2013.table4_improvements(store, "A1", "medium", 0.0)
        assert cells[4] == _scale_text("45", scale)
        page.screenshot(path=SCREENSHOTS / "app_01_table4.png", full_page=True)


def test_the_policy_app_shows_tables_5_and_9_beside_ours(tmp_path):
    """02's app opens at slowdown 5, load factor 1: A (FCFS, first fit, fixed order) beside
    Table 5's 200.71 s and Table 6's 1.88, B (the integrated approach) beside Table 9's
    28.54 s; slowdown 2 gives Table 5's 61.71 and Table 9's 23.30; load factor 1.5 (the
    paper prints no grid run there) says where the paper's numbers are."""
    need_log(SDSC)
    with opened(ROOT / "notebooks" / "apps" / "02_app.ipynb", tmp_path, 1400) as (page, _):
        cells = _beside(page, "A: mean wait (s) (First Fit)", 300)
        assert cells[:2] == ["Table 5", "200.71"]
        _consistent(cells)
        assert "runs" in cells[4]  # the store's range of our paper-scale runs
        assert _beside(page, "A: mean waiting ratio (First Fit)")[:2] == ["Table 6", "1.88"]
        assert _beside(page, "B: mean wait (s) (wait integrated)")[:2] == ["Table 9", "28.54"]
        set_slider(page, "slowdown ratio", "2")
        page.locator("td", has_text="61.71").wait_for(timeout=120_000)
        assert _beside(page, "B: mean wait (s) (wait integrated)")[:2] == ["Table 9", "23.30"]
        set_slider(page, "load factor", "1.5")
        page.get_by_text("the paper prints numbers for one 384-processor cluster").wait_for(
            timeout=120_000
        )
        page.screenshot(path=SCREENSHOTS / "app_02_off_table.png", full_page=True)


def test_the_bandwidth_app_shows_section_6_3_baselines_beside_ours(tmp_path):
    """04's app opens at Section 6's four clusters: Migration Only beside the paper's
    1087 s and Ideal beside 735 s, with the range of our 20 paper-scale runs; at two
    clusters it says the paper prints its baselines only for four."""
    from hpcmodels.papers import jones2005
    from hpcmodels.papers.store import read_store, values

    store = read_store("jones2005")
    with opened(ROOT / "notebooks" / "apps" / "04_app.ipynb", tmp_path, 1400) as (page, _):
        for strategy, name in (("migration_only", "Migration Only"), ("ideal", "Ideal")):
            printed = jones2005.BASELINES[strategy]
            cells = _beside(page, f"{name}: average turnaround (s)", 300)
            assert cells[:2] == ["Section 6.3", printed]
            _consistent(cells)
            key = jones2005.ensemble_key("baseline", strategy, "first_available", 0.0, 0.0)
            assert cells[4] == _scale_text(printed, values(store, key))
        set_slider(page, "clusters", "2")
        page.get_by_text("the paper prints numbers here only for Section 6's 4").wait_for(
            timeout=300_000
        )
        page.screenshot(path=SCREENSHOTS / "app_04_two_clusters.png", full_page=True)


def test_the_across_app_shows_the_papers_claims_beside_our_verdicts(tmp_path):
    """06's app opens on the allocation methods under FCFS: each paper's claim on them
    (e.g. Shih's "TLA beats best fit") with our counts of where it holds, as the package
    computes them on the stored runs; on mean wait no claim applies, and it says so."""
    from hpcmodels.explorers.across import claims_table
    from hpcmodels.papers import across
    from hpcmodels.papers.store import read_store

    with opened(ROOT / "notebooks" / "apps" / "06_app.ipynb", tmp_path, 1800) as (page, _):
        page.get_by_text("the papers' claims on these methods beside ours").wait_for(
            timeout=300_000
        )
        runs = across.ensemble_runs(read_store("across"))
        shown = page.locator("table", has_text="the paper says").first
        text = shown.inner_text()
        mine = runs[runs["method"].isin(across.GROUPS["allocation"])]
        mine = mine[(mine["selection"] == "FCFS") & (mine["bsbw"] == mine["bsbw"].iloc[0])]
        expected = claims_table(mine, "att")
        assert not expected.empty
        for _, row in expected.iterrows():
            assert row["the paper says"] in text
        tla = expected[expected["the paper says"] == "TLA beats best fit"].iloc[0]
        cells = [c.strip() for c in shown.locator("tr", has_text="TLA beats best fit")
                 .locator("td").all_inner_texts()]  # fmt: skip
        assert cells[-3:] == [str(tla["holds"]), str(tla["within noise"]), str(tla["reversed"])]
        page.locator(".widget-dropdown", has_text="metric").locator("select").select_option(
            label="mean wait (s)"
        )
        page.get_by_text("no paper compares two of the methods shown here").wait_for(
            timeout=120_000
        )
        page.screenshot(path=SCREENSHOTS / "app_06_claims.png", full_page=True)


def _header(page) -> list[str]:
    """The column names of the map's table (the first table after its caption)."""
    caption = page.get_by_text("the map's cells: the lowest mean")
    table = caption.locator("xpath=following::table[1]")
    return [c.strip() for c in table.locator("thead th").all_inner_texts()]


def test_the_across_apps_map_axes_follow_the_group_without_a_console_error(tmp_path):
    """Issue 52: choosing the co-allocation group gives the map the settings that group
    varies (load x BSBW; its SH is one level), the map's table follows, and the page
    logs no error on the console (nor an uncaught exception)."""
    errors: list[str] = []
    with opened(ROOT / "notebooks" / "apps" / "06_app.ipynb", tmp_path, 1800) as (page, _):
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.get_by_text("the map's cells: the lowest mean").wait_for(timeout=300_000)
        assert _header(page)[1:3] == ["load", "SH"]
        before = charts(page)
        page.locator(".widget-dropdown", has_text="methods of").locator("select").select_option(
            "co-allocation"
        )
        axes = page.locator(".widget-dropdown", has_text="map axes").locator("select")
        page.wait_for_function(
            "() => [...document.querySelectorAll('thead th')].some(t => t.innerText.trim()"
            " === 'BSBW (Mbps)')",
            timeout=120_000,
        )
        page.get_by_text("computing").wait_for(state="hidden", timeout=120_000)
        offered = [t.replace("\xa0", " ") for t in axes.locator("option").all_inner_texts()]
        assert offered == ["load x BSBW"]
        assert _header(page)[1:3] == ["load", "BSBW (Mbps)"]
        assert len(charts(page)) == 1 and charts(page) != before
        assert real_drawing(charts(page)[0])
        page.screenshot(path=SCREENSHOTS / "app_06_coallocation.png", full_page=True)
    assert not errors, f"console errors: {errors[:5]}"


def test_the_allocation_apps_sliders_are_long_enough_to_drag(tmp_path):
    """Issue 52: app 03's long labels ("speed 1 (jobs/s per node)") squeezed the workload
    and speed sliders' tracks to 20-35 px; every track is now at least 120 px (a row too
    narrow for its sliders wraps)."""
    with opened(ROOT / "notebooks" / "apps" / "03_app.ipynb", tmp_path) as (page, _):
        page.get_by_text("the paper's Table 3 (this setting)").wait_for(timeout=300_000)
        widths = page.locator(".widget-slider").evaluate_all(
            "ss => ss.map(s => [s.innerText.split('\\n')[0],"
            " s.querySelector('.slider-container').getBoundingClientRect().width])"
        )
        assert len(widths) == 10
        short = [(label, round(px)) for label, px in widths if px < 120]
        assert not short, f"slider tracks too short to drag: {short}"
