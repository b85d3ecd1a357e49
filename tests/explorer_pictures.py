"""Maintainers: ``make explorer-pictures`` photographs every explorer at its defaults for
the static site (``make site`` shows the picture under each explorer call of a notebook).

Each app of ``notebooks/apps`` (``make app NOTEBOOK=NN``) is served by Voilà
(:func:`browser.voila_app`) and opened in headless chromium; once an explorer's output
has stopped changing, its cell is saved as ``figures/explorers/NN_<explorer>.png``, and
``figures/explorers/pictures.json`` records, for each picture, the explorer, its notebook
and the app's sentence before it (the site's alt text says what the picture shows from
it). Run it again after changing an explorer's defaults or looks, and commit the folder.
Needs Debian's chromium and the logs the apps read (``HPCMODELS_DATA``)."""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser import goto, launch, voila_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
APPS = ROOT / "notebooks" / "apps"
OUT = ROOT / "figures" / "explorers"
CALL = re.compile(r"\s*(\w+_explorer)\(")


def explorer_cells(app: Path) -> list[tuple[int, str, str]]:
    """The app's explorer calls: (index among its code cells, explorer name, the text of
    the markdown cell just before it, or ``""``)."""
    cells = json.loads(app.read_text())["cells"]
    found, code, before = [], -1, ""
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            before = " ".join(source.split())
            continue
        code += 1
        match = CALL.match(source)
        if cell["cell_type"] == "code" and match:
            found.append((code, match.group(1), before))
        before = ""
    return found


def _settled(cell, quiet: float = 3.0, timeout: float = 300.0) -> None:
    """Wait until ``cell`` (a Playwright locator) has shown the same HTML for ``quiet``
    seconds: an explorer prints, then draws its table and its chart."""
    last, since, deadline = None, time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        html = cell.evaluate("c => c.innerHTML")
        if html != last:
            last, since = html, time.monotonic()
        elif time.monotonic() - since >= quiet and "computing" not in cell.inner_text():
            return
        time.sleep(0.5)
    raise TimeoutError(f"the explorer's output was still changing after {timeout:.0f} s")


def photograph(app: Path, out: Path = OUT) -> dict[str, dict[str, str]]:
    """Save a picture of each explorer of ``app`` in ``out``; returns their records
    (file name -> explorer, notebook, description)."""
    from playwright.sync_api import sync_playwright

    number = app.name[:2]
    records: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "apps"
        shutil.copytree(APPS, folder)
        with voila_app(folder, None, name=app.name) as url, sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": 1200, "height": 1000})
            goto(page, url)
            page.locator("#loading").wait_for(state="hidden", timeout=600_000)
            for index, name, description in explorer_cells(app):
                cell = page.locator(".jp-CodeCell").nth(index)
                _settled(cell)
                target = f"{number}_{name}.png"
                cell.screenshot(path=out / target)
                records[target] = {
                    "explorer": name,
                    "notebook": number,
                    "description": description,
                }
                print(f"{target}: {description[:70]}")
            browser.close()
    return records


def main(numbers: list[str]) -> None:
    """Photograph the apps ``numbers`` (all when empty) and update ``pictures.json``."""
    OUT.mkdir(parents=True, exist_ok=True)
    index = OUT / "pictures.json"
    records = json.loads(index.read_text()) if index.exists() else {}
    for app in sorted(APPS.glob("[0-9][0-9]_app.ipynb")):
        if not numbers or app.name[:2] in numbers:
            records.update(photograph(app))  # written app by app: a later failure keeps them
            index.write_text(json.dumps(dict(sorted(records.items())), indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
