"""Browser-test harness: a Voilà server on a generated notebook, and checks that a page
shows real charts. Used by the browser tests in ``tests/explorers/`` (Playwright drives Debian's
headless chromium)."""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import pytest

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
SCREENSHOTS = Path(__file__).resolve().parents[1] / "build" / "screenshots"


def require_chromium() -> None:
    """Browser tests need Debian's chromium. ``make test`` installs it as root; a user who
    is not root gets the browser tests skipped with the package to install; as root a
    missing browser is a failure (the Makefile should have installed it)."""
    if CHROMIUM.exists():
        return
    if os.geteuid() != 0:
        pytest.skip("browser tests need Debian's package chromium (/usr/bin/chromium): "
                    "sudo apt-get install chromium")  # fmt: skip
    pytest.fail("Debian's chromium is missing (/usr/bin/chromium): `make test` installs it")


def launch(playwright):
    """Headless Debian chromium, local pages only."""
    require_chromium()
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)


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


VOILA_TEMPLATE = "offline"  # jupyter/voila/templates/offline: no stylesheet from a CDN


def voila_env() -> dict:
    """The environment ``make app`` gives Voilà: this repository's ``jupyter/`` on
    ``JUPYTER_PATH``, where the offline template lives."""
    jupyter = Path(__file__).resolve().parents[1] / "jupyter"
    path = os.pathsep.join(p for p in (str(jupyter), os.environ.get("JUPYTER_PATH", "")) if p)
    return dict(os.environ, JUPYTER_PATH=path)


@contextlib.contextmanager
def voila_app(folder: Path, sources: list[str] | None, name: str = "app.ipynb"):
    """Serve with Voilà a notebook of the code cells ``sources`` (``None``: the notebook
    ``name`` already in ``folder``); yields its URL."""
    require_chromium()
    if sources is not None:
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                           "language": "python"}  # fmt: skip
        nbformat.write(notebook, folder / name)
    port = _free_port()
    with open(folder / "voila.log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", f"--template={VOILA_TEMPLATE}", name],
            cwd=folder, stdout=log, stderr=subprocess.STDOUT, env=voila_env(),
        )  # fmt: skip
        try:
            _wait_for_port(port, proc)
            yield f"http://127.0.0.1:{port}/"
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def kernel_stacks() -> str:
    """Every running IPython kernel's Python stacks (py-spy), to say why a page that waits
    for its kernel never loaded."""
    spy = Path(sys.executable).with_name("py-spy")
    found = subprocess.run(["pgrep", "-f", "ipykernel"], capture_output=True, text=True)
    dumps = []
    for pid in found.stdout.split():
        try:
            run = subprocess.run([str(spy), "dump", "--pid", pid], capture_output=True, text=True,
                                 timeout=60)  # fmt: skip
            dumps.append(f"--- process {pid}\n{run.stdout}{run.stderr}")
        except (OSError, subprocess.SubprocessError) as err:
            dumps.append(f"--- process {pid}: no dump ({err})")
    return "\n".join(dumps) or "no kernel process found"


def goto(page, url: str, timeout: float = 300.0) -> None:
    """``page.goto(url)``, waiting ``timeout`` seconds for the page (Voilà sends it once
    every cell has run in a new kernel). A page that does not load has the kernels'
    stacks saved under ``build/screenshots/`` and is opened once more, on a new kernel,
    with a warning: under load, Voilà 0.5 with ipykernel 7 sometimes never sends the
    notebook to a kernel that started and sits idle (the saved stacks show it). A second
    failure fails the test, naming both stack files."""
    from playwright.sync_api import TimeoutError as PageTimeout

    saved = []
    for attempt in (1, 2):
        try:
            page.goto(url, timeout=timeout * 1000)
            return
        except PageTimeout:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            path = SCREENSHOTS / f"stuck_{time.strftime('%H%M%S')}_{attempt}.txt"
            path.write_text(kernel_stacks())
            saved.append(str(path))
            warnings.warn(f"{url} did not load in {timeout:.0f} s (attempt {attempt}); "
                          f"kernel stacks: {path}", stacklevel=2)  # fmt: skip
    raise AssertionError(f"{url} did not load in {timeout:.0f} s, twice; kernel stacks: {saved}")


