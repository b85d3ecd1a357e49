"""Benchmark of the apps (issue 27): seconds from opening a notebook as a Voilà app to its
first usable explorer, in headless chromium, for the explorers-only app (``make app
NOTEBOOK=NN``, ``notebooks/apps/NN_app.ipynb``) beside the whole notebook (``make app
NOTEBOOK=NN WHOLE=1``), whose explorers wait for every reproduction cell above them.

"Usable" means the page shows a control (slider, dropdown, button or multiple select)
and Voilà's spinner is gone. Each app is opened twice on one server; the second,
warm opening (numba's disk cache and the OS's file cache loaded) is the one to compare
with the target (within 10 s for any notebook, 15 s for every one). The whole notebooks
run at their quick defaults; ``--whole`` chooses which (default 03 and 05, the quicker
ones: 01 and 04 take minutes, measured in the issue); ``--quick`` skips them.

Run: ``python benchmarks/bench_apps.py`` (``make bench``; needs Debian's chromium).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser import launch, voila_app  # noqa: E402  (the browser tests' Voilà server)

USABLE = ".widget-slider, .widget-dropdown, .widget-button, .widget-select-multiple"
TARGET = 10.0


def time_to_explorer(page, url: str, timeout: float = 900.0) -> float:
    """Seconds from navigation to the first visible control with no spinner left."""
    start = time.perf_counter()
    page.goto(url, timeout=timeout * 1000)
    page.locator(USABLE).first.wait_for(state="visible", timeout=timeout * 1000)
    page.locator("#loading").wait_for(state="hidden", timeout=timeout * 1000)
    return time.perf_counter() - start


def measure(notebook: Path, copies: Path) -> tuple[float, float]:
    """(first, warm) opening times of ``notebook``, served from a copy of its folder."""
    folder = copies / notebook.parent.name
    if not folder.exists():
        shutil.copytree(notebook.parent, folder)
    with voila_app(folder, None, name=notebook.name) as url, sync_playwright() as p:
        browser = launch(p)
        times = []
        for _ in range(2):
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            times.append(time_to_explorer(page, url))
            page.close()
        browser.close()
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="apps only")
    parser.add_argument("--whole", nargs="*", default=["03", "05"], help="whole notebooks")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        copies = Path(tmp)
        for app in sorted((ROOT / "notebooks" / "apps").glob("[0-9][0-9]_app.ipynb")):
            number = app.name[:2]
            first, warm = measure(app, copies)
            row = {"notebook": number, "app: first (s)": first, "app: warm (s)": warm,
                   "within 10 s": warm <= TARGET}  # fmt: skip
            if not args.quick and number in args.whole:
                whole = next((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
                row["whole notebook: warm (s)"] = measure(whole, copies)[1]
            rows.append(row)
            print(f"{number}: app {first:.1f} s, warm {warm:.1f} s", flush=True)
    table = pd.DataFrame(rows).set_index("notebook")
    print()
    print(table.round(1).to_string())
    print(f"\nevery app within 15 s (warm): {bool((table['app: warm (s)'] <= 15).all())}")


if __name__ == "__main__":
    main()
