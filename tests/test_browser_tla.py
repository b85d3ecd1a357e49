"""Notebook 01's explorers in a real browser: Voilà serves them, headless Debian chromium
driven by Playwright changes a control, and the page must show the right numbers and a
real chart (a PNG of the right size, not a blank or broken one)."""

import base64
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import sync_playwright

from logs import SDSC, need_log

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
SCREENSHOTS = Path(__file__).resolve().parents[1] / "build" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"voila exited with code {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"voila did not listen on port {port} within {timeout:.0f} s")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """A Voilà server on a notebook holding notebook 01's two explorers."""
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is missing (/usr/bin/chromium): `make test` installs it")
    folder = tmp_path_factory.mktemp("voila")
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from hpcmodels.widgets import tla_snapshot_explorer\n"
                                  "tla_snapshot_explorer()"),
        nbformat.v4.new_code_cell("from hpcmodels.widgets import tla_run_explorer\n"
                                  "tla_run_explorer(n_jobs=2000)"),
    ])  # fmt: skip
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}  # fmt: skip
    nbformat.write(notebook, folder / "tla.ipynb")
    port = _free_port()
    log = open(folder / "voila.log", "w")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
         "tla.ipynb"],
        cwd=folder, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        _wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def _charts(page) -> list[bytes]:
    """Every PNG drawn in the page, decoded."""
    sources = page.locator('img[src^="data:image/png;base64,"]').evaluate_all(
        "imgs => imgs.map(i => i.getAttribute('src'))"
    )
    return [base64.b64decode(src.split(",", 1)[1]) for src in sources]


def _assert_real_charts(page, expected: int = 1) -> None:
    """An explorer prints, then shows its table, then its chart: wait for the charts."""
    page.locator('img[src^="data:image/png;base64,"]').nth(expected - 1).wait_for(timeout=60_000)
    charts = _charts(page)
    assert len(charts) == expected, f"{len(charts)} charts on the page, {expected} expected"
    for png in charts:
        assert png.startswith(b"\x89PNG") and len(png) > 8_000, f"a {len(png)}-byte chart"


def test_snapshot_explorer_recomputes_when_r2_ends_early(app):
    """Fig. 4 with r2 ending at its estimate (5): TLA puts job 1 on B (ATT 10 on A, 8.25
    on B). Typing 1 into r2's end (Fig. 9's actual end) must give 7.75 on A, 8.25 on B and
    the choice A, with the chart redrawn."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(app, timeout=120_000)
        page.get_by_text("TLA allocates job 1 to cluster B").wait_for(timeout=120_000)
        table = page.locator("table").last.inner_text()
        assert "8.25" in table and "10.0" in table
        _assert_real_charts(page)

        readout = page.locator(".widget-slider", has_text="r2 end").locator(".widget-readout")
        readout.click()
        page.keyboard.press("Control+A")
        page.keyboard.type("1")
        page.keyboard.press("Enter")
        page.get_by_text("TLA allocates job 1 to cluster A").wait_for(timeout=60_000)
        table = page.locator("table").last.inner_text()
        assert "7.75" in table and "8.25" in table
        _assert_real_charts(page)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "tla_snapshot_explorer.png", full_page=True)
        browser.close()


def test_run_explorer_runs_the_four_methods_and_depth_one_is_fastest_first(app):
    """Run (A1, medium load, first 2,000 jobs): the progress bar fills, a table of the
    four methods' ATT and a chart appear. Then the depth slider moved one step right
    (depth 1) and Run again: TLA's ATT equals fastest first's (depth 1 decides as FF)."""
    need_log(SDSC)  # A1 is the SDSC SP2 log
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1400})
        page.goto(app, timeout=120_000)
        page.get_by_text("TLA allocates job 1 to cluster B").wait_for(timeout=120_000)
        _assert_real_charts(page, 1)  # the snapshot explorer's

        page.get_by_role("button", name="Run").click()
        page.get_by_text("TLA improvement over the best").wait_for(timeout=120_000)
        _assert_real_charts(page, 2)
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
        _assert_real_charts(page, 2)
        assert depth1["TLA"] == depth1["FF"]
        page.screenshot(path=SCREENSHOTS / "tla_run_explorer.png", full_page=True)
        browser.close()


def _att_table(page) -> dict[str, str]:
    """The run explorer's table (the page's last table): method -> ATT as shown."""
    rows = page.locator("table").last.locator("tbody tr")
    return {r.locator("th").inner_text().strip(): r.locator("td").inner_text().strip()
            for r in rows.all()}  # fmt: skip