def outside_requests(page) -> list[str]:
    """A list that fills with the URL of every request the page makes to another machine
    (anything but 127.0.0.1 and localhost; file:, data: and blob: URLs have no host)."""
    urls: list[str] = []
    local = ("127.0.0.1", "localhost", None)
    page.on(
        "request", lambda r: urls.append(r.url) if urlparse(r.url).hostname not in local else None
    )
    return urls


def charts(page) -> list[bytes]:
    """Every PNG drawn in the page, decoded."""
    sources = page.locator('img[src^="data:image/png;base64,"]').evaluate_all(
        "imgs => imgs.map(i => i.getAttribute('src'))"
    )
    return [base64.b64decode(src.split(",", 1)[1]) for src in sources]


def assert_real_charts(page, expected: int = 1) -> None:
    """An explorer prints, then shows its table, then its chart: wait for the charts."""
    page.locator('img[src^="data:image/png;base64,"]').nth(expected - 1).wait_for(timeout=60_000)
    found = charts(page)
    assert len(found) == expected, f"{len(found)} charts on the page, {expected} expected"
    for png in found:
        assert png.startswith(b"\x89PNG") and len(png) > 8_000, f"a {len(png)}-byte chart"


def set_slider(page, label: str, value: str, nth: int = 0) -> None:
    """Type ``value`` into the readout of the ``nth`` slider described ``label``."""
    readout = page.locator(".widget-slider", has_text=label).nth(nth).locator(".widget-readout")
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(value)
    page.keyboard.press("Enter")


@contextlib.contextmanager
def jupyter_lab(root: Path):
    """JupyterLab on ``root`` (free loopback port, a random token); yields (URL, token)."""
    import secrets

    require_chromium()
    port, token = _free_port(), secrets.token_hex(16)
    with open(root / "lab.log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
             "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
             f"--ServerApp.root_dir={root}", "--allow-root",
             f"--LabApp.workspaces_dir={root / 'workspaces'}",  # no layout from another run
             f"--LabApp.user_settings_dir={root / 'settings'}"],
            cwd=root, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            _wait_for_port(port, proc)
            yield f"http://127.0.0.1:{port}", token
        except BaseException:  # a failed test shows what the server saw (kernel starts,
            # restarts, websocket errors) in its captured output
            log.flush()
            print("JupyterLab server log (last 40 lines):")
            print("".join((root / "lab.log").read_text().splitlines(True)[-40:]))
            raise
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def start_session(url: str, token: str, path: str, kernel_name: str = "hpcmodels") -> str:
    """Start a ``kernel_name`` kernel for the notebook at ``path`` (relative to the server's
    root) through the server's REST API; returns the kernel's id. A page that then opens
    the notebook joins this session instead of starting a kernel while it loads (a kernel
    started from a page that was still connecting was, once in a few runs on a busy
    machine, lost: JupyterLab then asked "Select Kernel"). The server reports the kernel
    idle only once a client has talked to it: the page waits for that."""
    import json
    import urllib.request

    body = {
        "path": path,
        "type": "notebook",
        "name": Path(path).name,
        "kernel": {"name": kernel_name},
    }
    request = urllib.request.Request(
        f"{url}/api/sessions",
        method="POST",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())["kernel"]["id"]


def real_drawing(png: bytes, min_ink: float = 0.02) -> bool:
    """A chart, not a blank or half-drawn one: a PNG of some size whose non-background
    (not near-white) pixels are at least ``min_ink`` of the image."""
    import io

    import numpy as np
    from PIL import Image

    if not png.startswith(b"\x89PNG") or len(png) < 5_000:
        return False
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("L"))
    return float((pixels < 235).mean()) >= min_ink


def table_rows(scope) -> dict[str, list[str]]:
    """The last table in ``scope``: row label -> cell texts. Read in one script call, so
    a table redrawn meanwhile cannot mix rows of the old and the new one."""
    rows = scope.locator("table").last.evaluate(
        "t => [...t.tBodies[0].rows].map(r => [r.querySelector('th').innerText.trim(),"
        " [...r.querySelectorAll('td')].map(c => c.innerText.trim())])"
    )
    return {label: cells for label, cells in rows}


def scope_charts(scope) -> list[bytes]:
    """The PNGs drawn inside ``scope``."""
    sources = scope.locator('img[src^="data:image/png;base64,"]').evaluate_all(
        "imgs => imgs.map(i => i.getAttribute('src'))"
    )
    return [base64.b64decode(src.split(",", 1)[1]) for src in sources]
